"""Names: locals, context names (`player`, `piece`, `to` ...), defines, and what the
YAML declares (variables, pools, options, regions, tracks, players, sites,
directions); `X[P]` of a per-player one.

A define is compiled where it is used, its parameters standing for the
arguments, which are evaluated first.
"""
from __future__ import annotations

import ast as py
from typing import Callable, Collection, Optional

from ..parsing import ast
from ..spelling import did_you_mean
from . import pyast
from .code import NOCONST, Code, Compiling, Handler, always_a_player, describe, name_of, standing_local, stands_alone
from .errors import CircularDefine, FollowOnError, RuleError
from .expr_tracks import TrackFamily
from .items import kind_copy_name
from .model import Pool, Region, Track, Variable
from .names import ALWAYS, CONTEXT_NAMES
from .registers import opponent
from .scope import Local, Register, Scope, copied
from .types import Dep, Type

# Where `board repetitions` means something: the scopes that make it available.
BOARD_REPETITIONS = "board repetitions"
# Where the board is the one the engine counted at the turn's start (`before each turn`).
TURN_START = "the turn's start"
# How deep a define may use defines that use defines ...: each is compiled where it
# is used.
MAX_DEFINE_DEPTH = 50
# the words `X is WORD` tests a site with, which are no sets of sites themselves
_SITE_TESTS = frozenset({"empty", "enemy", "own", "neutral"})
_CONTEXT_DEPS = {"piece": Dep.PIECE, "from": Dep.FROM, "to": Dep.TO, "target": Dep.TARGET,
                 "jumped": Dep.JUMPED, "site": Dep.SITE, "outcome": Dep.OUTCOME}


def _var_type(var: Variable) -> Type:
    return {"flag": Type.BOOL, "site": Type.SITE, "player": Type.PLAYER}.get(var.type, Type.INT)


def _missing(type_: Type) -> int:
    """What a per-player variable reads for a player not in play (none for a site or a player)."""
    return -1 if type_ in (Type.SITE, Type.PLAYER) else 0


# Names other systems give the count of turns or moves played: none is built in.
_TURN_COUNTS = frozenset({"ply", "plies", "turn_number", "move_number", "turn_count", "move_count",
                          "halfmove_clock", "fullmove_number"})
_TURN_COUNT_HINT = ("nothing counts turns or actions unless the rules do: declare a number variable "
                    "(format.md 2.11) and add 1 to it in the phase's 'after each turn' or 'after each action' (3.3)")


