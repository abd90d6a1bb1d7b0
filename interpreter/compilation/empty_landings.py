"""A drop's loop over the empty sites of a fixed set, its other tests worked out
as one mask when compiling: a pass over the generated functions.

A drop onto empty sites (`drop X from POOL on SITES where to not in R[player]`)
is listed as

    frm = -1
    for to in K:                        K: a constant tuple of sites, ascending
        tg = b[to]
        if tg is None:
            if not T[to]:               (any tests of constants, `to` and `p`)
                out.append(ROW[to] or h_make_code(TABLE, CASE, frm, to))

— a turn of the loop at every site of K, though whether a landing passes the
tests after the first is known for each player when compiling, and the empty
sites are the same for every drop of the listing. Where the loop is that (the
tests read constants, the landing and the player `p` alone, or locals given one
such value once in the function; the code appended made of the landing and
constants; `b` and `o` the position's board and lists), it becomes

    h_codes_at(out, CODES, PASSING & (E if E >= 0 else (E := h_empty_flags(ONES, o))))

PASSING the landings of K whose tests hold (for each player: a table by `p`
where the tests read it), CODES the code of each site (None where K has none),
and E the empty sites, made once a listing by the first such drop and read by
the others: all of them masks of one byte a site (the site's byte 1 where it
is in), so that the sites chosen are the bytes of their AND and the codes are
picked by `compress` (runtime/helpers.codes_at) — the same codes in the same
order (K ascending: the bytes' order). A list of the landings themselves
(`t.append(to)`, a drop's sites kept whole for the listing, per_listing.py) is
made alike from a table of the sites; where such a list is walked by one loop
alone, appending a code at each empty landing, the list and the walk are one
call as above (`_folded_block`). A local the tests read (`t = K[p]`) and read
nowhere else is left out.

E stays right only while nothing changes the board: every statement of the
function before the last loop rewritten must leave the board and the lists of
pieces as they were (unblocked_drops._keeps_board, the registers read at the
top aside). Not where the loop stands in another loop, nor where the loop's
variables may be read after it before they are given a value again (the loop
leaves them at its last landing; the call does not).
"""
from __future__ import annotations

import ast as py
from typing import Any, Optional

from . import pyast
from .source import Source
from .tabulate import worked_out
from .unblocked_drops import OUT, _codes, _keeps_board, _may_read, _position_read

# (off: every loop left as it is — the tests compare the two)
ENABLED = True
HELPER = "h_codes_at"
# (off: a list of landings kept for the listing and walked once is left as it is — the tests compare the two)
KEPT_FOLDED = True
EMPTY_HELPER = "h_empty_flags"
# (builtins that change nothing)
_NUMBERS_BUILTINS = frozenset({"range", "len", "min", "max", "abs"})
# (the registers a generated function reads from the position at its top)
_REGISTERS = frozenset({"b", "o", "v", "p", "q"})


def landings_masked(function: py.FunctionDef, src: Source, players: int, sites: int) -> py.FunctionDef:
    """`function` with each loop of the module docstring's shape written as one
    call, or `function` itself where there is none."""
    if not ENABLED or not _position_read(function) or not _player_fixed(function):
        return function
    found: dict[int, py.stmt] = {}
    state = _Pass(src, players, sites, _given_once(function))
    _look_in(function.body, [], state, found)
    if not found or state.memo is None or not _board_kept_before(function, found):
        return function
    memo = state.memo
    done = pyast.replace_nodes(function, lambda node: found.get(id(node)))
    assert isinstance(done, py.FunctionDef)
    # (a local the tests read, `t = K[p]`, read nowhere now: its assignment goes)
    unread = {name for name in state.read if pyast.uses([done], name) == 1
              and not any(isinstance(part, (py.Call, py.NamedExpr)) for part in pyast.walk(state.given[name]))}
    kept = pyast.without(done.body, lambda stmt: isinstance(stmt, py.Assign) and len(stmt.targets) == 1
                         and isinstance(stmt.targets[0], py.Name) and stmt.targets[0].id in unread)
    if KEPT_FOLDED:
        whole = py.FunctionDef(name=done.name, args=done.args, body=kept, decorator_list=[], returns=None,
                               type_comment=None, lineno=0, col_offset=0)
        kept = _folded_block(kept, [], whole, src)
        # (a kept list's `L = None` at the top, L read nowhere now)
        folded = py.FunctionDef(name=done.name, args=done.args, body=kept, decorator_list=[], returns=None,
                                type_comment=None, lineno=0, col_offset=0)
        kept = [stmt for stmt in kept if not (
            isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name)
            and pyast.same(stmt.value, pyast.none()) and stmt.targets[0].id not in _parameters(whole)
            and pyast.uses([folded], stmt.targets[0].id) == 1 and pyast.uses([whole], stmt.targets[0].id) == 4)]
    body = [pyast.assign(pyast.name(memo), pyast.num(-1)), *kept]
    return py.FunctionDef(name=done.name, args=done.args, body=body, decorator_list=[], returns=None,
                          type_comment=None, lineno=0, col_offset=0)


