"""The end of a game scored with exact decimals (a komi: `Fraction`s beside whole
numbers): the winner and the limit on scores are worked out on whole numbers over
the scores' common denominator (runtime/results.py), and must be what comparing
the Fractions themselves gives."""
from fractions import Fraction

import pytest

from interpreter.runtime.errors import RuleRuntimeError
from interpreter.runtime.helpers import NUMBER_LIMIT
from interpreter.runtime.results import EndingKind, Results

END = int(EndingKind.END_GAME)


def scored(values, teams=()):
    """Results of len(values) players whose score rule gives `values`."""
    return Results(n=len(values), endings=(), score=lambda s, p: values[p], teams=teams)


@pytest.mark.parametrize("values, winner", [
    ((2, Fraction(3, 2)), 0),  # 2 against 1.5
    ((1, Fraction(3, 2)), 1),
    ((Fraction(3, 2), Fraction(3, 2)), -1),  # level
    ((2, Fraction(4, 2)), -1),  # a whole Fraction ties the same whole number
    ((Fraction(1, 3), Fraction(1, 2), 0), 1),  # denominators 3 and 2: compared over 6
    ((Fraction(7, 6), Fraction(5, 4), Fraction(5, 4)), -1),
    ((Fraction(-1, 2), -1, Fraction(-2, 3)), 0),  # negative scores
])
def test_the_highest_score_wins_as_the_fractions_compare(values, winner):
    results = scored(values)
    scores = results.scores(None)
    assert scores == values  # (given back as the rule made them: Fractions stay Fractions)
    assert [type(x) for x in scores] == [type(x) for x in values]
    assert results._players_outcome(END, -1, scores) == (winner, values)


def test_a_side_holding_the_highest_decimal_score_wins():
    results = scored((Fraction(5, 2), 1, Fraction(5, 2), Fraction(7, 3)), teams=((0, 2), (1, 3)))
    assert results._sides_outcome(END, -1, results.scores(None))[0] == results.code_of((0, 2))
    tied = scored((Fraction(5, 2), Fraction(10, 4), 0), teams=((0, 2),))
    assert tied._sides_outcome(END, -1, tied.scores(None))[0] == -1


@pytest.mark.parametrize("value, beyond", [
    (NUMBER_LIMIT + Fraction(1, 2), True),
    (Fraction(NUMBER_LIMIT), False),  # at the limit, not beyond it
    (NUMBER_LIMIT - Fraction(1, 3), False),
    (-NUMBER_LIMIT - Fraction(1, 7), True),
    (-NUMBER_LIMIT + Fraction(1, 7), False),
])
def test_a_decimal_score_beyond_the_limit_is_a_fault(value, beyond):
    results = scored((1, value))
    if beyond:
        with pytest.raises(RuleRuntimeError, match="a score grew beyond"):
            results.scores(None)
    else:
        assert results.scores(None) == (1, value)


def test_whole_scores_and_others_are_compared_as_they_are():
    assert scored((3, 5)).scores(None) == (3, 5)
    assert scored((3, 5))._players_outcome(END, -1, (3, 5)) == (1, (3, 5))
    with pytest.raises(RuleRuntimeError, match="a score grew beyond"):
        scored((0, -NUMBER_LIMIT - 1)).scores(None)
    mixed = (Fraction(1, 2), 0.75)  # (no rule makes a float: compared as given)
    assert scored(mixed)._players_outcome(END, -1, mixed) == (1, mixed)