class NameFamily:
    def __init__(self, x: Compiling, defines: dict[str, ast.Define], tracks: TrackFamily):
        self.x = x
        self.defines = defines
        self.tracks = tracks
        self._define_stack: list[str] = []
        self.procedures: set[str] = set()  # names of procedures (statements, not values)
        self.uses_repetitions = False  # whether the rules read `repetitions` (positions are then kept)
        self.uses_board_repetitions = False  # whether they read `board repetitions` (boards are then kept)

    def nodes(self) -> dict[type, Handler]:
        return {ast.Name: self.name, ast.Index: self.index, ast.BoardRepetitions: self.board_repetitions}

    def functions(self) -> dict[str, Handler]:
        return {}

    # ------------------------------------------------------------ names
    def name(self, e: ast.Name, scope: Scope) -> Code:
        x = self.x
        name = e.id
        if name in scope.locals:
            local = scope.locals[name]
            if local.broken:
                raise FollowOnError(e.pos, f"'{name}' is not known: its 'let' is in error")
            if local.stands is not None:
                stands: Code = local.stands
                return copied(stands)  # (a copy: the argument's Code, as where the call stands)
            return Code(local.code, local.type, frozenset({Dep.LOCALS}), occupied=local.occupied, real=local.real,
                        distinct=local.distinct, bits=local.bits, hides=self._declared_as(name),
                        const=NOCONST if local.fixed is None else local.fixed[0])
        if name in CONTEXT_NAMES:
            return self._context(e, scope)
        if name in self.defines:
            params = self.defines[name].params
            if params:
                raise RuleError(e.pos, f"'{name}' takes {len(params)} argument(s): "
                                       f"write {name}({', '.join(p.id for p in params)})")
            return self.define(e, scope)
        m = x.model
        nothing = pyast.none()
        if name in m.variables:
            var = m.variables[name]
            if var.per_player:
                return Code(nothing, Type.PER_PLAYER, per_player=("var", var))
            return Code(pyast.sub(pyast.name("v"), var.offset), _var_type(var), stored=True)
        if name in m.pools:
            return Code(nothing, Type.PER_PLAYER, per_player=("pool", m.pools[name]))
        if name in m.options:
            value = m.options[name]
            if m.option_specs[name].type == "decimal":
                return x.const(value, Type.DECIMAL)
            if isinstance(value, bool):  # a flag option
                return x.const(value, Type.BOOL)
            return x.const(value, Type.INT if isinstance(value, int) else Type.STR)
        if name in m.regions:
            region = m.regions[name]
            if region.per_player:
                return Code(nothing, Type.PER_PLAYER, per_player=("region", region))
            return x.static_sites(region.sites[0])
        if name in m.tracks:
            track = m.tracks[name]
            if track.per_player:
                return Code(nothing, Type.PER_PLAYER, per_player=("track", track))
            return self.tracks.named(track)
        if name in m.players:
            return x.const(m.players.index(name), Type.PLAYER)
        if name in m.all_players:
            # A player who is not in play with these options: never matches.
            return x.const(-1, Type.PLAYER)
        if name in m.board.index:
            return x.const(m.board.index[name], Type.SITE)
        if name in m.direction_sets:
            per = m.direction_sets[name]
            if all(d == per[0] for d in per):
                return x.const(per[0], Type.DIRS, size=len(per[0]))
            player = pyast.name(scope.register("player").site)
            return Code(pyast.sub(x.src.const(tuple(per)), player), Type.DIRS, size=max(len(d) for d in per))
        if name in self.procedures:
            raise RuleError(
                e.pos, f"'{name}' is a procedure (statements to run), not a value",
                "a named expression is written with 'define NAME = EXPRESSION'",
            )
        if name in m.kinds:
            raise RuleError(e.pos, f"'{name}' is a piece kind, not a value: a kind is named after 'is', "
                                   "'create', 'promote ... to', 'by' and 'drop'",
                            f"to test a piece's kind write 'X is {name}' (format.md 3.12)")
        if name in _SITE_TESTS:
            raise RuleError(e.pos, f"'{name}' is a test of a site, not a set of sites: write 'X is {name}'",
                            f"to place on {name} sites, drop on `sites` (or a region) and let 'onto {name}:' "
                            f"take them; to count them, `count(sites, it is {name})`")
        raise RuleError(e.pos, f"unknown name '{name}'", self.hint(name, scope))

    def _declared_as(self, name: str) -> Optional[str]:
        """What `name` is declared as in the YAML ("direction 's'"), or None."""
        m = self.x.model
        declared: tuple[tuple[str, Collection[str]], ...] = (
            ("direction", m.direction_sets), ("player", m.all_players), ("region", m.regions),
            ("site", m.board.index), ("variable", m.variables), ("pool", m.pools), ("option", m.options),
            ("track", m.tracks))
        for what, names in declared:
            if name in names:
                return f"{what} '{name}'"
        return None

    def known_names(self, scope: Scope) -> list[str]:
        m = self.x.model
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
        nearest = did_you_mean(name, self.known_names(scope))
        if nearest is None and name in _TURN_COUNTS:
            return _TURN_COUNT_HINT
        return nearest or self._nearest_site(name) or scope.unknown_name_hint

    def _nearest_site(self, name: str) -> Optional[str]:
        """For a grid site off the board (`c0`, `i3`): the nearest one on it."""
        nearest = self.x.model.board.nearest_site(name)
        return f"did you mean '{nearest}'? ({name} is not on the board)" if nearest else None

    def _context(self, e: ast.Name, scope: Scope) -> Code:
        x = self.x
        name = e.id
        if name not in scope.available and name not in ALWAYS:
            raise RuleError(e.pos, f"'{name}' ({CONTEXT_NAMES[name]}) has no meaning in {scope.where}")
        n = x.n_players
        if name == "player":
            return Code(pyast.name(scope.register("player").site), Type.PLAYER)
        if name == "opponent":
            if n != 2:
                raise RuleError(e.pos, f"'opponent' needs exactly two players; this game has {n} in play")
            return Code(opponent(scope.register("player").site), Type.PLAYER)
        if name == "players":
            return x.const(tuple(range(n)), Type.PLAYERS, size=n)
        if name == "sites":
            return x.static_sites(range(x.n_sites))
        if name == "repetitions":
            self.uses_repetitions = True
            return Code(pyast.name(scope.register(name).site), Type.INT)
        reg: Register = scope.register(name)
        dep = _CONTEXT_DEPS[name]
        if name == "outcome":
            return Code(pyast.name(reg.site), scope.outcome_type, frozenset({dep}), stored=True)
        return Code(pyast.name(reg.site), Type.SITE, frozenset({dep}),
                    piece=None if reg.piece is None else pyast.name(reg.piece))

    def board_repetitions(self, e: ast.BoardRepetitions, scope: Scope) -> Code:
        """How many turns started with the board as it stands (counted by the engine
        at each turn's start, before its actions are listed)."""
        if BOARD_REPETITIONS not in scope.available:
            raise RuleError(e.pos, f"'board repetitions' has no meaning in {scope.where}: it means something only "
                                   "in before each turn, if no action, after each action, after each turn and "
                                   "forbid result")
        self.uses_board_repetitions = True
        counted: py.expr = pyast.helper("h_board_repetitions", pyast.name("s"))
        if TURN_START in scope.available:
            # (in `before each turn` the engine has just counted the board, `State.board_counted`:
            # read, not hashed again, and without a call; 0 where it was not counted)
            counted = pyast.or_(pyast.attr(pyast.name("s"), "board_counted"), counted)
        return Code(counted, Type.INT, frozenset({Dep.BOARD}), cost=2)

    # ------------------------------------------------------------ defines
    def define_call(self, e: ast.Call, scope: Scope) -> Code:
        """`flanks(s, d)`: the define's expression with its parameters standing for
        the arguments, evaluated where it is used (the arguments first)."""
        e, inner, bindings, arg_deps, cost, kinds_given = self._bound(e, scope)
        try:
            body = self.define(ast.Name(e.pos, e.fn), inner)
        except RuleError as err:
            if kinds_given:
                _kind_parameter_used_as_value(err, kinds_given)
            raise
        if scope.sink is not None:
            bindings = []  # already assigned in the sink, before the body's statements
        code = body.code if not bindings else pyast.sub(pyast.tuple_(*bindings, body.code), -1)
        # What the parameters stand for counts as what the define depends on.
        return Code(code, body.type, body.deps | arg_deps, cost=body.cost + cost, size=body.size,
                    piece=body.piece if body.type is Type.SITE and not bindings else None,
                    guarded=body.guarded if code is body.code else None)

    def bound_arguments(self, e: ast.Call, scope: Scope) -> Optional[tuple[ast.Expr, Scope]]:
        """(the define's expression, the scope its parameters stand for the arguments
        in) of a call compiled into `scope`'s sink (the arguments' statements written
        there), as `define_call` compiles it; None where a piece kind is given (the
        define's copy with it written in) or the sink is missing."""
        if scope.sink is None or kind_copy_name(e.fn, e.args, self.x.model.kinds) in self.defines \
                or len(e.args) != len(self.defines[e.fn].params):
            return None
        e, inner, *_ = self._bound(e, scope)
        return self.defines[e.fn].expr, inner

    def _bound(self, e: ast.Call, scope: Scope) -> tuple[ast.Call, Scope, list[py.expr], frozenset[Dep], int,
                                                         dict[str, str]]:
        """The arguments of a define's call compiled: (the call, with the kinds given
        written into the define's copy; the define's scope; the bindings to evaluate
        first where there is no sink; what they depend on; their cost; the kinds given)."""
        x = self.x
        define = self.defines[e.fn]
        if len(e.args) != len(define.params):
            wanted = ", ".join(p.id for p in define.params)
            raise RuleError(e.pos, f"'{e.fn}' takes {len(define.params)} argument(s) ({wanted}), found {len(e.args)}")
        kinds_given: dict[str, str] = {}  # parameter -> the piece kind given it
        copy_name = kind_copy_name(e.fn, e.args, x.model.kinds)
        if copy_name is not None and copy_name in self.defines:
            # (piece kinds given: the copy with them written in, items.specialise_kind_arguments)
            given = [arg for arg in e.args if isinstance(arg, ast.Name) and arg.id in x.model.kinds]
            for kind in given:
                if kind.id in scope.locals:
                    raise RuleError(kind.pos, f"'{kind.id}' is both a local and a piece kind: as an argument it "
                                              "would be ambiguous", "rename the local")
            kinds_given = {param.id: arg.id for param, arg in zip(define.params, e.args) if arg in given}
            e = ast.Call(e.pos, copy_name, [arg for arg in e.args if all(arg is not kind for kind in given)])
            define = self.defines[copy_name]
        inner = scope.child()
        bindings: list[py.expr] = []
        arg_deps: frozenset[Dep] = frozenset()
        cost = 0
        for param, arg in zip(define.params, e.args):
            value = x.compile(arg, scope)
            if value.type is Type.PER_PLAYER:
                raise RuleError(arg.pos, f"'{name_of(arg)}' differs per player: say whose, e.g. {name_of(arg)}[player]")
            if stands_alone(value, x.src):
                inner.locals[param.id] = standing_local(value)
                cost += value.cost
                continue
            first, again = x.share(value, scope)
            if not pyast.same(first, again):
                bindings.append(first)
            fixed = (value.const,) if value.is_const and value.type in (Type.DIR, Type.DIRS) else None
            bits = value.bits if pyast.same(again, value.code) else None
            inner.locals[param.id] = Local(again, value.type, occupied=value.occupied, real=value.real, fixed=fixed,
                                           distinct=value.distinct, bits=bits,
                                           region=value.static_sites if pyast.same(again, value.code) else None)
            arg_deps |= value.deps
            cost += value.cost
        return e, inner, bindings, arg_deps, cost, kinds_given

    def define(self, e: ast.Name, scope: Scope) -> Code:
        return self.within_define(e, lambda: self.x.compile(self.defines[e.id].expr, scope))

    def within_define(self, e: ast.Name, compile_body: Callable[[], Code]) -> Code:
        """`compile_body()` (what the define `e` names, compiled as its use needs)
        with the define's checks: a circle of defines, their depth, and an error
        inside it told with where the define is used."""
        if e.id in self._define_stack:
            raise CircularDefine(e.pos, e.id, self._define_stack + [e.id])
        if len(self._define_stack) >= MAX_DEFINE_DEPTH:
            raise RuleError(e.pos, f"defines refer to defines more than {MAX_DEFINE_DEPTH} deep "
                                   f"({self._define_stack[0]} -> ... -> {e.id})")
        self._define_stack.append(e.id)
        try:
            return compile_body()
        except RuleError as err:
            if not (isinstance(err, CircularDefine) and err.define in self._define_stack):
                err.define_uses.append((e.id, e.pos))
            if len(self._define_stack) == 1 and err.define_uses:
                # The define is fine in one place and wrong in another: say where,
                # from the define holding the error out to the rule using it.
                used = _uses(err.define_uses)
                err.hint = f"{err.hint}; {used}" if err.hint else used
            raise
        finally:
            self._define_stack.pop()

    # ------------------------------------------------------------ X[player]
    def index(self, e: ast.Index, scope: Scope) -> Code:
        x = self.x
        per_player_directions = self._direction_set(e.obj, scope)
        if per_player_directions is not None:
            return self._directions_of(per_player_directions, e, scope)
        obj = x.compile(e.obj, scope)
        if obj.type is not Type.PER_PLAYER or obj.per_player is None:
            raise RuleError(e.pos, f"only per-player variables, pools, regions and direction sets can be indexed, "
                                   f"not {describe(obj)}")
        idx = x.expect(x.compile(e.index, scope), (Type.PLAYER,), e.index, "the index")
        kind, thing = obj.per_player
        deps, cost = idx.deps, idx.cost + 1
        variables = pyast.name("v")
        if isinstance(thing, (Variable, Pool)):
            type_ = _var_type(thing) if isinstance(thing, Variable) else Type.INT
            if idx.is_const:
                if idx.const < 0:
                    return x.const(_missing(type_), type_)
                return Code(pyast.sub(variables, thing.offset + idx.const), type_, deps, cost=cost, stored=True)
            # (the read is of one of the variable's own entries wherever it runs: a
            # loop writing others leaves it alone, pyast.sub_within)
            last = thing.offset + x.n_players - 1
            if always_a_player(idx.code, scope):
                return Code(pyast.sub_within(variables, pyast.add(pyast.num(thing.offset), idx.code), thing.offset,
                                             last), type_, deps, cost=cost, stored=True)
            first, again = x.share(idx, scope)
            read = pyast.sub_within(variables, pyast.add(pyast.num(thing.offset), again), thing.offset, last)
            return Code(pyast.ifexp(read, pyast.compare(first, ">=", pyast.num(0)), pyast.num(_missing(type_))),
                        type_, deps, cost=cost)
        if isinstance(thing, Track):
            return self.tracks.of_player(thing, idx, scope, e.index.pos)
        region: Region = thing
        if idx.is_const:
            return x.static_sites(() if idx.const < 0 else region.sites[idx.const])
        sites = x.src.const(tuple(tuple(s) for s in region.sites) + ((),))
        masks = x.src.const(tuple(tuple(m) for m in region.masks) + (tuple([False] * (x.n_sites + 1)),))
        size = max((len(s) for s in region.sites), default=0)
        return Code(pyast.sub(sites, idx.code), Type.SITES, deps, cost=cost, size=size,
                    region_by_player=(masks, idx.code))

    def _direction_set(self, e: ast.Expr, scope: Scope) -> Optional[list[tuple[int, ...]]]:
        """The direction indices, per player, of a direction set's name (`forward`,
        `backward_diagonal`, a set of `directions:`), else None: the name is read as
        `name` reads it, so a local, define, variable ... of that name comes first."""
        if not isinstance(e, ast.Name) or e.id in scope.locals or e.id in CONTEXT_NAMES or e.id in self.defines:
            return None
        m = self.x.model
        if any(e.id in names for names in (m.variables, m.pools, m.options, m.regions, m.tracks, m.players,
                                           m.all_players, m.board.index)):
            return None
        return m.direction_sets.get(e.id)

    def _directions_of(self, per: list[tuple[int, ...]], e: ast.Index, scope: Scope) -> Code:
        """`forward[P]`: a direction set as player P sees it (none for a player not in play)."""
        x = self.x
        idx = x.expect(x.compile(e.index, scope), (Type.PLAYER,), e.index, "the index")
        if idx.is_const:
            chosen = per[idx.const] if idx.const >= 0 else ()
            return x.const(chosen, Type.DIRS, size=len(chosen))
        # (-1, a player not in play, reads the empty set at the end of the table)
        table = tuple(per) if always_a_player(idx.code, scope) else tuple(per) + ((),)
        return Code(pyast.sub(x.src.const(table), idx.code), Type.DIRS, idx.deps, cost=idx.cost + 1,
                    size=max(len(d) for d in per))


