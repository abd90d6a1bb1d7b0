"""The metrics of one column, from its games (in game order).

Each metric is one number per column with its 95% interval: a rate (a share of
games, Wilson) or a mean of one value per game (Student). The definitions follow
Ludii's `Evaluation` metrics; docs/analysis.md gives each in one line.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from .playout import GameStats
from .stats import Estimate, mean, rate, spread


@dataclass(frozen=True)
class MetricSpec:
    key: str
    label: str
    section: str


def outcome_metrics(games: Sequence[GameStats], players: Sequence[str]) -> list[tuple[MetricSpec, Estimate]]:
    """Seat win rates, draws, cut-offs, completion, the first seat's share, balance."""
    n = len(games)
    out = [(MetricSpec(f"wins.{player}", f"{player} wins", "outcomes"), rate(sum(i in g.winners for g in games), n))
           for i, player in enumerate(players)]
    decided = sum(bool(g.winners) for g in games)
    out += [
        (MetricSpec("draws", "draws", "outcomes"), rate(sum(g.over and not g.winners for g in games), n)),
        (MetricSpec("timeouts", "cut off (max plies)", "outcomes"), rate(sum(not g.over for g in games), n)),
        (MetricSpec("completion", "completion (a winner)", "outcomes"), rate(decided, n)),
        (MetricSpec("advantage", "first seat win share", "outcomes"),
         rate(sum(0 in g.winners for g in games), decided)),
    ]
    if len(players) > 1:
        out.append((MetricSpec("balance", "balance", "outcomes"), balance(games, len(players))))
    return out


def balance(games: Sequence[GameStats], seats: int) -> Estimate:
    """1 - the largest difference between two seats' win rates, with an interval
    from that pair's per-game differences (+1, -1 or 0)."""
    n = len(games)
    if n == 0:
        return Estimate(None, None, None, 0, "value")
    wins = [sum(i in g.winners for g in games) for i in range(seats)]
    a = max(range(seats), key=lambda i: wins[i])
    b = min(range(seats), key=lambda i: wins[i])
    d = mean([(a in g.winners) - (b in g.winners) for g in games])
    if d.low is None:  # one game
        return Estimate(1 - (d.value or 0.0), None, None, n, "value")
    value, low, high = d.bounds()
    far = min(1.0, max(abs(low), abs(high)))  # a difference of shares is at most 1
    near = 0.0 if low <= 0 <= high else min(abs(low), abs(high))
    return Estimate(1 - value, 1 - far, 1 - near, n, "value")


def duration_metrics(games: Sequence[GameStats]) -> list[tuple[MetricSpec, Estimate]]:
    """Length in plies, every game."""
    plies = [g.plies for g in games]
    return [
        (MetricSpec("plies", "length (plies)", "duration"), mean(plies)),
        (MetricSpec("plies.sd", "  spread (sd)", "duration"), spread(plies)),
    ]


def turn_and_choice_metrics(games: Sequence[GameStats]) -> list[tuple[MetricSpec, Estimate]]:
    """Length in turns, decision moves and branching factor: per counted game,
    then averaged."""
    turns = [g.turns for g in games if g.turns is not None]
    # (positions, decisions, choices) of the counted games where a player had to move
    counted = [(g.positions, g.decisions or 0, g.choices or 0) for g in games if g.positions]
    return [
        (MetricSpec("turns", "length (turns)", "counted"), mean(turns)),
        (MetricSpec("turns.sd", "  spread (sd)", "counted"), spread(turns)),
        (MetricSpec("decision_moves", "decision moves", "counted"), mean([d / p for p, d, _ in counted])),
        (MetricSpec("branching", "branching factor", "counted"), mean([c / p for p, _, c in counted])),
    ]


def traced_metrics(games: Sequence[GameStats], has_score: bool, sites: int) -> list[tuple[MetricSpec, Estimate]]:
    """Board coverage, lead changes, stability, decisiveness (by the score rule)
    and repetition, over the traced games."""
    traces = [g.trace for g in games if g.trace is not None]
    out = []
    if sites:
        covered = [g.covered / sites for g in games if g.covered is not None]
        out.append((MetricSpec("board_coverage", "board coverage", "traced"), mean(covered)))
    if has_score:
        out += [
            (MetricSpec("lead_changes", "lead changes", "traced"), _over(traces, lambda t: t.lead_changes)),
            (MetricSpec("stability", "stability", "traced"), _over(traces, lambda t: t.stability)),
            (MetricSpec("decisiveness", "decisiveness", "traced"), _over(traces, lambda t: t.decisiveness)),
        ]
    out.append((MetricSpec("repetition", "repetition", "traced"), _over(traces, lambda t: t.repetition)))
    return out


def _over(traces: Sequence[Any], field: Callable[..., Any]) -> Estimate:
    return mean([v for v in (field(t) for t in traces) if v is not None])


def depth_metric(games: Sequence[GameStats], seats: int, strong: str, weak: str) -> tuple[MetricSpec, Estimate]:
    """The win rate of `strong` (in seat j mod seats in game j) against `weak`."""
    wins = sum(g.index % seats in g.winners for g in games)
    return MetricSpec("depth", f"{strong} beats {weak}", "depth"), rate(wins, len(games))


def column_metrics(games: Sequence[GameStats], players: Sequence[str], sites: int, has_score: bool,
                   depth: Optional[tuple[Any, ...]] = None) -> list[tuple[MetricSpec, Estimate]]:
    """Every metric of one column, in the order of the report. `depth`:
    (depth games, strong spec, weak spec) when the depth test ran."""
    out = outcome_metrics(games, players) + duration_metrics(games) + turn_and_choice_metrics(games)
    out += traced_metrics(games, has_score, sites)
    if depth is not None:
        out.append(depth_metric(depth[0], len(players), depth[1], depth[2]))
    return out