class _Pass:
    def __init__(self, src: Source, players: int, sites: int, given: dict[str, py.expr]):
        self.src = src
        self.players = players
        self.sites = sites
        self.given = given
        self.memo: Optional[str] = None
        # (the locals the tests of the loops rewritten read)
        self.read: set[str] = set()

    def memo_name(self) -> str:
        """The local keeping the empty sites (named once a loop is rewritten: a
        function with none takes no name)."""
        if self.memo is None:
            self.memo = self.src.fresh("l")
        return self.memo


def _player_fixed(function: py.FunctionDef) -> bool:
    """Whether `p` is the player to move throughout `function` (given once, at its
    top, `s.player`) or never named."""
    counts = pyast.store_counts(function)
    if "p" not in counts:
        return not any(isinstance(node, py.Name) and node.id == "p" for node in pyast.walk(function))
    return counts["p"] == 1 and any(
        isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], "p")
        and pyast.same(stmt.value, pyast.attr(pyast.name("s"), "player")) for stmt in function.body)


def _given_once(function: py.FunctionDef) -> dict[str, py.expr]:
    """The locals `function` gives a value once, by a plain assignment: that value."""
    counts = pyast.store_counts(function)
    given: dict[str, py.expr] = {}
    for node in pyast.walk(function):
        if isinstance(node, py.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], py.Name) \
                and counts.get(node.targets[0].id) == 1:
            given[node.targets[0].id] = node.value
    return given


def _look_in(block: list[py.stmt], after: list[list[py.stmt]], state: _Pass, found: dict[int, py.stmt]) -> None:
    """Find the loops to rewrite in `block` (not inside a loop); `after`: the
    statements that run after the block, innermost first."""
    for n, stmt in enumerate(block):
        rest = [block[n + 1:]] + after
        if isinstance(stmt, py.For):
            call = _rewritten(stmt, block[:n], rest, state)
            if call is not None:
                found[id(stmt)] = call
        elif isinstance(stmt, py.If):
            _look_in(stmt.body, rest, state, found)
            _look_in(stmt.orelse, rest, state, found)


def _rewritten(loop: py.For, before: list[py.stmt], after: list[list[py.stmt]], state: _Pass) -> Optional[py.stmt]:
    """The call listing `loop`'s landings, or None where it is not a loop of the
    module docstring's shape."""
    if not isinstance(loop.target, py.Name) or loop.orelse:
        return None
    landing = loop.target.id
    src, sites = state.src, state.sites
    landings = src.value(loop.iter)
    if not (isinstance(landings, tuple) and landings and all(type(site) is int and 0 <= site < sites
                                                             for site in landings)
            and list(landings) == sorted(set(landings))):
        return None
    shape = _shape(loop.body, landing)
    if shape is None:
        return None
    tests, target, code, alias = shape
    if any(_may_read(after, name) for name in (landing, alias) if name is not None):
        return None
    passing = _passing(tests, landing, landings, state)
    if passing is None:
        return None
    if pyast.is_name(code, landing):
        made: Optional[tuple[Any, ...]] = landings
    else:
        made = _codes(code, landing, landings, before, src.value)  # (last: it fills the code tables)
    if made is None:
        return None
    by_site: list[Any] = [None] * sites
    for site, value in zip(landings, made):
        by_site[site] = value
    memo = state.memo_name()
    empty = pyast.ifexp(pyast.name(memo), pyast.compare(pyast.name(memo), ">=", pyast.num(0)),
                        pyast.walrus(memo, pyast.helper(EMPTY_HELPER, src.const(bytes([1]) * sites),
                                                        pyast.name("o"))))
    chosen = pyast.binop(passing, "&", empty)
    return pyast.expr_stmt(pyast.helper(HELPER, pyast.name(target), src.const(tuple(by_site)), chosen))