def _uses(uses: list[tuple[str, ast.Pos]]) -> str:
    """`'inner' is used at F:L:C, in 'outer', used at F:L:C`: the chain of defines an
    error is inside (the middle left out when it is long)."""
    def at(name: str, pos: ast.Pos) -> str:
        return f"'{name}', used at {pos.file}:{pos.line}:{pos.column}"
    (name, pos), rest = uses[0], uses[1:]
    outer = [at(*use) for use in rest]
    if len(outer) > 3:
        outer = outer[:1] + ["..."] + outer[-1:]
    return ", in ".join([f"'{name}' is used at {pos.file}:{pos.line}:{pos.column}"] + outer)


def _kind_parameter_used_as_value(err: RuleError, kinds_given: dict[str, str]) -> None:
    """A define's parameter given a piece kind and read as a value: said of the
    parameter (one error for every kind given), the kind in the hint."""
    for param, kind in kinds_given.items():
        if err.message.startswith(f"'{kind}' is a piece kind, not a value"):
            err.message = err.message.replace(f"'{kind}' is a piece kind", f"'{param}' is given a piece kind", 1)
            was = f"to test a piece's kind write 'X is {kind}' (format.md 3.12)"
            now = (f"'{param}' is given '{kind}' here; a define's parameter given a kind stands only where a kind "
                   f"is named: 'X is {param}', or passed on to another define (format.md 3.13)")
            err.hint = (err.hint or was).replace(was, now)
            return
