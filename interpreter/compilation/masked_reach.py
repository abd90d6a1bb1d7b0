"""`exists(connected(X, C), it in GOAL)` answered by growing GOAL's side as
bitmasks, asked once for the many starts a loop may try.

Where GOAL is a fixed set of sites, the flood's neighbours a fixed table in
which each site is the neighbour of its neighbours, and C is a union of sites
known as bitmasks when the flood runs (M: `it in NAME`, `it not in NAME` for
a set with its bits, a fixed table of truth values by site), possibly with
`it == X` beside it, the flood from X reaches GOAL exactly when

- C is M alone: X is one of R's sites, R the sites of M joined through sites
  of M to a site of GOAL in M (the flood from X is X's part of M);
- C is `it == X or M`: X is in GOAL, or X or one of its neighbours is in R
  (the flood takes X, then each neighbour's part of M).

R depends on M alone, not on X: runtime/dilation.reach grows it from
`GOAL & M` a step of the table at a time, all sites at once (a few shifts and
masks a round on a grid), and keeps its last answer by M, so that a loop
asking the flood from several starts with the same M (`exists(n in
neighbours(to), not exists(connected(n, it == n or it not in chain), it in
outside))`) grows R once. Nothing here knows a game: only the table, the goal
and the masks.
"""
from __future__ import annotations

import ast as py
from typing import Callable, Optional

from . import pyast
from .code import Flood
from .cut_pretest import goal_sites
from .source import Source

# A table with more distinct distances between neighbours than this is grown
# through one neighbours' mask per site instead of shifts.
MAX_SHIFTS = 12


def reach_answer(src: Source, flood: Flood, var: str, lines: list[py.stmt], cond: py.expr,
                 bits: Callable[[], py.expr], full: Callable[[], py.expr]) -> Optional[tuple[list[py.stmt], py.expr]]:
    """Whether `exists` over `flood` (from one site, keeping its path:
    `flood.witness`) with the condition `cond` of `var` (after `lines`) finds a
    site: the statements growing R and the expression of bitmasks answering
    (the flood's first statement, which names its start, runs before them),
    or None where the flood is not so."""
    witness = flood.witness
    if witness is None or lines or witness.lines or witness.neighbours is None or not flood.seeds:
        return None
    first = flood.seeds[0]
    if not (isinstance(first, py.Assign) and len(first.targets) == 1
            and pyast.is_name(first.targets[0], witness.start.id)):
        return None
    starts = {witness.start.id} | ({first.value.id} if isinstance(first.value, py.Name) else set())
    table = src.namespace.get(witness.neighbours.id) if src.is_const_name(witness.neighbours.id) else None
    if not (isinstance(table, tuple) and table and all(isinstance(row, tuple) for row in table)):
        return None
    n = len(table) - 1
    if not symmetric(table, n):
        return None
    parsed = _allowed(src, witness.cond, witness.site, starts, bits, full, n)
    if parsed is None:
        return None
    allowed, with_start = parsed
    goal = goal_sites(src, cond, var, n)
    if not goal:
        return None
    goal_mask = src.const(sum(1 << site for site in goal))
    grown, reached = _grown(src, table, n, goal_mask, allowed)
    start = witness.start
    bit = pyast.sub(bits(), start)
    if not with_start:
        return grown, pyast.compare(pyast.binop(bit, "&", reached), "!=", pyast.num(0))
    rows = src.const(tuple(sum(1 << t for t in row if 0 <= t < n) for row in table))
    near = pyast.binop(pyast.binop(pyast.sub(bits(), start), "|", pyast.sub(rows, start)), "&", reached)
    return grown, pyast.or_(pyast.compare(pyast.binop(bit, "&", goal_mask), "!=", pyast.num(0)),
                            pyast.compare(near, "!=", pyast.num(0)))


