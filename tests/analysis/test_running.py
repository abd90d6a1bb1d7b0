"""Where the games run changes nothing; Ctrl-C keeps what was measured; agents."""
import json
import os
import subprocess
import sys

import pytest

from interpreter.analysis.analyze import analyze
from interpreter.analysis.analyze.driver import check_players
from interpreter.frontends.agents import make_agent

from .helpers import COIN, DASH, DATA, row, value

HEAD_START = str(DATA / "dash" / "variants" / "head-start.yaml")


def as_json(report) -> str:
    return json.dumps(report.to_json())


def test_the_number_of_processes_changes_nothing():
    serial = analyze("lielow", games=40, seed=3)
    assert as_json(serial) == as_json(analyze("lielow", games=40, seed=3, jobs=2))


NEEDS_DASK = "needs Dask: the cluster extra (pip install -e '.[cluster]'; .ci/run installs it)"


def test_a_dask_cluster_changes_nothing():
    pytest.importorskip("distributed", reason=NEEDS_DASK)
    serial = analyze(COIN, [], compare=[], games=30, seed=4)
    assert as_json(serial) == as_json(analyze(COIN, games=30, seed=4, jobs=2, scheduler="local"))


def test_hash_randomisation_changes_nothing():
    """Worker processes (a Dask cluster's in particular) have their own string
    hashes: the games must not depend on them."""
    command = [sys.executable, "-m", "interpreter", "analyze", "regibus", "--games", "6", "--seed", "2", "--json"]
    outputs = {subprocess.run(command, capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outputs) == 1


def test_the_seed_changes_the_games():
    assert as_json(analyze(COIN, games=30, seed=1)) != as_json(analyze(COIN, games=30, seed=2))


def interrupt_after(calls: int):
    seen = [0]

    def progress(done, total):
        seen[0] += 1
        if seen[0] == calls:
            raise KeyboardInterrupt

    return progress


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_the_games_finished(jobs):
    report = analyze(DASH, [HEAD_START], games=200, seed=1, jobs=jobs, progress=interrupt_after(2))
    assert report.interrupted
    played = [len(data.games) for data in report.columns]
    assert 0 < sum(played) < 400
    assert value(report, "plies") == 3  # what was measured is right
    assert not analyze(DASH, games=3, seed=1).interrupted


def test_agents_play_the_games():
    report = analyze(DASH, games=3, seed=1, players="mcts:3,random", agent_factory=make_agent)
    assert value(report, "plies") == 3 and report.players == "mcts:3,random"


def test_rule_coverage_counts_the_games_played_not_the_agents_simulations():
    # Every game of Dash is 3 steps (the runner's 2, the blocker's 1) and one win;
    # the agents' searches play hundreds of simulated steps that must not count.
    report = analyze(DASH, games=3, seed=1, players="mcts:40", agent_factory=make_agent)
    fired = {(r.kind, r.label): r.cells[0].value for r in report.coverage}
    assert fired[("case", "action 'step', onto empty")] == 3
    assert fired[("branch", "if piece is runner")] == 2 and fired[("branch", "else")] == 1
    assert fired[("ending", "win")] == 1
    assert [r.cells[0].value for r in report.endings] == [1.0]


def test_the_depth_test_alternates_the_seats():
    # White always wins Dash: the stronger player wins exactly the games it plays white.
    report = analyze(DASH, games=2, seed=1, depth_test=2, depth_games=4, agent_factory=make_agent)
    depth = row(report.metrics, "depth")
    assert depth.label == "mcts:4 beats mcts:2" and depth.cells[0].value == 0.5 and depth.cells[0].n == 4


@pytest.mark.parametrize("players, message", [
    ("human", "built-in players only"),
    ("mcst", "unknown agent"),
    ("random,random,random", "3 players given"),
    ("mcts,", "separated by commas"),
])
def test_bad_players(players, message):
    with pytest.raises(ValueError, match=message):
        analyze(DASH, games=1, players=players, agent_factory=make_agent)


def test_agents_need_a_factory():
    with pytest.raises(ValueError, match="agent_factory"):
        analyze(DASH, games=1, players="mcts")
    with pytest.raises(ValueError, match="agent_factory"):
        analyze(DASH, games=1, depth_test=5)
    assert check_players("random", None, None) is None


@pytest.mark.parametrize("name, bad", [("games", 0), ("max_plies", -1), ("jobs", 0), ("trace_every", -1),
                                       ("depth_games", 0)])
def test_bad_numbers(name, bad):
    with pytest.raises(ValueError, match=name):
        analyze(DASH, **{"games": 1, name: bad})


@pytest.mark.parametrize("address, says", [
    ("nowhere", "missing port number"),
    ("tcp://127.0.0.1:9", "Timed out trying to connect"),
])
def test_a_scheduler_that_cannot_be_used_is_a_clear_error(address, says, capsys):
    # In this process (the command's `main`, as `regelwerk` calls it): a process of its
    # own spent most of its time importing Dask. The real command line is run by
    # test_hash_randomisation_changes_nothing and tests/cli/test_entry_point.py.
    pytest.importorskip("distributed", reason=NEEDS_DASK)
    import dask

    from interpreter.frontends import cli

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        status = cli.main(["analyze", "lielow", "--games", "2", "--scheduler", address])
    stderr = capsys.readouterr().err
    assert status == 1
    assert stderr.startswith(f"regelwerk: cannot use the Dask scheduler at '{address}': ")
    assert says in stderr and "Traceback" not in stderr
