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

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator, Optional

from .source import Source
from .conditions import Condition
from .restrictions import Restrictions
from .scope import Register

EMPTY, OWN, NEUTRAL, ENEMY = 0, 1, 2, 3
# The acting piece while actions are listed: it stands where it starts.
MOVING_PIECE = Register("frm", "pc")
# At most this many codes of actions are kept per game (tables of 8 bytes an entry,
# about 70 more for each code made): beyond, codes are made as listed.
MAX_PREBUILT_CODES = 250_000


class CodeTables:
    """Codes `(case, frm, to)` read from tables rather than made for each listing:
    a listed action's code lives as long as the list, so making and dropping a
    tuple per candidate is much of the cost of listing. Per case, a table by `frm`
    and `to` (-1, no site, last), each code made when first listed (runtime:
    helpers.make_code), within MAX_PREBUILT_CODES entries a game."""

    def __init__(self, src: Source, n_sites: int):
        self.src = src
        self.n_sites = n_sites
        self.tables: dict[int, str] = {}  # case id -> the constant holding its table
        self.from_nowhere = False

    def without_origin(self) -> "CodeTables":
        """The same tables, for actions that start from no site (drops, select):
        `frm` is -1 there, so they read that row of a table by its own name."""
        view = CodeTables(self.src, self.n_sites)
        view.tables = self.tables
        view.from_nowhere = True
        return view

    def code(self, case: int, destination: str) -> str:
        """The expression of the code of `case` from `frm` to `destination`."""
        name = self.tables.get(case)
        if name is None:
            width = self.n_sites + 1
            if (len(self.tables) + 1) * width ** 2 > MAX_PREBUILT_CODES:
                return f"({case}, frm, {destination})"
            table = [[None] * width for _ in range(width)]
            name = self.tables[case] = self.src.const(table, key=("codes", case))
        row = f"{name}[frm]"
        if self.from_nowhere:
            # (the row object itself: make_code fills it through the table)
            row = self.src.const(self.src.namespace[name][-1], key=("codes from nowhere", case))
        return f"({row}[{destination}] or h_make_code({name}, {case}, frm, {destination}))"


@dataclass
class Landing:
    """The cases of one action and the checks a candidate must pass."""

    case_ids: list  # by EMPTY/OWN/NEUTRAL/ENEMY: case id or None
    restrictions: Restrictions
    where: Optional[Condition]  # the candidate-level `where`, or None
    piece_kinds: Optional[frozenset] = None  # the kinds the acting piece can be (None: any)
    piece_always: bool = True  # whether there is an acting piece (not in a select)
    # case id -> (number of choices, condition for choosing or None): `promote ... to one of`
    choices: dict = field(default_factory=dict)
    # `where` as asked where `tg` holds a piece (`(tg or E)` is then `tg`), or None
    occupied_where: Optional[Condition] = None
    # while the action is written after another one of the same piece whose actions
    # write the same notations: the local holding the set of sites where that one
    # lands (its actions landing there are not listed again), else None
    exclude: Optional[str] = None
    codes: Optional[CodeTables] = None  # where the codes of its actions are kept ready

    def forbidden(self, what: str, site: str, piece: Optional[str] = None, occupied: bool = False) -> Optional[str]:
        """Code true where a forbid of kind `what` applies at `site` (None: never);
        `piece` holds what stands there (`occupied`: never None)."""
        code = self.restrictions.check(
            what, site, MOVING_PIECE, "frm", self.piece_kinds, self.piece_always, piece, occupied,
        )
        if what == "landing" and self.exclude is not None:
            listed = f"{site} in {self.exclude}"
            return f"({listed} or {code})" if code else listed
        return code

    def occupied_cases(self) -> bool:
        return any(self.case_ids[i] is not None for i in (OWN, NEUTRAL, ENEMY))


