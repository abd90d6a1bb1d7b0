"""A flood too little blocked to be cut off from its goal is answered without
searching.

`exists(connected(X, C), it in GOAL)`, GOAL a fixed set of sites and the
flood's neighbours a fixed table, is true without a search when X meets C
and the sites where C fails are fewer than the fewest sites that cut some site
off from GOAL. By Menger's theorem, the sites whose removal leaves no path
from a site v (not in GOAL) to GOAL are at least as many as the paths from v
to GOAL that share no site but v: the most such paths, found by a maximum
flow with a capacity of one per site, is v's cut. K, the least cut of any
site not in GOAL, is worked out when the rules are compiled. Where fewer than
K sites fail C, no site meeting C is cut off: the flood from X reaches GOAL
(at once where X is in GOAL itself). K is 0 where some site cannot reach GOAL at
all, and then nothing is answered early.

The sites where C fails are bounded by a bitmask's population: C is `it not
in NAME` (NAME a set with its bitmask, a named group: expr_sets.in_) or a
disjunction with it as one part (`it == n or it not in chain`), so C fails
only at sites of NAME, and `NAME_bits.bit_count() < K` is the test. A ring on a
hexagonal board (a flood around the placed stone's group that does not reach
the rim) needs a group of six stones or more; the test skips the floods of every
smaller group. Nothing here knows of rings: only the board's table of
neighbours and the goal's sites.
"""
from __future__ import annotations

import ast as py
from collections import deque
from typing import Callable, Optional, Sequence

from . import pyast
from .code import Flood
from .goal_search import neighbours_loop
from .source import Source
from .tabulate import worked_out

# The cut is worked out only on boards up to this many sites (a maximum flow per
# site, each of a few searches of the board): larger boards get no early answer.
MAX_SITES = 400

_cuts: dict[tuple[int, frozenset[int]], int] = {}


def blocking_bits(cond: py.expr, var: str, bits: Callable[[], py.expr]) -> Optional[py.expr]:
    """M where `cond` about `var` holds wherever `var` is not in M's bits:
    `cond` is `not (M & BITS[var] != 0)` (BITS the table of each site's bit),
    or an `or` with such a part. M must not read `var`. (`bits` makes the table
    of bits, asked only where such a part is found: it then reads the table.)"""
    parts = cond.values if isinstance(cond, py.BoolOp) and isinstance(cond.op, py.Or) else [cond]
    for part in parts:
        test: Optional[py.expr] = None
        if isinstance(part, py.UnaryOp) and isinstance(part.op, py.Not) and isinstance(part.operand, py.Compare) \
                and isinstance(part.operand.ops[0], py.NotEq):
            test = part.operand
        elif isinstance(part, py.Compare) and isinstance(part.ops[0], py.Eq):
            test = part
        if not (isinstance(test, py.Compare) and len(test.ops) == 1
                and isinstance(test.comparators[0], py.Constant) and test.comparators[0].value == 0):
            continue
        left = test.left
        if not (isinstance(left, py.BinOp) and isinstance(left.op, py.BitAnd)):
            continue
        mask, bit = left.left, left.right
        if not (isinstance(bit, py.Subscript) and pyast.is_name(bit.slice, var) and isinstance(mask, py.Name)
                and mask.id != var and pyast.same(bit.value, bits())):
            continue
        return mask
    return None


def goal_sites(src: Source, cond: py.expr, var: str, n: int) -> Optional[frozenset[int]]:
    """The sites where `cond` (about `var` and constants alone) holds, or None."""
    goal = set()
    for site in range(n):
        try:
            if worked_out(src, cond, {var: site}):
                goal.add(site)
        except ValueError:
            return None
    return frozenset(goal)


def least_cut(neighbours: tuple[tuple[int, ...], ...], goal: frozenset[int]) -> int:
    """K: the fewest sites whose removal leaves some site outside `goal` with no
    path along `neighbours` (a table by site; its last row, "no site", left
    out) to a site of `goal` (goal sites may be removed too). 0 where some
    site has no path at all, or every site is in the goal."""
    n = len(neighbours) - 1
    if not goal or n > MAX_SITES:
        return 0
    key = (hash(neighbours), goal)
    if key in _cuts:
        return _cuts[key]
    others = [v for v in range(n) if v not in goal]
    # (low out-degrees first: they bound the cut soonest, and the rest stop there)
    others.sort(key=lambda v: len(neighbours[v]))
    best = max((len(neighbours[v]) for v in others), default=0)
    graph = _Graph(neighbours, goal)
    for v in others:
        best = min(best, graph.paths(v, best))
        if best == 0:
            break
    _cuts[key] = best
    return best


