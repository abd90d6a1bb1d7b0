"""A lister tells its `forbid result` filter where each case's candidates stand.

The filter (runtime/clearances.sift) finds each case's run in the list by
grouping the candidates by case, one at a time: every candidate is looked at,
also those of cases no `forbid result` applies to, and a case's run is handed
on as the grouping's iterator. The lister knows more: each of its top-level
statements appends the candidates of the cases its appends name, after those
of the statements before it. So where every statement before the filter's call

    if out:
        h_result_filter(s, out, CHECKS)

touches `out` only by `out.append(CODE)`, each CODE naming its case (a code
`(CASE, frm, to)`, or `ROW[to] or h_make_code(TABLE, CASE, frm, to)` with ROW
a row of TABLE), the statements are cut into stretches where the cases
appended change (a statement appending nothing joins the stretch before it),
the length of `out` is noted where each stretch but the last ends, and the call
becomes

    if out:
        h_result_filter_runs(s, out, CHECKS, CASES, (t1, t2, ...))

CASES a constant: by stretch, the cases its statements may append. The filter
passes over a stretch none of whose cases has a check, takes a stretch of one
case as that case's run (a slice), and groups the others as before: the same
candidates asked in the same order. A last constant, where some are, tells the
stretches of one case whose candidates stand in ascending order of landing, one
a landing (`_by_landing`: one append, in one loop over a constant of ascending
sites, of a code landing at the loop's site), which a screen may look up by
landing (runtime/clearances.landed). A lister whose `out` is used any other way
before the call (a notation's alike check, a comprehension, a call), or whose
call counts coverage, is left as it is.
"""
from __future__ import annotations

import ast as py
from typing import Callable, Optional

from . import pyast

OUT = "out"
_FILTER = "h_result_filter"
_FILTER_RUNS = "h_result_filter_runs"
_CODE_MAKER = "h_make_code"
# (off: every lister left as it is — the tests compare the two)
ENABLED = True
# (off: no stretch told ordered by landing — likewise)
ORDERED = True


def runs_told(function: py.FunctionDef, const: Callable[[object], py.Name], fresh: Callable[[str], str],
              value: Callable[[py.expr], object]) -> py.FunctionDef:
    """`function` with its `forbid result` filter told where each case's
    candidates stand (module docstring), or `function` itself where it does not
    list in that shape. `const`, `fresh` and `value` are the module's (Source)."""
    if not ENABLED:
        return function
    body = function.body
    at = _filter_at(body)
    if at is None:
        return function
    start = _list_made_at(body, at)
    if start is None:
        return function
    stretches: list[tuple[frozenset[int], list[py.stmt]]] = []
    for stmt in body[start + 1:at]:
        cases = _cases_appended(stmt, value)
        if cases is None:
            return function
        if not stretches or cases and cases != stretches[-1][0] and stretches[-1][0]:
            stretches.append((cases, [stmt]))
        else:
            stretches[-1] = (stretches[-1][0] | cases, stretches[-1][1] + [stmt])
    if len(stretches) < 2:
        return function  # (one stretch: nothing told that grouping the list would not find)
    new_body = list(body[:start + 1])
    ends: list[py.expr] = []
    for n, (_, stmts) in enumerate(stretches):
        new_body += stmts
        if n < len(stretches) - 1:
            mark = pyast.name(fresh("t"))
            new_body.append(pyast.assign(mark, pyast.helper("len", pyast.name(OUT))))
            ends.append(mark)
    call = body[at].body[0].value  # type: ignore[attr-defined]  # (_filter_at checked it)
    cases_table = const(tuple(tuple(sorted(cases)) for cases, _ in stretches))
    ordered = tuple(n for n, (cases, stmts) in enumerate(stretches)
                    if ORDERED and len(cases) == 1 and _by_landing(stmts, value))
    told = pyast.helper(_FILTER_RUNS, *call.args, cases_table, pyast.tuple_(*ends),
                        *([const(ordered)] if ordered else []))
    new_body.append(pyast.if_(pyast.name(OUT), [pyast.expr_stmt(told)]))
    new_body += body[at + 1:]
    return pyast.function(function.name, [a.arg for a in function.args.args], new_body, function.args.defaults)


