"""The benchmark definitions load, describe themselves, and start as OpenSpiel's
games do (perft counts taken from OpenSpiel; the slow oracle tests go deeper)."""
from __future__ import annotations

import pytest

from benchmarks.catalog import GAMES
from interpreter.analysis.perft import perft

# Depths 1-2 from the start, as counted by OpenSpiel (chess: the known 20, 400;
# amazons: a move and a shot, which OpenSpiel counts in three actions as 4, 80, 2176;
# backgammon: the first roll, then the first checker of a move, where OpenSpiel
# counts 30 rolls and then moves of two checkers).
START_PERFT = {
    "connect_four": [7, 49],
    "clobber": [49, 2116],
    "breakthrough": [22, 484],
    "checkers": [7, 49],
    "othello": [4, 12],
    "kalah": [6, 35],
    "amazons": [80, 2176],
    "morris": [24, 552],
    "chess": [20, 400],
    "go": [82, 6643],
    "pentago": [36, 288],
    "xiangqi": [44, 1920],
    "lines_of_action": [36, 1244],
    "quoridor": [131, 16677],
    "backgammon": [30, 200],
    "antichess": [20, 400],
    "crazyhouse": [20, 400],
}

# Warnings that `validate` gives wrongly on these definitions, each a known defect
# of the checks (issue 27), not of the definition: an action hidden by one alike
# where the first is rejected by `forbid result` or sits in another `prefer`
# tier; an overlay's added action reported next to a near namesake it does not
# replace; a worst-case estimate of the work of listing slides under `forbid result`.
# Each must still be given (so that this list goes when the checks are fixed).
KNOWN_WARNINGS: dict[str, list[str]] = {}


def test_every_benchmark_game_has_start_counts():
    assert set(START_PERFT) == set(GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_definition_loads_with_title_and_no_warnings(name):
    game = GAMES[name].load()
    assert game.title != game.name
    known = KNOWN_WARNINGS.get(name, [])
    messages = [str(w) for w in game.warnings]
    assert [m for m in messages if not any(k in m for k in known)] == []
    assert [k for k in known if not any(k in m for m in messages)] == []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_start_perft(name):
    game = GAMES[name].load()
    assert perft(game, game.initial_state(), 2) == START_PERFT[name]


@pytest.mark.parametrize("given, message", [
    ("othello", "--definition wants GAME=PATH, not 'othello'"),
    ("reversi=docs/examples/reversi", "--definition: unknown game 'reversi'"),
    ("othello=no/such/folder", "--definition: no such file or folder: no/such/folder"),
])
def test_the_runner_refuses_a_definition_it_cannot_use(given, message, capsys):
    from benchmarks import run

    with pytest.raises(SystemExit) as exit_:
        run.main(["othello", "--definition", given])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_the_runner_reports_a_broken_definition_with_its_place(tmp_path, capsys):
    from benchmarks import run
    from benchmarks.catalog import GAMES_DIR

    for source in (GAMES_DIR / "othello").iterdir():
        (tmp_path / source.name).write_text(source.read_text())
    (tmp_path / "othello.rules").write_text((tmp_path / "othello.rules").read_text() + "garbage line\n")
    with pytest.raises(SystemExit) as exit_:
        run.main(["othello", "--definition", f"othello={tmp_path}"])
    assert exit_.value.code == 1
    assert "othello.rules:" in capsys.readouterr().err


def test_the_oracle_takes_the_same_definitions_and_refuses_the_same_mistakes(capsys):
    from benchmarks import oracle

    for argv, message in ((["othellox"], "unknown game(s) othellox"),
                          (["othello", "--definition", "othello=no/such"], "no such file or folder: no/such")):
        with pytest.raises(SystemExit) as exit_:
            oracle.main(argv)
        assert exit_.value.code == 2
        assert message in capsys.readouterr().err


def test_a_definition_in_place_of_the_benchmarks_own():
    from benchmarks.catalog import EXAMPLES_DIR, with_definitions

    games = with_definitions([f"othello={EXAMPLES_DIR / 'reversi'}"])
    assert games["othello"].definition == str(EXAMPLES_DIR / "reversi")
    assert games["othello"].adapter is GAMES["othello"].adapter
    assert games["chess"] is GAMES["chess"]
    assert perft(games["othello"].load(), games["othello"].load().initial_state(), 2) == START_PERFT["othello"]


def test_the_runner_times_by_the_clock_asked(capsys):
    pytest.importorskip("pyspiel", reason="the runner needs the bench extra (OpenSpiel)")
    pytest.importorskip("chess", reason="the runner needs the bench extra (python-chess)")
    import json
    import time

    from benchmarks import run, timing

    try:
        assert run.main(["connect_four", "--clock", "process", "--seconds", "0.05", "--rounds", "1",
                         "--json"]) == 0
        assert timing.clock is time.process_time
    finally:
        timing.use_clock("wall")
    report = json.loads(capsys.readouterr().out)
    assert report["clock"] == "process"
    connect_four = report["games"][0]
    assert connect_four["perft"]["regelwerk"]["leaves"] == connect_four["perft"]["openspiel"]["leaves"]
    assert connect_four["regelwerk"]["playouts"] >= 1


def test_timed_playouts_follow_the_clock_chosen():
    import time

    from benchmarks import timing

    try:
        timing.use_clock("process")
        assert timing.clock is time.process_time
        # (a playout that sleeps uses no processor time: the wall clock would end it at once)
        playouts, plies, elapsed = timing.timed(lambda: time.sleep(0.002) or 1, 0.002)
        assert playouts > 1 and plies == playouts and elapsed >= 0.002
    finally:
        timing.use_clock("wall")
    assert timing.clock is time.perf_counter
    assert timing.timed(lambda: time.sleep(0.01) or 1, 0.005)[0] == 1