class _Graph:
    """The sites split in two, node 2s (s's in-half) and 2s + 1 (its out-half),
    with an arc of capacity one from in to out, an arc of capacity one from an
    out-half to each neighbour's in-half, and from each goal site's in-half (it
    has no out-half's arc) to the sink, node 2n; each arc beside its reverse
    (arc i's is i ^ 1) of capacity zero."""

    def __init__(self, neighbours: tuple[tuple[int, ...], ...], goal: frozenset[int]):
        n = len(neighbours) - 1
        self.sink = 2 * n
        self.head: list[int] = []
        self.capacity: list[int] = []
        self.arcs: list[list[int]] = [[] for _ in range(2 * n + 1)]
        for s in range(n):
            if s in goal:
                self._arc(2 * s, self.sink)
            else:
                self._arc(2 * s, 2 * s + 1)
            for w in neighbours[s]:
                if 0 <= w < n:
                    self._arc(2 * s + 1, 2 * w)

    def _arc(self, a: int, b: int) -> None:
        self.arcs[a].append(len(self.head))
        self.head.append(b)
        self.capacity.append(1)
        self.arcs[b].append(len(self.head))
        self.head.append(a)
        self.capacity.append(0)

    def paths(self, v: int, enough: int) -> int:
        """The most paths from `v` to the goal sharing no site but `v`, counted
        up to `enough` (augmenting paths, breadth first)."""
        capacity = list(self.capacity)
        head, arcs, sink = self.head, self.arcs, self.sink
        start = 2 * v + 1
        found = 0
        while found < enough:
            came: dict[int, int] = {start: -1}  # (node: the arc it was reached by)
            queue = deque([start])
            while queue and sink not in came:
                node = queue.popleft()
                for arc in arcs[node]:
                    nxt = head[arc]
                    if capacity[arc] > 0 and nxt not in came and nxt != 2 * v:
                        came[nxt] = arc
                        queue.append(nxt)
            if sink not in came:
                break
            node = sink
            while node != start:
                arc = came[node]
                capacity[arc] -= 1
                capacity[arc ^ 1] += 1
                node = head[arc ^ 1]
            found += 1
        return found


def early_answer(src: Source, flood: Flood, var: str, lines: Sequence[py.stmt], cond: py.expr,
                 bits: Callable[[], py.expr]) -> Optional[py.expr]:
    """The test under which `exists` over `flood` (a flood from one site that
    keeps its path, `flood.witness`) with the condition `cond` of `var` (after
    `lines`) is true without a search, or None: the start meets the flood's
    condition and fewer sites than the least cut fail it. Where the start
    is a name as written (the flood's first statement copies it), the
    condition is asked of that name, and may be seen to hold (`it == n` of n)."""
    witness = flood.witness
    if witness is None or lines or witness.lines:
        return None
    blocking = blocking_bits(witness.cond, witness.site, bits)
    expand = neighbours_loop(flood)
    if blocking is None or not (isinstance(expand, py.For) and isinstance(expand.iter, py.Subscript)
                                and isinstance(expand.iter.value, py.Name)
                                and src.is_const_name(expand.iter.value.id)):
        return None
    neighbours = src.namespace[expand.iter.value.id]
    if not (isinstance(neighbours, tuple) and all(isinstance(row, tuple) for row in neighbours)):
        return None
    goal = goal_sites(src, cond, var, len(neighbours) - 1)
    if goal is None:
        return None
    cut = least_cut(neighbours, goal)
    if cut == 0:
        return None
    fewer = pyast.compare(pyast.method(blocking, "bit_count"), "<", pyast.num(cut))
    first = flood.seeds[0] if flood.seeds else None
    start = first.value if isinstance(first, py.Assign) and len(first.targets) == 1 \
        and pyast.is_name(first.targets[0], witness.start.id) else None
    at = start if isinstance(start, py.Name) else witness.start
    met = pyast.replace_nodes(witness.cond, pyast.renaming(witness.site, at.id), {})
    assert isinstance(met, py.expr)
    if _holds(met):  # (`it == n or ...` asked of n itself)
        return pyast.and_(fewer, pyast.compare(at, "!=", pyast.num(-1)))
    return pyast.and_(fewer, pyast.compare(at, "!=", pyast.num(-1)), met)


def _holds(cond: py.expr) -> bool:
    """Whether `cond` is sure to hold: a name equal to itself, or an `or` with
    such a part."""
    parts = cond.values if isinstance(cond, py.BoolOp) and isinstance(cond.op, py.Or) else [cond]
    return any(isinstance(part, py.Compare) and len(part.ops) == 1 and isinstance(part.ops[0], py.Eq)
               and isinstance(part.left, py.Name) and pyast.is_name(part.comparators[0], part.left.id)
               for part in parts)


