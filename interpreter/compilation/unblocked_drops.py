"""A drop's candidates listed by asking the pieces, not every landing: a pass over
the generated functions, after the lister's filter is told its runs.

A drop whose `where` asks only that some sites around the landing are empty is
listed as

    frm = -1
    for to in K:
        tg = b[to]
        if tg is None:
            if b[T1[to]] is None and b[T2[to]] is None:
                out.append(ROW[to] or h_make_code(TABLE, CASE, frm, to))

— a turn of the loop for every landing of K, though the candidates it leaves out
are only those a piece stands in the way of, few where the pieces are few next
to the landings. Where the loop is that (its tests all `is None` at the landing
or at a constant table's entry for it, the code appended made of the landing and
constants alone, `b` and `o` the position's board and lists), it becomes

    h_listed_unblocked(out, o, BLOCKING, CODES)

CODES the codes the loop would append on an empty board, in its order, and
BLOCKING[site] the bits (by index in CODES) of the candidates whose tests read
`site`: a site is empty exactly where no list of `o` holds it, so the helper
ORs the pieces' entries and leaves out the codes whose bits are set
(runtime/helpers.listed_unblocked) — the same codes in the same order. Only
where every landing's tests read at least two sites: a drop onto empty sites
alone is listed from the empty sites (listed_at_once.py), and there the pieces
may be as many as the landings. Not where the loop stands in another loop, nor
where the loop's variables may be read after it before they are given a value
again (the loop leaves them at its last landing; the call does not).
"""
from __future__ import annotations

import ast as py
from typing import Any, Callable, Optional, Sequence

from ..runtime.helpers import make_code
from . import pyast

OUT = "out"
HELPER = "h_listed_unblocked"
_CODE_MAKER = "h_make_code"
# (off: every loop left as it is — the tests compare the two)
ENABLED = True
# (a candidate reading one site: see the module docstring)
_LEAST_SITES_READ = 2


def drops_unblocked(function: py.FunctionDef, const: Callable[[object], py.Name],
                    value: Callable[[py.expr], object], sites: int) -> py.FunctionDef:
    """`function` with each drop loop of the module docstring's shape written as
    one call, or `function` itself where there is none. `const` and `value` are
    the module's (Source); `sites` the board's number of sites."""
    if not ENABLED or not _position_read(function):
        return function
    found: dict[int, py.stmt] = {}
    _look_in(function.body, [], function, const, value, sites, found)
    if not found:
        return function
    return pyast.replace_nodes(function, lambda node: found.get(id(node)))


def _position_read(function: py.FunctionDef) -> bool:
    """Whether `b` and `o` are the position's board and lists throughout `function`
    (each given once, at its top), and `out` is only ever a new list."""
    counts = pyast.store_counts(function)
    tops = {stmt.targets[0].id: stmt.value for stmt in function.body
            if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name)}
    if not (counts.get("b") == 1 and counts.get("o") == 1 and "s" in [a.arg for a in function.args.args]
            and pyast.same(tops.get("b"), pyast.attr(pyast.name("s"), "board"))
            and pyast.same(tops.get("o"), pyast.attr(pyast.name("s"), "occ"))):
        return False
    made = [stmt for stmt in pyast.statements_in(function.body)
            if isinstance(stmt, py.Assign) and any(pyast.is_name(t, OUT) for t in stmt.targets)]
    return len(made) == counts.get(OUT, 0) and all(
        len(stmt.targets) == 1 and isinstance(stmt.value, py.List) and not stmt.value.elts for stmt in made)


def _look_in(block: list[py.stmt], after: list[list[py.stmt]], function: py.FunctionDef,
             const: Callable[[object], py.Name], value: Callable[[py.expr], object], sites: int,
             found: dict[int, py.stmt]) -> None:
    """Find the loops to rewrite in `block` (not inside a loop); `after`: the
    statements that run after the block, innermost first."""
    for n, stmt in enumerate(block):
        rest = [block[n + 1:]] + after
        if isinstance(stmt, py.For):
            call = _rewritten(stmt, block[:n], rest, const, value, sites)
            if call is not None:
                found[id(stmt)] = call
        elif isinstance(stmt, py.If):
            _look_in(stmt.body, rest, function, const, value, sites, found)
            _look_in(stmt.orelse, rest, function, const, value, sites, found)