def _shape(body: list[py.stmt], landing: str) -> Optional[tuple[list[py.expr], str, py.expr, Optional[str]]]:
    """(the tests after the landing's emptiness, the list appended to, the value
    appended, the name given the landing's piece) of `[N = b[to]] if N is None:
    [if T1: [if T2: ...]] L.append(VALUE)`, else None."""
    alias: Optional[str] = None
    at: py.expr = pyast.sub(pyast.name("b"), pyast.name(landing))
    if len(body) == 2 and isinstance(body[0], py.Assign) and len(body[0].targets) == 1 \
            and isinstance(body[0].targets[0], py.Name) and pyast.same(body[0].value, at):
        alias = body[0].targets[0].id
        at = pyast.name(alias)
        body = body[1:]
    if not (len(body) == 1 and isinstance(body[0], py.If) and not body[0].orelse
            and pyast.same(body[0].test, pyast.is_none(at))):
        return None
    body = body[0].body
    tests: list[py.expr] = []
    while len(body) == 1 and isinstance(body[0], py.If) and not body[0].orelse:
        tests.append(body[0].test)
        body = body[0].body
    if len(body) != 1 or not (isinstance(body[0], py.Expr) and isinstance(body[0].value, py.Call)):
        return None
    call = body[0].value
    func = call.func
    if not (isinstance(func, py.Attribute) and func.attr == "append" and isinstance(func.value, py.Name)
            and len(call.args) == 1 and not call.keywords):
        return None
    target = func.value.id
    if alias is not None and any(pyast.uses([part], alias) for part in (*tests, call)):
        return None
    return tests, target, call.args[0], alias


def _passing(tests: list[py.expr], landing: str, landings: tuple[int, ...], state: _Pass) -> Optional[py.expr]:
    """The mask (a byte a site) of the landings whose tests hold, worked out for
    each player where they read `p`: a constant, or a table read by `p`; None
    where a test reads anything but constants, the landing, `p` and locals given
    once such a value."""
    resolved: list[py.expr] = []
    read: set[str] = set()
    for test in tests:
        whole = _resolved(test, state.given, set(), read)
        if whole is None:
            return None
        resolved.append(whole)
    by_player = any(isinstance(node, py.Name) and node.id == "p" for test in resolved for node in pyast.walk(test))
    masks = []
    for player in range(state.players if by_player else 1):
        mask = 0
        for site in landings:
            try:
                holds = all(worked_out(state.src, test, {landing: site, "p": player}) for test in resolved)
            except ValueError:
                return None
            if holds:
                mask |= 1 << 8 * site
        masks.append(mask)
    state.read |= read
    if not by_player:
        return state.src.const(masks[0])
    return pyast.sub(state.src.const(tuple(masks)), pyast.name("p"))


def _resolved(node: py.expr, given: dict[str, py.expr], seen: set[str], read: set[str]) -> Optional[py.expr]:
    """`node` with each local given once written as its value (`t = K[p]`, noted in
    `read`), or None where a name is given more than once or loops."""
    names = {part.id for part in pyast.walk(node) if isinstance(part, py.Name) and part.id in given}
    names -= _REGISTERS
    if not names:
        return node
    if names & seen:
        return None
    values: dict[str, py.expr] = {}
    for name in names:
        value = _resolved(given[name], given, seen | {name}, read)
        if value is None:
            return None
        values[name] = value
    read |= names
    replaced = pyast.replace_nodes(node, lambda part: values.get(part.id) if isinstance(part, py.Name)
                                   and isinstance(part.ctx, py.Load) else None)
    assert isinstance(replaced, py.expr)
    return replaced


def _board_kept_before(function: py.FunctionDef, found: dict[int, py.stmt]) -> bool:
    """Whether every statement before the last loop rewritten (in the function's
    order; the loops stand in no loop) leaves the board and lists as they were:
    the memo of the empty sites stays right."""
    fresh = _fresh_lists(function)
    return _kept_until(function.body, found, fresh, top=True) is not None


def _kept_until(block: list[py.stmt], found: dict[int, py.stmt], fresh: frozenset[str],
                top: bool = False) -> Optional[bool]:
    """True where `block` holds a loop rewritten and all before the last of them keeps
    the board; False where it holds none; None where something before one may change it."""
    last = -1
    for n, stmt in enumerate(block):
        if id(stmt) in found or any(id(node) in found for node in pyast.walk(stmt)):
            last = n
    if last < 0:
        return False
    for n, stmt in enumerate(block[:last + 1]):
        if id(stmt) in found:
            continue
        if top and _register_read(stmt):
            continue
        if n == last:
            if not isinstance(stmt, py.If):
                return None
            for part in (stmt.body, stmt.orelse):
                if _kept_until(part, found, fresh) is None:
                    return None
            if not _keeps([py.Expr(value=stmt.test)], fresh):
                return None
        elif not _keeps([stmt], fresh):
            return None
    return True


def _keeps(stmts: list[py.stmt], fresh: frozenset[str]) -> bool:
    """unblocked_drops._keeps_board, the builtins that give numbers (`range(4)`: a
    promotion's choices) allowed besides."""
    plain = pyast.replace_in(stmts, lambda node: pyast.num(0) if isinstance(node, py.Call)
                             and isinstance(node.func, py.Name) and node.func.id in _NUMBERS_BUILTINS
                             and not any(isinstance(part, (py.Call, py.NamedExpr)) for arg in node.args
                                         for part in pyast.walk(arg)) else None)
    return _keeps_board(plain, fresh)


