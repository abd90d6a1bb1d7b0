"""Movement patterns → generator closures of candidate actions.

A generator is called as `gen(frame, own, out)`: `own[kind]` lists the sites of
the deciding player's pieces by kind (collected once per position), and every
legal action found is appended to `out` as a code `(case_id, from, to, extra)`.

The patterns are generic (step, slide, leap, jump, walk, go, drop, select, pass);
what a game makes of them lives in its rules. All per-site geometry comes from
the tables of `board.py`, so a generator only indexes lists.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ..runtime.state import OWNER
from .expressions import RuleError

# Bound on the number of partial walks explored for one piece (a definition can
# ask for walks of any length on any graph).
MAX_WALK_NODES = 200_000
MAX_WALK_STEPS = 500

EMPTY, OWN, NEUTRAL, ENEMY = 0, 1, 2, 3


@dataclass
class Landing:
    """What the cases of one action allow, and the checks a candidate must pass."""

    case_ids: list  # by EMPTY/OWN/NEUTRAL/ENEMY: case id or None
    land_forbidden: Optional[Callable]  # frame (with site set) -> bool
    capture_forbidden: Optional[Callable]
    pass_forbidden: Optional[Callable]
    where: Optional[Callable]  # candidate-level condition, or None

    def make(self) -> Callable:
        """cand(frame, to, piece_on_to, out, frm, extra) -> None"""
        c_empty, c_own, c_neutral, c_enemy = self.case_ids
        land_forbidden = self.land_forbidden
        capture_forbidden = self.capture_forbidden
        where = self.where
        if land_forbidden is None and capture_forbidden is None and where is None:
            def cand(f, t, q, out, frm, extra):
                if q is None:
                    cid = c_empty
                else:
                    o = q[OWNER]
                    cid = c_own if o == f.p else (c_neutral if o < 0 else c_enemy)
                if cid is not None:
                    out.append((cid, frm, t, extra))

            return cand

        def cand(f, t, q, out, frm, extra):
            if q is None:
                cid = c_empty
                enemy = False
            else:
                o = q[OWNER]
                enemy = o >= 0 and o != f.p
                cid = c_own if o == f.p else (c_neutral if o < 0 else c_enemy)
            if cid is None:
                return
            f.site = t
            if land_forbidden is not None and land_forbidden(f):
                return
            if enemy and capture_forbidden is not None and capture_forbidden(f):
                return
            if where is not None:
                f.to = t
                f.tg = q
                if not where(f):
                    return
            out.append((cid, frm, t, extra))

        return cand

    def passable(self) -> Callable:
        """ok(frame, site) -> whether the piece may pass over `site`."""
        forbidden = self.pass_forbidden
        if forbidden is None:
            return None

        def ok(f, t):
            f.site = t
            return not forbidden(f)

        return ok


@dataclass
class Starts:
    """Which pieces an action moves: kinds on the board, a pool's site, or the follow-up piece."""

    kinds: Optional[tuple]  # kind indices, or None for every kind
    pools: tuple  # (offset, sites per player, fresh piece per player)
    same_piece: bool
    piece_where: Optional[Callable]  # piece-level condition

    def make(self) -> Callable:
        """starts(frame, own) -> list of (site, piece)"""
        kinds, pools, same, where = self.kinds, self.pools, self.same_piece, self.piece_where

        def starts(f, own):
            b = f.b
            result = []
            if same:
                if f.s.carry != -1 and b[f.s.carry] is not None:
                    result.append((f.s.carry, b[f.s.carry]))
            else:
                groups = own if kinds is None else [own[k] for k in kinds]
                for group in groups:
                    for s in group:
                        result.append((s, b[s]))
                for offset, sites, fresh in pools:
                    s = sites[f.p]
                    if s != -1 and f.v[offset + f.p] > 0 and b[s] is None:
                        result.append((s, fresh[f.p]))
            if where is None:
                return result
            kept = []
            for s, p in result:
                f.frm = f.at = s
                f.pc = p
                if where(f):
                    kept.append((s, p))
            return kept

        return starts


