"""Functions the generated code calls (bound in its namespace as `h_<name>`).

They do what is clearer as a loop than as one Python expression: set arithmetic
on sites, aggregates over pieces, groups and lines, and the checks that turn a
fault of the rules into a located `RuleRuntimeError` instead of a Python error.
"""
from __future__ import annotations

import operator
from bisect import bisect_left, insort_left
from collections import defaultdict
from fractions import Fraction
from functools import partial
from itertools import chain, compress
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Optional, Sequence, Union

from . import moves, terms, walks
from .chains import alone, liberties, stones
from .chains import cleared as chains_cleared
from .chains import cleared_stones as chains_stones_cleared
from .chains import forget as chains_forget
from .chains import wrote as chains_wrote
from .chains import wrote_stones as chains_stones_wrote
from .clearances import ClearedChecks, landed, let_through, sift, sift_runs
from .dilation import reach as dilated_reach
from .errors import RuleRuntimeError, fail
from .kept_answers import NOT_KEPT, answer_for_opponent, keep_entry, kept_entry
from .pieces import CASE, DESTINATION, KIND, OWNER, STONES, Board, Code, Piece
from .point_masks import MaskedTests, noted_masks, parent_answer_masked
from .state import MaskedSites

if TYPE_CHECKING:
    from ..parsing.ast import Pos
    from .state import State

# Tables generated code hands to these helpers.
# A track at run time: (sites in order, position of each site (-1: not on it; one
# entry per site of the board and one for "no site"), whether it loops).
Track = tuple[tuple[int, ...], tuple[int, ...], bool]
# keys[case]: (notation template id, whether it shows from, to, and what else tells
# its codes apart: 0 nothing, 1 the choice, 2 the choice and the values it shows);
# for a case whose template may write the text of another template of its decision
# (told_apart.may_write_alike), (-1 - the number of that class of templates, the
# template, the site names, 0): its codes are compared by the text they write; None
# for a case that no other case of its decision can write alike and that lists
# each notation once (a drop or select showing its site): never compared.
TemplateKey = tuple[int, bool, bool, int]
TextKey = tuple[int, tuple[str, ...], tuple[str, ...], int]
NotationKeys = tuple[Optional[Union[TemplateKey, TextKey]], ...]
# The same for the cases of actions compared among the legal ones only (after
# `forbid result`): None for a case whose notation no other action writes.
AlikeKeys = NotationKeys
# check(state, code) -> whether a `forbid result` forbids the action (its coverage
# probe plus one when counted, else 0 or False), the state left as it was (the case
# tried in place and undone, or on a copy: compilation/journal.py); a phase's
# checks are by case, None for a case nothing can forbid (chance events)
# (s, code[, the listing's memo of the listed position's answers: compilation/result_reuse.py])
ResultCheck = Callable[..., int]

ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
COMPARISONS = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}

# What sum/max/min/unique_max measure besides an attribute (given by its index).
MEASURE_VALUE = -1
MEASURE_HEIGHT = -2

# Every number the rules store (variables, attributes, pools, scores) is within
# this bound; a rule that goes past it is a located error (docs/format.md §5).
NUMBER_LIMIT = 10**15
# `along` lists at most this many sites.
MAX_ALONG = 100_000


def sites(items: tuple[int, ...]) -> list[int]:
    """A list literal's sites, without the ones that are none."""
    return [s for s in items if s != -1]


def first(sites: Iterable[int]) -> int:
    """The site of `sites` that comes first in board order, or -1 (none)."""
    if type(sites) is MaskedSites:
        # (a player's pieces, whose mask is kept once made: its lowest bit — no
        # walk over the list; -1 where empty)
        mask = sites.mask
        if mask is not None:
            return (mask & -mask).bit_length() - 1
        return min(sites) if sites else -1
    if type(sites) is list or type(sites) is tuple:  # (a keyword argument costs more than the test)
        return min(sites) if sites else -1
    return min(sites, default=-1)


def last(sites: Iterable[int]) -> int:
    """The site of `sites` that comes last in board order, or -1 (none)."""
    if type(sites) is MaskedSites:
        mask = sites.mask
        if mask is not None:  # (its highest bit; -1 where empty)
            return mask.bit_length() - 1
    return max(sites, default=-1)


def drawn_member(sites: Iterable[int], rand: Callable[[], float]) -> int:
    """One site of `sites` drawn uniformly with `rand`, or -1 (none) when it is
    empty: a random playout's outcome of `outcomes one of SET` (no list of the
    outcomes made; a list is drawn from where it stands, in its own order)."""
    members = sites if type(sites) is list or type(sites) is MaskedSites or type(sites) is tuple \
        else sorted(sites)
    if not members:
        return -1
    return members[int(rand() * len(members))]


def nth(sites: Iterable[int], n: int) -> int:
    """The n-th site of `sites` in board order (1 the first), or -1 (none) when
    there are fewer."""
    if n < 1:
        return -1
    if type(sites) is MaskedSites and sites.mask is not None:
        mask = sites.mask
        for _ in range(n - 1):  # (at most as many as the set has bits: then 0)
            mask &= mask - 1
            if not mask:
                return -1
        return (mask & -mask).bit_length() - 1
    ordered = sorted(sites)
    return ordered[n - 1] if n <= len(ordered) else -1


def nth_sorted(sites: tuple[int, ...], n: int) -> int:
    """`nth` of sites already in board order (a region's)."""
    return sites[n - 1] if 0 < n <= len(sites) else -1


def without(sites: Iterable[int], site: int) -> list[int]:
    """The sites of `sites` but `site` (none: all of them)."""
    return [s for s in sites if s != site]


def first_but(ordered: Iterable[int], site: int) -> int:
    """The first site of `ordered` (in board order) that is not `site`, or -1."""
    for s in ordered:
        if s != site:
            return s
    return -1


def union(*parts: Iterable[int]) -> list[int]:
    return sorted(set().union(*parts))


def with_site(sites: Iterable[int], site: int) -> list[int]:
    """`union(sites, sites((site,)))` in one step: the sites and one more (none:
    no more), sorted, each once."""
    if site == -1:
        return sorted(set(sites))
    return sorted({*sites, site})


def with_site_distinct(sites: Iterable[int], site: int) -> list[int]:
    """`with_site` of sites each listed once (the sites of pieces): the same list,
    sorted without a set made — a set of five built and sorted costs twice this."""
    joined = list(sites)
    if site != -1 and site not in joined:
        joined.append(site)
    joined.sort()
    return joined


def minus(a: Iterable[int], b: Iterable[int]) -> list[int]:
    drop = set(b)
    return [s for s in a if s not in drop]


def all_pieces(occ: list[list[int]]) -> list[int]:
    """The sites of every piece, owner by owner (neutral ones last)."""
    return [s for owned in occ for s in owned]


def random_piece(occ: list[list[int]], rand: Callable[[], float]) -> int:
    """The site of a piece drawn uniformly among all of them with `rand` (no list of
    them made), or -1 when there is none."""
    total = 0
    for owned in occ:
        total += len(owned)
    if not total:
        return -1
    r = int(rand() * total)
    for owned in occ:
        if r < len(owned):
            return owned[r]
        r -= len(owned)
    return -1  # (not reached: r < total)


def floordiv(a: int, d: int, pos: Pos) -> int:
    if d == 0:
        raise RuleRuntimeError(pos, "division by zero")
    return a // d


def divide(a: Union[int, Fraction], d: Union[int, Fraction], pos: Pos) -> Fraction:
    """`a / d`: the exact quotient (a decimal number of the rules, format.md 3.12)."""
    if d == 0:
        raise RuleRuntimeError(pos, "division by zero")
    return Fraction(a) / d


def mod(a: int, d: int, pos: Pos) -> int:
    if d == 0:
        raise RuleRuntimeError(pos, "division by zero")
    return a % d


def bounded(x: int, pos: Pos) -> int:
    """`x`, if it is within NUMBER_LIMIT (generated code checks stores with it)."""
    if -NUMBER_LIMIT <= x <= NUMBER_LIMIT:
        return x
    raise RuleRuntimeError(pos, f"a number grew beyond {NUMBER_LIMIT:.0e}, the limit of what the rules can store")


def one_direction(dirs: tuple[int, ...], pos: Pos, message: str) -> int:
    if len(dirs) != 1:
        raise RuleRuntimeError(pos, message)
    return dirs[0]


def measure(piece: Piece, what: int, values: tuple[int, ...]) -> int:
    if what == MEASURE_VALUE:
        return values[piece[KIND]]
    if what == MEASURE_HEIGHT:
        return len(piece[STONES]) if piece[STONES] else 1
    return piece[what]  # type: ignore[no-any-return]  # (an attribute's value: a number)


def measures(board: Board, where: Iterable[int], what: int, values: tuple[int, ...]) -> list[int]:
    """The measure of each piece on the sites of `where` (an attribute read
    directly: a call per piece would cost more than the reading)."""
    if what >= 0:
        return [p[what] for s in where if (p := board[s]) is not None]
    return [measure(p, what, values) for s in where if (p := board[s]) is not None]


