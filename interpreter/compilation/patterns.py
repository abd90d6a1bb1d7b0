"""Movement patterns → generators of candidate actions.

Moving patterns (step, slide, leap, jump, walk, go) compile to a *piece
generator* `gen(frame, site, piece, out)`: the decision visits the deciding
player's pieces once and hands each to the generators of the actions its kind
may take. Placing patterns (drop, select) compile to `gen(frame, out)`. Every
legal action found is appended to `out` as a code `(case_id, from, to, extra)`.

Geometry comes from the tables of `board.py`, so a generator only indexes lists.
Restrictions (`forbid ...`) arrive as a site mask plus a residual condition, so
the condition runs only on the few sites the mask names.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from .expressions import RuleError

# Bounds on walks, which a definition can make as long as it likes on any graph.
MAX_WALK_NODES = 200_000
MAX_WALK_STEPS = 500

EMPTY, OWN, NEUTRAL, ENEMY = 0, 1, 2, 3
FAR = 1 << 30


@dataclass
class Restriction:
    """A compiled `forbid` kind: `mask[site]` says whether `bad(frame)` must be asked."""

    mask: list
    bad: Callable  # frame with `site` set -> bool
    # The same, split by shape (for walks): sites always forbidden; kinds whose pieces
    # are forbidden wherever they stand; None when some condition is more general.
    static_sites: Optional[frozenset] = None
    kinds: Optional[frozenset] = None
    # kind_mask[k]: whether it can apply at all to a site holding a piece of kind k.
    # Both masks are live: rewritten in place when a position opens or shuts a gate
    # (see restrictions.Restrictions).
    kind_mask: Optional[list] = None

    def check(self) -> Callable:
        mask, bad = self.mask, self.bad

        def forbidden(f, t):
            if not mask[t]:
                return False
            f.site = t
            return bad(f)

        return forbidden


@dataclass
class Landing:
    """What the cases of one action allow, and the checks a candidate must pass."""

    case_ids: list  # by EMPTY/OWN/NEUTRAL/ENEMY: case id or None
    landing: Optional[Restriction]
    capturing: Optional[Restriction]
    passing: Optional[Restriction]
    where: Optional[Callable]  # candidate-level condition, or None
    # union(masks) -> a list kept equal to the union of live masks (Restrictions.union)
    union: Callable = lambda masks: [any(column) for column in zip(*masks)]
    n_sites: int = 0

    def accept(self) -> tuple:
        """(ok, watch_empty, watch_taken) for candidates whose landing case exists.

        `ok(frame, from, piece, to, piece_on_to)` checks a candidate (and sets the
        frame registers it needs); it is None when there is nothing to check. When
        watch masks are given (no `where` condition), a candidate on a site the
        mask leaves False is accepted without calling `ok`: `watch_empty` for an
        empty landing site, `watch_taken` for an occupied one.
        """
        land = self.landing.check() if self.landing else None
        capture = self.capturing.check() if self.capturing else None
        where = self.where
        if land is None and capture is None and where is None:
            return None, None, None
        watch_empty = watch_taken = None
        if where is None:
            land_mask = self.landing.mask if self.landing else None
            capture_mask = self.capturing.mask if self.capturing else None
            nowhere = [False] * len(land_mask or capture_mask)
            watch_empty = land_mask or nowhere
            watch_taken = self.union([land_mask or nowhere, capture_mask or nowhere])

        def ok(f, s, p, t, q):
            f.frm = f.at = s
            f.pc = p
            if land is not None and land(f, t):
                return False
            if capture is not None and q is not None and q[0] >= 0 and q[0] != f.p and capture(f, t):
                return False
            if where is not None:
                f.to = t
                f.tg = q
                return where(f)
            return True

        return ok, watch_empty, watch_taken

    def blocked(self) -> tuple:
        """(mask, bad): a piece may not pass over site t when mask[t] and bad(frame, t)."""
        if self.passing is None:
            return None, None
        return self.passing.mask, self.passing.check()

    def each_emitter(self) -> Callable:
        """each(frame, from, piece, sites, out): for each site but `from`, classify
        it (empty, own, neutral, enemy), check the candidate and record the action.
        One loop, no call per candidate unless a check must be asked; the shape
        with nothing to check (the hot one of walks and leaps) is written apart."""
        c_empty, c_own, c_neutral, c_enemy = self.case_ids
        ok, watch_empty, watch_taken = self.accept()
        if ok is None:
            def each(f, s, p, sites, out):
                b = f.b
                me = f.p
                for t in sites:
                    q = b[t]
                    if q is None:
                        if c_empty is not None and t != s:
                            out.append((c_empty, s, t, -1))
                    else:
                        o = q[0]
                        cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
                        if cid is not None and t != s:
                            out.append((cid, s, t, -1))

            return each

        if watch_empty is None:
            # A `where` condition: every candidate is asked.
            watch_empty = watch_taken = [True] * (self.n_sites + 1)

        def each_watched(f, s, p, sites, out):
            b = f.b
            me = f.p
            for t in sites:
                q = b[t]
                if q is None:
                    if c_empty is not None and t != s and (not watch_empty[t] or ok(f, s, p, t, q)):
                        out.append((c_empty, s, t, -1))
                else:
                    o = q[0]
                    cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
                    if cid is not None and t != s and (not watch_taken[t] or ok(f, s, p, t, q)):
                        out.append((cid, s, t, -1))

        return each_watched


def with_piece_condition(gen: Callable, where: Optional[Callable]) -> Callable:
    """A piece generator that first asks a condition about the piece (and `from`)."""
    if where is None:
        return gen

    def guarded(f, s, p, out):
        f.frm = f.at = s
        f.pc = p
        if where(f):
            gen(f, s, p, out)

    if hasattr(gen, "prelude"):
        guarded.prelude = gen.prelude
    return guarded


def reach_along(rays: list, dirs_table: list, low: int, high: Optional[int], off: bool) -> list:
    """reach[player][site]: the sites `low..high` away (high None: any distance) along
    the player's directions, plus -1 when the pattern can leave the board."""
    extra = frozenset({-1}) if off else frozenset()
    stop = None if high is None else max(high, 0)
    return _per_player_site_table(
        dirs_table,
        len(rays[0]) if rays else 0,
        lambda dirs, s: frozenset(t for x in dirs for t in rays[x][s][max(low, 1) - 1 : stop]) | extra,
    )