def append(src: Source, case: int, destination: str = "to", jumped: str = "-1", choices: Optional[dict] = None,
           codes: Optional[CodeTables] = None) -> None:
    """Append the code of a candidate: one per choice when the case has a choice."""
    choice = (choices or {}).get(case)
    if choice is None:
        # The fields that do not apply are left out at the end (runtime/pieces.py).
        if jumped != "-1":
            src.line(f"out.append(({case}, frm, {destination}, {jumped}))")
        elif codes is not None:
            src.line(f"out.append({codes.code(case, destination)})")
        else:
            src.line(f"out.append(({case}, frm, {destination}))")
        return
    n, condition = choice
    with src.block(f"if {condition}:") if condition else _always():
        with src.block(f"for x1 in range({n}):"):
            src.line(f"out.append(({case}, frm, {destination}, {jumped}, x1))")
    if condition:
        with src.block("else:"):
            src.line(f"out.append(({case}, frm, {destination}, {jumped}, -1))")


class _always:
    """A context manager opening no block."""

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def emit_candidate(src: Source, landing: Landing, stop_at_piece: bool = False) -> None:
    """`tg` holds what stands on site `to` (None: empty): classify, check, append
    (and with `stop_at_piece`, leave the loop at a site holding a piece)."""
    ids = landing.case_ids
    land = landing.forbidden("landing", "to", "tg")
    capture = landing.forbidden("capturing", "to", "tg", occupied=True)
    if ids[EMPTY] is not None:
        with src.block("if tg is None:"):
            _checked_append(src, ids[EMPTY], (land,), landing.where, choices=landing.choices, codes=landing.codes)
    if not landing.occupied_cases():
        if stop_at_piece:
            with src.block("else:" if ids[EMPTY] is not None else "if tg is not None:"):
                src.line("break")
        return
    with src.block("else:" if ids[EMPTY] is not None else "if tg is not None:"):
        _by_owner(src, "tg", ids, land, capture, landing.occupied_where or landing.where, "-1", landing.choices,
                  landing.codes)
        if stop_at_piece:
            src.line("break")


def _by_owner(src: Source, piece: str, ids: list, land: Optional[str], capture: Optional[str],
              where: Optional[Condition], jumped: str, choices: Optional[dict] = None,
              codes: Optional[CodeTables] = None) -> None:
    """Branch on the owner of `piece` (own, neutral, enemy) to the cases that exist."""
    alone = [i for i in (OWN, NEUTRAL, ENEMY) if ids[i] is not None]
    if alone in ([OWN], [NEUTRAL]):  # one test reading the owner once: no local for it
        with src.block(f"if {piece}[0] == p:" if alone == [OWN] else f"if {piece}[0] < 0:"):
            _checked_append(src, ids[alone[0]], (land,), where, jumped, choices, codes)
        return
    src.line(f"off = {piece}[0]")
    branches = []
    if ids[OWN] is not None:
        branches.append(("off == p", ids[OWN], (land,)))
    if ids[NEUTRAL] is not None:
        branches.append(("off < 0", ids[NEUTRAL], (land,)))
    if ids[ENEMY] is not None:
        # what the branches before it leave to test
        own, neutral = ids[OWN] is not None, ids[NEUTRAL] is not None
        test = None if own and neutral else "off != p" if neutral else "off >= 0" if own else "off >= 0 and off != p"
        branches.append((test, ids[ENEMY], (land, capture)))
    for n, (test, case, checks) in enumerate(branches):
        with src.block("else:" if test is None else f"{'if' if n == 0 else 'elif'} {test}:"):
            _checked_append(src, case, checks, where, jumped, choices, codes)


def _checked_append(src: Source, case: int, forbidden: tuple, where: Optional[Condition], jumped: str = "-1",
                    choices: Optional[dict] = None, codes: Optional[CodeTables] = None) -> None:
    """Append the candidate unless a forbid applies or the `where` fails."""
    found = [c for c in forbidden if c is not None]
    test = ("not " + (found[0] if len(found) == 1 else "(" + " or ".join(found) + ")")) if found else None
    if where is not None and where.cost_free:
        test = f"{test} and {where.code}" if test else where.code
        where = None
    with src.block(f"if {test}:") if test else _always():
        with where.holds(src) if where is not None else _always():
            append(src, case, jumped=jumped, choices=choices, codes=codes)


