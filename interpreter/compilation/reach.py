"""Where an action can ever land, for telling whether two actions may write the
same notation (and so must be compared while listing actions).

A `Reach` is either a table `sites[player][site]` (the sites reachable from each
site) or one fixed set reachable from anywhere (`go to REGION`). None stands for
"not known before play" (drops, selects, walks, sets that depend on the position).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

# table[player][site]: the sites reachable from the site (-1: off the board)
Table = tuple[tuple[frozenset[int], ...], ...]


@dataclass(frozen=True)
class Reach:
    table: Optional[Table] = None
    anywhere: Optional[frozenset[int]] = None  # the sites reachable from every site (but itself)


def reach_along(rays: list[list[tuple[int, ...]]], dirs_by_player: Sequence[tuple[int, ...]], low: int,
                high: Optional[int], off: bool) -> Reach:
    """The sites `low..high` away (high None: any distance) along each player's
    directions, plus -1 when the pattern can leave the board."""
    extra = frozenset({-1}) if off else frozenset()
    stop = None if high is None else max(high, 0)
    n_sites = len(rays[0]) if rays else 0
    shared: dict[tuple[int, ...], tuple[frozenset[int], ...]] = {}
    table = []
    for dirs in dirs_by_player:
        if dirs not in shared:
            shared[dirs] = tuple(
                frozenset(t for x in dirs for t in rays[x][s][max(low, 1) - 1 : stop]) | extra for s in range(n_sites)
            )
        table.append(shared[dirs])
    return Reach(table=tuple(table))


def reach_of_set(sites: Iterable[int]) -> Reach:
    return Reach(anywhere=frozenset(sites))


def may_land_alike(a: Optional[Reach], b: Optional[Reach]) -> bool:
    """Whether one piece could land on the same site by both actions."""
    if a is None or b is None:
        return True
    if a.anywhere is not None and b.anywhere is not None:
        return bool(a.anywhere & b.anywhere)
    if a.anywhere is not None:
        a, b = b, a
    if b.anywhere is not None:
        return any((sites - {s}) & b.anywhere for per_site in a.table or () for s, sites in enumerate(per_site))
    return any(x & y for ra, rb in zip(a.table or (), b.table or ()) for x, y in zip(ra, rb))