def leap_table(rays: list, dirs_by_player: list, max_distance: int) -> list:
    """table[player][site][d] = (sites exactly d away along the directions, whether
    some direction leaves the board at d), for d in 0..max_distance."""
    tables = []
    cache: dict = {}
    for dirs in dirs_by_player:
        if dirs in cache:
            tables.append(cache[dirs])
            continue
        per_site = []
        for s in range(len(rays[0]) if rays else 0):
            row = [((), False)]
            for d in range(1, max_distance + 1):
                on = tuple(rays[x][s][d - 1] for x in dirs if len(rays[x][s]) >= d)
                off = any(len(rays[x][s]) < d for x in dirs)
                row.append((on, off))
            per_site.append(row)
        cache[dirs] = per_site
        tables.append(per_site)
    return tables


def leap_pattern(tables, low, high, rays, dirs_table, landing: Landing, off_case, off_where, low_attr=None) -> Callable:
    """Exactly `distance` sites along a direction, over anything in between; off the
    board when the distance leads beyond the edge (one action per piece).
    `low_attr`: the distance is that attribute of the piece (read from the tuple)."""
    each = landing.each_emitter()
    pass_mask, blocked = landing.blocked()
    all_off = ((), True)

    def off_board(f, s, out, p=None):
        if off_where is not None:
            if p is not None:
                f.frm = f.at = s
                f.pc = p
            f.to = -1
            f.tg = None
            if not off_where(f):
                return
        out.append((off_case, s, -1, -1))

    if high is None and blocked is None:
        # Exact distance with nothing in between to check: one table lookup per piece.
        def leap_from(f, sites, out, kinds=None, piece=None):
            """The leaps of the pieces on `sites` (of `kinds` only, a mask by kind,
            when given; `piece`: the one piece, when it is not on the board)."""
            b = f.b
            me = f.p
            rows = tables[me]
            for s in sites:
                p = b[s] if piece is None else piece
                if kinds is not None and not kinds[p[1]]:
                    continue
                if low_attr is None:
                    f.frm = f.at = s
                    f.pc = p
                    d = low(f)
                else:
                    d = p[low_attr]
                if d <= 0:
                    continue
                row = rows[s]
                on, off = row[d] if d < len(row) else all_off
                each(f, s, p, on, out)
                if off and off_case is not None:
                    off_board(f, s, out, p)

        def leap(f, s, p, out):
            leap_from(f, (s,), out, None, p)

        leap.batch = leap_from
        return leap

    def leap_range(f, s, p, out):
        me = f.p
        f.frm = f.at = s
        f.pc = p
        lo = low(f)
        hi = lo if high is None else high(f)
        lo = max(lo, 1)
        off_done = False
        for x in dirs_table[me]:
            ray = rays[x][s]
            for k in range(lo, hi + 1):
                if k > len(ray):
                    if off_case is not None and not off_done:
                        off_board(f, s, out)
                        off_done = True
                    break
                if blocked is not None and any(pass_mask[t] and blocked(f, t) for t in ray[: k - 1]):
                    break
                each(f, s, p, (ray[k - 1],), out)

    return leap_range


