"""The work a definition can make one position cost, bounded before play.

Every compiled part carries an estimate of the steps one run of it takes
(expressions.Code.cost: quantifiers multiply by the size of their set; `for each`
multiplies its body). Listing a decision's actions costs, per piece that may act,
its pattern's candidates times the checks of each. A rule whose estimate passes
`STEP_LIMIT` would take a minute or more for one position: it is refused with an
error at the rule, before any game is played; one past `STEP_WARNING` gets a
warning (see docs/format.md §5).
"""
from __future__ import annotations

from typing import Optional, Protocol

from ..parsing import ast
from .cases import PhaseCode
from .compiled import CaseCode
from .decisions import DecisionPlan
from .errors import RuleError
from .model import GameModel

STEP_LIMIT = 10**9
STEP_WARNING = 10**8


def _message(what: str, steps: int) -> str:
    return (f"{what} may take about {steps:.1e} steps in one position (loops over sets inside loops over sets); "
            f"the limit is {STEP_LIMIT:.0e}")


class Compiled(Protocol):
    """What the budget reads of the game's compiler (compiler.py)."""

    model: GameModel
    decision_names: list[str]
    plans: list[Optional[DecisionPlan]]
    cases: list[CaseCode]
    phase_codes: list[Optional[PhaseCode]]
    warnings: list[RuleError]


def estimates(compiler: Compiled) -> list[tuple[ast.Pos, str, int]]:
    """(position, description, estimated steps) of every rule."""
    found = []
    n = compiler.model.board.size
    for name, info in zip(compiler.decision_names, compiler.plans):
        if info is None:
            continue
        for tier in info.tiers:
            for action in tier:
                pieces = n if action.moving and not action.same_piece else 1
                guard = action.guard_cost
                found.append((action.pos, f"listing the actions of '{action.name}'", guard + pieces * action.cost))
    for case in compiler.cases:
        after = case.after[1] if case.after else 0
        found.append((case.pos, f"applying {case.label}", case.cost + after))
    for phase in compiler.phase_codes:
        if phase is None:
            continue
        for block, what in ((phase.after_turn, "after each turn"), (phase.after_action, "after each action"),
                            (phase.no_action, "if no action")):
            if block is not None:
                found.append((phase.info.pos, f"phase '{phase.info.name}', {what}", block[1]))
    return found


def check_budget(compiler: Compiled) -> list[RuleError]:
    """Errors for the rules past STEP_LIMIT; warnings go to `compiler.warnings`."""
    errors = []
    for pos, what, steps in estimates(compiler):
        if steps > STEP_LIMIT:
            errors.append(RuleError(pos, _message(what, steps), "count over smaller sets, or split the rule"))
        elif steps > STEP_WARNING:
            compiler.warnings.append(RuleError(pos, f"{what} may take about {steps:.1e} steps in one position"))
    return errors
