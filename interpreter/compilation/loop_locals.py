"""Variables a loop both reads and writes, kept in locals while it runs: a pass
over the generated functions.

A counter or a running best kept in a variable of the game and asked in a loop,
`seen` in a deal that looks for the k-th pair of cards left (`if v[15] == l0` and
`v[15] += 1` for every pair), reads and writes the state's list at each round. Where
the loop cannot reach that entry otherwise, the entry is read into a temporary
before the loop, the loop reads and writes the temporary, and the temporary is
stored back after it:

    t9 = v[15]
    for ...:
        if t9 == l0: ...
        t9 += 1
    v[15] = t9

The loop (its iterable, body and else) must name the variables only by places
written out, `v[15]` (a place computed, `v[t3]`, may be any entry), or read them at
places known to be among some entries (pyast.sub_within: a per-player variable at a
player worked out), which are then not kept in locals; it must never name the
state `s` (every helper or generated function that reads or writes the variables
is handed it), never return (the store after it would be skipped), and not name the
entry inside a comprehension or lambda. Only entries the loop both reads and writes
are kept so. A store back that the next statement overwrites with a constant
(`v[15] = 0` after the deal's loops) is left out.

A rule that fails inside the loop leaves the entry as it was before the loop, where
it held the value reached: the position of a failed action is not played on (the
fault is reported, a copy dropped).
"""
from __future__ import annotations

import ast as py
from typing import Callable, Optional

from . import pyast

VARIABLES = "v"
STATE = "s"
_SCOPES = (py.Lambda, py.GeneratorExp, py.ListComp, py.SetComp, py.DictComp)
_EXITS = (py.Return, py.Yield, py.YieldFrom, py.Await, py.FunctionDef)


def loop_variables_in_locals(function: py.FunctionDef, fresh: Callable[[str], str]) -> py.FunctionDef:
    """`function` with the variables each loop reads and writes kept in locals
    while it runs (see the module); itself where there are none."""
    body = _block(function.body, fresh)
    if body is function.body:
        return function
    return py.FunctionDef(name=function.name, args=function.args, body=body, decorator_list=[],
                          returns=None, type_comment=None, lineno=0, col_offset=0)


def _block(stmts: list[py.stmt], fresh: Callable[[str], str]) -> list[py.stmt]:
    out: list[py.stmt] = []
    changed = False
    for index, stmt in enumerate(stmts):
        if isinstance(stmt, (py.For, py.While)):
            kept = _kept_places(stmt)
            if kept:
                out.extend(_in_locals(stmt, sorted(kept), stmts[index + 1:], fresh))
                changed = True
                continue
        inner = pyast.with_blocks(stmt, lambda block: _block(block, fresh))
        changed = changed or inner is not stmt
        out.append(inner)
    return out if changed else stmts


def _kept_places(loop: py.stmt) -> set[int]:
    """The places of the variables `loop` both reads and writes and reaches only
    by those places written out; empty where the loop may reach them otherwise."""
    read: set[int] = set()
    written: set[int] = set()
    ranges: list[tuple[int, int]] = []  # (what reads at places worked out may read)
    entries = named = 0
    for node in pyast.walk(loop):
        if isinstance(node, _EXITS):
            return set()
        if isinstance(node, _SCOPES):
            if pyast.names_any(node, (VARIABLES, STATE)):
                return set()
        elif isinstance(node, py.Subscript) and pyast.is_name(node.value, VARIABLES):
            place = _place(node)
            if place is None:
                within = pyast.places_read(node) if isinstance(node.ctx, py.Load) else None
                if within is None:
                    return set()
                ranges.append(within)
            else:
                (read if isinstance(node.ctx, py.Load) else written).add(place)
            entries += 1
        elif isinstance(node, py.AugAssign) and isinstance(node.target, py.Subscript) \
                and pyast.is_name(node.target.value, VARIABLES):
            place = _place(node.target)
            if place is not None:
                read.add(place)
        elif isinstance(node, py.Name) and node.id in (VARIABLES, STATE):
            if node.id == STATE:
                return set()
            named += 1
    if named != entries:
        return set()
    return {place for place in read & written if not any(first <= place <= last for first, last in ranges)}


def _place(node: py.Subscript) -> Optional[int]:
    where = node.slice
    return where.value if isinstance(where, py.Constant) and type(where.value) is int and where.value >= 0 else None


def _in_locals(loop: py.stmt, places: list[int], after: list[py.stmt], fresh: Callable[[str], str]) -> list[py.stmt]:
    """The loads of `places` into temporaries, `loop` reading and writing those, and
    the stores back that `after` does not overwrite at once."""
    names = {place: fresh("t") for place in places}

    def change(node: py.AST) -> Optional[py.AST]:
        if isinstance(node, py.Subscript) and pyast.is_name(node.value, VARIABLES):
            place = _place(node)
            if place in names:
                return py.Name(id=names[place], ctx=node.ctx)
        return None

    loads = [pyast.assign(pyast.name(names[place]), _entry(place)) for place in places]
    overwritten = _overwritten_at_once(after)
    stores = [pyast.assign(_entry(place, store=True), pyast.name(names[place]))
              for place in places if place not in overwritten]
    return loads + [pyast.replace_nodes(loop, change)] + stores


def _entry(place: int, store: bool = False) -> py.Subscript:
    return py.Subscript(value=pyast.name(VARIABLES), slice=pyast.num(place), ctx=py.Store() if store else py.Load())


def _overwritten_at_once(after: list[py.stmt]) -> set[int]:
    """The places the statements first in `after` store a constant in, one after
    the other (nothing reads the variables between)."""
    places: set[int] = set()
    for stmt in after:
        if not (isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, py.Constant)
                and isinstance(stmt.targets[0], py.Subscript) and pyast.is_name(stmt.targets[0].value, VARIABLES)):
            break
        place = _place(stmt.targets[0])
        if place is None:
            break
        places.add(place)
    return places