def step_pattern(dirs_table, low, high, rays, neighbours, landing: Landing) -> Callable:
    """Along grid directions over empty sites only, landing at a distance in low..high
    (high None: as far as the way is free). `low`/`high` are numbers or closures."""
    c_empty, c_own, c_neutral, c_enemy = landing.case_ids
    ok, watch_empty, watch_taken = landing.accept()
    pass_mask, blocked = landing.blocked()
    low_fixed = low if isinstance(low, int) else None
    high_fixed = FAR if high is None else (high if isinstance(high, int) else None)

    if low_fixed == 1 and high_fixed == 1:
        # One step: the adjacent sites of each direction are listed per site once.
        targets = _per_player_site_table(dirs_table, len(neighbours[0]), lambda dirs, s: tuple(t for x in dirs if (t := neighbours[x][s]) >= 0))
        gen = _to_each_target(targets, landing)
        gen.fusion = ("one step", tuple(dirs_table), landing)
        return gen

    def step(f, s, p, out):
        b = f.b
        me = f.p
        if low_fixed is None or high_fixed is None or blocked is not None:
            f.frm = f.at = s
            f.pc = p
        lo = low_fixed if low_fixed is not None else low(f)
        hi = high_fixed if high_fixed is not None else high(f)
        for x in dirs_table[me]:
            k = 0
            for t in rays[x][s]:
                k += 1
                if k > hi:
                    break
                q = b[t]
                if k >= lo:
                    if q is None:
                        cid = c_empty
                    else:
                        o = q[0]
                        cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
                    if cid is not None and (
                        ok is None
                        or (watch_empty is not None and not (watch_empty if q is None else watch_taken)[t])
                        or ok(f, s, p, t, q)
                    ):
                        out.append((cid, s, t, -1))
                if q is not None or (pass_mask is not None and pass_mask[t] and blocked(f, t)):
                    break

    return step


def _per_player_site_table(dirs_table: list, n_sites: int, build: Callable) -> list:
    """table[player][site] = build(directions of that player, site); players with
    the same directions share one table."""
    shared: dict = {}
    for dirs in dirs_table:
        if dirs not in shared:
            shared[dirs] = [build(dirs, s) for s in range(n_sites)]
    return [shared[dirs] for dirs in dirs_table]


def _to_each_target(targets: list, landing: Landing) -> Callable:
    """gen(frame, site, piece, out) landing on each of targets[player][site]."""
    each = landing.each_emitter()

    def to_each(f, s, p, out):
        each(f, s, p, targets[f.p][s], out)

    return to_each


def fuse_step_and_jump(step_gen: Callable, jump_gen: Callable, neighbours: list) -> Optional[Callable]:
    """One generator doing the work of a one-step action and an adjacent-jump
    action over the same directions: each neighbour is looked at once — empty, it
    is a step; occupied, with the square beyond empty, a jump. None if the two do
    not fit together."""
    step_info = getattr(step_gen, "fusion", None)
    jump_info = getattr(jump_gen, "fusion", None)
    if not step_info or not jump_info or step_info[0] != "one step" or jump_info[0] != "adjacent jump":
        return None
    if step_info[1] != jump_info[1]:
        return None
    dirs_table = step_info[1]
    landing = step_info[2]
    (over_empty, c_own, c_neutral, c_enemy), checks, allowed = jump_info[2]
    free, land_watch, capture_watch, capture_kinds = checks
    s_empty, s_own, s_neutral, s_enemy = landing.case_ids
    if s_own is not None or s_neutral is not None or s_enemy is not None:
        return None  # a step onto a piece would compete with the jump over it
    ok, watch_empty, _ = landing.accept()
    if s_empty is None:
        return None
    # One test for every shape of check: a candidate on a site the mask leaves False
    # needs no call (no check at all: no site is watched; a `where`: every site is).
    n_sites = len(neighbours[0])
    watch = watch_empty if watch_empty is not None else [ok is not None] * (n_sites + 1)
    pairs = _per_player_site_table(
        list(dirs_table),
        n_sites,
        lambda dirs, s: tuple(
            (t, neighbours[x][t]) for x in dirs if (t := neighbours[x][s]) >= 0
        ),
    )

    def step_or_jump(f, s, p, out):
        b = f.b
        me = f.p
        for t, land in pairs[me][s]:
            q = b[t]
            if q is None:
                if not watch[t] or ok(f, s, p, t, q):
                    out.append((s_empty, s, t, -1))
            elif land >= 0 and b[land] is None:
                o = q[0]
                cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
                if cid is not None and (
                    (free and not land_watch[land] and not (capture_watch[t] and capture_kinds[q[1]]))
                    or allowed(f, s, p, t, q, land)
                ):
                    out.append((cid, s, land, t))

    return step_or_jump


