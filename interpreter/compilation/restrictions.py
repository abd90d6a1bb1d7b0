"""`forbid passing|landing|capturing where COND` → checks written into generators.

A forbid is asked about many sites in every position, so each is split into
parts that cost less to ask first: a `site in REGION` conjunct becomes a mask
lookup, and conjuncts that depend on the position only (`rome_closed`: variables,
the board, the player — not the site, the piece or where it comes from) become a
*gate*, a local that the decision's function computes once per position. What is
left is asked only where the mask and the gate let it through.

Walks also want a forbid's shape: sites always forbidden, or pieces of some kinds
that block wherever they stand (see patterns.py and runtime/walks.py).
"""
from __future__ import annotations

import ast as py
from dataclasses import dataclass, field
from typing import Any, Optional

from ..parsing import ast
from ..parsing.visit import structure
from . import pyast
from .code import Code, conjuncts, is_name
from .errors import RuleError
from .expressions import ExpressionCompiler
from .probes import Probes
from .scope import Register, Scope
from .told_apart import reads_names
from .types import Dep

FORBID_KINDS = ("passing", "landing", "capturing")
# `forbid result where COND`: asked on the position an action leaves (see cases.py).
RESULT = "result"
# A `forbid result` line compiled: (statements, condition, its coverage probe or None,
# its gates). A gate is one of the line's conjuncts compiled on its own (statements,
# condition), written `A and B and ...` at the line's top: where it is false the line
# cannot hold, which the listed position may tell its candidates (cases.py,
# result_reuse.py) though the line as a whole reads the action.
Gate = tuple[list[py.stmt], py.expr]
ResultPart = tuple[list[py.stmt], py.expr, Optional[int], tuple[Gate, ...]]
# What a conjunct may depend on and still be asked once per position.
NOT_POSITION_LEVEL = frozenset({Dep.SITE, Dep.PIECE, Dep.FROM, Dep.LOCALS})


@dataclass
class Forbid:
    """One forbid line, split for cheap asking."""

    item: ast.Forbid
    label: str  # for coverage: "forbid passing" or "forbid NAME: passing"
    mask: Optional[frozenset[int]]  # the sites it can apply to (None: every site)
    kind: Optional[int]  # the kind the piece on the site must be, if it says `site is KIND`
    gate: list[ast.Expr]  # position-level conjuncts
    rest: list[ast.Expr]  # conjuncts to ask at a site, the kind test excluded
    never: bool = False  # a conjunct is always false

    @property
    def static_sites(self) -> Optional[frozenset[int]]:
        """The sites it always forbids, when that is all it says."""
        if self.gate or self.rest or self.kind is not None:
            return None
        return self.mask


