"""A lister's loop over fixed sites whose test lets through every empty site
beside an empty one, written as bitmasks.

A drop's candidates are often the empty sites of a fixed set, and its `where`
an `or` whose first part asks whether a neighbour is empty (`exists(neighbours(to),
it is empty) or ...`). Lowered (conditions.py), each site then costs a turn of
the loop, the board's read, the neighbours' loop and the flags, though almost
every site passes at its first neighbour. Here the lister's loop

    for to in K:                        K: a constant tuple of sites, ascending
        [tg = b[to]]
        if tg is None:                  (or `b[to] is None`)
            [if to != X: ...]           X read from the position, not from `to`
                t0 = False
                for i in N[to]:         N: a constant table of sites by site
                    if b[i] is None:
                        t0 = True
                        break
                <statements that leave a flag true when t0 is: copies of it,
                 `or`s it comes first in, `if not flag:` blocks>
                if flag:
                    out.append(CODE)    CODE: the code (case, frm, to) made once

becomes: the mask of the empty sites (the occupied ones' from `s.occ`); the
candidates, K's empty sites but X; those with an empty neighbour, worked out for
all at once — the table N as offsets, each with the mask of the sites that have
a neighbour there (any table is so written; at most MAX_OFFSETS offsets), the
empty mask shifted by each; the other candidates are asked as before (the loop's
body, one site at a time, their bits read off a mask); the codes of the sites
passing are read from tables by chunks of CHUNK bits, in K's order.

Only where nothing else in the loop needs each turn: no `return`, no `break` or
`continue` of the loop itself; each local the loop sets is set before it is read
in the turn (or is a mask made once per call, `if l < 0: l = ...`), and none is
read after the loop. `h_make_code`'s code is (case, frm, to), `frm` a constant the
function sets once.
"""
from __future__ import annotations

import ast as py
import copy
from typing import Any, Iterator, Optional, Sequence

from . import pyast
from .source import Source

# Tables with more offsets than this are asked site by site, as before.
MAX_OFFSETS = 8
# The bits of one chunk of the passing mask (a table of 2**CHUNK entries per chunk).
CHUNK = 8
# Boards with more sites than this keep their loop (a table per chunk).
MAX_SITES = 1024


def masked_listing(src: Source, body: list[py.stmt], n_sites: int) -> list[py.stmt]:
    """`body` (a lister's, registers loaded) with its loops over fixed sites
    rewritten as the module says where they can be; else `body` itself."""
    if n_sites > MAX_SITES:
        return body
    out: Optional[list[py.stmt]] = None
    for i, stmt in enumerate(body):
        if isinstance(stmt, py.For):
            new = _rewritten(src, body, i, n_sites)
            if new is not None:
                out = (out if out is not None else list(body[:i]))
                out.extend(new)
                continue
        if out is not None:
            out.append(stmt)
    return out if out is not None else body


def _rewritten(src: Source, body: list[py.stmt], index: int, n: int) -> Optional[list[py.stmt]]:
    loop = body[index]
    assert isinstance(loop, py.For)
    if loop.orelse or not pyast.is_name(loop.target, "to") or not isinstance(loop.iter, py.Name):
        return None
    sites = src.value(loop.iter)
    if not isinstance(sites, tuple) or not sites or not all(type(x) is int and 0 <= x < n for x in sites) \
            or list(sites) != sorted(set(sites)):
        return None
    stmts = loop.body
    tested: py.expr = pyast.sub(pyast.name("b"), pyast.name("to"))
    if len(stmts) == 2 and isinstance(stmts[0], py.Assign) and len(stmts[0].targets) == 1 \
            and pyast.is_name(stmts[0].targets[0], "tg") and pyast.same(stmts[0].value, tested):
        tested = pyast.name("tg")
        stmts = stmts[1:]
    if len(stmts) != 1 or not _tests(stmts[0], lambda e: _is_none(e, tested)):
        return None
    stmts = stmts[0].body  # type: ignore[attr-defined]
    guards: list[py.expr] = []
    while len(stmts) == 1 and isinstance(stmts[0], py.If) and not stmts[0].orelse:
        other = _other_site(stmts[0].test)
        if other is None:
            break
        guards.append(other)
        stmts = stmts[0].body
    start = _neighbour_test(src, stmts, n)
    if start is None:
        return None
    flag, table = start
    emitted = _emitted(stmts[2:], flag)
    if emitted is None or not _one_turn(loop, body[index + 1:]):
        return None
    made = _code_made(src, emitted, body[:index])
    if made is None or pyast.assigns(loop.body, "frm"):
        return None
    offsets = _offsets(table, sites)
    if offsets is None:
        return None
    loaded = any(isinstance(stmt, py.Assign) and any(pyast.is_name(t, "o") for t in stmt.targets)
                 for stmt in body[:index])
    return _masked(src, loop, sites, guards, offsets, made, n, loaded)