def jump_pattern(dirs_table, low, high, rays, neighbours, over_cases: list, landing: Landing) -> Callable:
    """Over exactly one piece at distance low..high, the squares before it empty,
    landing on the square just beyond it, which must be empty. `low`/`high` are
    numbers or closures."""
    _, c_own, c_neutral, c_enemy = over_cases
    pass_mask, blocked = landing.blocked()
    land_mask = landing.landing.mask if landing.landing else None
    land_bad = landing.landing.check() if landing.landing else None
    capture_mask = landing.capturing.mask if landing.capturing else None
    capture_bad = landing.capturing.check() if landing.capturing else None
    # A forbid about capturing some kinds only (`site is KIND`) is not asked about others.
    capture_kinds = landing.capturing.kind_mask if landing.capturing else None
    where = landing.where
    low_fixed = low if isinstance(low, int) else None
    high_fixed = FAR if high is None else (high if isinstance(high, int) else None)

    # A jump is taken without calling `allowed` when nothing can be against it: no
    # `where`, a landing site no landing forbid watches, a jumped piece no capturing
    # forbid watches (by site and by kind). The generators test that inline:
    #     free and not land_watch[land] and not (capture_watch[t] and capture_kinds[q[1]])
    nowhere = [False] * (len(neighbours[0]) + 1)
    land_watch = land_mask if land_mask is not None else nowhere
    capture_watch = capture_mask if capture_mask is not None else nowhere
    free = where is None

    def allowed(f, s, p, t, q, land) -> bool:
        """Whether the forbids and the `where` condition let the piece p jump from s
        over t (holding q) to the empty `land`."""
        f.frm = f.at = s
        f.pc = p
        o = q[0]
        if o >= 0 and o != f.p and capture_watch[t] and capture_kinds[q[1]] and capture_bad(f, t):
            return False
        if land_watch[land] and land_bad(f, land):
            return False
        if where is not None:
            f.to = land
            f.tg = None
            f.js = t
            f.jp = q
            accepted = where(f)
            f.js = -1
            f.jp = None
            return accepted
        return True

    if low_fixed == 1 and high_fixed == 1:
        # Over an adjacent piece: (over, landing) pairs listed per site once.
        pairs = _per_player_site_table(
            dirs_table,
            len(neighbours[0]),
            lambda dirs, s: tuple(
                (t, neighbours[x][t]) for x in dirs if (t := neighbours[x][s]) >= 0 and neighbours[x][t] >= 0
            ),
        )

        def adjacent_jump(f, s, p, out):
            b = f.b
            me = f.p
            for t, land in pairs[me][s]:
                q = b[t]
                if q is not None and b[land] is None:
                    o = q[0]
                    cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
                    if cid is not None and (
                        (free and not land_watch[land] and not (capture_watch[t] and capture_kinds[q[1]]))
                        or allowed(f, s, p, t, q, land)
                    ):
                        out.append((cid, s, land, t))

        checks = (free, land_watch, capture_watch, capture_kinds)
        adjacent_jump.fusion = ("adjacent jump", tuple(dirs_table), (over_cases, checks, allowed))
        return adjacent_jump

    def jump(f, s, p, out):
        b = f.b
        me = f.p
        if low_fixed is None or high_fixed is None:
            f.frm = f.at = s
            f.pc = p
        lo = low_fixed if low_fixed is not None else low(f)
        hi = high_fixed if high_fixed is not None else high(f)
        for x in dirs_table[me]:
            ray = rays[x][s]
            k = 0
            for t in ray:
                k += 1
                if k > hi:
                    break
                q = b[t]
                if q is None:
                    if pass_mask is not None and pass_mask[t] and blocked(f, t):
                        break
                    continue
                # The first piece on the way: jump it or nothing.
                if k >= lo and k < len(ray) and b[ray[k]] is None:
                    o = q[0]
                    cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
                    land = ray[k]
                    if cid is not None and (
                        (free and not land_watch[land] and not (capture_watch[t] and capture_kinds[q[1]]))
                        or allowed(f, s, p, t, q, land)
                    ):
                        out.append((cid, s, land, t))
                break

    return jump


