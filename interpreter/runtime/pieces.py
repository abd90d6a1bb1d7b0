"""The layout of the runtime's values: pieces and action codes.

A **piece** is a tuple `(owner, kind, stones, attribute...)`: owner is a player
index or -1 for a neutral piece, kind a kind index, stones the colours of a stack
(bottom first; `None` in games without stacks), then one value per attribute of
the game in the order of `GameModel.attributes_in_order()`. Pieces are never
changed in place: a change builds a new tuple, so positions share them freely.

An **action code** is a tuple `(case, origin, destination, jumped, choice)`:
the compiled case that applies it, the site it starts from, the site it lands on
(or chooses), the site it jumps over, and which of several outcomes it picks (a
chance event's outcome, or a kind an action lets the player choose). A field that
does not apply is -1. A case whose notation shows values of the position (`{d}`,
a variable: docs/format.md 3.8) carries them after the choice, in the order of
`CaseInfo.shown`. Codes are what the generated move generators produce and
what the fast layer (docs/api.md) hands around; `Action.code` is one.
"""
from __future__ import annotations

from typing import Any, NamedTuple, Optional, TypeAlias

# Fields of a piece tuple.
OWNER = 0
KIND = 1
STONES = 2
FIRST_ATTRIBUTE = 3

# Fields of an action code.
CASE = 0
ORIGIN = 1
DESTINATION = 2
JUMPED = 3
CHOICE = 4
FIRST_SHOWN = 5  # the values a notation shows, when its case has any

NO_SITE = -1
NO_PLAYER = -1
NEUTRAL = -1  # the owner of a neutral piece

# The same layouts for the type checker. A piece's fields differ in type (ints, the
# stones tuple or None, attribute values), so it is a tuple of Any; a code holds ints.
Piece: TypeAlias = tuple[Any, ...]
Code: TypeAlias = tuple[int, ...]
# board[site] (plus the entry for "no site" at -1): the piece there or None
Board: TypeAlias = list[Optional[Piece]]
# (winner index or -1, the scores in player order): a finished game's result
Outcome: TypeAlias = tuple[int, tuple[int, ...]]


class ActionCode(NamedTuple):
    """An action code with named fields, for code off the hot path."""

    case: int
    origin: int
    destination: int
    jumped: int
    choice: int
