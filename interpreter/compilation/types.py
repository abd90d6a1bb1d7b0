"""The types and dependencies of compiled expressions.

`Type` is what an expression evaluates to; its value is the phrase messages use
("found a set of sites"). `Dep` is what an expression reads that depends on where
it is evaluated: the compiler uses dependencies to evaluate a condition at the
right level (once per position, per piece, or per candidate action).
"""
from __future__ import annotations

from enum import Enum


class Type(Enum):
    INT = "a number"
    DECIMAL = "a decimal number"  # a number that may have a fractional part (exact: a Fraction)
    BOOL = "a condition"
    STR = "a text"
    SITE = "a site or piece"
    PLAYER = "a player"
    NONE = "none"
    SITES = "a set of sites"
    PLAYERS = "a set of players"
    DIRS = "a direction or set of directions"
    DIR = "a direction"
    KINDS = "a set of piece kinds"
    TRACK = "a track"
    PER_PLAYER = "a per-player value"

    @property
    def words(self) -> str:
        return self.value


# The element type of each collection type (for `for each`, count/exists/all).
ELEMENT = {Type.SITES: Type.SITE, Type.PLAYERS: Type.PLAYER, Type.DIRS: Type.DIR}


# The types of numbers: a whole number is accepted wherever a decimal one is.
NUMBERS = (Type.INT, Type.DECIMAL)


def number_type(*types: Type) -> Type:
    """The type of arithmetic on numbers of these types: decimal when one is."""
    return Type.DECIMAL if Type.DECIMAL in types else Type.INT


def comparable(a: Type, b: Type) -> bool:
    """Whether `==`/`!=` may compare values of these types."""
    if a is b:
        return True
    return {a, b} in ({Type.SITE, Type.NONE}, {Type.PLAYER, Type.NONE}, {Type.INT, Type.BOOL}, {Type.INT, Type.DECIMAL})


class Dep(Enum):
    """What an expression reads besides the position itself."""

    PIECE = "piece"
    FROM = "from"
    TO = "to"
    TARGET = "target"
    JUMPED = "jumped"
    SITE = "site"
    OUTCOME = "outcome"
    LOCALS = "locals"  # a `let`, `for each` or quantifier variable
    BOARD = "board"  # the pieces on the board (for `pieces ...`)
    AFTER = "after"  # the position after the action (`after` conditions)


# A condition with one of these is asked per candidate action; with PIECE_DEPS, per piece.
CANDIDATE_DEPS = frozenset({Dep.TO, Dep.TARGET, Dep.JUMPED})
PIECE_DEPS = frozenset({Dep.PIECE, Dep.FROM})
