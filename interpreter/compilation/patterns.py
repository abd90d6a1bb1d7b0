"""Movement patterns → the loops of a decision's generated function.

A moving pattern (step, slide, leap, jump, walk, go) is written for one piece: the
code runs inside the decision's loop over the player's pieces, with `frm` the
piece's site and `pc` the piece. A placing pattern (drop, select) is written once.
Every candidate landing site found is classified by what stands there (empty,
own, neutral, enemy), must have a case for that, must pass the forbids and the
action's candidate-level `where`, and is then appended to `out` as an action code
`(case, origin, destination, jumped, choice)` (runtime/pieces.py).

Geometry comes from tables built once per game (rays, neighbours, leaps per
distance, jump pairs), bound as constants of the generated code.
"""
from __future__ import annotations

import ast as py
from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any, Callable, ContextManager, Iterator, Optional, Sequence

from ..runtime.walks import MAX_WALK_NODES
from . import pyast, registers
from .conditions import Condition
from .restrictions import Restrictions
from .scope import Register
from .source import Source


class Onto(IntEnum):
    """What a candidate lands onto, which picks the action's case (an index of
    `Landing.case_ids`)."""

    EMPTY = 0
    OWN = 1
    NEUTRAL = 2
    ENEMY = 3


# The acting piece while actions are listed: it stands where it starts.
MOVING_PIECE = Register("frm", "pc")
# At most this many codes of actions are kept per game (tables of 8 bytes an entry,
# about 70 more for each code made): beyond, codes are made as listed.
MAX_PREBUILT_CODES = 250_000

# The registers and scratch locals the loops use.
_TO, _TG, _FRM, _RAY, _DIST, _ROW = (pyast.name(n) for n in ("to", "tg", "frm", "ray", "dist", "row"))
# Directions by player, and a table built per (directions, site) (site None: the
# entry of "no site", the table's last).
Directions = Sequence[tuple[int, ...]]
Build = Callable[[tuple[int, ...], Optional[int]], Any]
Rays = list[list[tuple[int, ...]]]
# case id -> the code of each value the case's notation shows (docs/format.md 3.8)
Shown = dict[int, tuple[py.expr, ...]]
# ways[player][site]: (a site leapt to, its ways: each the sites on it that must be empty), ...
LeapWays = tuple[tuple[tuple[tuple[int, tuple[tuple[int, ...], ...]], ...], ...], ...]
# case id -> (number of choices, the condition for choosing or None): `promote ... to one of`
Choices = dict[int, tuple[int, Optional[py.expr]]]


def _board(site: py.expr) -> py.expr:
    return pyast.sub(pyast.name("b"), site)


def _look() -> py.stmt:
    """`tg = b[to]`: what stands on the candidate's landing site."""
    return pyast.assign(_TG, _board(_TO))


class CodeTables:
    """Codes `(case, frm, to)` read from tables rather than made for each listing:
    a listed action's code lives as long as the list, so making and dropping a
    tuple per candidate is much of the cost of listing. Per case, a table by `frm`
    and `to` (-1, no site, last), each code made when first listed (runtime:
    helpers.make_code), within MAX_PREBUILT_CODES entries a game. A case that
    starts from no site (a drop, a select) has one row, which is the table's last
    (-1) as well as its first."""

    def __init__(self, src: Source, n_sites: int):
        self.src = src
        self.n_sites = n_sites
        self.tables: dict[int, py.Name] = {}  # case id -> the constant holding its table
        self.entries = [0]  # the entries of the tables made (shared with the view without origin)
        self.from_nowhere = False

    def without_origin(self) -> "CodeTables":
        """The same tables, for actions that start from no site (drops, select):
        `frm` is -1 there, so they read that row of a table by its own name."""
        view = CodeTables(self.src, self.n_sites)
        view.tables = self.tables
        view.entries = self.entries
        view.from_nowhere = True
        return view

    def code(self, case: int, destination: py.expr) -> py.expr:
        """The expression of the code of `case` from `frm` to `destination`."""
        name = self.tables.get(case)
        if name is None:
            width = self.n_sites + 1
            rows = 1 if self.from_nowhere else width
            if self.entries[0] + rows * width > MAX_PREBUILT_CODES:
                return pyast.tuple_(pyast.num(case), _FRM, destination)
            self.entries[0] += rows * width
            table = [[None] * width for _ in range(rows)]
            name = self.tables[case] = self.src.const(table, key=("codes", case))
        row: py.expr = pyast.sub(name, _FRM)
        if self.from_nowhere:
            # (the row object itself: make_code fills it through the table)
            row = self.src.const(self.src.namespace[name.id][-1], key=("codes from nowhere", case))
        return pyast.or_(pyast.sub(row, destination),
                         pyast.helper("h_make_code", name, pyast.num(case), _FRM, destination))


@dataclass(frozen=True)
class Landing:
    """The cases of one action and the checks a candidate must pass."""

    case_ids: list[Optional[int]]  # by EMPTY/OWN/NEUTRAL/ENEMY: case id or None
    restrictions: Restrictions
    where: Optional[Condition]  # the candidate-level `where`, or None
    piece_kinds: Optional[frozenset[int]] = None  # the kinds the acting piece can be (None: any)
    piece_always: bool = True  # whether there is an acting piece (not in a select)
    # case id -> (number of choices, condition for choosing or None): `promote ... to one of`
    choices: Choices = field(default_factory=dict)
    # `where` as asked where `tg` holds a piece (`(tg or E)` is then `tg`), or None
    occupied_where: Optional[Condition] = None
    # `where` as asked where the landing is empty (Condition.knowing; no parts: it
    # always holds there), or None
    empty_where: Optional[Condition] = None
    # when the action is written after another one of the same piece whose actions
    # write the same notations: the local holding the set of sites where that one
    # lands (its actions landing there are not listed again), else None
    exclude: Optional[py.Name] = None
    codes: Optional[CodeTables] = None  # where the codes of its actions are kept ready
    over_ids: tuple[Optional[int], ...] = (None, None, None, None)  # a jump's cases by what it jumps
    # case id -> the code of each value its notation shows (`{d}`, a variable), appended to its codes
    shown: "Shown" = field(default_factory=dict)
    off_case: Optional[int] = None  # the `off board` case, or None
    # the game's number of players: in a game of two, the pieces of an enemy are the opponent's
    players: int = 0

    def restricted(self, keep: frozenset[int]) -> "Landing":
        """The same landing with only the cases of `keep` (a `prefer` line naming
        some cases of the action)."""
        def kept(case: Optional[int]) -> Optional[int]:
            return case if case in keep else None

        return replace(self, case_ids=[kept(c) for c in self.case_ids], over_ids=tuple(kept(c) for c in self.over_ids),
                       off_case=kept(self.off_case))

    def where_empty(self, on_board: bool = False) -> Optional[Condition]:
        """The `where` asked of a candidate landing on an empty site (None: none);
        `on_board`: where `to` is known to be a site of the board (not -1)."""
        where = self.empty_where or self.where
        if where is not None and on_board:
            where = where.knowing([(pyast.compare(_TO, "!=", pyast.num(-1)), pyast.true())])
        return where if where is not None and where.parts else None

    @property
    def off_where(self) -> Optional[Condition]:
        """The `where` asked of the `off board` action (None without one)."""
        return self.where if self.off_case is not None else None

    def forbidden(self, what: str, site: str, piece: Optional[str] = None, occupied: bool = False,
                  skip_static: bool = False) -> Optional[py.expr]:
        """Code true where a forbid of kind `what` applies at `site` (None: never);
        `piece` holds what stands there (`occupied`: never None); `skip_static`:
        without the forbids of fixed sites (Restrictions.static_forbidden)."""
        code = self.restrictions.check(
            what, site, MOVING_PIECE, "frm", self.piece_kinds, self.piece_always, piece, occupied, skip_static,
        )
        if what == "landing" and self.exclude is not None:
            listed = pyast.compare(pyast.name(site), "in", self.exclude)
            return pyast.or_(listed, code) if code is not None else listed
        return code

    def occupied_cases(self) -> bool:
        return any(self.case_ids[i] is not None for i in (Onto.OWN, Onto.NEUTRAL, Onto.ENEMY))