def _grown(src: Source, table: tuple[tuple[int, ...], ...], n: int, goal: py.expr,
           allowed: py.expr) -> tuple[list[py.stmt], py.Name]:
    """Statements leaving R (the sites of `allowed` joined through them to a
    site of `goal & allowed`) in a fresh local, which they return with. The
    last answer is kept in a constant of its own, by `allowed`. On a table
    with few distances between neighbours the growth is written out: each
    round one AND and one shift (a product or a quotient by a power of two) a
    distance; on others runtime/dilation.reach grows it through each site's
    neighbours' mask."""
    by_distance = neighbours_by_distance(table, n)
    cache = src.const([(-1, 0)])
    mask, last, found = (pyast.name(src.fresh("t")) for _ in range(3))
    if len(by_distance) > MAX_SHIFTS:
        rows = src.const(tuple(sum(1 << t for t in row) for row in table[:n]))
        return [pyast.assign(found, pyast.helper("h_reach", cache, goal, allowed, src.const(()), src.const(()),
                                                 rows))], found
    fresh = pyast.name(src.fresh("t"))
    near: Optional[py.expr] = None
    for d, sites in sorted(by_distance.items()):
        part = pyast.binop(pyast.binop(fresh, "&", src.const(sites)), "*" if d > 0 else "//", src.const(1 << abs(d)))
        near = part if near is None else pyast.binop(near, "|", part)
    assert near is not None
    grow = [pyast.assign(found, pyast.binop(goal, "&", mask)), pyast.assign(fresh, found),
            pyast.while_(fresh, [pyast.assign(fresh, pyast.binop(near, "&", pyast.binop(mask, "^", found))),
                                 pyast.assign(found, pyast.binop(found, "|", fresh))]),
            pyast.assign(pyast.sub(cache, 0), pyast.tuple_(mask, found))]
    return [pyast.assign(mask, allowed), pyast.assign(last, pyast.sub(cache, 0)),
            pyast.if_(pyast.compare(pyast.sub(last, 0), "==", mask), [pyast.assign(found, pyast.sub(last, 1))],
                      grow)], found


def neighbours_by_distance(table: tuple[tuple[int, ...], ...], n: int) -> dict[int, int]:
    """For each distance d between a site and a neighbour (`t - site`), the mask
    of the sites having a neighbour at that distance."""
    by_distance: dict[int, int] = {}
    for site, row in enumerate(table[:n]):
        for t in row:
            by_distance[t - site] = by_distance.get(t - site, 0) | 1 << site
    return by_distance


def symmetric(table: tuple[tuple[int, ...], ...], n: int) -> bool:
    """Whether each site's neighbours (sites of the board only) have it as theirs."""
    return all(isinstance(t, int) and 0 <= t < n and site in table[t]
               for site, row in enumerate(table[:n]) for t in row) and not table[n]


def _allowed(src: Source, cond: py.expr, site: str, starts: set[str], bits: Callable[[], py.expr],
             full: Callable[[], py.expr], n: int) -> Optional[tuple[py.expr, bool]]:
    """M and whether `site == start` is a part, where `cond` is the union of
    `site == start` (at most) and parts known as masks; None otherwise."""
    parts = cond.values if isinstance(cond, py.BoolOp) and isinstance(cond.op, py.Or) else [cond]
    with_start = False
    masks: list[py.expr] = []
    for part in parts:
        if isinstance(part, py.Compare) and len(part.ops) == 1 and isinstance(part.ops[0], py.Eq) \
                and pyast.is_name(part.left, site) and isinstance(part.comparators[0], py.Name) \
                and part.comparators[0].id in starts:
            with_start = True
            continue
        mask = _part_mask(src, part, site, bits, full, n)
        if mask is None:
            return None
        masks.append(mask)
    if not masks:
        return None
    allowed = masks[0]
    for mask in masks[1:]:
        allowed = pyast.binop(allowed, "|", mask)
    return allowed, with_start


def _part_mask(src: Source, part: py.expr, site: str, bits: Callable[[], py.expr], full: Callable[[], py.expr],
               n: int) -> Optional[py.expr]:
    """The mask of the sites where `part` holds of `site`: `NAME & BITS[site]
    != 0` (NAME's bits), its negation (the rest of the board's), or a fixed
    table of truth values by site."""
    negated = isinstance(part, py.UnaryOp) and isinstance(part.op, py.Not)
    test = part.operand if isinstance(part, py.UnaryOp) and negated else part
    if isinstance(test, py.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], py.NotEq) \
            and isinstance(test.comparators[0], py.Constant) and test.comparators[0].value == 0 \
            and isinstance(test.left, py.BinOp) and isinstance(test.left.op, py.BitAnd):
        mask, bit = test.left.left, test.left.right
        if isinstance(mask, py.Name) and mask.id != site and isinstance(bit, py.Subscript) \
                and pyast.is_name(bit.slice, site) and pyast.same(bit.value, bits()):
            return pyast.binop(full(), "^", mask) if negated else mask
        return None
    if not negated and isinstance(part, py.Subscript) and pyast.is_name(part.slice, site) \
            and isinstance(part.value, py.Name) and src.is_const_name(part.value.id):
        values = src.namespace[part.value.id]
        if isinstance(values, tuple) and len(values) == n + 1 and all(v is True or v is False for v in values):
            return src.const(sum(1 << s for s in range(n) if values[s]))
    return None
