"""The compiler's records of cases and phases while the game is compiled.

A `CaseCode` is one case as its parts fill it in (its statements, its decision's
`after each action`, the constants its function reads); a `PhaseOutline` what the
parts read of a phase. Once the module is compiled, compiler.py makes of them the
frozen contract the runtime gets (runtime/compiled.py: `CompiledRules`,
`CaseInfo`, `DecisionInfo`, `PhaseInfo`).
"""
from __future__ import annotations

import ast as py
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Optional

from ..parsing import ast
from ..runtime.compiled import CaseInfo, CasePattern
from .scope import Effect


class Block(NamedTuple):
    """A compiled block of statements: its statements, its cost, what it does to
    the turn, and — where all it does is set attributes of pieces to values
    written out (attribute_writes.attributes_set_only) — the names of those
    attributes, else None."""

    lines: list[py.stmt]
    cost: int
    effects: frozenset[Effect]
    attributes_only: Optional[frozenset[str]] = None


@dataclass
class CaseCode:
    """One way an action can turn out, with what is needed to apply it."""

    decision: int
    pattern: CasePattern
    action: str  # the name of its action (or chance event)
    template: tuple[str, ...]  # notation parts: literal strings and field names
    label: str  # "action 'leap', onto enemy" — for messages
    pos: ast.Pos
    body: list[py.stmt] = field(default_factory=list)  # the compiled statements
    # the statements its `forbid result` check plays, where they leave out some of `body`'s
    # (actions.ActionCompiler._checked_statements), else None
    checked_body: Optional[list[py.stmt]] = None
    fresh_pieces: Optional[py.Name] = None  # drops: the constant of the new piece per player
    pool_pieces: Optional[py.Name] = None  # moves: the constant of the piece waiting on each pool site
    outcomes: Optional[py.Name] = None  # chance events: the constant of the outcome values
    choice_kinds: tuple[int, ...] = ()  # the kinds of a `promote ... to one of` (the code's choice picks one)
    after: Optional[Block] = None  # the decision's `after each action`
    effects: frozenset[Effect] = frozenset()  # what its statements do to the turn (scope.Flow.effects)
    cost: int = 1
    notation_pos: Optional[ast.Pos] = None  # where its notation is written (None: the default one)
    # the value fields its notation shows, in the order its codes carry them after the
    # choice: (field, kind) as ("{d}", "number") (action_values.py)
    shown: tuple[tuple[str, str], ...] = ()
    # per value shown that is a number: the values it can take, or None when the rules
    # do not fix them (compilation/domains.py); sites, players and flags: None
    shown_values: tuple[Optional[tuple[Any, ...]], ...] = ()
    # per value shown that the rules do not fix: where its values were lost ("" when not known)
    shown_lost: tuple[str, ...] = ()
    # the kinds the acting piece (`piece`) is of when the case starts (its action's
    # `by`, a drop's kind), None when any
    piece_kinds: Optional[frozenset[int]] = None
    off_board: bool = False  # an `off board` case (its `{to}` writes "off")
    # a drop's: the sites it may land on, where the rules fix them (a constant set of sites)
    landings: Optional[frozenset[int]] = None

    def info(self) -> CaseInfo:
        """What the runtime gets of it."""
        return CaseInfo(
            self.decision, self.pattern, self.action, self.label, self.template, self.pos,
            notation_pos=self.notation_pos, choice_kinds=self.choice_kinds,
            body=tuple(self.body), after=tuple(self.after[0]) if self.after is not None else (),
            shown=self.shown, shown_values=self.shown_values, shown_lost=self.shown_lost,
        )


@dataclass(frozen=True)
class PhaseOutline:
    """What the compiler's parts read of a phase."""

    name: str
    order: tuple[int, ...]  # player indices in turn order
    turn: tuple[int, ...]  # decision indices taken in sequence in each turn
    pos: ast.Pos
