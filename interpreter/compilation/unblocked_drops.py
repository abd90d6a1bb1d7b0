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

A loop of the same tests around more than an append — a drop whose `where` asks
more of the landing than empty sites around it (`where ... and a path stays
open`), in a lister or in perft's counting one — keeps its body but walks only
the landings whose tests hold:

    for to in h_unblocked_sites(o, BLOCKING, K):
        REST

(`loops_unblocked`): the same landings in the same order, found from the pieces
as above. Only where REST cannot change the board (it names neither `s` nor a
store into `b` or `o`, and calls only the helpers of `READ_ONLY_HELPERS` and a
local list's `append`/`pop`): the tests are then the same at every turn of the
loop as before it. REST may not read the landing's piece given a name by the
tests (it is none there), and the loop's variables are not read after it.
Where REST counts (`T = not (M & K[to]); if not T: CHECK; if T: out += 1`, M
the same at every landing: perft's counting lister), the landings M does not
meet are counted at once and CHECK asked at the others (`_screened_count`).
"""
from __future__ import annotations

import ast as py
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from ..runtime.helpers import make_code
from . import pyast
from .counted_masks import _by_bytes

OUT = "out"
HELPER = "h_listed_unblocked"
_CODE_MAKER = "h_make_code"
# (off: every loop left as it is — the tests compare the two)
ENABLED = True
# (off: two calls one after the other each walk the pieces — the tests compare the two)
PAIRS_JOINED = True
PAIR_HELPER = "h_listed_unblocked_pair"
# (off: a drop's loop doing more than appending walks every landing — the tests compare the two)
WALKS_ENABLED = True
WALK_HELPER = "h_unblocked_sites"
# (helpers that write no board nor list of pieces: a loop's body calling only these keeps the board;
# h_keep_path writes a search's own table of kept paths, no part of the position)
READ_ONLY_HELPERS = frozenset({"h_first", "h_kind_mask", "h_sites_mask", "h_counted_over", "h_hits", "h_marks",
                               "h_keep_path", "h_make_code", "h_bits_added", "len"})
_LOCAL_LIST_METHODS = frozenset({"append", "pop"})
# (off: a counting loop's screen asked landing by landing — the tests compare the two)
SCREENS_COUNTED = True
SCREEN_HELPER = "h_screened_landings"
UNBLOCKED_BITS_HELPER = "h_unblocked_bits"
# (a screen's table whose entries reach past this many bits is asked landing by landing)
MAX_SCREEN_BITS = 4096
# (helpers whose answer depends on their arguments alone)
_PURE_HELPERS = READ_ONLY_HELPERS - {"h_keep_path", "h_marks", "h_make_code"}
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


def loops_unblocked(function: py.FunctionDef, const: Callable[[object], py.Name],
                    value: Callable[[py.expr], object], sites: int,
                    fresh_name: Callable[[str], str]) -> py.FunctionDef:
    """`function` with each drop loop whose tests are the module docstring's but
    whose body does more than append walking only the landings its tests let
    through (the docstring's last paragraph), or `function` itself."""
    if not WALKS_ENABLED or not _board_and_lists_read(function):
        return function
    found: dict[int, py.stmt] = {}
    fresh = _fresh_lists(function)
    _look_for_walks(function.body, [], _Module(const, value, sites, fresh_name, _memos(function)), fresh, found)
    if not found:
        return function
    done = pyast.replace_nodes(function, lambda node: found.get(id(node)))
    assert isinstance(done, py.FunctionDef)
    return done


def _board_and_lists_read(function: py.FunctionDef) -> bool:
    """Whether `b` and `o` are the position's board and lists throughout `function`."""
    counts = pyast.store_counts(function)
    tops = {stmt.targets[0].id: stmt.value for stmt in function.body
            if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name)}
    return (counts.get("b") == 1 and counts.get("o") == 1 and "s" not in counts
            and "s" in [a.arg for a in function.args.args]
            and pyast.same(tops.get("b"), pyast.attr(pyast.name("s"), "board"))
            and pyast.same(tops.get("o"), pyast.attr(pyast.name("s"), "occ")))


def _fresh_lists(function: py.FunctionDef) -> frozenset[str]:
    """The locals of `function` only ever given a new list (`[]` or `h_marks(N)`):
    none of them can be the board, a list of pieces or an element of either."""
    given: dict[str, bool] = {}
    for node in pyast.walk(function):
        targets: list[py.expr] = []
        if isinstance(node, py.Assign):
            targets = node.targets
            made = isinstance(node.value, py.List) and not node.value.elts or (
                isinstance(node.value, py.Call) and pyast.is_name(node.value.func, "h_marks"))
        elif isinstance(node, (py.AugAssign, py.AnnAssign, py.NamedExpr, py.For, py.comprehension)):
            targets, made = [node.target], False
        for target in targets:
            for name in pyast.walk(target):
                if isinstance(name, py.Name) and isinstance(name.ctx, py.Store):
                    given[name.id] = given.get(name.id, True) and made and name is target
    return frozenset(name for name, fresh in given.items() if fresh)


@dataclass(frozen=True)
class _Module:
    const: Callable[[object], py.Name]
    value: Callable[[py.expr], object]
    sites: int
    fresh_name: Callable[[str], str]
    memos: dict[str, py.expr]


def _look_for_walks(block: list[py.stmt], after: list[list[py.stmt]], module: _Module, fresh: frozenset[str],
                    found: dict[int, py.stmt]) -> None:
    """As `_look_in`, for the loops `loops_unblocked` rewrites."""
    for n, stmt in enumerate(block):
        rest = [block[n + 1:]] + after
        if isinstance(stmt, py.For):
            walk = _walk_rewritten(stmt, rest, module, fresh)
            if walk is not None:
                found[id(stmt)] = walk
        elif isinstance(stmt, py.If):
            _look_for_walks(stmt.body, rest, module, fresh, found)
            _look_for_walks(stmt.orelse, rest, module, fresh, found)


def _walk_rewritten(loop: py.For, after: list[list[py.stmt]], module: _Module,
                    fresh: frozenset[str]) -> Optional[py.stmt]:
    """`loop` walking only the landings its tests let through, or None."""
    if not isinstance(loop.target, py.Name) or loop.orelse:
        return None
    landing = loop.target.id
    landings = module.value(loop.iter)
    sites = module.sites
    if not (isinstance(landings, tuple) and landings
            and all(type(site) is int and 0 <= site < sites for site in landings)):
        return None
    shape = _tests_and_rest(loop.body, landing)
    if shape is None:
        return None
    tables, rest, aliases = shape
    if any(pyast.uses(rest, name) for name in aliases) or not _keeps_board(rest, fresh):
        return None
    if any(_may_read(after, name) for name in (landing, *aliases)):
        return None
    reads = _sites_read(tables, landings, module.value, sites)
    if reads is None or any(len(read) < _LEAST_SITES_READ for read in reads):
        return None
    blocking = [0] * sites
    for index, read in enumerate(reads):
        for site in read:
            blocking[site] |= 1 << index
    blocking_table = module.const(tuple(blocking))
    counted = _screened_count(rest, landing, landings, blocking_table, after, module) if SCREENS_COUNTED else None
    walked = pyast.helper(WALK_HELPER, pyast.name("o"), blocking_table, loop.iter)
    return counted or pyast.for_(pyast.name(landing), walked, rest)


def _screened_count(rest: list[py.stmt], landing: str, landings: tuple[int, ...], blocking: py.Name,
                    after: list[list[py.stmt]], module: _Module) -> Optional[py.stmt]:
    """For a counting body `T = not (M & K[to]); if not T: CHECK; if T: out += 1`
    (M the same at every landing): the landings whose entry of K meets M
    checked, the others counted at once —

        if (W := h_unblocked_bits(o, BLOCKING, EVERY)):
            m = M
            S = h_screened_landings(W, h_hits(INVERSE, ROWS, WITHIN, m), LANDINGS)
            out += W.bit_count() - len(S)
            for to in S:
                T = False
                CHECK
                if T:
                    out += 1

    W the landings' bits (by index) no piece rules out, INVERSE[bit] the bits of
    the landings whose entry of K holds `bit` (h_hits: the landings M meets):
    the same count, CHECK run at the same landings in the same order, M first
    worked out where the loop first worked it out (its first landing). None
    where the body is not that, or an entry is negative or wider than
    MAX_SCREEN_BITS."""
    if len(rest) != 3:
        return None
    first, check, count = rest
    if not (isinstance(first, py.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], py.Name)):
        return None
    flag = first.targets[0].id
    tested = first.value
    if not (isinstance(tested, py.UnaryOp) and isinstance(tested.op, py.Not) and isinstance(tested.operand, py.BinOp)
            and isinstance(tested.operand.op, py.BitAnd) and isinstance(tested.operand.right, py.Subscript)
            and pyast.is_name(tested.operand.right.slice, landing)):
        return None
    screen, entries = tested.operand.left, module.value(tested.operand.right.value)
    if not (isinstance(entries, tuple) and len(entries) > max(landings)
            and all(type(entries[site]) is int and 0 <= entries[site] < 1 << MAX_SCREEN_BITS for site in landings)):
        return None
    if not (isinstance(check, py.If) and not check.orelse and isinstance(check.test, py.UnaryOp)
            and isinstance(check.test.op, py.Not) and pyast.is_name(check.test.operand, flag)):
        return None
    if not (isinstance(count, py.If) and not count.orelse and pyast.is_name(count.test, flag) and len(count.body) == 1
            and pyast.same(count.body[0], pyast.augment(pyast.name(OUT), "+", pyast.num(1)))):
        return None
    if pyast.uses(check.body, OUT) or pyast.uses([screen], OUT) or _may_read(after, flag) \
            or not _same_at_every_landing(screen, check.body, landing, flag, module.memos):
        return None
    inverse = [0] * max(entries[site] for site in landings).bit_length()
    within = 0
    for index, site in enumerate(landings):
        within |= entries[site]
        entry = entries[site]
        while entry:
            low = entry & -entry
            inverse[low.bit_length() - 1] |= 1 << index
            entry ^= low
    const = module.const
    walk, mask, screened = (pyast.name(module.fresh_name("t")) for _ in range(3))
    hit = pyast.helper("h_hits", const(tuple(inverse)), const(_by_bytes(inverse)), const(within),
                       pyast.name(mask.id))
    unscreened = pyast.binop(pyast.method(pyast.name(walk.id), "bit_count"), "-",
                             pyast.call(pyast.name("len"), pyast.name(screened.id)))
    return pyast.if_(pyast.walrus(walk.id, pyast.helper(UNBLOCKED_BITS_HELPER, pyast.name("o"), blocking,
                                                        const((1 << len(landings)) - 1))), [
        pyast.assign(mask, screen),
        pyast.assign(screened, pyast.helper(SCREEN_HELPER, pyast.name(walk.id), hit, const(landings))),
        pyast.augment(pyast.name(OUT), "+", unscreened),
        pyast.for_(pyast.name(landing), pyast.name(screened.id),
                   [pyast.assign(pyast.name(flag), pyast.false()), *check.body, count]),
    ])


def _same_at_every_landing(screen: py.expr, check: list[py.stmt], landing: str, flag: str,
                           memos: dict[str, py.expr]) -> bool:
    """Whether `screen` has one value at every landing: it reads neither the landing
    nor the flag, calls only helpers whose answer depends on their arguments alone,
    and reads a name the check gives a value only as a memo (`N if N >= 0 else
    (N := E)`, every value N is ever given -1 or that E, E reading nothing the
    check gives a value): N is E's value once asked."""
    given_by_check = set(pyast.stored_names(pyast.module(check)))
    guarded: set[int] = set()
    for node in pyast.walk(screen):
        if isinstance(node, py.Call) and not (isinstance(node.func, py.Name) and node.func.id in _PURE_HELPERS):
            return False
        if isinstance(node, (py.Lambda, py.ListComp, py.SetComp, py.DictComp, py.GeneratorExp, py.Await)):
            return False
        memo = _memo_read(node)
        if memo is not None:
            name, made = memo
            if name in given_by_check and not (name in memos and pyast.same(made, memos[name])
                                               and not pyast.names_any(made, given_by_check)):
                return False
            guarded.update(id(part) for part in pyast.walk(node) if isinstance(part, py.Name) and part.id == name)
    for node in pyast.walk(screen):
        if isinstance(node, py.Name) and id(node) not in guarded \
                and (node.id in (landing, flag) or node.id in given_by_check):
            return False
    return True


def _memo_read(node: py.AST) -> Optional[tuple[str, py.expr]]:
    """(N, E) for `N if N >= 0 else (N := E)`, else None."""
    if not (isinstance(node, py.IfExp) and isinstance(node.body, py.Name) and isinstance(node.orelse, py.NamedExpr)
            and node.orelse.target.id == node.body.id):
        return None
    test = node.test
    if not (isinstance(test, py.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], py.GtE)
            and pyast.is_name(test.left, node.body.id) and pyast.same(test.comparators[0], pyast.num(0))):
        return None
    return node.body.id, node.orelse.value


