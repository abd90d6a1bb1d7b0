"""A decision's `prefer:` lines → the tiers its actions are offered in.

A line's items name actions (`jump`), cases of every action (`onto enemy`) or a
case of one action (`pawn_move onto enemy`); a tier holds the actions the line
takes, each with the cases it takes. What no line names forms the last tier. An
action whose cases fall into several tiers is listed in each with only that
tier's cases (actions.restricted_plan): the same loops, so a split action costs
what two actions would (docs/format.md 3.4).
"""
from __future__ import annotations

from ..parsing import ast
from .actions import ActionPlan, restricted_plan
from .errors import RuleError, unknown

PASS = -1  # the one "case" of a pass


def preference_tiers(decision: ast.Decision, actions: list[ActionPlan],
                     by_name: dict[str, list[ActionPlan]]) -> list[list[ActionPlan]]:
    """The actions in the order `prefer:` gives: one list per `prefer` line, then
    the rest. A tier is offered only when no earlier tier has a legal action."""
    if not decision.prefer:
        return [actions]
    names = [a.name for a in decision.actions]
    declared = {a.name: a for a in decision.actions}
    placed: dict[tuple[str, int], ast.Pos] = {}  # (action, case id) -> the item that placed it
    lines: list[dict[str, set[int]]] = []  # per line: action name -> the case ids it takes
    for _, items in decision.prefer:
        line: dict[str, set[int]] = {}
        for item in items:
            for name, cases in _named(decision, item, names, declared, by_name):
                new = {c for c in cases if (name, c) not in placed}
                if not new and cases:
                    first = next(placed[(name, c)] for c in sorted(cases) if (name, c) in placed)
                    what = f"action '{name}'" if isinstance(item, ast.Name) else f"'{name} {item.kind} {item.what}'"
                    raise RuleError(item.pos, f"{what} is already preferred at {first}")
                for c in new:
                    placed[(name, c)] = item.pos
                line.setdefault(name, set()).update(new)
        lines.append(line)
    tiers = [[_taking(plan, line[plan.name]) for plan in actions if line.get(plan.name, set()) & _cases_of(plan)]
             for line in lines]
    rest: list[ActionPlan] = []
    for plan in actions:
        left = {c for c in _cases_of(plan) if (plan.name, c) not in placed}
        if left:
            rest.append(_taking(plan, left))
    return [tier for tier in tiers + [rest] if tier]


def _cases_of(plan: ActionPlan) -> set[int]:
    """The case ids of an action (a pass, which has none, counts as one: -1)."""
    return {c for _, c in plan.case_keys} or {PASS}


def _named(decision: ast.Decision, item: ast.PreferItem, names: list[str], declared: dict[str, ast.Action],
           by_name: dict[str, list[ActionPlan]]) -> list[tuple[str, set[int]]]:
    """(action, its case ids) an item of a `prefer` line names (actions whose
    compilation failed are left out: their error is reported)."""
    if isinstance(item, ast.Name):
        if item.id not in names:
            raise RuleError(item.pos, f"decision '{decision.name}' has no action '{item.id}'",
                            unknown(item.pos, "", item.id, names).hint)
        return [(item.id, {c for plan in by_name.get(item.id, []) for c in _cases_of(plan)})]
    key = (item.kind, item.what)
    label = f"{item.kind} {item.what}"
    if item.action is not None:
        if item.action not in names:
            raise RuleError(item.pos, f"decision '{decision.name}' has no action '{item.action}'",
                            unknown(item.pos, "", item.action, names).hint)
        if not any((c.kind, c.what) == key for c in declared[item.action].cases):
            raise RuleError(item.pos, f"action '{item.action}' has no case '{label}'")
        return [(item.action, {c for plan in by_name.get(item.action, []) for k, c in plan.case_keys if k == key})]
    having = [a.name for a in decision.actions if any((c.kind, c.what) == key for c in a.cases)]
    if not having:
        raise RuleError(item.pos, f"decision '{decision.name}' has no case '{label}'")
    return [(name, {c for plan in by_name.get(name, []) for k, c in plan.case_keys if k == key}) for name in having]


def _taking(plan: ActionPlan, cases: set[int]) -> ActionPlan:
    """The plan itself when it takes all its cases, else the plan restricted to them."""
    if _cases_of(plan) <= cases:
        return plan
    return restricted_plan(plan, frozenset(cases & _cases_of(plan)))