def decided_before(src: Source, target: py.expr, iterable: py.expr,
                   rows: Sequence[py.stmt]) -> Optional[tuple[py.expr, list[py.stmt]]]:
    """E where the loop of `exists` (`for target in iterable: rows`) is sure to
    find nothing whenever E holds, E asked before the loop: the rows are plain
    assignments, then `if E: FLAG = True` (an `else` of any statements), then
    `if not FLAG: ...` — the test of a `not exists(...)` inside whose early
    answer (early_answer) does not depend on the loop's element. E reads no
    name the loop gives a value, and is free of calls but a bitmask's
    `bit_count()`. `target != -1` in E holds where the loop goes over a fixed
    table's row (or a fixed tuple) that never holds -1 ("no site"), and is
    dropped. Returns E and the rows to run where E fails: `if E: ...` is
    then false, and its `else` runs in its place. None where the loop is not
    so."""
    if len(rows) < 2 or not isinstance(target, py.Name):
        return None
    *assigned, early, last = rows
    if not (isinstance(last, py.If) and isinstance(last.test, py.UnaryOp) and isinstance(last.test.op, py.Not)
            and isinstance(last.test.operand, py.Name)):
        return None
    flag = last.test.operand.id
    if not (isinstance(early, py.If) and len(early.body) == 1 and _sets_true(early.body[0], flag)):
        return None
    if not all(isinstance(line, py.Assign) and len(line.targets) == 1 and isinstance(line.targets[0], py.Name)
               and isinstance(line.value, (py.Name, py.Constant)) for line in assigned):
        return None
    parts = early.test.values if isinstance(early.test, py.BoolOp) and isinstance(early.test.op, py.And) \
        else [early.test]
    if _never_none(src, iterable) and not pyast.assigns(assigned, target.id):
        parts = [part for part in parts if not _not_none_test(part, target.id)]
    if not parts:
        return None
    test = pyast.and_(*parts)
    if not _pure(test):
        return None
    stored = {target.id}.union(*(pyast.stored_names(line) for line in rows))
    if any(isinstance(node, py.Name) and node.id in stored for node in pyast.walk(test)):
        return None
    return _negated(test), [*assigned, *early.orelse, last]


def _negated(test: py.expr) -> py.expr:
    """`not test`, a single comparison turned round (`a >= b` for `a < b`)."""
    turned: dict[type, py.cmpop] = {py.Lt: py.GtE(), py.GtE: py.Lt(), py.Gt: py.LtE(), py.LtE: py.Gt(),
                                    py.Eq: py.NotEq(), py.NotEq: py.Eq()}
    if isinstance(test, py.Compare) and len(test.ops) == 1 and type(test.ops[0]) in turned:
        return py.Compare(left=test.left, ops=[turned[type(test.ops[0])]], comparators=test.comparators)
    return pyast.not_(test)


def _sets_true(stmt: py.stmt, flag: str) -> bool:
    return (isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], flag)
            and isinstance(stmt.value, py.Constant) and stmt.value.value is True)


def _not_none_test(part: py.expr, var: str) -> bool:
    """Whether `part` is `var != -1`."""
    return (isinstance(part, py.Compare) and len(part.ops) == 1 and isinstance(part.ops[0], py.NotEq)
            and pyast.is_name(part.left, var) and pyast.same(part.comparators[0], pyast.num(-1)))


def _never_none(src: Source, iterable: py.expr) -> bool:
    """Whether `iterable` is a fixed tuple of sites, or a row of a fixed table of
    them, never holding -1."""
    if isinstance(iterable, py.Name) and src.is_const_name(iterable.id):
        value = src.namespace[iterable.id]
        return isinstance(value, tuple) and all(isinstance(v, int) and v >= 0 for v in value)
    if isinstance(iterable, py.Subscript) and isinstance(iterable.value, py.Name) \
            and src.is_const_name(iterable.value.id):
        table = src.namespace[iterable.value.id]
        return isinstance(table, tuple) and all(
            isinstance(row, tuple) and all(isinstance(v, int) and v >= 0 for v in row) for row in table)
    return False


def _pure(test: py.expr) -> bool:
    """Whether asking `test` has no effect and cannot fail where its names have
    values: names, constants, comparisons, `and`/`or`/`not`, arithmetic on
    bits, and a `bit_count()`."""
    for node in pyast.walk(test):
        if isinstance(node, py.Call):
            if node.args or node.keywords or not (isinstance(node.func, py.Attribute)
                                                  and node.func.attr == "bit_count"):
                return False
        elif isinstance(node, py.BinOp) and not isinstance(node.op, (py.BitAnd, py.BitOr, py.BitXor, py.Add,
                                                                      py.Sub)):
            return False
        elif not isinstance(node, (py.Name, py.Constant, py.Compare, py.BoolOp, py.UnaryOp, py.BinOp, py.Attribute,
                                   py.expr_context, py.operator, py.unaryop, py.cmpop, py.boolop)):
            return False
    return True
