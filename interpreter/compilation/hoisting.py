"""Owner masks read as names where they are sure to be made already.

A lister reads a mask of sites (of an owner, of a kind: prefilters.OwnerMasks) as
`(l1 if l1 >= 0 else (l1 := made))`, made the first time it is read in a call.
Where a read is sure to come after one that made it (an earlier statement of the
block or of a block around it worked it out whatever its branches did; or an
earlier part of the same expression, not behind an `and`, `or` or condition),
the mask is read as `l1`: nothing changes the position while a lister lists
(prefilters.py), so it holds the mask. A name the loops around it do not set, so
that the pass over loop invariants (invariants.py) may work out before a loop what
the loop computes of it alike on every pass (a flood's failing sites as one mask,
asked for each player in a loop over the players: site_masks.failing). Nothing is
made earlier than before.

Only the listers' statements go through here (decisions.DecisionWriter.write).
"""
from __future__ import annotations

import ast as py
from typing import Any, Optional, Sequence

from . import pyast

_NOT_LOOKED_INTO = (py.Lambda, py.GeneratorExp, py.ListComp, py.SetComp, py.DictComp)


def masks_read_made(body: Sequence[py.stmt]) -> list[py.stmt]:
    """`body` with the masks' reads that come after one sure to have made them plain."""
    return _block(body, frozenset())


def _block(stmts: Sequence[py.stmt], made: frozenset[str]) -> list[py.stmt]:
    out: list[py.stmt] = []
    for stmt in stmts:
        new, made = _statement(stmt, made)
        out.append(new)
    return out


def _statement(stmt: py.stmt, made: frozenset[str]) -> tuple[py.stmt, frozenset[str]]:
    """`stmt` rewritten, and the masks sure to be made once it has run."""
    changed: dict[str, object] = {}
    for field in ("test", "iter", "value"):  # (worked out first, whatever follows)
        value = getattr(stmt, field, None)
        if isinstance(value, py.expr):
            new, made = _expression(value, made)
            if new is not value:
                changed[field] = new
    for field in ("body", "orelse"):
        block = getattr(stmt, field, None)
        if isinstance(block, list) and block and isinstance(block[0], py.stmt):
            new_block = _block(block, made)
            if any(a is not b for a, b in zip(new_block, block)):
                changed[field] = new_block
    if not isinstance(stmt, (py.If, py.For, py.While, py.Assign, py.AugAssign, py.Expr, py.Return)):
        return stmt, made  # (another kind: left as it is)
    made = made | _made_by(stmt)
    if changed:
        kind: Any = type(stmt)
        stmt = kind(**{f: changed.get(f, getattr(stmt, f, None)) for f in stmt._fields}, lineno=0, col_offset=0)
    return stmt, made


def _made_by(stmt: py.stmt) -> frozenset[str]:
    """The mask `if l1 < 0: l1 = made` makes (prefilters: a clearance's masks)."""
    if isinstance(stmt, py.If) and not stmt.orelse and len(stmt.body) == 1 and isinstance(stmt.body[0], py.Assign) \
            and isinstance(stmt.test, py.Compare) and isinstance(stmt.test.ops[0], py.Lt) and len(stmt.test.ops) == 1:
        target, left = stmt.body[0].targets, stmt.test.left
        if len(target) == 1 and isinstance(target[0], py.Name) and pyast.is_name(left, target[0].id) \
                and isinstance(stmt.body[0].value, py.Call):
            return frozenset((target[0].id,))
    return frozenset()


def _expression(node: py.expr, made: frozenset[str]) -> tuple[py.expr, frozenset[str]]:
    """`node` with the reads of masks in `made` plain, and the masks sure to be made
    once it is worked out."""
    found = lazy_mask(node)
    if found is not None:
        return (pyast.name(found), made) if found in made else (node, made | {found})
    if isinstance(node, _NOT_LOOKED_INTO):
        return node, made
    if isinstance(node, py.BoolOp):
        first, sure = _expression(node.values[0], made)
        values, later = [first], sure
        for operand in node.values[1:]:  # (each worked out only after those before it)
            new, later = _expression(operand, later)
            values.append(new)
        return (node if _same(values, node.values) else py.BoolOp(op=node.op, values=values)), sure
    if isinstance(node, py.IfExp):
        test, sure = _expression(node.test, made)
        body, _ = _expression(node.body, sure)
        orelse, _ = _expression(node.orelse, sure)
        if test is node.test and body is node.body and orelse is node.orelse:
            return node, sure
        return py.IfExp(test=test, body=body, orelse=orelse), sure
    if isinstance(node, py.Compare) and len(node.ops) > 1:
        return node, made  # (a chain stops early: not looked into)
    changed: dict[str, object] = {}
    for field in node._fields:  # (in the order Python works them out)
        value = getattr(node, field, None)
        if isinstance(value, py.expr):
            part, made = _expression(value, made)
            if part is not value:
                changed[field] = part
        elif isinstance(value, list) and value and isinstance(value[0], py.expr):
            items = []
            for item in value:
                new, made = _expression(item, made)
                items.append(new)
            if not _same(items, value):
                changed[field] = items
    if not changed:
        return node, made
    kind: Any = type(node)
    return kind(**{f: changed.get(f, getattr(node, f, None)) for f in node._fields}), made


def _same(a: Sequence[py.AST], b: Sequence[py.AST]) -> bool:
    return all(x is y for x, y in zip(a, b))


def lazy_mask(node: py.AST) -> Optional[str]:
    """Its local when `node` is `(l1 if l1 >= 0 else (l1 := made))`, `made` a call."""
    if not (isinstance(node, py.IfExp) and isinstance(node.body, py.Name) and isinstance(node.orelse, py.NamedExpr)
            and isinstance(node.test, py.Compare) and len(node.test.ops) == 1 and isinstance(node.test.ops[0], py.GtE)):
        return None
    name, test, limit = node.body.id, node.test, node.test.comparators[0]
    if not (pyast.is_name(test.left, name) and isinstance(limit, py.Constant) and limit.value == 0
            and node.orelse.target.id == name and isinstance(node.orelse.value, py.Call)):
        return None
    return name
