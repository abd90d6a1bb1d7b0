"""Statements of the rules language → lines of generated Python.

Statements run inside a generated function whose registers (scope.py) hold the
action: `at` and `pc` are where the acting piece stands now and the piece itself;
every statement that moves, removes or changes that piece keeps them up to date,
so later statements and the `after each action` rules see the piece as it is now.
`fu` is the follow-up decision a `then` asks for (-1: none).

Each `compile_*` method writes its lines into the `Source` and returns the
estimated steps one run costs (for the work bound, see codegen/budget.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .errors import FollowOnError, RuleError, name_pos, unknown
from .source import Source, int_literal
from .types import ELEMENT, Type
from ..parsing import ast
from ..parsing.unparse import expression_text
from ..runtime.coverage import RuleCoverage
from ..runtime.helpers import NUMBER_LIMIT
from ..runtime.results import DRAW, END_GAME, LOSE, WIN
from ..spelling import did_you_mean
from .names import reserved_word
from .expressions import Code, ExpressionCompiler, _always_a_player, describe
from .scope import Local, Scope

# Bound for `for each` over a collection a definition drives.
MAX_LOOP = 100_000
# How deep procedures may call procedures (each is compiled where it is called).
MAX_CALL_DEPTH = 50
STATEMENT_WORDS = frozenset(
    {"move", "place", "remove", "return", "give", "promote", "stack", "release", "add", "let", "then", "notation",
     "win", "lose", "draw", "end", "start", "next", "if", "for", "elif", "else"}
)


@dataclass
class Endings:
    """The statements that can end the game, numbered for `h_end` (and coverage)."""

    entries: list = field(default_factory=list)  # (how, pos)

    def add(self, how: int, pos: ast.Pos) -> int:
        self.entries.append((how, pos))
        return len(self.entries) - 1


@dataclass
class Probes:
    """Rule coverage while compiling: `count(kind, label, pos)` adds a probe and
    gives the line that counts one firing of it — None when coverage is off."""

    coverage: Optional[RuleCoverage] = None
    counts_name: Optional[str] = None  # the generated name of the coverage's counts list

    @property
    def on(self) -> bool:
        return self.coverage is not None

    def add(self, kind: str, label: str, pos: ast.Pos) -> Optional[int]:
        return self.coverage.add(kind, label, pos) if self.coverage is not None else None

    def count(self, kind: str, label: str, pos: ast.Pos) -> Optional[str]:
        probe = self.add(kind, label, pos)
        return None if probe is None else f"{self.counts_name}[{probe}] += 1"


class StatementCompiler:
    def __init__(
        self,
        exprs: ExpressionCompiler,
        procedures: dict[str, ast.Procedure],
        decision_index: dict[str, int],
        phase_index: dict[str, int],
        endings: Endings,
        probes: Probes,
    ):
        self.exprs = exprs
        self.model = exprs.model
        self.piece_length = 3 + len(self.model.attributes)  # a piece: (owner, kind, stones, attributes...)
        self.src: Source = exprs.src
        self.procedures = procedures
        self.decision_index = decision_index
        self.phase_index = phase_index
        self.endings = endings
        self.probes = probes
        self._procedure_stack: list[str] = []
        self.errors: list[RuleError] = []
        self.followups: list[tuple[ast.Pos, str]] = []
        # Set while compiling a case of a `drop` action: its pool's offset, if any.
        self.in_drop = False
        self.drop_pool_offset: Optional[int] = None
        # Whether `at` is known not to be -1 at this point of the code being written
        # (the acting piece has not left the board): `move` then needs no test.
        self.at_valid = False
        # Whether the landing site `to` is known to be empty here (an `onto empty` case
        # before anything could have been put there): `move` then captures nothing.
        self.to_empty = False
        # Whether the rules ever say `start phase` / `next turn` (else ending a turn
        # is simpler).
        self.starts_phases = False
        self.names_next_player = False
        self.changes_owners = False  # whether the rules say `X.owner = P`
        self.changes_kinds = False  # whether the rules promote pieces (a kind changed in place)
        self.duplicates: set = set()  # names declared twice (already reported)
        # What the statements compiled since the caller last emptied it do to the turn:
        # "next phase", "next player", ("then", decision index), "end" (may end the game).
        self.effects: set = set()
        self.choice_allowed = False  # while compiling an action's case (`promote ... to one of`)

    # ------------------------------------------------------------ blocks
    def block_with_effects(self, stmts: list[ast.Stmt], scope: Scope) -> tuple:
        """(cost, effects on the turn) of a block compiled apart (see `effects`)."""
        saved = self.effects
        self.effects = set()
        try:
            cost = self.block(stmts, scope)
            return cost, self.effects
        finally:
            self.effects = saved | self.effects

    def block(self, stmts: list[ast.Stmt], scope: Scope) -> int:
        """Compile statements; errors are collected so that one bad line does not hide the next."""
        cost = 0
        for stmt in stmts:
            try:
                cost += self.stmt(stmt, scope)
            except FollowOnError:
                pass
            except RuleError as err:
                self.errors.append(err)
                if isinstance(stmt, ast.LetStmt) and not reserved_word(stmt.name):
                    scope.locals[stmt.name] = Local("None", Type.NONE, broken=True)
        return cost

    def stmt(self, s: ast.Stmt, scope: Scope) -> int:
        try:
            cost = getattr(self, "_" + type(s).__name__)(s, scope) or 1
        except RecursionError:
            raise RuleError(s.pos, "this statement is nested too deeply to compile") from None
        if not isinstance(s, _LEAVE_SITES_EMPTY):
            self.to_empty = False
        return cost

    def line(self, text: str) -> None:
        self.src.line(text)

    def value(self, e: ast.Expr, scope: Scope) -> Code:
        """Compile an expression whose loops become lines written before the statement
        that uses it (see expressions.lowered)."""
        lines, c = self.exprs.lowered(e, scope)
        for line in lines:
            self.line(line)
        return c

    def _site(self, e: ast.Expr, scope: Scope, what: str) -> Code:
        c = self.value(e, scope)
        if c.type is not Type.SITE:
            raise RuleError(e.pos, f"{what} must be a piece or a site, found {describe(c)}")
        return c

    def _require(self, scope: Scope, name: str, pos: ast.Pos, statement: str) -> None:
        if name not in scope.available:
            raise RuleError(pos, f"'{statement}' needs {name!r}, which has no meaning in {scope.where}")

    def _tracks_piece(self, scope: Scope) -> bool:
        """Whether this block has an acting piece whose registers must follow it."""
        return "piece" in scope.available

    def _site_local(self, c: Code) -> str:
        """A local holding the site of `c` (evaluated once)."""
        if c.is_const or c.code.isidentifier():
            return c.code
        name = self.src.fresh("t")
        self.line(f"{name} = {c.code}")
        return name

    def _after_change(self, site: str, new: str, scope: Scope) -> None:
        """The piece on `site` is now `new`: if it is the acting piece, `pc` follows."""
        if self._tracks_piece(scope):
            with self.src.block(f"if {site} == at:"):
                self.line(f"pc = {new}")

    def _gone(self, site: str, scope: Scope) -> None:
        """The piece on `site` left the board: if it was the acting piece, `at` says so."""
        self.at_valid = False
        if self._tracks_piece(scope):
            with self.src.block(f"if {site} == at:"):
                self.line("at = -1")

    # ------------------------------------------------------------ piece movement
    def _MoveStmt(self, s: ast.MoveStmt, scope: Scope):
        if s.what is not None:
            return self._move_other(s, scope)
        self._require(scope, "to", s.pos, "move")
        if "piece" not in scope.available:
            raise RuleError(s.pos, f"'move' moves the acting piece to 'to', and {scope.where} has none: a 'select' "
                                   "chooses a site and moves no piece",
                            "to move the piece chosen, write 'move target to SITE'")
        if not scope.piece_always:
            # (after each action: a select, a pass or a chance outcome has no acting piece, and nothing moves)
            with self.src.block("if pc is not None and to != -1:"):
                self._move_acting_piece()
            self.at_valid = False
            return
        self._move_acting_piece()

    def _move_acting_piece(self) -> None:
        with self.src.block("if at != -1:") if not self.at_valid else _unindented():
            if any(site != -1 for site in self.model.pool_site_of):
                pool_of = self.src.const(tuple(self.model.pool_site_of), key="pool_site_of")
                with self.src.block("if b[at] is None:"):
                    # Only a pool's site is empty under a moving piece: it leaves the pool.
                    self.line(f"v[{pool_of}[at] + pc[0]] -= 1")
                with self.src.block("else:"):
                    self.line("b[at] = None")
                    self.line("o[pc[0]].remove(at)")
            else:
                self.line("b[at] = None")
                self.line("o[pc[0]].remove(at)")
        if not self.to_empty:
            self.line("x0 = b[to]")
            with self.src.block("if x0 is not None:"):
                self.line("o[x0[0]].remove(to)")
        self.line("b[to] = pc")
        self.line("o[pc[0]].append(to)")
        self.line("at = to")
        self.at_valid = True

    def _move_other(self, s: ast.MoveStmt, scope: Scope) -> int:
        """`move X to Y`: whatever stands on X goes to Y (what stood on Y leaves the
        board); the acting piece's registers follow it if it is the one moved."""
        source = self._site(s.what, scope, "what 'move' moves")
        dest = self._site(s.dest, scope, "where 'move ... to' goes")
        a = self._site_local(source)
        z = self._site_local(dest)
        self.line(f"x0 = b[{a}]")
        with self.src.block(f"if x0 is not None and {z} != -1 and {z} != {a}:"):
            self.line(f"h_clear(b, o, {z})")
            self.line(f"h_clear(b, o, {a})")
            self.line(f"b[{z}] = x0")
            self.line(f"o[x0[0]].append({z})")
            if self._tracks_piece(scope):
                with self.src.block(f"if {a} == at:"):
                    self.line(f"at = {z}")
                with self.src.block(f"elif {z} == at:"):
                    self.line("at = -1")
        self.at_valid = False
        return source.cost + dest.cost + 2

    def _CreateStmt(self, s: ast.CreateStmt, scope: Scope):
        """`create KIND at X [for P]`: a new piece (the deciding player's, or P's; a
        neutral kind's belongs to nobody) on X, in place of what stands there."""
        kind = self.kind_index(s.kind, s.kind_pos)
        at = self._site(s.at, scope, "where 'create' puts the piece")
        neutral = self.model.kinds[s.kind].neutral
        if s.owner is not None:
            if neutral:
                raise RuleError(s.owner.pos, f"pieces of kind '{s.kind}' are neutral: they belong to no player")
            owner = self.value(s.owner, scope)
            if owner.type is not Type.PLAYER:
                raise RuleError(s.owner.pos, f"a piece belongs to a player, found {describe(owner)}")
            whose = owner.code
        else:
            whose = "-1" if neutral else scope.register("player").site
        owners = [self.model.fresh_piece(o, kind) for o in range(self.model.player_count)]
        fresh = self.src.const(tuple(owners) + (self.model.fresh_piece(-1, kind),))
        site = self._site_local(at)
        self.line(f"x0 = {whose}")
        with self.src.block(f"if {site} != -1:" if neutral else f"if {site} != -1 and x0 >= 0:"):
            self.line(f"h_replace(b, o, {site}, {fresh}[x0])")
            self._gone(site, scope)
        return at.cost + 2

    def _PlaceStmt(self, s: ast.PlaceStmt, scope: Scope):
        self._require(scope, "to", s.pos, "place")
        if not self.in_drop:
            raise RuleError(s.pos, "'place' puts a new piece down and belongs to 'drop' actions; a piece that moves uses 'move'")
        if self.to_empty:
            self.line("b[to] = pc")
            self.line("o[pc[0]].append(to)")
        else:
            self.line("h_replace(b, o, to, pc)")
        self.line("at = to")
        if self.drop_pool_offset is not None:
            self.line(f"v[{self.drop_pool_offset} + p] -= 1")

    def _RemoveStmt(self, s: ast.RemoveStmt, scope: Scope):
        c = self._site(s.what, scope, "what 'remove' removes")
        site = self._site_local(c)
        self.line(f"h_clear(b, o, {site})")
        if isinstance(s.what, ast.Name) and s.what.id == "piece":
            self.line("at = -1")
            self.at_valid = False
        else:
            self._gone(site, scope)
        return c.cost + 1

    def _ReturnStmt(self, s: ast.ReturnStmt, scope: Scope):
        pool = self._pool(s.pool, name_pos(s.pos, s.pool))
        c = self._site(s.what, scope, "what 'return' sends back")
        site = self._site_local(c)
        self.line(f"x0 = b[{site}]")
        with self.src.block("if x0 is not None:"):
            self.line(f"h_clear(b, o, {site})")
            with self.src.block("if x0[0] >= 0:"):
                self.line(f"v[{pool.offset} + x0[0]] += 1")
            self._gone(site, scope)
        return c.cost + 1

    def _pool(self, name: str, pos: ast.Pos):
        if name not in self.model.pools:
            raise unknown(pos, "pool", name, list(self.model.pools))
        return self.model.pools[name]

    def kind_index(self, name: str, pos: ast.Pos) -> int:
        if name not in self.model.kinds:
            raise unknown(pos, "piece kind", name, list(self.model.kinds))
        return self.model.kinds[name].index

    # ------------------------------------------------------------ piece changes
    def _GiveStmt(self, s: ast.GiveStmt, scope: Scope):
        attr = self.model.attributes.get(s.marker)
        if attr is None or attr.type != "marker":
            markers = [a.name for a in self.model.attributes.values() if a.type == "marker"]
            raise RuleError(
                s.marker_pos or s.pos,
                f"'{s.marker}' is not a marker attribute (declare it with type: marker)",
                did_you_mean(s.marker, markers),
            )
        c = self._site(s.to, scope, "who gets the marker")
        site = self._site_local(c)
        i = attr.index
        self.line(f"x0 = b[{site}]")
        # At most one piece of each player holds a marker: when this one does not,
        # the one that does (if any) loses it.
        with self.src.block(f"if x0 is not None and not x0[{i}]:"):
            with self.src.block("for x1 in o[x0[0]]:"):
                self.line("x2 = b[x1]")
                with self.src.block(f"if x2[{i}]:"):
                    self.line(f"x2 = b[x1] = {self._with_slot('x2', i, 'False')}")
                    self._after_change("x1", "x2", scope)
                    self.line("break")
            self.line(f"x0 = b[{site}] = {self._with_slot('x0', i, 'True')}")
            self._after_change(site, "x0", scope)
        return c.cost + self.exprs.n_sites

    def _PromoteStmt(self, s: ast.PromoteStmt, scope: Scope):
        self.changes_kinds = True
        kind = self.kind_index(s.kind, name_pos(s.pos, s.kind))
        c = self._site(s.what, scope, "what 'promote' changes")
        site = self._site_local(c)
        self.line(f"x0 = b[{site}]")
        with self.src.block("if x0 is not None:"):
            self.line(f"x0 = b[{site}] = (x0[0], {kind}) + x0[2:]")
            self._after_change(site, "x0", scope)
        return c.cost + 1

    def _PromoteChoiceStmt(self, s: ast.PromoteChoiceStmt, scope: Scope):
        """`promote X to one of K1, K2, ...`: the kind is the action's choice (one
        action per kind, listed by the decision; see actions.py)."""
        if not self.choice_allowed:
            raise RuleError(s.pos, "'promote ... to one of' belongs in the case of an action (each choice is an action of its own)")
        self.changes_kinds = True
        kinds = tuple(self.kind_index(k.id, k.pos) for k in s.kinds)
        c = self._site(s.what, scope, "what 'promote' changes")
        site = self._site_local(c)
        self.line("x1 = code[4]")
        with self.src.block("if x1 < 0:"):
            message = self.src.const("the kind to promote to was not chosen: the conditions around 'one of' changed while the action ran")
            self.line(f"h_fail({self.src.const(s.pos)}, {message})")
        self.line(f"x0 = b[{site}]")
        with self.src.block("if x0 is not None:"):
            self.line(f"x0 = b[{site}] = (x0[0], {self.src.const(kinds)}[x1]) + x0[2:]")
            self._after_change(site, "x0", scope)
        return c.cost + 1

    def _needs_stacks(self, pos: ast.Pos, what: str) -> None:
        if not self.model.stacks:
            raise RuleError(pos, f"'{what}' works on stacks; declare 'stacks: true' in the YAML")

    def _StackStmt(self, s: ast.StackStmt, scope: Scope):
        self._needs_stacks(s.pos, "stack")
        source = self._site_local(self._site(s.source, scope, "the stack to move"))
        dest = self._site_local(self._site(s.dest, scope, "the stack to put it under"))
        self.line(f"x0 = b[{source}]")
        self.line(f"x1 = b[{dest}]")
        with self.src.block("if x0 is not None and x1 is not None:"):
            if s.top_only:
                self.line("x2 = x0[2][-1:]")
                self.line("x3 = x0[2][:-1]")
                with self.src.block("if x3:"):
                    # What is left of the stack belongs to the colour now on top.
                    self.line(f"h_replace(b, o, {source}, (x3[-1], x0[1], x3) + x0[3:])")
                with self.src.block("else:"):
                    self.line(f"h_clear(b, o, {source})")
            else:
                self.line("x2 = x0[2]")
                self.line(f"h_clear(b, o, {source})")
            self.line(f"x1 = b[{dest}] = x1[:2] + (x2 + x1[2],) + x1[3:]")
            self._after_change(dest, "x1", scope)
        return 4

    def _ReleaseStmt(self, s: ast.ReleaseStmt, scope: Scope):
        self._needs_stacks(s.pos, "release")
        pool = self._pool(s.pool, name_pos(s.pos, s.pool))
        site = self._site_local(self._site(s.what, scope, "the stack to release"))
        self.line(f"x0 = b[{site}]")
        with self.src.block("if x0 is not None:"):
            with self.src.block("for x1 in x0[2]:"):
                self.line(f"v[{pool.offset} + x1] += 1")
            self.line(f"h_clear(b, o, {site})")
            self._gone(site, scope)
        return 4

    def _AddStoneStmt(self, s: ast.AddStoneStmt, scope: Scope):
        self._needs_stacks(s.pos, "add stone")
        pool = self._pool(s.pool, s.pool_pos or s.pos)
        site = self._site_local(self._site(s.dest, scope, "the stack that gets the stone"))
        self.line(f"x0 = b[{site}]")
        with self.src.block("if x0 is not None:"):
            with self.src.block(f"if v[{pool.offset} + x0[0]] <= 0:"):
                message = self.src.const(f"pool '{pool.name}' of that player is empty")
                self.line(f"h_fail({self.src.const(s.pos)}, {message})")
            self.line(f"v[{pool.offset} + x0[0]] -= 1")
            self.line(f"x0 = b[{site}] = x0[:2] + ((x0[0],) + x0[2],) + x0[3:]")
            self._after_change(site, "x0", scope)
        return 2

    # ------------------------------------------------------------ data
    def _LetStmt(self, s: ast.LetStmt, scope: Scope):
        if reserved_word(s.name):
            raise RuleError(s.pos, reserved_word(s.name), "choose another name")
        c = self.value(s.value, scope)
        if c.type is Type.PER_PLAYER:
            raise RuleError(s.value.pos, f"cannot store {describe(c)} in 'let'")
        name = self.src.fresh("l")
        self.line(f"{name} = {c.code}")
        scope.locals[s.name] = Local(name, c.type)
        return c.cost

    def _AssignStmt(self, s: ast.AssignStmt, scope: Scope):
        value = self.value(s.value, scope)
        t = s.target
        if isinstance(t, ast.Attr):
            return self._assign_attribute(s, t, value, scope)
        if isinstance(t, ast.Name):
            var = self.model.variables.get(t.id)
            if var is None:
                if t.id in self.model.pools:
                    raise RuleError(t.pos, f"pool '{t.id}' differs per player: say whose, e.g. {t.id}[player]")
                raise RuleError(
                    t.pos, f"'{t.id}' is not a variable (declare it under 'variables' in the YAML)",
                    did_you_mean(t.id, list(self.model.variables)),
                )
            if var.per_player:
                raise RuleError(t.pos, f"variable '{t.id}' differs per player: say whose, e.g. {t.id}[player]")
            self._assign_slot(s, f"v[{var.offset}]", value, var.type)
            return value.cost + 1
        assert isinstance(t, ast.Index)
        if not isinstance(t.obj, ast.Name) or (t.obj.id not in self.model.variables and t.obj.id not in self.model.pools):
            raise RuleError(t.pos, "only per-player variables and pools can be assigned with [player]")
        thing = self.model.variables.get(t.obj.id) or self.model.pools[t.obj.id]
        if getattr(thing, "per_player", True) is False:
            raise RuleError(t.pos, f"variable '{t.obj.id}' is shared, not per player")
        idx = self.value(t.index, scope)
        if idx.type is not Type.PLAYER:
            raise RuleError(t.index.pos, f"the index must be a player, found {describe(idx)}")
        var_type = getattr(thing, "type", "int")
        if idx.is_const:
            if idx.const < 0:
                return 1  # a player not in play: nothing to change
            self._assign_slot(s, f"v[{thing.offset + idx.const}]", value, var_type)
        elif _always_a_player(idx.code, scope):
            self._assign_slot(s, f"v[{thing.offset} + {idx.code}]", value, var_type)
        else:
            player = self._site_local(idx)
            with self.src.block(f"if {player} >= 0:"):
                self._assign_slot(s, f"v[{thing.offset} + {player}]", value, var_type)
        return value.cost + 1

    def _with_slot(self, piece: str, i: int, value: str) -> str:
        """Code of the piece tuple `piece` with `value` in slot `i` (element by
        element: one new tuple, where slicing and joining make three)."""
        if self.piece_length <= 16:
            return "(" + ", ".join(value if j == i else f"{piece}[{j}]" for j in range(self.piece_length)) + ")"
        tail = f" + {piece}[{i + 1}:]" if i + 1 < self.piece_length else ""
        return f"{piece}[:{i}] + ({value},){tail}"

    def _check_number(self, target: str, pos: ast.Pos) -> None:
        """After a computed number was stored in `target`: refuse one beyond the limit."""
        with self.src.block(f"if not {-NUMBER_LIMIT} <= {target} <= {NUMBER_LIMIT}:"):
            self.line(f"h_bounded({target}, {self.src.const(pos)})")

    def _assign_slot(self, s: ast.AssignStmt, target: str, value: Code, var_type: str) -> None:
        if s.op != "=":
            if var_type == "flag":
                raise RuleError(s.pos, f"'{s.op}' needs a number variable; this one is a flag (true or false)")
            if value.type is not Type.INT:
                raise RuleError(s.value.pos, f"'{s.op}' needs a number, found {describe(value)}")
            self.line(f"{target} {s.op} {value.code}")
            if not _small_step(value):
                self._check_number(target, s.pos)
            return
        expected = (Type.BOOL, Type.INT) if var_type == "flag" else (Type.INT,)
        if value.type not in expected and not (var_type != "flag" and value.type in (Type.SITE, Type.PLAYER)):
            raise RuleError(s.value.pos, f"cannot store {describe(value)} in a {var_type} variable")
        if value.type is Type.BOOL:
            # Flags are stored as 0/1.
            self.line(f"{target} = 1 if {value.code} else 0")
            return
        self.line(f"{target} = {value.code}")
        if value.type is Type.INT and not value.is_const and not value.stored:
            self._check_number(target, s.pos)

    def _assign_owner(self, s: ast.AssignStmt, obj: Code, value: Code, scope: Scope) -> int:
        """`X.owner = P`: the piece on X changes sides (`none`: it becomes neutral)."""
        if s.op != "=":
            raise RuleError(s.pos, f"'{s.op}' needs a number; an owner is set with '='")
        if value.type not in (Type.PLAYER, Type.NONE):
            raise RuleError(s.value.pos, f"an owner is a player (or none), found {describe(value)}")
        if self.model.stacks:
            raise RuleError(s.pos, "with stacks a figure belongs to the colour of its top stone: change the stones instead")
        self.changes_owners = True
        site = self._site_local(obj)
        self.line(f"x0 = b[{site}]")
        self.line(f"x1 = {value.code}")
        with self.src.block("if x0 is not None and x1 != x0[0]:"):
            self.line("x0 = (x1,) + x0[1:]")
            self.line(f"h_replace(b, o, {site}, x0)")
            self._after_change(site, "x0", scope)
        return obj.cost + value.cost + 1

    def _assign_attribute(self, s: ast.AssignStmt, t: ast.Attr, value: Code, scope: Scope) -> int:
        obj = self._site(t.obj, scope, "the piece whose attribute changes")
        if t.name == "owner":
            return self._assign_owner(s, obj, value, scope)
        attr = self.model.attributes.get(t.name)
        if attr is None:
            raise unknown(name_pos(t.pos, t.name), "attribute", t.name, list(self.model.attributes))
        if attr.type == "marker":
            raise RuleError(t.pos, f"'{t.name}' is a marker: move it with 'give {t.name} to ...'")
        if attr.type == "int" and value.type is not Type.INT:
            raise RuleError(s.value.pos, f"attribute '{t.name}' is a number, found {describe(value)}")
        if attr.type == "flag" and value.type is not Type.BOOL:
            raise RuleError(s.value.pos, f"attribute '{t.name}' is a flag (true or false), found {describe(value)}")
        if s.op != "=" and attr.type != "int":
            raise RuleError(s.pos, f"'{s.op}' needs a number attribute; '{t.name}' is a flag")
        i = attr.index
        acting = isinstance(t.obj, ast.Name) and t.obj.id == "piece"
        new_value = {"=": "{v}", "+=": "x0[{i}] + {v}", "-=": "x0[{i}] - {v}"}[s.op].format(i=i, v=value.code)
        if acting and scope.piece_always:
            self.line("x0 = pc")
            self._set_attribute(s, attr, value, new_value, i, acting, None, scope)
            return obj.cost + value.cost + 1
        if acting:
            self.line("x0 = pc")
        else:
            site = self._site_local(obj)
            self.line(f"x0 = pc if {site} == at else b[{site}]" if self._tracks_piece(scope) else f"x0 = b[{site}]")
        with self.src.block("if x0 is not None:"):
            self._set_attribute(s, attr, value, new_value, i, acting, None if acting else site, scope)
        return obj.cost + value.cost + 1

    def _set_attribute(self, s: ast.AssignStmt, attr, value: Code, new_value: str, i: int, acting: bool,
                       site: Optional[str], scope: Scope) -> None:
        """`x0` is the piece: give it the new value of attribute `i`, on the board too."""
        checked = (attr.type == "int" and not value.is_const and not value.stored and s.op == "="
                   or s.op != "=" and not _small_step(value))
        if not checked and not acting and not self._tracks_piece(scope):
            # (one line: what the next statement needs it reads from the board again)
            self.line(f"b[{site}] = {self._with_slot('x0', i, new_value)}")
            return
        self.line(f"x1 = {new_value}")
        if checked:
            self._check_number("x1", s.pos)
        self.line(f"x0 = {self._with_slot('x0', i, 'x1')}")
        if acting:
            self.line("pc = x0")
            with self.src.block("if at != -1:") if not self.at_valid else _unindented():
                self.line("b[at] = x0")
        elif self._tracks_piece(scope):
            with self.src.block(f"if {site} == at:"):
                self.line("pc = x0")
                with self.src.block("if at != -1:"):
                    self.line("b[at] = x0")
            with self.src.block("else:"):
                self.line(f"b[{site}] = x0")
        else:
            self.line(f"b[{site}] = x0")

    # ------------------------------------------------------------ control
    def _IfStmt(self, s: ast.IfStmt, scope: Scope):
        return self._chain(list(s.branches), s.otherwise, scope, s.pos)

    def _chain(self, branches: list, otherwise: list, scope: Scope, pos: ast.Pos) -> int:
        """`if`/`elif`/`else` from the first branch on. A condition's own lines (loops of
        quantifiers, see expressions.lowered) run only when the branches before it
        failed, so a later `elif` is written as `else:` + `if`. A branch whose condition
        never holds is skipped, the ones after a condition that always holds too."""
        if not branches:
            return self._branch(otherwise, scope, "else", pos, None) if otherwise else 0
        (cond, body), rest = branches[0], branches[1:]
        lines, c = self.exprs.lowered(cond, scope, condition=True)
        if c.is_const:
            if not c.const:
                self._dead_branch(f"if {_short(cond)}", cond.pos)
                return c.cost + self._chain(rest, otherwise, scope, pos)
            cost = c.cost + self._branch(body, scope, f"if {_short(cond)}", cond.pos, None)
            for later, _ in rest:
                self._dead_branch(f"if {_short(later)}", later.pos)
            if otherwise:
                self._dead_branch("else", pos)
            return cost
        for line in lines:
            self.line(line)
        cost = c.cost + self._branch(body, scope, f"if {_short(cond)}", cond.pos, f"if {c.code}:")
        if rest or otherwise:
            valid = self.at_valid
            with self.src.block("else:"):
                cost += self._chain(rest, otherwise, scope, pos)
            self.at_valid = valid and self.at_valid
        return cost

    def _branch(self, body: list, scope: Scope, label: str, pos: ast.Pos, head: Optional[str]) -> int:
        """One branch of an `if`: its body under `head` (None: no test, it always runs)."""
        counter = self.probes.count("branch", label, pos)
        valid = self.at_valid
        with self.src.block(head) if head is not None else _unindented():
            if counter:
                self.line(counter)
            cost = self.block(body, scope.child())
        # After the `if`, `at` is known valid only if no branch may have changed that.
        self.at_valid = valid and self.at_valid
        return cost

    def _dead_branch(self, label: str, pos: ast.Pos) -> None:
        """A branch whose condition never holds: still a coverage probe (that never fires)."""
        self.probes.count("branch", label, pos)

    def _ForEachStmt(self, s: ast.ForEachStmt, scope: Scope):
        if reserved_word(s.var):
            raise RuleError(s.pos, reserved_word(s.var), "choose another name")
        coll = self.exprs.as_sites(self.value(s.iterable, scope))
        elem = ELEMENT.get(coll.type)
        if elem is None:
            raise RuleError(s.iterable.pos, f"'for each' needs a set of sites, players or directions, found {describe(coll)}")
        inner = scope.child()
        var = self.src.fresh("l")
        inner.locals[s.var] = Local(var, elem, always=elem is not Type.SITE, real=elem is Type.SITE)
        # A copy: the body may move or remove the very pieces being listed.
        items = coll.code if coll.is_const or coll.fresh else f"tuple({coll.code})"
        if coll.size > MAX_LOOP:
            items_name = self.src.fresh("t")
            self.line(f"{items_name} = {items}")
            with self.src.block(f"if len({items_name}) > {MAX_LOOP}:"):
                message = self.src.const(f"'for each' over more than {MAX_LOOP} items")
                self.line(f"h_fail({self.src.const(s.pos)}, {message})")
            items = items_name
        valid = self.at_valid
        with self.src.block(f"for {var} in {items}:"):
            body = self.block(s.body, inner)
        self.at_valid = valid and self.at_valid
        return coll.cost + coll.size * (1 + body)

    def _RepeatStmt(self, s: ast.RepeatStmt, scope: Scope):
        count = self.value(s.count, scope)
        if count.type is not Type.INT:
            raise RuleError(s.count.pos, f"'repeat' needs a number of times, found {describe(count)}")
        times = self.src.fresh("t")
        self.line(f"{times} = {count.code}")
        with self.src.block(f"if {times} > {MAX_LOOP}:"):
            message = self.src.const(f"'repeat' more than {MAX_LOOP} times")
            self.line(f"h_fail({self.src.const(s.pos)}, {message})")
        valid = self.at_valid
        with self.src.block(f"for {self.src.fresh('t')} in range({times}):"):
            body = self.block(s.body, scope.child())
        self.at_valid = valid and self.at_valid
        bound = count.const if count.is_const else MAX_LOOP
        return count.cost + max(bound, 0) * (1 + body)

    def _CallStmt(self, s: ast.CallStmt, scope: Scope):
        name = s.procedure
        if name not in self.procedures:
            hint = "procedures are declared with 'procedure NAME:'"
            raise unknown(s.pos, "procedure or statement", name, list(self.procedures), hint)
        if name in self._procedure_stack:
            chain = " -> ".join(self._procedure_stack + [name])
            raise RuleError(s.pos, f"procedure '{name}' calls itself ({chain}); procedures cannot recurse")
        if len(self._procedure_stack) >= MAX_CALL_DEPTH:
            raise RuleError(s.pos, f"procedures call procedures more than {MAX_CALL_DEPTH} deep ({self._procedure_stack[0]} -> ... -> {name})")
        procedure = self.procedures[name]
        if len(s.args) != len(procedure.params):
            wanted = ", ".join(p.id for p in procedure.params)
            raise RuleError(s.pos, f"procedure '{name}' takes {len(procedure.params)} argument(s) ({wanted}), found {len(s.args)}")
        inner = scope
        cost = 0
        if procedure.params:
            # The arguments are computed first, where the call stands; inside, the
            # parameters stand for them.
            inner = scope.child()
            for param, arg in zip(procedure.params, s.args):
                value = self.value(arg, scope)
                if value.type is Type.PER_PLAYER:
                    raise RuleError(arg.pos, "this differs per player: say whose, e.g. [player]")
                local = self.src.fresh("l")
                self.line(f"{local} = {value.code}")
                inner.locals[param.id] = Local(local, value.type)
                cost += value.cost
        self._procedure_stack.append(name)
        try:
            # Compiled in the caller's scope: a procedure is a named piece of its caller.
            return cost + self.block(procedure.body, inner)
        finally:
            self._procedure_stack.pop()

    def _ThenStmt(self, s: ast.ThenStmt, scope: Scope):
        if not scope.followups:
            raise RuleError(s.pos, f"'then' starts a follow-up decision after an action; it has no effect in {scope.where}")
        if s.decision not in self.decision_index:
            if s.decision in self.duplicates:
                return 1  # declared twice: that is the error to read first
            raise unknown(name_pos(s.pos, s.decision), "decision", s.decision, list(self.decision_index))
        self.followups.append((s.pos, s.decision))
        self.effects.add(("then", self.decision_index[s.decision]))
        self.line(f"fu = {self.decision_index[s.decision]}")

    def _NotationStmt(self, s: ast.NotationStmt, scope: Scope):
        raise RuleError(s.pos, "'notation' belongs directly inside an action or a case (onto ..., over ..., off board)")

    def _player_or_current(self, e: Optional[ast.Expr], scope: Scope) -> str:
        if e is None:
            return scope.register("player").site
        c = self.value(e, scope)
        if c.type is not Type.PLAYER:
            raise RuleError(e.pos, f"expected a player, found {describe(c)}")
        return c.code

    def _end(self, how: int, player: str, pos: ast.Pos) -> None:
        ending = self.endings.add(how, pos)
        self.effects.add("end")
        self.line(f"h_end(s, {how}, {player}, {ending})")

    def _WinStmt(self, s: ast.WinStmt, scope: Scope):
        self._end(WIN, self._player_or_current(s.player, scope), s.pos)

    def _LoseStmt(self, s: ast.LoseStmt, scope: Scope):
        self._end(LOSE, self._player_or_current(s.player, scope), s.pos)

    def _DrawStmt(self, s: ast.DrawStmt, scope: Scope):
        self._end(DRAW, "-1", s.pos)

    def _EndStmt(self, s: ast.EndStmt, scope: Scope):
        self._end(END_GAME, "-1", s.pos)

    def _StartPhaseStmt(self, s: ast.StartPhaseStmt, scope: Scope):
        if s.phase not in self.phase_index:
            if s.phase in self.duplicates:
                return 1  # declared twice: that is the error to read first
            known = ", ".join(self.phase_index) or "none"
            raise unknown(name_pos(s.pos, s.phase), "phase", s.phase, list(self.phase_index), f"the phases: {known}")
        self.starts_phases = True
        self.effects.add("next phase")
        self.line(f"s.next_phase = {self.phase_index[s.phase]}")

    def _NextTurnStmt(self, s: ast.NextTurnStmt, scope: Scope):
        self.names_next_player = True
        self.effects.add("next player")
        self.line(f"s.next_player = {self._player_or_current(s.player, scope)}")


# Statements after which an empty site is still empty (they put nothing anywhere).
_LEAVE_SITES_EMPTY = (
    ast.LetStmt, ast.AssignStmt, ast.ThenStmt, ast.WinStmt, ast.LoseStmt, ast.DrawStmt, ast.EndStmt, ast.NextTurnStmt,
    ast.StartPhaseStmt, ast.RemoveStmt, ast.ReturnStmt, ast.ReleaseStmt, ast.GiveStmt, ast.NotationStmt,
)


class _unindented:
    """A context manager opening no block (the lines stay at the same depth)."""

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _short(e: ast.Expr) -> str:
    """A label for a condition (for coverage rows): as written, cut when long."""
    text = expression_text(e)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = ["StatementCompiler", "Endings", "Probes", "STATEMENT_WORDS", "int_literal"]


# Adding or subtracting a fixed number up to this is not checked against the
# number limit: a number would need 10^9 such steps to pass it (docs/format.md §5).
SMALL_STEP = 10**6


def _small_step(value: Code) -> bool:
    return value.is_const and isinstance(value.const, int) and abs(value.const) <= SMALL_STEP
