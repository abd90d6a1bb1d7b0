"""Every metric on small hand-made games whose values are computed by hand.

Dash (data/dash) always lasts 3 plies and White always wins: White's runner steps
a1-a2, Black's blocker b3-b2, the runner a2-a3 reaches the far rank. Coin
(data/coin) has a chance event every turn; Gate and Choice (data/gate,
data/choice) are one-player games of one and two plies.
"""
import pytest

from interpreter.analysis.analyze import analyze
from interpreter.analysis.analyze.playout import CUT_OFF

from .helpers import CHOICE, COIN, DASH, GATE, row, value

GAMES = 8


@pytest.fixture(scope="module")
def dash():
    return analyze(DASH, games=GAMES, seed=1, trace_every=1)


def test_outcomes_of_a_game_the_first_player_always_wins(dash):
    assert value(dash, "wins.white") == 1.0 and value(dash, "wins.black") == 0.0
    assert value(dash, "draws") == 0.0 and value(dash, "timeouts") == 0.0
    assert value(dash, "completion") == 1.0
    assert value(dash, "advantage") == 1.0  # the first seat won every decided game
    assert value(dash, "balance") == 0.0  # 1 - |1 - 0|
    white = row(dash.metrics, "wins.white").cells[0]
    assert white.kind == "rate" and white.n == GAMES and white.high == 1.0 and white.low < 1.0


def test_duration_of_a_game_that_always_ends_in_three_plies(dash):
    assert value(dash, "plies") == 3 and value(dash, "turns") == 3  # white, black, white
    assert value(dash, "plies.sd") == 0
    plies = row(dash.metrics, "plies").cells[0]
    assert (plies.low, plies.high) == (3, 3)


def test_choices_of_a_game_without_choice(dash):
    assert value(dash, "branching") == 1.0  # one legal action in each of the 3 positions
    assert value(dash, "decision_moves") == 0.0  # never more than one
    # a1 and b3 occupied at the start, a2, b2 and a3 landed on: 5 of 6 squares.
    assert value(dash, "board_coverage") == pytest.approx(5 / 6)


def test_course_of_the_game_by_the_score_rule(dash):
    # Scores white 0, 2, 2, 4 and black 0, 0, 1, 1 (test_trace.py has the arithmetic).
    assert value(dash, "lead_changes") == pytest.approx(1 / 3)
    assert value(dash, "stability") == pytest.approx(2.25)
    assert value(dash, "decisiveness") == pytest.approx(1 / 3)
    assert value(dash, "repetition") == 0.0
    assert row(dash.metrics, "lead_changes").cells[0].n == GAMES  # trace_every=1: every game


def test_by_default_one_game_in_4_is_counted_and_one_in_16_traced():
    report = analyze(DASH, games=32, seed=1)
    assert row(report.metrics, "plies").cells[0].n == 32  # every game
    assert row(report.metrics, "branching").cells[0].n == 8  # games 0, 4, ..., 28
    assert row(report.metrics, "lead_changes").cells[0].n == 2  # games 0 and 16
    assert value(report, "turns") == 3 and value(report, "board_coverage") == pytest.approx(5 / 6)


def test_only_every_kth_game_is_traced():
    report = analyze(DASH, games=GAMES, seed=1, trace_every=3)
    assert row(report.metrics, "lead_changes").cells[0].n == 3  # games 0, 3, 6
    untraced = analyze(DASH, games=GAMES, seed=1, trace_every=0)
    assert row(untraced.metrics, "lead_changes").cells[0].value is None


def test_landings_per_site(dash):
    heat = dict(zip(dash.columns[0].sites, dash.columns[0].heat))
    assert heat == {"a1": 0, "b1": 0, "a2": GAMES, "b2": GAMES, "a3": GAMES, "b3": 0}


def test_how_the_games_end(dash):
    (ending,) = dash.endings
    assert ending.label == "win" and ending.where.endswith("dash.rules:17:17")
    assert ending.cells[0].value == 1.0


def test_rule_coverage_flags_a_rule_that_can_never_fire(dash):
    onto_empty = row(dash.coverage, next(r.key for r in dash.coverage if "onto empty" in r.label))
    onto_enemy = row(dash.coverage, next(r.key for r in dash.coverage if "onto enemy" in r.label))
    assert onto_empty.cells[0].value == 3 and onto_empty.shares[0].value == 1.0
    assert onto_enemy.cells[0].value == 0 and onto_enemy.never(0)
    assert onto_enemy.where.endswith("dash.rules:19:9")


def test_a_game_cut_off_at_the_ply_bound():
    report = analyze(DASH, games=4, seed=1, max_plies=2)
    assert value(report, "timeouts") == 1.0 and value(report, "completion") == 0.0
    assert value(report, "draws") == 0.0  # a cut-off is not a draw
    assert value(report, "plies") == 2
    (ending,) = report.endings
    assert ending.label == "cut off at 2 plies" and ending.cells[0].value == 1.0
    assert all(g.ending == CUT_OFF for g in report.columns[0].games)


def test_chance_outcomes_count_as_plies():
    # Coin: heads (probability 1/2) wins for the player to move. White wins with
    # probability 1/2 + 1/8 + ... = 2/3; a game lasts 2 plies per tails turn (the
    # flip and a pass) plus 1 for the heads: 3 plies on average.
    report = analyze(COIN, games=2000, seed=5)
    white, plies = row(report.metrics, "wins.white").cells[0], row(report.metrics, "plies").cells[0]
    assert white.low < 2 / 3 < white.high and plies.low < 3 < plies.high
    # Not 2 (flips left out) nor 1 (passes left out): the interval is narrow enough.
    assert plies.high - plies.low < 0.5
    assert value(report, "branching") == 2.0 and value(report, "decision_moves") == 1.0


def test_balance_stays_between_0_and_1():
    # Coin over 3 games: few games make a wide interval, clipped to what is possible.
    balance = row(analyze(COIN, games=3, seed=0).metrics, "balance").cells[0]
    assert 0 <= balance.low <= balance.value <= balance.high <= 1


def test_one_player_games_have_no_balance():
    report = analyze(GATE, games=3, seed=1)
    assert value(report, "plies") == 1 and value(report, "wins.white") == 1.0
    assert "balance" not in [r.key for r in report.metrics]
    assert value(analyze(CHOICE, games=3, seed=1), "plies") == 2
