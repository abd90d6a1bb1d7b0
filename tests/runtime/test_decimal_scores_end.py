"""A game's end with decimal scores (Fractions, runtime/results.py): the limit
asked of a Fraction by its numerator and denominator, the winner the one player
holding the best score — the same results, and types, as comparisons give."""
from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest

from interpreter.runtime.errors import RuleRuntimeError
from interpreter.runtime.helpers import NUMBER_LIMIT
from interpreter.runtime.results import EndingKind, Results


def _ended(scores: tuple) -> SimpleNamespace:
    results = Results(len(scores), ((EndingKind.END_GAME, None),),  # type: ignore[arg-type]
                      score=lambda s, i: scores[i])
    s = SimpleNamespace(result=None, ending=-1)
    results.end(s, int(EndingKind.END_GAME), -1, 0)
    return s


@pytest.mark.parametrize("scores, winner", [
    ((Fraction(1131), Fraction(-885)), 0),
    ((Fraction(-885), Fraction(1131)), 1),
    ((Fraction(7, 2), Fraction(7, 2), Fraction(1)), -1),
    ((Fraction(1, 3), 2, Fraction(5, 2)), 2),
    ((3, Fraction(6, 2)), -1),
    ((Fraction(2), 1), 0),
])
def test_the_winner_holds_the_best_score_alone(scores, winner):
    s = _ended(scores)
    assert s.result == (winner, scores)
    assert [type(x) for x in s.result[1]] == [type(x) for x in scores]


@pytest.mark.parametrize("value, beyond", [
    (Fraction(NUMBER_LIMIT), False),
    (Fraction(-NUMBER_LIMIT), False),
    (Fraction(NUMBER_LIMIT + 1), True),
    (Fraction(-NUMBER_LIMIT - 1), True),
    (Fraction(3 * NUMBER_LIMIT + 1, 3), True),
    (Fraction(3 * NUMBER_LIMIT - 1, 3), False),
    (Fraction(-3 * NUMBER_LIMIT - 1, 3), True),
    (Fraction(-3 * NUMBER_LIMIT + 1, 3), False),
])
def test_a_decimal_score_beyond_the_limit_is_refused(value, beyond):
    for scores in ((value, Fraction(1, 2)), (Fraction(1, 2), value), (Fraction(0), 5, value)):
        if beyond:
            with pytest.raises(RuleRuntimeError, match="a score grew beyond"):
                _ended(scores)
        else:
            assert _ended(scores).result[1] == scores


def test_an_int_beyond_the_limit_after_a_fraction_is_refused():
    with pytest.raises(RuleRuntimeError, match="a score grew beyond"):
        _ended((Fraction(1, 2), NUMBER_LIMIT + 1))
    assert _ended((Fraction(1, 2), NUMBER_LIMIT)).result == (1, (Fraction(1, 2), NUMBER_LIMIT))
