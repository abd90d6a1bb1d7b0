"""Expressions of the rules language → closures over a `Frame`.

Every name is resolved here, once: a variable becomes a slot of `state.vars`, an
attribute a position in the piece tuple, a region a boolean mask, an option a
constant. Constant sub-expressions are folded, so `capture == "top"` costs nothing
at run time. Types are checked as we go; a mistake raises `RuleError` at the
offending node.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Callable, Optional

from ..parsing import ast as A
from ..runtime.state import KIND, OWNER, STONES
from .model import GameModel

NOCONST = object()

# Reads of the frame's registers. attrgetter is called without a Python frame, so
# every expression that reads `to`, `piece`, `player`, ... costs one call less.
_PLAYER = attrgetter("p")
_AT = attrgetter("at")
_PC = attrgetter("pc")
_FROM = attrgetter("frm")
_TO = attrgetter("to")
_TG = attrgetter("tg")
_JS = attrgetter("js")
_JP = attrgetter("jp")
_SITE = attrgetter("site")
_OUT = attrgetter("out")

# How deep a define may use defines that use defines ...: each is compiled where it is
# used, so the depth is paid in Python stack frames.
MAX_DEFINE_DEPTH = 50

# Names the rules can use, and where they are meaningful.
CONTEXT_NAMES = {
    "player": "the player deciding now",
    "opponent": "the other player (two-player games)",
    "players": "all players in play",
    "piece": "the acting piece",
    "from": "the site the action starts from",
    "to": "the landing or chosen site",
    "target": "the piece that stood on 'to' before the action",
    "jumped": "the piece jumped over",
    "site": "the site a 'forbid' condition is asked about",
    "outcome": "the outcome of a chance event",
    "sites": "all sites of the board",
}
BUILTIN_PROPERTIES = ("owner", "kind", "height", "value")
PIECE_RELATIONS = ("empty", "occupied", "enemy", "own", "neutral")


class RuleError(Exception):
    def __init__(self, pos: A.Pos, message: str, hint: Optional[str] = None):
        super().__init__(message)
        self.pos = pos
        self.message = message
        self.hint = hint


def name_pos(pos: A.Pos, name: str) -> A.Pos:
    """Where `name` is written when it is the last word of the construct at `pos`
    (`piece.rnage`, `promote piece to chef`); `pos` itself when that is unknown."""
    if pos.end_line and pos.end_column and pos.end_column - len(name) >= 1:
        return A.Pos(pos.file, pos.end_line, pos.end_column - len(name), pos.end_line, pos.end_column)
    return pos


@dataclass
class Value:
    fn: Callable[[Any], Any]
    type: str
    deps: frozenset = frozenset()
    const: Any = NOCONST
    # For 'site' values: frame -> the piece on that site (or a snapshot), or None.
    piece: Optional[Callable[[Any], Any]] = None
    # For static 'sites' values: the sites and their membership mask.
    static_sites: Optional[tuple] = None
    mask: Optional[list] = None
    # For a per-player thing not yet indexed: ("var"|"pool"|"region", object).
    per_player: Optional[tuple] = None
    # For the context pieces: the frame slot holding the piece ("pc", "tg", "jp"),
    # so that attribute reads compile to a single index.
    piece_slot: Optional[str] = None
    # For a variable (or a per-player one at a fixed player): its index in `state.vars`,
    # so that comparing it with a constant compiles to a single closure.
    var_slot: Optional[int] = None
    # For an attribute of the acting piece (`piece.ATTR`): its index in the piece tuple,
    # so that a generator holding the piece can read it without setting the frame up.
    piece_attr: Optional[int] = None
    # For `X is KIND` (or `X is A or X is B`): (the getter of X's piece, the kinds,
    # whether the piece is always there), so that alternatives fuse into one test.
    kind_test: Optional[tuple] = None
    # For a player given relative to the one deciding (`player`, `opponent`):
    # player_map[deciding player] = the player meant.
    player_map: Optional[tuple] = None

    @property
    def is_const(self) -> bool:
        return self.const is not NOCONST


@dataclass
class Scope:
    """What an expression may refer to where it stands."""

    available: frozenset  # context names from CONTEXT_NAMES usable here
    where: str  # human description, for error messages ("a forbid condition")
    locals: dict = field(default_factory=dict)  # name -> (slot, type)
    slot_counter: list = field(default_factory=lambda: [0])
    # True where an acting piece always exists (the actions of moving and dropping
    # patterns): `piece` is then read without checking for none.
    piece_always: bool = False
    # Whether `then DECISION` can start a follow-up here.
    followups: bool = False

    def child(self, **extra) -> "Scope":
        return Scope(
            self.available | frozenset(extra.get("add", ())), self.where, dict(self.locals), self.slot_counter,
            self.piece_always, self.followups,
        )

    def new_slot(self) -> int:
        self.slot_counter[0] += 1
        return self.slot_counter[0] - 1


def const(value: Any, type_: str, **kw) -> Value:
    return Value(lambda f, _v=value: _v, type_, const=value, **kw)


class ExpressionCompiler:
    def __init__(self, model: GameModel, defines: dict[str, A.Define]):
        self.m = model
        self.defines = defines
        self._define_stack: list[str] = []
        self.used_names: set[str] = set()
        n = model.board.size
        self.n_sites = n
        self.all_sites = tuple(range(n))
        self.all_mask = [True] * n + [False]
        self.kind_values = [k.value for k in sorted(model.kinds.values(), key=lambda k: k.index)]

    # ------------------------------------------------------------ entry points
    def compile(self, e: A.Expr, scope: Scope) -> Value:
        method = getattr(self, "_" + type(e).__name__)
        try:
            return method(e, scope)
        except RecursionError:
            # A backstop for what the parser's and the define limits let through
            # (long chains of defines of long expressions): an error, not a crash.
            raise RuleError(e.pos, "this expression is nested too deeply to compile", "split it into smaller defines") from None

    def boolean(self, e: A.Expr, scope: Scope) -> Value:
        """Compile as a condition: sites and players count as true when present."""
        return self.as_bool(self.compile(e, scope), e)

    def as_bool(self, v: Value, e: A.Expr) -> Value:
        if v.type == "bool":
            return v
        if v.type in ("site", "player"):
            if v.is_const:
                return const(v.const != -1, "bool")
            fn = v.fn
            return Value(lambda f: fn(f) != -1, "bool", v.deps)
        if v.type == "int":
            if v.is_const:
                return const(bool(v.const), "bool")
            fn = v.fn
            return Value(lambda f: fn(f) != 0, "bool", v.deps)
        if v.type == "none":
            return const(False, "bool")
        raise RuleError(e.pos, f"expected a condition, found {describe(v)}")

    def expect(self, v: Value, types: tuple, e: A.Expr, what: str) -> Value:
        if v.type not in types:
            raise RuleError(e.pos, f"{what} must be {' or '.join(_TYPE_WORDS[t] for t in types)}, found {describe(v)}")
        return v

    # ------------------------------------------------------------ literals
    def _Num(self, e: A.Num, scope):
        return const(e.value, "int")

    def _Str(self, e: A.Str, scope):
        return const(e.value, "str")

    def _Bool(self, e: A.Bool, scope):
        return const(e.value, "bool")

    def _NoneLit(self, e, scope):
        return const(-1, "none")

    def _ListLit(self, e: A.ListLit, scope):
        items = [self.compile(x, scope) for x in e.items]
        for x, item in zip(e.items, items):
            self.expect(item, ("site",), x, "an element of a list")
        if all(i.is_const for i in items):
            sites = tuple(i.const for i in items if i.const != -1)
            return self.static_sites(sites)
        fns = [i.fn for i in items]
        deps = frozenset().union(*(i.deps for i in items))
        return Value(lambda f: [s for s in (g(f) for g in fns) if s != -1], "sites", deps)

    def static_sites(self, sites) -> Value:
        sites = tuple(sorted(set(sites)))
        mask = [False] * (self.n_sites + 1)
        for s in sites:
            mask[s] = True
        return Value(lambda f, _s=sites: _s, "sites", const=sites, static_sites=sites, mask=mask)

    # ------------------------------------------------------------ names
    def _Name(self, e: A.Name, scope: Scope) -> Value:
        name = e.id
        self.used_names.add(name)
        if name in scope.locals:
            slot, type_ = scope.locals[name]
            if type_ == "site":
                # A local may hold none (-1), e.g. `let x = neighbour(to, n)` at the edge.
                return Value(
                    lambda f: f.loc[slot], "site", frozenset({"locals"}),
                    piece=lambda f: f.b[s] if (s := f.loc[slot]) != -1 else None,
                )
            return Value(lambda f: f.loc[slot], type_, frozenset({"locals"}))
        if name in CONTEXT_NAMES:
            return self._context(e, scope)
        if name in self.defines:
            params = self.defines[name].params
            if params:
                raise RuleError(e.pos, f"'{name}' takes {len(params)} argument(s): write {name}({', '.join(p.id for p in params)})")
            return self._define(e, scope)
        m = self.m
        if name in m.variables:
            var = m.variables[name]
            if var.per_player:
                return Value(_unindexed, "perplayer", per_player=("var", var))
            off = var.offset
            return Value(lambda f: f.v[off], _var_type(var), var_slot=off)
        if name in m.pools:
            return Value(_unindexed, "perplayer", per_player=("pool", m.pools[name]))
        if name in m.options:
            value = m.options[name]
            return const(value, "int" if isinstance(value, int) else "str")
        if name in m.regions:
            region = m.regions[name]
            if region.per_player:
                return Value(_unindexed, "perplayer", per_player=("region", region))
            v = self.static_sites(region.sites[0])
            return v
        if name in m.players:
            return const(m.players.index(name), "player")
        if name in m.all_players:
            # A player who is not in play with these options: never matches.
            return const(-1, "player")
        if name in m.board.index:
            return const(m.board.index[name], "site", piece=_piece_on_const(m.board.index[name]))
        if name in m.direction_sets:
            per = m.direction_sets[name]
            return Value(lambda f: per[f.p], "dirs", const=NOCONST)
        raise RuleError(e.pos, f"unknown name '{name}'", self.hint(name, scope))

    def known_names(self, scope: Scope) -> list[str]:
        m = self.m
        return (
            list(scope.locals)
            + [n for n in CONTEXT_NAMES if n in scope.available]
            + list(self.defines)
            + list(m.variables)
            + list(m.pools)
            + list(m.options)
            + list(m.regions)
            + list(m.all_players)
            + list(m.direction_sets)
        )

    def hint(self, name: str, scope: Scope) -> Optional[str]:
        from ..validation.diagnostics import suggest

        best = suggest(name, self.known_names(scope))
        return f"did you mean '{best}'?" if best else None

    def _context(self, e: A.Name, scope: Scope) -> Value:
        name = e.id
        if name not in scope.available and name not in ("player", "players", "opponent", "sites"):
            raise RuleError(e.pos, f"'{name}' ({CONTEXT_NAMES[name]}) has no meaning in {scope.where}")
        if name == "player":
            return Value(_PLAYER, "player", player_map=tuple(range(self.m.player_count)))
        if name == "opponent":
            if self.m.player_count != 2:
                raise RuleError(e.pos, f"'opponent' needs exactly two players; this game has {self.m.player_count} in play")
            return Value(lambda f: 1 - f.p, "player", player_map=(1, 0))
        if name == "players":
            ps = tuple(range(self.m.player_count))
            return Value(lambda f: ps, "players", const=ps)
        if name == "sites":
            return self.static_sites(self.all_sites)
        if name == "piece":
            return Value(_AT, "site", frozenset({"piece"}), piece=_PC, piece_slot="pc")
        if name == "from":
            return Value(_FROM, "site", frozenset({"from"}), piece=lambda f: f.b[f.frm])
        if name == "to":
            return Value(_TO, "site", frozenset({"to"}), piece=lambda f: f.b[f.to])
        if name == "target":
            return Value(_TO, "site", frozenset({"target"}), piece=_TG, piece_slot="tg")
        if name == "jumped":
            return Value(_JS, "site", frozenset({"jumped"}), piece=_JP, piece_slot="jp")
        if name == "site":
            return Value(_SITE, "site", frozenset({"site"}), piece=lambda f: f.b[f.site])
        if name == "outcome":
            return Value(_OUT, scope.locals.get("$outcome_type", (0, "int"))[1], frozenset({"outcome"}))
        raise AssertionError(name)

    def _define_call(self, e: A.Call, scope: Scope) -> Value:
        """`flanks(s, d)`: the define's expression with its parameters bound to the
        arguments, evaluated where it is used (the arguments first)."""
        define = self.defines[e.fn]
        self.used_names.add(e.fn)
        if len(e.args) != len(define.params):
            wanted = ", ".join(p.id for p in define.params)
            raise RuleError(e.pos, f"'{e.fn}' takes {len(define.params)} argument(s) ({wanted}), found {len(e.args)}")
        inner = scope.child()
        bindings = []
        arg_deps: frozenset = frozenset()
        for param, arg in zip(define.params, e.args):
            value = self.compile(arg, scope)
            if value.type == "perplayer":
                raise RuleError(arg.pos, f"'{_name_of(arg)}' differs per player: say whose, e.g. {_name_of(arg)}[player]")
            slot = inner.new_slot()
            inner.locals[param.id] = (slot, value.type)
            bindings.append((slot, value.fn))
            arg_deps |= value.deps
        body = self._define(A.Name(e.pos, e.fn), inner)
        bf = body.fn

        def bind(f):
            loc = f.loc
            for slot, arg in bindings:
                loc[slot] = arg(f)

        def fn(f):
            bind(f)
            return bf(f)

        # What the parameters stand for counts as what the define depends on.
        result = Value(fn, body.type, body.deps | arg_deps)
        if body.piece is not None:
            bp = body.piece

            def piece(f):
                bind(f)
                return bp(f)

            result.piece = piece
        return result

    def _define(self, e: A.Name, scope: Scope) -> Value:
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

    # ------------------------------------------------------------ access
    def _Attr(self, e: A.Attr, scope: Scope) -> Value:
        obj = self.compile(e.obj, scope)
        if obj.type != "site":
            raise RuleError(e.pos, f"'.{e.name}' needs a piece or a site, found {describe(obj)}")
        get = obj.piece
        deps = obj.deps
        name = e.name
        if name == "owner":
            return Value(lambda f: (p[OWNER] if (p := get(f)) is not None else -1), "player", deps)
        if name == "kind":
            raise RuleError(e.pos, "compare kinds with 'is', e.g. 'piece is KIND'")
        if name == "height":
            return Value(lambda f: (len(p[STONES]) if p[STONES] else 1) if (p := get(f)) is not None else 0, "int", deps)
        if name == "value":
            values = self.kind_values
            return Value(lambda f: values[p[KIND]] if (p := get(f)) is not None else 0, "int", deps)
        attr = self.m.attributes.get(name)
        if attr is None:
            from ..validation.diagnostics import suggest

            best = suggest(name, list(self.m.attributes) + list(BUILTIN_PROPERTIES))
            raise RuleError(name_pos(e.pos, name), f"unknown attribute '{name}'", f"did you mean '{best}'?" if best else None)
        i = attr.index
        type_ = "int" if attr.type == "int" else "bool"
        missing = 0 if attr.type == "int" else False
        if obj.piece_slot == "pc" and scope.piece_always:
            return Value(lambda f: f.pc[i], type_, deps, piece_attr=i)
        if obj.piece_slot == "pc":
            return Value(lambda f: p[i] if (p := f.pc) is not None else missing, type_, deps, piece_attr=i)
        if obj.piece_slot == "tg":
            return Value(lambda f: p[i] if (p := f.tg) is not None else missing, type_, deps)
        if obj.piece_slot == "jp":
            return Value(lambda f: p[i] if (p := f.jp) is not None else missing, type_, deps)
        return Value(lambda f: p[i] if (p := get(f)) is not None else missing, type_, deps)

    def _Index(self, e: A.Index, scope: Scope) -> Value:
        obj = self.compile(e.obj, scope)
        if obj.type != "perplayer":
            raise RuleError(e.pos, f"only per-player variables, pools and regions can be indexed, not {describe(obj)}")
        idx = self.expect(self.compile(e.index, scope), ("player",), e.index, "the index")
        kind, thing = obj.per_player
        ifn = idx.fn
        deps = idx.deps
        if kind in ("var", "pool"):
            off = thing.offset
            type_ = _var_type(thing) if kind == "var" else "int"
            if idx.is_const:
                slot = off + idx.const
                return Value(lambda f: f.v[slot], type_, deps, var_slot=slot)
            return Value(lambda f: f.v[off + ifn(f)], type_, deps)
        region = thing
        if idx.is_const:
            if idx.const < 0:
                return self.static_sites(())
            return self.static_sites(region.sites[idx.const])
        sites, masks = region.sites, region.masks
        v = Value(lambda f: sites[ifn(f)], "sites", deps)
        # by_decider[deciding player]: the mask of the region meant, when the index
        # is relative to the player deciding (one look-up instead of a call)
        by_decider = tuple(masks[i] for i in idx.player_map) if idx.player_map is not None else None
        v.per_player = ("region_indexed", (masks, ifn, by_decider))
        return v

    # ------------------------------------------------------------ operators
    def _Neg(self, e: A.Neg, scope):
        v = self.expect(self.compile(e.operand, scope), ("int",), e.operand, "the operand of '-'")
        if v.is_const:
            return const(-v.const, "int")
        fn = v.fn
        return Value(lambda f: -fn(f), "int", v.deps)

    def _BinOp(self, e: A.BinOp, scope):
        left = self.compile(e.left, scope)
        right = self.compile(e.right, scope)
        if left.type == "sites" and e.op in "+-":
            self.expect(right, ("sites", "site"), e.right, f"the right side of '{e.op}'")
            return self._site_set_op(e.op, left, right)
        self.expect(left, ("int",), e.left, f"the left side of '{e.op}'")
        self.expect(right, ("int",), e.right, f"the right side of '{e.op}'")
        op = _ARITH[e.op]
        if e.op in ("//", "%") and right.is_const and right.const == 0:
            raise RuleError(e.right.pos, "division by zero")
        if left.is_const and right.is_const:
            if e.op in ("//", "%") and right.const == 0:
                raise RuleError(e.pos, "division by zero")
            return const(op(left.const, right.const), "int")
        lf, rf = left.fn, right.fn
        if e.op in ("//", "%"):
            # A zero divisor at run time is a rules bug; report it instead of crashing.
            def safe(f, lf=lf, rf=rf, op=op, pos=e.pos):
                d = rf(f)
                if d == 0:
                    raise RuleError(pos, "division by zero")
                return op(lf(f), d)

            return Value(safe, "int", left.deps | right.deps)
        if right.is_const:
            c = right.const
            if e.op == "+":
                return Value(lambda f: lf(f) + c, "int", left.deps)
            if e.op == "-":
                return Value(lambda f: lf(f) - c, "int", left.deps)
        return Value(lambda f: op(lf(f), rf(f)), "int", left.deps | right.deps)

    def _site_set_op(self, op: str, left: Value, right: Value) -> Value:
        if right.type == "site":
            right = self._site_as_set(right)
        if left.static_sites is not None and right.static_sites is not None:
            a, b = set(left.static_sites), set(right.static_sites)
            return self.static_sites(a | b if op == "+" else a - b)
        lf, rf = left.fn, right.fn
        if op == "+":
            return Value(lambda f: sorted(set(lf(f)) | set(rf(f))), "sites", left.deps | right.deps)
        return Value(lambda f: [s for s in lf(f) if s not in set(rf(f))], "sites", left.deps | right.deps)

    def _site_as_set(self, v: Value) -> Value:
        if v.is_const:
            return self.static_sites(() if v.const == -1 else (v.const,))
        fn = v.fn
        return Value(lambda f: [s] if (s := fn(f)) != -1 else [], "sites", v.deps)

    def _Compare(self, e: A.Compare, scope):
        left = self.compile(e.left, scope)
        right = self.compile(e.right, scope)
        op = e.op
        lt, rt = left.type, right.type
        if op in ("<", "<=", ">", ">="):
            self.expect(left, ("int",), e.left, f"the left side of '{op}'")
            self.expect(right, ("int",), e.right, f"the right side of '{op}'")
        elif not _comparable(lt, rt):
            raise RuleError(e.pos, f"cannot compare {describe(left)} with {describe(right)}")
        if lt == "str" and right.is_const and left.is_const is False:
            pass
        if lt == "str" or rt == "str":
            self._check_option_value(e, left, right)
        fn = _COMPARE[op]
        if left.is_const and right.is_const:
            return const(fn(left.const, right.const), "bool")
        lf, rf = left.fn, right.fn
        deps = left.deps | right.deps
        if right.is_const:
            c = right.const
            if left.var_slot is not None:
                return Value(_VAR_COMPARE[op](left.var_slot, c), "bool", deps)
            if op == "==":
                return Value(lambda f: lf(f) == c, "bool", deps)
            if op == "!=":
                return Value(lambda f: lf(f) != c, "bool", deps)
            if op == ">=":
                return Value(lambda f: lf(f) >= c, "bool", deps)
            return Value(lambda f: fn(lf(f), c), "bool", deps)
        return Value(lambda f: fn(lf(f), rf(f)), "bool", deps)

    def _check_option_value(self, e: A.Compare, left: Value, right: Value) -> None:
        """`capture == "tpo"` is always false: catch the misspelt option value."""
        for side, other in ((e.left, e.right), (e.right, e.left)):
            if isinstance(side, A.Name) and side.id in self.m.option_specs and isinstance(other, A.Str):
                spec = self.m.option_specs[side.id]
                if spec.values is not None and other.value not in spec.values:
                    from ..validation.diagnostics import suggest

                    best = suggest(other.value, [str(v) for v in spec.values])
                    allowed = ", ".join(str(v) for v in spec.values)
                    raise RuleError(
                        other.pos,
                        f"option '{side.id}' is never \"{other.value}\" (its values: {allowed})",
                        f"did you mean '{best}'?" if best else None,
                    )

    def _And(self, e: A.And, scope):
        left = self.boolean(e.left, scope)
        right = self.boolean(e.right, scope)
        if left.is_const:
            return right if left.const else const(False, "bool")
        if right.is_const:
            return left if right.const else const(False, "bool")
        lf, rf = left.fn, right.fn
        return Value(lambda f: lf(f) and rf(f), "bool", left.deps | right.deps)

    def _Or(self, e: A.Or, scope):
        left = self.boolean(e.left, scope)
        right = self.boolean(e.right, scope)
        if left.is_const:
            return const(True, "bool") if left.const else right
        if right.is_const:
            return const(True, "bool") if right.const else left
        a, b = left.kind_test, right.kind_test
        if a is not None and b is not None and a[0] is b[0]:
            # `piece is A or piece is B`: one test against a set of kinds
            test = (a[0], a[1] | b[1], a[2] and b[2])
            return Value(self._kind_set_test(test), "bool", left.deps | right.deps, kind_test=test)
        lf, rf = left.fn, right.fn
        return Value(lambda f: lf(f) or rf(f), "bool", left.deps | right.deps)

    def _Not(self, e: A.Not, scope):
        v = self.boolean(e.operand, scope)
        if v.is_const:
            return const(not v.const, "bool")
        fn = v.fn
        return Value(lambda f: not fn(f), "bool", v.deps)

    def _IfExp(self, e: A.IfExp, scope):
        cond = self.boolean(e.cond, scope)
        a = self.compile(e.then, scope)
        b = self.compile(e.otherwise, scope)
        if not _comparable(a.type, b.type):
            raise RuleError(e.pos, f"both branches must have the same type: {describe(a)} / {describe(b)}")
        if cond.is_const:
            return a if cond.const else b
        type_ = a.type if a.type != "none" else b.type
        cf, af, bf = cond.fn, a.fn, b.fn
        v = Value(lambda f: af(f) if cf(f) else bf(f), type_, cond.deps | a.deps | b.deps)
        if type_ == "site":
            ap = a.piece or (lambda f: None)
            bp = b.piece or (lambda f: None)
            v.piece = lambda f: ap(f) if cf(f) else bp(f)
        return v

    def _Is(self, e: A.Is, scope):
        obj = self.compile(e.obj, scope)
        if obj.type != "site":
            raise RuleError(e.obj.pos, f"'is' needs a piece or a site, found {describe(obj)}")
        get = obj.piece
        what = e.what
        if what in self.m.kinds:
            test = (get, frozenset({self.m.kinds[what].index}), obj.piece_slot == "pc" and scope.piece_always)
            if not e.negated:
                return Value(self._kind_set_test(test), "bool", obj.deps, kind_test=test)
            fn = self._kind_set_test(test)
        elif what == "empty":
            # No site (`neighbour` beyond the edge) is not an empty site.
            at = obj.fn
            fn = lambda f: get(f) is None and at(f) != -1  # noqa: E731
        elif what == "occupied":
            fn = lambda f: get(f) is not None  # noqa: E731
        elif what == "enemy":
            fn = lambda f: (p := get(f)) is not None and p[OWNER] >= 0 and p[OWNER] != f.p  # noqa: E731
        elif what == "own":
            fn = lambda f: (p := get(f)) is not None and p[OWNER] == f.p  # noqa: E731
        elif what == "neutral":
            fn = lambda f: (p := get(f)) is not None and p[OWNER] < 0  # noqa: E731
        else:
            from ..validation.diagnostics import suggest

            best = suggest(what, list(self.m.kinds) + list(PIECE_RELATIONS))
            raise RuleError(
                e.what_pos,
                f"'{what}' is neither a piece kind nor one of {', '.join(PIECE_RELATIONS)}",
                f"did you mean '{best}'?" if best else None,
            )
        if e.negated:
            inner = fn
            fn = lambda f: not inner(f)  # noqa: E731
        return Value(fn, "bool", obj.deps)

    def _kind_set_test(self, test: tuple) -> Callable:
        """The closure of a kind test (get, kinds, always): whether the piece is of one
        of the kinds."""
        get, kinds, always = test
        if len(kinds) == 1:
            (k,) = kinds
            if always:
                return lambda f: f.pc[KIND] == k
            return lambda f: (p := get(f)) is not None and p[KIND] == k
        member = [i in kinds for i in range(len(self.m.kinds))]
        if always:
            return lambda f: member[f.pc[KIND]]
        return lambda f: (p := get(f)) is not None and member[p[KIND]]

    def _In(self, e: A.In, scope):
        item = self.compile(e.item, scope)
        coll = self.compile(e.collection, scope)
        if coll.type == "perplayer":
            raise RuleError(e.collection.pos, f"'{_name_of(e.collection)}' differs per player: say whose, e.g. {_name_of(e.collection)}[player]")
        if coll.type == "players":
            self.expect(item, ("player",), e.item, "the left side of 'in'")
        else:
            self.expect(coll, ("sites",), e.collection, "the right side of 'in'")
            self.expect(item, ("site",), e.item, "the left side of 'in'")
        itf = item.fn
        deps = item.deps | coll.deps
        if coll.mask is not None:
            mask = coll.mask
            if item.is_const:
                return const(mask[item.const] != e.negated, "bool")
            fn = lambda f: mask[itf(f)]  # noqa: E731
        elif coll.per_player and coll.per_player[0] == "region_indexed":
            masks, ifn, by_decider = coll.per_player[1]
            if by_decider is not None:
                fn = lambda f: by_decider[f.p][itf(f)]  # noqa: E731
            else:
                fn = lambda f: masks[ifn(f)][itf(f)]  # noqa: E731
        else:
            cf = coll.fn
            fn = lambda f: itf(f) in cf(f)  # noqa: E731
        if e.negated:
            inner = fn
            fn = lambda f: not inner(f)  # noqa: E731
        return Value(fn, "bool", deps)

    # ------------------------------------------------------------ collections
    def _Pieces(self, e: A.Pieces, scope: Scope) -> Value:
        owner_fn = None
        deps: frozenset = frozenset()
        if e.owner is not None:
            owner = self.expect(self.compile(e.owner, scope), ("player",), e.owner, "the owner after 'pieces of'")
            owner_fn = owner.fn
            deps |= owner.deps
        cond_fn = None
        slot = None
        if e.where is not None:
            inner = scope.child()
            slot = inner.new_slot()
            inner.locals["it"] = (slot, "site")
            cond = self.boolean(e.where, inner)
            cond_fn = cond.fn
            deps |= cond.deps - {"locals"}

        if owner_fn is None:
            def sites_of(f):
                return [s for sites in f.o for s in sites]
        else:
            def sites_of(f, owner_fn=owner_fn):
                o = owner_fn(f)
                return f.o[o] if o != -1 else []

        if cond_fn is None:
            fn = sites_of
        else:
            def fn(f, sites_of=sites_of, cond_fn=cond_fn, slot=slot):
                loc = f.loc
                out = []
                for s in sites_of(f):
                    loc[slot] = s
                    if cond_fn(f):
                        out.append(s)
                return out
        return Value(fn, "sites", deps | frozenset({"board"}))

    # ------------------------------------------------------------ functions
    def _Call(self, e: A.Call, scope: Scope) -> Value:
        if e.fn in self.defines:
            return self._define_call(e, scope)
        handler = getattr(self, "_fn_" + e.fn, None)
        if handler is None:
            from ..validation.diagnostics import suggest

            best = suggest(e.fn, list(FUNCTIONS))
            raise RuleError(e.pos, f"unknown function '{e.fn}'", f"did you mean '{best}'?" if best else None)
        arity = FUNCTIONS[e.fn][0]
        if len(e.args) not in arity:
            expected = " or ".join(str(a) for a in arity)
            raise RuleError(e.pos, f"'{e.fn}' takes {expected} argument(s), found {len(e.args)}: {FUNCTIONS[e.fn][1]}")
        return handler(e, scope)

    def _collection(self, e: A.Expr, scope: Scope, fn_name: str) -> Value:
        v = self.compile(e, scope)
        if v.type == "perplayer":
            raise RuleError(e.pos, f"'{_name_of(e)}' differs per player: say whose, e.g. {_name_of(e)}[player]")
        return self.expect(v, ("sites", "players", "dirs"), e, f"the first argument of '{fn_name}'")

    def _piece_measure(self, e: A.Expr, fn_name: str):
        """The second argument of sum/max/min/unique_max: an attribute name."""
        if not isinstance(e, A.Name):
            raise RuleError(e.pos, f"the second argument of '{fn_name}' is an attribute name, e.g. value or height")
        name = e.id
        if name == "value":
            values = self.kind_values
            return lambda p: values[p[KIND]]
        if name == "height":
            return lambda p: len(p[STONES]) if p[STONES] else 1
        attr = self.m.attributes.get(name)
        if attr is None or attr.type != "int":
            from ..validation.diagnostics import suggest

            ints = [a.name for a in self.m.attributes.values() if a.type == "int"] + ["value", "height"]
            best = suggest(name, ints)
            raise RuleError(e.pos, f"'{name}' is not a numeric attribute", f"did you mean '{best}'?" if best else None)
        i = attr.index
        return lambda p: p[i]

    def _attribute_index(self, e: A.Expr) -> Optional[int]:
        if isinstance(e, A.Name) and e.id in self.m.attributes and self.m.attributes[e.id].type == "int":
            return self.m.attributes[e.id].index
        return None

    def _quantified(self, e: A.Call, scope: Scope) -> tuple:
        """The set of count/exists/all and the name each element goes by: `it`, or
        NAME in `exists(NAME in SET, ...)` (so that an outer `it` stays reachable)."""
        first = e.args[0]
        if isinstance(first, A.In) and isinstance(first.item, A.Name) and not first.negated:
            # A condition makes no sense as the set: `NAME in SET` names the element.
            name = first.item.id
            # `exists(to in goal)` is a slip for `to in goal`, not a new name for `to`.
            if name in CONTEXT_NAMES or name in self.m.board.index:
                raise RuleError(
                    first.item.pos,
                    f"'{name}' already means something here: give the elements of {e.fn}(NAME in SET, ...) a new name",
                )
            return self._collection(first.collection, scope, e.fn), name
        return self._collection(first, scope, e.fn), "it"

    def _condition_on_each(self, coll: Value, e: A.Expr, scope: Scope, fn_name: str, name: str = "it"):
        """The condition of count/exists/all, with `name` bound to each element."""
        inner = scope.child()
        slot = inner.new_slot()
        elem = {"sites": "site", "players": "player", "dirs": "dir"}[coll.type]
        inner.locals[name] = (slot, elem)
        cond = self.boolean(e, inner)
        return slot, cond

    def _fn_count(self, e: A.Call, scope):
        coll, name = self._quantified(e, scope)
        if len(e.args) == 1:
            if coll.is_const:
                return const(len(coll.const), "int")
            cf = coll.fn
            return Value(lambda f: len(cf(f)), "int", coll.deps)
        slot, cond = self._condition_on_each(coll, e.args[1], scope, "count", name)
        cf, test = coll.fn, cond.fn

        def count(f):
            loc = f.loc
            n = 0
            for x in cf(f):
                loc[slot] = x
                if test(f):
                    n += 1
            return n

        return Value(count, "int", coll.deps | (cond.deps - {"locals"}))

    def _fn_exists(self, e: A.Call, scope):
        coll, name = self._quantified(e, scope)
        cf = coll.fn
        if len(e.args) == 1:
            return Value(lambda f: len(cf(f)) > 0, "bool", coll.deps)
        slot, cond = self._condition_on_each(coll, e.args[1], scope, "exists", name)
        test = cond.fn

        def exists(f):
            loc = f.loc
            for x in cf(f):
                loc[slot] = x
                if test(f):
                    return True
            return False

        return Value(exists, "bool", coll.deps | (cond.deps - {"locals"}))

    def _fn_all(self, e: A.Call, scope):
        coll, name = self._quantified(e, scope)
        slot, cond = self._condition_on_each(coll, e.args[1], scope, "all", name)
        cf, test = coll.fn, cond.fn

        def every(f):
            loc = f.loc
            for x in cf(f):
                loc[slot] = x
                if not test(f):
                    return False
            return True

        return Value(every, "bool", coll.deps | (cond.deps - {"locals"}))

    def _fn_sum(self, e: A.Call, scope):
        coll = self.expect(self._collection(e.args[0], scope, "sum"), ("sites",), e.args[0], "the first argument of 'sum'")
        measure = self._piece_measure(e.args[1], "sum")
        cf = coll.fn
        return Value(lambda f: sum(measure(f.b[s]) for s in cf(f) if f.b[s] is not None), "int", coll.deps)

    def _extreme(self, e: A.Call, scope, name: str, pick):
        if len(e.args) == 2:
            first = self.compile(e.args[0], scope)
            if first.type == "int":
                second = self.expect(self.compile(e.args[1], scope), ("int",), e.args[1], f"the second argument of '{name}'")
                a, b = first.fn, second.fn
                return Value(lambda f: pick(a(f), b(f)), "int", first.deps | second.deps)
        coll = self.expect(self._collection(e.args[0], scope, name), ("sites",), e.args[0], f"the first argument of '{name}'")
        if len(e.args) != 2:
            raise RuleError(e.pos, f"'{name}' takes a set of sites and an attribute name")
        measure = self._piece_measure(e.args[1], name)
        cf = coll.fn

        def fn(f):
            vals = [measure(f.b[s]) for s in cf(f) if f.b[s] is not None]
            return pick(vals) if vals else 0

        return Value(fn, "int", coll.deps)

    def _fn_max(self, e, scope):
        return self._extreme(e, scope, "max", max)

    def _fn_min(self, e, scope):
        return self._extreme(e, scope, "min", min)

    def _fn_unique_max(self, e: A.Call, scope):
        coll = self.expect(self._collection(e.args[0], scope, "unique_max"), ("sites",), e.args[0], "the first argument of 'unique_max'")
        measure = self._piece_measure(e.args[1], "unique_max")
        index = self._attribute_index(e.args[1])
        cf = coll.fn

        if index is not None:
            # An attribute read straight from the piece tuple: a loop over pieces in an
            # `after each action` rule runs after every action, so no call per piece.
            def fn(f):
                b = f.b
                best = -1
                best_value = -(1 << 62)
                tie = False
                for s in cf(f):
                    p = b[s]
                    if p is None:
                        continue
                    x = p[index]
                    if x > best_value:
                        best, best_value, tie = s, x, False
                    elif x == best_value:
                        tie = True
                return -1 if tie else best
        else:
            def fn(f):
                b = f.b
                best = -1
                best_value = None
                tie = False
                for s in cf(f):
                    p = b[s]
                    if p is None:
                        continue
                    x = measure(p)
                    if best_value is None or x > best_value:
                        best, best_value, tie = s, x, False
                    elif x == best_value:
                        tie = True
                return -1 if tie else best

        return Value(fn, "site", coll.deps, piece=lambda f: f.b[s] if (s := fn(f)) != -1 else None)

    def _fn_abs(self, e: A.Call, scope):
        v = self.expect(self.compile(e.args[0], scope), ("int",), e.args[0], "the argument of 'abs'")
        fn = v.fn
        return Value(lambda f: abs(fn(f)), "int", v.deps)

    def _fn_neighbour(self, e: A.Call, scope):
        site = self.expect(self.compile(e.args[0], scope), ("site",), e.args[0], "the first argument of 'neighbour'")
        board = self.m.board
        if board.kind != "grid":
            raise RuleError(e.pos, "'neighbour(site, direction)' needs a grid board; on a graph use 'neighbours(site)'")
        direction, pick = self._single_direction(e, scope)
        rays = board.rays
        sf = site.fn

        def fn(f):
            s = sf(f)
            if s == -1:
                return -1
            ray = rays[pick(f)][s]
            return ray[0] if ray else -1

        return Value(fn, "site", site.deps | direction.deps, piece=lambda f: f.b[s] if (s := fn(f)) != -1 else None)

    def _single_direction(self, e: A.Call, scope, argument: int = 1) -> tuple:
        """A direction argument of neighbour/ray/beyond/opposite: (its value, frame -> direction index)."""
        arg = e.args[argument]
        direction = self.compile(arg, scope)
        if direction.type not in ("dirs", "dir"):
            which = "the second argument" if argument == 1 else "the argument"
            raise RuleError(arg.pos, f"{which} of '{e.fn}' must be a direction, found {describe(direction)}")
        df = direction.fn
        if direction.type == "dir":
            return direction, df

        def pick(f):
            ds = df(f)
            if len(ds) != 1:
                raise RuleError(arg.pos, f"'{e.fn}' needs a single direction, not a set of them")
            return ds[0]

        return direction, pick

    def _ray_run(self, e: A.Call, scope):
        """What ray/beyond share: the start site, and run(frame) -> (the sites of the
        ray from it, how many of them meet the condition before the first that does
        not: all of them without a condition)."""
        site = self.expect(self.compile(e.args[0], scope), ("site",), e.args[0], f"the first argument of '{e.fn}'")
        if self.m.board.kind != "grid":
            raise RuleError(e.pos, f"'{e.fn}' needs a grid board: directions are a grid's")
        direction, pick = self._single_direction(e, scope)
        deps = site.deps | direction.deps
        rays, sf = self.m.board.rays, site.fn
        if len(e.args) < 3:
            def whole(f):
                s = sf(f)
                line = rays[pick(f)][s] if s != -1 else ()
                return line, len(line)

            return whole, deps
        inner = scope.child()
        slot = inner.new_slot()
        inner.locals["it"] = (slot, "site")
        cond = self.boolean(e.args[2], inner)
        test = cond.fn

        def run(f):
            s = sf(f)
            line = rays[pick(f)][s] if s != -1 else ()
            loc = f.loc
            for i, t in enumerate(line):
                loc[slot] = t
                if not test(f):
                    return line, i
            return line, len(line)

        return run, deps | (cond.deps - {"locals"})

    def _fn_ray(self, e: A.Call, scope):
        run, deps = self._ray_run(e, scope)

        def fn(f):
            line, n = run(f)
            return list(line[:n])

        return Value(fn, "sites", deps)

    def _fn_beyond(self, e: A.Call, scope):
        run, deps = self._ray_run(e, scope)

        def fn(f):
            line, n = run(f)
            return line[n] if n < len(line) else -1

        return Value(fn, "site", deps, piece=lambda f: f.b[s] if (s := fn(f)) != -1 else None)

    def _fn_opposite(self, e: A.Call, scope):
        if self.m.board.kind != "grid":
            raise RuleError(e.pos, "'opposite' needs a grid board: directions are a grid's")
        direction, pick = self._single_direction(e, scope, argument=0)
        # The eight grid directions are numbered clockwise from north.
        return Value(lambda f: (pick(f) + 4) % 8, "dir", direction.deps)

    def _fn_group(self, e: A.Call, scope):
        site = self.expect(self.compile(e.args[0], scope), ("site",), e.args[0], "the argument of 'group'")
        adjacent = self.m.board.adjacent
        sf = site.fn

        def fn(f):
            s = sf(f)
            b = f.b
            p = b[s] if s != -1 else None
            if p is None:
                return []
            owner = p[OWNER]
            seen = {s}
            out = [s]
            i = 0
            while i < len(out):
                for t in adjacent[out[i]]:
                    if t not in seen:
                        q = b[t]
                        if q is not None and q[OWNER] == owner:
                            seen.add(t)
                            out.append(t)
                i += 1
            return out

        return Value(fn, "sites", site.deps | frozenset({"board"}))

    def _fn_neighbours(self, e: A.Call, scope):
        site = self.expect(self.compile(e.args[0], scope), ("site",), e.args[0], "the argument of 'neighbours'")
        adjacent = self.m.board.adjacent
        sf = site.fn
        return Value(lambda f: adjacent[s] if (s := sf(f)) != -1 else (), "sites", site.deps)

    def _fn_on_full_line(self, e: A.Call, scope):
        site = self.expect(self.compile(e.args[0], scope), ("site",), e.args[0], "the argument of 'on_full_line'")
        if not self.m.lines:
            raise RuleError(e.pos, "'on_full_line' needs the board's 'lines' in the YAML")
        through: list[list[tuple[int, ...]]] = [[] for _ in range(self.n_sites + 1)]
        for line in self.m.lines:
            for s in line:
                through[s].append(line)
        sf = site.fn

        def fn(f):
            s = sf(f)
            b = f.b
            p = b[s] if s != -1 else None
            if p is None:
                return False
            owner = p[OWNER]
            for line in through[s]:
                for t in line:
                    q = b[t]
                    if q is None or q[OWNER] != owner:
                        break
                else:
                    return True
            return False

        return Value(fn, "bool", site.deps)


def conjuncts(e: A.Expr) -> list[A.Expr]:
    """The parts of `a and b and c`, so that each can be checked where it belongs."""
    if isinstance(e, A.And):
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def is_name(e: A.Expr, name: str) -> bool:
    return isinstance(e, A.Name) and e.id == name


def _unindexed(f):
    raise AssertionError("per-player value used without an index")


def _piece_on_const(site: int):
    return lambda f: f.b[site]


def _var_type(var) -> str:
    return "bool" if var.type == "flag" else "int"


def _name_of(e: A.Expr) -> str:
    return e.id if isinstance(e, A.Name) else "this"


def _comparable(a: str, b: str) -> bool:
    if a == b:
        return True
    pair = {a, b}
    return pair in ({"site", "none"}, {"player", "none"}, {"int", "bool"})


_ARITH = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
}
_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}
# `variable OP constant` as one closure (conditions like `quiet >= quiet_limit` run
# after every turn).
_VAR_COMPARE = {
    "==": lambda i, c: lambda f: f.v[i] == c,
    "!=": lambda i, c: lambda f: f.v[i] != c,
    "<": lambda i, c: lambda f: f.v[i] < c,
    "<=": lambda i, c: lambda f: f.v[i] <= c,
    ">": lambda i, c: lambda f: f.v[i] > c,
    ">=": lambda i, c: lambda f: f.v[i] >= c,
}
_TYPE_WORDS = {
    "int": "a number",
    "bool": "a condition",
    "str": "a text",
    "site": "a site or piece",
    "player": "a player",
    "none": "none",
    "sites": "a set of sites",
    "players": "a set of players",
    "dirs": "a direction or set of directions",
    "dir": "a direction",
    "perplayer": "a per-player value",
}

FUNCTIONS = {
    "count": ((1, 2), "count(SET) or count(SET, CONDITION) — how many elements (for which the condition holds, `it` being each)"),
    "exists": ((1, 2), "exists(SET) or exists(SET, CONDITION) — whether some element (meets the condition)"),
    "all": ((2,), "all(SET, CONDITION) — whether every element meets the condition (`it` being each)"),
    "sum": ((2,), "sum(SET, ATTRIBUTE) — total of an attribute over the pieces on the sites"),
    "max": ((2,), "max(SET, ATTRIBUTE) or max(A, B)"),
    "min": ((2,), "min(SET, ATTRIBUTE) or min(A, B)"),
    "unique_max": ((2,), "unique_max(SET, ATTRIBUTE) — the one site whose piece has the strictly highest value, else none"),
    "abs": ((1,), "abs(N)"),
    "neighbour": ((2,), "neighbour(SITE, DIRECTION) — the adjacent site in that direction, or none"),
    "neighbours": ((1,), "neighbours(SITE) — the sites one edge away"),
    "ray": ((2, 3), "ray(SITE, DIRECTION) or ray(SITE, DIRECTION, CONDITION) — the sites from SITE (not included) towards the edge, nearest first; with a condition (`it` being each) only as long as it holds"),
    "beyond": ((3,), "beyond(SITE, DIRECTION, CONDITION) — the first site along the ray for which the condition (`it` being the site) fails, or none at the edge"),
    "opposite": ((1,), "opposite(DIRECTION) — the direction pointing the other way (grid only)"),
    "group": ((1,), "group(SITE) — the sites joined to SITE by neighbours holding pieces of the same owner (SITE included; empty when SITE is)"),
    "on_full_line": ((1,), "on_full_line(SITE) — whether a declared line through SITE is filled by pieces of one owner"),
}


def describe(v: Value) -> str:
    word = _TYPE_WORDS.get(v.type, v.type)
    if v.is_const and v.type in ("int", "str"):
        return f"{word} ({v.const!r})"
    return word