def append(src: Source, case: int, destination: py.expr = _TO, jumped: Optional[py.expr] = None,
           choices: Optional[Choices] = None,
           codes: Optional[CodeTables] = None, shown: Optional[Shown] = None) -> None:
    """Append the code of a candidate (`jumped` None: none jumped): one per choice
    when the case has a choice; the values its notation shows after the choice."""
    out = pyast.name("out")
    choice = (choices or {}).get(case)
    values = (shown or {}).get(case, ())
    if values:
        jumped = jumped if jumped is not None else pyast.num(-1)
        if choice is None:
            coded = pyast.tuple_(pyast.num(case), _FRM, destination, jumped, pyast.num(-1), *values)
            src.add(pyast.expr_stmt(pyast.method(out, "append", coded)))
            return
    if choice is None:
        # The fields that do not apply are left out at the end (runtime/pieces.py).
        if jumped is not None:
            code: py.expr = pyast.tuple_(pyast.num(case), _FRM, destination, jumped)
        elif codes is not None:
            code = codes.code(case, destination)
        else:
            code = pyast.tuple_(pyast.num(case), _FRM, destination)
        src.add(pyast.expr_stmt(pyast.method(out, "append", code)))
        return
    n, condition = choice
    jumped = jumped if jumped is not None else pyast.num(-1)
    x1 = pyast.name("x1")
    each = pyast.for_(x1, pyast.helper("range", pyast.num(n)), [pyast.expr_stmt(pyast.method(
        out, "append", pyast.tuple_(pyast.num(case), _FRM, destination, jumped, x1, *values)))])
    if condition is None:
        src.add(each)
        return
    none_chosen = pyast.method(out, "append", pyast.tuple_(pyast.num(case), _FRM, destination, jumped, pyast.num(-1),
                                                           *values))
    src.add(pyast.if_(condition, [each], [pyast.expr_stmt(none_chosen)]))


def emit_candidate(src: Source, landing: Landing, stop_at_piece: bool = False,
                   jumped: Optional[py.expr] = None, on_board: bool = False) -> None:
    """`tg` holds what stands on site `to` (None: empty): classify, check, append
    (and with `stop_at_piece`, leave the loop at a site holding a piece); `jumped`:
    the site passed over (a screen), when the code records one; `on_board`: `to`
    is known to be a site of the board (never -1)."""
    ids = landing.case_ids
    land = landing.forbidden("landing", "to", "tg")
    capture = landing.forbidden("capturing", "to", "tg", occupied=True)
    empty = ids[Onto.EMPTY]
    if empty is not None:
        with src.if_(pyast.is_none(_TG)):
            _checked_append(src, empty, (land,), landing.where_empty(on_board), jumped, choices=landing.choices,
                            codes=landing.codes, shown=landing.shown)

    def occupied() -> ContextManager[None]:
        return src.else_() if empty is not None else src.if_(pyast.is_not_none(_TG))

    if not landing.occupied_cases():
        if stop_at_piece:
            with occupied():
                src.add(pyast.break_())
        return
    with occupied():
        _by_owner(src, _TG, ids, land, capture, landing.occupied_where or landing.where, jumped, landing.choices,
                  landing.codes, landing.shown, landing.players)
        if stop_at_piece:
            src.add(pyast.break_())


def _by_owner(src: Source, piece: py.expr, ids: list[Optional[int]], land: Optional[py.expr],
              capture: Optional[py.expr], where: Optional[Condition], jumped: Optional[py.expr],
              choices: Optional[Choices] = None,
              codes: Optional[CodeTables] = None, shown: Optional[Shown] = None, players: int = 0) -> None:
    """Branch on the owner of `piece` (own, neutral, enemy) to the cases that exist;
    `players`: the game's number of players (in a game of two an enemy's piece is
    the opponent's: owners are players or -1, neutral)."""
    p, off = pyast.name("p"), pyast.name("off")
    alone = [i for i in (Onto.OWN, Onto.NEUTRAL, Onto.ENEMY) if ids[i] is not None]
    if alone in ([Onto.OWN], [Onto.NEUTRAL]) or alone == [Onto.ENEMY] and players == 2:
        # (one test reading the owner once: no local for it)
        owner = pyast.sub(piece, 0)
        only = ids[alone[0]]
        assert only is not None
        whose = (pyast.compare(owner, "==", p) if alone == [Onto.OWN]
                 else pyast.compare(owner, "<", pyast.num(0)) if alone == [Onto.NEUTRAL]
                 else pyast.compare(owner, "==", registers.opponent("p")))
        with src.if_(whose):
            _checked_append(src, only, (land,) if alone != [Onto.ENEMY] else (land, capture), where, jumped,
                            choices, codes, shown)
        return
    src.add(pyast.assign(off, pyast.sub(piece, 0)))
    branches: list[tuple[Optional[py.expr], int, tuple[Optional[py.expr], ...]]] = []
    own_case, neutral_case = ids[Onto.OWN], ids[Onto.NEUTRAL]
    if own_case is not None:
        branches.append((pyast.compare(off, "==", p), own_case, (land,)))
    if neutral_case is not None:
        branches.append((pyast.compare(off, "<", pyast.num(0)), neutral_case, (land,)))
    enemy = ids[Onto.ENEMY]
    if enemy is not None:
        # what the branches before it leave to test
        own, neutral = ids[Onto.OWN] is not None, ids[Onto.NEUTRAL] is not None
        test: Optional[py.expr] = None
        if not (own and neutral):
            is_player, is_other = pyast.compare(off, ">=", pyast.num(0)), pyast.compare(off, "!=", p)
            test = is_other if neutral else is_player if own else pyast.and_(is_player, is_other)
        branches.append((test, enemy, (land, capture)))
    for n, (branch_test, case, checks) in enumerate(branches):
        block = src.else_() if branch_test is None else src.if_(branch_test) if n == 0 else src.elif_(branch_test)
        with block:
            _checked_append(src, case, checks, where, jumped, choices, codes, shown)