def walk_pattern(steps, steps_per_piece: bool, adjacent: list, landing: Landing, pos, neutral_kinds: frozenset) -> Callable:
    """Exactly N steps along edges, never entering a site twice (the start counts
    as entered); each end site once per piece.

    The board's paths never change, so the walks of each (start, length) are
    found once and kept as (end, bitmasks of the sites passed); a position then
    only needs the bitmask of the sites that block passing. That bitmask, and the
    length when it does not depend on the piece (`walk die steps`), are worked out
    once per position, for its first piece (see `prelude`)."""
    each = landing.each_emitter()
    ok = landing.accept()[0]
    pass_mask, bad = landing.blocked()
    passing = landing.passing
    static = passing.static_sites if passing is not None and passing.kinds is not None else None
    blocker_kinds = passing.kinds if passing is not None else None
    simple = passing is None or (blocker_kinds is not None)
    # walks[n][site]: the walk table of n steps from site, filled on first use.
    walks: list = []
    # The position being listed, worked out for its first piece: whether that is
    # still to do, the bitmask of the sites holding a blocking piece, and (when the
    # length does not depend on the piece) the length and its row of `walks`.
    fresh = True
    blocked = 0
    n_now = 0
    row_now: list = []
    bits = [1 << t for t in range(len(adjacent))]
    # The sites of the neutral pieces the bitmask was last made from: in a playout
    # they seldom change from one position to the next, and comparing two short
    # lists is cheaper than building the bitmask again.
    last_neutral: list = [None]

    all_neutral_block = blocker_kinds is not None and blocker_kinds == neutral_kinds

    def blockers(f) -> int:
        """Bitmask of the sites holding a piece of a blocking kind."""
        if all_neutral_block:
            # Every neutral piece blocks: no kind to look at (the sites are distinct,
            # so their sum is their union).
            return sum(map(bits.__getitem__, f.o[-1]))
        b = f.b
        mask = 0
        owners = (f.o[-1],) if blocker_kinds <= neutral_kinds else f.o
        for sites in owners:
            for t in sites:
                if b[t][1] in blocker_kinds:
                    mask |= 1 << t
        return mask

    def tables(n: int) -> list:
        if n > MAX_WALK_STEPS:
            raise RuleError(pos, f"a walk of {n} steps is longer than the {MAX_WALK_STEPS} supported")
        while len(walks) <= n:
            walks.append([None] * len(adjacent))
        return walks[n]

    def look_at_position(f) -> None:
        nonlocal fresh, blocked, n_now, row_now, last_neutral
        fresh = False
        if blocker_kinds:
            neutral = f.o[-1]
            if not all_neutral_block or neutral != last_neutral:
                blocked = blockers(f)
                last_neutral = neutral[:]
        else:
            blocked = 0
        if not steps_per_piece:
            n_now = steps(f)
            row_now = (walks[n_now] if n_now < len(walks) else tables(n_now)) if n_now > 0 else []

    def prelude(f) -> None:
        """A new position: what `walk` worked out for the last one is stale."""
        nonlocal fresh
        fresh = True

    def walk_from(f, sites, out, kinds=None):
        """The common shape: a length the same for every piece, blocking by kind,
        nothing to check at the end sites. The walks of the pieces on `sites` (those
        of `kinds` only, a mask by kind, when given) in one call."""
        if fresh:
            look_at_position(f)
        if not row_now:
            return  # no step to take
        b = f.b
        for s in sites:
            if kinds is not None and not kinds[b[s][1]]:
                continue
            known = row_now[s]
            if known is None:
                known = row_now[s] = _walk_table(s, n_now, adjacent, static or frozenset(), pos)
            hit = known.passed_any & blocked
            # (the look-up of `open_ends` written out: most blocked walks find it there)
            each(f, s, None, known.ends if not hit else known.by_blocked.get(hit) or known.open_ends(blocked), out)

    def walk(f, s, p, out):
        walk_from(f, (s,), out)

    walk.batch = walk_from

    def walk_any(f, s, p, out):
        """Every other shape: a length per piece, blocking by a general condition,
        end sites to check."""
        if fresh:
            look_at_position(f)
        f.frm = f.at = s
        f.pc = p
        n = steps(f) if steps_per_piece else n_now
        if n <= 0:
            return
        if not simple:
            if n > MAX_WALK_STEPS:
                raise RuleError(pos, f"a walk of {n} steps is longer than the {MAX_WALK_STEPS} supported")
            each(f, s, p, sorted(_walk_ends(f, s, n, adjacent, pass_mask, bad, pos)), out)
            return
        row = tables(n)
        known = row[s]
        if known is None:
            known = row[s] = _walk_table(s, n, adjacent, static or frozenset(), pos)
        each(f, s, p, known.open_ends(blocked), out)

    chosen = walk if simple and not steps_per_piece and ok is None else walk_any
    chosen.prelude = prelude
    return chosen