def _enter(f, s, p):
    f.frm = f.at = s
    f.pc = p
    f.js = -1
    f.jp = None


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


def leap_pattern(
    starts: Callable,
    tables: list,
    low: Callable,
    high: Optional[Callable],
    rays: list,
    dirs: Callable,
    landing: Landing,
    off_case: Optional[int],
    off_where: Optional[Callable],
) -> Callable:
    """Exactly `distance` sites along a direction, over anything in between; off the
    board when the distance leads beyond the edge (one action per piece)."""
    c_empty, c_own, c_neutral, c_enemy = landing.case_ids
    all_off = ((), True)
    if high is None and landing.pass_forbidden is None and landing.land_forbidden is None and landing.capture_forbidden is None and landing.where is None:
        # The common case: exact distance, no restriction to check per site.
        def gen(f, own, out):
            b = f.b
            me = f.p
            table = tables[me]
            append = out.append
            for s, p in starts(f, own):
                f.frm = f.at = s
                f.pc = p
                d = low(f)
                if d <= 0:
                    continue
                row = table[s]
                on, off = row[d] if d < len(row) else all_off
                for t in on:
                    q = b[t]
                    if q is None:
                        if c_empty is not None:
                            append((c_empty, s, t, -1))
                    else:
                        o = q[0]
                        cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
                        if cid is not None:
                            append((cid, s, t, -1))
                if off and off_case is not None:
                    if off_where is None:
                        append((off_case, s, -1, -1))
                    else:
                        f.to = -1
                        f.tg = None
                        if off_where(f):
                            append((off_case, s, -1, -1))

        return gen

    cand = landing.make()
    passable = landing.passable()

    def gen(f, own, out):
        b = f.b
        for s, p in starts(f, own):
            f.frm = f.at = s
            f.pc = p
            lo = low(f)
            hi = lo if high is None else high(f)
            off_done = False
            for x in dirs(f):
                ray = rays[x][s]
                n = len(ray)
                for k in range(max(lo, 1), hi + 1):
                    if k > n:
                        if off_case is not None and not off_done:
                            f.to = -1
                            f.tg = None
                            if off_where is None or off_where(f):
                                out.append((off_case, s, -1, -1))
                            off_done = True
                        break
                    if passable is not None and not all(passable(f, t) for t in ray[: k - 1]):
                        break
                    t = ray[k - 1]
                    cand(f, t, b[t], out, s, -1)

    return gen


def step_pattern(
    starts: Callable,
    dirs: Callable,
    low: Callable,
    high: Optional[Callable],
    rays: list,
    landing: Landing,
) -> Callable:
    """Along grid directions over empty sites only, landing at a distance in low..high
    (high None: as far as the way is free)."""
    cand = landing.make()
    passable = landing.passable()
    c_empty, c_own, c_neutral, c_enemy = landing.case_ids
    simple = landing.land_forbidden is None and landing.capture_forbidden is None and landing.where is None

    def gen(f, own, out):
        b = f.b
        me = f.p
        for s, p in starts(f, own):
            f.frm = f.at = s
            f.pc = p
            lo = low(f)
            hi = high(f) if high is not None else 1 << 30
            for x in dirs(f):
                k = 0
                for t in rays[x][s]:
                    k += 1
                    if k > hi:
                        break
                    q = b[t]
                    if k >= lo:
                        if simple:
                            if q is None:
                                if c_empty is not None:
                                    out.append((c_empty, s, t, -1))
                            else:
                                o = q[0]
                                cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
                                if cid is not None:
                                    out.append((cid, s, t, -1))
                        else:
                            cand(f, t, q, out, s, -1)
                    if q is not None:
                        break
                    if passable is not None and not passable(f, t):
                        break

    return gen


