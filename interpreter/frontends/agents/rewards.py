"""Turning a game's `Result` into one reward in [0, 1] per player.

Games score in different currencies: some only name a winner (scores 1/0), some
count points (total power) and name the player with most. Search needs one scale,
so the outcome decides most of the reward and the share of the points breaks ties
between lines with the same outcome (a bigger margin is a safer win).
"""
from __future__ import annotations

from typing import Mapping, Sequence

from interpreter.runtime.views import Result

DRAW = 0.5


def draw_rewards(n_players: int) -> tuple[float, ...]:
    """What an unfinished (capped) playout is worth to everyone."""
    return (DRAW,) * n_players


def cutoff_rewards(players: Sequence[str], scores: Mapping[str, object]) -> tuple[float, ...]:
    """Rewards in [0, 1] for an unfinished playout, from the scores it reached.

    Each player gets 0.5 + 0.5 * (s - b) / (|s| + |b|), where s is its score and b
    the best score among the others: 0.5 when level with the best of the others,
    more when ahead, less when behind, 0.5 for everyone when all scores are 0. For
    two players with non-negative scores this is each one's share of the points
    (13 to 6 gives 13/19 and 6/19), so the rewards read as chances to win.
    """
    return score_rewards([scores.get(p, 0.0) for p in players])


def score_rewards(scores: Sequence[object]) -> tuple[float, ...]:
    """`cutoff_rewards` on scores in player order (the fast layer's `scores`)."""
    values = [_number(s) for s in scores]
    if len(values) < 2:
        return draw_rewards(len(values))
    rewards = []
    for i, own in enumerate(values):
        best = max(v for j, v in enumerate(values) if j != i)
        scale = abs(own) + abs(best)
        rewards.append(DRAW if scale == 0.0 else DRAW + DRAW * (own - best) / scale)
    return tuple(rewards)


def normalised_rewards(
    players: Sequence[str], result: Result | None, score_weight: float = 0.1
) -> tuple[float, ...]:
    """Rewards in [0, 1] for `players` (in that order).

    - A named winner gets 1, everyone else 0.
    - Without a single winner, the players sharing the top score get 0.5 and the
      rest 0; when everyone scores the same that is a plain draw (0.5 each).
    - `score_weight` of the reward comes from the points: each player's share of
      the total when no score is negative, otherwise the position between the
      lowest and highest score. With win/loss scores (1/0) this changes nothing.
    """
    if result is None:
        return draw_rewards(len(players))
    scores = [result.scores.get(p, 0.0) for p in players]
    winners = result.winners or ((result.winner,) if result.winner is not None else ())
    return outcome_rewards(tuple(players.index(p) for p in winners), scores, score_weight)


def outcome_rewards(winners: Sequence[int], scores: Sequence[object], score_weight: float = 0.1) -> tuple[float, ...]:
    """`normalised_rewards` on the fast layer's outcome: the winners' indices (one,
    or a team's players: each of them won; none: a draw among those holding the top
    score, `FastLayer.winners`) and the scores in player order."""
    values = [_number(s) for s in scores]
    if winners:
        outcome = [1.0 if i in winners else 0.0 for i in range(len(values))]
    else:
        top = max(values, default=0.0)
        outcome = [DRAW if s == top else 0.0 for s in values]
    return _with_points(outcome, values, score_weight)


def _with_points(outcome: list[float], values: list[float], score_weight: float) -> tuple[float, ...]:
    """The outcome's rewards with `score_weight` of them from the points (`values`)."""
    if score_weight <= 0.0:
        return tuple(outcome)
    share = _score_share(values, outcome)
    keep = 1.0 - score_weight
    return tuple(keep * o + score_weight * s for o, s in zip(outcome, share))


def _score_share(scores: list[float], outcome: list[float]) -> list[float]:
    low, high = min(scores, default=0.0), max(scores, default=0.0)
    if low >= 0.0:
        total = sum(scores)
        if total > 0.0:
            return [s / total for s in scores]
        return outcome  # nobody scored: the points say nothing beyond the outcome
    if high == low:
        return [DRAW] * len(scores)
    return [(s - low) / (high - low) for s in scores]


def _number(value: object) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0.0
