"""The layout of the runtime's values: pieces, action codes, who acts.

A **piece** is a tuple `(owner, kind, stones, attribute...)`: owner is a player
index or `NEUTRAL` (-1) for a neutral piece, kind a kind index, stones the colours
of a stack (bottom first; `None` in games without stacks), then one value per
attribute of the game in the order of `GameModel.attributes_in_order()`. Pieces
are never changed in place: a change builds a new tuple, so positions share them
freely.

An **action code** is a tuple of ints `(case, origin, destination, jumped,
choice)`: the compiled case that applies it (an index of `CompiledRules.cases`),
the site it starts from, the site it lands on (or chooses), the site it jumps
over, and which of several outcomes it picks (a chance event's outcome, or a kind
an action lets the player choose). A site that does not apply is `NO_SITE` (-1), a
choice `NO_CHOICE` (-1) — and trailing fields that do not apply are left out:
most codes are `(case, origin, destination)` (made once and shared: see
`helpers.make_code`), a jump without a choice is `(case, origin, destination,
jumped)`. A case whose notation shows values of the position (`{d}`, a variable:
docs/format.md 3.8) carries them after the choice (from `FIRST_SHOWN` on), in the
order of `CaseInfo.shown`. Codes are what the generated move generators produce
and what the fast layer (docs/api.md) hands around; `Action.code` is one.

Code that reads a code's fields names them: by their positions' names (`CASE`,
`ORIGIN`, ... — the hot paths: the engine's loops and the listing helpers, where
generated code reads them by number) or with `ActionCode.of(code)`, which gives
every field (-1 for those left out) at the cost of making a tuple.

`CHANCE` is who acts at a chance event, where the fast layer names actors by
player index (`Engine.to_move`, `Engine.actor`); `NEUTRAL` whom a neutral piece
belongs to. Where the API speaks in names (`Game.to_move`, `make_state`'s owners,
positions as text), they are `CHANCE_NAME` and `NEUTRAL_NAME`.
"""
from __future__ import annotations

from typing import Any, NamedTuple, Optional, Sequence, TypeAlias

# Fields of a piece tuple.
OWNER = 0
KIND = 1
STONES = 2
FIRST_ATTRIBUTE = 3

# Fields of an action code (generated code and the hot paths read them by position).
CASE = 0
ORIGIN = 1
DESTINATION = 2
JUMPED = 3
CHOICE = 4
FIRST_SHOWN = 5  # the values a notation shows, when its case has any

NO_SITE = -1
NO_CHOICE = -1
NO_PLAYER = -1  # no winner (a draw), no player named
NEUTRAL = -1  # the owner of a neutral piece
CHANCE = -2  # who acts at a chance event, beside the players' indices

# Their names where the API speaks in names.
CHANCE_NAME = "chance"
NEUTRAL_NAME = "neutral"

# The same layouts for the type checker. A piece's fields differ in type (ints, the
# stones tuple or None, attribute values), so it is a tuple of Any; a code holds ints.
Piece: TypeAlias = tuple[Any, ...]
Code: TypeAlias = tuple[int, ...]
# board[site] (plus the entry for "no site" at -1): the piece there or None
Board: TypeAlias = list[Optional[Piece]]
# (winner index or NO_PLAYER, the scores in player order): a finished game's result
Outcome: TypeAlias = tuple[int, tuple[int, ...]]


class ActionCode(NamedTuple):
    """An action code's fields by name, for code off the hot path: `ActionCode.of(code)`.

    A reading of the code, not a code: the engine takes the code itself (a code of
    three fields is not equal to its five-field reading)."""

    case: int
    origin: int = NO_SITE
    destination: int = NO_SITE
    jumped: int = NO_SITE
    choice: int = NO_CHOICE

    @classmethod
    def of(cls, code: Code) -> "ActionCode":
        """The fields of `code` (those it leaves out read as -1; the values a
        notation shows, from FIRST_SHOWN on, are not among them)."""
        return cls(*code[:FIRST_SHOWN])


def actor_name(actor: int, players: Sequence[str]) -> str:
    """How the API names who acts: a player's name, or CHANCE_NAME."""
    return CHANCE_NAME if actor == CHANCE else players[actor]