class _Walks:
    """The walks of exactly n steps from one site: their end sites and, for each
    end, the bitmasks of the sites passed on the way (only the minimal ones)."""

    __slots__ = ("ends", "passed_any", "single", "several", "by_blocked")

    # How many sets of blocked sites a table remembers the open ends for.
    MEMO = 256

    def __init__(self, ends: tuple, passed_any: int, single: tuple, several: tuple):
        self.ends = ends  # all end sites, sorted
        self.passed_any = passed_any  # union of all passed masks
        self.single = single  # ((end, mask), ...): ends reached one way
        self.several = several  # ((end, minimal masks), ...): the others
        # open ends by the blocked sites that matter: blockers move seldom, so the
        # same few sets come back position after position
        self.by_blocked: dict = {}

    def open_ends(self, blocked: int):
        """The ends of walks that pass no site of the bitmask `blocked`."""
        hit = self.passed_any & blocked
        if not hit:
            return self.ends
        ends = self.by_blocked.get(hit)
        if ends is None:
            if len(self.by_blocked) >= self.MEMO:
                self.by_blocked.clear()
            ends = self.by_blocked[hit] = tuple(
                [t for t, m in self.single if not m & hit]
                + [t for t, masks in self.several if any(not m & hit for m in masks)]
            )
        return ends


def _walk_table(start: int, n: int, adjacent: list, forbidden: frozenset, pos) -> _Walks:
    """The walks of exactly n steps from `start` that enter no site twice and pass no
    site of `forbidden`. A mask is the bitmask of the sites passed on the way."""
    by_end: dict = {}
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
                    raise RuleError(pos, f"walks of {n} steps explore more than {MAX_WALK_NODES} paths")
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


def _walk_ends(f, start: int, n: int, adjacent: list, pass_mask, bad, pos) -> set:
    """End sites of all walks of exactly n steps from `start` without revisiting,
    the sites before the last not blocked (any condition). Depth-first."""
    ends: set = set()
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
        if len(path) == n:
            ends.add(t)
            continue
        if pass_mask is not None and pass_mask[t] and bad(f, t):
            continue
        explored += 1
        if explored > MAX_WALK_NODES:
            raise RuleError(pos, f"a walk of {n} steps explores more than {MAX_WALK_NODES} paths")
        path.append(t)
        on_path.add(t)
        stack.append(iter(adjacent[t]))
    return ends


def go_pattern(targets, landing: Landing) -> Callable:
    """To any site of a set, whatever lies between."""
    each = landing.each_emitter()

    def go(f, s, p, out):
        f.frm = f.at = s
        f.pc = p
        each(f, s, p, targets(f), out)

    return go


def choose_site_pattern(targets, piece_where, landing: Landing, fresh: Optional[list], pool_offset) -> Callable:
    """drop (a new piece — the player's, or neutral — from a pool if given) or
    select (no piece): a site of a set is chosen, and the cases say what happens."""
    each = landing.each_emitter()

    def choose(f, out):
        me = f.p
        if pool_offset is not None and f.v[pool_offset + me] <= 0:
            return
        f.frm = f.at = -1
        p = fresh[me] if fresh is not None else None
        f.pc = p
        if piece_where is not None and not piece_where(f):
            return
        each(f, -1, p, targets(f), out)

    return choose
