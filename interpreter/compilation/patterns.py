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
            watch_taken = [a or b for a, b in zip(land_mask or nowhere, capture_mask or nowhere)]

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

    def emitter(self) -> Callable:
        """emit(frame, from, piece, to, out, me): classify the landing site, check it,
        and record the action. Used where a loop over candidates is not the hot path."""
        c_empty, c_own, c_neutral, c_enemy = self.case_ids
        ok, watch_empty, watch_taken = self.accept()

        def emit(f, s, p, t, out, me):
            q = f.b[t]
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

        return emit


def with_piece_condition(gen: Callable, where: Optional[Callable]) -> Callable:
    """A piece generator that first asks a condition about the piece (and `from`)."""
    if where is None:
        return gen

    def guarded(f, s, p, out):
        f.frm = f.at = s
        f.pc = p
        if where(f):
            gen(f, s, p, out)

    return guarded


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


def leap_pattern(tables, low, high, rays, dirs_table, landing: Landing, off_case, off_where) -> Callable:
    """Exactly `distance` sites along a direction, over anything in between; off the
    board when the distance leads beyond the edge (one action per piece)."""
    c_empty, c_own, c_neutral, c_enemy = landing.case_ids
    ok, watch_empty, watch_taken = landing.accept()
    pass_mask, blocked = landing.blocked()
    all_off = ((), True)

    def off_board(f, s, out):
        if off_where is not None:
            f.to = -1
            f.tg = None
            if not off_where(f):
                return
        out.append((off_case, s, -1, -1))

    if high is None and blocked is None:
        # Exact distance with nothing in between to check: one table lookup per piece.
        def leap(f, s, p, out):
            b = f.b
            me = f.p
            f.frm = f.at = s
            f.pc = p
            d = low(f)
            if d <= 0:
                return
            row = tables[me][s]
            on, off = row[d] if d < len(row) else all_off
            for t in on:
                q = b[t]
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
            if off and off_case is not None:
                off_board(f, s, out)

        return leap

    emit = landing.emitter()

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
                emit(f, s, p, ray[k - 1], out, me)

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
    c_empty, c_own, c_neutral, c_enemy = landing.case_ids
    ok, watch_empty, watch_taken = landing.accept()
    if ok is None:
        def to_each(f, s, p, out):
            b = f.b
            me = f.p
            for t in targets[me][s]:
                q = b[t]
                if q is None:
                    if c_empty is not None:
                        out.append((c_empty, s, t, -1))
                else:
                    o = q[0]
                    cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
                    if cid is not None:
                        out.append((cid, s, t, -1))

        return to_each

    if watch_empty is None:
        def to_each_checked(f, s, p, out):
            b = f.b
            me = f.p
            for t in targets[me][s]:
                q = b[t]
                if q is None:
                    cid = c_empty
                else:
                    o = q[0]
                    cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
                if cid is not None and ok(f, s, p, t, q):
                    out.append((cid, s, t, -1))

        return to_each_checked

    def to_each_watched(f, s, p, out):
        b = f.b
        me = f.p
        for t in targets[me][s]:
            q = b[t]
            if q is None:
                if c_empty is not None and (not watch_empty[t] or ok(f, s, p, t, q)):
                    out.append((c_empty, s, t, -1))
            else:
                o = q[0]
                cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
                if cid is not None and (not watch_taken[t] or ok(f, s, p, t, q)):
                    out.append((cid, s, t, -1))

    return to_each_watched


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
    (over_empty, c_own, c_neutral, c_enemy), take = jump_info[2]
    s_empty, s_own, s_neutral, s_enemy = landing.case_ids
    if s_own is not None or s_neutral is not None or s_enemy is not None:
        return None  # a step onto a piece would compete with the jump over it
    ok, watch_empty, _ = landing.accept()
    n_sites = len(neighbours[0])
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
                if s_empty is not None and (
                    ok is None or (watch_empty is not None and not watch_empty[t]) or ok(f, s, p, t, q)
                ):
                    out.append((s_empty, s, t, -1))
            elif land >= 0 and b[land] is None:
                o = q[0]
                if (c_own if o == me else (c_neutral if o < 0 else c_enemy)) is not None:
                    take(f, s, p, t, q, land, me, out)

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
    where = landing.where
    checked = capture_mask is not None or land_mask is not None or where is not None
    low_fixed = low if isinstance(low, int) else None
    high_fixed = FAR if high is None else (high if isinstance(high, int) else None)

    def take(f, s, p, t, q, land, me, out):
        """The jump from s over t (holding q) to the empty `land`, if allowed."""
        o = q[0]
        cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
        if cid is None:
            return
        if checked:
            f.frm = f.at = s
            f.pc = p
            if o >= 0 and o != me and capture_mask is not None and capture_mask[t] and capture_bad(f, t):
                return
            if land_mask is not None and land_mask[land] and land_bad(f, land):
                return
            if where is not None:
                f.to = land
                f.tg = None
                f.js = t
                f.jp = q
                accepted = where(f)
                f.js = -1
                f.jp = None
                if not accepted:
                    return
        out.append((cid, s, land, t))

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
                    if (c_own if o == me else (c_neutral if o < 0 else c_enemy)) is not None:
                        take(f, s, p, t, q, land, me, out)

        adjacent_jump.fusion = ("adjacent jump", tuple(dirs_table), (over_cases, take))
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
                    take(f, s, p, t, q, ray[k], me, out)
                break

    return jump


