"""Board geometry compiled into index tables: sites, rays along directions, adjacency.

Sites are numbered 0..n-1. "No site" is -1 everywhere in the runtime; every
per-site table has one extra trailing entry so that indexing it with -1 is safe
and yields the neutral value.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from ..loading.option_numbers import read_option_number

# Grid directions as (file delta, rank delta), clockwise from north.
GRID_DIRECTIONS = {
    "n": (0, 1),
    "ne": (1, 1),
    "e": (1, 0),
    "se": (1, -1),
    "s": (0, -1),
    "sw": (-1, -1),
    "w": (-1, 0),
    "nw": (-1, 1),
}
DIRECTION_NAMES = tuple(GRID_DIRECTIONS)
OPPOSITE = {d: DIRECTION_NAMES[(i + 4) % 8] for i, d in enumerate(DIRECTION_NAMES)}

# Absolute direction sets every grid game can name.
ABSOLUTE_SETS = {
    "orthogonal": ("n", "e", "s", "w"),
    "diagonal": ("ne", "se", "sw", "nw"),
    "all": DIRECTION_NAMES,
}

# Direction sets relative to a player's forward direction, as offsets in eighths
# of a turn clockwise from forward.
RELATIVE_SETS = {
    "forward": (0,),
    "backward": (4,),
    "left": (6,),
    "right": (2,),
    "sideways": (6, 2),
    "forward_diagonal": (7, 1),
    "backward_diagonal": (5, 3),
}

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# A region rule's rank or file counted from the far edge (`last`, `last - 1`,
# `last - (size - 1)`): the same line of the board at every size an option gives it.
_FROM_LAST = re.compile(r"last\b.*")
# A rank or file counted on from another with options (`1 + (size - 4) // 2`, `c + k`).
_COUNTED_ON = re.compile(r"(?P<line>[0-9]{1,2}|[a-z])\s*\+\s*(?P<more>.+)")
# Every K-th rank or file from one to another (`1 to last by 2`, `b to last - 1`).
_SPAN = re.compile(r"(?P<first>.+?)\s+to\s+(?P<last>.+?)(?:\s+by\s+(?P<step>.+))?")


def line_index(value: Any, count: int, letters: bool, options: Optional[Mapping[str, Any]] = None) -> int:
    """The 0-based index of a region rule's rank (a number from 1, `letters` False)
    or file (a letter), or of `last`, `last - K` or `last` with options (`last - (size
    - 1)`; `last` is the number of the last of `count`), or of one counted on from a
    rank or file with options (`1 + (size - 4) // 2`), among `count` of them; -1 for
    none of the board's (or a value of neither form: the schema has said so). A ValueError
    says what is wrong with a text that uses `last` and options."""
    index = _line_number(value, count, letters, options) - 1
    return index if 0 <= index < count else -1


def line_indices(value: Any, count: int, letters: bool, options: Optional[Mapping[str, Any]] = None) -> list[int]:
    """The 0-based indices a region rule's rank or file chooses among `count`: one
    (`line_index`), or every K-th from one to another, both ends included where K
    lands on them (`1 to last by 2`, `b to last`; the ends as one rank or file is
    written, K a whole number or written with options). None the board lacks."""
    span = _SPAN.fullmatch(str(value).strip()) if isinstance(value, str) else None
    if span is None:
        index = line_index(value, count, letters, options)
        return [index] if index >= 0 else []
    first, last = (_line_number(span.group(end), count, letters, options) for end in ("first", "last"))
    if first == 0 or last == 0:
        raise ValueError(f"'{value}': each end is a {'file letter' if letters else 'rank number'} or `last ...`")
    step = read_option_number(span.group("step")).value(options or {}) if span.group("step") else 1
    if step < 1:
        raise ValueError(f"'{value}': `by` takes every K-th line, and K is {step} here (1 or more)")
    return [i - 1 for i in range(max(first, 1), min(last, count) + 1, 1) if (i - first) % step == 0]


def backward_span(value: Any, count: int, letters: bool,
                  options: Optional[Mapping[str, Any]] = None) -> Optional[str]:
    """Where `value` is a span whose first end comes after its last (`c to a`, which
    chooses nothing), the span the other way round (`a to c`); else None."""
    span = _SPAN.fullmatch(str(value).strip()) if isinstance(value, str) else None
    if span is None:
        return None
    first, last = (_line_number(span.group(end), count, letters, options) for end in ("first", "last"))
    if not first > last > 0:
        return None
    step = f" by {span.group('step')}" if span.group("step") else ""
    return f"{span.group('last')} to {span.group('first')}{step}"


def _line_number(value: Any, count: int, letters: bool, options: Optional[Mapping[str, Any]]) -> int:
    """A rank's or file's number from 1 (0 for a value of neither form)."""
    text = str(value).strip()
    if _FROM_LAST.fullmatch(text):
        return read_option_number(text).value({**(options or {}), "last": count})
    counted = _COUNTED_ON.fullmatch(text)
    if counted:
        start = _line_number(counted.group("line"), count, letters, options)
        return start + read_option_number(counted.group("more")).value(options or {}) if start else 0
    if letters:
        return FILE_LETTERS.index(text) + 1 if len(text) == 1 and text in FILE_LETTERS else 0
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return int(text) if text.isdigit() and len(text) <= 6 else 0


@dataclass
class Board:
    kind: str  # "grid" or "graph"
    names: list[str]
    index: dict[str, int]
    coords: list[tuple[float, float]]
    files: int = 0
    ranks: int = 0
    # Per direction index (grid only): for each site, the sites along the ray, nearest first.
    rays: list[list[tuple[int, ...]]] = field(default_factory=list)
    # For each site, the sites reachable in one step along an edge.
    adjacent: list[tuple[int, ...]] = field(default_factory=list)
    # Edges as given, for drawing: (a, b, one_way).
    edges: list[tuple[int, int, bool]] = field(default_factory=list)
    # The (file, rank) step of direction 8 + i: the offsets direction sets name, each
    # followed by its opposite (so the opposite of 8 + i is 8 + (i ^ 1)).
    offsets: list[tuple[int, int]] = field(default_factory=list)

    def direction_of_offset(self, offset: tuple[int, int]) -> Optional[int]:
        """The direction index stepping `offset` (None: no direction does)."""
        for name, step in GRID_DIRECTIONS.items():
            if step == offset:
                return DIRECTION_NAMES.index(name)
        return len(DIRECTION_NAMES) + self.offsets.index(offset) if offset in self.offsets else None

    @property
    def size(self) -> int:
        return len(self.names)

    def site_file(self, site: int) -> int:
        return site % self.files

    def site_rank(self, site: int) -> int:
        return site // self.files

    def nearest_site(self, name: str) -> Optional[str]:
        """For a grid site off the board (`c0`, `i3`): the nearest one on it (None
        for any other name)."""
        match = re.fullmatch(r"([a-z])(\d{1,3})", name)
        if self.kind != "grid" or match is None:
            return None
        file = min(ord(match.group(1)) - ord("a"), self.files - 1)
        rank = min(max(int(match.group(2)), 1), self.ranks)
        nearest = f"{chr(ord('a') + file)}{rank}"
        return nearest if nearest in self.index else None


def direction_name(direction: int, offsets: list[tuple[int, int]]) -> str:
    """A direction as notations and messages write it: its compass name, or an
    offset's signed steps (`+1+2`: one file east, two ranks north)."""
    if direction < len(DIRECTION_NAMES):
        return DIRECTION_NAMES[direction]
    df, dr = offsets[direction - len(DIRECTION_NAMES)]
    return f"{df:+d}{dr:+d}"