def _checked_append(src: Source, case: int, forbidden: tuple[Optional[py.expr], ...], where: Optional[Condition],
                    jumped: Optional[py.expr] = None, choices: Optional[Choices] = None,
                    codes: Optional[CodeTables] = None, shown: Optional[Shown] = None) -> None:
    """Append the candidate unless a forbid applies or the `where` fails."""
    found = [c for c in forbidden if c is not None]
    test: Optional[py.expr] = pyast.not_(pyast.or_(*found)) if found else None
    if where is not None and where.cost_free:
        test = pyast.and_(test, where.code) if test is not None else where.code
        where = None
    with src.if_(test) if test is not None else nullcontext():
        with where.holds(src) if where is not None else nullcontext():
            append(src, case, jumped=jumped, choices=choices, codes=codes, shown=shown)


# ---------------------------------------------------------------- tables
def per_player_table(src: Source, dirs_by_player: Directions, n_sites: int, build: Build, key: Any) -> py.expr:
    """Code indexing table[player][site] = build(directions, site) by `p` and `frm`
    (without the player when every player has the same directions)."""
    shared: dict[tuple[int, ...], tuple[Any, ...]] = {}
    tables = []
    for dirs in dirs_by_player:
        if dirs not in shared:
            shared[dirs] = tuple(build(dirs, s) for s in range(n_sites)) + (build((), None),)
        tables.append(shared[dirs])
    if len(shared) == 1:
        return pyast.sub(src.const(tables[0], key=(key, dirs_by_player[0])), _FRM)
    return pyast.sub(pyast.sub(src.const(tuple(tables), key=(key, tuple(dirs_by_player))), pyast.name("p")), _FRM)


def rays_of(rays: Rays, skip_empty: bool) -> Build:
    def build(dirs: tuple[int, ...], s: Optional[int]) -> tuple[tuple[int, ...], ...]:
        if s is None:
            return ()
        return tuple(rays[x][s] for x in dirs if rays[x][s] or not skip_empty)

    return build


@dataclass(frozen=True)
class Span:
    """A pattern's distance: `low` and `high` as code (numbers when fixed, then also
    in `low_fixed`/`high_fixed`); `high` None when unbounded (`to any`)."""

    low: py.expr
    high: Optional[py.expr]
    low_fixed: Optional[int] = None
    high_fixed: Optional[int] = None

    @property
    def exact(self) -> bool:
        return pyast.same(self.high, self.low)


# ---------------------------------------------------------------- step / slide
def step(src: Source, landing: Landing, dirs_by_player: Directions, rays: Rays, n_sites: int, span: Span) -> None:
    """Along each direction over empty sites, landing at a distance in the span
    (as far as the way is free when it is unbounded)."""
    passing = landing.forbidden("passing", "to")
    if span.low_fixed == 1 and span.high_fixed == 1:
        narrowed = _region_narrowed(src, landing, len(dirs_by_player))
        kept_sites = None
        if narrowed is not None:
            landing, kept_sites = narrowed
        with src.for_(_TO, _step1_targets(src, dirs_by_player, rays, n_sites, kept_sites)):
            src.add(_look())
            emit_candidate(src, landing, on_board=True)
        return
    if span.exact and span.low_fixed is not None:
        if span.low_fixed >= 1:
            _step_exact(src, landing, dirs_by_player, rays, n_sites, span.low_fixed)
        return
    table = per_player_table(src, dirs_by_player, n_sites, rays_of(rays, True), "rays")
    counted = span.low_fixed is None or span.low_fixed > 1
    lo, hi = pyast.name("lo"), pyast.name("hi")
    if span.low_fixed is None:
        src.add(pyast.assign(lo, span.low))
    ray: py.expr = _RAY
    if span.high is None:
        pass
    elif span.high_fixed is not None:
        ray = pyast.sub(_RAY, pyast.slice_(None, max(span.high_fixed, 0)))
    else:
        src.add(pyast.assign(hi, _high(span, lo, span.high) if span.low_fixed is None else span.high))
        ray = pyast.sub(_RAY, pyast.slice_(None, pyast.helper("max", hi, pyast.num(0))))
    with src.for_(_RAY, table):
        head: tuple[py.expr, py.expr] = (pyast.tuple_(_DIST, _TO), pyast.helper("enumerate", ray, pyast.num(1))) \
            if counted else (_TO, ray)
        with src.for_(*head):
            src.add(_look())
            if counted:
                least = lo if span.low_fixed is None else pyast.num(span.low_fixed)
                with src.if_(pyast.compare(_DIST, ">=", least)):
                    emit_candidate(src, landing)
                src.add(pyast.if_(pyast.is_not_none(_TG), [pyast.break_()]))
            else:
                emit_candidate(src, landing, stop_at_piece=True)
            if passing is not None:
                src.add(pyast.if_(passing, [pyast.break_()]))


def _step1_targets(src: Source, dirs_by_player: Directions, rays: Rays, n_sites: int,
                   kept_sites: Optional[Sequence[Callable[[int], bool]]] = None) -> py.expr:
    """The sites one step away along each direction, by player and `frm` (with
    `kept_sites`, only those each player's test keeps)."""
    if kept_sites is None:
        return per_player_table(
            src, dirs_by_player, n_sites,
            lambda dirs, s: () if s is None else tuple(rays[x][s][0] for x in dirs if rays[x][s]), "step1",
        )
    tables = tuple(tuple(tuple(rays[x][s][0] for x in dirs if rays[x][s] and keep(rays[x][s][0]))
                         for s in range(n_sites)) + ((),)
                   for dirs, keep in zip(dirs_by_player, kept_sites))
    return pyast.sub(pyast.sub(src.const(tables), pyast.name("p")), _FRM)


def _region_narrowed(src: Source, landing: Landing, n_players: int) \
        -> Optional[tuple[Landing, list[Callable[[int], bool]]]]:
    """A one-step landing whose `where` has a conjunct `to in R` / `to not in R`
    (R a region, maybe one per player: `k[p][to]`, `not k[to]`): (the landing
    without it, each player's test of a site) — the step's table then holds only
    the sites the conjunct keeps, so that a piece far from R goes over none (a
    pawn's promotions, far from the last rank). The same candidates pass: the
    conjunct reads nothing but the landing site and the player, and sets nothing."""
    if landing.where is None:
        return None
    for lines, code in landing.where.parts:
        if lines:
            continue
        keep = _region_test(src, code, n_players)
        if keep is None:
            continue
        facts = [(code, pyast.true())]

        def known(where: Optional[Condition]) -> Optional[Condition]:
            if where is None:
                return None
            kept = where.knowing(facts)
            return kept if kept.parts or kept.found_loop is not None else None
        return replace(landing, where=known(landing.where), empty_where=known(landing.empty_where),
                       occupied_where=known(landing.occupied_where)), keep
    return None


