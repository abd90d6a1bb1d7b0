"""Kinds of which a player never has two pieces on the board.

An action whose notation leaves out `{from}` ("{to}") could write one text for two
pieces of the player landing on one site, so its candidates are compared by
notation while listing (decisions._clashes). Where the rules prove that the
player has one piece of the moving kind at most, every candidate of that kind
starts from the same site, and one text means one landing of one piece: the
candidates are told apart as if the notation showed `{from}`.

The proof: the setup (with the options chosen) gives no player two pieces of the
kind, and nothing in the rules can add one — no `create` or `promote` to it, no
drop of it, no pool holding it, no rule changing an owner (`X.owner = ...`), and
no stacks (a `move one` splits a stack in two). Every statement of the rules
counts, whether or not it can run with these options.
"""
from __future__ import annotations

from collections import Counter

from ..parsing import ast
from ..parsing.visit import nodes_of
from .items import RuleItems
from .model import GameModel


def single_kinds(model: GameModel, items: RuleItems) -> frozenset[int]:
    """The indexes of the kinds of which no player ever has more than one piece on
    the board."""
    if model.stacks:
        return frozenset()
    per_owner = Counter((placement.owner, placement.kind) for placement in model.setup)
    kinds = {k.index for k in model.kinds.values()} - {kind for (_, kind), n in per_owner.items() if n > 1}
    kinds -= {pool.kind for pool in model.pools.values()}
    made: set[str] = set()
    rules = (items.phases, items.decisions, items.chances, items.defines, items.procedures, items.forbids,
             items.score)
    for node in nodes_of(rules):
        if isinstance(node, (ast.CreateStmt, ast.PromoteStmt)):
            made.add(node.kind)
        elif isinstance(node, ast.PromoteChoiceStmt):
            made.update(k.id for k in node.kinds)
        elif isinstance(node, ast.DropPattern):
            made.add(node.kind)
        elif isinstance(node, ast.AssignStmt) and isinstance(node.target, ast.Attr) \
                and node.target.name in ("owner", "kind"):
            return frozenset()
    kinds -= {model.kinds[name].index for name in made if name in model.kinds}
    return frozenset(kinds)


def start_made_kinds(model: GameModel, items: RuleItems) -> frozenset[int]:
    """The kinds of which no player would ever have two pieces, as `single_kinds`
    proves it, but that the first phase's rules make: a first phase no rule starts
    again (play leaves it for good), whose decisions, chance events and blocks (and
    the procedures and follow-ups they reach) are the only rules making the kind —
    no rule another phase, a `forbid` or the score reaches does. Once play has left
    that phase, no rule can add a piece of the kind, so the count on leaving it holds
    for every later position: start_kinds.py counts it there."""
    if model.stacks or len(items.phases) < 2:
        return frozenset()
    first = items.phases[0]
    rules = (items.phases, items.decisions, items.chances, items.defines, items.procedures, items.forbids,
             items.score)
    for node in nodes_of(rules):
        if isinstance(node, ast.AssignStmt) and isinstance(node.target, ast.Attr) \
                and node.target.name in ("owner", "kind"):
            return frozenset()
        if isinstance(node, ast.StartPhaseStmt) and node.phase == first.name:
            return frozenset()
    later = _made_kinds(items, [*items.phases[1:], *items.forbids, items.score], items.phases[1:])
    early = _made_kinds(items, [first], [first])
    per_owner = Counter((placement.owner, placement.kind) for placement in model.setup)
    twice = {kind for (_, kind), n in per_owner.items() if n > 1}
    pooled = {pool.kind for pool in model.pools.values()}
    return frozenset(model.kinds[name].index for name in early - later
                     if name in model.kinds and model.kinds[name].index not in twice | pooled)


def _made_kinds(items: RuleItems, roots: list[object], phases: list[ast.Phase]) -> set[str]:
    """The kinds that the rules reached from `roots` — the decisions and chance
    events in `phases`' turns, the procedures called and the decisions followed up,
    each once — create, promote to or drop."""
    made: set[str] = set()
    seen: set[str] = set()
    waiting: list[object] = list(roots)
    for phase in phases:
        waiting.extend(_named_rule(items, name.id, seen) for name in phase.turn)
    while waiting:
        for node in nodes_of(waiting.pop()):
            if isinstance(node, (ast.CreateStmt, ast.PromoteStmt, ast.DropPattern)):
                made.add(node.kind)
            elif isinstance(node, ast.PromoteChoiceStmt):
                made.update(k.id for k in node.kinds)
            elif isinstance(node, ast.CallStmt):
                waiting.append(_named_rule(items, node.procedure, seen))
            elif isinstance(node, ast.ThenStmt):
                waiting.append(_named_rule(items, node.decision, seen))
    return made


def _named_rule(items: RuleItems, name: str, seen: set[str]) -> object:
    """The procedure, decision or chance event `name`, the first time it is asked (else None)."""
    if name in seen:
        return None
    seen.add(name)
    return items.procedures.get(name) or items.decisions.get(name) or items.chances.get(name)