def jump_pattern(
    starts: Callable,
    dirs: Callable,
    low: Callable,
    high: Optional[Callable],
    rays: list,
    over_cases: list,  # by EMPTY(unused)/OWN/NEUTRAL/ENEMY
    landing: Landing,
) -> Callable:
    """Over exactly one piece at distance low..high, the squares before it empty,
    landing on the square just beyond it, which must be empty."""
    _, c_own, c_neutral, c_enemy = over_cases
    passable = landing.passable()
    land_forbidden = landing.land_forbidden
    capture_forbidden = landing.capture_forbidden
    where = landing.where

    def gen(f, own, out):
        b = f.b
        me = f.p
        for s, p in starts(f, own):
            _enter(f, s, p)
            lo = low(f)
            hi = high(f) if high is not None else 1 << 30
            for d in dirs(f):
                ray = rays[d][s]
                k = 0
                for t in ray:
                    k += 1
                    if k > hi:
                        break
                    q = b[t]
                    if q is None:
                        if passable is not None and not passable(f, t):
                            break
                        continue
                    if k < lo or k >= len(ray):
                        break
                    land = ray[k]
                    if b[land] is not None:
                        break
                    o = q[OWNER]
                    enemy = o >= 0 and o != me
                    cid = c_own if o == me else (c_neutral if o < 0 else c_enemy)
                    if cid is None:
                        break
                    f.site = t
                    if enemy and capture_forbidden is not None and capture_forbidden(f):
                        break
                    f.site = land
                    if land_forbidden is not None and land_forbidden(f):
                        break
                    if where is not None:
                        f.to = land
                        f.tg = None
                        f.js = t
                        f.jp = q
                        ok = where(f)
                        f.js = -1
                        f.jp = None
                        if not ok:
                            break
                    out.append((cid, s, land, t))
                    break

    return gen


def walk_pattern(starts: Callable, steps: Callable, adjacent: list, landing: Landing, pos) -> Callable:
    """Exactly N steps along edges, never entering a site twice (the start counts
    as entered); each end site once per piece."""
    cand = landing.make()
    passable = landing.passable()

    def gen(f, own, out):
        b = f.b
        for s, p in starts(f, own):
            _enter(f, s, p)
            n = steps(f)
            if n <= 0:
                continue
            if n > MAX_WALK_STEPS:
                raise RuleError(pos, f"a walk of {n} steps is longer than the {MAX_WALK_STEPS} supported")
            ends: set = set()
            visited = {s}
            budget = [MAX_WALK_NODES]

            def extend(site, left):
                budget[0] -= 1
                if budget[0] < 0:
                    raise RuleError(pos, f"a walk of {n} steps explores more than {MAX_WALK_NODES} paths")
                for t in adjacent[site]:
                    if t in visited:
                        continue
                    if left == 1:
                        ends.add(t)
                        continue
                    if passable is not None and not passable(f, t):
                        continue
                    visited.add(t)
                    extend(t, left - 1)
                    visited.discard(t)

            extend(s, n)
            for t in sorted(ends):
                cand(f, t, b[t], out, s, -1)

    return gen


def go_pattern(starts: Callable, targets: Callable, landing: Landing) -> Callable:
    """To any site of a set, whatever lies between."""
    cand = landing.make()

    def gen(f, own, out):
        b = f.b
        for s, p in starts(f, own):
            _enter(f, s, p)
            for t in targets(f):
                if t != s:
                    cand(f, t, b[t], out, s, -1)

    return gen


def drop_pattern(fresh: list, pool_offset: Optional[int], targets: Callable, piece_where, landing: Landing) -> Callable:
    """A new piece (per player, or neutral) onto a site of a set, from a pool if given."""
    cand = landing.make()

    def gen(f, own, out):
        if pool_offset is not None and f.v[pool_offset + f.p] <= 0:
            return
        f.frm = f.at = -1
        f.pc = fresh[f.p]
        f.js = -1
        f.jp = None
        if piece_where is not None and not piece_where(f):
            return
        b = f.b
        for t in targets(f):
            cand(f, t, b[t], out, -1, -1)

    return gen


def select_pattern(targets: Callable, piece_where, landing: Landing) -> Callable:
    cand = landing.make()

    def gen(f, own, out):
        f.frm = f.at = -1
        f.pc = None
        f.js = -1
        f.jp = None
        if piece_where is not None and not piece_where(f):
            return
        b = f.b
        for t in targets(f):
            cand(f, t, b[t], out, -1, -1)

    return gen