def _region_test(src: Source, code: py.expr, n_players: int) -> Optional[list[Callable[[int], bool]]]:
    """Each player's answer by site of `K[p][to]`, `K[to]` or their `not` (K a
    constant table of truths by site, or one per player), else None."""
    negated = isinstance(code, py.UnaryOp) and isinstance(code.op, py.Not)
    if negated:
        code = code.operand  # type: ignore[attr-defined]
    if not (isinstance(code, py.Subscript) and isinstance(code.slice, py.Name) and code.slice.id == _TO.id):
        return None
    table = code.value
    by_player = isinstance(table, py.Subscript) and isinstance(table.slice, py.Name) and table.slice.id == "p"
    value = src.value(table.value if by_player else table)  # type: ignore[attr-defined]
    # (a table by player may hold one more, for no player: a lister's `p` is never that)
    masks = list(value)[:n_players] if by_player and isinstance(value, tuple) else [value] * n_players
    if len(masks) != n_players or not all(isinstance(mask, tuple) and all(isinstance(x, bool) for x in mask)
                                          for mask in masks):
        return None
    return [lambda site, mask=mask: mask[site] != negated for mask in masks]  # type: ignore[misc]


def step_onto_both(src: Source, landings: Sequence[Landing], dirs_by_player: Directions, rays: Rays,
                   n_sites: int) -> None:
    """One step along each direction for two actions of one piece with the same
    directions, one landing on empty sites alone, the other on pieces alone
    (decisions._fused_pairs): one loop
    over the sites, at each the candidate of the action whose landing is what
    stands there — as `emit_candidate` writes one action's empty and occupied
    cases, each with its own conditions."""
    empty, occupied = landings if landings[0].case_ids[Onto.EMPTY] is not None else landings[::-1]
    case = empty.case_ids[Onto.EMPTY]
    assert case is not None and occupied.case_ids[Onto.EMPTY] is None and not empty.occupied_cases()
    with src.for_(_TO, _step1_targets(src, dirs_by_player, rays, n_sites)):
        src.add(_look())
        with src.if_(pyast.is_none(_TG)):
            _checked_append(src, case, (empty.forbidden("landing", "to", "tg"),), empty.where_empty(on_board=True),
                            choices=empty.choices, codes=empty.codes, shown=empty.shown)
        with src.else_():
            _by_owner(src, _TG, occupied.case_ids, occupied.forbidden("landing", "to", "tg"),
                      occupied.forbidden("capturing", "to", "tg", occupied=True),
                      occupied.occupied_where or occupied.where, None, occupied.choices, occupied.codes,
                      occupied.shown, occupied.players)


def rays_at_least(rays: Rays, k: int) -> Build:
    """Per (directions, site): the rays of at least k sites."""
    def build(dirs: tuple[int, ...], s: Optional[int]) -> tuple[tuple[int, ...], ...]:
        return () if s is None else tuple(rays[x][s] for x in dirs if len(rays[x][s]) >= k)

    return build


def _landable_rays(rays: Rays, k: int, no_step: frozenset[int], no_jump: frozenset[int]) -> Build:
    """Per (directions, site): the rays of at least k sites without those whose
    k-th site (a step) is in `no_step` and whose next one (a jump) is missing or in
    `no_jump`; a ray whose jump lands in `no_jump` ends at its k-th site."""
    def build(dirs: tuple[int, ...], s: Optional[int]) -> tuple[tuple[int, ...], ...]:
        if s is None:
            return ()
        out = []
        for x in dirs:
            ray = rays[x][s]
            if len(ray) < k:
                continue
            if len(ray) > k and ray[k] in no_jump:
                ray = ray[:k]
            if ray[k - 1] in no_step and len(ray) == k:
                continue
            out.append(ray)
        return tuple(out)

    return build


def _free_way(src: Source, landing: Landing, k: int) -> None:
    """`continue` unless the first k-1 sites of `ray` are empty and may be passed."""
    passing = landing.forbidden("passing", "to")
    for i in range(k - 1):
        taken = pyast.is_not_none(_board(_TO))
        src.add(pyast.assign(_TO, pyast.sub(_RAY, i)),
                pyast.if_(pyast.or_(taken, passing) if passing is not None else taken, [pyast.continue_()]))


def _beyond_every_ray(rays: Rays, k: int) -> bool:
    """Whether no ray of the board has k sites: a way of exactly k never lands (a
    distance past the board's size writes no loop of k - 1 tests)."""
    return all(len(ray) < k for by_site in rays for ray in by_site)


def _step_exact(src: Source, landing: Landing, dirs_by_player: Directions, rays: Rays, n_sites: int, k: int) -> None:
    """Exactly k sites along each direction, the sites before it empty."""
    if _beyond_every_ray(rays, k):
        return
    table = per_player_table(src, dirs_by_player, n_sites, rays_at_least(rays, k), ("rays from", k))
    with src.for_(_RAY, table):
        _free_way(src, landing, k)
        src.add(pyast.assign(_TO, pyast.sub(_RAY, k - 1)), _look())
        emit_candidate(src, landing)


def step_and_jump(src: Source, step_landing: Landing, jump_landing: Landing, over_ids: list[Optional[int]],
                  dirs_by_player: Directions, rays: Rays, n_sites: int, k: int) -> None:
    """A step of exactly k onto empty sites and a jump over a piece k away, in one
    pass over the directions: the site k away empty is a step, occupied a jump."""
    if _beyond_every_ray(rays, k):
        return
    # The sites no step (no jump) may ever land on (`forbid landing where site not in
    # REGION`): a ray whose step and jump both land there is left out, a jump landing
    # there is cut off its ray, and those forbids are then not asked again.
    no_step = step_landing.restrictions.static_forbidden("landing")
    no_jump = jump_landing.restrictions.static_forbidden("landing")
    build: Build = rays_at_least(rays, k)
    steps_checked = False  # (whether a step left in a table may still land on a site of no_step)
    if no_step or no_jump:
        landable = _landable_rays(rays, k, no_step, no_jump)

        def build(dirs: tuple[int, ...], s: Optional[int]) -> tuple[tuple[int, ...], ...]:
            nonlocal steps_checked
            kept: tuple[tuple[int, ...], ...] = landable(dirs, s)
            steps_checked = steps_checked or any(ray[k - 1] in no_step for ray in kept)
            return kept
    key = ("rays from", k, no_step, no_jump) if no_step or no_jump else ("rays from", k)
    table = per_player_table(src, dirs_by_player, n_sites, build, key)
    land = jump_landing.forbidden("landing", "to", skip_static=bool(no_jump))
    capture = jump_landing.forbidden("capturing", "js", "jp", occupied=True)
    js, jp = pyast.name("js"), pyast.name("jp")
    with src.for_(_RAY, table):
        _free_way(src, step_landing, k)
        src.add(pyast.assign(_TO, pyast.sub(_RAY, k - 1)), _look())
        with src.if_(pyast.is_none(_TG)):
            empty = step_landing.case_ids[Onto.EMPTY]
            assert empty is not None
            _checked_append(src, empty, (step_landing.forbidden("landing", "to", "tg",
                                                                skip_static=bool(no_step) and not steps_checked),),
                            step_landing.where, choices=step_landing.choices, codes=step_landing.codes,
                            shown=step_landing.shown)
        beyond = pyast.sub(_RAY, k)
        with src.elif_(pyast.and_(pyast.compare(pyast.helper("len", _RAY), ">", pyast.num(k)),
                                  pyast.is_none(_board(beyond)))):
            src.add(pyast.assign(js, _TO), pyast.assign(jp, _TG), pyast.assign(_TO, beyond),
                    pyast.assign(_TG, pyast.none()))
            _by_owner(src, jp, over_ids, land, capture, jump_landing.where, js, jump_landing.choices,
                      shown=jump_landing.shown, players=jump_landing.players)


