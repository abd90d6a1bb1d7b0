"""Tracks: their run-time form, and `ahead`, `behind`, `along` and `steps_on`.

A track entry is `(sites, position of each site, loops)` (runtime/helpers.py).
Where the number of steps is within reach of a table made when the rules are
compiled (the sites after each site, `following_sites`), `ahead` and `along`
read it rather than call their helpers; so does a move `along` a track to the
landing alone (`landing_sites`, what `helpers.track_to` answers).
"""
from __future__ import annotations

import ast as py
from typing import Optional, Sequence

from ..parsing import ast
from ..runtime import helpers
from . import pyast
from .code import Code, Compiling, Handler, always_a_player, describe, is_cheap
from .errors import RuleError
from .model import Track
from .scope import Scope
from .types import Type

# How far following_sites reaches: this many times round a track (or to its end).
FOLLOWING_LAPS = 2
# Tables of following sites are made up to this many entries a game (beyond, the
# tracks' `ahead` and `along` call their helpers).
MAX_FOLLOWING_ENTRIES = 200_000

TrackValue = tuple[tuple[int, ...], tuple[int, ...], bool]
# (the constant of landing_sites by entry — all of them for a per-player track,
# to be indexed by the player —, the steps each row answers)
LandingTables = tuple[list[py.Name], py.Name, int]
# (the constants of following_sites by entry, the constant of all of them by
# entry, each entry's reach)
FollowingTables = tuple[list[py.Name], py.Name, list[int]]


def following_sites(sites: Sequence[int], loop: bool, n_sites: int) -> tuple[tuple[int, ...], ...]:
    """table[site]: the sites after `site` along the track, in order, as `along`
    gives them, FOLLOWING_LAPS times round a looping track or to the end of one that
    does not loop (() for a site not on it and for "no site", the last entry).
    `ahead` and `along` read it instead of calling their helpers where n is within
    its reach."""
    size = len(sites)
    table: list[tuple[int, ...]] = [()] * (n_sites + 1)
    for i, site in enumerate(sites):
        if loop:
            table[site] = tuple(sites[(i + k) % size] for k in range(1, FOLLOWING_LAPS * size + 1))
        else:
            table[site] = tuple(sites[i + 1:])
    return tuple(table)


def landing_sites(value: TrackValue, width: int) -> tuple[tuple[int, ...], ...]:
    """table[site][n] = helpers.track_to(value, site, n) for n below `width`: the
    site n steps along the track from `site` (-1 beyond the end of a track that
    does not loop, -2 off the track or for n < 1), a row per site and one for "no
    site", the last."""
    return tuple(tuple(helpers.track_to(value, site, n) for n in range(width)) for site in range(len(value[1])))


def following_reach(sites: Sequence[int], loop: bool) -> int:
    """Up to which n every row of following_sites gives `along`'s answer: round a
    looping track FOLLOWING_LAPS times; to the end of one that does not loop, where
    `along` stops too (for any n the runtime accepts)."""
    return FOLLOWING_LAPS * len(sites) if loop else helpers.MAX_ALONG


def whole_bounds(code: py.expr) -> Optional[tuple[int, int]]:
    """(lowest, highest) a whole number's code can evaluate to, where its form
    says so (a number; `x % k` for a number k > 0; sums and differences of
    those), else None."""
    if isinstance(code, py.Constant):
        return (code.value, code.value) if type(code.value) is int else None
    if isinstance(code, py.UnaryOp) and isinstance(code.op, py.USub):
        inner = whole_bounds(code.operand)
        return None if inner is None else (-inner[1], -inner[0])
    if not isinstance(code, py.BinOp):
        return None
    if isinstance(code.op, py.Mod):
        divisor = whole_bounds(code.right)
        return (0, divisor[0] - 1) if divisor is not None and divisor[0] == divisor[1] > 0 else None
    left, right = whole_bounds(code.left), whole_bounds(code.right)
    if left is None or right is None:
        return None
    if isinstance(code.op, py.Add):
        return left[0] + right[0], left[1] + right[1]
    if isinstance(code.op, py.Sub):
        return left[0] - right[1], left[1] - right[0]
    return None


