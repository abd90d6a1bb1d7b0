"""What compiling an expression gives (`Code`), and what the families of
expressions (expr_*.py) ask of the compiler that dispatches to them (`Compiling`).

A `Code` is a Python expression (an `ast.expr` over the registers of the scope,
see scope.py, and generated constants, see source.py), its type, what it
depends on, its constant value when it has one, and an estimate of its cost
(steps per evaluation) that bounds the work a definition can make one position
cost. The other fields tell later steps what the expression is, so that they
can do better than evaluate it (a mask to test membership with, a loop to stop
in, a table to read ahead from).

Pieces are tuples `(owner, kind, stones, attributes...)` or None. Reading a piece
that may be None goes through `(P or E)`: `E` is a constant empty piece (owner
none, kind none, no stones, every attribute at its "missing" value), so that one
evaluation of P answers owner, kind and attribute reads alike.
"""
from __future__ import annotations

import ast as py
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Protocol, Union

from ..parsing import ast
from . import pyast
from .model import GameModel, Pool, Region, Track, Variable
from .scope import Local, Scope
from .source import Source
from .types import Dep, Type

NOCONST: Any = object()
Stmts = list[py.stmt]
# A per-player thing not yet indexed by a player: ("var" | "pool" | "region" | "track", what).
PerPlayer = tuple[str, Union[Variable, Pool, Region, Track]]
# `pieces ... where COND` as a loop may test it: (the statements it wrote last in
# lowered mode, else None; the sites looped over; the loop variable; COND's
# statements; COND's code).
Filtered = tuple[Optional[tuple[py.stmt, ...]], py.expr, str, tuple[py.stmt, ...], py.expr]


@dataclass(frozen=True)
class Flood:
    """`connected(...)` written into a sink (expr_connected.py): what it wrote, and
    its parts, from which a quantifier writes its own loop (expr_connected.fused_loop)."""

    written: tuple[py.stmt, ...]  # the statements it wrote last into the sink
    seeds: tuple[py.stmt, ...]  # the marks made, and the seeds that meet the condition put in `found`
    found: py.Name  # the list of the sites found (it grows while it is walked)
    expand: tuple[py.stmt, ...]  # for the site named `current`: its neighbours asked and added
    current: str
    # A path found last, kept to answer `exists` again without a search (see
    # expr_connected.witnessed_loop); None where the flood keeps none.
    witness: Optional["Witness"] = None


@dataclass(frozen=True)
class Witness:
    """What a flood from one site needs to try the path it found last: the start
    (a local holding it), the table of kept paths by start, the marks (each site
    found marked with the site it was reached from, plus two; the start with 1),
    the site variable and the condition asked of each site (statements, code)."""

    start: py.Name
    paths: py.Name
    marks: py.Name
    site: str
    lines: tuple[py.stmt, ...]
    cond: py.expr
    neighbours: Optional[py.Name] = None  # the constant table of each site's neighbours


@dataclass(frozen=True)
class CountSum:
    """Counts along rays (expr_sites.RayCount, in the order written) added, plus a
    whole constant: `count(ray(a)) + count(ray(b)) + 1`."""

    terms: tuple[Any, ...]
    constant: int