def _rewritten(loop: py.For, before: list[py.stmt], after: list[list[py.stmt]],
               const: Callable[[object], py.Name], value: Callable[[py.expr], object], sites: int) -> Optional[py.stmt]:
    """The call listing `loop`'s candidates, or None where it is not a drop's
    loop of the module docstring's shape."""
    if not isinstance(loop.target, py.Name) or loop.orelse:
        return None
    landing = loop.target.id
    landings = value(loop.iter)
    if not (isinstance(landings, (tuple, list)) and landings
            and all(type(site) is int and 0 <= site < sites for site in landings)):
        return None
    shape = _tests_and_code(loop.body, landing)
    if shape is None:
        return None
    tables, code, aliases = shape
    if any(_may_read(after, name) for name in (landing, *aliases)):
        return None
    reads = _sites_read(tables, landings, value, sites)
    if reads is None or any(len(read) < _LEAST_SITES_READ for read in reads):
        return None
    codes = _codes(code, landing, landings, before, value)  # (last: it fills the code tables)
    if codes is None:
        return None
    blocking = [0] * sites
    for index, read in enumerate(reads):
        for site in read:
            blocking[site] |= 1 << index
    return pyast.expr_stmt(pyast.helper(HELPER, pyast.name(OUT), pyast.name("o"), const(tuple(blocking)),
                                        const(codes)))


def _tests_and_code(body: list[py.stmt], landing: str) -> Optional[tuple[list[Optional[py.expr]], py.expr, list[str]]]:
    """The sites a loop's body tests empty (None: the landing itself; else the
    table read at the landing), the code it appends where all are, and the names
    it gives the landing's piece; None where the body is not `[N = b[to]] if
    TESTS: ... out.append(CODE)` with every test `X is None`."""
    tables: list[Optional[py.expr]] = []
    aliases: list[str] = []
    while True:
        if len(body) == 2 and isinstance(body[0], py.Assign) and len(body[0].targets) == 1 \
                and isinstance(body[0].targets[0], py.Name) and _board_at(body[0].value, landing) is None \
                and isinstance(body[0].value, py.Subscript):
            aliases.append(body[0].targets[0].id)
            body = body[1:]
        if len(body) != 1:
            return None
        stmt = body[0]
        if isinstance(stmt, py.If) and not stmt.orelse:
            conjuncts = stmt.test.values if isinstance(stmt.test, py.BoolOp) and isinstance(stmt.test.op, py.And) \
                else [stmt.test]
            for test in conjuncts:
                if not (isinstance(test, py.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], py.Is)
                        and isinstance(test.comparators[0], py.Constant) and test.comparators[0].value is None):
                    return None
                if isinstance(test.left, py.Name) and test.left.id in aliases:
                    tables.append(None)
                    continue
                table = _board_at(test.left, landing)
                if table is False:
                    return None
                tables.append(table)
            body = stmt.body
            continue
        if isinstance(stmt, py.Expr) and isinstance(stmt.value, py.Call) and not stmt.value.keywords \
                and pyast.same(stmt.value.func, pyast.attr(pyast.name(OUT), "append")) and len(stmt.value.args) == 1:
            code = stmt.value.args[0]
            if any(pyast.uses([code], name) for name in aliases) or pyast.uses([code], OUT) or not tables:
                return None
            return tables, code, aliases
        return None


def _board_at(node: py.expr, landing: str) -> Any:
    """For `b[to]`: None; for `b[T[to]]`: T; anything else: False."""
    if not (isinstance(node, py.Subscript) and pyast.is_name(node.value, "b")):
        return False
    if pyast.is_name(node.slice, landing):
        return None
    index = node.slice
    if isinstance(index, py.Subscript) and isinstance(index.value, py.Name) and pyast.is_name(index.slice, landing):
        return index.value
    return False


def _sites_read(tables: list[Optional[py.expr]], landings: Any, value: Callable[[py.expr], object],
                sites: int) -> Optional[list[set[int]]]:
    """By landing, the sites its tests read (-1, off the board, is always empty)."""
    rows: list[Optional[Sequence[Any]]] = []
    for table in tables:
        row = None if table is None else value(table)
        if table is not None and not isinstance(row, (tuple, list)):
            return None
        rows.append(row)  # type: ignore[arg-type]  # (a tuple or list, or None for the landing)
    reads = []
    for landing in landings:
        read = set()
        for row in rows:
            if row is None:
                read.add(landing)
                continue
            if landing >= len(row) or type(row[landing]) is not int or not -1 <= row[landing] < sites:
                return None
            if row[landing] >= 0:
                read.add(row[landing])
        reads.append(read)
    return reads


