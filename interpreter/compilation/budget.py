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
from ..parsing.visit import nodes_of
from .actions import ActionPlan
from .cases import PhaseCode
from .compiled import CaseCode
from .decisions import DecisionPlan
from .errors import RuleError
from .items import RuleItems
from .model import GameModel

STEP_LIMIT = 10**9
STEP_WARNING = 10**8


# What the estimate of applying an action or a phase's rules assumes.
_WHOLE_SETS = "a board full of the pieces its loops go over"


def _message(what: str, steps: int, detail: str) -> str:
    return (f"{what} may take about {steps:.1e} steps in one position (loops over sets inside loops over sets)"
            f"{detail}; the limit is {STEP_LIMIT:.0e}")


class Compiled(Protocol):
    """What the budget reads of the game's compiler (compiler.py)."""

    model: GameModel
    items: RuleItems
    decision_names: list[str]
    plans: list[Optional[DecisionPlan]]
    cases: list[CaseCode]
    phase_codes: list[Optional[PhaseCode]]
    warnings: list[RuleError]


def _costliest(action: ActionPlan, candidates: int) -> str:
    """Where the steps of listing `action` come from: its costliest part asked of
    each candidate, if that part makes most of them."""
    if not action.candidate_parts:
        return ""
    pos, what, cost = max(action.candidate_parts, key=lambda part: part[2])
    if 2 * cost < action.candidate_cost:
        return ""
    many = f"{candidates}" if candidates < 10**4 else f"{candidates:.1e}"
    return f"; most are {what} at {pos}: about {cost:.1e} steps asked of each of about {many} candidates"


def estimates(compiler: Compiled) -> list[tuple[ast.Pos, str, int, str, str]]:
    """(position, description, estimated steps, where most of them come from or "",
    what the estimate assumes) of every rule."""
    found = []
    n = compiler.model.board.size
    most = _most_pieces(compiler)
    for name, info in zip(compiler.decision_names, compiler.plans):
        if info is None:
            continue
        for tier in info.tiers:
            for action in tier:
                pieces = 1
                if action.moving and not action.same_piece:
                    kinds = action.kinds if action.kinds is not None else tuple(most)
                    pieces = min(n, sum(most[k] for k in kinds)) + len(action.pools)
                guard = action.guard_cost
                steps = guard + pieces * action.cost
                candidates = pieces * action.cost // max(1, action.candidate_cost)
                acting = f"{pieces} pieces acting (all the board's sites for a kind a rule may add, else as many " \
                    "as the setup has), each" if pieces > 1 else "the action"
                found.append((action.pos, f"listing the actions of '{action.name}'", steps,
                              _costliest(action, candidates) if 2 * guard < steps else "",
                              f"{acting} giving every candidate its pattern can, each asked every check in full"))
    for case in compiler.cases:
        after = case.after[1] if case.after else 0
        found.append((case.pos, f"applying {case.label}", case.cost + after, "", _WHOLE_SETS))
    for phase in compiler.phase_codes:
        if phase is None:
            continue
        for block, what in ((phase.after_turn, "after each turn"), (phase.after_action, "after each action"),
                            (phase.no_action, "if no action")):
            if block is not None:
                found.append((phase.info.pos, f"phase '{phase.info.name}', {what}", block[1], "", _WHOLE_SETS))
    return found


def _most_pieces(compiler: Compiled) -> dict[int, int]:
    """The most pieces of each kind the board can hold: the setup's, for a kind no
    rule can add (no `create`, `promote`, `drop` of it, no pool of it); else the
    board's size. With stacks a stone that leaves a stack (`move one`, ...) is a
    piece of the stack's kind, whatever kind it was: there each kind's bound is the
    setup's stones, all kinds together, when no rule makes a stone (no `create`, no
    `drop`, no pool: promoting changes a kind, not the number of stones)."""
    model = compiler.model
    n = model.board.size
    added = {pool.kind for pool in model.pools.values() if pool.kind is not None}
    makes_stones = bool(model.pools)
    for node in nodes_of([compiler.items.phases, compiler.items.decisions, compiler.items.chances,
                        compiler.items.procedures]):
        if isinstance(node, (ast.CreateStmt, ast.DropPattern)):
            makes_stones = True
        if isinstance(node, (ast.CreateStmt, ast.PromoteStmt, ast.DropPattern)) and node.kind in model.kinds:
            added.add(model.kinds[node.kind].index)
        elif isinstance(node, ast.PromoteChoiceStmt):
            added |= {model.kinds[k.id].index for k in node.kinds if k.id in model.kinds}
    most = {k.index: n for k in model.kinds.values()}
    if model.stacks:
        if makes_stones:
            return most
        stones = sum(p.height for p in model.setup)
        return {kind: min(n, stones) for kind in most}
    for kind in most:
        if kind not in added:
            most[kind] = min(n, sum(1 for p in model.setup if p.kind == kind))
    return most


def check_budget(compiler: Compiled) -> list[RuleError]:
    """Errors for the rules past STEP_LIMIT; warnings go to `compiler.warnings`."""
    errors = []
    for pos, what, steps, detail, assumed in estimates(compiler):
        if steps > STEP_LIMIT:
            errors.append(RuleError(pos, _message(what, steps, detail), "count over smaller sets, or split the rule"))
        elif steps > STEP_WARNING:
            # (a bound, not a measure: the hint says what it assumes and where real costs are seen)
            compiler.warnings.append(RuleError(
                pos, f"{what} may take about {steps:.1e} steps in one position{detail}",
                f"a worst case: {assumed}, every loop over its whole set; what positions really cost: "
                "`regelwerk bench GAME` (playouts a second), `regelwerk perft GAME --depth 2`"))
    return errors