# ---------------------------------------------------------------- leap
# The mask of the sites where a condition on the site `var` holds, or None where
# it is no such mask (site_masks.SiteMasks.condition).
ConditionMask = Callable[[py.expr, str], Optional[py.expr]]


def leap(src: Source, landing: Landing, dirs_by_player: Directions, rays: Rays, n_sites: int, span: Span,
         off_case: Optional[int], off_where: Optional[Condition], passing_mask: Optional[ConditionMask] = None) -> None:
    """Exactly the distance (or each distance of the span) along each direction,
    over anything; one `off board` action per piece when the distance leads off
    the board in some direction. An exact distance whose `forbid passing` is a
    mask of sites (`passing_mask`, in the listers) tests the sites passed as one
    mask each, read from a table too."""
    passing = landing.forbidden("passing", "to")
    if span.exact and not passing:
        _leap_exact(src, landing, dirs_by_player, rays, n_sites, span, off_case, off_where)
        return
    if span.exact and passing is not None and passing_mask is not None:
        var = src.fresh("i")
        mask = passing_mask(pyast.replace_nodes(passing, lambda node: pyast.name(var)
                                                if pyast.is_name(node, "to") else None), var)
        if mask is not None:
            _leap_exact(src, landing, dirs_by_player, rays, n_sites, span, off_case, off_where, passed=mask)
            return
    if span.exact and span.low_fixed is not None and off_case is None:
        _leap_exact_passing(src, landing, dirs_by_player, rays, n_sites, span.low_fixed)
        return
    assert span.high is not None
    table = per_player_table(src, dirs_by_player, n_sites, rays_of(rays, False), "all rays")
    lo, hi = pyast.name("lo"), pyast.name("hi")
    src.add(pyast.assign(lo, span.low), pyast.assign(hi, _high(span, lo, span.high)),
            pyast.assign(lo, pyast.helper("max", lo, pyast.num(1))))
    if off_case is not None:
        src.add(pyast.assign(pyast.name("ends"), pyast.false()))  # whether the off-board action is listed already
    with src.for_(_RAY, table):
        with src.for_(_DIST, pyast.helper("range", lo, pyast.add(hi, pyast.num(1)))):
            with src.if_(pyast.compare(_DIST, ">", pyast.helper("len", _RAY))):
                _off_board_once(src, landing, off_case, off_where)
                src.add(pyast.break_())
            before = pyast.binop(_DIST, "-", pyast.num(1))
            with _unless_passed(src, passing, _TO, pyast.sub(_RAY, pyast.slice_(None, before))):
                src.add(pyast.assign(_TO, pyast.sub(_RAY, before)), _look())
                emit_candidate(src, landing)


def _leap_exact_passing(src: Source, landing: Landing, dirs_by_player: Directions, rays: Rays, n_sites: int,
                        k: int) -> None:
    """A fixed distance with sites on the way that must not be passed (`forbid
    passing`): the rays of at least k sites, each site before the landing asked
    in turn (written out: k is fixed). No `off board` action: a way leaving the
    board lands nowhere."""
    if k <= 0 or _beyond_every_ray(rays, k):
        return
    passing = landing.forbidden("passing", "to")
    assert passing is not None
    table = per_player_table(src, dirs_by_player, n_sites, rays_at_least(rays, k), ("rays from", k))
    with src.for_(_RAY, table):
        for i in range(k - 1):
            src.add(pyast.assign(_TO, pyast.sub(_RAY, i)), pyast.if_(passing, [pyast.continue_()]))
        src.add(pyast.assign(_TO, pyast.sub(_RAY, k - 1)), _look())
        emit_candidate(src, landing)


@contextmanager
def _unless_passed(src: Source, passing: Optional[py.expr], var: py.expr, passed: py.expr) -> Iterator[None]:
    """What is written inside runs unless some site `var` of `passed` meets the
    passing condition; then the enclosing loop (over the distances) ends. A loop
    with `else`, not `any(...)`: a generator costs more than the few sites it asks."""
    if passing is None:
        yield
        return
    src.add(pyast.for_(var, passed, [pyast.if_(passing, [pyast.break_()])]))
    with src.else_():
        yield
        src.add(pyast.continue_())
    src.add(pyast.break_())


def _leap_exact(src: Source, landing: Landing, dirs_by_player: Directions, rays: Rays, n_sites: int, span: Span,
                off_case: Optional[int], off_where: Optional[Condition], passed: Optional[py.expr] = None) -> None:
    """An exact distance: a table of the sites at each distance (and whether some
    direction leaves the board there). With `passed`, the mask of the sites a leap
    must not pass, each site comes with the mask of those before it on its way."""
    longest = max(len(r) for per_dir in rays for r in per_dir) if rays and rays[0] else 0
    longest += 1

    def landing_at(ray: tuple[int, ...], d: int) -> Any:
        if passed is None:
            return ray[d - 1]
        return ray[d - 1], sum(1 << t for t in ray[:d - 1])

    def build(dirs: tuple[int, ...], s: Optional[int]) -> tuple[tuple[tuple[Any, ...], bool], ...]:
        if s is None:  # (every row has the same length: generated code tests a number, not len(row))
            return (((), False),) + (((), True),) * longest
        row: list[tuple[tuple[Any, ...], bool]] = [((), False)]
        for d in range(1, longest + 1):
            row.append((tuple(landing_at(rays[x][s], d) for x in dirs if len(rays[x][s]) >= d),
                        any(len(rays[x][s]) < d for x in dirs)))
        return tuple(row)

    table = per_player_table(src, dirs_by_player, n_sites, build, ("leaps", longest, passed is not None))
    all_off = src.const(((), True))
    if span.low_fixed is not None:
        if span.low_fixed <= 0:
            return
        src.add(pyast.assign(_ROW, pyast.sub(table, span.low_fixed) if span.low_fixed <= longest else all_off))
        _leap_row(src, landing, off_case, off_where, passed)
        return
    src.add(pyast.assign(_DIST, span.low))
    with src.if_(pyast.compare(_DIST, ">", pyast.num(0))):
        src.add(pyast.assign(_ROW, table),
                pyast.assign(_ROW, pyast.ifexp(pyast.sub(_ROW, _DIST),
                                               pyast.compare(_DIST, "<=", pyast.num(longest)), all_off)))
        _leap_row(src, landing, off_case, off_where, passed)


def _leap_row(src: Source, landing: Landing, off_case: Optional[int], off_where: Optional[Condition],
              passed: Optional[py.expr] = None) -> None:
    """`row` is (the sites at the distance — with `passed`, each with the mask of
    the sites before it —, whether some direction leaves the board)."""
    way = pyast.name(src.fresh("l"))
    with src.for_(_TO if passed is None else pyast.tuple_(_TO, way), pyast.sub(_ROW, 0)):
        if passed is not None:
            src.add(pyast.if_(pyast.binop(way, "&", passed), [pyast.continue_()]))
        src.add(_look())
        emit_candidate(src, landing)
    if off_case is not None:
        with src.if_(pyast.sub(_ROW, 1)):
            _off_board(src, landing, off_case, off_where)