def _memos(function: py.FunctionDef) -> dict[str, py.expr]:
    """The names `function` gives only -1 (`N = -1`) and one same E (`N := E`), by
    name: E."""
    made: dict[str, Optional[py.expr]] = {}
    for node in pyast.walk(function):
        if isinstance(node, py.NamedExpr):
            name, value = node.target.id, node.value
            known = made.get(name, value)
            made[name] = value if known is not None and pyast.same(known, value) else None
        elif isinstance(node, (py.Assign, py.AugAssign, py.AnnAssign, py.For, py.comprehension)):
            targets = node.targets if isinstance(node, py.Assign) else [node.target]
            unset = isinstance(node, py.Assign) and len(node.targets) == 1 \
                and pyast.same(node.value, pyast.num(-1))
            for target in targets:
                for part in pyast.walk(target):
                    if isinstance(part, py.Name) and isinstance(part.ctx, py.Store) and not (unset and part is target):
                        made[part.id] = None
    return {name: value for name, value in made.items() if value is not None}


def _tests_and_rest(body: list[py.stmt], landing: str) -> Optional[tuple[list[Optional[py.expr]], list[py.stmt],
                                                                         list[str]]]:
    """The sites a loop's body tests empty (as `_tests_and_code`), the statements
    run where all are, and the names it gives the landing's piece; None where
    the body does not begin with such a test."""
    tables: list[Optional[py.expr]] = []
    aliases: list[str] = []
    while True:
        if len(body) == 2 and isinstance(body[0], py.Assign) and len(body[0].targets) == 1 \
                and isinstance(body[0].targets[0], py.Name) and _board_at(body[0].value, landing) is None \
                and isinstance(body[0].value, py.Subscript):
            aliases.append(body[0].targets[0].id)
            body = body[1:]
        tested = _empty_tests(body[0], landing, aliases) if len(body) == 1 else None
        if tested is None:
            break
        tables += tested
        body = body[0].body  # type: ignore[attr-defined]  # (an If: _empty_tests)
    if not tables or not body:
        return None
    return tables, body, aliases


