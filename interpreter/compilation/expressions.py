"""Expressions of the rules language → Python expressions (source text).

Every name is resolved here, once: a variable becomes an index into `v` (the
state's variables), an attribute a position in the piece tuple, a region a
membership mask, an option a constant. Constant sub-expressions are folded, so
`capture == "top"` costs nothing at run time. Types are checked as we go; a
mistake raises `RuleError` at the offending node.

The result of compiling an expression is a `Code`: Python source over the
registers of the scope (see scope.py) and generated constants (see
compilation/source.py), its type, what it depends on, its constant value when it
has one, and an estimate of its cost (steps per evaluation) that bounds the work
a definition can make one position cost.

Pieces are tuples `(owner, kind, stones, attributes...)` or None. Reading a piece
that may be None goes through `(P or E)`: `E` is a constant empty piece (owner
none, kind none, no stones, every attribute at its "missing" value), so that one
evaluation of P answers owner, kind and attribute reads alike.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

from .errors import FollowOnError, RuleError, name_pos, unknown
from .model import GameModel
from .prefilters import OwnerMasks
from .source import Source, int_literal
from .types import ELEMENT, Dep, Type, comparable
from ..parsing import ast
from ..runtime import helpers
from ..spelling import did_you_mean
from .names import ALWAYS, BUILTIN_PROPERTIES, CONTEXT_NAMES, PIECE_RELATIONS, reserved_word
from .scope import Local, Register, Scope

NOCONST = object()

# How deep a define may use defines that use defines ...: each is compiled where it
# is used.
MAX_DEFINE_DEPTH = 50
# Numbers a definition writes or stores are within this bound (see docs/format.md §5).
NUMBER_LIMIT = 10**15


_CHEAP = re.compile(r"\(?-?\w+\)?(\[\w+\])*|\(1 - p\)")


@dataclass
class Code:
    code: str  # a Python expression
    type: Type
    deps: frozenset = frozenset()
    const: Any = NOCONST
    # For SITE values: the code of the piece on that site (None: `b[site]`).
    piece: Optional[str] = None
    # For static SITES values: the sites, and the name of their membership mask.
    static_sites: Optional[tuple] = None
    mask: Optional[str] = None
    # For an unindexed per-player thing: ("var" | "pool" | "region", model object).
    per_player: Optional[tuple] = None
    # For a region indexed by a player: (masks-by-player constant, player code).
    region_by_player: Optional[tuple] = None
    # For `X is KIND` alternatives: (piece code, kinds), so that `or` fuses them.
    kind_test: Optional[tuple] = None
    # For an attribute of the acting piece (`piece.ATTR`): its index in the tuple.
    piece_attr: Optional[int] = None
    # Estimated steps per evaluation (quantifiers multiply by their set's size).
    cost: int = 1
    # Estimated number of elements (collections).
    size: int = 1
    # A number read from where only checked numbers are kept (a variable, a chance
    # outcome): storing it needs no check against the limit.
    stored: bool = False
    # An `and` whose right side needed lines (lowered mode): (the lines it wrote
    # last, left code, the right side's lines, right Code), so that a loop testing
    # it can nest its body in the two tests instead (see ExpressionCompiler.when).
    guarded: Optional[tuple] = None
    # A collection made anew by each evaluation (nothing else holds it): a loop over
    # it needs no copy.
    fresh: bool = False
    # An `exists` in lowered mode: the lines it wrote last (`t = False`, then the loop
    # that sets `t = True` and breaks), so that what runs when it holds can run in
    # the loop instead (see conditions.Condition.holds).
    found_loop: Optional[tuple] = None
    # `pieces ... where COND`: (the lines it wrote last, the sites looped over, the
    # loop variable, COND's lines, COND's code) in lowered mode, (None, sites,
    # variable, (), COND) otherwise; a loop over it can test COND itself rather
    # than build the list first.
    filtered: Optional[tuple] = None
    # SITE: the site holds a piece here (its piece needs no empty fallback);
    # SITES: sites that hold pieces (`pieces ...`).
    occupied: bool = False
    # SITE: never none (an element of a set of sites), so never beyond the edge.
    real: bool = False
    # TRACK: (the code of its table of the sites after each site, how many of them
    # each row holds at least: see following_sites), or None.
    following: Optional[tuple[str, int]] = None
    # A local whose name is also declared in the YAML: what it hides ("direction 's'"),
    # so that a type error caused by the slip says so.
    hides: Optional[str] = None

    @property
    def is_const(self) -> bool:
        return self.const is not NOCONST

    def piece_code(self) -> str:
        return self.piece if self.piece is not None else f"b[{self.code}]"


def describe(c: Code) -> str:
    word = c.type.words
    if c.is_const and c.type in (Type.INT, Type.STR):
        return f"{word} ({c.const!r})"
    if c.hides is not None:
        return f"{word}: a local name here, which hides the {c.hides} (give the local another name)"
    return word


# The sites of every piece, as a list (a value that may be kept); a loop of a
# condition goes over them without making it (runtime: helpers.NAMESPACE).
ALL_PIECES = "h_all_pieces(o)"


def _iterated(sites: str) -> str:
    """The code to loop over `sites` in a condition: what a condition loops over
    is not changed while it loops (or the loop stops, Condition.holds), so every
    piece's sites need no list of their own."""
    return "h_each_piece(o)" if sites == ALL_PIECES else sites


# How far following_sites reaches: this many times round a track (or to its end).
FOLLOWING_LAPS = 2
# Tables of following sites are made up to this many entries a game (beyond, the
# tracks' `ahead` and `along` call their helpers).
MAX_FOLLOWING_ENTRIES = 200_000


def following_sites(sites: list, loop: bool, n_sites: int) -> tuple:
    """table[site]: the sites after `site` along the track, in order, as `along`
    gives them, FOLLOWING_LAPS times round a looping track or to the end of one that
    does not loop (() for a site not on it and for "no site", the last entry).
    `ahead` and `along` read it instead of calling their helpers where n is within
    its reach."""
    size = len(sites)
    table: list = [()] * (n_sites + 1)
    for i, site in enumerate(sites):
        if loop:
            table[site] = tuple(sites[(i + k) % size] for k in range(1, FOLLOWING_LAPS * size + 1))
        else:
            table[site] = tuple(sites[i + 1:])
    return tuple(table)


def following_reach(sites: list, loop: bool) -> int:
    """Up to which n every row of following_sites gives `along`'s answer: round a
    looping track FOLLOWING_LAPS times; to the end of one that does not loop, where
    `along` stops too (for any n the runtime accepts)."""
    return FOLLOWING_LAPS * len(sites) if loop else helpers.MAX_ALONG


def is_cheap(code: str) -> bool:
    """Whether evaluating `code` twice costs next to nothing (a name, a number, an
    index into a name)."""
    return _CHEAP.fullmatch(code) is not None