@dataclass
class Code:
    code: py.expr  # the Python expression
    type: Type
    deps: frozenset[Dep] = frozenset()
    const: Any = NOCONST
    # For SITE values: the code of the piece on that site (None: `b[site]`).
    piece: Optional[py.expr] = None
    # For static SITES values: the sites, and the name of their membership mask.
    static_sites: Optional[tuple[int, ...]] = None
    mask: Optional[py.expr] = None
    # For SITES values: the same sites as an int bitmask (bit s: site s), where a
    # name holds one (`let g = group(X)`: statements._let)
    bits: Optional[py.expr] = None
    per_player: Optional[PerPlayer] = None
    # For a region indexed by a player: (masks-by-player constant, player code).
    region_by_player: Optional[tuple[py.expr, py.expr]] = None
    # For `X is KIND` alternatives: (piece code, kinds), so that `or` fuses them.
    kind_test: Optional[tuple[py.expr, frozenset[int]]] = None
    # For an attribute of the acting piece (`piece.ATTR`): its index in the tuple.
    piece_attr: Optional[int] = None
    # Estimated steps per evaluation (quantifiers multiply by their set's size).
    cost: int = 1
    # Estimated number of elements (collections).
    size: int = 1
    # A number read from where only checked numbers are kept (a variable, a chance
    # outcome): storing it needs no check against the limit.
    stored: bool = False
    # An `and` whose right side needed statements (lowered mode): (the statements
    # it wrote last, left code, the right side's statements, right Code), so that
    # a loop testing it can nest its body in the two tests instead (see `when`).
    guarded: Optional[tuple[tuple[py.stmt, ...], py.expr, Stmts, "Code"]] = None
    # A collection made anew by each evaluation (nothing else holds it): a loop over
    # it needs no copy.
    fresh: bool = False
    # An `exists` in lowered mode: the statements it wrote last (`t = False`, then
    # the loop that sets `t = True` and breaks), so that what runs when it holds
    # can run in the loop instead (see conditions.Condition.holds).
    found_loop: Optional[tuple[py.stmt, ...]] = None
    # `pieces ... where COND` (see Filtered): a loop over it can test COND itself
    # rather than build the list first.
    filtered: Optional[Filtered] = None
    # SITE: the site holds a piece here (its piece needs no empty fallback);
    # SITES: sites that hold pieces (`pieces ...`).
    occupied: bool = False
    # SITES: each site listed once, whatever the board does after (`pieces ...`:
    # one piece a site), so joining one more site needs no set (expr_logic).
    distinct: bool = False
    # SITE: never none (an element of a set of sites), so never beyond the edge.
    real: bool = False
    # TRACK: (the code of its table of the sites after each site, up to which n
    # its rows answer `along`, whether every row of a site on the track holds that
    # many sites — the track loops: see expr_tracks.following_sites), or None.
    following: Optional[tuple[py.expr, int, bool]] = None
    # `connected(...)` in lowered mode (expr_connected.Flood): a quantifier over it
    # runs its body inside the search instead of over the list made first.
    flood: Optional["Flood"] = None
    # A local whose name is also declared in the YAML: what it hides ("direction 's'"),
    # so that a type error caused by the slip says so.
    hides: Optional[str] = None
    # `count(ray(X, D, COND))` in lowered mode: how to write it again when it is
    # compared with a constant (expr_sites.RayCount: the loop stops at the bound),
    # or a sum of such counts and constants (CountSum).
    ray_count: Any = None

    @property
    def is_const(self) -> bool:
        return self.const is not NOCONST

    def piece_code(self) -> py.expr:
        return self.piece if self.piece is not None else pyast.sub(pyast.name("b"), self.code)


def describe(c: Code) -> str:
    word = c.type.words
    if c.is_const and c.type in (Type.INT, Type.STR):
        return f"{word} ({c.const!r})"
    if c.hides is not None:
        return f"{word}: a local name here, which hides the {c.hides} (give the local another name)"
    return word


def is_cheap(code: py.expr) -> bool:
    """Whether evaluating `code` twice costs next to nothing (a name, a number, an
    index of one by names and numbers, `1 - p`)."""
    if isinstance(code, py.BinOp):
        return (isinstance(code.op, py.Sub) and isinstance(code.left, py.Constant) and code.left.value == 1
                and type(code.left.value) is int and pyast.is_name(code.right, "p"))
    while isinstance(code, py.Subscript):
        if not _is_atom(code.slice, negative=False):
            return False
        code = code.value
    return _is_atom(code, negative=True)


def stands_alone(c: Code, src: Source) -> bool:
    """Whether `c` is a constant that reads nothing, neither the position nor a
    name (a number, a direction, a kind, a player, a constant table: a track, a
    region): one place may use the Code of another as it is."""
    if c.deps or c.fresh or c.per_player is not None or c.type is Type.PER_PLAYER:
        return False
    code = c.code
    if isinstance(code, py.UnaryOp) and isinstance(code.op, py.USub):
        code = code.operand
    if isinstance(code, py.Constant):
        return type(code.value) in (int, bool, float, str, type(None))
    return isinstance(code, py.Name) and src.is_const_name(code.id)



def standing_local(c: Code) -> Local:
    """The local a parameter given the constant `c` (see `stands_alone`) is: each
    use compiles as `c` written there."""
    return Local(c.code, c.type, occupied=c.occupied, real=c.real, region=c.static_sites, stands=c)

def _is_atom(code: py.expr, negative: bool) -> bool:
    if negative and isinstance(code, py.UnaryOp) and isinstance(code.op, py.USub):
        code = code.operand
    return isinstance(code, py.Name) or isinstance(code, py.Constant) and type(code.value) in (int, bool, type(None))


# The sites of every piece, as a list (a value that may be kept); a loop of a
# condition goes over them without making it (runtime: helpers.NAMESPACE).
def all_pieces() -> py.expr:
    return pyast.helper("h_all_pieces", pyast.name("o"))


def iterated(sites: py.expr) -> py.expr:
    """The code to loop over `sites` in a condition: what a condition loops over
    is not changed while it loops (or the loop stops, Condition.holds), so every
    piece's sites need no list of their own."""
    return pyast.helper("h_each_piece", pyast.name("o")) if pyast.same(sites, all_pieces()) else sites


def when(lines: Stmts, cond: Code, body: Stmts) -> Stmts:
    """Statements that run `lines`, then `body` when `cond` holds. An `and` whose
    right side needed statements becomes two nested tests, without its result
    variable: in a loop, most elements fail the left side and cost one test."""
    guarded = cond.guarded
    if guarded is not None:
        written, left, right_lines, right = guarded
        tail = lines[len(lines) - len(written):]
        if len(lines) >= len(written) and all(a is b for a, b in zip(tail, written)):
            return lines[:len(lines) - len(written)] + [pyast.if_(left, when(right_lines, right, body))]
    return lines + [pyast.if_(cond.code, body)]


