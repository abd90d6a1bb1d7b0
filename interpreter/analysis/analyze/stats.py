"""Small statistics: intervals of rates and means, and tests of their differences.

Everything is computed from counts and sums, in plain floating point, so that the
same games give the same numbers on every machine. The 95% level is fixed: a
report that mixes levels is harder to read than one that does not.

- a rate (a share of games): the Wilson score interval;
- a mean (of one number per game): mean ± t·s/√n (Student's t, n-1 degrees);
- the difference of two rates: Newcombe's hybrid score interval (method 10), the
  two-sided p-value of the pooled two-proportion z-test;
- the difference of two means: Welch's interval and test (normal approximation of
  the t distribution beyond 30 degrees of freedom, Student's t below).
"""
from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Optional, Sequence

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A measured value with its 95% interval (`low`, `high`) from `n` games.

    `kind` is "rate" (a share, with Wilson's interval), "mean" (with Student's)
    or "value" (no interval: a statistic of the whole sample, like a spread)."""

    value: Optional[float]
    low: Optional[float]
    high: Optional[float]
    n: int
    kind: str
    sd: Optional[float] = None  # of the per-game values, for the difference of means

    def bounds(self) -> tuple[float, float, float]:
        """(value, low, high); ValueError for an estimate without an interval."""
        if self.value is None or self.low is None or self.high is None:
            raise ValueError("this estimate has no interval")
        return self.value, self.low, self.high


@dataclass(frozen=True)
class Difference:
    """A column's value minus the base's, its 95% interval and two-sided p-value."""

    value: float
    low: float
    high: float
    p: float

    @property
    def significant(self) -> bool:
        """The interval excludes zero: the column differs from the base at the 5% level."""
        return self.low > 0 or self.high < 0


# Student's t, two-sided 95% (the 0.975 quantile), for 1 to 30 degrees of freedom.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042)


def t95(dof: float) -> float:
    """The two-sided 95% quantile of Student's t: the table up to 30 degrees of
    freedom (a fraction rounded down: the wider interval), then the
    Cornish-Fisher expansion (within 0.001), the normal quantile in the limit."""
    if dof < 1:
        return math.inf
    if dof < 31:
        return _T95[int(dof) - 1]
    z = Z95
    return z + (z**3 + z) / (4 * dof) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * dof**2)


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) without trials."""
    if trials <= 0:
        return 0.0, 1.0
    z = Z95
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or all successes the bound is exactly 0 or 1 (not 1 - 1e-16).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def rate(successes: int, trials: int) -> Estimate:
    """A share of games with its Wilson interval."""
    if trials <= 0:
        return Estimate(None, None, None, 0, "rate")
    low, high = wilson(successes, trials)
    return Estimate(successes / trials, low, high, trials, "rate")


def mean(values: Sequence[float]) -> Estimate:
    """The mean of per-game values with Student's interval (summed in the given order)."""
    n = len(values)
    if n == 0:
        return Estimate(None, None, None, 0, "mean")
    average = math.fsum(values) / n
    if n == 1:
        return Estimate(average, None, None, 1, "mean", 0.0)
    sd = _sd(values, average)
    half = t95(n - 1) * sd / math.sqrt(n)
    return Estimate(average, average - half, average + half, n, "mean", sd)


def spread(values: Sequence[float]) -> Estimate:
    """The standard deviation of per-game values (no interval)."""
    n = len(values)
    if n < 2:
        return Estimate(None, None, None, n, "value")
    return Estimate(_sd(values, math.fsum(values) / n), None, None, n, "value")


def _sd(values: Sequence[float], average: float) -> float:
    """The sample standard deviation (two passes, exactly rounded sums)."""
    deviations = [v - average for v in values]
    return math.sqrt(math.fsum(map(operator.mul, deviations, deviations)) / (len(values) - 1))


def difference(column: Estimate, base: Estimate) -> Optional[Difference]:
    """`column` minus `base` with its interval and p-value; None when either has no
    value or the kind has no test (a spread)."""
    if column.value is None or base.value is None or column.kind != base.kind:
        return None
    if column.kind == "rate":
        return _rate_difference(column, base)
    if column.kind == "mean" and column.n > 1 and base.n > 1:
        return _mean_difference(column, base)
    return None


def _rate_difference(a: Estimate, b: Estimate) -> Difference:
    """Newcombe's interval (from the two Wilson intervals) and the pooled z-test."""
    (av, al, ah), (bv, bl, bh) = a.bounds(), b.bounds()
    d = av - bv
    low = d - math.sqrt((av - al) ** 2 + (bh - bv) ** 2)
    high = d + math.sqrt((ah - av) ** 2 + (bv - bl) ** 2)
    pooled = (av * a.n + bv * b.n) / (a.n + b.n)
    se = math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n))
    p = 1.0 if se == 0 else math.erfc(abs(d) / se / math.sqrt(2))
    return Difference(d, low, high, p)


def _mean_difference(a: Estimate, b: Estimate) -> Difference:
    """Welch's interval and test (Welch-Satterthwaite degrees of freedom)."""
    if a.value is None or b.value is None or a.sd is None or b.sd is None:
        raise ValueError("a difference of means needs two means with their spreads")
    d = a.value - b.value
    va, vb = a.sd**2 / a.n, b.sd**2 / b.n
    se = math.sqrt(va + vb)
    if se == 0:
        return Difference(d, d, d, 1.0 if d == 0 else 0.0)
    dof = (va + vb) ** 2 / (va**2 / (a.n - 1) + vb**2 / (b.n - 1))
    half = t95(dof) * se
    # p from the normal approximation: a report is read at the 5% mark, where
    # the interval (with t) decides; p is given as a guide.
    p = math.erfc(abs(d) / se / math.sqrt(2))
    return Difference(d, d - half, d + half, p)
