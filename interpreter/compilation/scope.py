"""What an expression or statement may refer to where it stands, where the
generated code finds it, and how it is to be compiled there.

The rules language has context names (`piece`, `to`, `target`, ...) whose values
live in locals of the generated function: its *registers*. Which local holds what
depends on the function: in a case function `piece` is `at` (where the acting
piece is now) and `pc` (the piece); in a generator looking at a landing site it
may be another loop variable. A `Scope` carries that mapping, the local names
(`let`, `for each`, `it`), the checks' context, and the modes of compilation
that hold for everything compiled inside it: a nested part of the compiler that
needs another mode compiles in `scope.child(listing=True, ...)` rather than
setting a flag and resetting it.
"""
from __future__ import annotations

import ast as py
from dataclasses import dataclass, field, fields
from typing import Any, Optional, TypeVar, Union

from .names import ALWAYS, CONTEXT_NAMES  # noqa: F401 - re-exported
from .types import Type

T = TypeVar("T")
_FIELD_NAMES: dict[type, frozenset[str]] = {}


def copied(instance: T, **changes: Any) -> T:
    """`dataclasses.replace(instance, **changes)` for the compiler's dataclasses
    (no `__post_init__`, every field set by `__init__`, no slots): the fields'
    values copied into a new instance rather than passed through `__init__` by
    name, which for the scopes and codes made for every part of every expression
    (~30 fields each) took a tenth of a large definition's compilation."""
    kind = instance.__class__
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = frozenset(f.name for f in fields(kind))  # type: ignore[arg-type]
    unknown = changes.keys() - names
    if unknown:
        raise TypeError(f"{kind.__name__} has no field {sorted(unknown)[0]!r}")
    state = instance.__dict__
    new = object.__new__(kind)
    new.__dict__.update({name: state[name] for name in names}, **changes)
    return new


@dataclass(frozen=True)
class Register:
    """Where a context name lives: the local holding its site (or value), and the
    one holding the piece on it when it is a site holding a piece (None: read
    the board)."""

    site: str
    piece: Optional[str] = None


# The registers of a case function (see cases.py): they are its locals.
DEFAULT_REGISTERS = {
    "player": Register("p"),
    "piece": Register("at", "pc"),
    "from": Register("frm"),
    "to": Register("to"),
    "target": Register("to", "tg"),
    "jumped": Register("js", "jp"),
    "site": Register("site"),
    "outcome": Register("ov"),
    "repetitions": Register("reps"),
}


@dataclass
class Local:
    code: py.expr  # the generated local (or loop variable, or cheap expression) holding it
    type: Type
    always: bool = False  # never none (each player of `players`, each direction of a set)
    # a site that holds a piece wherever the name can be read (an element of
    # `pieces ...` in a condition, which changes nothing on the board)
    occupied: bool = False
    # SITES: each site listed once (Code.distinct), which no later change of the
    # board undoes — unlike `occupied`, kept by a `let` and a procedure's parameter
    distinct: bool = False
    # a site, never none (an element of a set of sites: sets hold no none)
    real: bool = False
    # declared by a `let` whose value is in error (reported there; its uses are not)
    broken: bool = False
    # (value,) when a define's parameter is given a constant direction or set of
    # directions (`line(n)`): its uses are that constant
    fixed: Optional[tuple[Any]] = None
    # SITES: the same sites as an int bitmask in a local (Code.bits)
    bits: Optional[py.expr] = None
    # SITES: the sites of the fixed region the name stands for (a define's parameter
    # given a region), for liberties.region_test
    region: Optional[tuple[int, ...]] = None
    # A procedure's parameter given a constant (a direction, a track, a number, a
    # kind, a player, a region: code that reads nothing, see code.stands_alone):
    # the argument's own Code, so that each use compiles as the argument written
    # there (its tables, its folding)
    stands: Any = None  # (a code.Code: code imports this module)


# What a statement can do to the turn: "next phase", "next player", "end" (may end
# the game) or ("then", the follow-up decision's index).
Effect = Union[str, tuple[str, int]]


@dataclass
class Flow:
    """What the statements of one block compiled so far tell, in the order they
    run (shared by the scopes nested in the block: an `if` inside a case changes
    what the case knows after it)."""

    # Whether `at` is known not to be -1 here (the acting piece has not left the
    # board): `move` then needs no test.
    at_valid: bool = False
    # Whether the landing site `to` is known to be empty here (an `onto empty` case
    # before anything could have been put there): `move` then captures nothing.
    to_empty: bool = False
    # What the statements do to the turn: "next phase", "next player",
    # ("then", decision index), "end" (may end the game).
    effects: set[Effect] = field(default_factory=set)


@dataclass(frozen=True)
class Scope:
    """What an expression may refer to where it stands, and how it is compiled."""

    available: frozenset[str]  # context names usable here (besides ALWAYS)
    where: str  # for messages: "action 'leap', onto enemy"
    locals: dict[str, Local] = field(default_factory=dict)
    registers: dict[str, Register] = field(default_factory=lambda: dict(DEFAULT_REGISTERS))
    # Whether an acting piece always exists here (moving and dropping actions):
    # `piece` is then read without asking whether it is none.
    piece_always: bool = False
    # Whether `then DECISION` can start a follow-up here.
    followups: bool = False
    # Whether `:=` may appear here: Python forbids it inside the iterable of a
    # comprehension, so the compiler duplicates a shared value there instead.
    walrus: bool = True
    # The type of `outcome` in a chance event's statements.
    outcome_type: Type = Type.INT
    # Whether the position after the action is what `after` conditions read.
    after_position: bool = False
    # The kinds the acting piece can be of here (None: any). Known while actions are
    # listed, from the action's `by`; never in statements, which may promote it.
    piece_kinds: Optional[frozenset[int]] = None
    # Lowered mode (expressions.ExpressionCompiler.lowered): the statements to run
    # before the expression being compiled, where its loops go; None: one expression.
    sink: Optional[list[py.stmt]] = None
    # Whether what is compiled is asked while a decision lists its actions
    # (nothing changes the position then: see prefilters.py).
    listing: bool = False
    # Statements of a `drop` action's case: `place` is allowed; the offset of the
    # pool it takes its piece from, if any.
    in_drop: bool = False
    drop_pool_offset: Optional[int] = None
    # Statements of an action's case (`promote ... to one of` is allowed).
    choice_allowed: bool = False
    # What the statements compiled so far know (shared by nested scopes).
    flow: Flow = field(default_factory=Flow)
    # The regions' answers that floods compiled here keep for the innermost
    # count/exists/all loop around them (expr_sets.SetFamily._answered):
    # (the local, the names its flood reads), the loop's to make before it starts.
    region_memos: Optional[list[tuple[str, frozenset[str], Optional[py.expr]]]] = None
    # In the score: the keys of the regions' answers kept for every player's call
    # on one position (the parameter `notes`: expr_sets.SetFamily._shared_key), noted
    # here as they are made; None elsewhere.
    score_notes: Optional[list[int]] = None
    # Lowered mode in a lister's `where`: where parts reading only the position are
    # kept once per listing (a per_listing.ListingCache; per_listing imports this module).
    per_listing: Any = None
    # What an unknown name's message adds here when no name is near it (the
    # pattern and conditions of an action along several directions, none named).
    unknown_name_hint: Optional[str] = None

    def child(self, **changes: Any) -> "Scope":
        """A nested scope: locals declared inside do not leak out."""
        return copied(self, locals=dict(self.locals), **changes)

    def register(self, name: str) -> Register:
        return self.registers[name]
