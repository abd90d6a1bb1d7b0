"""Expressions of the rules language → Python expressions (syntax trees).

Every name is resolved here, once: a variable becomes an index into `v` (the
state's variables), an attribute a position in the piece tuple, a region a
membership mask, an option a constant. Constant sub-expressions are folded, so
`capture == "top"` costs nothing at run time. Types are checked as we go; a
mistake raises `RuleError` at the offending node. The result is a `Code`
(code.py).

`ExpressionCompiler` dispatches each kind of node and each function of the
language to the family that compiles it:

    expr_logic.py    literals, numbers and arithmetic, comparisons, and/or/not, if-else
    expr_names.py    names: context names, variables, options, regions, defines; X[player]
    expr_pieces.py   what stands on a site: attributes, owners, `is`
    expr_sets.py     sets and quantifiers: `in`, `pieces ...`, count/exists/all, sums
    expr_sites.py    sites and rays: neighbour(s), ray, beyond, group, lists of sites
    expr_tracks.py   tracks: ahead, along, steps_on

and keeps what they share: constants, and *lowered mode*. In lowered mode
(`lowered`), constructs that loop — quantifiers, rays with a condition, `pieces ...
where` — are written as loops into a list of statements (the scope's sink) that
run before the expression, which then only reads their result. Loops with early
exits cost far less than Python's generator expressions, and the conditions of
`and`, `or` and `if ... else` keep their short circuits: statements needed only by
a right-hand side run only when it is evaluated.
"""
from __future__ import annotations

import ast as py
from typing import Any, Callable, Iterable, Optional

from ..parsing import ast
from . import pyast
from .code import NOCONST, Code, Handler, Stmts, describe, disjuncts, is_cheap, standing_local
from .counted_reach import CountedReach
from .errors import RuleError, TooDeep, unknown
from .expr_connected import ConnectedFamily
from .expr_logic import LogicFamily
from .expr_names import MAX_DEFINE_DEPTH, NameFamily
from .expr_pieces import PieceFamily
from .expr_sets import SetFamily
from .expr_sites import SiteFamily
from .expr_tracks import TrackFamily, TrackValue
from .model import GameModel, Track
from .names import CONTEXT_NAMES
from .per_listing import ListingCache
from .prefilters import OwnerMasks
from .scope import Scope, copied
from .site_masks import SiteMasks
from .source import MAX_LITERAL, Origin, Source
from .types import NUMBERS, Type