def opposite_direction(direction: int) -> int:
    compass = len(DIRECTION_NAMES)
    return (direction + 4) % compass if direction < compass else compass + ((direction - compass) ^ 1)


def paired_offsets(offsets: Any) -> list[tuple[int, int]]:
    """`offsets` in order, each followed by its opposite, none twice, none that is a
    compass direction or no step."""
    paired: list[tuple[int, int]] = []
    for df, dr in offsets:
        if (df, dr) == (0, 0) or (df, dr) in GRID_DIRECTIONS.values() or (df, dr) in paired:
            continue
        paired += [(df, dr), (-df, -dr)]
    return paired


def _rays_along(files: int, ranks: int, df: int, dr: int) -> list[tuple[int, ...]]:
    """For each site, the sites reached by repeating the step (df, dr), nearest first."""
    per_site = []
    for site in range(files * ranks):
        f, r = site % files + df, site // files + dr
        ray = []
        while 0 <= f < files and 0 <= r < ranks:
            ray.append(r * files + f)
            f, r = f + df, r + dr
        per_site.append(tuple(ray))
    return per_site


def grid_site_name(file: int, rank: int) -> str:
    return f"{FILE_LETTERS[file]}{rank + 1}"


def build_grid(files: int, ranks: int, neighbour_directions: tuple[str, ...] = ABSOLUTE_SETS["orthogonal"],
               neighbour_offsets: tuple[tuple[int, int], ...] = (),
               direction_offsets: tuple[tuple[int, int], ...] = ()) -> Board:
    """A site's neighbours (for `walk`, `neighbours()`, `connected`, `group`) are the
    next sites in `neighbour_directions` (each with its opposite), in that order: a
    hexagonal board is a grid whose neighbours are six of the eight directions.
    Then the sites at `neighbour_offsets` (file and rank deltas, each with its
    opposite; a knight's move apart, say), which the drawing's edges leave out.
    `direction_offsets` (paired with their opposites: `paired_offsets`) are the
    directions 8, 9, ...: rays that repeat the step."""
    names = [grid_site_name(f, r) for r in range(ranks) for f in range(files)]
    index = {name: i for i, name in enumerate(names)}
    coords = [(float(i % files), float(i // files)) for i in range(len(names))]
    rays = [_rays_along(files, ranks, *GRID_DIRECTIONS[name]) for name in DIRECTION_NAMES]
    rays += [_rays_along(files, ranks, df, dr) for df, dr in direction_offsets]
    chosen = [DIRECTION_NAMES.index(d) for d in neighbour_directions]
    adjacent = [tuple(rays[d][s][0] for d in chosen if rays[d][s])
                + tuple(r * files + f for f, r in ((s % files + df, s // files + dr) for df, dr in neighbour_offsets)
                        if 0 <= f < files and 0 <= r < ranks)
                for s in range(len(names))]
    edges = []
    for s in range(len(names)):
        for d in chosen:  # each edge once: from the site it leaves northwards or eastwards
            if rays[d][s] and DIRECTION_NAMES[d] in ("n", "ne", "e", "nw"):
                edges.append((s, rays[d][s][0], False))
    return Board("grid", names, index, coords, files, ranks, rays, adjacent, edges, list(direction_offsets))


def build_graph(sites: dict[str, Any], chains: list[list[str]], one_way: list[list[str]]) -> Board:
    """`chains`: each a list of two or more sites joined in sequence, both ways;
    `one_way`: each a list of sites joined in sequence, in that direction only."""
    names = list(sites)
    index = {name: i for i, name in enumerate(names)}
    coords = []
    for name in names:
        xy = sites[name]
        coords.append((float(xy[0]), float(xy[1])) if xy else (0.0, 0.0))
    neighbours: list[list[int]] = [[] for _ in names]
    edges: list[tuple[int, int, bool]] = []

    def link(a: int, b: int) -> None:
        if b not in neighbours[a]:
            neighbours[a].append(b)

    for chain in chains:
        for a, b in zip(chain, chain[1:]):
            ia, ib = index[a], index[b]
            link(ia, ib)
            link(ib, ia)
            edges.append((ia, ib, False))
    for chain in one_way:
        for a, b in zip(chain, chain[1:]):
            ia, ib = index[a], index[b]
            link(ia, ib)
            edges.append((ia, ib, True))
    adjacent = [tuple(n) for n in neighbours]
    return Board("graph", names, index, coords, adjacent=adjacent, edges=edges)


def relative_directions(forward: str, offsets: tuple[int, ...]) -> tuple[str, ...]:
    base = DIRECTION_NAMES.index(forward)
    return tuple(DIRECTION_NAMES[(base + o) % 8] for o in offsets)
