"""A loop over a site's neighbours that counts, for each, over a short row of a
table read by the site and the neighbour: the row's entries carried by the
neighbour loop itself, the count written out.

A condition on a step asking about the sites beside the gap (`count(c in
neighbours(a), c in neighbours(b) and ...)`, expr_sets._common_neighbours) reads
a table by both ends, and a flood or a step asks it of every neighbour:

    for N in K[A]:               K: the sites beside each site (a constant)
        ...
        t = 0
        for C in T[A][N]:        T: a constant table of a few sites by A and N
            if b[C] is not None and ...:
                t += 1

Two subscripts and a loop a neighbour, for a row of one or two sites. The
neighbour loop instead goes over a table made once, each neighbour with the row
read by it, padded to the longest row with -1, and the count is written out:

    for N, C1, C2 in P[A]:       P[a]: ((n, T[a][n] padded), for n in K[a])
        ...
        t = 0
        if b[C1] is not None and ...:
            t += 1
        if b[C2] is not None and ...:
            t += 1

Sound because the padding counts nothing: the condition asks first that the site
hold a piece, and site -1's board entry is always empty (runtime/state.py); and
because nothing but the count reads C (checked over the whole function), A and N
are not set inside the loop, and the tables are constants.
"""
from __future__ import annotations

import ast as py
from typing import Any, Optional

from . import pyast
from .source import Source

# The longest row written out (a count over more sites keeps its loop).
MAX_WRITTEN_OUT = 4


def rows_paired(src: Source, body: list[py.stmt]) -> list[py.stmt]:
    """`body` (a function's) with its neighbour loops counting over a short row
    of a table by the site and the neighbour carrying that row (module docstring)."""
    uses: dict[str, int] = {}
    for node in _walked(body):  # (a node standing in two places counts twice, as name_counts does)
        if isinstance(node, py.For) and isinstance(node.target, py.Name):
            uses[node.target.id] = uses.get(node.target.id, 0) + pyast.uses([node], node.target.id)
    # (count loop variables read only inside their own loops)
    private = {name for name, n in uses.items() if pyast.uses(body, name) == n}
    memo: dict[int, py.AST] = {}

    def change(node: py.AST) -> Optional[py.AST]:
        if not isinstance(node, py.For):
            return None
        inner = pyast.replace_in(node.body, change, memo)
        paired = _paired(src, node, inner, private)
        if paired is not None:
            return paired
        if all(a is b for a, b in zip(inner, node.body)):
            return node
        return py.For(target=node.target, iter=node.iter, body=inner, orelse=node.orelse, type_comment=None)

    return pyast.replace_in(body, change, memo)


def _walked(body: list[py.stmt]) -> Any:
    for stmt in body:
        yield from py.walk(stmt)


def _paired(src: Source, loop: py.For, body: list[py.stmt], private: set[str]) -> Optional[py.For]:
    """`loop` (its body `body`) over a table's row by site going over the rows paired
    with the short rows its counts read, or None where it has no such count."""
    target, rows = loop.target, loop.iter
    if loop.orelse or not isinstance(target, py.Name) or not isinstance(rows, py.Subscript) \
            or not isinstance(rows.value, py.Name) or not isinstance(rows.slice, py.Name):
        return None
    near, site = rows.value, rows.slice.id
    neighbour = target.id
    stored = {name for stmt in body for name in pyast.stored_names(stmt)}
    if site == neighbour or site in stored or neighbour in stored:
        return None
    near_rows = src.value(near)
    counts = [c for c in _counts(body) if _counts_over(c, site, neighbour, private)]
    if not isinstance(near_rows, tuple) or not counts:
        return None
    table = counts[0].iter.value.value  # type: ignore[attr-defined]
    counts = [c for c in counts if c.iter.value.value.id == table.id]  # type: ignore[attr-defined]
    made = _paired_table(near_rows, src.value(table))
    if made is None or made[0] == 0:
        return None
    width, paired = made
    names = [src.fresh("i") for _ in range(width)]
    written: dict[int, list[py.stmt]] = {}
    for count in counts:
        element = count.target.id  # type: ignore[attr-defined]
        test = count.body[0]
        assert isinstance(test, py.If)
        written[id(count)] = [pyast.if_(pyast.replace_nodes(test.test, pyast.renaming(element, name)), test.body)
                              for name in names]
    new_body = body
    for count in counts:
        new_body = pyast.splice(new_body, count, written[id(count)])
    carried = py.Tuple(elts=[pyast.name(n) for n in [neighbour, *names]], ctx=py.Store())
    return pyast.for_(carried, pyast.sub(src.const(paired), pyast.name(site)), new_body)


def _counts(stmts: list[py.stmt]) -> list[py.For]:
    """The loops of `stmts`, at any depth, of the shape `for C in X: if COND: t += 1`."""
    found: list[py.For] = []
    for stmt in stmts:
        if isinstance(stmt, py.For) and not stmt.orelse and len(stmt.body) == 1 \
                and isinstance(stmt.target, py.Name) and _counting(stmt.body[0]):
            found.append(stmt)
            continue
        for field in ("body", "orelse"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], py.stmt):
                found.extend(_counts(block))
    return found


def _counting(stmt: py.stmt) -> bool:
    """Whether `stmt` is `if COND: t += 1`."""
    if not (isinstance(stmt, py.If) and not stmt.orelse and len(stmt.body) == 1):
        return False
    step = stmt.body[0]
    return isinstance(step, py.AugAssign) and isinstance(step.target, py.Name) and isinstance(step.op, py.Add) \
        and isinstance(step.value, py.Constant) and step.value.value == 1


def _counts_over(count: py.For, site: str, neighbour: str, private: set[str]) -> bool:
    """Whether the count loop goes over `T[site][neighbour]` (T a name), its variable
    read nowhere else, its condition asking first that the element hold a piece."""
    rows = count.iter
    element = count.target.id  # type: ignore[attr-defined]
    if not (isinstance(rows, py.Subscript) and pyast.is_name(rows.slice, neighbour)
            and isinstance(rows.value, py.Subscript) and pyast.is_name(rows.value.slice, site)
            and isinstance(rows.value.value, py.Name)) or element not in private:
        return False
    test = count.body[0].test  # type: ignore[attr-defined]
    first = test.values[0] if isinstance(test, py.BoolOp) and isinstance(test.op, py.And) else test
    held = pyast.is_not_none(pyast.sub(pyast.name("b"), pyast.name(element)))
    return pyast.same(first, held) and not any(isinstance(n, py.NamedExpr) for n in py.walk(test))


Paired = tuple[tuple[tuple[int, ...], ...], ...]


def _paired_table(near_rows: tuple[Any, ...], table: Any) -> Optional[tuple[int, Paired]]:
    """The longest row of `table` read by a site a and an n of `near_rows[a]`, and by
    site a each such n with `table[a][n]` padded with -1 to that length; None where
    a row is no tuple of sites or longer than MAX_WRITTEN_OUT."""
    if not isinstance(table, tuple) or len(table) < len(near_rows):
        return None
    width = 0
    for a, row in enumerate(near_rows):
        if not isinstance(row, tuple) or not isinstance(table[a], tuple):
            return None
        for n in row:
            if not isinstance(n, int) or not -len(table[a]) <= n < len(table[a]):
                return None
            read = table[a][n]
            if not isinstance(read, tuple) or not all(isinstance(c, int) for c in read):
                return None
            width = max(width, len(read))
    if width > MAX_WRITTEN_OUT:
        return None
    return width, tuple(tuple((n, *table[a][n], *(-1,) * (width - len(table[a][n]))) for n in row)
                        for a, row in enumerate(near_rows))