# ---------------------------------------------------------------- tables
def per_player_table(src: Source, dirs_by_player: list, n_sites: int, build, key: str) -> str:
    """Code indexing table[player][site] = build(directions, site) by `p` and `frm`
    (without the player when every player has the same directions)."""
    shared: dict = {}
    tables = []
    for dirs in dirs_by_player:
        if dirs not in shared:
            shared[dirs] = tuple(build(dirs, s) for s in range(n_sites)) + (build((), None),)
        tables.append(shared[dirs])
    if len(shared) == 1:
        return src.const(tables[0], key=(key, dirs_by_player[0])) + "[frm]"
    return src.const(tuple(tables), key=(key, tuple(dirs_by_player))) + "[p][frm]"


def rays_of(rays: list, skip_empty: bool):
    def build(dirs, s):
        if s is None:
            return ()
        return tuple(rays[x][s] for x in dirs if rays[x][s] or not skip_empty)

    return build


@dataclass(frozen=True)
class Span:
    """A pattern's distance: `low` and `high` as code (numbers when fixed, then also
    in `low_fixed`/`high_fixed`); `high` None when unbounded (`to any`)."""

    low: str
    high: Optional[str]
    low_fixed: Optional[int] = None
    high_fixed: Optional[int] = None

    @property
    def exact(self) -> bool:
        return self.high == self.low


# ---------------------------------------------------------------- step / slide
def step(src: Source, landing: Landing, dirs_by_player: list, rays: list, n_sites: int, span: Span) -> None:
    """Along each direction over empty sites, landing at a distance in the span
    (as far as the way is free when it is unbounded)."""
    passing = landing.forbidden("passing", "to")
    if span.low_fixed == 1 and span.high_fixed == 1:
        targets = per_player_table(
            src, dirs_by_player, n_sites,
            lambda dirs, s: () if s is None else tuple(rays[x][s][0] for x in dirs if rays[x][s]), "step1",
        )
        with src.block(f"for to in {targets}:"):
            src.line("tg = b[to]")
            emit_candidate(src, landing)
        return
    if span.exact and span.low_fixed is not None:
        if span.low_fixed >= 1:
            _step_exact(src, landing, dirs_by_player, rays, n_sites, span.low_fixed)
        return
    table = per_player_table(src, dirs_by_player, n_sites, rays_of(rays, True), "rays")
    counted = span.low_fixed is None or span.low_fixed > 1
    if span.low_fixed is None:
        src.line(f"lo = {span.low}")
    if span.high is None:
        limit = ""
    elif span.high_fixed is not None:
        limit = f"[:{max(span.high_fixed, 0)}]"
    else:
        src.line(f"hi = {span.high}")
        limit = "[:max(hi, 0)]"
    with src.block(f"for ray in {table}:"):
        with src.block(f"for dist, to in enumerate(ray{limit}, 1):" if counted else f"for to in ray{limit}:"):
            src.line("tg = b[to]")
            if counted:
                with src.block(f"if dist >= {'lo' if span.low_fixed is None else span.low_fixed}:"):
                    emit_candidate(src, landing)
                with src.block("if tg is not None:"):
                    src.line("break")
            else:
                emit_candidate(src, landing, stop_at_piece=True)
            if passing:
                with src.block(f"if {passing}:"):
                    src.line("break")


def rays_at_least(rays: list, k: int):
    """Per (directions, site): the rays of at least k sites."""
    def build(dirs, s):
        return () if s is None else tuple(rays[x][s] for x in dirs if len(rays[x][s]) >= k)

    return build


def _free_way(src: Source, landing: Landing, k: int) -> None:
    """`continue` unless the first k-1 sites of `ray` are empty and may be passed."""
    passing = landing.forbidden("passing", "to")
    for i in range(k - 1):
        src.line(f"to = ray[{i}]")
        with src.block(f"if b[to] is not None{' or ' + passing if passing else ''}:"):
            src.line("continue")


def _step_exact(src: Source, landing: Landing, dirs_by_player: list, rays: list, n_sites: int, k: int) -> None:
    """Exactly k sites along each direction, the sites before it empty."""
    table = per_player_table(src, dirs_by_player, n_sites, rays_at_least(rays, k), ("rays from", k))
    with src.block(f"for ray in {table}:"):
        _free_way(src, landing, k)
        src.line(f"to = ray[{k - 1}]")
        src.line("tg = b[to]")
        emit_candidate(src, landing)