def _codes(code: py.expr, landing: str, landings: Any, before: list[py.stmt],
           value: Callable[[py.expr], object]) -> Optional[tuple[Any, ...]]:
    """The code appended at each landing, worked out (None where it reads anything
    but the landing, constants and a whole number given just before the loop):
    `(CASE, frm, to)`, or `ROW[to] or h_make_code(TABLE, CASE, frm, to)`, whose
    codes are made as the loop would make them (make_code fills TABLE)."""
    def number(node: py.expr, upto: int = len(before)) -> Optional[int]:
        if isinstance(node, py.Name):
            for at in range(upto - 1, -1, -1):
                stmt = before[at]
                if pyast.assigns([stmt], node.id):
                    if isinstance(stmt, py.Assign) and len(stmt.targets) == 1:
                        return number(stmt.value, at)
                    return None
            return None
        try:
            known = py.literal_eval(node)
        except ValueError:
            return None
        return known if type(known) is int else None

    if isinstance(code, py.Tuple) and len(code.elts) == 3 and pyast.is_name(code.elts[2], landing):
        case, frm = number(code.elts[0]), number(code.elts[1])
        if case is None or frm is None:
            return None
        return tuple((case, frm, site) for site in landings)
    if not (isinstance(code, py.BoolOp) and isinstance(code.op, py.Or) and len(code.values) == 2
            and isinstance(code.values[0], py.Subscript) and pyast.is_name(code.values[0].slice, landing)
            and isinstance(code.values[1], py.Call) and pyast.is_name(code.values[1].func, _CODE_MAKER)
            and len(code.values[1].args) == 4 and pyast.is_name(code.values[1].args[3], landing)):
        return None
    table_node, case_node, frm_node, _ = code.values[1].args
    table, case, frm = value(table_node), number(case_node), number(frm_node)
    if not isinstance(table, list) or case is None or frm is None or not -1 <= frm < len(table):
        return None
    row_node = code.values[0].value
    row = table[frm]
    if not isinstance(row, list) or not (isinstance(row_node, py.Subscript) and pyast.same(row_node.value, table_node)
            and pyast.same(row_node.slice, frm_node) or value(row_node) is row):
        return None
    if any(site >= len(row) for site in landings):
        return None
    return tuple(row[site] or make_code(table, case, frm, site) for site in landings)


def _may_read(blocks: list[list[py.stmt]], name: str) -> bool:
    """Whether `name` may be read in `blocks` (run one after the other) before it
    is given a value."""
    for block in blocks:
        answer = _read_first(block, name)
        if answer is not None:
            return answer
    return False


def _read_first(block: list[py.stmt], name: str) -> Optional[bool]:
    """True: `name` may be read in `block` before it is given a value; False: it
    is surely given one first; None: neither (it may be left as it was)."""
    for stmt in block:
        answer = _read_first_in(stmt, name)
        if answer is not None:
            return answer
    return None


def _read_first_in(stmt: py.stmt, name: str) -> Optional[bool]:
    if not pyast.uses([stmt], name):
        return None
    if isinstance(stmt, py.Assign) and all(isinstance(t, py.Name) for t in stmt.targets):
        if pyast.uses([stmt.value], name):
            return True
        return False if any(t.id == name for t in stmt.targets) else None  # type: ignore[attr-defined]
    if isinstance(stmt, py.If):
        if pyast.uses([stmt.test], name):
            return True
        body, orelse = _read_first(stmt.body, name), _read_first(stmt.orelse, name)
        if body or orelse:
            return True
        return False if body is False and orelse is False else None
    if isinstance(stmt, py.For) and isinstance(stmt.target, py.Name) and not stmt.orelse:
        if pyast.uses([stmt.iter], name):
            return True
        if stmt.target.id == name:
            return None  # (read in the body only once given; the loop may not run)
        return True if _read_first(stmt.body, name) else None
    return True