# ---------------------------------------------------------------- the rules' syntax
def conjuncts(e: ast.Expr) -> list[ast.Expr]:
    """The parts of `a and b and c`, so that each can be checked where it belongs."""
    if isinstance(e, ast.And):
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def disjuncts(e: ast.Expr) -> list[ast.Expr]:
    """The parts of `a or b or c`."""
    if isinstance(e, ast.Or):
        return disjuncts(e.left) + disjuncts(e.right)
    return [e]


def either(parts: list[ast.Expr]) -> ast.Expr:
    """`parts[0] or parts[1] or ...` again."""
    joined = parts[0]
    for part in parts[1:]:
        joined = ast.Or(joined.pos, joined, part)
    return joined


def both(parts: list[ast.Expr]) -> ast.Expr:
    """`parts[0] and parts[1] and ...` again, joined from the left as the parser joins them."""
    joined = parts[0]
    for part in parts[1:]:
        joined = ast.And(joined.pos, joined, part)
    return joined


def is_name(e: ast.Expr, name: str) -> bool:
    return isinstance(e, ast.Name) and e.id == name


def is_call(e: ast.Expr, fn: str, arity: int) -> bool:
    return isinstance(e, ast.Call) and e.fn == fn and len(e.args) == arity


def name_of(e: ast.Expr) -> str:
    return e.id if isinstance(e, ast.Name) else "this"


def always_a_player(code: py.expr, scope: Scope) -> bool:
    """Whether `code` always holds a player (not none): `player`, `opponent`, and
    an element of `players`."""
    player = scope.register("player").site
    if pyast.same(code, pyast.name(player)) or pyast.same(code, pyast.binop(pyast.num(1), "-", pyast.name(player))):
        return True
    return any(local.always and pyast.same(local.code, code) for local in scope.locals.values())


# ---------------------------------------------------------------- what families ask
Handler = Callable[[Any, Scope], Code]


class SiteMaskWriter(Protocol):
    """Counts and lines as bitmasks (site_masks.SiteMasks): each method gives the
    mask expression, or None where what it is given is no such mask."""

    kinds: bool  # whether an exists/all may read a kind's mask
    ways: set[str]  # the constant tables of the sites a move passes, by two sites (expr_sites._cut_ray)
    way_masks: set[str]  # the tables of masks made of them (which a drawn candidate does not read)

    def quantified(self, quantifier: str, coll: Code, cond: py.expr, var: str) -> Optional[py.expr]: ...
    def sum_of_counts(self, left: py.expr, right: py.expr) -> Optional[py.expr]: ...
    def full_line(self, coll: Code, cond: py.expr, var: str) -> Optional[py.expr]: ...
    def condition(self, cond: py.expr, var: str) -> Optional[py.expr]: ...
    def failing(self, cond: py.expr, var: str, kinds: bool = False) -> Optional[py.expr]: ...
    def bits(self) -> py.expr: ...


class Compiling(Protocol):
    """The expression compiler as its families (expr_*.py) see it: compiling
    sub-expressions, constants, and the statements of lowered mode."""

    model: GameModel
    src: Source
    defines: dict[str, ast.Define]
    n_sites: int
    n_players: int
    empty: py.Name  # the constant E, the empty piece

    @property
    def site_masks(self) -> SiteMaskWriter: ...  # counts and lines as bitmasks

    def compile(self, e: ast.Expr, scope: Scope) -> Code: ...
    def boolean(self, e: ast.Expr, scope: Scope) -> Code: ...
    def expect(self, c: Code, types: tuple[Type, ...], e: ast.Expr, what: str) -> Code: ...

    def shadowed_option(self, e: ast.Expr, c: Code) -> Optional[str]: ...
    def const(self, value: Any, type_: Type, size: int = 1) -> Code: ...
    def literal(self, value: Any) -> py.expr: ...
    def static_sites(self, sites: Iterable[int]) -> Code: ...
    def as_sites(self, c: Code) -> Code: ...
    def share(self, c: Code, scope: Scope) -> tuple[py.expr, py.expr]: ...
    def nested(self, scope: Scope, compile_it: Callable[[Scope], Code]) -> tuple[Stmts, Code]: ...
    def within_define(self, e: ast.Name, compile_body: Callable[[], Code]) -> Code: ...


def site_table(x: Compiling, code: py.expr) -> Optional[tuple[tuple[int, ...], ...]]:
    """For `T[i]`, T a constant table of sets of sites (tuples of site numbers):
    T; None for anything else."""
    if not (isinstance(code, py.Subscript) and isinstance(code.value, py.Name)):
        return None
    table = x.src.namespace.get(code.value.id)
    if not (isinstance(table, tuple) and all(isinstance(row, tuple) for row in table)
            and all(type(site) is int for row in table for site in row)):
        return None
    return table