# The functions of the rules language: (the numbers of arguments each takes, how to call it).
FUNCTIONS: dict[str, tuple[tuple[int, ...], str]] = {
    "count": ((1, 2), "count(SET) or count(SET, CONDITION) — how many elements (for which the condition holds, `it` being each)"),  # noqa: E501
    "exists": ((1, 2), "exists(SET) or exists(SET, CONDITION) — whether some element (meets the condition)"),
    "all": ((2,), "all(SET, CONDITION) — whether every element meets the condition (`it` being each)"),
    "sum": ((2,), "sum(SET, ATTRIBUTE) — total of an attribute over the pieces on the sites; sum(NAME in SET, EXPR) — total of a number over the elements"),  # noqa: E501
    "max": ((2,), "max(SET, ATTRIBUTE) or max(A, B)"),
    "min": ((2,), "min(SET, ATTRIBUTE) or min(A, B)"),
    "unique_max": ((2,), "unique_max(SET, ATTRIBUTE) — the one site whose piece has the strictly highest value, else none"),  # noqa: E501
    "abs": ((1,), "abs(N)"),
    "player_after": ((2, 3), "player_after(PLAYER, N) — the player N places after PLAYER in turn order among the players in play (before it when N is negative), or none when PLAYER is none; player_after(PLAYER, N, COND) — the first player from there on, round the order once, for which COND holds (it: each player), or none"),  # noqa: E501
    "same_team": ((2,), "same_team(P, Q) — P and Q are the same player or partners in one of the game's `teams:` (2.2); false when either is none"),  # noqa: E501
    "first": ((1,), "first(SET) — the site of the set that comes first in board order, or none when it is empty"),
    "last": ((1,), "last(SET) — the site of the set that comes last in board order, or none when it is empty"),
    "nth": ((2,), "nth(SET, N) — the N-th site of the set in board order (1 the first), or none when it has fewer"),
    "neighbour": ((2,), "neighbour(SITE, DIRECTION) — the adjacent site in that direction, or none; "
                        "neighbour(SITE, (DX, DY)) — the site DX files east and DY ranks north, or none"),
    "neighbours": ((1,), "neighbours(SITE) — the sites one edge away"),
    "ray": ((2, 3), "ray(SITE, DIRECTION) or ray(SITE, DIRECTION, CONDITION) — the sites from SITE (not included) towards the edge, nearest first; with a condition (`it` being each) only as long as it holds"),  # noqa: E501
    "beyond": ((3,), "beyond(SITE, DIRECTION, CONDITION) — the first site along the ray for which the condition (`it` being the site) fails, or none at the edge"),  # noqa: E501
    "opposite": ((1,), "opposite(DIRECTION) — the direction pointing the other way (grid only)"),
    "file": ((1,), "file(SITE) — the number of the site's file, 1 for file a (grid only; 0 for none)"),
    "rank": ((1,), "rank(SITE) — the number of the site's rank, 1 for the bottom rank (grid only; 0 for none)"),
    "connected": ((2, 3), "connected(X, CONDITION) or connected(X, DIRECTIONS, CONDITION) — the sites reached from the site or sites X going from neighbour to neighbour (or neighbour in those directions) through sites where the condition holds (`it` being each), X's own included when they meet it; a last argument 'each step A to B where CONDITION' asks it of each step"),  # noqa: E501
    "group": ((1, 2), "group(SITE) or group(SITE, DIRECTIONS) — the sites joined to SITE by neighbours (or neighbours in those directions) holding pieces of the same owner (SITE included; empty when SITE is)"),  # noqa: E501
    "on_full_line": ((1,), "on_full_line(SITE) — whether a declared line through SITE is filled by pieces of one owner"),  # noqa: E501
    "ahead": ((3,), "ahead(TRACK, SITE, N) — the site N steps after SITE along the track, or none (beyond the end of a track that does not loop, or SITE not on it)"),  # noqa: E501
    "behind": ((3,), "behind(TRACK, SITE, N) — the site N steps before SITE along the track, or none (before the start of a track that does not loop, or SITE not on it)"),  # noqa: E501
    "along": ((3,), "along(TRACK, SITE, N) — the N sites after SITE along the track, in order (round and round a looping track)"),  # noqa: E501
    "steps_on": ((2,), "steps_on(TRACK, SITE) — how many steps SITE is from the track's first site, or -1 when it is not on it"),  # noqa: E501
}


# The directions of a set an `exists` over it is asked apart for, at most (disjuncts_of).
MAX_DIRECTIONS_APART = 8


