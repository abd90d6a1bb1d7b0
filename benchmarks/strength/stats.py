"""Win rates with their 95% intervals, and the Elo difference a score rate means."""
from __future__ import annotations

import math

from interpreter.frontends.match import wilson


def elo(score_rate: float, games: int) -> float:
    """The Elo difference of a score rate (a draw counts half). A clean sweep is
    taken as half a game short of it, so that it stays finite."""
    half = 0.5 / max(games, 1)
    rate = min(1.0 - half, max(half, score_rate))
    return -400.0 * math.log10(1.0 / rate - 1.0)


def elo_interval(points: float, games: int) -> tuple[float, float]:
    """The Elo differences at the ends of the 95% (Wilson) interval of the score rate."""
    low, high = wilson(points, games)
    return elo(low, games), elo(high, games)
