"""The figures of a game's course (trace.py), on score rows computed by hand."""
import pytest

from interpreter.analysis.analyze.trace import decisiveness, lead_changes, repetition, stability, summarise_trace

# Dash: white 0, 2, 2, 4; black 0, 0, 1, 1 over its four positions.
DASH = [(0, 0), (2, 0), (2, 1), (4, 1)]


def test_lead_changes_count_changes_of_the_set_of_leaders_per_ply():
    assert lead_changes(DASH) == pytest.approx(1 / 3)  # {w,b} -> {w} once in 3 plies
    assert lead_changes([(0, 1), (1, 0), (0, 1), (1, 0)]) == 1.0
    assert lead_changes([(5, 5)]) == 0.0


def test_stability_sums_each_players_variance():
    # white: mean 2, variance (4 + 0 + 0 + 4) / 4 = 2; black: mean 0.5, variance 0.25.
    assert stability(DASH) == pytest.approx(2.25)
    assert stability([(3, 1), (3, 1)]) == 0.0


def test_decisiveness_is_the_share_of_plies_before_the_winner_is_out_of_reach():
    assert decisiveness(DASH, winner=0) == pytest.approx(1 / 3)  # white 2 > black's best 1 at ply 1
    # Black wins without ever leading on the score: decided only at the end.
    assert decisiveness(DASH, winner=1) == 1.0
    assert decisiveness(DASH, winner=-1) is None


def test_repetition_is_the_share_of_repeated_positions():
    assert repetition(["a", "b", "a", "b"]) == 0.5
    assert repetition(["a", "b", "c"]) == 0.0


def test_a_game_without_score_rule_has_only_repetition():
    summary = summarise_trace([None, None], ["x", "x"], winner=0)
    assert (summary.lead_changes, summary.stability, summary.decisiveness) == (None, None, None)
    assert summary.repetition == 0.5
    assert summarise_trace(DASH, None, winner=0).repetition is None
