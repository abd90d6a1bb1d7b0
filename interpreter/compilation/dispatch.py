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


def decision_generator(actions: list, n_kinds: int, cases: list, pool_pieces: list, neighbours: list) -> Callable:
    """gen(frame, out) for a decision: each of the player's pieces is visited once
    and handed to the actions of its kind; then pools, the follow-up piece, drops,
    selections and, when nothing else is legal, passes.

    Actions with a condition that does not depend on the piece (`where die == 6`)
    are switched on or off once per position; the dispatch tables for each
    combination are built on first use and kept."""
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
                clashing |= {i, index[id(b)]}
                from_free |= without_from
    tids = TemplateIds(cases)
    guards = tuple((i, a.guard) for i, a in enumerate(actions) if a.guard is not None)
    configs: dict = {}

    def configure(disabled: frozenset) -> _Dispatch:
        on = [a for i, a in enumerate(actions) if i not in disabled]
        clash = sum(1 for i in clashing if i not in disabled) > (0 if from_free else 1)
        movers = [a for a in on if a.piece_gen is not None and not a.same_piece]
        by_kind = []
        dedup_kind = []
        for k in range(n_kinds):
            entries = tuple((index[id(a)], a.piece_gen) for a in movers if a.kinds is None or k in a.kinds)
            by_kind.append(entries)
            dedup_kind.append(clash and not from_free and sum(1 for i, _ in entries if i in clashing) > 1)
        pools: dict = {}
        for a in movers:
            for pool in a.pools:
                pools.setdefault(pool, []).append(a.piece_gen)
        return _Dispatch(
            any_board_movers=any(a.kinds is None or a.kinds for a in movers),
            plain=tuple(_fused(tuple(g for _, g in entries), neighbours) for entries in by_kind),
            entries=tuple(by_kind),
            dedup_kind=tuple(dedup_kind),
            pools=tuple((pool, tuple(gens)) for pool, gens in pools.items()),
            same=tuple(a.piece_gen for a in on if a.piece_gen is not None and a.same_piece),
            placers=tuple(a.place_gen for a in on if a.place_gen is not None and not a.only_if_stuck),
            passes=tuple(a.place_gen for a in on if a.only_if_stuck),
            dedup_pieces=clash and not from_free,
            dedup_all=clash and from_free,
        )

    static = configure(frozenset())

    def gen(f, out):
        if guards:
            disabled = frozenset(i for i, guard in guards if not guard(f))
            d = configs.get(disabled)
            if d is None:
                d = configs[disabled] = configure(disabled)
        else:
            d = static
        me = f.p
        b = f.b
        if d.any_board_movers:
            plain, dedup_kind = d.plain, d.dedup_kind
            for s in f.o[me]:
                p = b[s]
                k = p[1]
                if dedup_kind[k]:
                    _clashing_piece(f, s, p, out, d.entries[k], clashing, tids)
                else:
                    for g in plain[k]:
                        g(f, s, p, out)
        for (offset, sites), gens in d.pools:
            s = sites[me]
            if s == -1 or f.v[offset + me] <= 0 or b[s] is not None:
                continue
            p = pool_pieces[s]
            start = len(out)
            for g in gens:
                g(f, s, p, out)
            if d.dedup_pieces and len(out) - start > 1:
                _drop_repeats(out, start, tids)
        if d.same:
            carry = f.s.carry
            if carry != -1 and b[carry] is not None:
                start = len(out)
                for g in d.same:
                    g(f, carry, b[carry], out)
                if d.dedup_pieces and len(out) - start > 1:
                    _drop_repeats(out, start, tids)
        for g in d.placers:
            g(f, out)
        if not out:
            for g in d.passes:
                g(f, out)
        if d.dedup_all and len(out) > 1:
            _drop_repeats(out, 0, tids)

    return gen


@dataclass
class _Dispatch:
    """Which generators a decision runs, by kind of piece, for one set of enabled actions."""

    any_board_movers: bool
    plain: tuple  # per kind: piece generators
    entries: tuple  # per kind: (action index, piece generator)
    dedup_kind: tuple  # per kind: whether two of its actions may write the same notation
    pools: tuple  # ((offset, sites), generators)
    same: tuple  # generators of the follow-up piece
    placers: tuple  # drop and select generators
    passes: tuple  # pass generators (only when nothing else is legal)
    dedup_pieces: bool
    dedup_all: bool


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
        case_tid = tids.by_case()
        seen = {(case_tid[c[0]], c[2]) for a, b in spans for c in out[a:b]}
        fresh = [c for c in out[start:] if (case_tid[c[0]], c[2]) not in seen]
        if len(fresh) != len(out) - start:
            del out[start:]
            out.extend(fresh)
        spans.append((start, len(out)))


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


def _notation_key(template: tuple, code: tuple) -> tuple:
    return (
        template,
        code[1] if "{from}" in template else None,
        code[2] if "{to}" in template else None,
        code[3] if "{outcome}" in template else None,
    )
