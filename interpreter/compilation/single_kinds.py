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
