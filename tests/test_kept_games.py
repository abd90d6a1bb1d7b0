"""The test run keeps the games it compiled (tests/conftest.py): a test that switches
a compiler pass off must still get a game compiled without it, or every "the same
with the mechanism off" test would compare a game with itself."""
from __future__ import annotations

import interpreter
from interpreter.compilation import compiler
from tests.helpers import GAMES, REPO, random_games_seen


def test_a_game_loaded_again_is_the_one_kept():
    assert interpreter.load_game(str(GAMES / "lielow")) is interpreter.load_game(str(GAMES / "lielow"))


def test_a_switched_off_pass_gets_a_game_of_its_own(monkeypatch):
    kept = interpreter.load_game(str(GAMES / "lielow"))
    monkeypatch.setattr(compiler, "tabulate", lambda *args: None)
    without = interpreter.load_game(str(GAMES / "lielow"))
    assert without is not kept
    monkeypatch.undo()
    assert interpreter.load_game(str(GAMES / "lielow")) is kept


def test_the_game_asked_for_again_is_kept_longest(monkeypatch):
    # A request keeps a few games (passes switched off and on); the one asked for last
    # is dropped last, however long ago it was compiled.
    kept = interpreter.load_game(str(GAMES / "lielow"))
    switched = [lambda *args: None for _ in range(4)]  # (each its own: kept alive, no id reused)
    for off in switched:
        monkeypatch.setattr(compiler, "tabulate", off)
        interpreter.load_game(str(GAMES / "lielow"))
        monkeypatch.undo()
        assert interpreter.load_game(str(GAMES / "lielow")) is kept


def test_options_and_coverage_are_not_shared():
    kept = interpreter.load_game(str(GAMES / "royalfiz"))
    assert interpreter.load_game(str(GAMES / "royalfiz"), {"players": 3}) is not kept
    assert interpreter.load_game(str(GAMES / "royalfiz"), coverage=True) is not kept


def test_a_switched_flag_gets_a_game_of_its_own(monkeypatch):
    from interpreter.compilation import clearances
    kept = interpreter.load_game(str(REPO / "docs" / "examples" / "chess"))
    monkeypatch.setattr(clearances, "ENABLED", not clearances.ENABLED)
    assert interpreter.load_game(str(REPO / "docs" / "examples" / "chess")) is not kept


def test_playing_keeps_the_kept_game():
    """Playing, listing, perft and the default player rebind the interpreter's own
    caches; the game kept must stay the one loaded again (else every later load of
    the run compiles anew)."""
    from interpreter.frontends.agents.mcts import MCTSAgent
    for path in (REPO / "docs" / "examples" / "chess", GAMES / "royalfiz", GAMES / "regibus"):
        kept = interpreter.load_game(str(path))
        random_games_seen(kept, range(2))
        kept.engine.perft(kept.engine.initial_state(), 2)
        MCTSAgent(iterations=20, seed=1).choose(kept, kept.initial_state())
        assert interpreter.load_game(str(path)) is kept, path


def test_a_cache_rebound_while_playing_keeps_the_kept_game(monkeypatch):
    from interpreter.runtime import helpers
    kept = interpreter.load_game(str(GAMES / "lielow"))
    monkeypatch.setattr(helpers, "_PATH_BITS", dict(helpers._PATH_BITS))
    monkeypatch.setattr(helpers, "_last_failures", list(helpers._last_failures))
    assert interpreter.load_game(str(GAMES / "lielow")) is kept
