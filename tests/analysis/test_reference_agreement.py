"""`analyze` on uniform random play against the independent, hand-written
reference implementations (tests/reference/): seat win rates, the draw rate, the
mean length in plies and the mean branching factor must agree within their 95%
intervals (the two intervals overlap). Slow: REGELWERK_SLOW=1.
"""
import random

import pytest

from interpreter.analysis.analyze import analyze
from interpreter.analysis.analyze.stats import mean, rate
from tests.reference import lielow_ref, regibus_ref

KEYS = ("wins.white", "wins.black", "draws", "plies", "branching")


def reference_games(game, games: int, seed: int) -> list[tuple]:
    """(winner, plies, branching factor) of `games` uniform random games."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.fast_initial()
        plies = positions = choices = 0
        while True:
            actions, weights = game.fast_legal(state)
            if not actions:
                break
            if weights is None:
                positions += 1
                choices += len(actions)
                game.fast_apply(state, rng.choice(actions))
            else:
                game.fast_apply(state, rng.choices(actions, weights)[0])
            plies += 1
        winner, _ = game.result(state)
        out.append((winner, plies, choices / positions))
    return out


def reference_estimates(games: list[tuple]) -> dict:
    n = len(games)
    return {
        "wins.white": rate(sum(w == "white" for w, _, _ in games), n),
        "wins.black": rate(sum(w == "black" for w, _, _ in games), n),
        "draws": rate(sum(w is None for w, _, _ in games), n),
        "plies": mean([p for _, p, _ in games]),
        "branching": mean([b for _, _, b in games]),
    }


def assert_agree(report, column: int, reference: dict) -> None:
    for key in KEYS:
        ours = next(r for r in report.metrics if r.key == key).cells[column]
        theirs = reference[key]
        assert ours.low <= theirs.high and theirs.low <= ours.high, (
            f"{report.columns[column].label} {key}: ours {ours.value:.4f} [{ours.low:.4f}, {ours.high:.4f}], "
            f"reference {theirs.value:.4f} [{theirs.low:.4f}, {theirs.high:.4f}]")


@pytest.mark.slow
def test_lielow_agrees_with_the_reference():
    report = analyze("lielow", games=2000, seed=11, trace_every=1)
    assert_agree(report, 0, reference_estimates(reference_games(lielow_ref.Game(), 2000, seed=12)))


@pytest.mark.slow
def test_regibus_agrees_with_the_reference_for_each_capture_option():
    report = analyze("regibus", compare=["capture=whole"], games=400, seed=13, trace_every=1)
    for column, capture in enumerate(("top", "whole")):
        games = reference_games(regibus_ref.Game({"capture": capture}), 400, seed=14 + column)
        assert_agree(report, column, reference_estimates(games))