def _off_board_once(src: Source, landing: Landing, off_case: Optional[int], off_where: Optional[Condition]) -> None:
    """The `off board` action of a piece whose way leaves the board, listed once per
    piece however many ways leave it (`ends` says whether it is listed already)."""
    if off_case is None:
        return
    ends = pyast.name("ends")
    with src.if_(pyast.not_(ends)):
        src.add(pyast.assign(ends, pyast.true()))
        _off_board(src, landing, off_case, off_where)


def _off_board(src: Source, landing: Landing, off_case: int, off_where: Optional[Condition]) -> None:
    nowhere = pyast.num(-1)
    listed = landing.exclude
    with src.if_(pyast.compare(nowhere, "not in", listed)) if listed is not None else nullcontext():
        if off_where is None:
            append(src, off_case, destination=nowhere, codes=landing.codes, shown=landing.shown)
            return
        src.add(pyast.assign(_TO, nowhere), pyast.assign(_TG, pyast.none()))
        with off_where.holds(src):
            append(src, off_case, destination=nowhere, codes=landing.codes, shown=landing.shown)


# ---------------------------------------------------------------- jump
def jump(src: Source, over_ids: list[Optional[int]], landing: Landing, dirs_by_player: Directions, rays: Rays,
         n_sites: int, span: Span) -> None:
    """Over exactly one piece at a distance in the span, the sites before it empty,
    landing on the site just beyond it, which must be empty."""
    passing = landing.forbidden("passing", "js", "jp")
    land = landing.forbidden("landing", "to")
    capture = landing.forbidden("capturing", "js", "jp", occupied=True)
    js, jp = pyast.name("js"), pyast.name("jp")
    if span.low_fixed == 1 and span.high_fixed == 1:
        # (without the pairs landing where a forbid of fixed sites says no: not asked then)
        never = landing.restrictions.static_forbidden("landing")
        pairs = per_player_table(
            src, dirs_by_player, n_sites,
            lambda dirs, s: () if s is None else tuple((r[0], r[1]) for x in dirs
                                                       if len(r := rays[x][s]) >= 2 and r[1] not in never),
            ("jump pairs", never) if never else "jump pairs",
        )
        land = landing.forbidden("landing", "to", skip_static=bool(never))
        with src.for_(pyast.tuple_(js, _TO), pairs):
            src.add(pyast.assign(jp, _board(js)))
            with src.if_(pyast.and_(pyast.is_not_none(jp), pyast.is_none(_board(_TO)))):
                src.add(pyast.assign(_TG, pyast.none()))
                _by_owner(src, jp, over_ids, land, capture, landing.where, js, landing.choices, shown=landing.shown,
                          players=landing.players)
        return
    table = per_player_table(src, dirs_by_player, n_sites, rays_of(rays, True), "rays")
    lo, hi = pyast.name("lo"), pyast.name("hi")
    src.add(pyast.assign(lo, span.low), pyast.assign(hi, _high(span, lo, pyast.num(n_sites))))
    with src.for_(_RAY, table):
        with src.for_(pyast.tuple_(_DIST, js), pyast.helper("enumerate", _RAY, pyast.num(1))):
            src.add(pyast.if_(pyast.compare(_DIST, ">", hi), [pyast.break_()]),
                    pyast.assign(jp, _board(js)))
            with src.if_(pyast.is_none(jp)):
                if passing is not None:
                    src.add(pyast.if_(passing, [pyast.break_()]))
                src.add(pyast.continue_())
            # The first piece on the way: jump it or nothing.
            beyond = pyast.sub(_RAY, _DIST)
            lands = pyast.and_(pyast.compare(_DIST, ">=", lo), pyast.compare(_DIST, "<", pyast.helper("len", _RAY)),
                               pyast.is_none(_board(beyond)))
            with src.if_(lands):
                src.add(pyast.assign(_TO, beyond), pyast.assign(_TG, pyast.none()))
                _by_owner(src, jp, over_ids, land, capture, landing.where, js, landing.choices, shown=landing.shown,
                          players=landing.players)
            src.add(pyast.break_())


# ---------------------------------------------------------------- walk
def walk(src: Source, landing: Landing, tables: py.Name, steps: py.expr, blocked: py.expr,
         row: Optional[py.expr]) -> None:
    """Exactly N steps along edges, never entering a site twice; each end once.
    `tables` names a WalkTables constant, `blocked` is the bitmask of the sites
    whose pieces block (worked out once per position); `row`, when the length is
    the same for every piece, the local holding `tables.row(length)` (or None
    when the length is not positive), worked out once per position too."""
    if row is None:
        src.add(pyast.assign(_DIST, steps), pyast.assign(_ROW, walk_row(tables, _DIST)))
        row = _ROW
    src.add(pyast.assign(_RAY, pyast.sub(row, _FRM)),
            # (not `or`: asking an object for its truth costs more)
            pyast.if_(pyast.is_none(_RAY), [pyast.assign(_RAY, pyast.method(tables, "table", _FRM, steps))]))
    ends = pyast.attr(_RAY, "ends")
    if isinstance(blocked, py.Constant) and blocked.value == 0:
        with src.for_(_TO, ends):
            src.add(_look())
            emit_candidate(src, landing)
        return
    # The ends of walks passing no blocked site, told end by end where one
    # is blocked (blockers move, so an answer seldom serves twice).
    hit, passed = pyast.name(src.fresh("l")), pyast.name(src.fresh("l"))
    src.add(pyast.assign(hit, pyast.binop(pyast.attr(_RAY, "passed_any"), "&", blocked)))
    with src.if_(pyast.not_(hit)):
        with src.for_(_TO, ends):
            src.add(_look())
            emit_candidate(src, landing)
    with src.else_():
        # (the ends reached one way only, then those reached several ways)
        with src.for_(pyast.tuple_(_TO, passed), pyast.attr(_RAY, "single")):
            with src.if_(pyast.not_(pyast.binop(passed, "&", hit))):
                src.add(_look())
                emit_candidate(src, landing)
        with src.if_(pyast.attr(_RAY, "several")):
            with src.for_(_TO, pyast.method(_RAY, "open_several", hit)):
                src.add(_look())
                emit_candidate(src, landing)


def walk_row(tables: py.Name, steps: py.expr) -> py.expr:
    """Code of the row of walk tables of `steps` steps (a row without walks when
    not positive), without a call when it is known already."""
    known = pyast.compare(pyast.num(0), "<", steps, "<", pyast.attr(tables, "known"))
    return pyast.ifexp(pyast.sub(pyast.attr(tables, "by_length"), steps), known, pyast.method(tables, "row", steps))


@dataclass(frozen=True)
class WalkStep:
    """A walk's `each step A to B where COND`: the names of the two sites, the
    statements and the condition."""

    frm: str
    to: str
    lines: tuple[py.stmt, ...]
    cond: py.expr