def total(board: Board, where: Iterable[int], what: int, values: tuple[int, ...]) -> int:
    return sum(measures(board, where, what, values))


def largest(board: Board, where: Iterable[int], what: int, values: tuple[int, ...]) -> int:
    found = measures(board, where, what, values)
    return max(found) if found else 0


def smallest(board: Board, where: Iterable[int], what: int, values: tuple[int, ...]) -> int:
    found = measures(board, where, what, values)
    return min(found) if found else 0


def unique_max(board: Board, where: Iterable[int], what: int, values: tuple[int, ...]) -> int:
    """The site whose piece measures strictly the most, or -1 on a tie or no piece."""
    if what >= 0:
        return _unique_max_attribute(board, where, what)
    best, best_value, tie = -1, None, False
    for s in where:
        p = board[s]
        if p is None:
            continue
        x = measure(p, what, values)
        if best_value is None or x > best_value:
            best, best_value, tie = s, x, False
        elif x == best_value:
            tie = True
    return -1 if tie else best


def _unique_max_attribute(board: Board, where: Iterable[int], index: int) -> int:
    """unique_max of an attribute read straight from the piece tuples: it often runs
    after every action, so without a call per piece."""
    best, best_value, tie = -1, None, False
    for s in where:
        p = board[s]
        if p is None:
            continue
        x = p[index]
        if best_value is None or x > best_value:
            best, best_value, tie = s, x, False
        elif x == best_value:
            tie = True
    return -1 if tie else best


def group(board: Board, adjacent: walks.Adjacent, start: int) -> list[int]:
    """The sites joined to `start` through neighbours holding pieces of its owner."""
    p = board[start]
    if p is None:
        return []
    owner = p[OWNER]
    seen = {start}
    found = [start]
    for site in found:  # (the loop goes on over the sites appended while it runs)
        for t in adjacent[site]:
            if t not in seen:
                q = board[t]
                if q is not None and q[OWNER] == owner:
                    seen.add(t)
                    found.append(t)
    return found


def group_kept(s: State, board: Board, adjacent: walks.Adjacent, start: int) -> list[int]:
    """`group` where the position keeps its groups' records (runtime/chains.py): a
    stone alone in its group is known without a search; a larger group is
    searched, for `group`'s order of its stones."""
    if alone(s, board, start):
        return [start]
    return group(board, adjacent, start)


def _flood_start(seeds: Iterable[int], passable: tuple[bool, ...]) -> tuple[set[int], list[int]]:
    """A flood's sites seen and found at its start: the `passable` seeds, once each
    (-1: no site)."""
    seen = set()
    found = []
    for s in seeds:
        if s != -1 and s not in seen and passable[s]:
            seen.add(s)
            found.append(s)
    return seen, found


def flood(adjacent: walks.Adjacent, seeds: Iterable[int], passable: tuple[bool, ...]) -> list[int]:
    """The sites reached from `seeds` through neighbours, every one `passable`
    (by site), in board order: `connected` where its condition was asked of every
    site first."""
    seen, found = _flood_start(seeds, passable)
    for s in found:
        for t in adjacent[s]:
            if t not in seen and passable[t]:
                seen.add(t)
                found.append(t)
    found.sort()
    return found


# A region's cut structure (`cut_structure`): its size; by site, the number the
# search found it at (its order: -2 outside the region); by that number, the size
# of its subtree; and by the number of each cut point, the numbers of its children
# whose subtrees it cuts off (none reaches above it by an edge). Lists rather than
# dicts: the search appends each site's entries as it finds it.
Cuts = tuple[int, list[int], list[int], dict[int, list[int]]]


def cut_structure(adjacent: walks.Adjacent, region: list[int], table: dict[int, Cuts]) -> Optional[Cuts]:
    """One depth-first search over `region` (the sites a flood found, connected
    through `adjacent`, which goes both ways): what `count_without` needs to say,
    for any site of it, how many sites a flood reaches without that site (its
    cut points, Tarjan's). Noted in `table` for every site of the region; None
    for no region."""
    if not region:
        return None
    order = [-2] * len(adjacent)  # (-1: in the region, not found yet)
    for site in region:
        order[site] = -1
    root = region[0]
    order[root] = 0
    # (low: the lowest order reached from a subtree by one edge back; the site searched
    # from, its neighbours left and its low are locals, those of the sites above it on
    # `stack`)
    size = [1]
    cut_off: dict[int, list[int]] = {}
    stack: list[tuple[int, Iterator[int], int]] = []
    at, rest, low_at = 0, iter(adjacent[root]), 0
    while True:  # (each site pushed once: bounded by the region)
        for t in rest:
            found = order[t]
            if found == -2:
                continue
            if found == -1:
                stack.append((at, rest, low_at))
                found = order[t] = len(size)
                size.append(1)
                at, rest, low_at = found, iter(adjacent[t]), found
                break
            if found < low_at:
                low_at = found
        else:
            if not stack:
                break
            up, rest, low_up = stack.pop()
            size[up] += size[at]
            if low_at >= up:  # (nothing below `at` reaches above `up`: `up` cuts it off)
                if up in cut_off:
                    cut_off[up].append(at)
                else:
                    cut_off[up] = [at]
            at, low_at = up, low_at if low_at < low_up else low_up
    cuts = (len(region), order, size, cut_off)
    table.update(dict.fromkeys(region, cuts))
    return cuts


def count_without(cuts: Optional[Cuts], seed: int, without: int) -> int:
    """How many sites a flood from `seed` reaches in its region (`cuts`, from
    `cut_structure`; None: the seed is outside every region) when `without` is
    not passable: the region's size when `without` is not in it (or none); else
    the subtree of `without`'s child holding the seed when `without` cuts that
    child off; else the region but `without` and the subtrees it cuts off."""
    if cuts is None or seed == without:
        return 0
    total, order, size, cut_off = cuts
    at = order[without] if without >= 0 else -2
    if at < 0:
        return total
    children = cut_off.get(at)
    if children is None:
        return total - 1
    seed_at = order[seed]
    lost = 0
    for child in children:
        if child <= seed_at < child + size[child]:
            return size[child]
        lost += size[child]
    return total - 1 - lost


def flood_steps(adjacent: walks.Adjacent, seeds: Iterable[int], passable: tuple[bool, ...],
                steps: tuple[tuple[bool, ...], ...]) -> list[int]:
    """`flood` going only by the steps allowed: `steps[s][i]` says whether the
    step from s to its i-th neighbour (in `adjacent[s]`) may be taken."""
    seen, found = _flood_start(seeds, passable)
    for s in found:
        for t, allowed in zip(adjacent[s], steps[s]):
            if allowed and t not in seen and passable[t]:
                seen.add(t)
                found.append(t)
    found.sort()
    return found


def marks(n: int) -> list[int]:
    """Marks by site for a search that keeps its path (`path`): 0 for a site not
    asked yet, 1 for the start, else the site it was reached from plus two."""
    return [0] * n


def path(marks_by_site: list[int], end: int) -> tuple[int, ...]:
    """The sites from the search's start to `end`, each reached from the one
    before it (marks as `marks` says)."""
    sites = [end]
    mark = marks_by_site[end]
    while mark > 1:
        end = mark - 2
        sites.append(end)
        mark = marks_by_site[end]
    sites.reverse()
    return tuple(sites)


def keep_path(paths: list[Optional[tuple[int, ...]]], start: int, marks_by_site: list[int], end: int,
              before: Optional[list[Optional[tuple[int, ...]]]] = None,
              masks: Optional[tuple[Any, ...]] = None,
              bits_beside: Optional[tuple[list[int], list[int], Sequence[int]]] = None) -> None:
    """Keep in `paths` (a table of the search's own, by start site) the path
    from `start` to `end` that a search marked (`marks`), and for each site on it
    the rest of the path from there (a piece searching from its site that moves
    along its path finds its way kept): a cache, no part of any position, which
    the next search from a site on the path tries first. A site of the path
    that already holds a path to another end keeps it (the start excepted): one
    table serves a search asked for several goals (`all(p in players, ...)`), and
    the rest of one player's path must not replace another's path from the
    site where that player stands. With `before` (a second table by start), the
    start's path kept until now is kept there (expr_connected.witnessed_loop
    tries both); with `masks` (two tables beside `paths` and `before`, and each
    site's bit), each path's bitmask is kept beside it — there, for a site of
    the path, the rest of the path's bitmask, and the path whole, not cut at the
    site: a search trying its paths as masks reads only a path's end (its sites
    are the mask's), and the whole path proves the rest from the site as well,
    so no copy of each rest is made. `masks` may hold more tables, in pairs
    (a table of paths, one of their bitmasks): each start's path moves back a
    pair, `before`'s into the first, the last pair's dropped. With
    `bits_beside` instead (the same two tables and bits), the paths are kept
    cut at each site as without masks, and each one's bitmask beside it: a
    reader of a kept path's bitmask takes it from the
    table by the path's start (a subscript, not `path_bits`)."""
    if bits_beside is not None:
        _keep_path_and_bits(paths, start, marks_by_site, end, before, bits_beside)
        return
    if before is not None and paths[start] is not None:
        if masks is not None and len(masks) > 3:
            _paths_moved_back(masks, before, start)
        before[start] = paths[start]
        if masks is not None:
            masks[1][start] = masks[0][start]
    if masks is None:
        sites = paths[start] = path(marks_by_site, end)
        for i in range(1, len(sites)):
            kept = paths[sites[i]]
            if kept is None or kept[-1] == end:
                paths[sites[i]] = sites[i:]
        return
    by_site = masks[0]
    sites, rests = _path_and_rests(marks_by_site, end, masks[2])
    paths[start] = sites
    by_site[start] = rests[0]
    for i in range(1, len(sites)):
        site = sites[i]
        kept = paths[site]
        if kept is None or kept[-1] == end:
            paths[site] = sites  # (whole: its end is what is read, the rest's bits are beside it)
            by_site[site] = rests[i]


