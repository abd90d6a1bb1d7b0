"""Figures of one game's course: the score of every position, and repetitions.

A traced game records, for each position from the start to the end, the game's
`score` rule for every player and a key that is equal for equal positions. From
these come (after the definitions of Ludii's evaluation metrics, with the score
rule as the state evaluation):

- lead changes: how often the set of leaders (the players with the top score)
  differs from one position to the next, per ply;
- stability: the variance of each player's score over the game, summed over the
  players (in the score's units, squared);
- decisiveness: the share of the plies played before the eventual winner's score
  rises above the best score any other player reaches in the whole game (1 when
  it never does; games without a winner have none);
- repetition: the share of positions that repeat an earlier position of the game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

if TYPE_CHECKING:
    from ...api import Game
    from ...runtime.state import State


@dataclass
class TraceSummary:
    lead_changes: Optional[float]  # None: the game has no score rule
    stability: Optional[float]
    decisiveness: Optional[float]  # None also for a game without a winner
    repetition: Optional[float]  # None: keys not recorded in this game


def summarise_trace(scores: Sequence[Optional[tuple[Any, ...]]], keys: Optional[Sequence[Any]],
                    winner: int) -> TraceSummary:
    """The figures of one game from its positions' scores (None without a score
    rule) and position keys (None when not recorded), start and end included."""
    repeated = repetition(keys) if keys is not None else None
    rows = [row for row in scores if row is not None]
    if len(rows) != len(scores) or not rows:
        return TraceSummary(None, None, None, repeated)
    return TraceSummary(lead_changes(rows), stability(rows), decisiveness(rows, winner), repeated)


def leaders(row: tuple[Any, ...]) -> frozenset[Any]:
    best = max(row)
    return frozenset(i for i, value in enumerate(row) if value == best)


def lead_changes(rows: Sequence[tuple[Any, ...]]) -> float:
    """Changes of the set of leaders between consecutive positions, per ply."""
    if len(rows) < 2:
        return 0.0
    sets = [leaders(row) for row in rows]
    changes = sum(1 for a, b in zip(sets, sets[1:]) if a != b)
    return changes / (len(rows) - 1)


def stability(rows: Sequence[tuple[Any, ...]]) -> float:
    """Each player's score variance over the positions (population variance), summed."""
    total = 0.0
    count = len(rows)
    for player in range(len(rows[0])):
        values = [row[player] for row in rows]
        average = sum(values) / count
        total += sum((v - average) ** 2 for v in values) / count
    return total


def decisiveness(rows: Sequence[tuple[Any, ...]], winner: int) -> Optional[float]:
    """Share of the plies before the winner's score exceeds every other player's
    best score of the game; None without a winner."""
    if winner < 0 or len(rows) < 2:
        return None
    threshold = max(row[p] for row in rows for p in range(len(row)) if p != winner)
    plies = len(rows) - 1
    for position, row in enumerate(rows):
        if row[winner] > threshold:
            return position / plies
    return 1.0


def repetition(keys: Sequence[Any]) -> float:
    """Share of the positions that repeat an earlier one."""
    if not keys:
        return 0.0
    return 1.0 - len(set(keys)) / len(keys)


def has_fast_position_key(game: Game) -> bool:
    """Whether the engine offers `position_key` (else the slow public key is used)."""
    return getattr(game.engine, "position_key", None) is not None


def position_key_function(game: Game) -> Callable[..., Any]:
    """A function: state -> a hashable key, equal exactly for equal positions
    (whatever the number of actions that led there).

    The engine's `position_key` when it has one (cheap); otherwise a key built
    from the public views (pieces, variables, pools, who is to move), which is
    slower: only traced games pay for it."""
    fast: Optional[Callable[..., Any]] = getattr(game.engine, "position_key", None)
    if fast is not None:
        return fast

    def public_key(state: State) -> tuple[Any, ...]:
        pieces = tuple(
            (p.site, p.kind, p.owner, tuple(sorted(p.attributes.items())), p.stones) for p in game.pieces(state)
        )
        variables = tuple(sorted((name, _frozen(value)) for name, value in game.variables(state).items()))
        pools = tuple(sorted((name, _frozen(value)) for name, value in game.pools(state).items()))
        return game.to_move(state), game.phase(state), game.decision(state), pieces, variables, pools

    return public_key


def _frozen(value: Any) -> Any:
    return tuple(sorted(value.items())) if isinstance(value, dict) else value