def walk_general(src: Source, landing: Landing, adjacent: py.Name, steps: py.expr, pos: py.Name,
                 step: Optional[WalkStep] = None) -> None:
    """A walk whose passing rule is a general condition (asked site by site, by
    the function `passes` of the site), each step meeting `step` when given
    (asked by a function of the two sites)."""
    passing = landing.forbidden("passing", "site")
    src.add(pyast.assign(_DIST, steps))
    unrolled = _unrolled_steps(src, adjacent, steps) if passing is None and step is not None else None
    if unrolled is not None:
        assert step is not None
        _walk_unrolled(src, landing, adjacent, unrolled, step)
        return
    with src.if_(pyast.compare(_DIST, ">", pyast.num(0))):
        src.add(pyast.function("passes", ["site"], [pyast.return_(passing if passing is not None else pyast.false())]))
        args: list[py.expr] = [_FRM, _DIST, adjacent, pyast.name("passes"), pos]
        if step is not None:
            name = src.fresh("f")
            src.add(pyast.function(name, [step.frm, step.to], [*step.lines, pyast.return_(step.cond)]))
            args.append(pyast.name(name))
        ends = pyast.helper("h_walk_ends", *args)
        with src.for_(_TO, ends):
            src.add(_look())
            emit_candidate(src, landing)


# The most steps of a walk with a condition on each step written as nested loops
# (`_walk_unrolled`).
MAX_UNROLLED_WALK = 4


def _unrolled_steps(src: Source, adjacent: py.Name, steps: py.expr) -> Optional[int]:
    """The number of steps of a walk of `steps` over the table of neighbours
    `adjacent` when it is fixed, 1 to MAX_UNROLLED_WALK, and the walk can never look
    at more sites than helpers.walk_ends allows (walks.MAX_WALK_NODES: it never
    fails); else None."""
    if not (isinstance(steps, py.Constant) and type(steps.value) is int and 1 <= steps.value <= MAX_UNROLLED_WALK):
        return None
    n: int = steps.value
    degree = max((len(row) for row in src.value(adjacent)), default=0)
    return n if sum(degree ** k for k in range(1, n)) <= MAX_WALK_NODES else None


def _walk_unrolled(src: Source, landing: Landing, adjacent: py.Name, n: int, step: WalkStep) -> None:
    """`walk_general` of n steps (a constant), each step meeting `step`, no site
    passed forbidden: one loop per step, nested, each over the neighbours of the
    site the walk is at that are not on its path yet and that `step` allows from
    there (its statements written at each level, after its two names are set to
    the two sites) — the ends helpers.walk_ends finds, in board order, each once,
    without a call of the step's function per neighbour."""
    ends = pyast.name(src.fresh("t"))
    src.add(pyast.assign(ends, pyast.list_()))
    path: list[py.expr] = [_FRM]
    with ExitStack() as levels:
        for _ in range(n):
            at = pyast.name(src.fresh("t"))
            levels.enter_context(src.for_(at, pyast.sub(adjacent, path[-1])))
            levels.enter_context(src.if_(pyast.and_(*(pyast.compare(at, "!=", site) for site in path))))
            lines, cond = _step_at(step, path[-1], at)
            src.paste(lines)
            levels.enter_context(src.if_(cond))
            path.append(at)
        src.add(pyast.expr_stmt(pyast.method(ends, "append", path[-1])))
    with src.for_(_TO, pyast.helper("sorted", pyast.helper("set", ends))):
        src.add(_look())
        emit_candidate(src, landing)


def _step_at(step: WalkStep, frm: py.expr, to: py.expr) -> tuple[list[py.stmt], py.expr]:
    """The statements and condition of `step` from the site `frm` to `to`: its two
    names read as those sites where its statements never set them (a step's
    condition reading the sites beside the gap by a table of the two is then read
    by the walk's own names, and paired with its loop: paired_rows.py); else the
    two names set first."""
    if pyast.assigns(step.lines, step.frm) or pyast.assigns(step.lines, step.to):
        return [pyast.assign(pyast.name(step.frm), frm), pyast.assign(pyast.name(step.to), to), *step.lines], step.cond
    memo: dict[int, py.AST] = {}

    def change(node: py.AST) -> Optional[py.AST]:
        if isinstance(node, py.Name) and node.id in (step.frm, step.to):
            return frm if node.id == step.frm else to
        return None
    return pyast.replace_in(step.lines, change, memo), pyast.replace_nodes(step.cond, change, memo)


# ---------------------------------------------------------------- go, drop, select
def go(src: Source, landing: Landing, targets: py.expr, lines: Sequence[py.stmt] = ()) -> None:
    """To any site of a set but the piece's own, whatever lies between (`lines`
    run first: the loops that work out the set, if any)."""
    if lines:
        src.add(*lines)
    listed = _listed_sites(targets)
    if listed is not None:
        # (`go to [X, Y]`: the sites as they are worked out, those that are none passed
        # over in the loop, without a call making a list of them)
        with src.for_(_TO, listed):
            with src.if_(pyast.compare(_FRM, "!=", _TO, "!=", pyast.num(-1))):
                src.add(_look())
                emit_candidate(src, landing)
        return
    with src.for_(_TO, _but_own_site(targets)):
        with src.if_(pyast.compare(_TO, "!=", _FRM)):
            src.add(_look())
            emit_candidate(src, landing)


def _listed_sites(targets: py.expr) -> Optional[py.Tuple]:
    """The tuple of `h_sites((X, Y, ...))`, a list of sites worked out (but one site
    held by a local: _but_own_site), else None."""
    if isinstance(targets, py.Call) and pyast.is_name(targets.func, "h_sites") and len(targets.args) == 1 \
            and isinstance(targets.args[0], py.Tuple) and targets.args[0].elts:
        elements = targets.args[0].elts
        return targets.args[0] if len(elements) > 1 or not isinstance(elements[0], py.Name) else None
    return None


def _but_own_site(targets: py.expr) -> py.expr:
    """The targets of `go` as its loop may go over them: `S` for `h_without(S,
    frm)` (`go to S - [from]`): the loop passes over the piece's own site anyway,
    so the list without it (a new list a piece) need not be made; the others keep
    their order."""
    if isinstance(targets, py.Call) and pyast.is_name(targets.func, "h_without") and len(targets.args) == 2 \
            and pyast.same(targets.args[1], _FRM):
        return targets.args[0]
    if isinstance(targets, py.Call) and pyast.is_name(targets.func, "h_sites") and len(targets.args) == 1 \
            and isinstance(targets.args[0], py.Tuple) and len(targets.args[0].elts) == 1 \
            and isinstance(targets.args[0].elts[0], py.Name):
        # (one site held by a local, `go to beyond(...)` written out: itself unless none,
        # without a call making a list of it)
        site = targets.args[0].elts[0]
        return pyast.ifexp(pyast.tuple_(site), pyast.compare(site, "!=", pyast.num(-1)), pyast.tuple_())
    return targets


def choose_site(src: Source, landing: Landing, targets: py.expr, test: Optional[py.expr] = None) -> None:
    """drop or select: a site of the set is chosen (`frm` is -1: no origin); `test`,
    when given, says which sites of `targets` count."""
    with src.for_(_TO, targets):
        with src.if_(test) if test is not None else nullcontext():
            src.add(_look())
            emit_candidate(src, landing)


