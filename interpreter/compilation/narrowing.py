"""The sites a `drop` or `select` chooses among, narrowed to a fixed set where its
`where` names one.

`select pieces where it in row[player] and it.count > 0` goes, as written, over
every piece on the board and asks each whether it stands in the player's row.
When the condition is `it in R and ...` — a conjunct, anywhere in the `and`
chain, that puts the piece in a region or another set fixed when the rules are
compiled (one per player, maybe) — the candidates are the sites of R that hold
a piece, and the rest of the condition is asked of those: fewer candidates, no
list of every piece made, and a loop over a fixed collection, which playouts can
draw from without listing (draws.py). The actions are the same; they are listed
in R's board order instead of the order of the pieces' lists.

Only `pieces where ...` without an owner is narrowed: `pieces of P` already goes
over P's pieces alone.
"""
from __future__ import annotations

import ast as py
from typing import Optional

from ..parsing import ast
from ..parsing.visit import nodes_of
from . import pyast
from .code import conjuncts
from .expressions import ExpressionCompiler
from .scope import Scope

# The name a `where` gives the piece it asks about.
_IT = "it"


def pieces_in_fixed_set(exprs: ExpressionCompiler, e: ast.Expr, scope: Scope) -> Optional[tuple[py.expr, py.expr]]:
    """(the sites of R, the test of `to`: it holds a piece and the rest of the
    condition holds) for `pieces where it in R and ...` with R fixed (see the
    module's doc), else None."""
    if not isinstance(e, ast.Pieces) or e.owner is not None or e.where is None:
        return None
    parts = conjuncts(e.where)
    for i, part in enumerate(parts):
        if not (isinstance(part, ast.In) and not part.negated and isinstance(part.item, ast.Name)
                and part.item.id == _IT and not _names_it(part.collection)):
            continue
        region = exprs.as_sites(exprs.compile(part.collection, scope))
        if region.static_sites is None and region.region_by_player is None:
            continue
        if region.deps:
            continue
        occupied = pyast.is_not_none(pyast.sub(pyast.name("b"), pyast.name("to")))
        rest = parts[:i] + parts[i + 1:]
        if not rest:
            return region.code, occupied
        condition = rest[0]
        for more in rest[1:]:
            condition = ast.And(pos=condition.pos, left=condition, right=more)
        narrowed = exprs.as_sites(exprs.compile(ast.Pieces(pos=e.pos, owner=None, where=condition), scope))
        filtered = narrowed.filtered
        if filtered is None or filtered[0] is not None or filtered[3]:
            return None  # (a condition written as statements: left as it was)
        _, _, var, _, where = filtered
        return region.code, pyast.and_(occupied, pyast.replace_nodes(where, pyast.renaming(var, "to")))
    return None


def _names_it(e: ast.Expr) -> bool:
    return any(isinstance(node, ast.Name) and node.id == _IT for node in nodes_of(e))