def _paths_moved_back(masks: tuple[Any, ...], before: list[Optional[tuple[int, ...]]], start: int) -> None:
    """The paths kept from `start` and their bitmasks in `masks[3:]` (pairs of
    tables) each moved back a pair, the path in `before` and its bitmask
    (`masks[1]`) into the first pair."""
    for at in range(len(masks) - 2, 3, -2):  # (the last pair first: at most the pairs' count)
        masks[at][start] = masks[at - 2][start]
        masks[at + 1][start] = masks[at - 1][start]
    masks[3][start] = before[start]
    masks[4][start] = masks[1][start]


def _keep_path_and_bits(paths: list[Optional[tuple[int, ...]]], start: int, marks_by_site: list[int], end: int,
                        before: Optional[list[Optional[tuple[int, ...]]]],
                        beside: tuple[list[int], list[int], Sequence[int]]) -> None:
    """`keep_path` with `bits_beside`: the paths kept as without masks (cut at each
    site; a site holding a path to another end keeps it), and beside each kept
    path, in the table of bitmasks beside its table, its bitmask — what
    `path_bits` would give for it."""
    by_site, before_by_site, bits = beside
    if before is not None and paths[start] is not None:
        before[start] = paths[start]
        before_by_site[start] = by_site[start]
    sites, rests = _path_and_rests(marks_by_site, end, bits)
    paths[start] = sites
    by_site[start] = rests[0]
    for i in range(1, len(sites)):
        site = sites[i]
        kept = paths[site]
        if kept is None or kept[-1] == end:
            paths[site] = sites[i:]
            by_site[site] = rests[i]


def _path_and_rests(marks_by_site: list[int], end: int, bits: Sequence[int]) -> tuple[tuple[int, ...], list[int]]:
    """The path to `end` as `path` gives it, and beside each of its sites the
    bitmask of the path from there to the end — made on the one walk back from
    the end, not in a second loop."""
    back = [end]
    rest = bits[end]
    rests = [rest]
    mark = marks_by_site[end]
    while mark > 1:
        site = mark - 2
        back.append(site)
        rest |= bits[site]
        rests.append(rest)
        mark = marks_by_site[site]
    back.reverse()
    rests.reverse()
    return tuple(back), rests


class PathBitsOf:
    """The bitmasks of a table of kept paths read by subscript, `path_bits` of
    the path kept at the index, for a table kept without its bitmasks beside it
    (a screen reading several tables, compilation/kept_paths.py)."""

    __slots__ = ("paths", "bits")

    def __init__(self, paths: Sequence[Optional[tuple[int, ...]]], bits: Sequence[int]):
        self.paths, self.bits = paths, bits

    def __getitem__(self, start: int) -> int:
        kept = self.paths[start]
        return path_bits(kept, self.bits) if kept is not None else 0


def region_note(answers: Union[list[Any], tuple[()]], found: Sequence[int], answer: Any,
                size: int) -> list[Any]:
    """`answers` (a list by site, or () before the first: made here, `size` long)
    with `answer` noted for each site of `found`: the sites a flood from one site
    found, all of one region, which a flood from any of them answers alike."""
    if not answers:
        answers = [None] * size
    for site in found:
        answers[site] = answer
    return answers


def shared_notes(notes: Optional[dict[tuple[int, ...], list[Any]]], key: tuple[int, ...],
                 size: int) -> Union[list[Any], tuple[()]]:
    """The regions' answers (`region_note`) kept under `key` in `notes`, the table
    that Results.scores gives every player's call of the score on one position
    (made here, `size` long, the first time); `()` without one (a call alone)."""
    if notes is None:
        return ()
    found = notes.get(key)
    if found is None:
        found = notes[key] = [None] * size
    return found


# (a kept path's bitmask, by the path's id, with the path and the bits it was made
# from: a path is a tuple, never changed, so an entry whose path is the one asked is
# its bitmask; bounded, emptied when full)
_PATH_BITS: dict[int, tuple[tuple[int, ...], Sequence[int], int]] = {}
PATH_BITS_KEPT = 4096


def meeting(mask: int, offsets: Sequence[tuple[int, int]]) -> int:
    """The bitmask of the sites whose entry of a table of bitmasks meets `mask`,
    the table given by its offsets (compilation/clearances.screened_sites): for
    each distance `d` from a site to a site of its entry, the bits of the
    entries' sites at that distance — one masked shift a distance instead of a
    test a site."""
    if not mask:
        return 0
    found = 0
    for offset, bits in offsets:
        met = mask & bits
        if met:
            found |= met >> offset if offset >= 0 else met << -offset
    return found


def meetings(mask: int, tables: tuple[tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...]]) -> list[int]:
    """`meeting` of `mask` for several tables at once (compilation/clearances.screened_sites):
    `tables` the offsets of any of them and, per table, for each of its offsets (by index)
    the sites having it — each shift made once for all the tables."""
    offsets, rows = tables
    if not mask:
        return [0] * len(rows)
    shifted = [mask >> offset if offset >= 0 else mask << -offset for offset in offsets]
    found = []
    for row in rows:
        sites = 0
        for index, having in row:
            sites |= shifted[index] & having
        found.append(sites)
    return found


_OFFSETS: dict[int, tuple[Sequence[int], tuple[tuple[int, int], ...]]] = {}
OFFSETS_KEPT = 256
MEETING_OFFSETS = 24  # (more: a table's entries asked one by one)


def meeting_table(mask: int, table: Sequence[int]) -> int:
    """`meeting` of a table of bitmasks given as it is (a clearance's places, by
    site): its offsets found once and kept by table — where they are more than
    `MEETING_OFFSETS`, the entries asked one by one."""
    kept = _OFFSETS.get(id(table))
    if kept is None or kept[0] is not table:
        offsets: dict[int, int] = {}
        for site, bits in enumerate(table):
            while bits > 0 and len(offsets) <= MEETING_OFFSETS:
                low = bits & -bits
                offset = low.bit_length() - 1 - site
                offsets[offset] = offsets.get(offset, 0) | low
                bits ^= low
        if len(_OFFSETS) >= OFFSETS_KEPT:
            _OFFSETS.clear()
        kept = _OFFSETS[id(table)] = (table, tuple(sorted(offsets.items())) if len(offsets) <= MEETING_OFFSETS else ())
    if not kept[1]:
        return sum(1 << site for site, bits in enumerate(table) if mask & bits)
    return meeting(mask, kept[1])


# (at most this many sites of a screen's landings asked one by one: more, its table's offsets shifted)
FEW_LANDINGS = 8


def meeting_within(mask: int, table: Sequence[int], within: int) -> int:
    """`meeting_table(mask, table) & within`: the sites of `within` whose entry of
    `table` meets `mask` — asked site by site where `within` holds few (the
    landings whose conjuncts hold, compilation/clearances.screen_body: most
    listings have none or one or two), else by the table's offsets."""
    if not within:
        return 0
    if within < 0 or within.bit_count() > FEW_LANDINGS or within.bit_length() > len(table):
        return meeting_table(mask, table) & within
    found = 0
    while within:
        low = within & -within
        if table[low.bit_length() - 1] & mask:
            found |= low
        within ^= low
    return found


def paths_missed(writes: int, *searches: Sequence[int]) -> bool:
    """Whether, for each search (the bitmasks of its kept paths that hold on
    the listed position: compilation/kept_paths.py), some path meets none of
    the sites `writes` (a candidate's places): then every search still finds
    its goal after the candidate, and its check need not be asked."""
    for paths in searches:
        for path in paths:
            if not path & writes:
                break
        else:
            return False
    return True


def path_bits(sites: Sequence[int], bits: Sequence[int]) -> int:
    """The bitmask of `sites` (a search's kept path: `keep_path`), `bits` each
    site's bit: made once for a path (a tuple) and kept with it."""
    if type(sites) is not tuple:
        mask = 0
        for site in sites:
            mask |= bits[site]
        return mask
    kept = _PATH_BITS.get(id(sites))
    if kept is not None and kept[0] is sites and kept[1] is bits:
        return kept[2]
    mask = 0
    for site in sites:
        mask |= bits[site]
    if len(_PATH_BITS) >= PATH_BITS_KEPT:
        _PATH_BITS.clear()
    _PATH_BITS[id(sites)] = (sites, bits, mask)
    return mask


