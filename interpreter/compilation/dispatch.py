"""Listing the actions of a decision in a position, from its compiled actions.

Each of the deciding player's pieces is visited once and handed to the piece
generators of the actions its kind may take (patterns.py); then come pieces
waiting in pools, the piece of a follow-up decision, drops and selections, and
passes when nothing else is legal. Two refinements keep this close to hand-written
speed: a one-step action and an adjacent-jump action over the same directions are
fused into one pass, and actions that may write the same notation are compared
only when both produced something for the same piece.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from . import patterns as P


@dataclass
class CompiledAction:
    name: str
    guard: Optional[Callable]  # action-level condition, checked once per position
    templates: list
    movers: Optional[set]  # kinds it can move (None: not limited to kinds)
    piece_gen: Optional[Callable] = None  # (frame, site, piece, out) for moving patterns
    place_gen: Optional[Callable] = None  # (frame, out) for drop, select and pass
    kinds: Optional[tuple] = None  # kinds on the board it moves (None: all)
    pools: tuple = ()  # (offset, site per player) of pools whose pieces it moves
    same_piece: bool = False
    only_if_stuck: bool = False
    # reach[player][site]: the sites it can ever land on from there (None: unknown)
    reach: Optional[list] = None


def _fused(gens: tuple, neighbours: list) -> tuple:
    """The generators of one kind with each one-step action and adjacent-jump
    action over the same directions merged into one pass (see fuse_step_and_jump)."""
    gens = list(gens)
    for i in range(len(gens)):
        for j in range(len(gens)):
            if i != j and gens[i] is not None and gens[j] is not None:
                merged = P.fuse_step_and_jump(gens[i], gens[j], neighbours) if neighbours else None
                if merged is not None:
                    gens[i], gens[j] = merged, None
    return tuple(g for g in gens if g is not None)


def decision_generator(
    actions: list, n_kinds: int, cases: list, pool_pieces: list, neighbours: list, refresh: Optional[Callable] = None
) -> Callable:
    """gen(frame, out) for a decision: each of the player's pieces is visited once
    and handed to the actions of its kind; then pools, the follow-up piece, drops,
    selections and, when nothing else is legal, passes.

    Actions with a condition that does not depend on the piece (`where die == 6`)
    are switched on or off once per position; the dispatch tables for each
    combination are built on first use and kept. `refresh(frame)`, when given,
    brings the masks of gated restrictions up to date with the position first."""
    index = {id(a): i for i, a in enumerate(actions)}

    # Actions that may produce the same notation: a travel that is also a step.
    clashing: set = set()
    from_free = False
    for i, a in enumerate(actions):
        if a.piece_gen is not None and any("{from}" not in t for t in a.templates):
            # Without its origin in the notation, one action moving two pieces can
            # write the same thing twice.
            clashing.add(i)
            from_free = True
        for b in actions[:i]:
            shared = set(a.templates) & set(b.templates)
            without_from = any("{from}" not in t for t in shared)
            if shared and (without_from or a.movers is None or b.movers is None or a.movers & b.movers):
                if not without_from and not _may_land_alike(a, b):
                    continue
                clashing |= {i, index[id(b)]}
                from_free |= without_from
    tids = TemplateIds(cases)

    def configure(disabled: frozenset) -> _Dispatch:
        on = [a for i, a in enumerate(actions) if i not in disabled]
        clash = sum(1 for i in clashing if i not in disabled) > (0 if from_free else 1)
        dedup_pieces = clash and not from_free
        movers = [a for a in on if a.piece_gen is not None and not a.same_piece]

        def clash_among(entries: tuple) -> bool:
            """Whether two of the actions of one piece may write the same notation."""
            return dedup_pieces and sum(1 for i, _ in entries if i in clashing) > 1

        handlers = []
        for k in range(n_kinds):
            entries = tuple((index[id(a)], a.piece_gen) for a in movers if a.kinds is None or k in a.kinds)
            if clash_among(entries):
                handlers.append(_clashing_pieces(entries, clashing, tids))
            else:
                handlers.append(_one_after_another(_fused(tuple(g for _, g in entries), neighbours)))
        pools: dict = {}
        for a in movers:
            for pool in a.pools:
                pools.setdefault(pool, []).append((index[id(a)], a.piece_gen))
        same = tuple((index[id(a)], a.piece_gen) for a in on if a.piece_gen is not None and a.same_piece)
        moving = {h for h in handlers if h is not _no_action}
        batch = None
        if len(moving) == 1 and hasattr(next(iter(moving)), "batch"):
            # One generator for every kind that moves at all: it walks the list of
            # pieces itself, skipping the others by a mask (no call per piece).
            handler = next(iter(moving))
            batch = (handler.batch, [h is handler for h in handlers])
        return _Dispatch(
            preludes=tuple(a.piece_gen.prelude for a in on if hasattr(a.piece_gen, "prelude")),
            by_kind=tuple(handlers) if any(a.kinds is None or a.kinds for a in movers) else None,
            batch=batch,
            pools=tuple(
                _from_pool(offset, sites, _piece_handler(tuple(g for _, g in entries), clash_among(entries), tids), pool_pieces)
                for (offset, sites), entries in pools.items()
            ),
            same=_follow_up_piece(_piece_handler(tuple(g for _, g in same), clash_among(same), tids)) if same else None,
            placers=tuple(a.place_gen for a in on if a.place_gen is not None and not a.only_if_stuck),
            passes=tuple(a.place_gen for a in on if a.only_if_stuck),
            dedup_all=clash and from_free,
        )

    choose = _chooser(tuple((i, a.guard) for i, a in enumerate(actions) if a.guard is not None), configure)

    def gen(f, out):
        if refresh is not None:
            refresh(f)
        d = choose(f)
        for prelude in d.preludes:
            prelude(f)
        by_kind = d.by_kind
        if d.batch is not None:
            batch, kinds = d.batch
            batch(f, f.o[f.p], out, kinds)
        elif by_kind is not None:
            b = f.b
            for s in f.o[f.p]:
                p = b[s]
                by_kind[p[1]](f, s, p, out)
        for from_pool in d.pools:
            from_pool(f, out)
        if d.same is not None:
            d.same(f, out)
        for g in d.placers:
            g(f, out)
        if not out:
            for g in d.passes:
                g(f, out)
        if d.dedup_all and len(out) > 1:
            _drop_repeats(out, 0, tids)

    return gen


def _chooser(guards: tuple, configure: Callable) -> Callable:
    """choose(frame) -> the _Dispatch for the actions whose guards hold (built on
    first use). The usual cases, no guard or one, cost no set and no lookup."""
    if not guards:
        static = configure(frozenset())
        return lambda f: static
    if len(guards) == 1:
        (i, guard), = guards
        enabled, disabled = configure(frozenset()), configure(frozenset({i}))
        return lambda f: enabled if guard(f) else disabled
    configs: dict = {}

    def choose(f):
        key = 0
        bit = 1
        for _, guard in guards:
            if not guard(f):
                key |= bit
            bit <<= 1
        d = configs.get(key)
        if d is None:
            d = configs[key] = configure(frozenset(i for j, (i, _) in enumerate(guards) if key >> j & 1))
        return d

    return choose


def _may_land_alike(a: CompiledAction, b: CompiledAction) -> bool:
    """Whether one piece could land on the same site by both actions (so that both
    write the same notation), judged by what each can ever reach."""
    if a.reach is None or b.reach is None:
        return True
    return any(x & y for ra, rb in zip(a.reach, b.reach) for x, y in zip(ra, rb))


@dataclass
class _Dispatch:
    """Which generators a decision runs, for one set of enabled actions."""

    preludes: tuple  # called once per position, before any generator (see walk_pattern)
    by_kind: Optional[tuple]  # per kind: piece handler (frame, site, piece, out); None: nothing moves
    batch: Optional[tuple]  # (handler(frame, sites, out, kinds), kinds mask) when one handler does all
    pools: tuple  # handlers (frame, out) of the pieces waiting in pools
    same: Optional[Callable]  # handler (frame, out) of the follow-up piece
    placers: tuple  # drop and select generators
    passes: tuple  # pass generators (only when nothing else is legal)
    dedup_all: bool


def _one_after_another(gens: tuple) -> Callable:
    """One piece handler running the generators of a kind in turn: the decision
    makes one call per piece whatever the kind has."""
    if not gens:
        return _no_action
    if len(gens) == 1:
        return gens[0]
    if len(gens) == 2:
        first, second = gens

        def both(f, s, p, out):
            first(f, s, p, out)
            second(f, s, p, out)

        return both

    def each(f, s, p, out):
        for g in gens:
            g(f, s, p, out)

    return each


def _no_action(f, s, p, out) -> None:
    return None


def _clashing_pieces(entries: tuple, clashing: set, tids: "TemplateIds") -> Callable:
    """Piece handler of a kind two of whose actions may write the same notation."""
    if len(entries) == 2:
        # Just the two actions that clash (so both are in `clashing`): no loop and no
        # list of spans.
        (_, first), (_, second) = entries

        def clashing_pair(f, s, p, out):
            start = len(out)
            first(f, s, p, out)
            middle = len(out)
            second(f, s, p, out)
            if start < middle < len(out):
                _drop_seen(out, ((start, middle),), middle, tids)

        return clashing_pair

    def clashing_piece(f, s, p, out):
        _clashing_piece(f, s, p, out, entries, clashing, tids)

    return clashing_piece


def _piece_handler(gens: tuple, dedup: bool, tids: "TemplateIds") -> Callable:
    """handler(frame, site, piece, out) running `gens` for one piece, keeping the first
    of the actions that write the same notation when `dedup` (else the generators
    in turn, without a call of their own when there is one)."""
    if not dedup:
        return _one_after_another(gens)

    def deduplicated(f, s, p, out):
        start = len(out)
        for g in gens:
            g(f, s, p, out)
        if len(out) - start > 1:
            _drop_repeats(out, start, tids)

    return deduplicated


def _from_pool(offset: int, sites: tuple, handler: Callable, pool_pieces: list) -> Callable:
    """Handler of the piece waiting in a pool (standing on the pool's site), if any."""

    def from_pool(f, out):
        me = f.p
        s = sites[me]
        if s == -1 or f.v[offset + me] <= 0 or f.b[s] is not None:
            return
        handler(f, s, pool_pieces[s], out)

    return from_pool


def _follow_up_piece(handler: Callable) -> Callable:
    """Handler of the piece a follow-up decision acts on (`by the same piece`)."""

    def same_piece(f, out):
        carry = f.s.carry
        p = f.b[carry] if carry != -1 else None
        if p is not None:
            handler(f, carry, p, out)

    return same_piece


def _clashing_piece(f, s, p, out, entries, clashing, tids: "TemplateIds") -> None:
    """Run one piece's generators, dropping an action of a later clashing action
    when an earlier one already wrote it. All start from this piece, so a
    notation is told by its template and its landing site."""
    spans = None  # where the earlier clashing actions wrote
    for i, g in entries:
        start = len(out)
        g(f, s, p, out)
        if i not in clashing or len(out) == start:
            continue
        if spans is None:
            spans = [(start, len(out))]
            continue
        _drop_seen(out, spans, start, tids)
        spans.append((start, len(out)))


def _drop_seen(out: list, spans, start: int, tids: "TemplateIds") -> None:
    """Drop from out[start:] the actions whose notation one in the spans (a, b) of
    `out` already writes. All start from the same piece, so a notation is told by
    its template and its landing site."""
    case_tid = tids.by_case()
    seen = {(case_tid[c[0]], c[2]) for a, b in spans for c in out[a:b]}
    fresh = [c for c in out[start:] if (case_tid[c[0]], c[2]) not in seen]
    if len(fresh) != len(out) - start:
        del out[start:]
        out.extend(fresh)


class TemplateIds:
    """case id -> a small number per distinct notation template (cases grow while compiling)."""

    def __init__(self, cases: list):
        self.cases = cases
        self.ids: dict = {}
        self._by_case: list = []

    def by_case(self) -> list:
        """Template id of every case (built on first use, when all cases exist)."""
        if len(self._by_case) != len(self.cases):
            self._by_case = [self.ids.setdefault(c.template, len(self.ids)) for c in self.cases]
        return self._by_case

    def key(self, code: tuple) -> tuple:
        template = self.cases[code[0]].template
        tid = self.ids.setdefault(template, len(self.ids))
        return (
            tid,
            code[1] if "{from}" in template else None,
            code[2] if "{to}" in template else None,
            code[3] if "{outcome}" in template else None,
        )


def _drop_repeats(out: list, start: int, tids: TemplateIds) -> None:
    """Keep the first of the actions in out[start:] that share a notation."""
    seen = set()
    kept = []
    key = tids.key
    for code in out[start:]:
        k = key(code)
        if k not in seen:
            seen.add(k)
            kept.append(code)
    if len(kept) != len(out) - start:
        del out[start:]
        out.extend(kept)
