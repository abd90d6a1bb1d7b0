"""What an expression or statement may refer to where it stands, and where the
generated code finds it.

The rules language has context names (`piece`, `to`, `target`, ...) whose values
live in locals of the generated function: its *registers*. Which local holds what
depends on the function: in a case function `piece` is `at` (where the acting
piece is now) and `pc` (the piece); in a generator looking at a landing site it
may be another loop variable. A `Scope` carries that mapping, the local names
(`let`, `for each`, `it`) and the checks' context.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional

from .names import ALWAYS, CONTEXT_NAMES  # noqa: F401 - re-exported
from .types import Type

@dataclass(frozen=True)
class Register:
    """Where a context name lives: the code of its site (or value), and of the
    piece on it when it is a site holding a piece (None: read the board)."""

    site: str
    piece: Optional[str] = None


# The registers of a case function (see codegen/cases.py): they are its locals.
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
    code: str  # the generated local (or loop variable) holding it
    type: Type
    always: bool = False  # never none (each player of `players`, each direction of a set)
    # a site that holds a piece wherever the name can be read (an element of
    # `pieces ...` in a condition, which changes nothing on the board)
    occupied: bool = False
    # a site, never none (an element of a set of sites: sets hold no none)
    real: bool = False
    # declared by a `let` whose value is in error (reported there; its uses are not)
    broken: bool = False
    # (value,) when a define's parameter is given a constant direction or set of
    # directions (`line(n)`): its uses are that constant
    fixed: Optional[tuple] = None


@dataclass
class Scope:
    """What an expression may refer to where it stands."""

    available: frozenset  # context names usable here (besides ALWAYS)
    where: str  # for messages: "action 'leap', onto enemy"
    locals: dict = field(default_factory=dict)  # name -> Local
    registers: dict = field(default_factory=lambda: dict(DEFAULT_REGISTERS))
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
    piece_kinds: Optional[frozenset] = None

    def child(self, **changes) -> "Scope":
        """A nested scope: locals declared inside do not leak out."""
        return replace(self, locals=dict(self.locals), **changes)

    def register(self, name: str) -> Register:
        return self.registers[name]