def _register_read(stmt: py.stmt) -> bool:
    """`X = s.ATTR` or `q = 1 - p`: a register given at a function's top."""
    if not (isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name)
            and stmt.targets[0].id in _REGISTERS):
        return False
    value = stmt.value
    if isinstance(value, py.Attribute) and pyast.is_name(value.value, "s") and isinstance(value.ctx, py.Load):
        return True
    return not any(isinstance(node, py.Name) and node.id == "s" for node in pyast.walk(value)) \
        and not any(isinstance(node, py.Call) for node in pyast.walk(value))


def _fresh_lists(function: py.FunctionDef) -> frozenset[str]:
    from .unblocked_drops import _fresh_lists as fresh
    return fresh(function)


def _parameters(function: py.FunctionDef) -> frozenset[str]:
    """The function's parameters."""
    return frozenset(arg.arg for arg in function.args.args)


def _folded_block(block: list[py.stmt], after: list[list[py.stmt]], function: py.FunctionDef,
                  src: Source) -> list[py.stmt]:
    """`block` with each list of landings kept whole for the listing (per_listing.py)
    that one loop alone walks, appending a code where the landing is empty,

        if L is None:
            T = []
            h_codes_at(T, SITES, MASK)
            L = T
        for to in L:
            [tg = b[to]]
            if tg is None:
                out.append(CODE)

    written as `h_codes_at(out, CODES, MASK)`: the landings the list holds are those
    of MASK, empty when it was made, in the order of the sites, and nothing changes
    the board in between (the memo of the empty sites stands for both)."""
    new: list[py.stmt] = []
    n = 0
    while n < len(block):
        stmt = block[n]
        if n + 1 < len(block):
            call = _fold(stmt, block[n + 1], new, [block[n + 2:]] + after, function, src)
            if call is not None:
                new.append(call)
                n += 2
                continue
        if isinstance(stmt, py.If):
            rest = [block[n + 1:]] + after
            stmt = pyast.with_blocks(stmt, lambda inner: _folded_block(inner, rest, function, src))
        new.append(stmt)
        n += 1
    return new


def _fold(made: py.stmt, walk: py.stmt, before: list[py.stmt], after: list[list[py.stmt]],
          function: py.FunctionDef, src: Source) -> Optional[py.stmt]:
    """The call standing for `made` and `walk` (`_folded_block`), or None."""
    if not (isinstance(made, py.If) and not made.orelse and len(made.body) == 3
            and isinstance(made.test, py.Compare) and isinstance(made.test.left, py.Name)
            and pyast.same(made.test, pyast.is_none(pyast.name(made.test.left.id)))):
        return None
    kept = made.test.left.id
    start, call, store = made.body
    if not (isinstance(start, py.Assign) and len(start.targets) == 1 and isinstance(start.targets[0], py.Name)
            and isinstance(start.value, py.List) and not start.value.elts):
        return None
    listed = start.targets[0].id
    if not (isinstance(call, py.Expr) and isinstance(call.value, py.Call) and pyast.is_name(call.value.func, HELPER)
            and len(call.value.args) == 3 and pyast.is_name(call.value.args[0], listed)
            and pyast.same(store, pyast.assign(pyast.name(kept), pyast.name(listed)))):
        return None
    if not (isinstance(walk, py.For) and not walk.orelse and pyast.is_name(walk.iter, kept)
            and isinstance(walk.target, py.Name)):
        return None
    # (the list named nowhere else: given None at the top, asked, made and walked here alone)
    if pyast.uses([function], kept) != 4 or pyast.uses([function], listed) != 3:
        return None
    sites = src.value(call.value.args[1])
    if not isinstance(sites, tuple) or any(site is not None and site != at for at, site in enumerate(sites)):
        return None
    landing = walk.target.id
    shape = _shape(walk.body, landing)
    if shape is None or shape[0] or shape[1] != OUT:
        return None
    _, _, code, alias = shape
    if any(_may_read(after, name) for name in (landing, alias) if name is not None):
        return None
    landings = tuple(site for site in sites if site is not None)
    made_codes = _codes(code, landing, landings, before, src.value)
    if made_codes is None:
        return None
    by_site: list[Any] = [None] * len(sites)
    for site, value in zip(landings, made_codes):
        by_site[site] = value
    return pyast.expr_stmt(pyast.helper(HELPER, pyast.name(OUT), src.const(tuple(by_site)), call.value.args[2]))