class ExpressionCompiler:
    """Compiles expressions (see the module docstring); `Compiling` (code.py) is
    what its families may ask of it."""

    def __init__(self, model: GameModel, defines: dict[str, ast.Define], src: Source):
        self.model = model
        self.src = src
        self.defines = defines
        self.n_sites = model.board.size
        self.n_players = model.player_count
        attrs = model.attributes_in_order()
        # The empty piece: owner and kind none, no stones, attributes "missing".
        empty_piece = (-1, -1, ()) + tuple(0 if a.type == "int" else False for a in attrs)
        with src.origin(Origin("the empty piece (no owner, no kind), read where a site may be empty")):
            self.empty = src.const(empty_piece)
        self.logic = LogicFamily(self)
        self.pieces = PieceFamily(self)
        self.sites = SiteFamily(self)
        self.tracks = TrackFamily(self)
        self.owner_masks = OwnerMasks(src, self.n_sites, self.empty, self.pieces.enemy_table, self.n_players)
        self.site_masks = SiteMasks(src, self.n_sites, self.owner_masks)
        self.per_listing = ListingCache(src)  # (what scope.per_listing names in a lister's `where`)
        self.sets = SetFamily(self, self.sites, self.pieces, self.owner_masks)
        self.names = NameFamily(self, defines, self.tracks)
        self.connected = ConnectedFamily(self, self.sites.adjacency_table)
        self.connected.mask_names = self.owner_masks.names
        self.sets.counted_flood = self.connected.count_without
        self.sets.counted_reach = CountedReach(self, self.site_masks, self.sites.adjacency_table,
                                               self.names.bound_arguments)
        self.logic.kind_test = self.pieces.kind_test
        self.logic.bounded = self.sites.compared_ray_count
        self._nodes: dict[type, Handler] = {ast.Call: self.call}
        self._functions: dict[str, Handler] = {}
        for family in (self.logic, self.names, self.pieces, self.sets, self.sites, self.tracks, self.connected):
            self._nodes.update(family.nodes())
            self._functions.update(family.functions())

    def within_define(self, e: ast.Name, compile_body: Callable[[], Code]) -> Code:
        """What the define `e` names compiled by `compile_body`, as a use of it."""
        return self.names.within_define(e, compile_body)

    # ------------------------------------------------------------ what the rest of the compiler reads
    @property
    def uses_repetitions(self) -> bool:
        """Whether the rules read `repetitions` (positions are then kept)."""
        return self.names.uses_repetitions

    @property
    def uses_board_repetitions(self) -> bool:
        """Whether the rules read `board repetitions` (boards are then kept)."""
        return self.names.uses_board_repetitions

    @property
    def procedures(self) -> set[str]:
        """The names of procedures (statements, not values: named in messages)."""
        return self.names.procedures

    @procedures.setter
    def procedures(self, names: set[str]) -> None:
        self.names.procedures = names

    def adjacency_table(self) -> py.Name:
        return self.sites.adjacency_table()

    def track_values(self, track: Track) -> list[TrackValue]:
        return self.tracks.track_values(track)

    # ------------------------------------------------------------ constants
    def const(self, value: Any, type_: Type, size: int = 1) -> Code:
        return Code(self.literal(value), type_, const=value, size=size)

    def literal(self, value: Any) -> py.expr:
        """True, False, None and whole numbers as they are; any other value (and a
        number beyond what the code writes, which folding constants can make) as a
        generated constant name."""
        if value is None or value is True or value is False or type(value) is int and abs(value) <= MAX_LITERAL:
            return pyast.literal(value)
        return self.src.const(value)

    def static_sites(self, sites: Iterable[int]) -> Code:
        ordered = tuple(sorted(set(sites)))
        mask = [False] * (self.n_sites + 1)
        for s in ordered:
            mask[s] = True
        return Code(self.src.const(ordered), Type.SITES, const=ordered, static_sites=ordered,
                    mask=self.src.const(tuple(mask)), size=len(ordered))

    # ------------------------------------------------------------ lowered mode
    def lowered(self, e: ast.Expr, scope: Scope, condition: bool = False) -> tuple[Stmts, Code]:
        """(statements to run first, the expression after them) for `e`."""
        return self.nested(scope, lambda inner: self.boolean(e, inner) if condition else self.compile(e, inner))

    def disjuncts_of(self, e: ast.Expr, scope: Scope) -> Optional[tuple[bool, list[tuple[ast.Expr, Scope]]]]:
        """(negated, the disjuncts and the scope to compile each in) of a condition
        that is, through `not`s and defines, an `or` of parts: the defines' arguments
        compiled into `scope`'s sink as a call compiles them; an `exists` over a
        constant set of directions is the `or` of its directions (`exists(d in
        diagonal, C)`: C with d each direction in turn, in the set's order). None
        where it is not. (The condition compiles as a whole already: its defines
        form no circle, its names are fine.)"""
        negated = False
        for _ in range(MAX_DEFINE_DEPTH):
            if isinstance(e, ast.Not):
                negated, e = not negated, e.operand
            elif isinstance(e, ast.Name) and e.id in self.defines and e.id not in scope.locals \
                    and e.id not in CONTEXT_NAMES and not self.defines[e.id].params:
                e = self.defines[e.id].expr
            elif isinstance(e, ast.Call) and e.fn in self.defines:
                bound = self.names.bound_arguments(e, scope)
                if bound is None:
                    return None
                e, scope = bound
            elif isinstance(e, ast.Or):
                return negated, [one for part in disjuncts(e) for one in self._directions_apart(part, scope)]
            else:
                return None
        return None

    def _directions_apart(self, e: ast.Expr, scope: Scope) -> list[tuple[ast.Expr, Scope]]:
        """`exists(d in DIRS, C)` over a constant set of directions as C for each
        direction (d standing for it, as a define's parameter given it does); any
        other condition as it is."""
        if not (isinstance(e, ast.Call) and e.fn == "exists" and e.fn not in self.defines and len(e.args) == 2
                and isinstance(e.args[0], ast.In) and isinstance(e.args[0].item, ast.Name) and not e.args[0].negated):
            return [(e, scope)]
        lines, directions = self.nested(scope, lambda inner: self.compile(e.args[0].collection, inner))  # type: ignore[attr-defined]
        if lines or not directions.is_const or directions.type is not Type.DIRS \
                or not 1 < len(directions.const) <= MAX_DIRECTIONS_APART:
            return [(e, scope)]
        apart: list[tuple[ast.Expr, Scope]] = []
        for direction in directions.const:
            inner = scope.child()
            inner.locals[e.args[0].item.id] = standing_local(self.const(direction, Type.DIR))
            apart.append((e.args[1], inner))
        # (only where a direction's test has a loop of its own, a walk: asking one apart
        # from the others saves more than what keeping its answer costs)
        first, scope_of_first = apart[0]
        lines, _ = self.nested(scope_of_first, lambda inner: self.boolean(first, inner))
        if not any(isinstance(node, (py.For, py.While)) for node in pyast.walk_all(lines)):
            return [(e, scope)]
        return apart

    def nested(self, scope: Scope, compile_it: Callable[[Scope], Code]) -> tuple[Stmts, Code]:
        """Compile with a sink of its own: (its statements, the result)."""
        sink: Stmts = []
        c = compile_it(scope.child(sink=sink))
        return sink, c

    def share(self, c: Code, scope: Scope) -> tuple[py.expr, py.expr]:
        """(first, again): code to evaluate `c` once and refer to its value again.
        Uses `:=` where Python allows it, else evaluates twice (expressions are pure)."""
        if is_cheap(c.code):
            return c.code, c.code
        if scope.sink is not None:
            name = self.src.fresh("t")
            scope.sink.append(pyast.assign(pyast.name(name), c.code))
            return pyast.name(name), pyast.name(name)
        if not scope.walrus:
            return c.code, c.code
        name = self.src.fresh("t")
        return pyast.walrus(name, c.code), pyast.name(name)

    # ------------------------------------------------------------ entry points
    def compile(self, e: ast.Expr, scope: Scope) -> Code:
        handler = self._nodes.get(type(e))
        if handler is None:
            raise AssertionError(f"no compiler for {type(e).__name__}")
        try:
            if scope.per_listing is not None and scope.sink is not None:
                # (what it writes is kept once per listing when it reads the position alone)
                lines: Stmts = []
                c = handler(e, copied(scope, sink=lines))
                return scope.per_listing.kept(lines, c, scope.sink, self.owner_masks.names.values())  # type: ignore[no-any-return]
            return handler(e, scope)
        except RecursionError:
            raise TooDeep(e.pos, "this expression is nested too deeply to compile",
                            "split it into smaller defines") from None

    def boolean(self, e: ast.Expr, scope: Scope) -> Code:
        """Compile as a condition: sites and players count as true when present."""
        return self.as_bool(self.compile(e, scope), e)

    def as_bool(self, c: Code, e: ast.Expr) -> Code:
        if c.type is Type.BOOL:
            return c
        if c.type in (Type.SITE, Type.PLAYER):
            if c.is_const:
                return self.const(c.const != -1, Type.BOOL)
            return Code(pyast.compare(c.code, "!=", pyast.num(-1)), Type.BOOL, c.deps, cost=c.cost)
        if c.type in NUMBERS:
            if c.is_const:
                return self.const(bool(c.const), Type.BOOL)
            return Code(pyast.compare(c.code, "!=", pyast.num(0)), Type.BOOL, c.deps, cost=c.cost)
        if c.type is Type.NONE:
            return self.const(False, Type.BOOL)
        raise RuleError(e.pos, f"expected a condition, found {describe(c)}")

    def expect(self, c: Code, types: tuple[Type, ...], e: ast.Expr, what: str) -> Code:
        if c.type not in types:
            whole_number(c, e, what)
            words = " or ".join(t.words for t in types if t is not Type.DECIMAL)
            raise RuleError(e.pos, f"{what} must be {words}, found {describe(c)}", self.shadowed_option(e, c))
        return c

    def shadowed_option(self, e: ast.Expr, c: Code) -> Optional[str]:
        """The hint for a built-in name that is also an option's (a built-in name comes
        first: an option `players` is not read in the rules); None for any other."""
        if not (isinstance(e, ast.Name) and e.id in self.model.options):
            return None
        return (f"in the rules '{e.id}' is built in ({describe(c)}), not the option '{e.id}'"
                + (": count(players) is how many play" if e.id == "players" else "")
                + "; give the option another name to read it")

    def as_sites(self, c: Code) -> Code:
        """A track where a set of sites is wanted: its sites, in order."""
        if c.type is not Type.TRACK:
            return c
        return Code(pyast.sub(c.code, 0), Type.SITES, c.deps, cost=c.cost, size=c.size)

    def call(self, e: ast.Call, scope: Scope) -> Code:
        """A function of the language, or a define with arguments."""
        stepping = [a for a in e.args if isinstance(a, ast.StepRule)]
        if stepping and (e.fn != "connected" or e.fn in self.names.defines):
            raise RuleError(stepping[0].pos, "'each step A to B where CONDITION' goes only at the end of a 'walk N "
                                             "steps' pattern or as the last argument of 'connected'")
        if e.fn in self.names.defines:
            return self.names.define_call(e, scope)
        handler = self._functions.get(e.fn)
        if handler is None:
            taking = [name for name, define in self.names.defines.items() if define.params]
            listed = f"the functions: {', '.join(FUNCTIONS)} (format.md 3.12.2)" + (
                f"; the defines with parameters: {', '.join(taking)}" if taking else "")
            raise unknown(e.pos, "function", e.fn, list(FUNCTIONS) + list(self.names.defines), listed)
        arity = FUNCTIONS[e.fn][0]
        if len(e.args) - len(stepping[-1:]) not in arity:
            expected = " or ".join(str(a) for a in arity)
            found = len(e.args) - len(stepping[-1:])
            raise RuleError(e.pos, f"'{e.fn}' takes {expected} argument(s), found {found}: {FUNCTIONS[e.fn][1]}")
        return handler(e, scope)


def whole_number(c: Code, e: ast.Expr, what: str) -> None:
    """Refuse a decimal number where a whole one is needed (a distance, a count, a
    stored value), even when its value happens to be whole."""
    if c.type is Type.DECIMAL:
        raise RuleError(e.pos, f"a whole number is needed here ({what}); this is a decimal number")


__all__ = ["ExpressionCompiler", "FUNCTIONS", "NOCONST", "whole_number"]