class TrackFamily:
    def __init__(self, x: Compiling):
        self.x = x
        # the tables of the sites after each site of the tracks (following_tables)
        self._following_made: dict[str, Optional[FollowingTables]] = {}
        self._following_entries = 0
        self._landings_made: dict[str, Optional[LandingTables]] = {}
        # narrower tables where those do not fit, by track and bound (landing_tables)
        self._landings_within: dict[tuple[str, int], Optional[LandingTables]] = {}

    def nodes(self) -> dict[type, Handler]:
        return {}

    def functions(self) -> dict[str, Handler]:
        return {"ahead": self.ahead, "behind": self.behind, "along": self.along, "steps_on": self.steps_on}

    # ------------------------------------------------------------ tracks as values
    def track_values(self, track: Track) -> list[TrackValue]:
        """The run-time form of each entry of a track (see runtime/helpers.py)."""
        values = []
        for sites, loop in zip(track.sites, track.loop):
            position = [-1] * (self.x.n_sites + 1)
            for i, s in enumerate(sites):
                position[s] = i
            values.append((tuple(sites), tuple(position), loop))
        return values

    def track_constant(self, track: Track) -> list[py.Name]:
        """The constant names of the entries of a track."""
        return [self.x.src.const(value) for value in self.track_values(track)]

    def named(self, track: Track) -> Code:
        """A track shared by every player, by its name."""
        return Code(self.track_constant(track)[0], Type.TRACK, size=len(track.sites[0]),
                    following=self._following(track, 0))

    def of_player(self, track: Track, idx: Code, scope: Scope, pos: ast.Pos) -> Code:
        """TRACK[P] of a per-player track."""
        deps, cost = idx.deps, idx.cost + 1
        if idx.is_const:
            if idx.const < 0:
                raise RuleError(pos, "a player not in play has no track")
            return Code(self.track_constant(track)[idx.const], Type.TRACK, deps, size=len(track.sites[idx.const]),
                        following=self._following(track, idx.const))
        none = ((), (-1,) * (self.x.n_sites + 1), False)
        tracks = self.x.src.const(tuple(self.track_values(track)) + (none,))
        following = None
        made = self._following_tables(track)
        if made is not None and always_a_player(idx.code, scope) and is_cheap(idx.code):
            _, by_player, reaches = made
            following = (pyast.sub(by_player, idx.code), min(reaches), all(track.loop))
        return Code(pyast.sub(tracks, idx.code), Type.TRACK, deps, cost=cost, size=max(len(t) for t in track.sites),
                    following=following)

    def _following(self, track: Track, entry: int) -> Optional[tuple[py.expr, int, bool]]:
        """(the constant of following_sites, its reach, whether the entry loops) for
        one entry of a track, or None."""
        made = self._following_tables(track)
        return None if made is None else (made[0][entry], made[2][entry], track.loop[entry])

    def _following_tables(self, track: Track) -> Optional[FollowingTables]:
        """The tables of following_sites of a track, made on first use within
        MAX_FOLLOWING_ENTRIES a game; None beyond."""
        if track.name in self._following_made:
            return self._following_made[track.name]
        n_sites = self.x.n_sites
        entries = sum((n_sites + 1) * FOLLOWING_LAPS * len(sites) for sites in track.sites)
        made = None
        if self._following_entries + entries <= MAX_FOLLOWING_ENTRIES:
            self._following_entries += entries
            tables = [following_sites(sites, loop, n_sites) for sites, loop in zip(track.sites, track.loop)]
            src = self.x.src
            made = (
                [src.const(table, key=("following", track.name, i)) for i, table in enumerate(tables)],
                src.const(tuple(tables), key=("following", track.name)),
                [following_reach(sites, loop) for sites, loop in zip(track.sites, track.loop)],
            )
        self._following_made[track.name] = made
        return made

    def landing_tables(self, track: Track, bound: Optional[int] = None) -> Optional[LandingTables]:
        """The tables of landing_sites of a track's entries, as far as once round
        the longest entry (beyond the end of one that does not loop every answer
        is -1 to that reach), made on first use within MAX_FOLLOWING_ENTRIES a game
        (shared with following_sites). Where those do not fit, and the distance is
        at most `bound` (a pattern's fixed upper bound, shorter than that reach),
        tables as far as `bound` alone; None beyond."""
        if track.name in self._landings_made:
            made = self._landings_made[track.name]
            if made is not None or bound is None:
                return made
        else:
            made = self._landings_made[track.name] = self._landings(track, max(len(s) for s in track.sites) + 1, ())
        if made is None and bound is not None and 0 <= bound < max(len(s) for s in track.sites):
            key = (track.name, bound)
            if key not in self._landings_within:
                self._landings_within[key] = self._landings(track, bound + 1, (bound,))
            made = self._landings_within[key]
        return made

    def _landings(self, track: Track, width: int, key: tuple[int, ...]) -> Optional[LandingTables]:
        """landing_tables of the given width, None where they do not fit."""
        entries = len(track.sites) * (self.x.n_sites + 1) * width
        if self._following_entries + entries > MAX_FOLLOWING_ENTRIES:
            return None
        self._following_entries += entries
        tables = [landing_sites(value, width) for value in self.track_values(track)]
        src = self.x.src
        return (
            [src.const(table, key=("landings", track.name, i) + key) for i, table in enumerate(tables)],
            src.const(tuple(tables), key=("landings", track.name) + key),
            width,
        )

    # ------------------------------------------------------------ functions
    def _track_argument(self, e: ast.Call, scope: Scope) -> Code:
        arg = e.args[0]
        track = self.x.compile(arg, scope)
        if track.type is Type.PER_PLAYER and track.per_player and track.per_player[0] == "track":
            name = arg.id if isinstance(arg, ast.Name) else "this"
            raise RuleError(arg.pos, f"track '{name}' differs per player: say whose, e.g. {name}[player]")
        if track.type is not Type.TRACK:
            raise RuleError(arg.pos, f"the first argument of '{e.fn}' must be a track (declared under 'tracks'), "
                                     f"found {describe(track)}")
        return track

    def _site_and_steps(self, e: ast.Call, scope: Scope) -> tuple[Code, Code, Code]:
        x = self.x
        track = self._track_argument(e, scope)
        site = x.expect(x.compile(e.args[1], scope), (Type.SITE,), e.args[1], f"the second argument of '{e.fn}'")
        n = x.expect(x.compile(e.args[2], scope), (Type.INT,), e.args[2], f"the third argument of '{e.fn}'")
        return track, site, n

    def ahead(self, e: ast.Call, scope: Scope) -> Code:
        track, site, n = self._site_and_steps(e, scope)
        deps, cost = track.deps | site.deps | n.deps, track.cost + site.cost + n.cost + 1
        from_row = self._ahead_of_fixed_site(track, site, n, scope)
        if from_row is not None:
            return Code(from_row, Type.SITE, deps, cost=cost)
        code: py.expr = pyast.helper("h_ahead", track.code, site.code, n.code)
        if track.following is not None and is_cheap(site.code):
            following, reach, full = track.following
            after = pyast.sub(following, site.code)
            bounds = whole_bounds(n.code)
            if bounds is not None and 1 <= bounds[0] and bounds[1] <= reach:
                # (n is always within the table's reach: its row answers, or, off the
                # track, where the row is empty, -1 — helpers.ahead's answer; a row of
                # a looping track is as long as the reach, of one that does not, as
                # far as its end, beyond which the answer is -1 too)
                if full:
                    # (every row of a site on a looping track is `reach` long: n read once)
                    code = pyast.ifexp(pyast.sub(after, pyast.binop(n.code, "-", pyast.num(1))), after,
                                       pyast.num(-1))
                else:
                    first, again = self.x.share(n, scope)
                    code = pyast.ifexp(pyast.sub(after, pyast.binop(again, "-", pyast.num(1))),
                                       pyast.compare(first, "<=", pyast.helper("len", after)), pyast.num(-1))
            else:
                # (the table answers within its reach, the helper beyond: n <= 0, off the
                # track; n worked out once — `piece.idx - 1` as fast as a define's parameter)
                first, again = self.x.share(n, scope)
                if first is not again or is_cheap(n.code):
                    within = pyast.compare(pyast.num(0), "<", first, "<=", pyast.helper("len", after))
                    code = pyast.ifexp(pyast.sub(after, pyast.binop(again, "-", pyast.num(1))), within,
                                       pyast.helper("h_ahead", track.code, site.code, again))
        return Code(code, Type.SITE, deps, cost=cost)

    def _ahead_of_fixed_site(self, track: Code, site: Code, n: Code, scope: Scope) -> Optional[py.expr]:
        """`ahead(TRACK, X, N)` where the track and X are fixed and N is not: a read of
        the row of X's answers for every N (made when the rules are compiled), N
        worked out once, the answer of helpers.ahead — N below 0 or beyond the end of
        a track that does not loop, or X off the track: -1 (no site). A subtraction
        of a fixed number (`piece.idx - 1`) is read from a row that many places
        longer, where it is not worked out at all. None: not so (the track differs per
        player, X is worked out, N is fixed, or N is read twice where Python forbids
        `:=` and costs more than a name)."""
        value = self.x.src.value(track.code)
        if not site.is_const or n.is_const or not isinstance(value, tuple):
            return None
        sites, position, loop = value
        at = position[site.const]
        row = () if at < 0 else sites[at:] + (sites[:at] if loop else ())
        steps = n.code
        if (not loop and isinstance(steps, py.BinOp) and isinstance(steps.op, py.Sub)
                and isinstance(steps.right, py.Constant) and type(steps.right.value) is int
                and 0 < steps.right.value <= len(sites)):
            row, steps = (-1,) * steps.right.value + row, steps.left  # (row[k + N - k] is row[N])
        first, again = self.x.share(Code(steps, Type.INT, n.deps), scope)
        if first is again and not is_cheap(steps):
            return None
        table = self.x.src.const(row)
        if loop and row:  # (round and round from X: any N from 0 up answers)
            return pyast.ifexp(pyast.sub(table, pyast.binop(again, "%", pyast.num(len(row)))),
                               pyast.compare(first, ">=", pyast.num(0)), pyast.num(-1))
        return pyast.ifexp(pyast.sub(table, again), pyast.compare(pyast.num(0), "<=", first, "<", pyast.num(len(row))),
                           pyast.num(-1))

    def behind(self, e: ast.Call, scope: Scope) -> Code:
        track, site, n = self._site_and_steps(e, scope)
        return Code(pyast.helper("h_behind", track.code, site.code, n.code), Type.SITE,
                    track.deps | site.deps | n.deps, cost=track.cost + site.cost + n.cost + 1)

    def along(self, e: ast.Call, scope: Scope) -> Code:
        track, site, n = self._site_and_steps(e, scope)
        code: py.expr = pyast.helper("h_along", track.code, site.code, n.code, self.x.src.const(e.pos))
        if track.following is not None and is_cheap(site.code):
            # (within the table's reach, the first n sites after; beyond, the helper)
            following, reach, _ = track.following
            bounds = whole_bounds(n.code)
            if bounds is not None and 0 <= bounds[0] and bounds[1] <= reach:
                # (n is always within the reach: no test, n read once)
                code = pyast.sub(pyast.sub(following, site.code), pyast.slice_(None, n.code))
            else:
                first, again = self.x.share(n, scope) if not is_cheap(n.code) else (n.code, n.code)
                if first is not again or is_cheap(n.code):
                    first_n = pyast.sub(pyast.sub(following, site.code), pyast.slice_(None, again))
                    code = pyast.ifexp(first_n, pyast.compare(pyast.num(0), "<=", first, "<=", pyast.num(reach)),
                                       pyast.helper("h_along", track.code, site.code, again,
                                                    self.x.src.const(e.pos)))
        size = n.const if n.is_const and n.const > 0 else self.x.n_sites
        return Code(code, Type.SITES, track.deps | site.deps | n.deps, cost=track.cost + site.cost + n.cost + size,
                    size=size, fresh=True)

    def steps_on(self, e: ast.Call, scope: Scope) -> Code:
        track = self._track_argument(e, scope)
        site = self.x.expect(self.x.compile(e.args[1], scope), (Type.SITE,), e.args[1],
                             "the second argument of 'steps_on'")
        # (runtime/helpers.steps_on, written out: the track's table of positions read
        # at the site — a call would cost more than the read)
        return Code(pyast.sub(pyast.sub(track.code, pyast.num(1)), site.code), Type.INT,
                    track.deps | site.deps, cost=track.cost + site.cost + 1)