def walk_pattern(steps, adjacent: list, landing: Landing, pos, neutral_kinds: frozenset) -> Callable:
    """Exactly N steps along edges, never entering a site twice (the start counts
    as entered); each end site once per piece.

    The board's paths never change, so the walks of each (start, length) are
    found once and kept as (end, bitmasks of the sites passed); a position then
    only needs the bitmask of the sites that block passing."""
    emit = landing.emitter()
    ok = landing.accept()[0]
    c_empty, c_own, c_neutral, c_enemy = landing.case_ids
    pass_mask, bad = landing.blocked()
    passing = landing.passing
    static = passing.static_sites if passing is not None and passing.kinds is not None else None
    blocker_kinds = passing.kinds if passing is not None else None
    simple = passing is None or (blocker_kinds is not None)
    # walks[site][n]: the walk table of n steps from site, filled on first use.
    walks = [[None] * 8 for _ in adjacent]

    def blockers(f) -> int:
        """Bitmask of the sites holding a piece of a blocking kind."""
        memo = f.memo
        if "walk-blockers" in memo:
            return memo["walk-blockers"]
        b = f.b
        mask = 0
        owners = (f.o[-1],) if blocker_kinds <= neutral_kinds else f.o
        for sites in owners:
            for t in sites:
                if b[t][1] in blocker_kinds:
                    mask |= 1 << t
        memo["walk-blockers"] = mask
        return mask

    def walk(f, s, p, out):
        f.frm = f.at = s
        f.pc = p
        n = steps(f)
        if n <= 0:
            return
        if n > MAX_WALK_STEPS:
            raise RuleError(pos, f"a walk of {n} steps is longer than the {MAX_WALK_STEPS} supported")
        me = f.p
        if not simple:
            for t in sorted(_walk_ends(f, s, n, adjacent, pass_mask, bad, pos)):
                emit(f, s, p, t, out, me)
            return
        row = walks[s]
        if n >= len(row):
            row.extend([None] * (n + 1 - len(row)))
        known = row[n]
        if known is None:
            known = row[n] = _walk_table(s, n, adjacent, static or frozenset(), pos)
        ends, passed_any, single, several = known
        if blocker_kinds:
            blocked = blockers(f)
            if passed_any & blocked:
                ends = [t for t, m in single if not m & blocked]
                if several:
                    ends += [t for t, masks in several if _some_free(masks, blocked)]
        if ok is None:
            b = f.b
            for t in ends:
                q = b[t]
                if q is None:
                    if c_empty is not None:
                        out.append((c_empty, s, t, -1))
                else:
                    o = q[0]
                    cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
                    if cid is not None:
                        out.append((cid, s, t, -1))
        else:
            for t in ends:
                emit(f, s, p, t, out, me)

    return walk


def _some_free(masks: tuple, blocked: int) -> bool:
    for m in masks:
        if not m & blocked:
            return True
    return False


def _walk_table(start: int, n: int, adjacent: list, forbidden: frozenset, pos) -> tuple:
    """(ends, union of passed masks, ((end, mask), ...) for ends reached one way,
    ((end, minimal masks), ...) for the others) of all walks of exactly n steps from
    `start` that enter no site twice and pass no site of `forbidden`. A mask is the
    bitmask of the sites passed on the way."""
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
    return tuple(sorted(by_end)), union, tuple(single), tuple(several)


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
    emit = landing.emitter()

    def go(f, s, p, out):
        f.frm = f.at = s
        f.pc = p
        me = f.p
        for t in targets(f):
            if t != s:
                emit(f, s, p, t, out, me)

    return go


def choose_site_pattern(targets, piece_where, landing: Landing, fresh: Optional[list], pool_offset) -> Callable:
    """drop (a new piece — the player's, or neutral — from a pool if given) or
    select (no piece): a site of a set is chosen, and the cases say what happens."""
    emit = landing.emitter()

    def choose(f, out):
        me = f.p
        if pool_offset is not None and f.v[pool_offset + me] <= 0:
            return
        f.frm = f.at = -1
        p = fresh[me] if fresh is not None else None
        f.pc = p
        if piece_where is not None and not piece_where(f):
            return
        for t in targets(f):
            emit(f, -1, p, t, out, me)

    return choose
