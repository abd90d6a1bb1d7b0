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

Two such calls one after the other — two drops' loops, each under the same
guard (a test reading locals and elements alone, nothing between giving them
a value) or under none, with only lengths of `out` taken between them — walk
the same pieces: they become one `h_listed_unblocked_pair(out, o, BLOCKING,
C1, C2)`, BLOCKING[site] the first's entry with the second's above its bits,
which lists both and gives the length of `out` between them (else, where the
guard is false, the length is taken as before). Nothing between writes the
board: the first call only extends `out`.
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
# (off: two calls one after the other each walk the pieces — the tests compare the two)
PAIRS_JOINED = True
PAIR_HELPER = "h_listed_unblocked_pair"
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
    done = pyast.replace_nodes(function, lambda node: found.get(id(node)))
    assert isinstance(done, py.FunctionDef)
    return _pairs_joined(done, const, value) if PAIRS_JOINED else done


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


def _pairs_joined(function: py.FunctionDef, const: Callable[[object], py.Name],
                  value: Callable[[py.expr], object]) -> py.FunctionDef:
    """`function` with each two calls of the helper that follow each other (the
    module docstring's last paragraph) made one call of the pair's helper."""
    body = _joined_block(function.body, const, value)
    if len(body) == len(function.body) and all(a is b for a, b in zip(body, function.body)):
        return function
    return py.FunctionDef(name=function.name, args=function.args, body=body, decorator_list=[], returns=None,
                          type_comment=None, lineno=0, col_offset=0)


def _joined_block(stmts: list[py.stmt], const: Callable[[object], py.Name],
                  value: Callable[[py.expr], object]) -> list[py.stmt]:
    out: list[py.stmt] = []
    for stmt in stmts:
        out.append(pyast.with_blocks(stmt, lambda block: _joined_block(block, const, value)))
        joined = _joined_tail(out, const, value)
        if joined is not None:
            out[joined[0]:] = joined[1]
    return out


def _joined_tail(out: list[py.stmt], const: Callable[[object], py.Name],
                 value: Callable[[py.expr], object]) -> Optional[tuple[int, list[py.stmt]]]:
    """Where `out` ends in two listings under one guard (`_listing`) with only
    lengths of `out` taken between them: where they start and the statements
    standing for them."""
    second = _listing(out[-1])
    if second is None:
        return None
    back = len(out) - 2
    while back >= 0 and _length_taken(out[back]) is not None:
        back -= 1
    first = _listing(out[back]) if back >= 0 else None
    if first is None or not pyast.same(first[0], second[0]):
        return None
    lengths = [pyast.name(_length_taken(stmt) or "") for stmt in out[back + 1:-1]]
    # (the guard read again: no length taken between may change it)
    if first[0] is not None and any(pyast.uses([first[0]], name.id) for name in lengths):
        return None
    call = _pair_call(first[2], second[2], const, value)
    if call is None:
        return None
    listed: list[py.stmt] = [*first[1], pyast.assign(lengths[0], call, *lengths[1:]) if lengths
                             else pyast.expr_stmt(call), *second[1]]
    if first[0] is None:
        return back, listed
    untaken = [pyast.assign(lengths[0], pyast.call(pyast.name("len"), pyast.name(OUT)), *lengths[1:])] \
        if lengths else []
    return back, [pyast.if_(first[0], listed, untaken)]


def _listing(stmt: py.stmt) -> Optional[tuple[Optional[py.expr], list[py.stmt], py.Call]]:
    """For `h_listed_unblocked(out, o, B, C)`, or `if G: N = K ...
    h_listed_unblocked(...)` (G reading locals and elements, not `out`; each N
    given a whole number K, none of them read by G): (G or None, the statements
    before the call, the call)."""
    guard: Optional[py.expr] = None
    body = [stmt]
    if isinstance(stmt, py.If) and _only_reads(stmt.test) and not pyast.uses([stmt.test], OUT) and not stmt.orelse:
        guard, body = stmt.test, stmt.body
    last = body[-1]
    if not (isinstance(last, py.Expr) and isinstance(last.value, py.Call) and pyast.is_name(last.value.func, HELPER)
            and len(last.value.args) == 4 and not last.value.keywords
            and pyast.is_name(last.value.args[0], OUT) and pyast.is_name(last.value.args[1], "o")):
        return None
    before = body[:-1]
    for given in before:
        if not (isinstance(given, py.Assign) and len(given.targets) == 1 and isinstance(given.targets[0], py.Name)
                and given.targets[0].id not in (OUT, "o") and _whole_number(given.value)
                and not (guard is not None and pyast.uses([guard], given.targets[0].id))):
            return None
    return guard, before, last.value


# (what a guard asked twice may be made of: it reads locals, constants and
# elements, calls nothing and gives nothing a value)
_READING = (py.Name, py.Constant, py.Subscript, py.BinOp, py.UnaryOp, py.Compare, py.BoolOp, py.Load,
            py.operator, py.unaryop, py.cmpop, py.boolop)


def _only_reads(test: py.expr) -> bool:
    return all(isinstance(node, _READING) for node in py.walk(test))


def _whole_number(node: py.expr) -> bool:
    try:
        return type(py.literal_eval(node)) is int
    except ValueError:
        return False


def _length_taken(stmt: py.stmt) -> Optional[str]:
    """N for `N = len(out)` (N not `out` nor `o`), else None."""
    if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name) \
            and stmt.targets[0].id not in (OUT, "o") and pyast.same(stmt.value, pyast.call(pyast.name("len"),
                                                                                          pyast.name(OUT))):
        return stmt.targets[0].id
    return None


def _pair_call(first: py.Call, second: py.Call, const: Callable[[object], py.Name],
               value: Callable[[py.expr], object]) -> Optional[py.Call]:
    """`h_listed_unblocked_pair(out, o, BLOCKING, C1, C2)` for the two calls, the
    second's blocking bits above the first's; None where a table is not known."""
    tables = [value(call.args[n]) for call in (first, second) for n in (2, 3)]
    if not all(isinstance(table, tuple) for table in tables):
        return None
    blocking1, codes1, blocking2, codes2 = tables
    assert isinstance(codes1, tuple) and isinstance(blocking1, tuple) and isinstance(blocking2, tuple)
    if len(blocking1) != len(blocking2):
        return None
    width = len(codes1)
    blocking = tuple(low | high << width for low, high in zip(blocking1, blocking2))
    return pyast.helper(PAIR_HELPER, pyast.name(OUT), pyast.name("o"), const(blocking), first.args[3],
                        second.args[3])