@dataclass
class Restrictions:
    """The forbids of a game by kind, and how to write their checks."""

    exprs: ExpressionCompiler
    scope: Scope
    by_kind: dict[str, list[Forbid]] = field(default_factory=dict)  # "passing" -> its forbids
    gates: dict[Any, tuple[str, py.expr]] = field(default_factory=dict)  # structure of the gate -> (local, code)
    probes: Probes = field(default_factory=Probes)
    probe_of: dict[int, Optional[int]] = field(default_factory=dict)  # id(Forbid) -> its coverage probe
    results: list[tuple[ast.Forbid, str]] = field(default_factory=list)  # `forbid result` lines and their labels
    # the gates of `forbid result` lines that do not read the acting piece, by the
    # conjunct's structure: one code for every kind of piece and every line writing
    # it, so that a listing asks the listed position once for all its cases (cases.py)
    _gates_made: dict[Any, Optional[Gate]] = field(default_factory=dict)
    # the `forbid result` lines that do not read the acting piece, compiled for one
    # set of its kinds (`piece_kinds`), by id of the line: their code is the same for
    # every set (None: a line that cannot hold)
    _parts_by_line: dict[int, Optional[ResultPart]] = field(default_factory=dict)

    def cost(self, passes: bool = True) -> int:
        """Estimated steps to ask every forbid about one site (without the `passing`
        ones for an action that passes nothing: `go`, `drop`, `select`)."""
        kinds = [what for what in self.by_kind if passes or what != "passing"]
        asked = sum(1 + len(f.rest) for what in kinds for f in self.by_kind[what])
        return asked + sum(self.rest_costs.get(what, 0) for what in kinds) + self.result_cost

    # the estimated cost of the conditions left to ask at a site, by kind of forbid
    rest_costs: dict[str, int] = field(default_factory=dict)
    lines: list[tuple[ast.Forbid, int]] = field(default_factory=list)  # each line and its estimated steps

    def line_costs(self, passes: bool = True) -> list[tuple[ast.Pos, str, int]]:
        """(position, what, estimated steps) of each forbid line asked of a candidate."""
        return [(line.pos, f"'forbid {line.what}'", cost) for line, cost in self.lines
                if passes or line.what != "passing"]
    result_cost: int = 0  # the estimated cost of playing a candidate and asking `forbid result`

    def has(self, what: str) -> bool:
        return bool(self.by_kind.get(what))

    def static_forbidden(self, what: str) -> frozenset[int]:
        """The sites where a forbid of kind `what` applies whatever the piece and the
        position (its lines that say only `site in REGION` / `site not in REGION`):
        a table of ways may leave them out and `check(..., skip_static=True)` then
        not ask them. Empty while coverage probes count each forbid asked."""
        if self.probes.on:
            return frozenset()
        sites: frozenset[int] = frozenset()
        for forbid in self.by_kind.get(what, ()):
            if forbid.static_sites is not None:
                sites |= forbid.static_sites
        return sites

    def check(self, what: str, site: str, piece_register: Register, frm: str = "frm",
              piece_kinds: Optional[frozenset[int]] = None, piece_always: bool = False,
              site_piece: Optional[str] = None, site_occupied: bool = False,
              skip_static: bool = False) -> Optional[py.expr]:
        """Code that is true where a forbid of kind `what` applies to the site in
        local `site`, for the acting piece in `piece_register` (of one of
        `piece_kinds` when known; always there when `piece_always`); None if none can.
        `site_piece` is the local holding the piece on the site, if one does
        (`site_occupied`: it is never None there). `skip_static`: leave out the
        lines of `static_forbidden` (the caller's sites are known to pass them)."""
        parts = []
        for forbid in self.by_kind.get(what, ()):
            if skip_static and forbid.static_sites is not None and not self.probes.on:
                continue
            code = self._one(forbid, site, piece_register, frm, piece_kinds, piece_always, site_piece, site_occupied)
            if code is not None:
                parts.append(code)
        if not parts:
            return None
        return pyast.or_(*parts)

    def _one(self, forbid: Forbid, site: str, piece_register: Register, frm: str, piece_kinds: Optional[frozenset[int]],
             piece_always: bool, site_piece: Optional[str], site_occupied: bool) -> Optional[py.expr]:
        """Code true where `forbid` applies (None: never)."""
        registers = dict(self.scope.registers, site=Register(site, site_piece), piece=piece_register,
                         **{"from": Register(frm)})
        scope = self.scope.child(piece_kinds=piece_kinds, piece_always=piece_always, registers=registers)
        tests: list[py.expr] = []
        if forbid.gate:
            tests.append(pyast.name(self._gate(forbid)))
        if forbid.mask is not None:
            tests.append(pyast.sub(self._mask(forbid.mask), pyast.name(site)))
        if forbid.kind is not None:
            if site_occupied and site_piece is not None:
                piece: py.expr = pyast.name(site_piece)
            else:
                on_site = pyast.name(site_piece) if site_piece else pyast.sub(pyast.name("b"), pyast.name(site))
                piece = pyast.or_(on_site, self.exprs.empty)
            tests.append(pyast.compare(pyast.sub(piece, 1), "==", pyast.num(forbid.kind)))
        for part in forbid.rest:
            c = self.exprs.boolean(part, scope)
            if c.is_const:
                if not c.const:
                    return None
                continue
            tests.append(c.code)
        if self.probes.on:
            if id(forbid) not in self.probe_of:
                self.probe_of[id(forbid)] = self.probes.add("forbid", forbid.label, forbid.item.pos)
            probe = self.probe_of[id(forbid)]
            assert probe is not None
            tests = (tests or [pyast.true()]) + [self.probes.hit(probe)]
        return pyast.and_(*tests) if tests else pyast.true()

    def _mask(self, sites: frozenset[int]) -> py.Name:
        mask = [False] * (self.exprs.n_sites + 1)
        for s in sites:
            mask[s] = True
        return self.exprs.src.const(tuple(mask))

    def _gate(self, forbid: Forbid) -> str:
        """The local computed once per position for the forbid's gate."""
        key = tuple(structure(part) for part in forbid.gate)
        if key not in self.gates:
            code = pyast.and_(*(self.exprs.boolean(part, self.scope).code for part in forbid.gate))
            self.gates[key] = (self.exprs.src.fresh("g"), code)
        return self.gates[key][0]

    def result_check(self, scope: Scope) -> list[ResultPart]:
        """The `forbid result` conditions as (statements, code, coverage probe or
        None) parts (see expressions.lowered), asked on the position an action left
        (registers as in a case function, see cases.py): the action is forbidden when
        one holds. The check does not count its probe (it plays on a copy whose
        counts are dropped): it says which line rejected the action, and whoever
        checks counts it (helpers.result_filter)."""
        parts = []
        for item, label in self.results:
            # (for a case whose acting piece's kinds are known, a line that does not
            # read the piece is compiled for the first such set alone: a game with
            # many sets compiled its check again for each)
            shared = scope.piece_kinds is not None and not reads_names(item.cond, self.exprs.defines,
                                                                       frozenset({"piece"}))
            if shared and id(item) in self._parts_by_line:
                kept = self._parts_by_line[id(item)]
                if kept is not None:
                    parts.append(kept)
                continue
            lines, c = self.exprs.lowered(item.cond, scope, condition=True)
            self.result_cost += c.cost
            part: Optional[ResultPart] = None
            if not (c.is_const and not c.const):
                probe = None
                if self.probes.on:
                    if id(item) not in self.probe_of:
                        self.probe_of[id(item)] = self.probes.add("forbid", label, item.pos)
                    probe = self.probe_of[id(item)]
                part = (lines, c.code, probe, self._gates(item.cond, scope))
                parts.append(part)
            if shared:
                self._parts_by_line[id(item)] = part
        return parts

    def _gates(self, cond: ast.Expr, scope: Scope) -> tuple[Gate, ...]:
        """The conjuncts of `cond` (see Gate) when it has more than one, each compiled
        on its own; none that is constant."""
        parts = conjuncts(cond)
        if len(parts) < 2:
            return ()
        gates = []
        for conjunct in parts:
            shared = not reads_names(conjunct, self.exprs.defines, frozenset({"piece"}))
            key = structure(conjunct)
            if shared and key in self._gates_made:
                gate = self._gates_made[key]
            else:
                lines, c = self.exprs.lowered(conjunct, scope, condition=True)
                gate = None if c.is_const else (lines, c.code)
                if shared:
                    self._gates_made[key] = gate
            if gate is not None:
                gates.append(gate)
        return tuple(gates)

    def gate_statements(self, read: set[str]) -> list[py.stmt]:
        """The statements computing the gates a decision's function reads (`read`:
        the names it reads), for its top."""
        return [pyast.assign(pyast.name(name), code) for name, code in self.gates.values() if name in read]

    # ------------------------------------------------------------ shapes for walks
    def passing_shape(self) -> Optional[tuple[frozenset[int], frozenset[int]]]:
        """(static sites, blocking kinds) when every passing forbid is of one of these
        two shapes (a region, or `site is KIND`), else None."""
        static: set[int] = set()
        kinds: set[int] = set()
        for forbid in self.by_kind.get("passing", ()):
            if forbid.static_sites is not None:
                static |= forbid.static_sites
            elif forbid.kind is not None and not forbid.gate and not forbid.rest and forbid.mask is None:
                kinds.add(forbid.kind)
            else:
                return None
        return frozenset(static), frozenset(kinds)


