"""A search for a goal goes towards the goal first.

`exists(connected(X, C), it in GOAL)` — can X still reach GOAL through sites
meeting C — is a flood (expr_connected.py) that stops at the first site of GOAL
it finds. Breadth first, it asks every site nearer to X than the goal is: on an
open board, most of the board. Where the quantifier's condition is a fixed set
of sites (worked out when the rules are compiled: it reads the site and
constants alone, or also the player to move or the other player — then one set
per player), the flood is written depth first instead, with each site's
neighbours in the order of their distance to that set (counted over the
neighbour table, whatever C says): the sites found wait on a stack, and the one
nearest the goal is asked next. Through an open board it walks straight there;
where C blocks the way it backs up, as far as it must. It asks no site twice, so
its work stays bounded by the board's sites and edges, as before.

The answer is the same whatever the order: each site reached meets C and is
reached from one asked before it, and every site the flood reaches is asked
before it gives up. A kept path (expr_connected.witnessed_loop) is the chain of
sites each was first reached from, as ever — a way to the goal, perhaps not the
shortest.
"""
from __future__ import annotations

import ast as py
from collections import deque
from typing import Optional

from . import pyast
from .code import Flood
from .source import Source
from .tabulate import worked_out

# Names a goal may be read with besides the site: the player to move, the other.
_PLAYER_NAMES = ("p", "q")


def goal_order(src: Source, flood: Flood, var: str, lines: list[py.stmt], cond: py.expr,
               players: int) -> Optional[py.expr]:
    """The table (by site, or an expression choosing it by player) of each site's
    neighbours, the farthest from the goal first — for `ordered_loop` — or None
    where the flood's neighbours are not a fixed table or the goal not a fixed set
    of sites (or every site, or none), one per player, or a row of a constant table
    of such sets chosen by a name (`T[x][it]`)."""
    expand = neighbours_loop(flood)
    if lines or not (isinstance(expand, py.For) and isinstance(expand.iter, py.Subscript)
                     and isinstance(expand.iter.value, py.Name) and src.is_const_name(expand.iter.value.id)
                     and pyast.is_name(expand.iter.slice, flood.current)):
        return None
    neighbours = src.namespace[expand.iter.value.id]
    if not (isinstance(neighbours, tuple) and all(isinstance(row, tuple) for row in neighbours)):
        return None
    fixed = _fixed_goal(src, neighbours, var, cond, players)
    if fixed is not None:
        return fixed
    rows = _goal_rows(src, cond, var, len(neighbours) - 1)
    if rows is None:
        return None
    # (`T[x][it]`, a table by site in each row of a constant table, as `all(p in
    # players, ...)` reads each player's goal: an order per row)
    orders = tuple(_farthest_first(neighbours, goal) if goal else neighbours for goal in rows[1])
    return pyast.sub(src.const(orders), rows[0])


def _fixed_goal(src: Source, neighbours: tuple[tuple[int, ...], ...], var: str, cond: py.expr,
                players: int) -> Optional[py.expr]:
    """The order where the goal is a fixed set of sites, or one per player."""
    called = {id(n.func) for n in pyast.walk(cond) if isinstance(n, py.Call)}
    names = {n.id for n in pyast.walk(cond) if isinstance(n, py.Name) and id(n) not in called} - {var}
    chosen = [n for n in names if n in _PLAYER_NAMES]
    if len(chosen) > 1:
        return None
    by = chosen[0] if chosen else None
    tables = []
    for value in range(players) if by is not None else (0,):
        env = {var: 0} if by is None else {var: 0, by: value}
        goal = []
        for site in range(len(neighbours) - 1):  # (the last row: "no site")
            env[var] = site
            try:
                if worked_out(src, cond, env):
                    goal.append(site)
            except ValueError:
                return None
        if not goal or len(goal) == len(neighbours) - 1:
            return None
        tables.append(_farthest_first(neighbours, goal))
    if by is None:
        return src.const(tables[0])
    return pyast.sub(src.const(tuple(tables)), pyast.name(by))


def _goal_rows(src: Source, cond: py.expr, var: str, n: int) -> Optional[tuple[py.expr, list[list[int]]]]:
    """(x, the goal's sites in each row of T) where `cond` is `T[x][var]`, T a
    constant tuple of tables by site and x a name other than `var` (which the
    search's condition, an expression, does not set)."""
    if not (isinstance(cond, py.Subscript) and pyast.is_name(cond.slice, var) and isinstance(cond.value, py.Subscript)
            and isinstance(cond.value.value, py.Name) and src.is_const_name(cond.value.value.id)
            and isinstance(cond.value.slice, py.Name) and cond.value.slice.id != var):
        return None
    table = src.namespace[cond.value.value.id]
    if not (isinstance(table, tuple) and table
            and all(isinstance(row, tuple) and len(row) >= n and all(type(v) in (bool, int) or v is None for v in row)
                    for row in table)):
        return None
    goals = [[site for site in range(n) if row[site]] for row in table]
    return cond.value.slice, [goal if len(goal) < n else [] for goal in goals]


def _farthest_first(neighbours: tuple[tuple[int, ...], ...], goal: list[int]) -> tuple[tuple[int, ...], ...]:
    """Each site's neighbours ordered by their distance to `goal` along the
    table's edges, the farthest (or those that never get there) first."""
    n = len(neighbours) - 1
    towards: list[list[int]] = [[] for _ in range(n)]  # site -> the sites it is a neighbour of
    for site in range(n):
        for t in neighbours[site]:
            if 0 <= t < n:
                towards[t].append(site)
    far = n + 1
    distance = [far] * n
    queue = deque(goal)
    for site in goal:
        distance[site] = 0
    while queue:
        site = queue.popleft()
        for s in towards[site]:
            if distance[s] == far:
                distance[s] = distance[site] + 1
                queue.append(s)
    return tuple(tuple(sorted(row, key=lambda t: -distance[t] if 0 <= t < n else -far - 1))
                 for row in neighbours[:n]) + neighbours[n:]


def neighbours_loop(flood: Flood) -> Optional[py.stmt]:
    """The loop over the current site's neighbours, first in the flood's
    expansion, or alone under a test of the current site (expr_connected.search:
    a step asked of the site stepped from)."""
    expand = flood.expand[0] if flood.expand else None
    if isinstance(expand, py.If) and len(expand.body) == 1 and not expand.orelse:
        return expand.body[0]
    return expand


def ordered_loop(flood: Flood, var: str, body: list[py.stmt], order: py.expr) -> list[py.stmt]:
    """The flood depth first (expr_connected.fused_loop's counterpart): the sites
    found wait on a stack, each site's neighbours pushed from `order` (the
    farthest from the goal first), `body` run for each site taken from it."""
    expand = neighbours_loop(flood)
    assert isinstance(expand, py.For)
    towards: py.stmt = py.For(target=expand.target, iter=pyast.sub(order, pyast.name(flood.current)),
                              body=expand.body, orelse=expand.orelse, type_comment=None)
    first = flood.expand[0]
    if first is not expand:  # (the loop under the step's test of the site stepped from)
        assert isinstance(first, py.If)
        towards = pyast.if_(first.test, [towards])
    steps = pyast.replace_in([towards, *flood.expand[1:]], pyast.renaming(flood.current, var))
    taken = pyast.assign(pyast.name(var), pyast.method(flood.found, "pop"))
    return list(flood.seeds) + [pyast.while_(flood.found, [taken, *body, *steps])]