def _tests(stmt: py.stmt, test: Any) -> bool:
    return isinstance(stmt, py.If) and not stmt.orelse and bool(test(stmt.test))


def _is_none(e: py.expr, value: py.expr) -> bool:
    return isinstance(e, py.Compare) and len(e.ops) == 1 and isinstance(e.ops[0], py.Is) \
        and pyast.same(e.left, value) and isinstance(e.comparators[0], py.Constant) and e.comparators[0].value is None


def _other_site(e: py.expr) -> Optional[py.expr]:
    """X of `to != X`, X a variable's read or a whole number."""
    if not (isinstance(e, py.Compare) and len(e.ops) == 1 and isinstance(e.ops[0], py.NotEq)
            and pyast.is_name(e.left, "to")):
        return None
    x = e.comparators[0]
    if isinstance(x, py.Constant) and type(x.value) is int:
        return x
    if isinstance(x, py.Subscript) and pyast.is_name(x.value, "v") and isinstance(x.slice, py.Constant) \
            and type(x.slice.value) is int:
        return x
    return None


def _neighbour_test(src: Source, stmts: Sequence[py.stmt], n: int) -> Optional[tuple[str, tuple[tuple[int, ...], ...]]]:
    """(the flag, the table) of `t = False; for i in N[to]: if b[i] is None: t = True; break`."""
    if len(stmts) < 3:
        return None
    first, loop = stmts[0], stmts[1]
    if not (isinstance(first, py.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], py.Name)
            and isinstance(first.value, py.Constant) and first.value.value is False):
        return None
    flag = first.targets[0].id
    if not (isinstance(loop, py.For) and not loop.orelse and isinstance(loop.target, py.Name)
            and isinstance(loop.iter, py.Subscript) and isinstance(loop.iter.value, py.Name)
            and pyast.is_name(loop.iter.slice, "to") and len(loop.body) == 1):
        return None
    inner, site = loop.body[0], pyast.sub(pyast.name("b"), pyast.name(loop.target.id))
    if not (isinstance(inner, py.If) and not inner.orelse and _is_none(inner.test, site)
            and len(inner.body) == 2 and isinstance(inner.body[1], py.Break)
            and pyast.same(inner.body[0], pyast.assign(pyast.name(flag), pyast.true()))):
        return None
    table = src.value(loop.iter.value)
    if not isinstance(table, (tuple, list)) or len(table) < n:
        return None
    rows = []
    for row in table[:n]:
        if not isinstance(row, tuple) or not all(type(x) is int and 0 <= x < n for x in row):
            return None
        rows.append(row)
    return flag, tuple(rows)


def _emitted(stmts: Sequence[py.stmt], flag: str) -> Optional[py.expr]:
    """The code appended when `flag` is true: the statements keep a true flag true
    (copies, `if not` of a true flag) up to `if F: out.append(CODE)`, the last."""
    true = {flag}
    for k, stmt in enumerate(stmts):
        if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name) \
                and _true_first(stmt.value, true):
            true.add(stmt.targets[0].id)
        elif isinstance(stmt, py.If) and not stmt.orelse and isinstance(stmt.test, py.UnaryOp) \
                and isinstance(stmt.test.op, py.Not) and isinstance(stmt.test.operand, py.Name) \
                and stmt.test.operand.id in true:
            pass
        elif k == len(stmts) - 1 and isinstance(stmt, py.If) and not stmt.orelse \
                and isinstance(stmt.test, py.Name) and stmt.test.id in true and len(stmt.body) == 1:
            append = stmt.body[0]
            if isinstance(append, py.Expr) and isinstance(append.value, py.Call) and len(append.value.args) == 1 \
                    and pyast.same(append.value.func, pyast.attr(pyast.name("out"), "append")):
                return append.value.args[0]
            return None
        else:
            return None
    return None


def _true_first(value: py.expr, true: set[str]) -> bool:
    """Whether `value` is a true flag, or an `or` whose first part is one (the rest
    then not asked)."""
    if isinstance(value, py.BoolOp) and isinstance(value.op, py.Or):
        value = value.values[0]
    return isinstance(value, py.Name) and value.id in true


