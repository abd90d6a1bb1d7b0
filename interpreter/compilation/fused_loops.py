"""Two loops over one list, one after the other, that only read and count: one
loop with both bodies — a pass over the generated functions.

`count(f, A) + count(f, B)` (a hand's pairs making fifteen, then its pairs of
one rank) is written as two loops over `f`, each adding to its own counter:

    t1 = 0
    for i1 in l5:
        if A(i1):
            t1 += 1
    t2 = 0
    for i2 in l5:
        if B(i2):
            t2 += 1

One loop does both: `t1 = 0; t2 = 0; for i1 in l5: <A's body>; <B's body, i2
read as i1>` — the list gone over once, each element's test of A then of B.
The same values come out where neither body can tell the other ran first:

- the bodies call nothing (so fail nowhere and change nothing but locals), write
  no entry or attribute, and leave the loop only at its end (no `break`,
  `continue`, `return`);
- neither body names what the other writes (its loop variable included), and
  the statements between the loops (run before the joined loop) name nothing
  the first loop writes, write nothing it reads and call nothing;
- the list is a name, or a player's sites `o[X]`, that nothing of it writes; the
  second loop's variable is named nowhere else in the function.

Later passes then work out the loop's invariant reads once for both bodies.
Trees are not changed in place: the joined loops are new nodes.
"""
from __future__ import annotations

import ast as py
from typing import Optional

from . import pyast

# (a body that leaves the loop early, or may do anything, is not joined)
_NOT_IN_BODIES = (py.Call, py.Break, py.Continue, py.Return, py.Raise, py.While, py.Yield, py.YieldFrom, py.Await,
                  py.Lambda, py.FunctionDef, py.Global, py.Nonlocal, py.Delete, py.Try, py.With)


def _names(nodes: list[py.stmt] | py.AST) -> set[str]:
    parts = nodes if isinstance(nodes, list) else [nodes]
    return {n.id for part in parts for n in pyast.walk(part) if isinstance(n, py.Name)}


def _written(nodes: list[py.stmt]) -> Optional[set[str]]:
    """The names `nodes` give a value, or None where they write anything else (an
    entry, an attribute) or hold what a body may not."""
    found: set[str] = set()
    for node in (n for stmt in nodes for n in pyast.walk(stmt)):
        if isinstance(node, _NOT_IN_BODIES):
            return None
        if isinstance(node, (py.Subscript, py.Attribute, py.Starred)) and not isinstance(node.ctx, py.Load):
            return None
        if isinstance(node, py.Name) and not isinstance(node.ctx, py.Load):
            found.add(node.id)
    return found


def _list_of(loop: py.For) -> Optional[py.expr]:
    """The list a plain loop (`for NAME in LIST:`, no `else`) goes over, where it is
    a name or a player's sites `o[X]` (X a name or a number), else None."""
    if loop.orelse or not isinstance(loop.target, py.Name):
        return None
    it = loop.iter
    if isinstance(it, py.Name):
        return it
    if isinstance(it, py.Subscript) and pyast.is_name(it.value, "o") \
            and (isinstance(it.slice, py.Name) or isinstance(it.slice, py.Constant) and type(it.slice.value) is int):
        return it
    return None


def _joined(first: py.For, between: list[py.stmt], second: py.For, elsewhere: dict[str, int]) -> Optional[py.For]:
    """The one loop doing `first`, then `second` (with `between` run before it), or
    None where the two cannot be told to have run apart (the module's doc)."""
    listed = _list_of(first)
    if listed is None or _list_of(second) is None or not pyast.same(listed, second.iter):
        return None
    assert isinstance(first.target, py.Name) and isinstance(second.target, py.Name)
    var, other = first.target.id, second.target.id
    writes_a, writes_b = _written(first.body), _written(second.body)
    writes_between = _written(between)
    if writes_a is None or writes_b is None or writes_between is None:
        return None
    writes_a.add(var)
    writes_b.add(other)
    names_a, names_b, names_between = _names(first.body) | {var}, _names(second.body) | {other}, _names(between)
    if writes_a & (names_b | names_between) or writes_b & names_a or writes_between & names_a \
            or _names(listed) & (writes_a | writes_b | writes_between):
        return None
    # (the second loop's variable: read as the first's, so named nowhere but in its loop)
    if elsewhere.get(other, 0) != sum(pyast.uses([stmt], other) for stmt in second.body) + 1:
        return None
    renamed = pyast.replace_in(second.body, lambda n: py.Name(id=var, ctx=n.ctx)
                               if isinstance(n, py.Name) and n.id == other else None)
    return py.For(target=first.target, iter=first.iter, body=list(first.body) + renamed, orelse=[],
                  type_comment=None, lineno=0, col_offset=0)


def _block(stmts: list[py.stmt], counts: dict[str, int]) -> list[py.stmt]:
    out: list[py.stmt] = []
    for stmt in stmts:
        stmt = pyast.with_blocks(stmt, lambda block: _block(block, counts))
        if isinstance(stmt, py.For):
            # (the loop before it in this block, and what stands between)
            back = len(out) - 1
            while back >= 0 and not isinstance(out[back], py.For) and _written([out[back]]) is not None:
                back -= 1
            if back >= 0 and isinstance(out[back], py.For):
                earlier = out[back]
                assert isinstance(earlier, py.For)
                between = out[back + 1:]
                joined = _joined(earlier, between, stmt, counts)
                if joined is not None:
                    out[back:] = between + [joined]
                    continue
        out.append(stmt)
    return out


def loops_fused(function: py.FunctionDef) -> py.FunctionDef:
    """`function` with the loops over one list that only count joined (see the
    module's doc); the same function where there are none."""
    counts = pyast.name_counts(function)
    body = _block(function.body, counts)
    if len(body) == len(function.body) and all(a is b for a, b in zip(body, function.body)):
        return function
    return py.FunctionDef(name=function.name, args=function.args, body=body, decorator_list=[], returns=None,
                          type_comment=None, lineno=0, col_offset=0)


__all__ = ["loops_fused"]