class ExpressionCompiler:
    def __init__(self, model: GameModel, defines: dict[str, ast.Define], src: Source):
        self.model = model
        self.defines = defines
        self.src = src
        self._define_stack: list[str] = []
        self.used_names: set[str] = set()
        self.procedures: set[str] = set()  # names of procedures (statements, not values)
        self.uses_repetitions = False  # whether the rules read `repetitions` (positions are then kept)
        self.sink: Optional[list] = None  # lines to run before the expression being compiled (see `lowered`)
        n = model.board.size
        self.n_sites = n
        self.n_players = model.player_count
        self.all_sites = tuple(range(n))
        kinds = sorted(model.kinds.values(), key=lambda k: k.index)
        self.kind_values = [k.value for k in kinds] + [0]
        attrs = model.attributes_in_order()
        # The empty piece: owner and kind none, no stones, attributes "missing".
        self.empty_piece = (-1, -1, ()) + tuple(0 if a.type == "int" else False for a in attrs)
        self.E = src.const(self.empty_piece)
        self.max_degree = max((len(a) for a in model.board.adjacent), default=0)
        self.max_ray = max(model.board.files, model.board.ranks)
        # True while compiling what a lister asks (nothing changes the position
        # while a lister runs: see prefilters.py)
        self.listing = False
        self.owner_masks = OwnerMasks(src, n, self.E, self._enemy_table)
        # the tables of the sites after each site of the tracks (_following_tables)
        self._following_made: dict[str, Optional[tuple]] = {}
        self._following_entries = 0
        # Constant tables from a site to a site (-1: none; the last entry, for site
        # -1, is -1): lookups in them compose into one table (_site_lookup).
        self._site_tables: set[str] = set()

    # ------------------------------------------------------------ constants
    def const(self, value: Any, type_: Type, **kw) -> Code:
        return Code(self.literal(value), type_, const=value, **kw)

    def literal(self, value: Any) -> str:
        if value is True:
            return "True"
        if value is False:
            return "False"
        if value is None:
            return "None"
        if type(value) is int:
            return int_literal(value)
        return self.src.const(value)

    def static_sites(self, sites) -> Code:
        sites = tuple(sorted(set(sites)))
        mask = [False] * (self.n_sites + 1)
        for s in sites:
            mask[s] = True
        return Code(
            self.src.const(sites), Type.SITES, const=sites, static_sites=sites,
            mask=self.src.const(tuple(mask)), size=len(sites),
        )

    # ------------------------------------------------------------ statements first
    # In "lowered" mode (`lowered`), constructs that loop — quantifiers, rays with a
    # condition, `pieces ... where` — are written as loops into a list of lines (the
    # sink) that run before the expression, which then only reads their result.
    # Loops with early exits cost far less than Python's generator expressions, and
    # the conditions of `and`, `or` and `if ... else` keep their short circuits:
    # lines needed only by a right-hand side run only when it is evaluated.

    def lowered(self, e: ast.Expr, scope: Scope, condition: bool = False) -> tuple[list, Code]:
        """(lines to run first, the expression after them) for `e`."""
        saved = self.sink
        self.sink = []
        try:
            c = self.boolean(e, scope) if condition else self.compile(e, scope)
            return self.sink, c
        finally:
            self.sink = saved

    def _nested(self, compile_it) -> tuple[list, Code]:
        """Compile with a sink of its own: (its lines, the result)."""
        saved = self.sink
        self.sink = []
        try:
            c = compile_it()
            return self.sink, c
        finally:
            self.sink = saved

    def _emit(self, *lines: str) -> None:
        self.sink.extend(lines)

    def _block(self, head: str, body: list) -> None:
        self.sink.append(head)
        self.sink.extend("    " + line for line in (body or ["pass"]))

    def share(self, c: Code, scope: Scope) -> tuple[str, str]:
        """(first, again): code to evaluate `c` once and refer to its value again.
        Uses `:=` where Python allows it, else evaluates twice (expressions are pure)."""
        if is_cheap(c.code):
            return c.code, c.code
        if self.sink is not None:
            name = self.src.fresh("t")
            self._emit(f"{name} = {c.code}")
            return name, name
        if not scope.walrus:
            return c.code, c.code
        name = self.src.fresh("t")
        return f"({name} := {c.code})", name

    # ------------------------------------------------------------ entry points
    def compile(self, e: ast.Expr, scope: Scope) -> Code:
        method = getattr(self, "_" + type(e).__name__)
        try:
            return method(e, scope)
        except RecursionError:
            raise RuleError(e.pos, "this expression is nested too deeply to compile", "split it into smaller defines") from None

    def boolean(self, e: ast.Expr, scope: Scope) -> Code:
        """Compile as a condition: sites and players count as true when present."""
        return self.as_bool(self.compile(e, scope), e)

    def as_bool(self, c: Code, e: ast.Expr) -> Code:
        if c.type is Type.BOOL:
            return c
        if c.type in (Type.SITE, Type.PLAYER):
            if c.is_const:
                return self.const(c.const != -1, Type.BOOL)
            return Code(f"({c.code} != -1)", Type.BOOL, c.deps, cost=c.cost)
        if c.type is Type.INT:
            if c.is_const:
                return self.const(bool(c.const), Type.BOOL)
            return Code(f"({c.code} != 0)", Type.BOOL, c.deps, cost=c.cost)
        if c.type is Type.NONE:
            return self.const(False, Type.BOOL)
        raise RuleError(e.pos, f"expected a condition, found {describe(c)}")

    def expect(self, c: Code, types: tuple, e: ast.Expr, what: str) -> Code:
        if c.type not in types:
            raise RuleError(e.pos, f"{what} must be {' or '.join(t.words for t in types)}, found {describe(c)}")
        return c

    # ------------------------------------------------------------ literals
    def _Num(self, e: ast.Num, scope):
        if abs(e.value) > NUMBER_LIMIT:
            raise RuleError(e.pos, f"numbers in the rules are at most {NUMBER_LIMIT:.0e} in size")
        return self.const(e.value, Type.INT)

    def _Str(self, e: ast.Str, scope):
        return self.const(e.value, Type.STR)

    def _Bool(self, e: ast.Bool, scope):
        return self.const(e.value, Type.BOOL)

    def _NoneLit(self, e, scope):
        return self.const(-1, Type.NONE)

    def _NoLegalAction(self, e: ast.NoLegalAction, scope):
        if "no legal action" not in scope.available:
            raise RuleError(e.pos, f"'no legal action' has no meaning in {scope.where}: it is asked in 'before each turn'")
        return Code("stuck", Type.BOOL)

    def _ListLit(self, e: ast.ListLit, scope):
        items = [self.compile(x, scope) for x in e.items]
        for x, item in zip(e.items, items):
            self.expect(item, (Type.SITE,), x, "an element of a list")
        if all(i.is_const for i in items):
            return self.static_sites(i.const for i in items if i.const != -1)
        deps = frozenset().union(*(i.deps for i in items))
        by_site = self._sites_by_site(items)
        if by_site is not None:
            return Code(by_site, Type.SITES, deps, cost=1, size=len(items))
        inner = ", ".join(i.code for i in items)
        return Code(f"h_sites(({inner},))", Type.SITES, deps, cost=sum(i.cost for i in items), size=len(items))

    def _sites_by_site(self, items: list) -> Optional[str]:
        """Code of a list of sites whose elements are all lookups of one site in
        site tables (`[neighbour(x, n), neighbour(x, e)]`, say): one table of the
        lists by site, made when the rules are compiled; else None."""
        lookups = [self._site_lookup(i.code) for i in items]
        if any(x is None for x in lookups) or len({index for _, index in lookups}) != 1:  # type: ignore[misc]
            return None
        tables = [self.src.namespace[name] for name, _ in lookups]  # type: ignore[misc]
        rows = tuple(tuple(s for s in (table[site] for table in tables) if s != -1) for site in range(self.n_sites))
        return f"{self.src.const(rows + ((),))}[{lookups[0][1]}]"  # type: ignore[index]

    def _site_lookup(self, code: str) -> Optional[tuple[str, str]]:
        """(table, index code) when `code` reads a site table at one index."""
        found = re.fullmatch(r"(k\d+)\[(.+)\]", code)
        if found is None or found.group(1) not in self._site_tables:
            return None
        depth = 0
        for char in found.group(2):  # (the index is one expression: its brackets balance)
            depth += {"[": 1, "]": -1}.get(char, 0)
            if depth < 0:
                return None
        return (found.group(1), found.group(2)) if depth == 0 else None

    # ------------------------------------------------------------ names
    def _Name(self, e: ast.Name, scope: Scope) -> Code:
        name = e.id
        self.used_names.add(name)
        if name in scope.locals:
            local = scope.locals[name]
            if local.broken:
                raise FollowOnError(e.pos, f"'{name}' is not known: its 'let' is in error")
            return Code(local.code, local.type, frozenset({Dep.LOCALS}), occupied=local.occupied, real=local.real,
                        hides=self._declared_as(name), const=NOCONST if local.fixed is None else local.fixed[0])
        if name in CONTEXT_NAMES:
            return self._context(e, scope)
        if name in self.defines:
            params = self.defines[name].params
            if params:
                raise RuleError(e.pos, f"'{name}' takes {len(params)} argument(s): write {name}({', '.join(p.id for p in params)})")
            return self._define(e, scope)
        m = self.model
        if name in m.variables:
            var = m.variables[name]
            if var.per_player:
                return Code("None", Type.PER_PLAYER, per_player=("var", var))
            return Code(f"v[{var.offset}]", _var_type(var), stored=True)
        if name in m.pools:
            return Code("None", Type.PER_PLAYER, per_player=("pool", m.pools[name]))
        if name in m.options:
            value = m.options[name]
            return self.const(value, Type.INT if isinstance(value, int) else Type.STR)
        if name in m.regions:
            region = m.regions[name]
            if region.per_player:
                return Code("None", Type.PER_PLAYER, per_player=("region", region))
            return self.static_sites(region.sites[0])
        if name in m.tracks:
            track = m.tracks[name]
            if track.per_player:
                return Code("None", Type.PER_PLAYER, per_player=("track", track))
            return Code(self.track_constant(track)[0], Type.TRACK, size=len(track.sites[0]),
                        following=self._following(track, 0))
        if name in m.players:
            return self.const(m.players.index(name), Type.PLAYER)
        if name in m.all_players:
            # A player who is not in play with these options: never matches.
            return self.const(-1, Type.PLAYER)
        if name in m.board.index:
            return self.const(m.board.index[name], Type.SITE)
        if name in m.direction_sets:
            per = m.direction_sets[name]
            if all(d == per[0] for d in per):
                return self.const(per[0], Type.DIRS, size=len(per[0]))
            player = scope.register("player").site
            return Code(f"{self.src.const(tuple(per))}[{player}]", Type.DIRS, size=max(len(d) for d in per))
        if name in self.procedures:
            raise RuleError(
                e.pos, f"'{name}' is a procedure (statements to run), not a value",
                "a named expression is written with 'define NAME = EXPRESSION'",
            )
        raise RuleError(e.pos, f"unknown name '{name}'", self.hint(name, scope))

    def _declared_as(self, name: str) -> Optional[str]:
        """What `name` is declared as in the YAML ("direction 's'"), or None."""
        m = self.model
        for what, names in (("direction", m.direction_sets), ("player", m.all_players), ("region", m.regions),
                            ("site", m.board.index), ("variable", m.variables), ("pool", m.pools),
                            ("option", m.options), ("track", m.tracks)):
            if name in names:
                return f"{what} '{name}'"
        return None

    def known_names(self, scope: Scope) -> list[str]:
        m = self.model
        return (
            list(scope.locals)
            + [n for n in CONTEXT_NAMES if n in scope.available or n in ALWAYS]
            + list(self.defines)
            + list(m.variables)
            + list(m.pools)
            + list(m.options)
            + list(m.regions)
            + list(m.all_players)
            + list(m.direction_sets)
            + list(m.board.index)
        )

    def hint(self, name: str, scope: Scope) -> Optional[str]:
        if name in ("True", "False", "None"):
            return f"did you mean '{name.lower()}'?"
        return did_you_mean(name, self.known_names(scope)) or self._nearest_site(name)

    def _nearest_site(self, name: str) -> Optional[str]:
        """For a grid site off the board (`c0`, `i3`): the nearest one on it."""
        board = self.model.board
        match = re.fullmatch(r"([a-z])(\d{1,3})", name)
        if board.kind != "grid" or match is None:
            return None
        file = min(ord(match.group(1)) - ord("a"), board.files - 1)
        rank = min(max(int(match.group(2)), 1), board.ranks)
        nearest = f"{chr(ord('a') + file)}{rank}"
        return f"did you mean '{nearest}'? ({name} is not on the board)" if nearest in board.index else None

    def _context(self, e: ast.Name, scope: Scope) -> Code:
        name = e.id
        if name not in scope.available and name not in ALWAYS:
            raise RuleError(e.pos, f"'{name}' ({CONTEXT_NAMES[name]}) has no meaning in {scope.where}")
        n = self.n_players
        if name == "player":
            return Code(scope.register("player").site, Type.PLAYER)
        if name == "opponent":
            if n != 2:
                raise RuleError(e.pos, f"'opponent' needs exactly two players; this game has {n} in play")
            return Code(f"(1 - {scope.register('player').site})", Type.PLAYER)
        if name == "players":
            ps = tuple(range(n))
            return self.const(ps, Type.PLAYERS, size=n)
        if name == "sites":
            return self.static_sites(self.all_sites)
        if name == "repetitions":
            self.uses_repetitions = True
            return Code(scope.register(name).site, Type.INT)
        reg: Register = scope.register(name)
        dep = {"piece": Dep.PIECE, "from": Dep.FROM, "to": Dep.TO, "target": Dep.TARGET,
               "jumped": Dep.JUMPED, "site": Dep.SITE, "outcome": Dep.OUTCOME}[name]
        if name == "outcome":
            return Code(reg.site, scope.outcome_type, frozenset({dep}), stored=True)
        return Code(reg.site, Type.SITE, frozenset({dep}), piece=reg.piece)

    def _define_call(self, e: ast.Call, scope: Scope) -> Code:
        """`flanks(s, d)`: the define's expression with its parameters standing for
        the arguments, evaluated where it is used (the arguments first)."""
        define = self.defines[e.fn]
        self.used_names.add(e.fn)
        if len(e.args) != len(define.params):
            wanted = ", ".join(p.id for p in define.params)
            raise RuleError(e.pos, f"'{e.fn}' takes {len(define.params)} argument(s) ({wanted}), found {len(e.args)}")
        inner = scope.child()
        bindings = []
        arg_deps: frozenset = frozenset()
        cost = 0
        for param, arg in zip(define.params, e.args):
            value = self.compile(arg, scope)
            if value.type is Type.PER_PLAYER:
                raise RuleError(arg.pos, f"'{_name_of(arg)}' differs per player: say whose, e.g. {_name_of(arg)}[player]")
            first, again = self.share(value, scope)
            if first != again:
                bindings.append(first)
            fixed = (value.const,) if value.is_const and value.type in (Type.DIR, Type.DIRS) else None
            inner.locals[param.id] = Local(again, value.type, occupied=value.occupied, real=value.real, fixed=fixed)
            arg_deps |= value.deps
            cost += value.cost
        body = self._define(ast.Name(e.pos, e.fn), inner)
        if self.sink is not None:
            bindings = []  # already assigned in the sink, before the body's lines
        code = body.code if not bindings else f"({', '.join(bindings)}, {body.code})[-1]"
        # What the parameters stand for counts as what the define depends on.
        result = Code(code, body.type, body.deps | arg_deps, cost=body.cost + cost, size=body.size)
        if body.type is Type.SITE and not bindings:
            result.piece = body.piece
        if code == body.code:
            result.guarded = body.guarded
        return result

    def _define(self, e: ast.Name, scope: Scope) -> Code:
        if e.id in self._define_stack:
            chain = " -> ".join(self._define_stack + [e.id])
            raise RuleError(e.pos, f"'{e.id}' is defined in terms of itself ({chain})")
        if len(self._define_stack) >= MAX_DEFINE_DEPTH:
            raise RuleError(e.pos, f"defines refer to defines more than {MAX_DEFINE_DEPTH} deep ({self._define_stack[0]} -> ... -> {e.id})")
        self._define_stack.append(e.id)
        try:
            return self.compile(self.defines[e.id].expr, scope)
        except RuleError as err:
            if len(self._define_stack) == 1 and not err.message.startswith(f"'{e.id}' is defined"):
                # The define is fine in one place and wrong in another: say where.
                used = f"'{e.id}' is used at {e.pos.file}:{e.pos.line}:{e.pos.column}"
                err.hint = f"{err.hint}; {used}" if err.hint else used
            raise
        finally:
            self._define_stack.pop()

    # ------------------------------------------------------------ pieces
    def piece_read(self, c: Code, scope: Scope) -> str:
        """Code of the piece on site `c`, or of E when there is none: index it."""
        if c.piece is not None and scope.piece_always and c.piece == scope.register("piece").piece:
            return c.piece
        if c.occupied:
            return c.piece_code()
        return f"({c.piece_code()} or {self.E})"

    def _Attr(self, e: ast.Attr, scope: Scope) -> Code:
        obj = self.compile(e.obj, scope)
        if obj.type is not Type.SITE:
            raise RuleError(e.pos, f"'.{e.name}' needs a piece or a site, found {describe(obj)}")
        deps, cost = obj.deps, obj.cost + 1
        name = e.name
        if obj.is_const and obj.const == -1:
            obj = Code("(-1)", Type.SITE, piece="None")
        read = self.piece_read(obj, scope)
        if name == "owner":
            return Code(f"{read}[0]", Type.PLAYER, deps, cost=cost)
        if name == "kind":
            raise RuleError(e.pos, "compare kinds with 'is', e.g. 'piece is KIND'")
        if name == "height":
            if self.model.stacks:
                return Code(f"len({read}[2])", Type.INT, deps, cost=cost)
            return Code(f"(({obj.piece_code()} is not None) + 0)", Type.INT, deps, cost=cost)
        if name == "value":
            return Code(f"{self.src.const(tuple(self.kind_values))}[{read}[1]]", Type.INT, deps, cost=cost)
        attr = self.model.attributes.get(name)
        if attr is None:
            raise unknown(name_pos(e.pos, name), "attribute", name, list(self.model.attributes) + list(BUILTIN_PROPERTIES))
        type_ = Type.INT if attr.type == "int" else Type.BOOL
        piece_attr = attr.index if obj.piece is not None and obj.piece == scope.register("piece").piece else None
        return Code(f"{read}[{attr.index}]", type_, deps, cost=cost, piece_attr=piece_attr)

    def _Index(self, e: ast.Index, scope: Scope) -> Code:
        obj = self.compile(e.obj, scope)
        if obj.type is not Type.PER_PLAYER:
            raise RuleError(e.pos, f"only per-player variables, pools and regions can be indexed, not {describe(obj)}")
        idx = self.expect(self.compile(e.index, scope), (Type.PLAYER,), e.index, "the index")
        kind, thing = obj.per_player
        deps, cost = idx.deps, idx.cost + 1
        if kind in ("var", "pool"):
            type_ = _var_type(thing) if kind == "var" else Type.INT
            if idx.is_const:
                if idx.const < 0:
                    return self.const(0, type_)
                return Code(f"v[{thing.offset + idx.const}]", type_, deps, cost=cost, stored=True)
            if _always_a_player(idx.code, scope):
                return Code(f"v[{thing.offset} + {idx.code}]", type_, deps, cost=cost, stored=True)
            first, again = self.share(idx, scope)
            return Code(f"(v[{thing.offset} + {again}] if {first} >= 0 else 0)", type_, deps, cost=cost)
        if kind == "track":
            if idx.is_const:
                if idx.const < 0:
                    raise RuleError(e.index.pos, "a player not in play has no track")
                return Code(self.track_constant(thing)[idx.const], Type.TRACK, deps, size=len(thing.sites[idx.const]),
                            following=self._following(thing, idx.const))
            tracks = self.src.const(tuple(self.track_values(thing)) + (((), (-1,) * (self.n_sites + 1), False),))
            following = None
            made = self._following_tables(thing)
            if made is not None and _always_a_player(idx.code, scope) and is_cheap(idx.code):
                _, by_player, reaches = made
                following = (f"{by_player}[{idx.code}]", min(reaches))
            return Code(f"{tracks}[{idx.code}]", Type.TRACK, deps, cost=cost, size=max(len(t) for t in thing.sites),
                        following=following)
        region = thing
        if idx.is_const:
            return self.static_sites(() if idx.const < 0 else region.sites[idx.const])
        sites = self.src.const(tuple(tuple(s) for s in region.sites) + ((),))
        masks = self.src.const(tuple(tuple(m) for m in region.masks) + (tuple([False] * (self.n_sites + 1)),))
        size = max((len(s) for s in region.sites), default=0)
        return Code(f"{sites}[{idx.code}]", Type.SITES, deps, cost=cost, size=size, region_by_player=(masks, idx.code))

    # ------------------------------------------------------------ operators
    def _Neg(self, e: ast.Neg, scope):
        c = self.expect(self.compile(e.operand, scope), (Type.INT,), e.operand, "the operand of '-'")
        if c.is_const:
            return self.const(-c.const, Type.INT)
        return Code(f"(-{c.code})", Type.INT, c.deps, cost=c.cost + 1)

    def _BinOp(self, e: ast.BinOp, scope):
        left = self.compile(e.left, scope)
        right = self.compile(e.right, scope)
        if left.type is Type.SITES and e.op in "+-":
            self.expect(right, (Type.SITES, Type.SITE), e.right, f"the right side of '{e.op}'")
            return self._site_set_op(e.op, left, right)
        if left.type is Type.SITE and right.type in (Type.SITES, Type.SITE) and e.op in "+-":
            raise RuleError(e.left.pos, f"the left side of '{e.op}' is a site, and '{e.op}' joins sets of sites",
                            f"a list makes a set of it: [X] {e.op} ... (format.md 3.12.1)")
        self.expect(left, (Type.INT,), e.left, f"the left side of '{e.op}'")
        self.expect(right, (Type.INT,), e.right, f"the right side of '{e.op}'")
        if e.op in ("//", "%") and right.is_const and right.const == 0:
            raise RuleError(e.right.pos, "division by zero")
        deps, cost = left.deps | right.deps, left.cost + right.cost + 1
        if left.is_const and right.is_const:
            return self.const(helpers.ARITHMETIC[e.op](left.const, right.const), Type.INT)
        if e.op in ("//", "%") and not right.is_const:
            # A zero divisor at run time is a mistake of the rules: say where.
            helper = "h_floordiv" if e.op == "//" else "h_mod"
            return Code(f"{helper}({left.code}, {right.code}, {self.src.const(e.pos)})", Type.INT, deps, cost=cost)
        return Code(f"({left.code} {e.op} {right.code})", Type.INT, deps, cost=cost)

    def _site_set_op(self, op: str, left: Code, right: Code) -> Code:
        if right.type is Type.SITE:
            right = self._site_as_set(right)
        if left.static_sites is not None and right.static_sites is not None:
            a, b = set(left.static_sites), set(right.static_sites)
            return self.static_sites(a | b if op == "+" else a - b)
        deps, cost = left.deps | right.deps, left.cost + right.cost + left.size + right.size
        helper = "h_union" if op == "+" else "h_minus"
        size = left.size + right.size if op == "+" else left.size
        return Code(f"{helper}({left.code}, {right.code})", Type.SITES, deps, cost=cost, size=min(size, self.n_sites))

    def _site_as_set(self, c: Code) -> Code:
        if c.is_const:
            return self.static_sites(() if c.const == -1 else (c.const,))
        return Code(f"h_sites(({c.code},))", Type.SITES, c.deps, cost=c.cost, size=1)

    def _Compare(self, e: ast.Compare, scope):
        left = self.compile(e.left, scope)
        right = self.compile(e.right, scope)
        op = e.op
        if op in ("<", "<=", ">", ">="):
            self.expect(left, (Type.INT,), e.left, f"the left side of '{op}'")
            self.expect(right, (Type.INT,), e.right, f"the right side of '{op}'")
        elif not comparable(left.type, right.type):
            raise RuleError(e.pos, f"cannot compare {describe(left)} with {describe(right)}")
        if Type.STR in (left.type, right.type):
            self._check_option_value(e)
        if left.is_const and right.is_const:
            return self.const(helpers.COMPARISONS[op](left.const, right.const), Type.BOOL)
        return Code(f"({left.code} {op} {right.code})", Type.BOOL, left.deps | right.deps, cost=left.cost + right.cost + 1)

    def _check_option_value(self, e: ast.Compare) -> None:
        """`capture == "tpo"` is always false: catch the misspelt option value."""
        for side, other in ((e.left, e.right), (e.right, e.left)):
            if isinstance(side, ast.Name) and side.id in self.model.option_specs and isinstance(other, ast.Str):
                spec = self.model.option_specs[side.id]
                if spec.values is not None and other.value not in spec.values:
                    allowed = ", ".join(str(v) for v in spec.values)
                    raise RuleError(
                        other.pos,
                        f"option '{side.id}' is never \"{other.value}\" (its values: {allowed})",
                        did_you_mean(other.value, [str(v) for v in spec.values]),
                    )

    def _short_circuit(self, e, scope, keyword: str) -> Optional[Code]:
        """`and`/`or` whose right side needs lines (lowered mode): they run only when
        the right side is evaluated. None when the plain form will do."""
        if self.sink is None:
            return None
        left = self.boolean(e.left, scope)
        lines, right = self._nested(lambda: self.boolean(e.right, scope))
        if not lines or left.is_const or right.is_const:
            self.sink.extend(lines)
            return self._combine(keyword, left, right)
        t = self.src.fresh("t")
        start = len(self.sink)
        self._emit(f"{t} = {left.code}")
        self._block(f"if {t}:" if keyword == "and" else f"if not {t}:", lines + [f"{t} = {right.code}"])
        guarded = (tuple(self.sink[start:]), left.code, lines, right) if keyword == "and" else None
        return Code(t, Type.BOOL, left.deps | right.deps, cost=left.cost + right.cost, guarded=guarded)

    @staticmethod
    def when(lines: list, cond: Code, body: list) -> list:
        """Lines that run `lines`, then `body` when `cond` holds. An `and` whose
        right side needed lines becomes two nested tests, without its result
        variable: in a loop, most elements fail the left side and cost one test."""
        guarded = cond.guarded
        if guarded is not None:
            written, left, right_lines, right = guarded
            if tuple(lines[len(lines) - len(written):]) == written:
                inner = ExpressionCompiler.when(right_lines, right, body)
                return lines[:len(lines) - len(written)] + [f"if {left}:"] + ["    " + line for line in inner]
        return lines + [f"if {cond.code}:"] + ["    " + line for line in body]

    def _combine(self, keyword: str, left: Code, right: Code) -> Code:
        if keyword == "and":
            if left.is_const:
                return right if left.const else self.const(False, Type.BOOL)
            if right.is_const:
                return left if right.const else self.const(False, Type.BOOL)
        else:
            if left.is_const:
                return self.const(True, Type.BOOL) if left.const else right
            if right.is_const:
                return self.const(True, Type.BOOL) if right.const else left
            a, b = left.kind_test, right.kind_test
            if a is not None and b is not None and a[0] == b[0]:
                # `piece is A or piece is B`: one test against a set of kinds
                return self._kind_test(a[0], a[1] | b[1], left.deps | right.deps)
        return Code(f"({left.code} {keyword} {right.code})", Type.BOOL, left.deps | right.deps, cost=left.cost + right.cost)

    def _And(self, e: ast.And, scope):
        lowered = self._short_circuit(e, scope, "and")
        if lowered is not None:
            return lowered
        return self._combine("and", self.boolean(e.left, scope), self.boolean(e.right, scope))

    def _Or(self, e: ast.Or, scope):
        lowered = self._short_circuit(e, scope, "or")
        if lowered is not None:
            return lowered
        return self._combine("or", self.boolean(e.left, scope), self.boolean(e.right, scope))

    def _Not(self, e: ast.Not, scope):
        c = self.boolean(e.operand, scope)
        if c.is_const:
            return self.const(not c.const, Type.BOOL)
        return Code(f"(not {c.code})", Type.BOOL, c.deps, cost=c.cost)

    def _IfExp(self, e: ast.IfExp, scope):
        cond = self.boolean(e.cond, scope)
        lines_a, a = self._nested(lambda: self.compile(e.then, scope)) if self.sink is not None else ([], self.compile(e.then, scope))
        lines_b, b = self._nested(lambda: self.compile(e.otherwise, scope)) if self.sink is not None else ([], self.compile(e.otherwise, scope))
        if not comparable(a.type, b.type):
            raise RuleError(e.pos, f"both branches must have the same type: {describe(a)} / {describe(b)}")
        if cond.is_const:
            if self.sink is not None:
                self.sink.extend(lines_a if cond.const else lines_b)
            return a if cond.const else b
        if lines_a or lines_b:
            t = self.src.fresh("t")
            self._block(f"if {cond.code}:", lines_a + [f"{t} = {a.code}"])
            self._block("else:", lines_b + [f"{t} = {b.code}"])
            type_ = a.type if a.type is not Type.NONE else b.type
            return Code(t, type_, cond.deps | a.deps | b.deps, cost=cond.cost + max(a.cost, b.cost), size=max(a.size, b.size))
        type_ = a.type if a.type is not Type.NONE else b.type
        return Code(
            f"({a.code} if {cond.code} else {b.code})", type_, cond.deps | a.deps | b.deps,
            cost=cond.cost + max(a.cost, b.cost), size=max(a.size, b.size),
        )

    def _Is(self, e: ast.Is, scope):
        obj = self.compile(e.obj, scope)
        if obj.type is not Type.SITE:
            raise RuleError(e.obj.pos, f"'is' needs a piece or a site, found {describe(obj)}")
        what = e.what
        deps, cost = obj.deps, obj.cost + 1
        if obj.is_const and obj.const == -1:
            obj = Code("(-1)", Type.SITE, piece="None")
        if what in self.model.kinds:
            kind = self.model.kinds[what].index
            known = scope.piece_kinds
            if known is not None and isinstance(e.obj, ast.Name) and e.obj.id == "piece" and "piece" not in scope.locals:
                # The acting piece's kind is known here (the action's `by`).
                if known <= {kind} or kind not in known:
                    return self.const((kind in known) != e.negated, Type.BOOL)
            test = self._kind_test(self.piece_read(obj, scope), frozenset({kind}), deps)
            return test if not e.negated else Code(f"(not {test.code})", Type.BOOL, deps, cost=cost)
        piece = obj.piece_code()
        if what == "empty":
            # No site (`neighbour` beyond the edge) is not an empty site.
            code = f"({piece} is None)" if obj.real else f"({piece} is None and {obj.code} != -1)"
        elif what == "occupied":
            code = f"({piece} is not None)"
        elif what == "enemy":
            code = f"{self._enemy_table()}[{scope.register('player').site}][{self.piece_read(obj, scope)}[0]]"
        elif what == "own":
            code = f"({self.piece_read(obj, scope)}[0] == {scope.register('player').site})"
        elif what == "neutral":
            code = f"(({piece} or {self.src.const((-2,))})[0] == -1)"
        else:
            raise RuleError(
                e.what_pos,
                f"'{what}' is neither a piece kind nor one of {', '.join(PIECE_RELATIONS)}",
                did_you_mean(what, list(self.model.kinds) + list(PIECE_RELATIONS)),
            )
        if e.negated:
            code = f"(not {code})"
        return Code(code, Type.BOOL, deps, cost=cost)

    def _enemy_table(self) -> str:
        """The constant saying, for a player and an owner, whether they are enemies."""
        return self.src.const(tuple(tuple(o != me for o in range(self.n_players)) + (False,) for me in range(self.n_players)))

    def _kind_test(self, read: str, kinds: frozenset, deps: frozenset) -> Code:
        """Whether the piece read by `read` (a `(P or E)` form) is of one of `kinds`."""
        if len(kinds) == 1:
            (k,) = kinds
            code = f"({read}[1] == {k})"
        else:
            member = tuple(i in kinds for i in range(len(self.model.kinds))) + (False,)
            code = f"{self.src.const(member)}[{read}[1]]"
        return Code(code, Type.BOOL, deps, cost=1, kind_test=(read, kinds))

    def as_sites(self, c: Code) -> Code:
        """A track where a set of sites is wanted: its sites, in order."""
        if c.type is not Type.TRACK:
            return c
        return Code(f"{c.code}[0]", Type.SITES, c.deps, cost=c.cost, size=c.size)

    def _In(self, e: ast.In, scope):
        item = self.compile(e.item, scope)
        coll = self.as_sites(self.compile(e.collection, scope))
        if coll.type is Type.PER_PLAYER:
            raise RuleError(e.collection.pos, f"'{_name_of(e.collection)}' differs per player: say whose, e.g. {_name_of(e.collection)}[player]")
        if coll.type is Type.PLAYERS:
            self.expect(item, (Type.PLAYER,), e.item, "the left side of 'in'")
        else:
            self.expect(coll, (Type.SITES,), e.collection, "the right side of 'in'")
            self.expect(item, (Type.SITE,), e.item, "the left side of 'in'")
        deps, cost = item.deps | coll.deps, item.cost + coll.cost + 1
        if coll.mask is not None:
            if item.is_const:
                return self.const((item.const in coll.static_sites) != e.negated, Type.BOOL)
            code = f"{coll.mask}[{item.code}]"
        elif coll.region_by_player is not None:
            masks, player = coll.region_by_player
            code = f"{masks}[{player}][{item.code}]"
        else:
            code = f"({item.code} in {coll.code})"
            cost += coll.size
        if e.negated:
            code = f"(not {code})"
        return Code(code, Type.BOOL, deps, cost=cost)

    # ------------------------------------------------------------ collections
    def _Pieces(self, e: ast.Pieces, scope: Scope) -> Code:
        deps: frozenset = frozenset({Dep.BOARD})
        if e.owner is not None:
            owner = self.expect(self.compile(e.owner, scope), (Type.PLAYER,), e.owner, "the owner after 'pieces of'")
            deps |= owner.deps
            if owner.is_const:
                sites = f"o[{owner.const}]" if owner.const >= 0 else "()"
            elif _always_a_player(owner.code, scope):
                sites = f"o[{owner.code}]"
            else:
                first, again = self.share(owner, scope.child(walrus=False))
                sites = f"(o[{again}] if {first} >= 0 else ())"
            size = self.n_sites
        else:
            sites = ALL_PIECES
            size = self.n_sites
        if e.where is None:
            return Code(sites, Type.SITES, deps, cost=size, size=size, occupied=True)
        var = self.src.fresh("i")
        inner = scope.child()
        inner.locals["it"] = Local(var, Type.SITE, occupied=True)
        if self.sink is not None:
            lines, cond = self._nested(lambda: self.boolean(e.where, inner))
            t = self.src.fresh("t")
            start = len(self.sink)
            self._emit(f"{t} = []")
            self._block(f"for {var} in {_iterated(sites)}:", lines + [f"if {cond.code}: {t}.append({var})"])
            deps |= cond.deps - {Dep.LOCALS}
            return Code(t, Type.SITES, deps, cost=size * (1 + cond.cost), size=size, fresh=True, occupied=True,
                        filtered=(tuple(self.sink[start:]), sites, var, tuple(lines), cond.code))
        cond = self.boolean(e.where, inner)
        deps |= cond.deps - {Dep.LOCALS}
        return Code(f"[{var} for {var} in {_iterated(sites)} if {cond.code}]", Type.SITES, deps, cost=size * (1 + cond.cost), size=size,
                    fresh=True, occupied=True, filtered=(None, sites, var, (), cond.code))

    # ------------------------------------------------------------ functions
    def _Call(self, e: ast.Call, scope: Scope) -> Code:
        if e.fn in self.defines:
            return self._define_call(e, scope)
        handler = getattr(self, "_fn_" + e.fn, None)
        if handler is None:
            raise unknown(e.pos, "function", e.fn, list(FUNCTIONS) + list(self.defines))
        arity = FUNCTIONS[e.fn][0]
        if len(e.args) not in arity:
            expected = " or ".join(str(a) for a in arity)
            raise RuleError(e.pos, f"'{e.fn}' takes {expected} argument(s), found {len(e.args)}: {FUNCTIONS[e.fn][1]}")
        return handler(e, scope)

    def _collection(self, e: ast.Expr, scope: Scope, fn_name: str) -> Code:
        c = self.as_sites(self.compile(e, scope.child(walrus=False)))
        if c.type is Type.PER_PLAYER:
            raise RuleError(e.pos, f"'{_name_of(e)}' differs per player: say whose, e.g. {_name_of(e)}[player]")
        return self.expect(c, (Type.SITES, Type.PLAYERS, Type.DIRS), e, f"the first argument of '{fn_name}'")

    def _measure(self, e: ast.Expr, fn_name: str) -> int:
        """The second argument of sum/max/min/unique_max: an attribute name, as the
        index that helpers.measure understands (MEASURE_VALUE, MEASURE_HEIGHT or the
        attribute's index in the piece tuple)."""
        if not isinstance(e, ast.Name):
            raise RuleError(e.pos, f"the second argument of '{fn_name}' is an attribute name, e.g. value or height")
        name = e.id
        if name == "value":
            return helpers.MEASURE_VALUE
        if name == "height":
            return helpers.MEASURE_HEIGHT
        attr = self.model.attributes.get(name)
        if attr is None or attr.type != "int":
            ints = [a.name for a in self.model.attributes.values() if a.type == "int"] + ["value", "height"]
            raise RuleError(e.pos, f"'{name}' is not a numeric attribute", did_you_mean(name, ints))
        return attr.index

    def _quantified(self, e: ast.Call, scope: Scope) -> tuple:
        """The set of count/exists/all and the name each element goes by: `it`, or
        NAME in `exists(NAME in SET, ...)` (so that an outer `it` stays reachable)."""
        first = e.args[0]
        if isinstance(first, ast.In) and isinstance(first.item, ast.Name) and not first.negated:
            name = first.item.id
            if reserved_word(name):
                raise RuleError(first.item.pos, reserved_word(name), "choose another name")
            # `exists(to in goal)` is a slip for `to in goal`, not a new name for `to`.
            if name in CONTEXT_NAMES or name in self.model.board.index:
                raise RuleError(
                    first.item.pos,
                    f"'{name}' already means something here: give the elements of {e.fn}(NAME in SET, ...) a new name",
                )
            return self._collection(first.collection, scope, e.fn), name
        return self._collection(first, scope, e.fn), "it"

    def _condition_on_each(self, coll: Code, e: ast.Expr, scope: Scope, name: str) -> tuple[str, Code]:
        """The condition of count/exists/all, with `name` bound to each element."""
        var = self.src.fresh("i")
        inner = scope.child()
        inner.locals[name] = Local(var, ELEMENT[coll.type], always=coll.type is not Type.SITES, occupied=coll.occupied,
                                   real=coll.type is Type.SITES)
        return var, self.boolean(e, inner)

    def _loop(self, quantifier: str, coll: Code, e: ast.Expr, scope: Scope, name: str) -> Code:
        """count/exists/all in lowered mode: a loop that stops as soon as it knows.
        Over `pieces ... where W` it is one loop over the pieces, asking W first,
        rather than a loop building their list and a loop over it."""
        var = self.src.fresh("i")
        where = None  # (W's lines, W's code) when the loop asks W itself
        filtered = coll.filtered
        if filtered is not None and filtered[0] is not None and self._sink_ends_with(filtered[0]):
            del self.sink[len(self.sink) - len(filtered[0]):]
            _, sites, var, where_lines, where_code = filtered
            where = (list(where_lines), where_code)
            coll = Code(sites, coll.type, coll.deps, cost=coll.cost, size=coll.size, occupied=True)
        inner = scope.child()
        inner.locals[name] = Local(var, ELEMENT[coll.type], always=coll.type is not Type.SITES, occupied=coll.occupied,
                                   real=coll.type is Type.SITES)
        lines, cond = self._nested(lambda: self.boolean(e, inner))
        t = self.src.fresh("t")
        deps = coll.deps | (cond.deps - {Dep.LOCALS})
        cost = coll.cost + coll.size * (1 + cond.cost)

        def body(inside: list) -> list:
            if where is None:
                return inside
            return where[0] + [f"if {where[1]}:"] + ["    " + line for line in inside]

        def counted_loop(start: str, head: str, rows: list) -> int:
            """`start`, then the loop of count or exists, which counts or finds
            nothing where its owner mask (prefilters.py) says no element can pass,
            and otherwise goes over the elements that can, bit by bit of the mask;
            returns where `start` stands in the sink."""
            prefilter = self.owner_masks.prefilter(head, rows) if self.listing and where is None else None
            if prefilter is not None:
                made, test, by_bit = prefilter
                self._emit(made)
                if by_bit is not None:
                    targets, table, site, inner = by_bit
                    left, bit = self.src.fresh("l"), self.src.fresh("l")
                    at = len(self.sink)
                    self._emit(start, f"{left} = {test}")
                    self._block(f"while {left}:", [
                        f"{bit} = {left} & -{left}", f"{left} ^= {bit}", f"{targets} = {table}[{site}][{bit}]",
                    ] + inner)
                    return at
                head, rows = f"if {test}:", [head] + ["    " + line for line in rows]
            at = len(self.sink)
            self._emit(start)
            self._block(head, rows)
            return at

        if quantifier == "count":
            counted_loop(f"{t} = 0", *self._rows(var, coll, body(self.when(lines, cond, [f"{t} += 1"]))))
            return Code(t, Type.INT, deps, cost=cost)
        if quantifier == "exists":
            start = counted_loop(f"{t} = False", *self._rows(var, coll, body(self.when(lines, cond, [f"{t} = True", "break"]))))
            return Code(t, Type.BOOL, deps, cost=cost, found_loop=tuple(self.sink[start:]))
        self._emit(f"{t} = True")
        self._block(*self._rows(var, coll, body(lines + [f"if not {cond.code}:", f"    {t} = False", "    break"])))
        return Code(t, Type.BOOL, deps, cost=cost)

    def _sink_ends_with(self, lines: tuple) -> bool:
        return len(self.sink) >= len(lines) and tuple(self.sink[len(self.sink) - len(lines):]) == lines

    def _rows(self, var: str, coll: Code, body: list) -> tuple[str, list]:
        """(head, body) of the loop of `var` over `coll`. Over a fixed set (of
        directions, say), the tables its elements index (`k2[i0]`: the neighbour of
        each site in direction i0; `k5[k3[i0]]`: the ray in the opposite direction)
        are looked up once, when the rules are compiled: the loop goes over rows of
        them, one lookup less per use and none of a table's name."""
        head = f"for {var} in {_iterated(coll.code)}:"
        if not coll.is_const or not isinstance(coll.const, (tuple, list)):
            return head, body
        columns: list = []  # (name, its value for each element)
        known = {var: list(coll.const)}
        while True:
            text = "\n".join(body)
            found = None
            for table, index in re.findall(r"\b(k\d+)\[(i\d+)\]", text):
                if index in known and isinstance(self.src.namespace.get(table), tuple):  # (never changed)
                    found = (table, index)
                    break
            if found is None or len(columns) >= 8:
                break
            table, index = found
            try:
                values = [self.src.namespace[table][x] for x in known[index]]
            except (KeyError, IndexError, TypeError):
                return head, body
            name = self.src.fresh("i")
            columns.append((name, values))
            known[name] = values
            pattern = re.compile(rf"\b{table}\[{index}\]")
            body = [pattern.sub(name, line) for line in body]
        if not columns:
            return head, body
        text = "\n".join(body)
        columns = [(name, values) for name, values in columns if re.search(rf"\b{name}\b", text)]
        if re.search(rf"\b{var}\b", text):
            columns.append((var, list(coll.const)))
        by_site = self._rows_at_one_site(columns, body)
        if by_site is not None:
            return by_site
        rows = tuple(zip(*(values for _, values in columns)))
        if len(columns) == 1:
            return f"for {columns[0][0]} in {self.src.const(tuple(row[0] for row in rows))}:", body
        return f"for {', '.join(name for name, _ in columns)} in {self.src.const(rows)}:", body

    def _rows_at_one_site(self, columns: list, body: list) -> Optional[tuple[str, list]]:
        """When every column is a table read at one and the same site that the loop
        does not change (`i2[to]`), the rows are looked up per site once, when the
        rules are compiled: the loop goes over the rows of that site."""
        text = "\n".join(body)
        site = None
        for name, values in columns:
            if not all(isinstance(v, tuple) for v in values):
                return None
            uses = re.findall(rf"\b{name}\b(\[(\w+)\])?", text)
            if not uses or any(not index for _, index in uses):
                return None
            sites = {index for _, index in uses}
            if len(sites) != 1 or (site is not None and sites != {site}):
                return None
            site = sites.pop()
        if site is None or site.isdigit() or re.search(rf"\b{site}\s*(=[^=]|\+=|-=)|for {site} in", text):
            return None
        size = len(columns[0][1][0])
        if any(len(v) != size for _, values in columns for v in values) or size > 100_000:
            return None
        per_site = tuple(tuple(tuple(values[d][s] for _, values in columns) for d in range(len(columns[0][1])))
                         for s in range(size))
        names = [self.src.fresh("i") for _ in columns]
        for (name, _), new in zip(columns, names):
            body = [re.sub(rf"\b{name}\[{site}\]", new, line) for line in body]
        table = self.src.const(per_site)
        if len(names) == 1:
            table = self.src.const(tuple(tuple(row[0] for row in rows) for rows in per_site))
            return f"for {names[0]} in {table}[{site}]:", body
        return f"for {', '.join(names)} in {table}[{site}]:", body

    def _fn_count(self, e: ast.Call, scope):
        if self.sink is not None and len(e.args) == 1 and _is_call(e.args[0], "ray", 3) and "ray" not in self.defines:
            return self._ray_length(e.args[0], scope)
        coll, name = self._quantified(e, scope)
        if len(e.args) == 1:
            if coll.is_const:
                return self.const(len(coll.const), Type.INT)
            return Code(f"len({coll.code})", Type.INT, coll.deps, cost=coll.cost + 1)
        return self._quantifier("count", coll, e.args[1], scope, name)

    def _fn_exists(self, e: ast.Call, scope):
        coll, name = self._quantified(e, scope)
        if len(e.args) == 1:
            if coll.is_const:
                return self.const(len(coll.const) > 0, Type.BOOL)
            return Code(f"(len({coll.code}) > 0)", Type.BOOL, coll.deps, cost=coll.cost + 1)
        return self._quantifier("exists", coll, e.args[1], scope, name)

    def _fn_all(self, e: ast.Call, scope):
        coll, name = self._quantified(e, scope)
        return self._quantifier("all", coll, e.args[1], scope, name)

    # The one-expression form of each quantifier (where no statements can be written).
    _INLINE = {
        "count": ("len([0 for {var} in {coll} if {cond}])", Type.INT),
        "exists": ("any({cond} for {var} in {coll})", Type.BOOL),
        "all": ("all({cond} for {var} in {coll})", Type.BOOL),
    }

    def _quantifier(self, quantifier: str, coll: Code, e: ast.Expr, scope, name: str) -> Code:
        """count/exists/all with a condition: a loop where statements can be written,
        else one expression."""
        if self.sink is not None:
            return self._loop(quantifier, coll, e, scope, name)
        var, cond = self._condition_on_each(coll, e, scope, name)
        deps = coll.deps | (cond.deps - {Dep.LOCALS})
        template, type_ = self._INLINE[quantifier]
        return Code(template.format(var=var, coll=coll.code, cond=cond.code), type_, deps,
                    cost=coll.cost + coll.size * (1 + cond.cost))

    def _sites_argument(self, e: ast.Call, scope, name: str) -> Code:
        return self.expect(self._collection(e.args[0], scope, name), (Type.SITES,), e.args[0], f"the first argument of '{name}'")

    def _fn_sum(self, e: ast.Call, scope):
        coll = self._sites_argument(e, scope, "sum")
        measure = self._measure(e.args[1], "sum")
        if self.sink is not None and measure >= 0:
            # written out as a loop: an attribute added up piece by piece
            total, site, piece = (self.src.fresh("t") for _ in range(3))
            self._emit(f"{total} = 0")
            if coll.occupied:
                self._block(f"for {site} in {coll.code}:", [f"{total} += b[{site}][{measure}]"])
            else:
                self._block(f"for {site} in {coll.code}:", [
                    f"{piece} = b[{site}]",
                    f"if {piece} is not None: {total} += {piece}[{measure}]",
                ])
            return Code(total, Type.INT, coll.deps, cost=coll.cost + coll.size)
        return Code(f"h_sum(b, {coll.code}, {measure}, {self._values()})", Type.INT, coll.deps, cost=coll.cost + coll.size)

    def _values(self) -> str:
        return self.src.const(tuple(self.kind_values))

    def _extreme(self, e: ast.Call, scope, name: str):
        if len(e.args) == 2:
            first = self.compile(e.args[0], scope)
            if first.type is Type.INT:
                second = self.expect(self.compile(e.args[1], scope), (Type.INT,), e.args[1], f"the second argument of '{name}'")
                if first.is_const and second.is_const:
                    return self.const((max if name == "max" else min)(first.const, second.const), Type.INT)
                return Code(f"{name}({first.code}, {second.code})", Type.INT, first.deps | second.deps, cost=first.cost + second.cost + 1)
        coll = self._sites_argument(e, scope, name)
        measure = self._measure(e.args[1], name)
        return Code(f"h_{name}(b, {coll.code}, {measure}, {self._values()})", Type.INT, coll.deps, cost=coll.cost + coll.size)

    def _fn_max(self, e, scope):
        return self._extreme(e, scope, "max")

    def _fn_min(self, e, scope):
        return self._extreme(e, scope, "min")

    def _fn_unique_max(self, e: ast.Call, scope):
        coll = self._sites_argument(e, scope, "unique_max")
        measure = self._measure(e.args[1], "unique_max")
        cost = coll.cost + coll.size
        if self.sink is not None and measure >= 0:
            # written out as a loop (it often runs after every action)
            best, value, tie, site, piece = (self.src.fresh("t") for _ in range(5))
            self._emit(f"{best} = -1", f"{value} = None", f"{tie} = False")
            self._block(f"for {site} in {coll.code}:", [
                f"{piece} = b[{site}]",
                *([] if coll.occupied else [f"if {piece} is None: continue"]),
                f"if {value} is None or {piece}[{measure}] > {value}:",
                f"    {best} = {site}",
                f"    {value} = {piece}[{measure}]",
                f"    {tie} = False",
                f"elif {piece}[{measure}] == {value}:",
                f"    {tie} = True",
            ])
            self._emit(f"if {tie}: {best} = -1")
            return Code(best, Type.SITE, coll.deps, cost=cost)
        return Code(f"h_unique_max(b, {coll.code}, {measure}, {self._values()})", Type.SITE, coll.deps, cost=cost)

    def track_values(self, track) -> list:
        """The run-time form of each entry of a track (see runtime/helpers.py)."""
        values = []
        for sites, loop in zip(track.sites, track.loop):
            position = [-1] * (self.n_sites + 1)
            for i, s in enumerate(sites):
                position[s] = i
            values.append((tuple(sites), tuple(position), loop))
        return values

    def track_constant(self, track) -> list:
        """The constant names of the entries of a track."""
        return [self.src.const(value) for value in self.track_values(track)]

    def _track_argument(self, e: ast.Call, scope) -> Code:
        arg = e.args[0]
        track = self.compile(arg, scope)
        if track.type is Type.PER_PLAYER and track.per_player and track.per_player[0] == "track":
            raise RuleError(arg.pos, f"track '{_name_of(arg)}' differs per player: say whose, e.g. {_name_of(arg)}[player]")
        if track.type is not Type.TRACK:
            raise RuleError(arg.pos, f"the first argument of '{e.fn}' must be a track (declared under 'tracks'), found {describe(track)}")
        return track

    def _following(self, track, entry: int) -> Optional[tuple[str, int]]:
        """(the constant of following_sites, its reach) for one entry of a track, or None."""
        made = self._following_tables(track)
        return None if made is None else (made[0][entry], made[2][entry])

    def _following_tables(self, track) -> Optional[tuple[list, str, list]]:
        """(the constants of following_sites by entry, the constant of all of them
        by entry, each entry's reach) of a track, made on first use within
        MAX_FOLLOWING_ENTRIES a game; None beyond."""
        if track.name in self._following_made:
            return self._following_made[track.name]
        entries = sum((self.n_sites + 1) * FOLLOWING_LAPS * len(sites) for sites in track.sites)
        made = None
        if self._following_entries + entries <= MAX_FOLLOWING_ENTRIES:
            self._following_entries += entries
            tables = [following_sites(sites, loop, self.n_sites) for sites, loop in zip(track.sites, track.loop)]
            made = (
                [self.src.const(table, key=("following", track.name, i)) for i, table in enumerate(tables)],
                self.src.const(tuple(tables), key=("following", track.name)),
                [following_reach(sites, loop) for sites, loop in zip(track.sites, track.loop)],
            )
        self._following_made[track.name] = made
        return made

    def _fn_ahead(self, e: ast.Call, scope):
        track = self._track_argument(e, scope)
        site = self.expect(self.compile(e.args[1], scope), (Type.SITE,), e.args[1], "the second argument of 'ahead'")
        n = self.expect(self.compile(e.args[2], scope), (Type.INT,), e.args[2], "the third argument of 'ahead'")
        code = f"h_ahead({track.code}, {site.code}, {n.code})"
        if track.following is not None and is_cheap(site.code) and is_cheap(n.code):
            # (the table answers within its reach, the helper beyond: n <= 0, off the track)
            after = f"{track.following[0]}[{site.code}]"
            code = f"({after}[{n.code} - 1] if 0 < {n.code} <= len({after}) else {code})"
        return Code(code, Type.SITE, track.deps | site.deps | n.deps, cost=track.cost + site.cost + n.cost + 1)

    def _fn_along(self, e: ast.Call, scope):
        track = self._track_argument(e, scope)
        site = self.expect(self.compile(e.args[1], scope), (Type.SITE,), e.args[1], "the second argument of 'along'")
        n = self.expect(self.compile(e.args[2], scope), (Type.INT,), e.args[2], "the third argument of 'along'")
        code = f"h_along({track.code}, {site.code}, {n.code}, {self.src.const(e.pos)})"
        if track.following is not None and is_cheap(site.code) and is_cheap(n.code):
            # (within the table's reach, the first n sites after; beyond, the helper)
            following, reach = track.following
            code = f"({following}[{site.code}][:{n.code}] if 0 <= {n.code} <= {reach} else {code})"
        size = n.const if n.is_const and n.const > 0 else self.n_sites
        return Code(code, Type.SITES, track.deps | site.deps | n.deps, cost=track.cost + site.cost + n.cost + size, size=size,
                    fresh=True)

    def _fn_steps_on(self, e: ast.Call, scope):
        track = self._track_argument(e, scope)
        site = self.expect(self.compile(e.args[1], scope), (Type.SITE,), e.args[1], "the second argument of 'steps_on'")
        return Code(f"h_steps_on({track.code}, {site.code})", Type.INT, track.deps | site.deps, cost=track.cost + site.cost + 1)

    def _fn_first(self, e: ast.Call, scope):
        coll = self._sites_argument(e, scope, "first")
        if coll.static_sites is not None:  # (a region: known when the rules are compiled)
            return self.const(coll.static_sites[0] if coll.static_sites else -1, Type.SITE)
        return Code(f"h_first({coll.code})", Type.SITE, coll.deps, cost=coll.cost + coll.size)

    def _fn_abs(self, e: ast.Call, scope):
        c = self.expect(self.compile(e.args[0], scope), (Type.INT,), e.args[0], "the argument of 'abs'")
        if c.is_const:
            return self.const(abs(c.const), Type.INT)
        return Code(f"abs({c.code})", Type.INT, c.deps, cost=c.cost + 1)

    def _grid_only(self, e: ast.Call, what: str) -> None:
        if self.model.board.kind != "grid":
            raise RuleError(e.pos, what)

    def neighbour_table(self) -> str:
        """nb[direction][site] = the adjacent site that way or -1 (site -1 included)."""
        rays = self.model.board.rays
        return self.src.const(tuple(tuple(r[0] if r else -1 for r in per_site) + (-1,) for per_site in rays), key="neighbours")

    def ray_table(self) -> str:
        """rays[direction][site] = the sites along the ray, nearest first (site -1: none)."""
        return self.src.const(tuple(tuple(per_site) + ((),) for per_site in self.model.board.rays), key="rays")

    def _fn_neighbour(self, e: ast.Call, scope):
        site = self.expect(self.compile(e.args[0], scope), (Type.SITE,), e.args[0], "the first argument of 'neighbour'")
        self._grid_only(e, "'neighbour(site, direction)' needs a grid board; on a graph use 'neighbours(site)'")
        direction = self._single_direction(e, scope)
        table = self.neighbour_table()
        if direction.is_const:  # the row of that direction
            row = self.src.namespace[table][direction.const]
            index = site.code
            inner = self._site_lookup(site.code)
            if inner is not None:  # a neighbour of a neighbour: one table
                before = self.src.namespace[inner[0]]
                row, index = tuple(row[s] for s in before), inner[1]
            name = self.src.const(row)
            self._site_tables.add(name)
            return Code(f"{name}[{index}]", Type.SITE, site.deps, cost=site.cost + 1)
        code = f"{table}[{direction.code}][{site.code}]"
        return Code(code, Type.SITE, site.deps | direction.deps, cost=site.cost + direction.cost + 1)

    def _single_direction(self, e: ast.Call, scope, argument: int = 1) -> Code:
        """A direction argument of neighbour/ray/beyond/opposite, as code of one
        direction index."""
        arg = e.args[argument]
        direction = self.compile(arg, scope)
        if direction.type not in (Type.DIRS, Type.DIR):
            which = "the second argument" if argument == 1 else "the argument"
            raise RuleError(arg.pos, f"{which} of '{e.fn}' must be a direction, found {describe(direction)}")
        if direction.type is Type.DIR:
            return direction
        if direction.is_const and len(direction.const) == 1:  # (a direction name passed to a define, say)
            return self.const(direction.const[0], Type.DIR)
        per_player = self.model.direction_sets.get(arg.id) if isinstance(arg, ast.Name) else None
        if per_player is not None and all(len(d) == 1 for d in per_player):
            if all(d == per_player[0] for d in per_player):
                return self.const(per_player[0][0], Type.DIR)
            player = scope.register("player").site
            return Code(f"{self.src.const(tuple(d[0] for d in per_player))}[{player}]", Type.DIR, direction.deps)
        message = self.src.const(f"'{e.fn}' needs a single direction, not a set of them")
        return Code(f"h_one_direction({direction.code}, {self.src.const(arg.pos)}, {message})", Type.DIR, direction.deps)

    def _ray_parts(self, e: ast.Call, scope, lowered: bool = False) -> tuple:
        """The ray of ray/beyond (the sites from the start, nearest first) and its
        condition as (element variable, condition), if given; lowered: (element
        variable, the condition's lines, the condition)."""
        site = self.expect(self.compile(e.args[0], scope), (Type.SITE,), e.args[0], f"the first argument of '{e.fn}'")
        self._grid_only(e, f"'{e.fn}' needs a grid board: directions are a grid's")
        direction = self._single_direction(e, scope)
        rays = self.ray_table()
        if direction.is_const:  # the row of that direction
            rays = self.src.const(self.src.namespace[rays][direction.const])
        else:
            rays = f"{rays}[{direction.code}]"
        ray = Code(
            f"{rays}[{site.code}]", Type.SITES, site.deps | direction.deps,
            cost=site.cost + direction.cost + 1, size=self.max_ray,
        )
        if len(e.args) < 3:
            return ray, None
        var = self.src.fresh("i")
        inner = scope.child()
        inner.locals["it"] = Local(var, Type.SITE, real=True)
        if lowered:
            lines, cond = self._nested(lambda: self.boolean(e.args[2], inner))
            return ray, (var, lines, cond)
        return ray, (var, self.boolean(e.args[2], inner))

    def _ray_length(self, e: ast.Call, scope) -> Code:
        """count(ray(X, D, COND)) in lowered mode: how many sites of the ray meet the
        condition before the first that does not."""
        ray, (var, lines, cond) = self._ray_parts(e, scope, lowered=True)
        t = self.src.fresh("t")
        self._emit(f"{t} = 0")
        self._block(f"for {var} in {ray.code}:", lines + [f"if not {cond.code}: break", f"{t} += 1"])
        return Code(t, Type.INT, ray.deps | (cond.deps - {Dep.LOCALS}), cost=ray.cost + self.max_ray * (1 + cond.cost))

    def _fn_ray(self, e: ast.Call, scope):
        if self.sink is not None and len(e.args) == 3:
            ray, (var, lines, cond) = self._ray_parts(e, scope, lowered=True)
            t = self.src.fresh("t")
            self._emit(f"{t} = []")
            self._block(f"for {var} in {ray.code}:", lines + [f"if not {cond.code}: break", f"{t}.append({var})"])
            deps = ray.deps | (cond.deps - {Dep.LOCALS})
            return Code(t, Type.SITES, deps, cost=ray.cost + self.max_ray * (1 + cond.cost), size=self.max_ray)
        ray, condition = self._ray_parts(e, scope)
        if condition is None:
            return ray
        var, cond = condition
        first, again = self.share(ray, scope)
        n = self.src.fresh("i")
        index = f"next(({n} for {n}, {var} in enumerate({again}) if not {cond.code}), len({again}))"
        deps = ray.deps | (cond.deps - {Dep.LOCALS})
        return Code(f"{first}[:{index}]", Type.SITES, deps, cost=ray.cost + self.max_ray * (1 + cond.cost), size=self.max_ray)

    def _fn_beyond(self, e: ast.Call, scope):
        if self.sink is not None:
            ray, (var, lines, cond) = self._ray_parts(e, scope, lowered=True)
            t = self.src.fresh("t")
            self._emit(f"{t} = -1")
            self._block(f"for {var} in {ray.code}:", lines + [f"if not {cond.code}:", f"    {t} = {var}", "    break"])
            deps = ray.deps | (cond.deps - {Dep.LOCALS})
            return Code(t, Type.SITE, deps, cost=ray.cost + self.max_ray * (1 + cond.cost))
        ray, condition = self._ray_parts(e, scope)
        var, cond = condition
        deps = ray.deps | (cond.deps - {Dep.LOCALS})
        code = f"next(({var} for {var} in {ray.code} if not {cond.code}), -1)"
        return Code(code, Type.SITE, deps, cost=ray.cost + self.max_ray * (1 + cond.cost))

    def _fn_opposite(self, e: ast.Call, scope):
        self._grid_only(e, "'opposite' needs a grid board: directions are a grid's")
        direction = self._single_direction(e, scope, argument=0)
        # The eight grid directions are numbered clockwise from north.
        if direction.is_const:
            return self.const((direction.const + 4) % 8, Type.DIR)
        opposites = self.src.const(tuple((d + 4) % 8 for d in range(8)))
        return Code(f"{opposites}[{direction.code}]", Type.DIR, direction.deps, cost=direction.cost + 1)

    def adjacency_table(self) -> str:
        return self.src.const(tuple(tuple(a) for a in self.model.board.adjacent) + ((),), key="adjacent")

    def _fn_group(self, e: ast.Call, scope):
        site = self.expect(self.compile(e.args[0], scope), (Type.SITE,), e.args[0], "the first argument of 'group'")
        adjacent = self.adjacency_table() if len(e.args) == 1 else self._adjacency_by(e, scope)
        code = f"h_group(b, {adjacent}, {site.code})"
        return Code(code, Type.SITES, site.deps | {Dep.BOARD}, cost=site.cost + self.n_sites * 2, size=self.n_sites)

    def _adjacency_by(self, e: ast.Call, scope) -> str:
        """The table of each site's neighbours in the directions of group's second
        argument (the same for every player: a table made once)."""
        self._grid_only(e, "'group(site, directions)' needs a grid board: directions are a grid's")
        arg = e.args[1]
        directions = self.compile(arg, scope)
        if directions.type not in (Type.DIRS, Type.DIR):
            raise RuleError(arg.pos, f"the second argument of 'group' must be directions, found {describe(directions)}")
        if not directions.is_const:
            raise RuleError(arg.pos, "the directions of 'group' must be the same for every player (e.g. all, orthogonal)")
        chosen = directions.const if directions.type is Type.DIRS else (directions.const,)
        rays = self.model.board.rays
        table = tuple(tuple(rays[d][s][0] for d in chosen if rays[d][s]) for s in range(self.n_sites)) + ((),)
        return self.src.const(table)

    def _fn_neighbours(self, e: ast.Call, scope):
        site = self.expect(self.compile(e.args[0], scope), (Type.SITE,), e.args[0], "the argument of 'neighbours'")
        return Code(f"{self.adjacency_table()}[{site.code}]", Type.SITES, site.deps, cost=site.cost + 1, size=self.max_degree)

    def _fn_on_full_line(self, e: ast.Call, scope):
        site = self.expect(self.compile(e.args[0], scope), (Type.SITE,), e.args[0], "the argument of 'on_full_line'")
        if not self.model.lines:
            raise RuleError(e.pos, "'on_full_line' needs the board's 'lines' in the YAML")
        through: list[list[tuple[int, ...]]] = [[] for _ in range(self.n_sites + 1)]
        for line in self.model.lines:
            for s in line:
                through[s].append(tuple(line))
        table = self.src.const(tuple(tuple(x) for x in through), key="lines")
        longest = max(len(x) for x in through)
        return Code(f"h_on_full_line(b, {table}, {site.code})", Type.BOOL, site.deps, cost=site.cost + longest * 8)