def compile_restrictions(forbids: list[ast.Forbid], labels: dict[int, str], exprs: ExpressionCompiler, scope: Scope,
                         errors: list[RuleError]) -> Restrictions:
    """The forbids by kind; problems go to `errors`. `labels[id(forbid)]` names the
    block a forbid line belongs to, for coverage."""
    restrictions = Restrictions(exprs, scope)
    for what in FORBID_KINDS:
        restrictions.by_kind[what] = []
    for item in forbids:
        if item.what == RESULT:
            restrictions.results.append((item, labels.get(id(item), "forbid result")))
            continue
        try:
            forbid = _split(item, labels.get(id(item), f"forbid {item.what}"), exprs, scope)
        except RuleError as err:
            errors.append(err)
            continue
        if not forbid.never:
            restrictions.by_kind[item.what].append(forbid)
            rest = sum(exprs.boolean(part, scope).cost for part in forbid.rest)
            restrictions.rest_costs[item.what] = restrictions.rest_costs.get(item.what, 0) + rest
            restrictions.lines.append((item, 1 + len(forbid.rest) + rest))
    return restrictions


def _split(item: ast.Forbid, label: str, exprs: ExpressionCompiler, scope: Scope) -> Forbid:
    forbid = Forbid(item, label, None, None, [], [])
    for part in conjuncts(item.cond):
        if forbid.mask is None and isinstance(part, ast.In) and is_name(part.item, "site"):
            region = exprs.compile(part.collection, scope)
            if region.static_sites is not None:
                # `site not in REGION`: the other sites, the index of no site (-1) included
                forbid.mask = frozenset(range(exprs.n_sites + 1)) - frozenset(region.static_sites) if part.negated \
                    else frozenset(region.static_sites)
                continue
        if forbid.kind is None and isinstance(part, ast.Is) and not part.negated and is_name(part.obj, "site") \
                and part.what in exprs.model.kinds:
            forbid.kind = exprs.model.kinds[part.what].index
            continue
        c: Code = exprs.boolean(part, scope)
        if c.is_const:
            if not c.const:
                forbid.never = True
            continue
        if not c.deps & NOT_POSITION_LEVEL:
            forbid.gate.append(part)
        else:
            forbid.rest.append(part)
    return forbid