def step_and_jump(src: Source, step_landing: Landing, jump_landing: Landing, over_ids: list, dirs_by_player: list,
                  rays: list, n_sites: int, k: int) -> None:
    """A step of exactly k onto empty sites and a jump over a piece k away, in one
    pass over the directions: the site k away empty is a step, occupied a jump."""
    table = per_player_table(src, dirs_by_player, n_sites, rays_at_least(rays, k), ("rays from", k))
    land = jump_landing.forbidden("landing", "to")
    capture = jump_landing.forbidden("capturing", "js", "jp", occupied=True)
    with src.block(f"for ray in {table}:"):
        _free_way(src, step_landing, k)
        src.line(f"to = ray[{k - 1}]")
        src.line("tg = b[to]")
        with src.block("if tg is None:"):
            _checked_append(src, step_landing.case_ids[EMPTY], (step_landing.forbidden("landing", "to", "tg"),),
                            step_landing.where, choices=step_landing.choices, codes=step_landing.codes)
        with src.block(f"elif len(ray) > {k} and b[ray[{k}]] is None:"):
            src.line("js = to")
            src.line("jp = tg")
            src.line(f"to = ray[{k}]")
            src.line("tg = None")
            _by_owner(src, "jp", over_ids, land, capture, jump_landing.where, "js", jump_landing.choices)


# ---------------------------------------------------------------- leap
def leap(src: Source, landing: Landing, dirs_by_player: list, rays: list, n_sites: int, span: Span,
         off_case: Optional[int], off_where: Optional[Condition]) -> None:
    """Exactly the distance (or each distance of the span) along each direction,
    over anything; one `off board` action per piece when the distance leads off
    the board in some direction."""
    passing = landing.forbidden("passing", "to")
    if span.exact and not passing:
        _leap_exact(src, landing, dirs_by_player, rays, n_sites, span, off_case, off_where)
        return
    table = per_player_table(src, dirs_by_player, n_sites, rays_of(rays, False), "all rays")
    src.line(f"lo = {span.low}")
    src.line(f"hi = {span.high}")
    src.line("lo = max(lo, 1)")
    if off_case is not None:
        src.line("ends = False")  # whether the off-board action is listed already (_off_board_once)
    with src.block(f"for ray in {table}:"):
        with src.block("for dist in range(lo, hi + 1):"):
            with src.block("if dist > len(ray):"):
                _off_board_once(src, landing, off_case, off_where)
                src.line("break")
            with _unless_passed(src, passing, "to", "ray[:dist - 1]"):
                src.line("to = ray[dist - 1]")
                src.line("tg = b[to]")
                emit_candidate(src, landing)


@contextmanager
def _unless_passed(src: Source, passing: Optional[str], var: str, passed: str) -> Iterator[None]:
    """The lines written inside run unless some site `var` of `passed` meets the
    passing condition; then the enclosing loop (over the distances) ends. A loop
    with `else`, not `any(...)`: a generator costs more than the few sites it asks."""
    if not passing:
        yield
        return
    with src.block(f"for {var} in {passed}:"):
        with src.block(f"if {passing}:"):
            src.line("break")
    with src.block("else:"):
        yield
        src.line("continue")
    src.line("break")


def _leap_exact(src: Source, landing: Landing, dirs_by_player: list, rays: list, n_sites: int, span: Span,
                off_case: Optional[int], off_where: Optional[Condition]) -> None:
    """An exact distance with nothing to check on the way: a table of the sites at
    each distance (and whether some direction leaves the board there)."""
    longest = max(len(r) for per_dir in rays for r in per_dir) if rays and rays[0] else 0
    longest += 1

    def build(dirs, s):
        if s is None:  # (every row has the same length: generated code tests a number, not len(row))
            return (((), False),) + (((), True),) * longest
        row = [((), False)]
        for d in range(1, longest + 1):
            row.append((tuple(rays[x][s][d - 1] for x in dirs if len(rays[x][s]) >= d), any(len(rays[x][s]) < d for x in dirs)))
        return tuple(row)

    table = per_player_table(src, dirs_by_player, n_sites, build, ("leaps", longest))
    all_off = src.const(((), True))
    if span.low_fixed is not None:
        if span.low_fixed <= 0:
            return
        src.line(f"row = {table}[{span.low_fixed}]" if span.low_fixed <= longest else f"row = {all_off}")
        _leap_row(src, landing, off_case, off_where)
        return
    src.line(f"dist = {span.low}")
    with src.block("if dist > 0:"):
        src.line(f"row = {table}")
        src.line(f"row = row[dist] if dist <= {longest} else {all_off}")
        _leap_row(src, landing, off_case, off_where)