def _by_landing(stmts: list[py.stmt], value: Callable[[py.expr], object]) -> bool:
    """Whether `stmts` append to `out` in ascending order of landing, one code a
    landing: one `out.append(CODE)` in all, inside one loop alone (a `for` over
    a constant of strictly ascending sites, its variable given no other value
    in it), CODE landing at the loop's site (`(CASE, frm, SITE)`, or `ROW[SITE]
    or h_make_code(TABLE, CASE, frm, SITE)`: make_code's codes land at their
    last argument)."""
    found: list[tuple[py.expr, list[py.AST]]] = []

    def walk(node: py.AST, loops: list[py.AST]) -> None:
        if isinstance(node, py.Call) and pyast.same(node.func, pyast.attr(pyast.name(OUT), "append")) \
                and len(node.args) == 1:
            found.append((node.args[0], loops))
        inner = loops + [node] if isinstance(node, (py.For, py.While, py.comprehension)) else loops
        for child in py.iter_child_nodes(node):
            walk(child, inner)
    for stmt in stmts:
        walk(stmt, [])
    if len(found) != 1 or len(found[0][1]) != 1 or not isinstance(found[0][1][0], py.For):
        return False
    code, (loop,) = found[0]
    assert isinstance(loop, py.For)
    if not isinstance(loop.target, py.Name) or pyast.assigns(loop.body + loop.orelse, loop.target.id):
        return False
    sites = value(loop.iter)
    if not (isinstance(sites, (tuple, list)) and sites and all(type(site) is int and site >= 0 for site in sites)
            and all(a < b for a, b in zip(sites, sites[1:]))):
        return False
    site = loop.target.id
    if isinstance(code, py.Tuple):
        return len(code.elts) == 3 and pyast.is_name(code.elts[2], site)
    return isinstance(code, py.BoolOp) and len(code.values) == 2 and isinstance(code.values[0], py.Subscript) \
        and pyast.is_name(code.values[0].slice, site) and isinstance(code.values[1], py.Call) \
        and len(code.values[1].args) == 4 and pyast.is_name(code.values[1].args[3], site)


def _filter_at(body: list[py.stmt]) -> Optional[int]:
    """The index of the top-level `if out: h_result_filter(s, out, CHECKS)`
    (no coverage counts), the first statement calling the filter; else None."""
    for n, stmt in enumerate(body):
        if not any(isinstance(node, py.Name) and node.id in (_FILTER, _FILTER_RUNS) for node in pyast.walk(stmt)):
            continue
        if isinstance(stmt, py.If) and pyast.is_name(stmt.test, OUT) and not stmt.orelse and len(stmt.body) == 1 \
                and isinstance(stmt.body[0], py.Expr) and isinstance(stmt.body[0].value, py.Call):
            call = stmt.body[0].value
            if pyast.is_name(call.func, _FILTER) and len(call.args) == 3 and not call.keywords \
                    and pyast.is_name(call.args[1], OUT):
                return n
        return None
    return None


def _list_made_at(body: list[py.stmt], at: int) -> Optional[int]:
    """The index of the one top-level `out = []` before `at`, no statement before
    it naming `out`; else None."""
    for n, stmt in enumerate(body[:at]):
        if not pyast.uses([stmt], OUT):
            continue
        if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], OUT) \
                and isinstance(stmt.value, py.List) and not stmt.value.elts:
            return n
        return None
    return None


def _cases_appended(stmt: py.stmt, value: Callable[[py.expr], object]) -> Optional[frozenset[int]]:
    """The cases `stmt` may append to `out`, where it names `out` only as
    `out.append(CODE)` with CODE naming its case; else None."""
    appended: list[py.expr] = []
    for node in pyast.walk(stmt):
        if isinstance(node, py.Expr) and isinstance(node.value, py.Call) \
                and pyast.same(node.value.func, pyast.attr(pyast.name(OUT), "append")):
            if len(node.value.args) != 1 or node.value.keywords:
                return None
            appended.append(node.value.args[0])
    uses = pyast.uses([stmt], OUT)
    if uses != len(appended):
        return None  # (`out` named otherwise, or in a code appended)
    cases = set()
    for code in appended:
        case = _case_of(code, value)
        if case is None:
            return None
        cases.add(case)
    return frozenset(cases)


def _case_of(code: py.expr, value: Callable[[py.expr], object]) -> Optional[int]:
    """The case a code names: `(CASE, ...)`, or `ROW[to] or h_make_code(TABLE,
    CASE, ...)` where ROW is `TABLE[frm]` or the constant of a row of TABLE
    (patterns.CodeTables: make_code fills TABLE's rows with codes of CASE)."""
    if isinstance(code, py.Tuple):
        return _whole_number(code.elts[0]) if code.elts else None
    if isinstance(code, py.Call) and pyast.is_name(code.func, _CODE_MAKER) and len(code.args) == 4:
        return _whole_number(code.args[1])
    if not (isinstance(code, py.BoolOp) and isinstance(code.op, py.Or) and len(code.values) == 2
            and isinstance(code.values[0], py.Subscript) and isinstance(code.values[1], py.Call)):
        return None
    made = code.values[1]
    if not (pyast.is_name(made.func, _CODE_MAKER) and len(made.args) == 4 and isinstance(made.args[0], py.Name)):
        return None
    row = code.values[0].value
    table = value(made.args[0])
    if not isinstance(table, list):
        return None
    if isinstance(row, py.Subscript) and pyast.same(row.value, made.args[0]):
        return _whole_number(made.args[1])
    row_value = value(row)
    if row_value is None or not any(row_value is r for r in table):
        return None
    return _whole_number(made.args[1])


def _whole_number(node: py.expr) -> Optional[int]:
    return node.value if isinstance(node, py.Constant) and type(node.value) is int else None