def _one_turn(loop: py.For, after: Sequence[py.stmt]) -> bool:
    """Whether the loop's turns need nothing of each other nor the code after it
    anything of the loop (the module's docstring)."""
    if any(_own_jump(stmt) for stmt in loop.body):
        return False
    appends = 0
    stored = {"to"}
    stores: dict[str, int] = {}
    lazy: set[str] = set()
    for node in pyast.walk_all(loop.body):
        kind = type(node)
        if kind is py.Name:
            if type(node.ctx) is py.Store:  # type: ignore[attr-defined]
                stored.add(node.id)  # type: ignore[attr-defined]
                stores[node.id] = stores.get(node.id, 0) + 1  # type: ignore[attr-defined]
        elif kind is py.Return:
            return False
        elif kind is py.Attribute:
            appends += node.attr == "append" and pyast.is_name(node.value, "out")  # type: ignore[attr-defined]
        elif kind is py.If or kind is py.IfExp:
            name = _lazy_mask(node)
            if name is not None:
                lazy.add(name)
    if appends != 1 or stored & pyast.names_in(after):
        return False
    lazy = {name for name in lazy if stores.get(name) == 1}
    seen: set[str] = set()
    for identifier, read in _names_run(loop.body):
        if identifier in stored and identifier not in seen:
            if read and identifier not in lazy and identifier != "to":
                return False
            seen.add(identifier)
    return True


def _names_run(stmts: Sequence[py.AST]) -> Iterator[tuple[str, bool]]:
    """(name, whether it is read) in the order the statements read and set them."""
    for stmt in stmts:
        if isinstance(stmt, py.Assign):
            yield from _names_run([stmt.value])
            yield from _names_run(stmt.targets)
        elif isinstance(stmt, py.AugAssign):
            yield from _names_run([stmt.value])
            if isinstance(stmt.target, py.Name):
                yield stmt.target.id, True
            yield from _names_run([stmt.target])
        elif isinstance(stmt, py.For):
            yield from _names_run([stmt.iter, stmt.target])
            yield from _names_run(stmt.body + stmt.orelse)
        elif isinstance(stmt, py.Name):
            yield stmt.id, not isinstance(stmt.ctx, py.Store)
        else:
            yield from _names_run(list(pyast.children_in_order(stmt)))


def _own_jump(stmt: py.stmt) -> bool:
    """Whether `stmt` breaks or continues the loop it stands in (not an inner one)."""
    if isinstance(stmt, (py.Break, py.Continue)):
        return True
    if isinstance(stmt, (py.For, py.While)):
        return any(_own_jump(s) for s in stmt.orelse)
    if isinstance(stmt, py.If):
        return any(_own_jump(s) for s in stmt.body + stmt.orelse)
    if isinstance(stmt, py.Try):
        return any(_own_jump(s) for s in stmt.body + stmt.finalbody)
    return False


def _lazy_mask(node: py.AST) -> Optional[str]:
    """l of `if l < 0: l = ...` or `l if l >= 0 else (l := ...)` (a mask made once
    per call), else None."""
    if isinstance(node, py.If):
        if not node.orelse and len(node.body) == 1 and isinstance(node.test, py.Compare) \
                and len(node.test.ops) == 1 and isinstance(node.test.ops[0], py.Lt) \
                and isinstance(node.test.left, py.Name) and pyast.same(node.test.comparators[0], pyast.num(0)) \
                and isinstance(node.body[0], py.Assign) and len(node.body[0].targets) == 1 \
                and pyast.is_name(node.body[0].targets[0], node.test.left.id):
            return node.test.left.id
    elif isinstance(node, py.IfExp) and isinstance(node.body, py.Name) and isinstance(node.orelse, py.NamedExpr) \
            and pyast.is_name(node.orelse.target, node.body.id) \
            and pyast.same(node.test, pyast.compare(pyast.name(node.body.id), ">=", pyast.num(0))):
        return node.body.id
    return None


def _code_made(src: Source, code: py.expr, before: Sequence[py.stmt]) -> Optional[tuple[int, int]]:
    """(case, frm) of `ROW[to] or h_make_code(TABLE, case, frm, to)`, frm a constant
    set once before the loop."""
    if isinstance(code, py.Tuple):
        parts = code.elts
    elif isinstance(code, py.BoolOp) and isinstance(code.op, py.Or) and len(code.values) == 2 \
            and isinstance(code.values[0], py.Subscript) and pyast.is_name(code.values[0].slice, "to") \
            and isinstance(code.values[1], py.Call) and pyast.is_name(code.values[1].func, "h_make_code") \
            and len(code.values[1].args) == 4:
        parts = code.values[1].args[1:]
    else:
        return None
    if not (len(parts) == 3 and isinstance(parts[0], py.Constant) and type(parts[0].value) is int
            and pyast.is_name(parts[1], "frm") and pyast.is_name(parts[2], "to")):
        return None
    frm: Optional[int] = None
    for stmt in before:
        if isinstance(stmt, py.Assign) and any(pyast.is_name(t, "frm") for t in stmt.targets):
            if frm is not None or len(stmt.targets) != 1:
                return None
            value = stmt.value
            if isinstance(value, py.UnaryOp) and isinstance(value.op, py.USub) \
                    and isinstance(value.operand, py.Constant) and type(value.operand.value) is int:
                frm = -value.operand.value
            elif isinstance(value, py.Constant) and type(value.value) is int:
                frm = value.value
            else:
                return None
        elif pyast.assigns([stmt], "frm"):
            return None
    if frm is None:
        return None
    return parts[0].value, frm


