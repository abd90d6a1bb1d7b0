"""The intervals and tests of the analysis, against published values."""
import math

import pytest

from interpreter.analysis.analyze.stats import Estimate, difference, mean, rate, spread, t95, wilson


def test_wilson_interval_of_newcombe_example():
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", 81/263.
    low, high = wilson(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)


def test_wilson_interval_at_the_edges():
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    assert rate(0, 0).value is None


def test_newcombe_interval_of_a_difference():
    # Newcombe (1998), "Interval estimation for the difference between independent
    # proportions", example (a): 56/70 - 48/80, method 10: 0.0524 to 0.3339.
    diff = difference(rate(56, 70), rate(48, 80))
    assert round(diff.value, 4) == 0.2
    assert (round(diff.low, 4), round(diff.high, 4)) == (0.0524, 0.3339)
    assert diff.significant
    assert not difference(rate(50, 100), rate(45, 100)).significant


def test_student_quantiles():
    assert t95(1) == 12.706 and t95(10) == 2.228 and t95(10.7) == 2.228
    assert abs(t95(40) - 2.021) < 0.001 and abs(t95(120) - 1.980) < 0.001
    assert abs(t95(1e9) - 1.95996) < 1e-4


def test_mean_interval_by_hand():
    # 1, 2, 3, 4, 5: mean 3, sd sqrt(2.5), half width t(4) * sd / sqrt(5).
    est = mean([1, 2, 3, 4, 5])
    half = 2.776 * math.sqrt(2.5) / math.sqrt(5)
    assert est.value == 3 and est.n == 5
    assert est.low == pytest.approx(3 - half) and est.high == pytest.approx(3 + half)
    assert spread([1, 2, 3, 4, 5]).value == pytest.approx(math.sqrt(2.5))
    assert mean([7]).low is None and mean([]).value is None


def test_welch_difference_by_hand():
    a, b = mean([1, 2, 3, 4, 5]), mean([3, 4, 5, 6, 7])
    diff = difference(b, a)
    # Equal variances 2.5 and sizes 5: se = 1, Welch's degrees of freedom = 8.
    assert diff.value == 2
    assert diff.low == pytest.approx(2 - 2.306) and diff.high == pytest.approx(2 + 2.306)
    assert not diff.significant


def test_no_test_between_kinds_or_for_a_spread():
    assert difference(spread([1, 2, 3]), spread([2, 3, 4])) is None
    assert difference(rate(1, 2), mean([1, 2])) is None


def test_constant_samples_differ_exactly():
    same = difference(mean([3, 3, 3]), mean([3, 3, 3]))
    other = difference(mean([4, 4, 4]), mean([3, 3, 3]))
    assert not same.significant and other.significant and other.low == other.high == 1
    assert Estimate(None, None, None, 0, "rate").value is None
