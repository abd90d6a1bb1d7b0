"""Walks along the board's edges: exactly N steps, never entering a site twice.

The board's paths never change, so the walks of each (start, length) are found
once and kept as (end, bitmasks of the sites passed); a position then only needs
the bitmask of the sites that block passing. Generated code reads the tables
(`row`, then each start's `_Walks`: all ends when nothing on the way blocks, else
end by end); walks with a general passing condition use `walk_ends`, which
searches depth-first with the condition as a function.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional

from .errors import RuleRuntimeError
from .pieces import KIND, Board

if TYPE_CHECKING:
    from ..parsing.ast import Pos

# adjacent[site]: the sites next to it
Adjacent = tuple[tuple[int, ...], ...]

# Bounds on walks, which a definition can make as long as it likes on any graph.
MAX_WALK_NODES = 200_000
MAX_WALK_STEPS = 500


class WalkTables:
    """The walks of one action on one board, filled on first use.

    `forbidden`: sites a walk may never pass (the static part of `forbid passing`)."""

    def __init__(self, adjacent: Adjacent, forbidden: frozenset[int], pos: Pos):
        self.adjacent = adjacent
        self.forbidden = forbidden
        self.pos = pos
        self.by_length: list[list[Optional[_Walks]]] = []  # by_length[n][site]: _Walks or None
        self.known = 0  # len(by_length), read by generated code without a call
        # The row of a length that is not positive: no walks from anywhere, so that
        # generated code needs no test for it.
        self.no_walks: list[Optional[_Walks]] = [_NO_WALKS] * len(adjacent)

    def row(self, n: int) -> list[Optional[_Walks]]:
        """row[start]: the walks of n steps from `start` once found, else None.
        Generated code reads it, then asks `table` for what is missing."""
        if n <= 0:
            return self.no_walks
        by_length = self.by_length
        if n < len(by_length):
            return by_length[n]
        if n > MAX_WALK_STEPS:
            raise RuleRuntimeError(self.pos, f"a walk of {n} steps is longer than the {MAX_WALK_STEPS} supported")
        while len(by_length) <= n:
            by_length.append([None] * len(self.adjacent))
        self.known = len(by_length)
        return by_length[n]

    def table(self, start: int, n: int) -> "_Walks":
        """The walks of n steps from `start` (found on first use)."""
        row = self.row(n)
        known = row[start]
        if known is None:
            known = row[start] = _walk_table(start, n, self.adjacent, self.forbidden, self.pos)
        return known


class _Walks:
    """The walks of exactly n steps from one site: their end sites and, for each
    end, the bitmasks of the sites passed on the way (only the minimal ones)."""

    __slots__ = ("ends", "passed_any", "single", "several")

    def __init__(
        self,
        ends: tuple[int, ...],
        passed_any: int,
        single: tuple[tuple[int, int], ...],
        several: tuple[tuple[int, tuple[int, ...]], ...],
    ):
        self.ends = ends  # all end sites, sorted
        self.passed_any = passed_any  # union of all passed masks
        self.single = single  # ((end, mask), ...): ends reached one way
        self.several = several  # ((end, minimal masks), ...): the others

    def open_several(self, hit: int) -> list[int]:
        """The ends reached several ways with a walk passing no site of `hit`."""
        found = []
        for t, masks in self.several:
            for m in masks:
                if not m & hit:
                    found.append(t)
                    break
        return found


_NO_WALKS = _Walks((), 0, (), ())


def _walk_table(start: int, n: int, adjacent: Adjacent, forbidden: frozenset[int], pos: Pos) -> _Walks:
    """The walks of exactly n steps from `start` that enter no site twice and pass no
    site of `forbidden`. A mask is the bitmask of the sites passed on the way."""
    by_end: dict[int, set[int]] = {}
    explored = 0
    stack = [(start, 1 << start, 0, n)]
    while stack:
        site, visited, passed, left = stack.pop()
        for t in adjacent[site]:
            bit = 1 << t
            if visited & bit:
                continue
            if left == 1:
                by_end.setdefault(t, set()).add(passed)
            elif t not in forbidden:
                explored += 1
                if explored > MAX_WALK_NODES:
                    raise RuleRuntimeError(pos, f"walks of {n} steps explore more than {MAX_WALK_NODES} paths")
                stack.append((t, visited | bit, passed | bit, left - 1))
    single = []
    several = []
    union = 0
    for end in sorted(by_end):
        masks = by_end[end]
        # A set of passed sites that contains another one never matters.
        minimal = tuple(sorted(m for m in masks if not any(o != m and o & m == o for o in masks)))
        if len(minimal) == 1:
            single.append((end, minimal[0]))
        else:
            several.append((end, minimal))
        for m in minimal:
            union |= m
    return _Walks(tuple(sorted(by_end)), union, tuple(single), tuple(several))


@dataclass(frozen=True, slots=True)
class Blockers:
    """The bitmask of the sites holding a piece of a blocking kind, per position.

    `kinds` is a mask by kind. With `neutral_only` the blocking pieces are exactly
    the neutral ones (the compiler makes sure: the blocking kinds are the neutral
    kinds, and no rule changes an owner or a kind), so the mask is the neutral
    sites' (`MaskedSites.mask`), made here when the position has none yet; generated
    code reads it from the position first."""

    kinds: tuple[bool, ...]
    neutral_only: bool

    def __call__(self, board: Board, occ: list[list[int]]) -> int:
        mask = 0
        if self.neutral_only:
            neutral = occ[-1]
            for t in neutral:
                mask |= 1 << t
            neutral.mask = mask  # type: ignore[attr-defined]  # (a MaskedSites: state.py)
            return mask
        # (the sites in `occ` hold pieces: board[t] is never None below)
        kinds = self.kinds
        for owned in occ:
            for t in owned:
                if kinds[board[t][KIND]]:  # type: ignore[index]
                    mask |= 1 << t
        return mask


def walk_ends(start: int, n: int, adjacent: Adjacent, blocked: Callable[[int], bool], pos: Pos,
              step: Optional[Callable[[int, int], bool]] = None) -> list[int]:
    """End sites (sorted) of all walks of exactly n steps from `start` without
    revisiting, the sites before the last not `blocked` (any condition), each
    step from a site to the next one `step` allows (when given)."""
    if n > MAX_WALK_STEPS:
        raise RuleRuntimeError(pos, f"a walk of {n} steps is longer than the {MAX_WALK_STEPS} supported")
    ends: set[int] = set()
    path = [start]
    on_path = {start}
    stack = [iter(adjacent[start])]
    explored = 0
    while stack:
        t = next(stack[-1], None)
        if t is None:
            stack.pop()
            on_path.discard(path.pop())
            continue
        if t in on_path:
            continue
        if step is not None and not step(path[-1], t):
            continue
        if len(path) == n:
            ends.add(t)
            continue
        if blocked(t):
            continue
        explored += 1
        if explored > MAX_WALK_NODES:
            raise RuleRuntimeError(pos, f"a walk of {n} steps explores more than {MAX_WALK_NODES} paths")
        path.append(t)
        on_path.add(t)
        stack.append(iter(adjacent[t]))
    return sorted(ends)