def failing_sites(occupied: Sequence[Sequence[int]], board: Board, test: Callable[[Optional[Piece], int, int], Any],
                  p: int, q: int, bits: Sequence[int], holds: bool = True) -> int:
    """The bitmask of the occupied sites (the pieces' site lists) where `test`
    (a point test of the piece, the players) gives otherwise than `holds` (as a
    truth value)."""
    mask = 0
    for sites in occupied:
        for site in sites:
            if (not test(board[site], p, q)) is holds:
                mask |= bits[site]
    return mask


def on_full_line(board: Board, through: tuple[tuple[tuple[int, ...], ...], ...], site: int) -> bool:
    """Whether a line through `site` holds pieces of one owner on all its sites."""
    p = board[site]
    if p is None:
        return False
    owner = p[OWNER]
    for line in through[site]:
        for t in line:
            q = board[t]
            if q is None or q[OWNER] != owner:
                break
        else:
            return True
    return False


# Lines as bitmasks, grouped by a site each line of the group passes (its bit):
# (the fewest sites a line has, ((the group's site bit, (line, ...)), ...)).
LineGroups = tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]


def full_line(groups: LineGroups, bits: tuple[int, ...], sites: Sequence[int]) -> bool:
    """Whether one of the lines lies wholly in `sites` (one owner's, distinct;
    `bits[site]` each site's bit): none when the owner has fewer sites than a
    line has; else only the groups of lines whose common site is owned are
    looked at."""
    shortest, by_site = groups
    if len(sites) < shortest:
        return False
    owned = 0
    for held in sites:  # (distinct: their bits add up; see sites_mask)
        owned += bits[held]
    for site, lines in by_site:
        if owned & site:
            for line in lines:
                if owned & line == line:
                    return True
    return False


def piece_count(occ: list[list[int]]) -> int:
    """How many pieces stand on the board (`count(pieces)`)."""
    return sum(map(len, occ))


# (A track: see Track above.)
def ahead(track: Track, site: int, n: int) -> int:
    """The site n steps after `site` along the track, or -1 (beyond the end of a
    track that does not loop, or `site` not on it)."""
    sites, position, loop = track
    i = position[site]
    if i < 0 or n < 0:
        return -1
    j = i + n
    if j >= len(sites):
        if not loop:
            return -1
        j %= len(sites)
    return sites[j]


def along(track: Track, site: int, n: int, pos: Pos) -> tuple[int, ...]:
    """The n sites after `site` along the track, in order (a looping track goes
    round as often as n says; one that does not stops at its end)."""
    sites, position, loop = track
    i = position[site]
    if i < 0 or n <= 0:
        return ()
    if n > MAX_ALONG:
        raise RuleRuntimeError(pos, f"'along' over more than {MAX_ALONG} sites")
    end = i + 1 + n
    size = len(sites)
    if end <= size or not loop:
        return sites[i + 1 : end]
    if n <= size:  # round the end once
        return sites[i + 1 :] + sites[: end - size]
    return tuple(sites[(i + k) % size] for k in range(1, n + 1))


def player_after(player: int, places: int, players: int) -> int:
    """The player `places` places after `player` in turn order among the `players` in
    play (before it when negative), or -1 (none) when `player` is none."""
    return (player + places) % players if player >= 0 else -1


def steps_on(track: Track, site: int) -> int:
    """How many steps `site` is from the track's first site, or -1 when it is not on it."""
    return track[1][site]


def track_path(track: Track, site: int, n: int) -> Optional[tuple[int, tuple[int, ...]]]:
    """(the site n steps along the track from `site` or -1 beyond its end, the sites
    passed on the way) or None when `site` is not on the track or n < 1."""
    sites, position, loop = track
    i = position[site]
    if i < 0 or n < 1:
        return None
    size = len(sites)
    if i + n >= size and not loop:
        return -1, tuple(sites[i + 1 :])
    return sites[(i + n) % size], tuple(sites[(i + k) % size] for k in range(1, n))


def behind(track: Track, site: int, n: int) -> int:
    """The site n steps before `site` along the track (round a track that loops),
    or -1 (before the start of a track that does not loop, `site` not on it, n < 0)."""
    sites, position, loop = track
    i = position[site]
    if i < 0 or n < 0:
        return -1
    j = i - n
    if j < 0:
        if not loop:
            return -1
        j %= len(sites)
    return sites[j]


def track_to(track: Track, site: int, n: int) -> int:
    """The site n steps along the track from `site`, -1 beyond the end of a track
    that does not loop, -2 when `site` is not on the track or n < 1 (track_path
    without the sites passed, for a move that passes nothing it must check)."""
    sites, position, loop = track
    i = position[site]
    if i < 0 or n < 1:
        return -2
    j = i + n
    size = len(sites)
    if j >= size:
        if not loop:
            return -1
        j %= size
    return sites[j]


# The listing helpers below run while actions are listed, a hot path: they read
# codes by position (pieces.py): code[0] the case, [1] the origin, [2] the
# destination, [4] the choice and [5:] the values a notation shows (a code with a
# choice has all five fields).


def _rest(code: Code, uses: int) -> object:
    """What tells a code apart beyond its case, origin and destination (keys[case][3])."""
    return None if not uses else code[4] if uses == 1 else code[4:]


def notation_key(code: Code, keys: AlikeKeys) -> tuple[int, object, Optional[int], object]:
    """What tells the notation of `code` (`keys[case]`: template id, whether it
    shows from, to, and the rest; or a text key): two codes of one key write one
    notation."""
    tid, uses_from, uses_to, uses_rest = keys[code[0]]  # type: ignore[misc]  # (a case that is compared)
    if tid < 0:
        return tid, written_text(code, uses_from, uses_to), None, None  # type: ignore[arg-type]
    return tid, code[1] if uses_from else None, code[2] if uses_to else None, _rest(code, uses_rest)


def written_text(code: Code, template: tuple[str, ...], names: tuple[str, ...]) -> str:
    """The notation of a code whose template shows sites and literal text only (as
    engine.notation writes it)."""
    return "".join((names[code[1]] if code[1] != -1 else "") if part == "{from}" else
                   (names[code[2]] if code[2] != -1 else "off") if part == "{to}" else part for part in template)


def dedup(out: list[Code], start: int, keys: NotationKeys) -> None:
    """Keep the first of the codes in out[start:] that write the same notation
    (`keys[case]`: template id, whether it shows from, to, and the rest; a text key;
    None for a case never compared)."""
    seen = set()
    kept = []
    for code in out[start:]:
        entry = keys[code[0]]
        if entry is None:
            kept.append(code)
            continue
        tid, uses_from, uses_to, uses_rest = entry
        key = (tid, code[1] if uses_from else None, code[2] if uses_to else None,
               _rest(code, uses_rest) if uses_rest else None) if tid >= 0 else notation_key(code, keys)
        if key not in seen:
            seen.add(key)
            kept.append(code)
    if len(kept) != len(out) - start:
        del out[start:]
        out.extend(kept)


def dedup_alike(out: list[Code], keys: NotationKeys, compared: Sequence[int]) -> None:
    """`dedup` of the legal actions where the cases that may write one notation are
    compared after `forbid result` (`keys` theirs, None for the others; `compared[case]`
    1 where `keys[case]` is not None): only where two of those are left — the
    other cases' notations are written by no other code (compilation/decisions.py,
    `_clashes`; the decision's `alike_keys`, as playouts compare them)."""
    if sum(map(compared.__getitem__, map(_CASE, out))) > 1:
        dedup(out, 0, keys)


def drop_seen(out: list[Code], first: int, second: int, keys: NotationKeys) -> None:
    """One piece's actions: drop from out[second:] those whose notation one in
    out[first:second] already writes (the first action keeps it). All start from
    the same site, so the template and the landing site (and the choice) tell it
    (a text key: the text; a case never compared: nothing)."""
    seen = set()
    for code in out[first:second]:
        entry = keys[code[0]]
        if entry is not None:
            seen.add(_one_piece_key(code, entry, keys))
    kept = []
    for code in out[second:]:
        entry = keys[code[0]]
        if entry is None or _one_piece_key(code, entry, keys) not in seen:
            kept.append(code)
    if len(kept) != len(out) - second:
        del out[second:]
        out.extend(kept)


def _one_piece_key(code: Code, entry: Union[TemplateKey, TextKey], keys: NotationKeys) -> object:
    tid, _, uses_to, uses_rest = entry
    if tid < 0:
        return notation_key(code, keys)
    return tid, code[2] if uses_to else None, _rest(code, uses_rest) if uses_rest else None


_CASE = operator.itemgetter(CASE)
_LANDING = operator.itemgetter(DESTINATION)


def _lands_apart(out: list[Code], first: int, second: int) -> bool:
    """Whether no action of out[second:] lands where one of out[first:second]
    does: then nothing is dropped. The usual case, so it is told without a
    Python-level loop."""
    return set(map(_LANDING, out[first:second])).isdisjoint(map(_LANDING, out[second:]))


