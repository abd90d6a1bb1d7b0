"""Bitmasks gathered over one loop from several tables, gathered as one.

A screen finds, once per listing, the landings a kind's pieces touch, one
bitmask a table (clearances.kind_masks and the passes after it):

    t1 = 0
    t2 = 0
    for x in o[-1]:
        if (b[x] or k0)[1] == 3:
            t1 = t1 | T1[x]
            t2 = t2 | T2[x]

— an OR, a table read and a store for each table at each piece found. Where
every table is a constant tuple of whole numbers (none negative) of one length,
the entries of a site side by side in one number, each table's bits above the
one before (P[x] = T1[x] | T2[x] << w1, w1 the widest entry of T1), make one
bitmask gathered by one OR a piece; each table's is cut out after the loop:

    t9 = 0
    for x in o[-1]:
        if (b[x] or k0)[1] == 3:
            t9 = t9 | P[x]
    t1 = t9 & M1
    t2 = t9 >> w1

The same masks: the tables' bits never meet in P, and an OR of sums of
disjoint fields is the sum of the fields' ORs. The same sites are read in the
same order (P has the tables' length: an index out of range fails alike). Only
where the masks start at 0 in the statements just before the loop and the loop
reads or writes them nowhere else (no `else`, the body only the ORs, under at
most one test).
"""
from __future__ import annotations

import ast as py
from typing import Any, Callable, Optional

from . import pyast

# (off: each mask gathered by its own OR — the tests compare the two)
ENABLED = True


def masks_packed(function: py.FunctionDef, const: Callable[[object], py.Name], value: Callable[[py.expr], object],
                 fresh: Callable[[str], str]) -> py.FunctionDef:
    """`function` with each loop of the module docstring's shape gathering one
    bitmask, or `function` itself where there is none."""
    if not ENABLED:
        return function
    body = _block(function.body, const, value, fresh)
    if len(body) == len(function.body) and all(a is b for a, b in zip(body, function.body)):
        return function
    return py.FunctionDef(name=function.name, args=function.args, body=body, decorator_list=[], returns=None,
                          type_comment=None, lineno=0, col_offset=0)


def _block(stmts: list[py.stmt], const: Callable[[object], py.Name], value: Callable[[py.expr], object],
           fresh: Callable[[str], str]) -> list[py.stmt]:
    out: list[py.stmt] = []
    for stmt in stmts:
        stmt = pyast.with_blocks(stmt, lambda block: _block(block, const, value, fresh))
        packed = _packed(stmt, out, const, value, fresh) if isinstance(stmt, py.For) else None
        if packed is None:
            out.append(stmt)
            continue
        out[:] = _without_zeros(out, packed[1]) + packed[0]
    return out


def _without_zeros(before: list[py.stmt], masks: set[str]) -> list[py.stmt]:
    """`before` without the masks' zeros in its last run of `NAME = 0` (each is
    given its value after the loop, and nothing between reads it)."""
    at = len(before)
    while at and _zero_of(before[at - 1]) is not None:
        at -= 1
    return before[:at] + [stmt for stmt in before[at:] if _zero_of(stmt) not in masks]


def _zero_of(stmt: py.stmt) -> Optional[str]:
    """N for `N = 0`, else None."""
    if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name) \
            and isinstance(stmt.value, py.Constant) and type(stmt.value.value) is int and stmt.value.value == 0:
        return stmt.targets[0].id
    return None


def _ors(body: list[py.stmt], variable: str) -> Optional[list[tuple[str, py.Name]]]:
    """(mask, table) of each `M = M | T[x]` (or `M |= T[x]`) of `body`, all of it;
    None where it holds anything else or gives one mask twice."""
    found: list[tuple[str, py.Name]] = []
    for stmt in body:
        if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name) \
                and isinstance(stmt.value, py.BinOp) and isinstance(stmt.value.op, py.BitOr) \
                and pyast.is_name(stmt.value.left, stmt.targets[0].id):
            mask, read = stmt.targets[0].id, stmt.value.right
        elif isinstance(stmt, py.AugAssign) and isinstance(stmt.target, py.Name) and isinstance(stmt.op, py.BitOr):
            mask, read = stmt.target.id, stmt.value
        else:
            return None
        if not (isinstance(read, py.Subscript) and isinstance(read.value, py.Name)
                and pyast.is_name(read.slice, variable)) or mask == variable or mask in (m for m, _ in found):
            return None
        found.append((mask, read.value))
    return found


def _packed(loop: py.For, before: list[py.stmt], const: Callable[[object], py.Name], value: Callable[[py.expr], object],
            fresh: Callable[[str], str]) -> Optional[tuple[list[py.stmt], set[str]]]:
    """The statements standing for `loop` after `before` and the masks whose
    zeros before it they make needless, or None where it is not of the shape."""
    if not isinstance(loop.target, py.Name) or loop.orelse:
        return None
    variable = loop.target.id
    inner = loop.body
    test: Optional[py.expr] = None
    if len(inner) == 1 and isinstance(inner[0], py.If) and not inner[0].orelse:
        test, inner = inner[0].test, inner[0].body
    ors = _ors(inner, variable)
    if ors is None or len(ors) < 2:
        return None
    masks = [mask for mask, _ in ors]
    if any(pyast.uses([loop.iter], mask) or test is not None and pyast.uses([test], mask) for mask in masks):
        return None
    if not _zeroed_before(before, masks):
        return None
    found = [_whole_numbers(value(table)) for _, table in ors]
    tables = [table for table in found if table is not None]
    if len(tables) != len(found) or len({len(table) for table in tables}) != 1:
        return None
    widths = [max(table).bit_length() for table in tables]
    offsets = [sum(widths[:n]) for n in range(len(widths))]
    packed = tuple(sum(table[at] << offset for table, offset in zip(tables, offsets))
                   for at in range(len(tables[0])))
    gathered = pyast.name(fresh("t"))
    add = pyast.assign(gathered, pyast.binop(gathered, "|", pyast.sub(const(packed), pyast.name(variable))))
    walked = py.For(target=loop.target, iter=loop.iter,
                    body=[pyast.if_(test, [add]) if test is not None else add], orelse=[], type_comment=None,
                    lineno=0, col_offset=0)
    cut: list[py.stmt] = []
    for mask, width, offset in zip(masks, widths, offsets):
        field: py.expr = gathered if offset == 0 else pyast.binop(gathered, ">>", pyast.num(offset))
        if offset + width < offsets[-1] + widths[-1]:
            field = pyast.binop(field, "&", const((1 << width) - 1))
        cut.append(pyast.assign(pyast.name(mask), field if width else pyast.num(0)))
    return [pyast.assign(gathered, pyast.num(0)), walked, *cut], set(masks)


def _whole_numbers(table: Any) -> Optional[tuple[int, ...]]:
    """`table` where it is a tuple of whole numbers, none negative, else None."""
    if isinstance(table, tuple) and table and all(type(entry) is int and entry >= 0 for entry in table):
        return table
    return None


def _zeroed_before(before: list[py.stmt], masks: list[str]) -> bool:
    """Whether each of `masks` is given 0 in the run of `NAME = 0` statements
    that ends `before` (nothing between reads it)."""
    zeroed: set[str] = set()
    for stmt in reversed(before):
        name = _zero_of(stmt)
        if name is None:
            break
        zeroed.add(name)
    return all(mask in zeroed for mask in masks)


__all__ = ["masks_packed"]