def _empty_tests(stmt: py.stmt, landing: str, aliases: list[str]) -> Optional[list[Optional[py.expr]]]:
    """For `if X1 is None and X2 is None ...:` without `else`, each Xi the landing's
    piece or `b[T[to]]`: the tables read (None for the landing); else None."""
    if not isinstance(stmt, py.If) or stmt.orelse:
        return None
    conjuncts = stmt.test.values if isinstance(stmt.test, py.BoolOp) and isinstance(stmt.test.op, py.And) \
        else [stmt.test]
    tables: list[Optional[py.expr]] = []
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
    return tables


def _keeps_board(stmts: list[py.stmt], fresh: frozenset[str]) -> bool:
    """Whether `stmts` surely leave the board and the lists of pieces as they were:
    they name no `s`, write elements of the `fresh` lists alone (and `out`), and
    call only READ_ONLY_HELPERS and `append` or `pop` of those lists."""
    lists = fresh | {OUT}
    for node in pyast.walk_all(stmts):
        if isinstance(node, py.Name) and node.id == "s":
            return False
        if isinstance(node, py.Attribute) and not isinstance(node.ctx, py.Load):
            return False
        if isinstance(node, py.Subscript) and not isinstance(node.ctx, py.Load) \
                and not (isinstance(node.value, py.Name) and node.value.id in fresh):
            return False
        if isinstance(node, py.Call):
            func = node.func
            if isinstance(func, py.Name):
                if func.id not in READ_ONLY_HELPERS:
                    return False
            elif not (isinstance(func, py.Attribute) and func.attr in _LOCAL_LIST_METHODS
                      and isinstance(func.value, py.Name) and func.value.id in lists):
                return False
    return True


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
    shape = _tests_and_rest(body, landing)
    if shape is None:
        return None
    tables, rest, aliases = shape
    if len(rest) != 1:
        return None
    stmt = rest[0]
    if isinstance(stmt, py.Expr) and isinstance(stmt.value, py.Call) and not stmt.value.keywords \
            and pyast.same(stmt.value.func, pyast.attr(pyast.name(OUT), "append")) and len(stmt.value.args) == 1:
        code = stmt.value.args[0]
        if not any(pyast.uses([code], name) for name in aliases) and not pyast.uses([code], OUT):
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
