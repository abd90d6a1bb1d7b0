"""Read-only views of a game and its positions, for front ends (CLI, renderers, agents).

The runtime works on compact tuples and integer indices; these views translate them
into names so that code outside the runtime never depends on the internal layout.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .pieces import Code


@dataclass(frozen=True)
class Action:
    """One legal action in one position.

    `notation` is the text a player types and a record stores. `code` is the
    runtime's internal encoding and is only meaningful to the game that made it.
    """

    notation: str
    code: Code
    from_site: str | None = None
    to_site: str | None = None

    def __str__(self) -> str:
        return self.notation


@dataclass(frozen=True)
class PieceView:
    """A piece on the board, by names: its site, kind, owner and attribute values."""

    site: str
    kind: str
    owner: str | None  # None for a neutral piece
    attributes: Mapping[str, object] = field(default_factory=dict)
    # Colours of the stones of a stack, bottom first; None when the game has no stacks.
    stones: tuple[str, ...] | None = None

    @property
    def height(self) -> int:
        """How many stones the piece stacks (1 in games without stacks)."""
        return len(self.stones) if self.stones else 1


@dataclass(frozen=True)
class Ending:
    """The rule that ended a game.

    `how` is "win", "lose", "draw", "end game" (the scores decide) or
    "no legal action" (the player to move could not act and the phase has no
    `if no action` rule). `file`, `line`, `column` locate the statement (for "no
    legal action": the phase); `text` is that line of the rules, stripped.
    """

    how: str
    file: str
    line: int
    column: int
    text: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}"
        return f"{self.how} ({where}: {self.text})" if self.text else f"{self.how} ({where})"


@dataclass(frozen=True)
class Result:
    """How a finished game came out: the winner (None for a draw) and the scores by player."""

    winner: str | None  # a player's name, a team's (`teams:`), or None: a draw (or no single winner)
    scores: Mapping[str, float]
    # The rule that ended the game (None for results not made by a rule).
    ending: Ending | None = field(default=None, compare=False)
    # The players who won: the winner, a winning team's players, none for a draw
    # (given by `winner`, so not compared).
    winners: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class BoardView:
    """Geometry of the board, enough to draw it."""

    kind: str  # "grid" or "graph"
    sites: tuple[str, ...]
    # Drawing coordinates of every site, x to the right and y upwards, in board units
    # (a grid uses file index and rank index).
    coords: Mapping[str, tuple[float, float]]
    # Edges as (a, b, one_way); for a grid, between neighbours (orthogonal unless the
    # board says `neighbours`).
    edges: tuple[tuple[str, str, bool], ...]
    files: int = 0  # grid only
    ranks: int = 0  # grid only
    # Named regions, flattened: a per-player region `half` appears as `half.white`, ...
    regions: Mapping[str, frozenset[str]] = field(default_factory=dict)