def _leap_row(src: Source, landing: Landing, off_case: Optional[int], off_where: Optional[Condition]) -> None:
    """`row` is (the sites at the distance, whether some direction leaves the board)."""
    with src.block("for to in row[0]:"):
        src.line("tg = b[to]")
        emit_candidate(src, landing)
    if off_case is not None:
        with src.block("if row[1]:"):
            _off_board(src, landing, off_case, off_where)


def _off_board_once(src: Source, landing: Landing, off_case: Optional[int], off_where: Optional[Condition]) -> None:
    """The `off board` action of a piece whose way leaves the board, listed once per
    piece however many ways leave it (`ends` says whether it is listed already)."""
    if off_case is None:
        return
    with src.block("if not ends:"):
        src.line("ends = True")
        _off_board(src, landing, off_case, off_where)


def _off_board(src: Source, landing: Landing, off_case: int, off_where: Optional[Condition]) -> None:
    with src.block(f"if -1 not in {landing.exclude}:") if landing.exclude is not None else _always():
        if off_where is None:
            append(src, off_case, destination="-1", codes=landing.codes)
            return
        src.line("to = -1")
        src.line("tg = None")
        with off_where.holds(src):
            append(src, off_case, destination="-1", codes=landing.codes)


# ---------------------------------------------------------------- jump
def jump(src: Source, over_ids: list, landing: Landing, dirs_by_player: list, rays: list, n_sites: int,
         span: Span) -> None:
    """Over exactly one piece at a distance in the span, the sites before it empty,
    landing on the site just beyond it, which must be empty."""
    passing = landing.forbidden("passing", "js", "jp")
    land = landing.forbidden("landing", "to")
    capture = landing.forbidden("capturing", "js", "jp", occupied=True)
    if span.low_fixed == 1 and span.high_fixed == 1:
        pairs = per_player_table(
            src, dirs_by_player, n_sites,
            lambda dirs, s: () if s is None else tuple((r[0], r[1]) for x in dirs if len(r := rays[x][s]) >= 2),
            "jump pairs",
        )
        with src.block(f"for js, to in {pairs}:"):
            src.line("jp = b[js]")
            with src.block("if jp is not None and b[to] is None:"):
                src.line("tg = None")
                _by_owner(src, "jp", over_ids, land, capture, landing.where, "js", landing.choices)
        return
    table = per_player_table(src, dirs_by_player, n_sites, rays_of(rays, True), "rays")
    src.line(f"lo = {span.low}")
    src.line(f"hi = {span.high if span.high is not None else n_sites}")
    with src.block(f"for ray in {table}:"):
        with src.block("for dist, js in enumerate(ray, 1):"):
            with src.block("if dist > hi:"):
                src.line("break")
            src.line("jp = b[js]")
            with src.block("if jp is None:"):
                if passing:
                    with src.block(f"if {passing}:"):
                        src.line("break")
                src.line("continue")
            # The first piece on the way: jump it or nothing.
            with src.block("if dist >= lo and dist < len(ray) and b[ray[dist]] is None:"):
                src.line("to = ray[dist]")
                src.line("tg = None")
                _by_owner(src, "jp", over_ids, land, capture, landing.where, "js", landing.choices)
            src.line("break")


