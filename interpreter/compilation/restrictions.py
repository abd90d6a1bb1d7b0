"""`forbid passing|landing|capturing where COND` → one Restriction per kind.

A restriction is asked about many sites in every position, so it is compiled into
a mask of the sites it can apply to plus the condition to ask only there: a
`site in REGION` conjunct gives the mask, a `site is KIND` conjunct is checked on
the piece first. Walks also want its shape: sites always forbidden, or pieces of
some kinds that block wherever they stand (see patterns.walk_pattern).

Conjuncts that depend on the position only (`rome_closed`: variables, the board,
the player — not the site, the piece or where it comes from) are *gates*: they
are asked once per position (see `Restrictions.refresher`), and a forbid whose
gate is shut is taken out of the masks, so that no candidate asks about it at all.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from typing import Callable, Optional

from ..parsing import ast as A
from . import patterns as P
from .expressions import ExpressionCompiler, RuleError, conjuncts, is_name

FORBID_KINDS = ("passing", "landing", "capturing")
# What a condition may depend on and still be asked once per position.
NOT_POSITION_LEVEL = frozenset({"site", "piece", "from", "locals"})


@dataclass
class _Entry:
    """One forbid: where it applies and what else must hold there."""

    base: list  # the sites it can apply to (may be a region's own mask: never changed)
    live: list  # `base` while the gate is open, no site while it is shut
    fn: Callable  # the condition left to ask at a site (the gate taken out)
    shape: Optional[tuple]  # see _one
    kind: Optional[int]  # the kind the piece on the site must be of, if the forbid says
    gate: Optional[int] = None  # index of its gate in Restrictions.gates


class Restrictions:
    """The compiled forbids of a game, by kind (`passing`, `landing`, `capturing`).

    Masks handed to generators are live lists: when the gates of a new position
    differ from the last one's, they are rewritten in place. Every decision
    generator calls its `refresher()` before it asks anything of a restriction."""

    def __init__(self, by_kind: dict, entries: list, gates: list, n_sites: int, n_kinds: int):
        self.by_kind = by_kind
        self.entries = entries  # (restriction, its entries)
        self.gates = tuple(gates)
        self.unions: list = []  # (live list, masks it is the union of)
        self.nowhere = [False] * (n_sites + 1)
        self.n_kinds = n_kinds
        self._last: object = None  # the gates of the last position (a bool when one)
        all_open = (True,) * len(self.gates)
        for restriction, own in entries:
            restriction.mask = _union([e.live for e in own])
            restriction.kind_mask = self._kind_mask(own, all_open)

    def __getitem__(self, what: str) -> Optional[P.Restriction]:
        return self.by_kind[what]

    def union(self, masks: list) -> list:
        """A live list: the union of live masks, kept up to date by `refresh`."""
        live = _union(masks)
        if self.gates:
            self.unions.append((live, masks))
        return live

    def refresher(self) -> Optional[Callable]:
        """refresh(frame) for decision generators, or None when nothing is gated."""
        if not self.gates:
            return None
        gates = self.gates
        if len(gates) == 1:
            gate = gates[0]

            def refresh_one(f):
                state = bool(gate(f))
                if state is not self._last:
                    self._open(state)

            return refresh_one

        def refresh(f):
            state = tuple(bool(g(f)) for g in gates)
            if state != self._last:
                self._open(state)

        return refresh

    def _open(self, state) -> None:
        """Rewrite the live masks for gates `state` (a bool, or one per gate)."""
        self._last = state
        opened = (state,) if state is True or state is False else state
        for _, own in self.entries:
            for e in own:
                if e.gate is not None:
                    e.live[:] = e.base if opened[e.gate] else self.nowhere
        for restriction, own in self.entries:
            restriction.mask[:] = _union([e.live for e in own])
            restriction.kind_mask[:] = self._kind_mask(own, opened)
        for live, masks in self.unions:
            live[:] = _union(masks)

    def _kind_mask(self, own: list, opened: tuple) -> list:
        """kind_mask[k]: whether some open forbid can apply to a piece of kind k."""
        open_ = [e for e in own if e.gate is None or opened[e.gate]]
        if any(e.kind is None for e in open_):
            return [True] * self.n_kinds
        kinds = {e.kind for e in open_}
        return [k in kinds for k in range(self.n_kinds)]


def compile_restrictions(
    forbids: list, x: ExpressionCompiler, n_sites: int, scope_for: Callable, errors: list
) -> Restrictions:
    """The restrictions by kind (None where nothing is forbidden); problems go to `errors`."""
    grouped: dict[str, list] = {what: [] for what in FORBID_KINDS}
    gate_keys: dict = {}
    gates: list = []
    for item in forbids:
        scope = scope_for({"site", "piece", "from"}, f"a 'forbid {item.what}' condition")
        try:
            grouped[item.what].append(_one(item.cond, scope, x, n_sites, gate_keys, gates))
        except RuleError as err:
            errors.append(err)
    by_kind = {}
    entries = []
    for what, own in grouped.items():
        own = [e for e in own if e.shape is None or e.shape[0] != "never"]
        by_kind[what] = _combine(own) if own else None
        if own:
            entries.append((by_kind[what], own))
    return Restrictions(by_kind, entries, gates, n_sites, len(x.m.kinds))


def _combine(entries: list) -> P.Restriction:
    if len(entries) == 1:
        bad = entries[0].fn
    else:
        bad = _either(tuple((e.live, e.fn) for e in entries))
    restriction = P.Restriction(None, bad)  # masks: set by Restrictions
    shapes = [e.shape for e in entries]
    if all(shape is not None for shape in shapes):
        restriction.static_sites = frozenset().union(*(s[1] for s in shapes if s[0] == "static"))
        restriction.kinds = frozenset(s[1] for s in shapes if s[0] == "kind")
    return restriction


def _one(cond: A.Expr, scope, x: ExpressionCompiler, n_sites: int, gate_keys: dict, gates: list) -> _Entry:
    """One forbid. Its shape is ("static", sites), ("kind", kind), ("never", None),
    or None for a general condition (or one with a gate)."""
    everywhere = [True] * n_sites + [False]
    mask = everywhere
    kind = None
    rest = []
    gate_parts = []
    for part in conjuncts(cond):
        if mask is everywhere and isinstance(part, A.In) and not part.negated and is_name(part.item, "site"):
            region = x.compile(part.collection, scope)
            if region.mask is not None:
                mask = region.mask
                continue
        if kind is None and isinstance(part, A.Is) and not part.negated and is_name(part.obj, "site") and part.what in x.m.kinds:
            kind = x.m.kinds[part.what].index
        v = x.boolean(part, scope)
        if not v.is_const and not v.deps & NOT_POSITION_LEVEL:
            gate_parts.append((part, v))
        else:
            rest.append(v)
    if any(v.is_const and not v.const for v in rest):
        return _Entry(mask, mask, lambda f: False, ("never", None), None)
    dynamic = [v for v in rest if not v.is_const]
    if gate_parts:
        shape = None
    elif not dynamic:
        shape = ("static", frozenset(s for s, on in enumerate(mask[:-1]) if on))
    elif kind is not None and len(dynamic) == 1 and mask is everywhere:
        shape = ("kind", kind)
    else:
        shape = None
    fn = _all_of([v.fn for v in dynamic])
    if kind is not None:
        k, cond_fn = kind, fn

        def fn(f):
            # The kind test first: it is one index, the rest may be long.
            p = f.b[f.site]
            return p is not None and p[1] == k and cond_fn(f)

    gate = None
    if gate_parts:
        # The same condition written in several forbids is asked once.
        key = tuple(_structure(part) for part, _ in gate_parts)
        if key not in gate_keys:
            gate_keys[key] = len(gates)
            gates.append(_all_of([v.fn for _, v in gate_parts]))
        gate = gate_keys[key]
    return _Entry(mask, list(mask) if gate is not None else mask, fn, shape, kind, gate)


def _all_of(fns: list) -> Callable:
    if not fns:
        return lambda f: True
    if len(fns) == 1:
        return fns[0]
    fns = tuple(fns)
    return lambda f: all(g(f) for g in fns)


def _either(pairs: tuple) -> Callable:
    """A condition true where some forbid applies (each asked only on its live sites)."""
    if len(pairs) == 2:
        (first_mask, first), (second_mask, second) = pairs

        def either(f):
            s = f.site
            return (first_mask[s] and first(f)) or (second_mask[s] and second(f))

        return either

    def any_of(f):
        s = f.site
        for mask, fn in pairs:
            if mask[s] and fn(f):
                return True
        return False

    return any_of


def _union(masks: list) -> list:
    if len(masks) == 1:
        return list(masks[0])
    return [any(column) for column in zip(*masks)]


def _structure(node):
    """A syntax tree without its source positions: equal for the same condition
    written twice."""
    if isinstance(node, (list, tuple)):
        return tuple(_structure(x) for x in node)
    if is_dataclass(node) and not isinstance(node, A.Pos):
        return (type(node).__name__,) + tuple(
            _structure(getattr(node, f.name)) for f in fields(node) if not f.name.endswith("pos")
        )
    return node
