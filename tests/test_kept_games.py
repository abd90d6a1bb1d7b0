"""The test run keeps the games it compiled (tests/conftest.py): a test that switches
a compiler pass off must still get a game compiled without it, or every "the same
with the mechanism off" test would compare a game with itself."""
from __future__ import annotations

import interpreter
from interpreter.compilation import compiler
from tests.helpers import GAMES


def test_a_game_loaded_again_is_the_one_kept():
    assert interpreter.load_game(str(GAMES / "lielow")) is interpreter.load_game(str(GAMES / "lielow"))


def test_a_switched_off_pass_gets_a_game_of_its_own(monkeypatch):
    kept = interpreter.load_game(str(GAMES / "lielow"))
    monkeypatch.setattr(compiler, "tabulate", lambda *args: None)
    without = interpreter.load_game(str(GAMES / "lielow"))
    assert without is not kept
    monkeypatch.undo()
    assert interpreter.load_game(str(GAMES / "lielow")) is kept


def test_options_and_coverage_are_not_shared():
    kept = interpreter.load_game(str(GAMES / "royalfiz"))
    assert interpreter.load_game(str(GAMES / "royalfiz"), {"players": 3}) is not kept
    assert interpreter.load_game(str(GAMES / "royalfiz"), coverage=True) is not kept