# ---------------------------------------------------------------- offsets, tracks
def offset_leap(src: Source, landing: Landing, targets: tuple[tuple[tuple[int, ...], ...], ...]) -> None:
    """To the sites at the action's offsets from the piece, whatever lies between.
    `targets[player][site]` lists them (built once, see actions.py)."""
    table: py.expr
    if all(t == targets[0] for t in targets):
        table = pyast.sub(src.const(targets[0] + ((),)), _FRM)
    else:
        table = pyast.sub(pyast.sub(src.const(tuple(t + ((),) for t in targets)), pyast.name("p")), _FRM)
    with src.for_(_TO, table):
        src.add(_look())
        emit_candidate(src, landing)


def offset_leap_via(src: Source, landing: Landing, targets: LeapWays) -> None:
    """A leap blocked on its way: `targets[player][site]` lists (the site leapt to,
    the ways to it: each the sites that must be empty) — with one way of one site
    each (a horse's leg), the pairs (site leapt to, the site on the way)."""
    vv = pyast.name(src.fresh("l"))
    passing = landing.forbidden("passing", vv.id)
    single = all(len(ways) == 1 and len(ways[0]) == 1 for t in targets for row in t for _, ways in row)
    rows = tuple(tuple(tuple((to, ways[0][0]) if single else (to, ways) for to, ways in row) for row in t) + ((),)
                 for t in targets)
    table: py.expr
    if all(t == rows[0] for t in rows):
        table = pyast.sub(src.const(rows[0]), _FRM)
    else:
        table = pyast.sub(pyast.sub(src.const(rows), pyast.name("p")), _FRM)
    free = pyast.is_none(_board(vv))
    open_way = pyast.and_(free, pyast.not_(passing)) if passing is not None else free
    if single:
        with src.for_(pyast.tuple_(_TO, vv), table):
            with src.if_(open_way):
                src.add(_look())
                emit_candidate(src, landing)
        return
    way, ways = pyast.name(src.fresh("l")), pyast.name(src.fresh("l"))
    with src.for_(pyast.tuple_(_TO, ways), table):
        with src.for_(way, ways):
            src.add(pyast.for_(vv, way, [pyast.if_(pyast.not_(open_way), [pyast.break_()])],
                               [pyast.break_()]))
        with src.else_():
            src.add(pyast.continue_())
        src.add(_look())
        emit_candidate(src, landing)


def screen_slide(src: Source, landing: Landing, dirs_by_player: Directions, rays: Rays, n_sites: int) -> None:
    """Along each direction over empty sites to the first piece (the screen), past
    it, then on as a slide: each empty site beyond is a candidate, and the first
    piece met there, where the way stops. `jumped` is the screen."""
    passing = landing.forbidden("passing", "js")
    passing_beyond = landing.forbidden("passing", "to")
    js, jp = pyast.name("js"), pyast.name("jp")
    table = per_player_table(src, dirs_by_player, n_sites, rays_at_least(rays, 2), ("rays from", 2))
    with src.for_(_RAY, table):
        with src.for_(pyast.tuple_(_DIST, js), pyast.helper("enumerate", _RAY, pyast.num(1))):
            src.add(pyast.assign(jp, _board(js)), pyast.if_(pyast.is_not_none(jp), [pyast.break_()]))
            if passing is not None:
                src.add(pyast.if_(passing, [pyast.break_()]))
        with src.else_():
            src.add(pyast.continue_())  # no screen on this way
        if passing is not None:
            src.add(pyast.if_(pyast.is_none(jp), [pyast.continue_()]))  # a site the way may not pass
        with src.for_(_TO, pyast.sub(_RAY, pyast.slice_(_DIST, None))):
            src.add(_look())
            emit_candidate(src, landing, stop_at_piece=True, jumped=js)
            if passing_beyond is not None:
                src.add(pyast.if_(passing_beyond, [pyast.break_()]))


def along_track(src: Source, landing: Landing, track: py.expr, span: Span, off_case: Optional[int],
                off_where: Optional[Condition], landings: Optional[tuple[py.expr, int]] = None) -> None:
    """Along a track, exactly the distance (or each distance of the span) from the
    piece's site, whatever stands between; beyond the end of a track that does not
    loop, the `off board` case (once per piece). `landings`: the track's table of
    landing sites (expr_tracks.landing_sites) and how many steps it answers, read
    in place of `h_track_to` within that reach."""

    def landing_site(steps: py.expr) -> py.expr:
        call = pyast.helper("h_track_to", track, _FRM, steps)
        if landings is None:
            return call
        table, width = landings
        within = pyast.compare(pyast.num(0), "<=", steps, "<", pyast.num(width))
        return pyast.ifexp(pyast.sub(pyast.sub(table, _FRM), steps), within, call)

    passing = landing.forbidden("passing", "site")
    lo, hi = pyast.name("lo"), pyast.name("hi")
    if passing is None and span.exact:
        src.add(pyast.assign(lo, span.low))
    else:
        src.add(pyast.assign(lo, span.low), pyast.assign(hi, _high(span, lo, lo)))
        if off_case is not None:
            src.add(pyast.assign(pyast.name("ends"), pyast.false()))  # whether the off-board action is listed already
    distances = pyast.helper("range", pyast.helper("max", lo, pyast.num(1)), pyast.add(hi, pyast.num(1)))
    if passing is None and span.exact:
        # One distance and nothing on the way asked about: the landing site alone.
        src.add(pyast.assign(_TO, landing_site(lo)))
        with src.if_(pyast.compare(_TO, "==", pyast.num(-1))):
            if off_case is not None:
                _off_board(src, landing, off_case, off_where)
        with src.elif_(pyast.compare(_TO, ">=", pyast.num(0))):
            src.add(_look())
            emit_candidate(src, landing)
        return
    if passing is None:
        # Nothing on the way is asked about: the landing site alone, not the path.
        with src.for_(_DIST, distances):
            src.add(pyast.assign(_TO, landing_site(_DIST)),
                    pyast.if_(pyast.compare(_TO, "==", pyast.num(-2)), [pyast.break_()]))
            with src.if_(pyast.compare(_TO, "==", pyast.num(-1))):
                _off_board_once(src, landing, off_case, off_where)
                src.add(pyast.break_())
            src.add(_look())
            emit_candidate(src, landing)
        return
    with src.for_(_DIST, distances):
        src.add(pyast.assign(_ROW, pyast.helper("h_track_path", track, _FRM, _DIST)),
                pyast.if_(pyast.is_none(_ROW), [pyast.break_()]),
                pyast.assign(_TO, pyast.sub(_ROW, 0)))
        with src.if_(pyast.compare(_TO, "==", pyast.num(-1))):
            _off_board_once(src, landing, off_case, off_where)
            src.add(pyast.break_())
        with _unless_passed(src, passing, pyast.name("site"), pyast.sub(_ROW, 1)):
            src.add(_look())
            emit_candidate(src, landing)


def _high(span: Span, lo: py.Name, unbounded: py.expr) -> py.expr:
    """What `hi` is set to just after `lo = span.low`: `lo` itself when the two
    bounds are one expression (an exact `distance E`: worked out once, not
    twice), else the span's upper bound, or `unbounded` without one."""
    if span.high is None:
        return unbounded
    return lo if pyast.same(span.low, span.high) else span.high