# ---------------------------------------------------------------- walk
def walk(src: Source, landing: Landing, tables: str, steps: str, blocked: str, row: Optional[str]) -> None:
    """Exactly N steps along edges, never entering a site twice; each end once.
    `tables` names a WalkTables constant, `blocked` is the bitmask of the sites
    whose pieces block (worked out once per position); `row`, when the length is
    the same for every piece, the local holding `tables.row(length)` (or None
    when the length is not positive), worked out once per position too."""
    if row is None:
        src.line(f"dist = {steps}")
        src.line(f"row = {walk_row(tables, 'dist')}")
        row = "row"
    src.line(f"ray = {row}[frm]")
    with src.block("if ray is None:"):  # (not `or`: asking an object for its truth costs more)
        src.line(f"ray = {tables}.table(frm, {steps})")
    if blocked == "0":
        with src.block("for to in ray.ends:"):
            src.line("tg = b[to]")
            emit_candidate(src, landing)
        return
    # The ends of walks passing no blocked site, told end by end where one
    # is blocked (blockers move, so an answer seldom serves twice).
    hit, passed = src.fresh("l"), src.fresh("l")
    src.line(f"{hit} = ray.passed_any & {blocked}")
    with src.block(f"if not {hit}:"):
        with src.block("for to in ray.ends:"):
            src.line("tg = b[to]")
            emit_candidate(src, landing)
    with src.block("else:"):
        # (the ends reached one way only, then those reached several ways)
        with src.block(f"for to, {passed} in ray.single:"):
            with src.block(f"if not {passed} & {hit}:"):
                src.line("tg = b[to]")
                emit_candidate(src, landing)
        with src.block("if ray.several:"):
            with src.block(f"for to in ray.open_several({hit}):"):
                src.line("tg = b[to]")
                emit_candidate(src, landing)


def walk_row(tables: str, steps: str) -> str:
    """Code of the row of walk tables of `steps` steps (a row without walks when
    not positive), without a call when it is known already."""
    return f"({tables}.by_length[{steps}] if 0 < {steps} < {tables}.known else {tables}.row({steps}))"


def walk_general(src: Source, landing: Landing, adjacent: str, steps: str, pos: str) -> None:
    """A walk whose passing rule is a general condition (asked site by site)."""
    passing = landing.forbidden("passing", "site")
    src.line(f"dist = {steps}")
    with src.block("if dist > 0:"):
        with src.block(f"for to in h_walk_ends(frm, dist, {adjacent}, lambda site: {passing or 'False'}, {pos}):"):
            src.line("tg = b[to]")
            emit_candidate(src, landing)


# ---------------------------------------------------------------- go, drop, select
def go(src: Source, landing: Landing, targets: str) -> None:
    """To any site of a set but the piece's own, whatever lies between."""
    with src.block(f"for to in {targets}:"):
        with src.block("if to != frm:"):
            src.line("tg = b[to]")
            emit_candidate(src, landing)


def choose_site(src: Source, landing: Landing, targets: str, test: Optional[str] = None) -> None:
    """drop or select: a site of the set is chosen (`frm` is -1: no origin); `test`,
    when given, says which sites of `targets` count."""
    with src.block(f"for to in {targets}:"):
        with src.block(f"if {test}:") if test else _always():
            src.line("tg = b[to]")
            emit_candidate(src, landing)


# ---------------------------------------------------------------- offsets, tracks
def offset_leap(src: Source, landing: Landing, targets: tuple) -> None:
    """To the sites at the action's offsets from the piece, whatever lies between.
    `targets[player][site]` lists them (built once, see actions.py)."""
    if all(t == targets[0] for t in targets):
        table = src.const(targets[0] + ((),)) + "[frm]"
    else:
        table = src.const(tuple(t + ((),) for t in targets)) + "[p][frm]"
    with src.block(f"for to in {table}:"):
        src.line("tg = b[to]")
        emit_candidate(src, landing)


def along_track(src: Source, landing: Landing, track: str, span: Span, off_case: Optional[int],
                off_where: Optional[Condition]) -> None:
    """Along a track, exactly the distance (or each distance of the span) from the
    piece's site, whatever stands between; beyond the end of a track that does not
    loop, the `off board` case (once per piece)."""
    passing = landing.forbidden("passing", "site")
    src.line(f"lo = {span.low}")
    src.line(f"hi = {span.high if span.high is not None else 'lo'}")
    if off_case is not None:
        src.line("ends = False")  # whether the off-board action is listed already (_off_board_once)
    with src.block("for dist in range(max(lo, 1), hi + 1):"):
        src.line(f"row = h_track_path({track}, frm, dist)")
        with src.block("if row is None:"):
            src.line("break")
        src.line("to = row[0]")
        with src.block("if to == -1:"):
            _off_board_once(src, landing, off_case, off_where)
            src.line("break")
        with _unless_passed(src, passing, "site", "row[1]"):
            src.line("tg = b[to]")
            emit_candidate(src, landing)
