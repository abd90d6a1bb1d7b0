"""Owner masks: one test in front of an `exists` over a fixed set of directions.

`exists(d in all, neighbour(to, d).owner == opponent and ...)` asks, for each
direction, first of all whom the neighbour belongs to. When every element is
asked that first (the whole body of the loop stands under the one test), a single
AND of bitmasks tells whether any element can pass: the neighbours of `to` (a
constant per site, made when the rules are compiled) against the sites of that
owner's pieces. Where it gives 0 the loop is skipped. Otherwise, on boards of up
to MAX_BIT_BY_BIT_SITES sites and when each bit stands for one element (no two
share a neighbour), the loop goes over the set bits only, each read back as its
element from a table per site, and without the owner's test, which those elements
pass; else it runs over every element as before. Either way the answer is the same.

The owner's mask is made once per call of the function, when a prefilter first
needs it (the lister's first lines set it to -1, "not made yet": a condition
asked seldom, behind other conditions that mostly fail, costs nothing until it is asked). So the
prefilter is written only where nothing changes the position while the function
runs: in the conditions the listers ask (`ExpressionCompiler.listing` is True
while those are compiled). The listers' writer puts the lines `lines` first.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from .source import Source

# Boards with more sites than this get no masks (their bit tables grow with the
# square of the number of sites).
MAX_MASKED_SITES = 1024
# Boards with more sites than this test the mask but loop over every element: the
# bit-by-bit loop does three operations on the mask each time round, which cost
# more than the owner's test they save once masks are this many bits long.
MAX_BIT_BY_BIT_SITES = 256

_HEAD = re.compile(r"for (i\d+(?:, i\d+)*) in (k\d+)\[(\w+)\]:")
# The owner whose sites are every player's but the deciding one's (`is enemy`);
# the others are the code of a player: `p`, or `(1 - p)` (`opponent`, only in
# games of two players: never -1, the owner of the empty piece E)
_OTHERS = "others"


class OwnerMasks:
    """The owners' masks the listers read, and the prefilters that read them."""

    def __init__(self, src: Source, n_sites: int, empty: str, enemy_table: Callable[[], str]):
        self.src = src
        self.n_sites = n_sites
        self._empty = empty  # the constant E (whose owner is none)
        self._enemy_table = enemy_table  # the name of the table of `is enemy`
        self._tests: Optional[list] = None
        self.names: dict[str, str] = {}  # owner (p, (1 - p), others) -> the local holding its mask
        self._bits: Optional[str] = None
        # (table, column) -> the constant of its rows by bit, made once: the same
        # loop written many times in the rules shares one
        self._rows_by_bit: dict[tuple[str, int], str] = {}

    def prefilter(self, head: str, body: list) -> Optional[tuple[str, str, Optional[tuple[str, str, str, list]]]]:
        """(the line making the mask when not made yet, the test, the rows by bit)
        that skips the loop `head` (`for i4, i5 in k4[to]:`) over `body`, when the
        body stands wholly under a test of one column's owner. The test is the
        bitmask of the sites in that column owned by the owner; the rows by bit,
        when no two rows of a site share that column's site, are (the loop's
        targets, a table by site of {bit of the column's site: row}, the site, the
        body without the owner's test when that is all it asks), so that the loop
        can go over those rows only."""
        if self.n_sites > MAX_MASKED_SITES or not body or any(not line.startswith("    ") for line in body[1:]):
            return None
        found = _HEAD.fullmatch(head)
        first = re.fullmatch(r"if (.+):", body[0])
        if found is None or first is None:
            return None
        columns, table, site = found.group(1).split(", "), found.group(2), found.group(3)
        tested_code = _first_conjunct(first.group(1))
        tested = self._owner_test(tested_code)
        if tested is None or tested[0] not in columns:
            return None
        column, owner = columns.index(tested[0]), tested[1]
        per_site = self.src.namespace.get(table)
        if not isinstance(per_site, tuple):
            return None
        neighbours = []
        by_bit: Optional[list] = [] if self.n_sites <= MAX_BIT_BY_BIT_SITES else None
        for rows in per_site:
            mask = 0
            rows_here: dict = {}
            for row in rows:
                value = row[column] if len(columns) > 1 else row
                if type(value) is not int or value >= self.n_sites:
                    return None
                if value >= 0:
                    mask |= 1 << value
                    if by_bit is not None and 1 << value in rows_here:
                        by_bit = None  # (two rows at one bit: the loop goes over every row)
                    rows_here[1 << value] = row
            neighbours.append(mask)
            if by_bit is not None:
                by_bit.append(rows_here)
        if owner not in self.names:
            self.names[owner] = self.src.fresh("l")
        name = self.names[owner]
        if self._bits is None:
            self._bits = self.src.const(tuple(1 << site for site in range(self.n_sites)))
        if owner == _OTHERS:
            made = f"h_others_mask({self._bits}, o, p)"
        else:
            made = f"h_sites_mask({self._bits}, o[{owner}])"
        rows = None
        if by_bit is not None:
            # (the elements the mask lets through pass the owner's test: when it is
            # the whole test, the loop over them needs it no more)
            whole = first.group(1)
            inner = body
            if whole == tested_code:
                inner = [line[4:] for line in body[1:]]
            elif whole.startswith(f"({tested_code} and ") and whole.endswith(")"):
                inner = [f"if ({whole[len(tested_code) + 6:-1]}):"] + body[1:]
            made_rows = self._rows_by_bit.get((table, column))
            if made_rows is None:
                made_rows = self._rows_by_bit[(table, column)] = self.src.const(tuple(by_bit))
            rows = (found.group(1), made_rows, site, inner)
        return f"if {name} < 0: {name} = {made}", f"{self.src.const(tuple(neighbours))}[{site}] & {name}", rows

    def _owner_test(self, code: str) -> Optional[tuple[str, str]]:
        """(the column read, whose pieces pass) when `code` tests a column's owner."""
        if self._tests is None:
            empty, enemy = self._empty, self._enemy_table()
            self._tests = [
                (re.compile(rf"\(\(b\[(i\d+)\] or {empty}\)\[0\] == (p|\(1 - p\))\)"), None),
                (re.compile(rf"{enemy}\[p\]\[\(b\[(i\d+)\] or {empty}\)\[0\]\]"), _OTHERS),
            ]
        for pattern, owner in self._tests:
            found = pattern.fullmatch(code)
            if found is not None:
                return found.group(1), owner or found.group(2)
        return None

    def lines(self, words: set) -> list[str]:
        """The first lines of a lister whose code has `words`: its masks not made."""
        return [f"{name} = -1" for name in self.names.values() if name in words]


def _first_conjunct(code: str) -> str:
    """`A` of `(A and B ...)`, or `code` itself."""
    if not code.startswith("("):
        return code
    depth = 0
    for i, char in enumerate(code):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            if i != len(code) - 1:
                return code  # (the first parenthesis closes early: not one group)
            break
    inner = code[1:-1]
    depth = 0
    for i, char in enumerate(inner):
        depth += {"(": 1, ")": -1, "[": 1, "]": -1}.get(char, 0)
        if depth == 0 and inner.startswith(" and ", i + 1):
            return inner[: i + 1]
    return code
