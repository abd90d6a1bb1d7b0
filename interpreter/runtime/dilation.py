"""The sites a flood reaches, found as bitmasks: a set of sites grown by its
neighbours, all at once, until it grows no more (compilation/masked_reach.py).

A fixed table of neighbours is given as its steps: for each distance d between
a site and a neighbour (`t - s`), the mask of the sites having that neighbour.
The neighbours of every site of a mask R are then the union over the steps of
`(R & mask) << d` (`>> -d` for a negative d): a few operations on whole
numbers for the whole set, where a search asks site after site. Where a table
has too many distances for that (a graph with no regular shape), its rows are
given as masks instead and OR-ed over the bits of what was found last.
"""
from __future__ import annotations

from typing import Sequence


def reach(cache: list[tuple[int, int]], goal: int, allowed: int, ups: Sequence[tuple[int, int]],
          downs: Sequence[tuple[int, int]], rows: Sequence[int]) -> int:
    """The sites of `allowed` joined to a site of `goal & allowed` through sites
    of `allowed` (each step one of the table's: `ups` the distances d > 0 with
    their masks, `downs` those below 0 as (-d, mask); or, where `rows` is not
    empty, the table as one neighbours' mask per site). `cache` keeps the last
    answer, by `allowed` (the goal and table are the caller's own, fixed):
    the same question asked again in a loop is answered at once. Each round
    adds at least one site: at most as many rounds as sites."""
    last = cache[0]
    if last[0] == allowed:
        return last[1]
    found = goal & allowed
    fresh = found
    if rows:
        while fresh:
            near = 0
            while fresh:
                low = fresh & -fresh
                near |= rows[low.bit_length() - 1]
                fresh ^= low
            fresh = near & allowed & ~found
            found |= fresh
    else:
        while fresh:
            near = 0
            for d, mask in ups:
                near |= (fresh & mask) << d
            for d, mask in downs:
                near |= (fresh & mask) >> d
            fresh = near & allowed & ~found
            found |= fresh
    cache[0] = (allowed, found)
    return found