def make_code(table: list[list[Optional[Code]]], case: int, frm: int, to: int) -> Code:
    """table[frm][to], made on first use: the code (case, frm, to). Listing an
    action then reads its code instead of making a tuple that the next position
    throws away."""
    code = table[frm][to] = (case, frm, to)
    return code


# (a few codes ruled out are deleted from the whole list, each a move of the list's
# tail in C; more are left out by `compress` over the bits written out as 0s and 1s)
_FEW_BLOCKED = 8
_UNBLOCKED = bytes.maketrans(b"01", b"\x01\x00")


def listed_unblocked(out: list[Code], occ: list[list[int]], blocking: Sequence[int], codes: Sequence[Code]) -> None:
    """`out` extended by `codes` (in their order) but those a piece rules out:
    `blocking[site]` has bit i set where a piece at `site` rules out codes[i]. A
    drop's loop `for to in SITES: if b[to] is None and b[T[to]] is None ...:
    out.append(CODE)` in one step (compilation/unblocked_drops.py): few pieces
    stand where its tests read, so the pieces are asked, not the candidates."""
    blocked = 0
    for owned in occ:
        for site in owned:
            blocked |= blocking[site]
    _extended_unblocked(out, codes, blocked)


def listed_unblocked_pair(out: list[Code], occ: list[list[int]], blocking: Sequence[int], codes: Sequence[Code],
                          later: Sequence[Code]) -> int:
    """`listed_unblocked(out, occ, B1, codes)`, then `(out, occ, B2, later)`, the
    pieces walked once: `blocking[site]` is B1[site] | B2[site] << len(codes)
    (compilation/unblocked_drops.py: two drops' loops listed one after the other,
    nothing between them writing the board). Returns len(out) between the two."""
    blocked = 0
    for owned in occ:
        for site in owned:
            blocked |= blocking[site]
    width = len(codes)
    _extended_unblocked(out, codes, blocked & ((1 << width) - 1))
    middle = len(out)
    _extended_unblocked(out, later, blocked >> width)
    return middle


def unblocked_sites(occ: list[list[int]], blocking: Sequence[int], sites: tuple[int, ...]) -> Sequence[int]:
    """`sites` (in their order) but those a piece rules out: `blocking[site]` has
    bit i set where a piece at `site` rules out sites[i]. The landings a drop's
    loop whose tests ask emptiness around each landing goes on to (compilation/
    unblocked_drops.py: its body does more than append), found from the pieces."""
    blocked = 0
    for owned in occ:
        for site in owned:
            blocked |= blocking[site]
    if not blocked:
        return sites
    left: list[int] = []
    _extended_unblocked(left, sites, blocked)
    return left


def unblocked_bits(occ: list[list[int]], blocking: Sequence[int], every: int) -> int:
    """The bits of `every` (one a landing) that no piece rules out: `blocking[site]`
    the bits of the landings a piece at `site` rules out (compilation/
    unblocked_drops.py: a counting loop's landings, counted from these bits)."""
    blocked = 0
    for owned in occ:
        for site in owned:
            blocked |= blocking[site]
    return every & ~blocked


def screened_landings(unblocked: int, hit: int, landings: Sequence[int]) -> list[int]:
    """The landings (in their order) whose bit is in both `unblocked` and `hit`:
    those of a counting loop that its check must still ask."""
    hit &= unblocked
    found = []
    while hit:  # (one round a bit: at most len(landings))
        low = hit & -hit
        found.append(landings[low.bit_length() - 1])
        hit ^= low
    return found


def _extended_unblocked(out: list[Any], codes: Sequence[Any], blocked: int) -> None:
    """`out` extended by `codes` but codes[i] for each bit i of `blocked`."""
    if not blocked:
        out += codes
    elif blocked.bit_count() <= _FEW_BLOCKED:
        start = len(out)
        out += codes
        while blocked:  # (at most _FEW_BLOCKED rounds)
            last = blocked.bit_length() - 1
            del out[start + last]
            blocked ^= 1 << last
    else:
        written = format(blocked | 1 << len(codes), "b")[:0:-1]
        out += compress(codes, written.encode().translate(_UNBLOCKED))


def landings(out: list[Code], first: int, second: int, cases: frozenset[int]) -> set[int]:
    """The landing sites of the actions of `cases` in out[first:second]: those a
    later action of the piece, written alike, does not list again."""
    head = out[first:second]
    return set(map(_LANDING, compress(head, map(cases.__contains__, map(_CASE, head)))))


def drop_landing(out: list[Code], first: int, second: int, cases: frozenset[int]) -> None:
    """drop_seen when the notations of out[second:] are told apart by the landing
    site alone: drop those landing where an action of `cases` in
    out[first:second] lands."""
    # (iterators of C functions: no Python-level loop over what may be many actions)
    seen = landings(out, first, second, cases)
    if seen:
        tail = out[second:]
        kept = list(compress(tail, map(operator.not_, map(seen.__contains__, map(_LANDING, tail)))))
        if len(kept) != len(tail):
            out[second:] = kept


def drop_landing_alike(out: list[Code], first: int, second: int, notation: tuple[int, ...]) -> None:
    """drop_landing when the second action's cases write several notations:
    `notation[case]` numbers the notation of a case (-1: one the second action
    never writes); an action is dropped when one before wrote its notation and
    landed where it lands."""
    if _lands_apart(out, first, second):
        return
    seen = {(notation[code[0]], code[2]) for code in out[first:second] if notation[code[0]] >= 0}
    if seen:
        out[second:] = [code for code in out[second:] if (notation[code[0]], code[2]) not in seen]


def board_key(board: Board) -> int:
    """The key of a board alone (what stands on every site), `State.board_key`: the
    XOR of `hash((site, piece))` over its occupied sites (Zobrist hashing; an empty
    site adds nothing), so that a write changes it by at most two XORs
    (compilation/board_keys.py). Equal boards have equal keys; two boards with one
    key are told apart by `State.count_board`."""
    key = 0
    for site, piece in enumerate(board):
        if piece is not None:
            key ^= hash((site, piece))
    return key


def empty_sites(board: Board) -> list[int]:
    """The sites holding nothing, in board order (not the entry of "no site"):
    `State.empty` made again from the board (compilation/board_keys.py)."""
    return [site for site in range(len(board) - 1) if board[site] is None]


def board_repetitions(s: State) -> int:
    """`board repetitions`: how many turns so far started with the board as it stands."""
    return s.board_count()


def hits(inverse: tuple[int, ...], rows: tuple[tuple[int, ...], ...], within: int, mask: int) -> int:
    """The values whose table's mask meets `mask`: `inverse[bit]` the values whose
    mask holds `bit`, `rows[n][byte]` those whose mask holds a bit of `byte` as the
    n-th byte of a mask, `within` every bit some value's mask holds
    (compilation/counted_masks.py). A bit at a time when `mask` has few, else a byte
    at a time."""
    found = 0
    mask &= within
    if mask.bit_count() <= FEW_BITS:
        while mask:
            low = mask & -mask
            found |= inverse[low.bit_length() - 1]
            mask ^= low
        return found
    for row, byte in zip(rows, mask.to_bytes(len(rows), "little")):
        if byte:
            found |= row[byte]
    return found


# (hits: up to this many bits, read one at a time)
FEW_BITS = 8


def counted_over(most: int, count: int, width: int, packed: int) -> int:
    """The values (bits below `width`) held by more than `most` of the `count` masks
    packed in `packed`, the n-th from bit n * width (compilation/counted_masks.py)."""
    every = (1 << width) - 1
    if most == 1:  # ("at most one": the values held by two masks or more, without a list)
        one = two = 0
        for _ in range(count):
            mask = packed & every
            packed >>= width
            two |= one & mask
            one |= mask
        return two
    at_least = [-1] + [0] * (most + 1)  # (at_least[n]: the values held by n masks or more)
    for _ in range(count):
        mask = packed & every
        packed >>= width
        for n in range(most + 1, 0, -1):
            at_least[n] |= at_least[n - 1] & mask
    return at_least[most + 1]


def hit(counts: list[int], probe: int) -> bool:
    """Count a coverage probe inside a condition (returns True)."""
    counts[probe] += 1
    return True


def clear(board: Board, occ: list[list[int]], site: int) -> None:
    """Take whatever stands on `site` off the board."""
    piece = board[site]
    if piece is not None:
        board[site] = None
        occ[piece[OWNER]].remove(site)


def clear_all(board: Board, occ: list[list[int]]) -> None:
    """`for site in tuple(all_pieces(occ)): clear(board, occ, site)` in one step:
    every piece taken off the board, each list of sites emptied (the neutral
    pieces' mask, where kept, left empty as `remove` leaves it)."""
    for owned in occ:
        if owned:
            for site in owned:
                board[site] = None
            if type(owned) is list:
                owned.clear()
            else:
                mask = owned.mask  # type: ignore[attr-defined]  # (the neutral pieces' MaskedSites)
                owned.clear()
                owned.mask = None if mask is None else 0  # type: ignore[attr-defined]