def _offsets(table: tuple[tuple[int, ...], ...], sites: tuple[int, ...]) -> Optional[dict[int, int]]:
    """offset -> the mask of K's sites whose neighbour there is in their row."""
    offsets: dict[int, int] = {}
    for site in sites:
        for other in table[site]:
            d = other - site
            offsets[d] = offsets.get(d, 0) | 1 << site
    # (every row must be exactly its offsets: no site twice in a row)
    if len(offsets) > MAX_OFFSETS or any(len(set(table[site])) != len(table[site]) for site in sites) or 0 in offsets:
        return None
    return offsets


def _masked(src: Source, loop: py.For, sites: tuple[int, ...], guards: list[py.expr], offsets: dict[int, int],
            made: tuple[int, int], n: int, loaded: bool) -> list[py.stmt]:
    full = (1 << n) - 1
    bits = tuple(1 << x for x in range(n))
    free, cands, passing, rest, bit = (pyast.name(src.fresh("l")) for _ in range(5))
    occupied = pyast.helper("h_occupied_mask", src.const(bits), pyast.name("o"))
    # (the register of the sites' lists, when the function did not load it)
    stmts: list[py.stmt] = [] if loaded else [pyast.assign(pyast.name("o"), pyast.attr(pyast.name("s"), "occ"))]
    stmts += [
        pyast.assign(free, pyast.binop(src.const(full), "^", occupied)),
        pyast.assign(cands, pyast.binop(src.const(sum(1 << x for x in sites)), "&", free)),
    ]
    others = src.const(tuple(full ^ (1 << x) for x in range(n)))
    for x in guards:
        inside = pyast.compare(pyast.num(0), "<=", copy.deepcopy(x), "<", pyast.num(n))
        taken = pyast.binop(cands, "&", pyast.sub(others, copy.deepcopy(x)))
        stmts.append(pyast.if_(inside, [pyast.assign(cands, taken)]))
    beside: Optional[py.expr] = None
    for d, mask in sorted(offsets.items()):
        shifted = pyast.binop(free, "//", pyast.num(1 << d)) if d > 0 else pyast.binop(free, "*", pyast.num(1 << -d))
        near = pyast.binop(src.const(mask), "&", shifted)
        beside = near if beside is None else pyast.binop(beside, "|", near)
    assert beside is not None
    stmts.append(pyast.assign(passing, pyast.binop(cands, "&", beside)))
    stmts.append(pyast.assign(rest, pyast.binop(cands, "^", passing)))
    # the others, one at a time: the loop's body, the code's append now the bit's
    noted = pyast.augment(passing, "|", bit)
    append = pyast.attr(pyast.name("out"), "append")
    turn = pyast.replace_in(loop.body, lambda node: noted if isinstance(node, py.Expr)
                            and isinstance(node.value, py.Call) and pyast.same(node.value.func, append) else None)
    site_of = src.const({1 << x: x for x in range(n)})
    stmts.append(pyast.while_(rest, [
        pyast.assign(bit, pyast.binop(rest, "&", pyast.neg(rest))),
        pyast.assign(rest, pyast.binop(rest, "^", bit)),
        pyast.assign(pyast.name("to"), pyast.sub(site_of, bit)),
        *turn,
    ]))
    case, frm = made
    codes = [(case, frm, x) for x in range(n)]
    size = 1 << CHUNK
    chunks = (n + CHUNK - 1) // CHUNK
    for c in range(chunks):
        # (entry m: the codes of m's bits in order; those with bit j highest, the
        # entries before with j's code added)
        table: list[tuple[tuple[int, int, int], ...]] = [()]
        for code in codes[c * CHUNK:(c + 1) * CHUNK]:
            table += [entry + (code,) for entry in table]
        part: py.expr = pyast.binop(passing, "&", pyast.num(size - 1)) if c < chunks - 1 else passing
        name = src.const(tuple(table), key=("codes by mask", case, frm, n, c))
        stmts.append(pyast.augment(pyast.name("out"), "+", pyast.sub(name, part)))
        if c < chunks - 1:
            stmts.append(pyast.augment(passing, "//", pyast.num(size)))
    return stmts