def _is_call(e: ast.Expr, fn: str, arity: int) -> bool:
    return isinstance(e, ast.Call) and e.fn == fn and len(e.args) == arity


def _always_a_player(code: str, scope: Scope) -> bool:
    """Whether `code` always holds a player (not none): `player`, `opponent`, and
    an element of `players`."""
    player = scope.register("player").site
    if code in (player, f"(1 - {player})"):
        return True
    return any(local.code == code and local.always for local in scope.locals.values())


def _var_type(var) -> Type:
    return Type.BOOL if var.type == "flag" else Type.INT


def _name_of(e: ast.Expr) -> str:
    return e.id if isinstance(e, ast.Name) else "this"


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


def is_name(e: ast.Expr, name: str) -> bool:
    return isinstance(e, ast.Name) and e.id == name


FUNCTIONS: dict[str, tuple[tuple[int, ...], str]] = {
    "count": ((1, 2), "count(SET) or count(SET, CONDITION) — how many elements (for which the condition holds, `it` being each)"),
    "exists": ((1, 2), "exists(SET) or exists(SET, CONDITION) — whether some element (meets the condition)"),
    "all": ((2,), "all(SET, CONDITION) — whether every element meets the condition (`it` being each)"),
    "sum": ((2,), "sum(SET, ATTRIBUTE) — total of an attribute over the pieces on the sites"),
    "max": ((2,), "max(SET, ATTRIBUTE) or max(A, B)"),
    "min": ((2,), "min(SET, ATTRIBUTE) or min(A, B)"),
    "unique_max": ((2,), "unique_max(SET, ATTRIBUTE) — the one site whose piece has the strictly highest value, else none"),
    "abs": ((1,), "abs(N)"),
    "first": ((1,), "first(SET) — the site of the set that comes first in board order, or none when it is empty"),
    "neighbour": ((2,), "neighbour(SITE, DIRECTION) — the adjacent site in that direction, or none"),
    "neighbours": ((1,), "neighbours(SITE) — the sites one edge away"),
    "ray": ((2, 3), "ray(SITE, DIRECTION) or ray(SITE, DIRECTION, CONDITION) — the sites from SITE (not included) towards the edge, nearest first; with a condition (`it` being each) only as long as it holds"),
    "beyond": ((3,), "beyond(SITE, DIRECTION, CONDITION) — the first site along the ray for which the condition (`it` being the site) fails, or none at the edge"),
    "opposite": ((1,), "opposite(DIRECTION) — the direction pointing the other way (grid only)"),
    "group": ((1, 2), "group(SITE) or group(SITE, DIRECTIONS) — the sites joined to SITE by neighbours (or neighbours in those directions) holding pieces of the same owner (SITE included; empty when SITE is)"),
    "on_full_line": ((1,), "on_full_line(SITE) — whether a declared line through SITE is filled by pieces of one owner"),
    "ahead": ((3,), "ahead(TRACK, SITE, N) — the site N steps after SITE along the track, or none (beyond the end of a track that does not loop, or SITE not on it)"),
    "along": ((3,), "along(TRACK, SITE, N) — the N sites after SITE along the track, in order (round and round a looping track)"),
    "steps_on": ((2,), "steps_on(TRACK, SITE) — how many steps SITE is from the track's first site, or -1 when it is not on it"),
}