def replace(board: Board, occ: list[list[int]], site: int, piece: Piece) -> None:
    """Put `piece` on `site` in place of what stands there (possibly of another owner)."""
    old = board[site]
    board[site] = piece
    if old is None:
        occ[piece[OWNER]].append(site)
    elif old[OWNER] != piece[OWNER]:
        occ[old[OWNER]].remove(site)
        occ[piece[OWNER]].append(site)


def clear_kept(board: Board, occ: list[list[int]], site: int, board_journal: list[Any],
               sites_journal: list[tuple[Any, ...]]) -> None:
    """`clear`, journaled as compilation/journal.py journals the board and the site lists."""
    piece = board[site]
    if piece is not None:
        board_journal += (site, piece)
        board[site] = None
        sites = occ[piece[OWNER]]
        sites_journal.append((sites, site, sites.index(site)))
        sites.remove(site)


def replace_kept(board: Board, occ: list[list[int]], site: int, piece: Piece, board_journal: list[Any],
                 sites_journal: list[tuple[Any, ...]]) -> None:
    """`replace`, journaled as compilation/journal.py journals the board and the site lists."""
    old = board[site]
    board_journal += (site, old)
    board[site] = piece
    if old is None or old[OWNER] != piece[OWNER]:
        if old is not None:
            sites = occ[old[OWNER]]
            sites_journal.append((sites, site, sites.index(site)))
            sites.remove(site)
        sites = occ[piece[OWNER]]
        sites.append(site)
        sites_journal.append((sites, site))


def sites_mask(bits: tuple[int, ...], sites: Iterable[int]) -> int:
    """The bitmask of `sites` (distinct: their bits add up), `bits[site]` being
    each site's bit, `1 << site`: the mask a `MaskedSites` keeps, which is made
    here when not known and read when it is."""
    if type(sites) is MaskedSites:
        mask = sites.mask
        if mask is None:
            mask = sites.mask = sum(map(bits.__getitem__, sites))
        return mask
    return sum(map(bits.__getitem__, sites))


def bits_added(bits: tuple[int, ...], sites: Iterable[int]) -> int:
    """The bitmask of `sites` (distinct), as `sites_mask` without a kept mask: the
    owner's sites a line test reads (compilation/site_masks.py), a handful, for which
    a loop is a fifth faster than `sum(map(bits.__getitem__, sites))` (a method-wrapper
    call a site)."""
    mask = 0
    for held in sites:
        mask += bits[held]
    return mask


def occupied_mask(bits: tuple[int, ...], occ: list[list[int]]) -> int:
    """The bitmask of the sites of every piece (the neutral ones' too)."""
    if type(occ[0]) is MaskedSites:
        mask = 0
        for sites in occ:
            mask |= sites_mask(bits, sites)
        return mask
    return sum(map(bits.__getitem__, chain.from_iterable(occ)))


def empty_counter(sites: tuple[int, ...], size: int) -> Callable[[State], int]:
    """How many of `sites` (distinct, of a board of `size` sites) are empty in a
    position: where it has few pieces (or `sites` are all the board's), those not
    on them taken from all (every piece's site is in one of `State.occ`'s lists,
    exactly once); else the board's entries at them counted by the list's own
    `count` (a run of sites as a slice)."""
    first, last, whole = sites[0], sites[-1], len(sites)
    few = whole // 8
    inside = [0] * (size + 1)
    for site in sites:
        inside[site] = 1
    on_sites = tuple(inside).__getitem__
    if sites == tuple(range(first, last + 1)):
        def empty_of_board(board: Board) -> int:
            return board[first:last + 1].count(None)
    elif whole == 1:
        def empty_of_board(board: Board) -> int:
            return int(board[first] is None)
    else:
        read = operator.itemgetter(*sites)

        def empty_of_board(board: Board) -> int:
            return read(board).count(None)  # type: ignore[no-any-return]

    def empty(s: State) -> int:
        occ = s.occ
        if sum(map(len, occ)) <= few:
            return whole - sum(map(on_sites, chain.from_iterable(occ)))
        return empty_of_board(s.board)

    def empty_anywhere(s: State) -> int:
        return whole - sum(map(len, s.occ))
    # (every site of the board: those of no piece)
    return empty_anywhere if whole == size else empty


def empty_counters(listed: tuple[tuple[int, ...], ...], size: int) -> Callable[[State], int]:
    """How many actions a lister of one action for each empty site of each of
    `listed`'s site sets lists (compilation/listed_at_once.empty_sites_listed): the
    empty sites of each distinct set counted once, times the sets alike."""
    alike: dict[tuple[int, ...], int] = {}
    for sites in listed:
        alike[sites] = alike.get(sites, 0) + 1
    counters = [(empty_counter(sites, size), times) for sites, times in alike.items()]
    if len(counters) == 1:
        count, times = counters[0]
        if times == 1:
            return count
        return lambda s: count(s) * times
    return lambda s: sum(count(s) * times for count, times in counters)


def fixed_counter(lister: Callable[[State], Sequence[Code]]) -> Callable[[State], int]:
    """The number of actions of a lister that lists the same ones in every position
    (it reads nothing of it: compilation/known_children.fixed_listing), listed once,
    at the first count (nothing generated runs while compiling)."""
    known: list[int] = []

    def count(s: State) -> int:
        if not known:  # (two threads at once list the same actions)
            known.append(len(lister(s)))
        return known[0]
    return count


def kind_mask(bits: tuple[int, ...], occ: Sequence[list[int]], board: Board, kind: int) -> int:
    """The bitmask of the sites of every piece of `kind` (`board[site][KIND] ==
    kind`) on the site lists `occ`: every owner's, or one player's alone."""
    mask = 0
    for sites in occ:
        for site in sites:
            if board[site][KIND] == kind:  # type: ignore[index]
                mask |= bits[site]
    return mask


def others_mask(bits: tuple[int, ...], occ: list[list[int]], player: int) -> int:
    """The bitmask of the sites of every player's pieces but `player`'s (the last
    list of `occ`, the neutral pieces', is no player's)."""
    mask = 0
    for owner in range(len(occ) - 1):
        if owner != player:
            mask |= sites_mask(bits, occ[owner])
    return mask


def trial(s: State) -> State:
    """A copy of `s` to try a case on (a `forbid result` check whose case the
    journal does not cover, compilation/journal.py)."""
    return s.copy(trial=True)


def undo_sites(journal: list[tuple[Any, ...]]) -> None:
    """Undo the changes of site lists a check tried in place made, last first:
    `(sites, site, index)` was removed from `index`, `(sites, site)` appended.
    Each list gets its order back, and the neutral pieces' bitmask (when it is
    known) its bits and their string its characters, as `MaskedSites.append` and
    `remove` keep them."""
    while journal:
        entry = journal.pop()
        sites = entry[0]
        site = entry[1]
        if len(entry) == 2:
            list.pop(sites)
            if type(sites) is MaskedSites:
                if sites.chars is not None:
                    sites.chars = sites.chars[:-1]
                if sites.mask is not None:
                    sites.mask &= ~(1 << site)
        else:
            at = entry[2]
            list.insert(sites, at, site)
            if type(sites) is MaskedSites:
                chars = sites.chars
                if chars is not None:
                    sites.chars = chars[:at] + chr(site) + chars[at:]
                if sites.mask is not None:
                    sites.mask |= 1 << site


def in_turn(first: ResultCheck, then: Optional[ResultCheck]) -> ResultCheck:
    """A check of a candidate that asks `first` and, when that lets it pass,
    `then` (None: nothing more)."""
    if then is None:
        return first

    def check(s: State, code: Code, memo: Any = None) -> int:
        # (`memo`: a listing's, for `then`: compilation/result_reuse.py)
        return first(s, code) or then(s, code, memo)
    return check


# The fewest candidates a listing reuses the listed position's answers for.
MEMO_FROM = 3


# (a listing's memo's default, no answer yet: None, made by the C-level NoneType
# rather than a Python function — a frame fewer at every listing's first question)
_no_answer: Callable[[], None] = type(None)


# The point tests a part asked of the listed position, by site: (test, whether it
# held) (compilation/result_reuse.py).
PointTests = dict[int, list[tuple[Callable[..., Any], bool]]]
# A listed position's answer of a part: (answer, the bitmask of the sites read,
# the bitmask of the sites read by point tests alone, those tests, the bitmask of
# the unsettled sites: where one of them would give otherwise on an empty site or
# reads more of the piece than its owner and kind).
ParentEntry = tuple[Any, int, int, PointTests, int]
# A point test as a recording notes it: (site, test, what it gave, whether it reads
# the owner and kind alone, what it gives on an empty site then).
TestNote = tuple[int, Callable[..., Any], Any, bool, Any]


def parent_answer(memo: dict[int, Optional[ParentEntry]], slot: int,
                  record: Callable[[State], tuple[Any, int, list[TestNote]]],
                  s: State, anchor: Any = NOT_KEPT, lists: Sequence[int] = (),
                  lone: bool = False) -> Optional[ParentEntry]:
    """The answer of a `forbid result` part on the listed position `s`, the
    bitmask of the sites it read (made by the recording itself) and the tests
    of one site's piece it asked (compilation/result_reuse.py), found once per
    listing and kept in `memo`
    under `slot`; None (each candidate asks) where asking the listed position
    fails — a rule may fail there and not after an action, which is all the
    checks ask about. With `anchor` (the part's anchor function, or None: a part
    reading no variable; `lists`: the site lists its loops walk), the entry is
    kept for the listings after it (runtime/kept_answers.py)."""
    if anchor is not NOT_KEPT:
        kept = kept_entry(record, s, anchor, lists)
        if kept is not None:
            memo[slot] = kept
            return kept
    try:
        answer, read, notes = record(s)
    except (RuleRuntimeError, ArithmeticError, LookupError, TypeError, ValueError):
        return None
    tested, unsettled = noted_masks(notes, read)
    entry = memo[slot] = (answer, read, tested, _NotedTests(notes, read), unsettled)
    if anchor is not NOT_KEPT:
        keep_entry(record, s, entry, anchor, lists, lone)
    return entry


class _NotedTests(dict):  # type: ignore[type-arg]  # (a PointTests)
    """The point tests of `parent_answer`'s entry by site, sorted out of the
    recording's notes when one is first looked up: most listings let every
    candidate through on the bitmasks alone and look up none."""

    __slots__ = ("notes", "read")

    def __init__(self, notes: list[TestNote], read: int):
        # (empty as made: dict's own __init__ not called, it would add nothing)
        self.notes: Sequence[TestNote] = notes
        self.read = read

    def __missing__(self, site: int) -> list[tuple[Callable[..., Any], bool]]:
        read = self.read
        for noted_site, test, held, _, _ in self.notes:
            if noted_site >= 0 and not read >> noted_site & 1:
                noted = dict.get(self, noted_site)
                if noted is None:
                    dict.__setitem__(self, noted_site, [(test, not not held)])
                else:
                    noted.append((test, not not held))
        self.notes = ()
        return dict.__getitem__(self, site)


def tests_hold(entry: ParentEntry, board: Board, sites: Sequence[int], p: int, q: int) -> bool:
    """Whether every point test the listed position's answer `entry` asked of
    a site among `sites` gives what it gave there on `board` as it is now."""
    tests = entry[3]
    for site in sites:
        if entry[2] >> site & 1:
            piece = board[site]
            for test, held in tests[site]:
                if (not not test(piece, p, q)) is not held:
                    return False
    return True


def tests_hold_moving(entry: ParentEntry, sites: Sequence[int], mover: Piece, p: int, q: int) -> bool:
    """Whether every point test `entry` asked of a site among `sites` — each
    settled: reading the owner and kind alone, and giving on an empty site
    what it gave — gives it too with a piece of the owner and kind of `mover`
    there (all a move answered before it is played may put there besides
    nothing: result_reuse.writes_of_mover)."""
    tests = entry[3]
    for site in sites:
        if entry[2] >> site & 1:
            for test, held in tests[site]:
                if (not not test(mover, p, q)) is not held:
                    return False
    return True


def moving_failures(entry: ParentEntry, pieces: Sequence[Piece], p: int, q: int) -> int:
    """The bitmask of the settled point-tested sites of `entry` (tested, not
    unsettled: each test there reads the owner and kind alone and gives on an
    empty site what it gave) where a test gives otherwise with one of `pieces`
    there than it gave — the sites `tests_hold_moving` would refuse for a mover
    of one of their owners and kinds (a move's clearance, compilation/cases.py,
    `_move_clearance_function`). One that fails marks every settled site. The
    last answer is kept: a listing's clearances ask it of the same entry; and
    the last pieces' table of what the tests give (`_GIVEN`), which the next
    listing asks again."""
    last = _last_failures
    if last[0] is entry and last[1] is pieces and last[2] == p:
        return last[3]  # type: ignore[no-any-return]
    settled = entry[2] & ~entry[4]
    failing = 0
    if settled:
        tests = entry[3]
        if last[4] is pieces and last[5] == p and last[6] == q:
            given = last[7]
        else:
            kept = _GIVEN.get((id(pieces), p, q))
            if kept is None or kept[0] is not pieces:
                if len(_GIVEN) >= GIVEN_KEPT:
                    _GIVEN.clear()
                kept = _GIVEN[id(pieces), p, q] = (pieces, {})
            given = kept[1]
            last[4:8] = pieces, p, q, given
        try:
            if isinstance(tests, MaskedTests):
                for masked in tests.masked:  # (test, held at, failed at, on an empty site)
                    gives = given.get(masked[0]) or _given(given, masked[0], pieces, p, q)
                    if gives & 1:
                        failing |= masked[2]
                    if gives & 2:
                        failing |= masked[1]
                notes: Iterable[Sequence[Any]] = tests.notes
            elif isinstance(tests, _NotedTests) and tests.notes:
                notes = tests.notes
            else:  # (sorted by site already)
                notes = [(site, test, held) for site, found in tests.items() for test, held in found]
            for note in notes:  # ((site, test, what it gave, ...))
                site = note[0]
                if site >= 0 and settled >> site & 1 and \
                        (given.get(note[1]) or _given(given, note[1], pieces, p, q)) & (2 if note[2] else 1):
                    failing |= 1 << site
        except Exception:  # (a test failing on a piece: every site asked as before)
            failing = settled
        failing &= settled
    last[0] = entry  # (the list kept, not rebound: a module's globals stay put)
    last[1] = pieces
    last[2] = p
    last[3] = failing
    return failing


# (moving_failures' last entry, pieces, player and answer; the last pieces, players
# and what the tests give with them: `_GIVEN`'s)
_last_failures: list[Any] = [None, None, None, 0, None, None, None, None]
# (by the ids of the pieces and the players: the pieces and, by test, what it
# gives with them (`_given`); an entry whose pieces are the ones asked is theirs;
# bounded, emptied when full)
_GIVEN: dict[tuple[int, int, Any], tuple[Sequence[Piece], dict[Callable[..., Any], int]]] = {}
GIVEN_KEPT = 8


def _given(given: dict[Callable[..., Any], int], test: Callable[..., Any], pieces: Sequence[Piece],
           p: int, q: int) -> int:
    """1 where `test` holds with one of `pieces`, | 2 where it fails with one (kept in `given`)."""
    gives = 0
    for piece in pieces:
        gives |= 1 if test(piece, p, q) else 2
    if len(given) < 4096:
        given[test] = gives
    return gives


def tests_hold_placing(entry: ParentEntry, placed: Sequence[tuple[int, Optional[Piece]]], p: int, q: int) -> bool:
    """Whether every point test `entry` asked of a site among those of `placed`
    ((site, piece) pairs: the writes a drop's code may make, told before it
    runs) gives what it gave with that piece there. Exact without the tests
    being settled: the piece each write puts is known, and a write that does
    not happen leaves the piece the test was asked of. The checks of a listing
    ask it of one entry with a few pieces: each piece's sites where a test gives
    otherwise (`placing_failures`) are found once and kept for the last entry."""
    tested = entry[2]
    last = _last_placing
    if last[0] is not entry or last[1] != p or last[2] != q:
        last[0] = entry  # (the list kept, not rebound: a module's globals stay put)
        last[1] = p
        last[2] = q
        last[3] = {}
    failing: dict[Optional[Piece], int] = last[3]
    try:
        for site, piece in placed:
            if site >= 0 and tested >> site & 1:
                mask = failing.get(piece)
                if mask is None:
                    mask = failing[piece] = placing_failures(entry, piece, p, q)
                if mask >> site & 1:
                    return False
    except Exception:  # (an unhashable piece, a test failing on it: each site asked alone, as it would fail)
        return _tests_hold_placed(entry, placed, p, q)
    return True


# (tests_hold_placing's last entry and players, and by piece the sites where a test gives otherwise with it)
_last_placing: list[Any] = [None, None, None, {}]


def placing_failures(entry: ParentEntry, piece: Optional[Piece], p: int, q: int) -> int:
    """The bitmask of the sites `entry` tested (not read) where a point test
    gives otherwise with `piece` there than it gave: the sites where
    `tests_hold_placing` refuses that piece. Raises what a test raises."""
    tests = entry[3]
    failing = 0
    notes: Iterable[Sequence[Any]]
    if isinstance(tests, MaskedTests):
        for test, held_at, failed_at, _ in tests.masked:
            failing |= failed_at if test(piece, p, q) else held_at
        notes = tests.notes
    elif isinstance(tests, _NotedTests) and tests.notes:
        notes = tests.notes
    else:  # (sorted by site already)
        notes = [(site, test, held) for site, found in tests.items() for test, held in found]
    for note in notes:  # ((site, test, what it gave, ...))
        if note[0] >= 0 and (not not note[1](piece, p, q)) is not (not not note[2]):
            failing |= 1 << note[0]
    return failing & entry[2]


def _tests_hold_placed(entry: ParentEntry, placed: Sequence[tuple[int, Optional[Piece]]], p: int, q: int) -> bool:
    """`tests_hold_placing` asking each test of the places alone."""
    tests = entry[3]
    tested = entry[2]
    for site, piece in placed:
        if site >= 0 and tested >> site & 1:
            for test, held in tests[site]:
                if (not not test(piece, p, q)) is not held:
                    return False
    return True


def answer_kept(entry: ParentEntry, board: Board, journal: Sequence[Any],
                anchor: Optional[Callable[[int, Optional[Piece], int, int], bool]], p: int, q: int) -> bool:
    """Whether the sites on a check's board journal ((site, piece before) pairs)
    leave a part's answer on the listed position as it was
    (compilation/result_reuse.py): none was read, every point test asked there
    gives what it gave, and none holds now a piece the part's loops would visit
    (`anchor`)."""
    read = entry[1]
    tested = entry[2]
    for i in range(0, len(journal), 2):
        site = journal[i]
        if read >> site & 1 or anchor is not None and anchor(site, board[site], p, q):
            return False
        if tested >> site & 1 and not tests_hold(entry, board, (site,), p, q):
            return False
    return True


def result_filter(
    s: State, out: list[Code], checks: Sequence[Optional[ResultCheck]], counts: list[int] | None = None
) -> None:
    """Keep in `out` the codes whose resulting position no `forbid result` forbids:
    each is played on a copy of `s` by its check, which says whether a forbid
    applies there. Coverage counts (when given) are kept as they were — checking
    is not playing — but for the `forbid result` lines themselves: each counts the
    actions it rejected (its check returns its probe plus one)."""
    # (a case without a check: nothing can forbid it)
    # the listed position's answers, found by the first check that asks (compilation/result_reuse.py);
    # not worth finding for one or two candidates
    memo: Optional[defaultdict[int, Optional[tuple[Any, int]]]] = \
        defaultdict(_no_answer) if len(out) > MEMO_FROM - 1 else None
    if memo is not None and type(checks) is ClearedChecks:
        if counts is None and checks.distinct:
            # (moves whose places miss what the listed position's answers read: not asked)
            let_through(s, out, checks, memo)
            return
        # (drops whose writes leave the listed position's answers: not asked; runtime/clearances.py)
        saved = counts[:] if counts is not None else None
        rejected = sift(s, out, checks, memo)
        if counts is not None and saved is not None:
            counts[:] = saved
            count_rejections(counts, rejected)
        return
    if counts is None:
        out[:] = [code for code in out if (check := checks[code[0]]) is None or not check(s, code, memo)]
        return
    saved = counts[:]
    kept = []
    rejected = []
    for code in out:
        check = checks[code[0]]
        line = check(s, code, memo) if check is not None else 0
        if line:
            rejected.append(line)
        else:
            kept.append(code)
    out[:] = kept
    counts[:] = saved
    count_rejections(counts, rejected)


def result_filter_runs(s: State, out: list[Code], checks: Sequence[Optional[ResultCheck]],
                       runs: tuple[tuple[int, ...], ...], ends: Sequence[int], ordered: tuple[int, ...] = ()) -> None:
    """`result_filter` (no coverage counts) told by the lister where each case's
    candidates stand in `out` (compilation/listed_runs.py: by stretch of `out`,
    the cases it may hold; where each but the last ends): `sift` passes over
    the stretches of cases without a check and takes a one-case stretch whole
    (`ordered`: the stretches whose candidates stand in ascending order of landing)."""
    if type(checks) is ClearedChecks and not checks.distinct and len(out) > MEMO_FROM - 1:
        sift_runs(s, out, checks, defaultdict(_no_answer), runs, ends, ordered)
        return
    result_filter(s, out, checks)


def count_rejections(counts: list[int], rejected: Iterable[int]) -> None:
    """Count, for each action a `forbid result` rejected, the line that did (each
    entry its probe plus one, as the checks return it)."""
    for line in rejected:
        counts[line - 1] += 1


# The helpers under the names generated code uses.
NAMESPACE: dict[str, Callable[..., Any]] = {
    "h_sites": sites,
    "h_parent_answer": parent_answer,
    "h_result_filter_runs": result_filter_runs,
    "h_landed": landed,
    "h_parent_answer_terms": partial(terms.parent_answer_terms, parent_answer),
    "h_parent_answer_terms_masked": terms.parent_answer_terms_masked,
    "h_terms_hold": terms.terms_hold,
    "h_terms_hold_placed": terms.terms_hold_placed,
    "h_parent_answer_masked": parent_answer_masked,
    "h_answer_kept": answer_kept,
    "h_answer_for_opponent": answer_for_opponent,
    "h_tests_hold": tests_hold,
    "h_tests_hold_moving": tests_hold_moving,
    "h_tests_hold_placing": tests_hold_placing,
    "h_moving_failures": moving_failures,
    "h_union": union,
    "h_first": first,
    "h_last": last,
    "h_nth": nth,
    "h_drawn_member": drawn_member,
    "h_nth_sorted": nth_sorted,
    "h_minus": minus,
    "h_without": without,
    "h_with_site": with_site,
    "h_with_site_distinct": with_site_distinct,
    "h_first_but": first_but,
    "h_all_pieces": all_pieces,
    "h_random_piece": random_piece,
    # The sites of every piece as they are iterated, without a list made first: for
    # the loops of conditions, which change no position (or stop once they have).
    "h_each_piece": chain.from_iterable,
    "h_floordiv": floordiv,
    "h_divide": divide,
    "h_mod": mod,
    "h_bounded": bounded,
    "h_one_direction": one_direction,
    "h_sum": total,
    "h_max": largest,
    "h_min": smallest,
    "h_unique_max": unique_max,
    "h_group": group,
    "h_flood": flood,
    "h_flood_steps": flood_steps,
    "h_cut_table": dict,  # (a lister's: site -> Cuts)
    "h_cut_structure": cut_structure,
    "h_count_without": count_without,
    # Marks by site for a search written out in generated code (bytearray(n)).
    "h_unmarked": bytearray,
    "h_marks": marks,
    "h_path": path,
    "h_keep_path": keep_path,
    "h_region_note": region_note,
    "h_shared_notes": shared_notes,
    "h_path_bits": path_bits,
    "h_paths_missed": paths_missed,
    "h_meetings": meetings,
    "h_meeting_table": meeting_table,
    "h_meeting_within": meeting_within,
    "h_failing_sites": failing_sites,
    "h_on_full_line": on_full_line,
    "h_full_line": full_line,
    "h_piece_count": piece_count,
    "h_fail": fail,
    "h_dedup": dedup,
    "h_dedup_alike": dedup_alike,
    "h_drop_seen": drop_seen,
    "h_drop_landing": drop_landing,
    "h_landings": landings,
    "h_make_code": make_code,
    "h_drop_landing_alike": drop_landing_alike,
    "h_ahead": ahead,
    "h_behind": behind,
    "h_along": along,
    "h_steps_on": steps_on,
    "h_player_after": player_after,
    "h_track_path": track_path,
    "h_track_to": track_to,
    "h_result_filter": result_filter,
    "h_trial": trial,
    "h_undo_sites": undo_sites,
    "h_sites_mask": sites_mask,
    "h_bits_added": bits_added,
    "h_board_key": board_key,
    "h_empty_sites": empty_sites,
    # (the builtins, for the empty sites kept in board order: compilation/board_keys.py)
    "h_bisect": bisect_left,
    "h_insort": insort_left,
    # the groups and their liberties (runtime/chains.py, compilation/liberties.py)
    "h_liberties": liberties,
    "h_chains_wrote": chains_wrote,
    "h_chains_stones_wrote": chains_stones_wrote,
    "h_chains_cleared": chains_cleared,
    "h_chains_stones_cleared": chains_stones_cleared,
    "h_chains_forget": chains_forget,
    "h_group_kept": group_kept,
    "h_group_mask": stones,
    # a flood's sites found as bitmasks (runtime/dilation.py, compilation/masked_reach.py)
    "h_reach": dilated_reach,
    # (the builtin, for the key's updates: compilation/board_keys.py)
    "h_hash": hash,
    "h_others_mask": others_mask,
    "h_occupied_mask": occupied_mask,
    "h_kind_mask": kind_mask,
    "h_hit": hit,
    "h_hits": hits,
    "h_counted_over": counted_over,
    "h_board_repetitions": board_repetitions,
    "h_clear": clear,
    "h_clear_all": clear_all,
    "h_listed_unblocked": listed_unblocked,
    "h_listed_unblocked_pair": listed_unblocked_pair,
    "h_unblocked_sites": unblocked_sites,
    "h_unblocked_bits": unblocked_bits,
    "h_screened_landings": screened_landings,
    "h_replace": replace,
    "h_clear_kept": clear_kept,
    "h_replace_kept": replace_kept,
    "h_walk_ends": walks.walk_ends,
    # rotate, cycle and single stones of stacks (runtime/moves.py)
    "h_permute": moves.permute,
    "h_followed": moves.followed,
    "h_rotation": moves.rotation,
    "h_cycle": moves.cycle_moves,
    "h_lift_one": moves.lift_one,
    "h_land_one": moves.land_one,
    "h_move_one": moves.move_one,
}
