"""Statements of the rules language → statements of generated Python.

Statements run inside a generated function whose registers (scope.py) hold the
action: `at` and `pc` are where the acting piece stands now and the piece itself;
every statement that moves, removes or changes that piece keeps them up to date,
so later statements and the `after each action` rules see the piece as it is now.
`fu` is the follow-up decision a `then` asks for (-1: none).

Each statement is written into the `Source` (its innermost open block); each
compiling method returns the estimated steps one run costs (for the work bound,
see budget.py). What the statements compiled so far know (whether `at` is still
on the board, whether `to` is still empty, what they do to the turn) is the
scope's `Flow`.
"""
from __future__ import annotations

import ast as py
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass, field
from typing import Any, Callable, ContextManager, Optional, Union

from ..parsing import ast
from ..parsing.unparse import expression_text
from ..parsing.visit import statements_of
from ..runtime.helpers import NUMBER_LIMIT
from ..runtime.moves import Moves, rotation_moves
from ..runtime.results import EndingKind
from ..spelling import counted, did_you_mean
from . import pyast, shared_conjuncts
from .code import Code, always_a_player, describe, standing_local, stands_alone
from .dispatch import dispatched
from .errors import FollowOnError, RuleError, TooDeep, name_pos, unknown
from .expressions import ExpressionCompiler, whole_number
from .found_walks import stops_when_found
from .items import kind_copy_name
from .liberties import group_stones
from .model import Attribute, Pool, Variable
from .names import CONTEXT_NAMES, reserved_word
from .permutations import MAX_WRITTEN_OUT, written_out
from .probes import Probes
from .scope import Effect, Local, Scope
from .types import ELEMENT, Type

# Bound for `for each` over a collection a definition drives.
MAX_LOOP = 100_000
# How deep procedures may call procedures (each is compiled where it is called).
MAX_CALL_DEPTH = 50
# Adding or subtracting a fixed number up to this is not checked against the
# number limit: a number would need 10^9 such steps to pass it (docs/format.md §5).
SMALL_STEP = 10**6

Statement = Callable[[Any, Scope], Optional[int]]


# A list in brackets after a statement's `for each` is a set of sites; an action's
# `for each` (format.md 3.4) takes numbers and other values too.
_FOR_EACH_LIST = ("a statement's 'for each' walks sites, players or directions, or the whole numbers "
                  "from A to B: 'for each i in 1 to 3:' (format.md 3.10); a list of numbers is for an "
                  "action's 'for each' (format.md 3.4); for a few given numbers call a procedure once "
                  "per value: 'add(1)', 'add(5)', ...")


@dataclass
class Endings:
    """The statements that can end the game, numbered for `h_end` (and coverage)."""

    entries: list[tuple[EndingKind, ast.Pos]] = field(default_factory=list)  # (how, pos)

    def add(self, how: EndingKind, pos: ast.Pos) -> int:
        self.entries.append((how, pos))
        return len(self.entries) - 1


# The registers and the few scratch locals statements use, as names.
def _r(identifier: str) -> py.Name:
    return pyast.name(identifier)


def _board(site: py.expr) -> py.Subscript:
    """`b[site]`: what stands on a site."""
    return pyast.sub(_r("b"), site)


def _owners_sites(owner: py.expr) -> py.Subscript:
    """`o[owner]`: the sites of an owner's pieces."""
    return pyast.sub(_r("o"), owner)


def _owner(piece: py.expr) -> py.Subscript:
    return pyast.sub(piece, 0)


def _call(helper: str, *args: py.expr) -> py.stmt:
    return pyast.expr_stmt(pyast.helper(helper, *args))


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
        self.src = exprs.src
        self.procedures = procedures
        self.decision_index = decision_index
        self.phase_index = phase_index
        self.endings = endings
        self.probes = probes
        self._procedure_stack: list[str] = []
        self.errors: list[RuleError] = []
        self.warnings: list[RuleError] = []  # (the compiler reports them with its own)
        self.followups: list[tuple[ast.Pos, str]] = []
        # What the rules ever say, for the parts written later: `start phase` /
        # `next turn` (else ending a turn is simpler), `X.owner = P`, promotions (a
        # kind changed in place).
        self.starts_phases = False
        self.names_next_player = False
        self.changes_owners = False
        self.changes_kinds = False
        # whether a fixed permutation of sites is written out (permutations.py): a
        # rotation rewrites many sites at each action, one write at a time
        self.writes_permutations = False
        self.duplicates: set[str] = set()  # names declared twice (already reported)
        # (the variables set to a fixed value right after the `for each` being compiled)
        self._set_after_loop: frozenset[str] = frozenset()
        self._compilers: dict[type, Statement] = {
            ast.MoveStmt: self._move, ast.CreateStmt: self._create, ast.PlaceStmt: self._place,
            ast.RemoveStmt: self._remove, ast.ReturnStmt: self._return, ast.GiveStmt: self._give,
            ast.PromoteStmt: self._promote, ast.PromoteChoiceStmt: self._promote_choice, ast.StackStmt: self._stack,
            ast.ReleaseStmt: self._release, ast.AddStoneStmt: self._add_stone, ast.LetStmt: self._let,
            ast.AssignStmt: self._assign, ast.IfStmt: self._if, ast.ForEachStmt: self._for_each,
            ast.RepeatStmt: self._repeat, ast.CallStmt: self._call_procedure, ast.ThenStmt: self._then,
            ast.NotationStmt: self._notation, ast.WinStmt: self._win, ast.LoseStmt: self._lose,
            ast.DrawStmt: self._draw, ast.EndStmt: self._end_game, ast.StartPhaseStmt: self._start_phase,
            ast.NextTurnStmt: self._next_turn, ast.RotateStmt: self._rotate, ast.CycleStmt: self._cycle,
        }

    # ------------------------------------------------------------ blocks
    def block_with_effects(self, stmts: list[ast.Stmt], scope: Scope) -> tuple[int, frozenset[Effect]]:
        """(cost, effects on the turn) of a block compiled apart (its scope's flow is its own)."""
        cost = self.block(stmts, scope)
        return cost, frozenset(scope.flow.effects)

    def block(self, stmts: list[ast.Stmt], scope: Scope) -> int:
        """Compile statements; errors are collected so that one bad line does not hide the next."""
        cost = 0
        for k, stmt in enumerate(stmts):
            if isinstance(stmt, ast.ForEachStmt):
                self._set_after_loop = _set_to_literals(stmts[k + 1:])
            try:
                cost += self.stmt(stmt, scope)
            except FollowOnError:
                pass
            except RuleError as err:
                self.errors.append(err)
                if isinstance(stmt, ast.LetStmt) and not reserved_word(stmt.name):
                    scope.locals[stmt.name] = Local(pyast.none(), Type.NONE, broken=True)
        return cost

    def stmt(self, s: ast.Stmt, scope: Scope) -> int:
        try:
            cost = self._compilers[type(s)](s, scope) or 1
        except RecursionError:
            raise TooDeep(s.pos, "this statement is nested too deeply to compile") from None
        if not isinstance(s, _LEAVE_SITES_EMPTY):
            scope.flow.to_empty = False
        return cost

    def add(self, *stmts: py.stmt) -> None:
        self.src.add(*stmts)

    def value(self, e: ast.Expr, scope: Scope) -> Code:
        """Compile an expression whose loops become statements written before the
        statement that uses it (see expressions.lowered)."""
        lines, c = self.exprs.lowered(e, scope)
        self.src.paste(lines)
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

    def _site_local(self, c: Code) -> py.expr:
        """A local holding the site of `c` (evaluated once)."""
        if c.is_const or isinstance(c.code, py.Name):
            return c.code
        name = _r(self.src.fresh("t"))
        self.add(pyast.assign(name, c.code))
        return name

    def _if_acting(self, site: py.expr) -> ContextManager[None]:
        """`if site == at:` (the piece on `site` is the acting piece)."""
        return self.src.if_(pyast.compare(site, "==", _r("at")))  # type: ignore[no-any-return]

    def _after_change(self, site: py.expr, new: py.expr, scope: Scope) -> None:
        """The piece on `site` is now `new`: if it is the acting piece, `pc` follows."""
        if self._tracks_piece(scope):
            with self._if_acting(site):
                self.add(pyast.assign(_r("pc"), new))

    def _gone(self, site: py.expr, scope: Scope) -> None:
        """The piece on `site` left the board: if it was the acting piece, `at` says so."""
        scope.flow.at_valid = False
        if self._tracks_piece(scope):
            with self._if_acting(site):
                self.add(pyast.assign(_r("at"), pyast.num(-1)))

    def _unless_at_valid(self, scope: Scope) -> ContextManager[None]:
        """`if at != -1:` unless the acting piece is known to be on the board."""
        if scope.flow.at_valid:
            return nullcontext()
        return self.src.if_(pyast.compare(_r("at"), "!=", pyast.num(-1)))  # type: ignore[no-any-return]

    # ------------------------------------------------------------ piece movement
    def _move(self, s: ast.MoveStmt, scope: Scope) -> Optional[int]:
        if s.one:
            return self._move_one(s, scope)
        if s.what is not None:
            return self._move_other(s, scope)
        self._require(scope, "to", s.pos, "move")
        if "piece" not in scope.available:
            raise RuleError(s.pos, f"'move' moves the acting piece to 'to', and {scope.where} has none: a 'select' "
                                   "chooses a site and moves no piece",
                            "to move the piece chosen, write 'move target to SITE'")
        if not scope.piece_always:
            # (after each action: a select, a pass or a chance outcome has no acting piece, and nothing moves)
            pc, to = _r("pc"), _r("to")
            with self.src.if_(pyast.and_(pyast.is_not_none(pc), pyast.compare(to, "!=", pyast.num(-1)))):
                self._move_acting_piece(scope)
            scope.flow.at_valid = False
            return None
        self._move_acting_piece(scope)
        return None

    def _move_acting_piece(self, scope: Scope) -> None:
        at, pc, to = _r("at"), _r("pc"), _r("to")
        leave = [pyast.assign(_board(at), pyast.none()),
                 pyast.expr_stmt(pyast.method(_owners_sites(_owner(pc)), "remove", at))]
        with self._unless_at_valid(scope):
            if any(site != -1 for site in self.model.pool_site_of):
                pool_of = self.src.const(tuple(self.model.pool_site_of), key="pool_site_of")
                # Only a pool's site is empty under a moving piece: it leaves the pool.
                waiting = pyast.sub(_r("v"), pyast.add(pyast.sub(pool_of, at), _owner(pc)))
                self.add(pyast.if_(pyast.is_none(_board(at)), [pyast.augment(waiting, "-", pyast.num(1))], leave))
            else:
                self.add(*leave)
        if not scope.flow.to_empty:
            x0 = _r("x0")
            self.add(pyast.assign(x0, _board(to)),
                     pyast.if_(pyast.is_not_none(x0),
                               [pyast.expr_stmt(pyast.method(_owners_sites(_owner(x0)), "remove", to))]))
        self.add(pyast.assign(_board(to), pc),
                 pyast.expr_stmt(pyast.method(_owners_sites(_owner(pc)), "append", to)),
                 pyast.assign(at, to))
        scope.flow.at_valid = True

    def _move_other(self, s: ast.MoveStmt, scope: Scope) -> int:
        """`move X to Y`: whatever stands on X goes to Y (what stood on Y leaves the
        board); the acting piece's registers follow it if it is the one moved."""
        assert s.what is not None and s.dest is not None
        source = self._site(s.what, scope, "what 'move' moves")
        dest = self._site(s.dest, scope, "where 'move ... to' goes")
        a = self._site_local(source)
        z = self._site_local(dest)
        x0, at = _r("x0"), _r("at")
        self.add(pyast.assign(x0, _board(a)))
        moves = pyast.and_(pyast.is_not_none(x0), pyast.compare(z, "!=", pyast.num(-1)), pyast.compare(z, "!=", a))
        with self.src.if_(moves):
            self.add(_call("h_clear", _r("b"), _r("o"), z),
                     _call("h_clear", _r("b"), _r("o"), a),
                     pyast.assign(_board(z), x0),
                     pyast.expr_stmt(pyast.method(_owners_sites(_owner(x0)), "append", z)))
            if self._tracks_piece(scope):
                self.add(pyast.if_(pyast.compare(a, "==", at), [pyast.assign(at, z)], [
                    pyast.if_(pyast.compare(z, "==", at), [pyast.assign(at, pyast.num(-1))])]))
        scope.flow.at_valid = False
        return source.cost + dest.cost + 2

    def _create(self, s: ast.CreateStmt, scope: Scope) -> int:
        """`create KIND at X [for P]`: a new piece (the deciding player's, or P's; a
        neutral kind's belongs to nobody) on X, in place of what stands there."""
        kind = self.kind_index(s.kind, s.kind_pos)
        at = self._site(s.at, scope, "where 'create' puts the piece")
        neutral = self.model.kinds[s.kind].neutral
        whose: py.expr
        if s.owner is not None:
            if neutral:
                raise RuleError(s.owner.pos, f"pieces of kind '{s.kind}' are neutral: they belong to no player")
            owner = self.value(s.owner, scope)
            if owner.type is not Type.PLAYER:
                raise RuleError(s.owner.pos, f"a piece belongs to a player, found {describe(owner)}")
            whose = owner.code
        else:
            whose = pyast.num(-1) if neutral else _r(scope.register("player").site)
        owners = [self.model.fresh_piece(o, kind) for o in range(self.model.player_count)]
        fresh = self.src.const(tuple(owners) + (self.model.fresh_piece(-1, kind),))
        site = self._site_local(at)
        x0 = _r("x0")
        self.add(pyast.assign(x0, whose))
        on_board = pyast.compare(site, "!=", pyast.num(-1))
        with self.src.if_(on_board if neutral else pyast.and_(on_board, pyast.compare(x0, ">=", pyast.num(0)))):
            self.add(_call("h_replace", _r("b"), _r("o"), site, pyast.sub(fresh, x0)))
            self._gone(site, scope)
        return at.cost + 2

    def _place(self, s: ast.PlaceStmt, scope: Scope) -> Optional[int]:
        self._require(scope, "to", s.pos, "place")
        if not scope.in_drop:
            raise RuleError(s.pos, "'place' puts a new piece down and belongs to 'drop' actions; "
                                   "a piece that moves uses 'move'")
        to, pc = _r("to"), _r("pc")
        if scope.flow.to_empty:
            self.add(pyast.assign(_board(to), pc),
                     pyast.expr_stmt(pyast.method(_owners_sites(_owner(pc)), "append", to)))
        else:
            self.add(_call("h_replace", _r("b"), _r("o"), to, pc))
        self.add(pyast.assign(_r("at"), to))
        if scope.drop_pool_offset is not None:
            waiting = pyast.sub(_r("v"), pyast.add(pyast.num(scope.drop_pool_offset), _r("p")))
            self.add(pyast.augment(waiting, "-", pyast.num(1)))
        return None

    # ------------------------------------------------------------ one stone of a stack
    def _move_one(self, s: ast.MoveStmt, scope: Scope) -> int:
        """`move one` (the acting piece's top stone goes onto `to`) or `move one X to
        Y` (X's top stone onto Y): it goes on top of what stands there (which then
        belongs to its colour), or becomes a piece of one stone (runtime/moves.py)."""
        self._needs_stacks(s.pos, "move one")
        if s.what is not None:
            assert s.dest is not None
            source = self._site_local(self._site(s.what, scope, "what 'move one' moves a stone of"))
            dest = self._site_local(self._site(s.dest, scope, "where 'move one ... to' goes"))
            x0, at = _r("x0"), _r("at")
            self.add(pyast.assign(x0, pyast.helper("h_move_one", _r("b"), _r("o"), source, dest)))
            if self._tracks_piece(scope):
                moved = pyast.or_(pyast.compare(source, "==", at), pyast.compare(dest, "==", at))
                self.add(pyast.if_(pyast.and_(pyast.is_not_none(x0), moved),
                                   [pyast.assign(at, dest), pyast.assign(_r("pc"), x0)]))
            scope.flow.at_valid = False
            return 4
        self._require(scope, "to", s.pos, "move one")
        if scope.in_drop:
            raise RuleError(s.pos, "'move one' moves a stone of a piece on the board; a drop puts its new piece "
                                   "down with 'place'")
        at, pc, to, b, o = _r("at"), _r("pc"), _r("to"), _r("b"), _r("o")
        lift = _call("h_lift_one", b, o, at)
        with self._unless_at_valid(scope):
            if any(site != -1 for site in self.model.pool_site_of):
                pool_of = self.src.const(tuple(self.model.pool_site_of), key="pool_site_of")
                # Only a pool's site is empty under a moving piece: it leaves the pool.
                waiting = pyast.sub(_r("v"), pyast.add(pyast.sub(pool_of, at), _owner(pc)))
                self.add(pyast.if_(pyast.is_none(_board(at)), [pyast.augment(waiting, "-", pyast.num(1))], [lift]))
            else:
                self.add(lift)
        self.add(pyast.assign(pc, pyast.helper("h_land_one", b, o, to, _owner(pc), pc)), pyast.assign(at, to))
        scope.flow.at_valid = True
        return 4

    def _lifted(self, site: py.expr, scope: Scope) -> None:
        """A stone left the stack on `site`: if it was the acting piece's, `pc` is
        what is left of it (`at` -1 when nothing is)."""
        scope.flow.at_valid = False
        if self._tracks_piece(scope):
            at = _r("at")
            with self._if_acting(site):
                self.add(pyast.assign(_r("pc"), _board(at)),
                         pyast.if_(pyast.is_none(_r("pc")), [pyast.assign(at, pyast.num(-1))]))

    def _remove(self, s: ast.RemoveStmt, scope: Scope) -> int:
        if s.one:
            self._needs_stacks(s.pos, "remove one")
            c = self._site(s.what, scope, "what 'remove one' takes a stone of")
            site = self._site_local(c)
            self.add(_call("h_lift_one", _r("b"), _r("o"), site))
            self._lifted(site, scope)
            return c.cost + 2
        c = self._site(s.what, scope, "what 'remove' removes")
        site = self._site_local(c)
        self.add(_call("h_clear", _r("b"), _r("o"), site))
        if isinstance(s.what, ast.Name) and s.what.id == "piece":
            self.add(pyast.assign(_r("at"), pyast.num(-1)))
            scope.flow.at_valid = False
        else:
            self._gone(site, scope)
        return c.cost + 1

    def _return(self, s: ast.ReturnStmt, scope: Scope) -> int:
        pool = self.pool(s.pool, name_pos(s.pos, s.pool))
        if s.one:
            self._needs_stacks(s.pos, "return one")
            c = self._site(s.what, scope, "what 'return one' sends a stone of back")
            site = self._site_local(c)
            x0 = _r("x0")
            # The stone lifted is the stack's top one: its colour is the stack's owner.
            self.add(pyast.assign(x0, pyast.helper("h_lift_one", _r("b"), _r("o"), site)),
                     pyast.if_(pyast.and_(pyast.is_not_none(x0), pyast.compare(_owner(x0), ">=", pyast.num(0))), [
                         pyast.augment(pyast.sub(_r("v"), pyast.add(pyast.num(pool.offset), _owner(x0))), "+",
                                       pyast.num(1))]))
            self._lifted(site, scope)
            return c.cost + 2
        c = self._site(s.what, scope, "what 'return' sends back")
        site = self._site_local(c)
        x0 = _r("x0")
        self.add(pyast.assign(x0, _board(site)))
        with self.src.if_(pyast.is_not_none(x0)):
            self.add(_call("h_clear", _r("b"), _r("o"), site),
                     pyast.if_(pyast.compare(_owner(x0), ">=", pyast.num(0)), [
                         pyast.augment(pyast.sub(_r("v"), pyast.add(pyast.num(pool.offset), _owner(x0))), "+",
                                       pyast.num(1))]))
            self._gone(site, scope)
        return c.cost + 1

    # ------------------------------------------------------------ permutations
    def _rotate(self, s: ast.RotateStmt, scope: Scope) -> int:
        """`rotate SET clockwise|anticlockwise`: a square block of a grid turned a
        quarter (the permutation worked out here when SET is fixed)."""
        board = self.model.board
        if board.kind != "grid":
            raise RuleError(s.pos, "'rotate' needs a grid: it turns a square block of sites; "
                                   "on a graph board use 'cycle'")
        c = self.exprs.as_sites(self.value(s.region, scope))
        if c.type is not Type.SITES:
            raise RuleError(s.region.pos, f"'rotate' needs a set of sites (a square block), found {describe(c)}")
        if c.is_const:
            moves = rotation_moves(board.files, tuple(c.const), s.clockwise)
            if moves is None:
                sites = set(c.const)
                files = len({board.site_file(x) for x in sites})
                ranks = len({board.site_rank(x) for x in sites})
                raise RuleError(s.region.pos, f"'rotate' needs a square block of sites: "
                                              f"'{expression_text(s.region)}' has {counted(len(sites), 'site')} in "
                                              f"{counted(files, 'file')} and {counted(ranks, 'rank')}")
            return c.cost + self._permute_fixed(moves, scope)
        x0 = _r("x0")
        self.add(pyast.assign(x0, pyast.helper("h_rotation", pyast.num(board.files), c.code,
                                               pyast.literal(s.clockwise), self.src.const(s.pos))))
        self._permute_computed(x0, scope)
        return c.cost + 4 * c.size

    def _cycle(self, s: ast.CycleStmt, scope: Scope) -> int:
        """`cycle A, B, C`: at once, A's piece to B, B's to C, C's to A."""
        codes = [self._site(e, scope, "a site of 'cycle'") for e in s.sites]
        if all(c.is_const for c in codes):
            kept: list[int] = []
            for e, c in zip(s.sites, codes):
                if c.const == -1:
                    continue
                if c.const in kept:
                    raise RuleError(e.pos, f"'cycle' names site '{self.model.board.names[c.const]}' twice")
                kept.append(c.const)
            if len(kept) < 2:
                return 1
            return self._permute_fixed((tuple(kept), tuple(kept[1:] + kept[:1])), scope)
        x0 = _r("x0")
        sites = pyast.tuple_(*(c.code for c in codes))
        self.add(pyast.assign(x0, pyast.helper("h_cycle", sites, self.src.const(s.pos))))
        self._permute_computed(x0, scope)
        return sum(c.cost for c in codes) + 4 * len(codes)

    def _permute_fixed(self, moves: Moves, scope: Scope) -> int:
        sources, dests = moves
        if not sources:
            return 1
        if len(sources) <= MAX_WRITTEN_OUT:
            self.add(*written_out(sources, dests, self.src.fresh))
            self.writes_permutations = True
        else:
            self.add(_call("h_permute", _r("b"), _r("o"), self.src.const(sources), self.src.const(dests)))
        if self._tracks_piece(scope):
            where_to = list(range(self.model.board.size)) + [-1]
            for source, dest in zip(sources, dests):
                where_to[source] = dest
            self.add(pyast.assign(_r("at"), pyast.sub(self.src.const(tuple(where_to)), _r("at"))))
        return 4 * len(sources)

    def _permute_computed(self, moves: py.Name, scope: Scope) -> None:
        """The permutation `moves` (sources, dests) worked out while playing."""
        self.add(_call("h_permute", _r("b"), _r("o"), pyast.sub(moves, 0), pyast.sub(moves, 1)))
        if self._tracks_piece(scope):
            self.add(pyast.assign(_r("at"), pyast.helper("h_followed", _r("at"), moves)))

    def pool(self, name: str, pos: ast.Pos) -> Pool:
        if name not in self.model.pools:
            raise unknown(pos, "pool", name, list(self.model.pools))
        return self.model.pools[name]

    def kind_index(self, name: str, pos: ast.Pos) -> int:
        if name not in self.model.kinds:
            raise unknown(pos, "piece kind", name, list(self.model.kinds))
        return self.model.kinds[name].index

    # ------------------------------------------------------------ piece changes
    def _give(self, s: ast.GiveStmt, scope: Scope) -> int:
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
        x0, x1, x2 = _r("x0"), _r("x1"), _r("x2")
        self.add(pyast.assign(x0, _board(site)))
        # At most one piece of each player holds a marker: when this one does not,
        # the one that does (if any) loses it.
        with self.src.if_(pyast.and_(pyast.is_not_none(x0), pyast.not_(pyast.sub(x0, i)))):
            with self.src.for_(x1, _owners_sites(_owner(x0))):
                self.add(pyast.assign(x2, _board(x1)))
                with self.src.if_(pyast.sub(x2, i)):
                    self.add(pyast.assign(x2, self._with_slot(x2, i, pyast.false()), _board(x1)))
                    self._after_change(x1, x2, scope)
                    self.add(pyast.break_())
            self.add(pyast.assign(x0, self._with_slot(x0, i, pyast.true()), _board(site)))
            self._after_change(site, x0, scope)
        return c.cost + self.exprs.n_sites

    def _promote(self, s: ast.PromoteStmt, scope: Scope) -> int:
        self.changes_kinds = True
        kind = self.kind_index(s.kind, name_pos(s.pos, s.kind))
        c = self._site(s.what, scope, "what 'promote' changes")
        site = self._site_local(c)
        self._promote_to(site, pyast.num(kind), scope)
        return c.cost + 1

    def _promote_to(self, site: py.expr, kind: py.expr, scope: Scope) -> None:
        """The piece on `site` (if any) becomes of `kind`."""
        x0 = _r("x0")
        self.add(pyast.assign(x0, _board(site)))
        with self.src.if_(pyast.is_not_none(x0)):
            promoted = pyast.add(pyast.tuple_(_owner(x0), kind), pyast.sub(x0, pyast.slice_(2)))
            self.add(pyast.assign(x0, promoted, _board(site)))
            self._after_change(site, x0, scope)

    def _promote_choice(self, s: ast.PromoteChoiceStmt, scope: Scope) -> int:
        """`promote X to one of K1, K2, ...`: the kind is the action's choice (one
        action per kind, listed by the decision; see actions.py)."""
        if not scope.choice_allowed:
            raise RuleError(s.pos, "'promote ... to one of' belongs in the case of an action "
                                   "(each choice is an action of its own)")
        self.changes_kinds = True
        kinds = tuple(self.kind_index(k.id, k.pos) for k in s.kinds)
        c = self._site(s.what, scope, "what 'promote' changes")
        site = self._site_local(c)
        x1 = _r("x1")
        self.add(pyast.assign(x1, pyast.sub(_r("code"), 4)))
        with self.src.if_(pyast.compare(x1, "<", pyast.num(0))):
            message = self.src.const("the kind to promote to was not chosen: the conditions around 'one of' changed "
                                     "while the action ran")
            self.add(_call("h_fail", self.src.const(s.pos), message))
        self._promote_to(site, pyast.sub(self.src.const(kinds), x1), scope)
        return c.cost + 1

    def _needs_stacks(self, pos: ast.Pos, what: str) -> None:
        if not self.model.stacks:
            raise RuleError(pos, f"'{what}' works on stacks; declare 'stacks: true' in the YAML")

    def _stack(self, s: ast.StackStmt, scope: Scope) -> int:
        self._needs_stacks(s.pos, "stack")
        source = self._site_local(self._site(s.source, scope, "the stack to move"))
        dest = self._site_local(self._site(s.dest, scope, "the stack to put it under"))
        x0, x1, x2, x3 = _r("x0"), _r("x1"), _r("x2"), _r("x3")
        b, o = _r("b"), _r("o")
        self.add(pyast.assign(x0, _board(source)), pyast.assign(x1, _board(dest)))
        with self.src.if_(pyast.and_(pyast.is_not_none(x0), pyast.is_not_none(x1))):
            stones = pyast.sub(x0, 2)
            if s.top_only:
                rest = pyast.add(pyast.tuple_(pyast.sub(x3, -1), pyast.sub(x0, 1), x3), pyast.sub(x0, pyast.slice_(3)))
                self.add(
                    pyast.assign(x2, pyast.sub(stones, pyast.slice_(-1))),
                    pyast.assign(x3, pyast.sub(stones, pyast.slice_(None, -1))),
                    # What is left of the stack belongs to the colour now on top.
                    pyast.if_(x3, [_call("h_replace", b, o, source, rest)], [_call("h_clear", b, o, source)]),
                )
            else:
                self.add(pyast.assign(x2, stones), _call("h_clear", b, o, source))
            under = pyast.add(pyast.add(pyast.sub(x1, pyast.slice_(None, 2)),
                                        pyast.tuple_(pyast.add(x2, pyast.sub(x1, 2)))),
                              pyast.sub(x1, pyast.slice_(3)))
            self.add(pyast.assign(x1, under, _board(dest)))
            self._after_change(dest, x1, scope)
        return 4

    def _release(self, s: ast.ReleaseStmt, scope: Scope) -> int:
        self._needs_stacks(s.pos, "release")
        pool = self.pool(s.pool, name_pos(s.pos, s.pool))
        site = self._site_local(self._site(s.what, scope, "the stack to release"))
        x0, x1 = _r("x0"), _r("x1")
        self.add(pyast.assign(x0, _board(site)))
        with self.src.if_(pyast.is_not_none(x0)):
            self.add(pyast.for_(x1, pyast.sub(x0, 2), [
                pyast.augment(pyast.sub(_r("v"), pyast.add(pyast.num(pool.offset), x1)), "+", pyast.num(1))]),
                _call("h_clear", _r("b"), _r("o"), site))
            self._gone(site, scope)
        return 4

    def _add_stone(self, s: ast.AddStoneStmt, scope: Scope) -> int:
        self._needs_stacks(s.pos, "add stone")
        pool = self.pool(s.pool, s.pool_pos or s.pos)
        site = self._site_local(self._site(s.dest, scope, "the stack that gets the stone"))
        x0 = _r("x0")
        self.add(pyast.assign(x0, _board(site)))
        with self.src.if_(pyast.is_not_none(x0)):
            waiting = pyast.sub(_r("v"), pyast.add(pyast.num(pool.offset), _owner(x0)))
            with self.src.if_(pyast.compare(waiting, "<=", pyast.num(0))):
                message = self.src.const(f"pool '{pool.name}' of that player is empty")
                self.add(_call("h_fail", self.src.const(s.pos), message))
            grown = pyast.add(pyast.add(pyast.sub(x0, pyast.slice_(None, 2)),
                                        pyast.tuple_(pyast.add(pyast.tuple_(_owner(x0)), pyast.sub(x0, 2)))),
                              pyast.sub(x0, pyast.slice_(3)))
            self.add(pyast.augment(waiting, "-", pyast.num(1)), pyast.assign(x0, grown, _board(site)))
            self._after_change(site, x0, scope)
        return 2

    # ------------------------------------------------------------ data
    def _let(self, s: ast.LetStmt, scope: Scope) -> int:
        reserved = reserved_word(s.name)
        if reserved:
            raise RuleError(s.pos, reserved, "choose another name")
        c = self.value(s.value, scope)
        if c.type is Type.PER_PLAYER:
            raise RuleError(s.value.pos, f"cannot store {describe(c)} in 'let'")
        name = _r(self.src.fresh("l"))
        self.add(pyast.assign(name, c.code))
        if c.type is Type.INT:
            self.src.whole.add(name.id)
        # (a group named: its sites as a bitmask too, read from the groups the
        # position keeps, for the questions whether its sites are in a region)
        stones = group_stones(self.exprs, s.value, scope)
        bits = None
        if stones is not None and c.type is Type.SITES:
            bits = _r(self.src.fresh("l"))
            self.add(pyast.assign(bits, stones))
        scope.locals[s.name] = Local(name, c.type, bits=bits, distinct=c.distinct)
        return c.cost

    def _assign(self, s: ast.AssignStmt, scope: Scope) -> int:
        value = self.value(s.value, scope)
        t = s.target
        if isinstance(t, ast.Attr):
            return self._assign_attribute(s, t, value, scope)
        variables = _r("v")
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
            self._assign_slot(s, pyast.sub(variables, var.offset), value, var.type)
            return value.cost + 1
        assert isinstance(t, ast.Index)
        per_player = isinstance(t.obj, ast.Name) and (t.obj.id in self.model.variables or t.obj.id in self.model.pools)
        if not per_player or not isinstance(t.obj, ast.Name):
            raise RuleError(t.pos, "only per-player variables and pools can be assigned with [player]")
        thing: Union[Variable, Pool] = self.model.variables.get(t.obj.id) or self.model.pools[t.obj.id]
        if getattr(thing, "per_player", True) is False:
            raise RuleError(t.pos, f"variable '{t.obj.id}' is shared, not per player")
        idx = self.value(t.index, scope)
        if idx.type is not Type.PLAYER:
            raise RuleError(t.index.pos, f"the index must be a player, found {describe(idx)}")
        var_type = getattr(thing, "type", "int")
        if idx.is_const:
            if idx.const < 0:
                return 1  # a player not in play: nothing to change
            self._assign_slot(s, pyast.sub(variables, thing.offset + idx.const), value, var_type)
        elif always_a_player(idx.code, scope):
            self._assign_slot(s, pyast.sub(variables, pyast.add(pyast.num(thing.offset), idx.code)), value, var_type)
        else:
            player = self._site_local(idx)
            with self.src.if_(pyast.compare(player, ">=", pyast.num(0))):
                self._assign_slot(s, pyast.sub(variables, pyast.add(pyast.num(thing.offset), player)), value,
                                  var_type)
        return value.cost + 1

    def _with_slot(self, piece: py.expr, i: int, value: py.expr) -> py.expr:
        """Code of the piece tuple `piece` with `value` in slot `i` (element by
        element: one new tuple, where slicing and joining make three)."""
        if self.piece_length <= 16:
            return pyast.tuple_(*(value if j == i else pyast.sub(piece, j) for j in range(self.piece_length)))
        joined = pyast.add(pyast.sub(piece, pyast.slice_(None, i)), pyast.tuple_(value))
        return pyast.add(joined, pyast.sub(piece, pyast.slice_(i + 1))) if i + 1 < self.piece_length else joined

    def _check_number(self, target: py.expr, pos: ast.Pos) -> None:
        """After a computed number was stored in `target`: refuse one beyond the limit."""
        within = pyast.compare(pyast.num(-NUMBER_LIMIT), "<=", target, "<=", pyast.num(NUMBER_LIMIT))
        self.add(pyast.if_(pyast.not_(within), [_call("h_bounded", target, self.src.const(pos))]))

    def _assign_slot(self, s: ast.AssignStmt, target: py.expr, value: Code, var_type: str) -> None:
        _stored_whole(s, value, "variables")
        if var_type in ("site", "player"):
            self._assign_name(s, target, value, Type.SITE if var_type == "site" else Type.PLAYER)
            return
        if s.op != "=":
            if var_type == "flag":
                raise RuleError(s.pos, f"'{s.op}' needs a number variable; this one is a flag (true or false)")
            if value.type is not Type.INT:
                raise RuleError(s.value.pos, f"'{s.op}' needs a number, found {describe(value)}")
            self.add(pyast.augment(target, s.op[0], value.code))
            if not _small_step(value):
                self._check_number(target, s.pos)
            return
        expected = (Type.BOOL, Type.INT) if var_type == "flag" else (Type.INT,)
        if value.type not in expected and not (var_type != "flag" and value.type in (Type.SITE, Type.PLAYER)):
            raise RuleError(s.value.pos, f"cannot store {describe(value)} in a {var_type} variable")
        if value.type is Type.BOOL:
            # Flags are stored as 0/1 (`flag = true`: the number itself).
            stored = pyast.num(1 if value.const else 0) if value.is_const \
                else pyast.ifexp(pyast.num(1), value.code, pyast.num(0))
            self.add(pyast.assign(target, stored))
            return
        self.add(pyast.assign(target, value.code))
        if value.type is Type.INT and not value.is_const and not value.stored:
            self._check_number(target, s.pos)

    def _assign_name(self, s: ast.AssignStmt, target: py.expr, value: Code, held: Type) -> None:
        """A site or player variable takes a site or player (its index) or none (-1)."""
        what = "a site" if held is Type.SITE else "a player"
        if s.op != "=":
            raise RuleError(s.pos, f"'{s.op}' needs a number variable; this one holds {what}")
        if value.type not in (held, Type.NONE):
            raise RuleError(s.value.pos, f"variable '{_short(s.target)}' holds {what}; found {describe(value)}")
        self.add(pyast.assign(target, value.code))

    def _assign_owner(self, s: ast.AssignStmt, obj: Code, value: Code, scope: Scope) -> int:
        """`X.owner = P`: the piece on X changes sides (`none`: it becomes neutral)."""
        if s.op != "=":
            raise RuleError(s.pos, f"'{s.op}' needs a number; an owner is set with '='")
        if value.type not in (Type.PLAYER, Type.NONE):
            raise RuleError(s.value.pos, f"an owner is a player (or none), found {describe(value)}")
        if self.model.stacks:
            raise RuleError(s.pos, "with stacks a figure belongs to the colour of its top stone: "
                                   "change the stones instead")
        self.changes_owners = True
        site = self._site_local(obj)
        x0, x1 = _r("x0"), _r("x1")
        self.add(pyast.assign(x0, _board(site)), pyast.assign(x1, value.code))
        with self.src.if_(pyast.and_(pyast.is_not_none(x0), pyast.compare(x1, "!=", _owner(x0)))):
            self.add(pyast.assign(x0, pyast.add(pyast.tuple_(x1), pyast.sub(x0, pyast.slice_(1)))),
                     _call("h_replace", _r("b"), _r("o"), site, x0))
            self._after_change(site, x0, scope)
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
        _stored_whole(s, value, "attributes")
        if attr.type == "int" and value.type is not Type.INT:
            raise RuleError(s.value.pos, f"attribute '{t.name}' is a number, found {describe(value)}")
        if attr.type == "flag" and value.type is not Type.BOOL:
            raise RuleError(s.value.pos, f"attribute '{t.name}' is a flag (true or false), found {describe(value)}")
        if s.op != "=" and attr.type != "int":
            raise RuleError(s.pos, f"'{s.op}' needs a number attribute; '{t.name}' is a flag")
        if s.op != "=" and not value.is_const:
            # A computed step: the piece is written only where it is not 0 (a step
            # that is 0 more often than not, such as a formula's share for each
            # site of a loop, then writes no new piece).
            step = self._site_local(value)
            with self.src.if_(step):
                return self._step_attribute(s, t, attr, value, step, obj, scope)
        return self._step_attribute(s, t, attr, value, value.code, obj, scope)

    def _step_attribute(self, s: ast.AssignStmt, t: ast.Attr, attr: Attribute, value: Code, step: py.expr,
                        obj: Code, scope: Scope) -> int:
        """The statements of `_assign_attribute` that write the piece: `step` is the
        value's code (or the local holding it)."""
        i = attr.index
        acting = isinstance(t.obj, ast.Name) and t.obj.id == "piece"
        x0, pc, at = _r("x0"), _r("pc"), _r("at")
        new_value = step if s.op == "=" else pyast.binop(pyast.sub(x0, i), s.op[0], step)
        # (a constant written: a piece already holding it is left as it is — the piece
        # written would be equal to it, the board and its key the same; a flag cleared
        # after each action, mostly clear already)
        changes = pyast.compare(pyast.sub(x0, i), "!=", step) if s.op == "=" and value.is_const else None
        if acting and scope.piece_always:
            self.add(pyast.assign(x0, pc))
            with self.src.if_(changes) if changes is not None else nullcontext():
                self._set_attribute(s, attr, value, new_value, i, acting, None, scope)
            return obj.cost + value.cost + 1
        site = None
        if acting:
            self.add(pyast.assign(x0, pc))
        else:
            site = self._site_local(obj)
            read = _board(site)
            if self._tracks_piece(scope):
                read = pyast.ifexp(pc, pyast.compare(site, "==", at), _board(site))  # type: ignore[assignment]
            self.add(pyast.assign(x0, read))
        present = pyast.is_not_none(x0)
        with self.src.if_(pyast.and_(present, changes) if changes is not None else present):
            self._set_attribute(s, attr, value, new_value, i, acting, site, scope)
        return obj.cost + value.cost + 1

    def _set_attribute(self, s: ast.AssignStmt, attr: Attribute, value: Code, new_value: py.expr, i: int,
                       acting: bool, site: Optional[py.expr], scope: Scope) -> None:
        """`x0` is the piece: give it the new value of attribute `i`, on the board too."""
        x0, x1, pc, at = _r("x0"), _r("x1"), _r("pc"), _r("at")
        checked = (attr.type == "int" and not value.is_const and not value.stored and s.op == "="
                   or s.op != "=" and not _small_step(value))
        if not checked and not acting and not self._tracks_piece(scope):
            assert site is not None
            # (one statement: what the next statement needs it reads from the board again)
            self.add(pyast.assign(_board(site), self._with_slot(x0, i, new_value)))
            return
        self.add(pyast.assign(x1, new_value))
        if checked:
            self._check_number(x1, s.pos)
        self.add(pyast.assign(x0, self._with_slot(x0, i, x1)))
        if acting:
            self.add(pyast.assign(pc, x0))
            with self._unless_at_valid(scope):
                self.add(pyast.assign(_board(at), x0))
        elif self._tracks_piece(scope):
            assert site is not None
            self.add(pyast.if_(pyast.compare(site, "==", at), [
                pyast.assign(pc, x0),
                pyast.if_(pyast.compare(at, "!=", pyast.num(-1)), [pyast.assign(_board(at), x0)]),
            ], [pyast.assign(_board(site), x0)]))
        else:
            assert site is not None
            self.add(pyast.assign(_board(site), x0))

    # ------------------------------------------------------------ control
    def _if(self, s: ast.IfStmt, scope: Scope) -> int:
        cost = self._chain(list(s.branches), s.otherwise, scope, s.pos)
        # (a chain of `if X == c: TARGET = value` — the event for a count started —
        # one look-up in a table, not a test a branch)
        whole = self._whole_local(s.branches[0][0], scope)
        self.src.rewrite_last(lambda stmt: dispatched(stmt, self.src, whole))
        return cost

    def _whole_local(self, cond: ast.Expr, scope: Scope) -> Optional[py.expr]:
        """The code of a local name holding a whole number that `cond` compares
        with `==` (`let k = count(...)`, then `if k == 1:`), else None."""
        if not (isinstance(cond, ast.Compare) and cond.op == "==" and isinstance(cond.left, ast.Name)
                and cond.left.id in scope.locals):
            return None
        c = self.exprs.compile(cond.left, scope)
        return c.code if c.type is Type.INT and isinstance(c.code, py.Name) else None

    def _chain(self, branches: list[tuple[ast.Expr, list[ast.Stmt]]], otherwise: list[ast.Stmt], scope: Scope,
               pos: ast.Pos, asked: Optional[tuple[list[ast.Expr], Scope]] = None) -> int:
        """`if`/`elif`/`else` from the first branch on. A condition's own statements
        (loops of quantifiers, see expressions.lowered) run only when the branches
        before it failed, so a later `elif` is written as `else:` + `if`. A branch
        whose condition never holds is skipped, the ones after a condition that
        always holds too. `asked`: the conditions as compiled and the scope they
        are compiled in, where first conjuncts are kept for later conditions
        (shared_conjuncts.py); None: the branches' own, in `scope`."""
        # (a loop, not a recursion: a chain of a thousand `elif`s is one level deep
        # in the rules, and must not hang on how deep the caller's stack is)
        cost = 0
        valids: list[bool] = []
        sharing = shared_conjuncts.LaterConjuncts()
        with ExitStack() as elses:
            while branches:
                if asked is None:
                    sharing.restart()
                conds, asking = asked if asked is not None else ([cond for cond, _ in branches], scope)
                kept_cost, conds, asking = self._first_conjunct_kept(conds, asking, sharing)
                (cond, body), branches = branches[0], branches[1:]
                lines, c = self.exprs.lowered(conds[0], asking, condition=True)
                cost += c.cost + kept_cost
                if c.is_const:
                    if not c.const:
                        self._dead_branch(f"if {_short(cond)}", cond.pos)
                        asked = None
                        continue
                    cost += self._branch(body, scope, f"if {_short(cond)}", cond.pos, None)
                    for later, _ in branches:
                        self._dead_branch(f"if {_short(later)}", later.pos)
                    if otherwise:
                        self._dead_branch("else", pos)
                    otherwise = []
                    break
                self.src.paste(lines)
                cost += self._branch(body, scope, f"if {_short(cond)}", cond.pos, c.code)
                if not (branches or otherwise):
                    break
                valids.append(scope.flow.at_valid)
                elses.enter_context(self.src.else_())
                asked = (conds[1:], asking)
            else:
                if otherwise:
                    cost += self._branch(otherwise, scope, "else", pos, None)
        for valid in reversed(valids):
            scope.flow.at_valid = valid and scope.flow.at_valid
        return cost

    def _first_conjunct_kept(self, conds: list[ast.Expr], asking: Scope,
                             later: shared_conjuncts.LaterConjuncts) -> tuple[int, list[ast.Expr], Scope]:
        """(its cost, the conditions, the scope to ask them in) with the first
        conjunct of the first condition compiled once here, into a local the
        conditions then read (shared_conjuncts.py), where a later condition asks
        it again and it needs statements of its own; `conds` and `asking` as they
        are elsewhere."""
        if not shared_conjuncts.ENABLED or len(conds) < 2:
            return 0, conds, asking
        first = later.shared_first(conds)
        if first is None:
            return 0, conds, asking
        lines, c = self.exprs.lowered(first, asking, condition=True)
        if not lines or c.is_const:
            return 0, conds, asking
        self.src.paste(lines)
        value = c.code
        if not isinstance(value, py.Name):
            value = _r(self.src.fresh("t"))
            self.add(pyast.assign(value, c.code))
        name = f"{value.id} asked before"  # (no author can write it: it holds a space)
        asking = asking.child()
        asking.locals[name] = Local(value, Type.BOOL)
        shape = later.shape(first)
        later.restart()  # (the conditions are read anew)
        return c.cost, [shared_conjuncts.reading(cond, shape, name, later.shape) for cond in conds], asking

    def _branch(self, body: list[ast.Stmt], scope: Scope, label: str, pos: ast.Pos, test: Optional[py.expr]) -> int:
        """One branch of an `if`: its body under `test` (None: no test, it always runs)."""
        counter = self.probes.count("branch", label, pos)
        valid = scope.flow.at_valid
        with self.src.if_(test) if test is not None else nullcontext():
            if counter is not None:
                self.add(counter)
            cost = self.block(body, scope.child())
        # After the `if`, `at` is known valid only if no branch may have changed that.
        scope.flow.at_valid = valid and scope.flow.at_valid
        return cost

    def _dead_branch(self, label: str, pos: ast.Pos) -> None:
        """A branch whose condition never holds: still a coverage probe (that never fires)."""
        self.probes.count("branch", label, pos)

    def _unchanging(self, code: py.expr) -> bool:
        """Whether nothing the rules do changes the collection `code` gives: a row of
        a constant table of tuples, or a list `h_group` has just made."""
        if isinstance(code, py.Call) and pyast.is_name(code.func, "h_group"):
            return True
        if isinstance(code, py.Subscript) and isinstance(code.value, py.Name):
            table = self.src.value(code.value)
            return isinstance(table, tuple) and all(type(row) is tuple for row in table)
        return False

    def _for_each(self, s: ast.ForEachStmt, scope: Scope) -> int:
        set_after, self._set_after_loop = self._set_after_loop, frozenset()
        cost = self._for_each_loop(s, scope)
        counter = self._walk_to_index(s, scope, set_after)
        if counter is not None:
            local = self.src.fresh("t")
            self.src.rewrite_last(lambda loop: stops_when_found(loop, counter.offset, local))
        return cost

    def _walk_to_index(self, s: ast.ForEachStmt, scope: Scope, set_after: frozenset[str]) -> Optional[Variable]:
        """The counter of a loop that looks for the i-th item of a set (format.md
        3.9's `put(i)`), where the rounds after the one that found it do nothing
        one could see — so the loop may stop there:

            for each x in SET:
                if COND:                  (or no condition)
                    if idx == i:          (i a local name, `outcome` or a number)
                        BODY              (no procedure called, idx and i not written)
                    idx += N              (N a positive number)
                SCRATCH = ...             (variables set to a fixed value right after the loop)
            idx = 0                       (and the SCRATCH variables likewise)

        Once found, idx is above i in every later round: they would only test COND
        and count on, and what they count is written over after the loop. (A later
        round's fault, a division by zero in COND, is no longer met.) None where
        the loop is not so, and with coverage on (it counts the rounds' branches)."""
        if self.probes.on:
            return None
        walk: Optional[ast.Stmt] = None
        for stmt in s.body:
            if isinstance(stmt, ast.AssignStmt) and isinstance(stmt.target, ast.Name) and stmt.target.id in set_after:
                continue
            if walk is not None:
                return None
            walk = stmt
        if walk is None:
            return None
        inner = [walk]
        if isinstance(walk, ast.IfStmt) and len(walk.branches) == 1 and not walk.otherwise \
                and len(walk.branches[0][1]) == 2:
            inner = walk.branches[0][1]
        if len(inner) != 2:
            return None
        match, step = inner
        if not (isinstance(step, ast.AssignStmt) and step.op == "+=" and isinstance(step.target, ast.Name)
                and isinstance(step.value, ast.Num) and step.value.value > 0):
            return None
        counter = step.target.id
        variable = self.model.variables.get(counter)
        if variable is None or variable.per_player or counter not in set_after or counter in scope.locals:
            return None
        if not (isinstance(match, ast.IfStmt) and len(match.branches) == 1 and not match.otherwise):
            return None
        test, body = match.branches[0]
        if not (isinstance(test, ast.Compare) and test.op == "==" and isinstance(test.left, ast.Name)
                and test.left.id == counter):
            return None
        index = test.right
        if not (isinstance(index, ast.Num) or isinstance(index, ast.Name)
                and (index.id in scope.locals or index.id == "outcome") and index.id != s.var):
            return None
        for stmt in statements_of(body):
            if isinstance(stmt, ast.CallStmt):
                return None
            if isinstance(stmt, ast.AssignStmt) and isinstance(stmt.target, ast.Name) and stmt.target.id == counter:
                return None
        return variable

    def _for_each_loop(self, s: ast.ForEachStmt, scope: Scope) -> int:
        reserved = reserved_word(s.var)
        if reserved:
            raise RuleError(s.pos, reserved, "choose another name")
        if s.until is not None:
            return self._for_each_number(s, s.until, scope)
        try:
            coll = self.exprs.as_sites(self.value(s.iterable, scope))
        except RuleError as error:
            if not isinstance(s.iterable, ast.ListLit) or error.hint is not None or "number" not in error.message:
                raise
            raise RuleError(error.pos, error.message, _FOR_EACH_LIST) from error
        elem = ELEMENT.get(coll.type)
        if elem is None:
            raise RuleError(s.iterable.pos, f"'for each' needs a set of sites, players or directions, "
                                            f"found {describe(coll)}")
        if elem is Type.SITE and coll.is_const:
            self._warn_of_order(s, scope)
        inner = scope.child()
        var = self.src.fresh("l")
        inner.locals[s.var] = Local(_r(var), elem, always=elem is not Type.SITE, real=elem is Type.SITE)
        # A copy: the body may move or remove the very pieces being listed (none
        # is needed of a row of a constant table of tuples, or of a list made anew).
        items = coll.code if coll.is_const or coll.fresh or self._unchanging(coll.code) \
            else pyast.helper("tuple", coll.code)
        if coll.size > MAX_LOOP:
            items_name = _r(self.src.fresh("t"))
            self.add(pyast.assign(items_name, items))
            with self.src.if_(pyast.compare(pyast.helper("len", items_name), ">", pyast.num(MAX_LOOP))):
                message = self.src.const(f"'for each' over more than {MAX_LOOP} items")
                self.add(_call("h_fail", self.src.const(s.pos), message))
            items = items_name
        with self.src.for_(_r(var), items):
            body = self._loop_body(s.body, inner)
        return coll.cost + coll.size * (1 + body)

    def _warn_of_order(self, s: ast.ForEachStmt, scope: Scope) -> None:
        """A warning where `for each` walks sites written in an order (a list `[c1, a1]`,
        a union `file_c + file_b + file_a`) other than the board order it runs in."""
        written = self._written_sites(s.iterable, scope)
        if written is None:
            return
        seen: dict[int, None] = dict.fromkeys(written)  # (the first of each, in written order)
        order = list(seen)
        if order == sorted(order) or any(w.pos == s.iterable.pos for w in self.warnings):
            return
        names = self.model.board.names
        self.warnings.append(RuleError(
            s.iterable.pos,
            f"'for each' walks a set of sites in board order ({', '.join(names[i] for i in sorted(order)[:4])}"
            f"{', ...' if len(order) > 4 else ''}), not in the order written here "
            f"({', '.join(names[i] for i in order[:4])}{', ...' if len(order) > 4 else ''})",
            "to walk the sites in an order of your own, write one 'for each' per part, in that order, "
            "or walk a track (its order) or a ray (nearest first)"))

    def _written_sites(self, e: ast.Expr, scope: Scope) -> Optional[list[int]]:
        """The sites of a list or union of site names and regions fixed when the rules are
        compiled, in the order written (each part's own in board order); None for any
        other expression."""
        if isinstance(e, ast.ListLit):
            parts = e.items
        elif isinstance(e, ast.BinOp) and e.op == "+":
            parts = [e.left, e.right]
        elif isinstance(e, ast.Name):
            m = self.model
            if e.id in scope.locals or e.id in CONTEXT_NAMES or e.id in self.exprs.names.defines \
                    or e.id in m.variables or e.id in m.pools or e.id in m.options:
                return None
            region = m.regions.get(e.id)
            if region is not None:
                return None if region.per_player else sorted(region.sites[0])
            site = m.board.index.get(e.id)
            return None if site is None or e.id in m.tracks or e.id in m.players else [site]
        else:
            return None
        sites: list[int] = []
        for part in parts:
            found = self._written_sites(part, scope)
            if found is None:
                return None
            sites += found
        return sites

    def _for_each_number(self, s: ast.ForEachStmt, until: ast.Expr, scope: Scope) -> int:
        """`for each v in A to B:` — the block for each whole number from A to B (none when
        B < A); A and B are computed once, before the first round, and at most MAX_LOOP
        rounds run (more is an error, as for `repeat`)."""
        ends = []
        for e in (s.iterable, until):
            c = self.value(e, scope)
            whole_number(c, e, "an end of 'for each ... in A to B'")
            if c.type is not Type.INT:
                raise RuleError(e.pos, f"'for each {s.var} in A to B' needs whole numbers A and B, found {describe(c)}")
            ends.append(c)
        low, high = ends
        first: py.expr
        last: py.expr
        if low.is_const and high.is_const and high.const - low.const < MAX_LOOP:
            # (fixed ends, options' values known: the range as it is, no check)
            first, last = pyast.num(low.const), pyast.num(high.const)
        else:
            first, last = _r(self.src.fresh("t")), _r(self.src.fresh("t"))
            self.add(pyast.assign(first, low.code))
            self.add(pyast.assign(last, high.code))
            rounds = py.BinOp(py.BinOp(last, py.Sub(), first), py.Add(), pyast.num(1))
            with self.src.if_(pyast.compare(rounds, ">", pyast.num(MAX_LOOP))):
                message = self.src.const(f"'for each' over more than {MAX_LOOP} numbers")
                self.add(_call("h_fail", self.src.const(s.pos), message))
        inner = scope.child()
        var = self.src.fresh("l")
        inner.locals[s.var] = Local(_r(var), Type.INT, always=True, real=False)
        end = pyast.num(high.const + 1) if isinstance(last, py.Constant) else py.BinOp(last, py.Add(), pyast.num(1))
        with self.src.for_(_r(var), pyast.helper("range", first, end)):
            body = self._loop_body(s.body, inner)
        bound = max(high.const - low.const + 1, 0) if low.is_const and high.is_const else MAX_LOOP
        return low.cost + high.cost + min(bound, MAX_LOOP) * (1 + body)

    def _loop_body(self, body: list[ast.Stmt], scope: Scope) -> int:
        """A loop's body, compiled once and run again and again: what a pass writes is
        there in the next, so neither the landing's emptiness nor the acting piece's
        place on the board is taken from before the loop. After it, the piece is known
        on the board only where it was before and the body leaves it so (the body may
        run no time)."""
        valid = scope.flow.at_valid
        scope.flow.to_empty = False
        scope.flow.at_valid = False
        cost = self.block(body, scope)
        scope.flow.at_valid = valid and scope.flow.at_valid
        return cost

    def _repeat(self, s: ast.RepeatStmt, scope: Scope) -> int:
        count = self.value(s.count, scope)
        whole_number(count, s.count, "the times of 'repeat'")
        if count.type is not Type.INT:
            raise RuleError(s.count.pos, f"'repeat' needs a number of times, found {describe(count)}")
        times = _r(self.src.fresh("t"))
        self.add(pyast.assign(times, count.code))
        with self.src.if_(pyast.compare(times, ">", pyast.num(MAX_LOOP))):
            message = self.src.const(f"'repeat' more than {MAX_LOOP} times")
            self.add(_call("h_fail", self.src.const(s.pos), message))
        with self.src.for_(_r(self.src.fresh("t")), pyast.helper("range", times)):
            body = self._loop_body(s.body, scope.child())
        bound = count.const if count.is_const else MAX_LOOP
        return count.cost + max(bound, 0) * (1 + body)

    def _call_procedure(self, s: ast.CallStmt, scope: Scope) -> int:
        name = s.procedure
        if name not in self.procedures:
            if name in self.duplicates:  # declared twice (a phase and a procedure): that error comes first
                raise FollowOnError(s.pos, f"procedure '{name}' declared twice")
            hint = "procedures are declared with 'procedure NAME:'"
            if name == "pass" and not s.args:
                hint = ("there is no empty statement ('pass' is an action): leave out an 'else:' "
                        "that would do nothing; for an 'if' whose block would be empty, write "
                        "'if not C:' (format.md 3.10)")
            raise unknown(s.pos, "procedure or statement", name, list(self.procedures), hint)
        if name in self._procedure_stack:
            chain = " -> ".join(self._procedure_stack + [name])
            raise RuleError(s.pos, f"procedure '{name}' calls itself ({chain}); procedures cannot recurse")
        if len(self._procedure_stack) >= MAX_CALL_DEPTH:
            raise RuleError(s.pos, f"procedures call procedures more than {MAX_CALL_DEPTH} deep "
                                   f"({self._procedure_stack[0]} -> ... -> {name})")
        procedure = self.procedures[name]
        if len(s.args) != len(procedure.params):
            wanted = ", ".join(p.id for p in procedure.params)
            raise RuleError(s.pos, f"procedure '{name}' takes {len(procedure.params)} argument(s) ({wanted}), "
                                   f"found {len(s.args)}")
        args = s.args
        copy_name = kind_copy_name(name, args, self.model.kinds)
        if copy_name is not None and copy_name in self.procedures:
            # (piece kinds given: the copy with them written in, items.specialise_kind_arguments)
            given = [arg for arg in args if isinstance(arg, ast.Name) and arg.id in self.model.kinds]
            for kind in given:
                if kind.id in scope.locals:
                    raise RuleError(kind.pos, f"'{kind.id}' is both a local and a piece kind: as an argument it "
                                              "would be ambiguous", "rename the local")
            args = [arg for arg in args if all(arg is not kind for kind in given)]
            name, procedure = copy_name, self.procedures[copy_name]
            if name in self._procedure_stack:
                chain = " -> ".join(self._procedure_stack + [name])
                raise RuleError(s.pos, f"procedure '{name}' calls itself ({chain}); procedures cannot recurse")
        inner = scope
        cost = 0
        if procedure.params:
            # The arguments are computed first, where the call stands; inside, the
            # parameters stand for them.
            inner = scope.child()
            for param, arg in zip(procedure.params, args):
                value = self.value(arg, scope)
                if value.type is Type.PER_PLAYER:
                    raise RuleError(arg.pos, "this differs per player: say whose, e.g. [player]")
                if stands_alone(value, self.src):
                    # (a constant: each use is the constant, as in a copy written
                    # out with it, nothing computed at the call)
                    inner.locals[param.id] = standing_local(value)
                    continue
                local = _r(self.src.fresh("l"))
                self.add(pyast.assign(local, value.code))
                inner.locals[param.id] = Local(local, value.type, distinct=value.distinct)
                cost += value.cost
        self._procedure_stack.append(name)
        try:
            # Compiled in the caller's scope: a procedure is a named piece of its caller.
            return cost + self.block(procedure.body, inner)
        finally:
            self._procedure_stack.pop()

    def _then(self, s: ast.ThenStmt, scope: Scope) -> int:
        if not scope.followups:
            raise RuleError(s.pos, f"'then' starts a follow-up decision after an action; it has no effect in "
                                   f"{scope.where}")
        if s.decision not in self.decision_index:
            if s.decision in self.duplicates:
                return 1  # declared twice: that is the error to read first
            if s.decision in self.procedures:
                raise RuleError(name_pos(s.pos, s.decision),
                                f"'{s.decision}' is a procedure: 'then' starts a follow-up decision or chance event",
                                f"to run the procedure's statements here, write its name alone: {s.decision}")
            raise unknown(name_pos(s.pos, s.decision), "decision", s.decision, list(self.decision_index))
        self.followups.append((s.pos, s.decision))
        scope.flow.effects.add(("then", self.decision_index[s.decision]))
        self.add(pyast.assign(_r("fu"), pyast.num(self.decision_index[s.decision])))
        return 1

    def _notation(self, s: ast.NotationStmt, scope: Scope) -> int:
        raise RuleError(s.pos, "'notation' belongs directly inside an action or a case (onto ..., over ..., off board)")

    def _player_or_current(self, e: Optional[ast.Expr], scope: Scope) -> py.expr:
        if e is None:
            return _r(scope.register("player").site)
        c = self.value(e, scope)
        if c.type is not Type.PLAYER:
            raise RuleError(e.pos, f"expected a player, found {describe(c)}")
        return c.code

    def _end(self, how: EndingKind, player: py.expr, pos: ast.Pos, scope: Scope) -> int:
        ending = self.endings.add(how, pos)
        scope.flow.effects.add("end")
        self.add(_call("h_end", _r("s"), pyast.num(int(how)), player, pyast.num(ending)))
        return 1

    def _win(self, s: ast.WinStmt, scope: Scope) -> int:
        return self._end(EndingKind.WIN, self._player_or_current(s.player, scope), s.pos, scope)

    def _lose(self, s: ast.LoseStmt, scope: Scope) -> int:
        return self._end(EndingKind.LOSE, self._player_or_current(s.player, scope), s.pos, scope)

    def _draw(self, s: ast.DrawStmt, scope: Scope) -> int:
        return self._end(EndingKind.DRAW, pyast.num(-1), s.pos, scope)

    def _end_game(self, s: ast.EndStmt, scope: Scope) -> int:
        return self._end(EndingKind.END_GAME, pyast.num(-1), s.pos, scope)

    def _start_phase(self, s: ast.StartPhaseStmt, scope: Scope) -> int:
        if s.phase not in self.phase_index:
            if s.phase in self.duplicates:
                return 1  # declared twice: that is the error to read first
            known = ", ".join(self.phase_index) or "none"
            raise unknown(name_pos(s.pos, s.phase), "phase", s.phase, list(self.phase_index), f"the phases: {known}")
        self.starts_phases = True
        scope.flow.effects.add("next phase")
        self.add(pyast.assign(pyast.attr(_r("s"), "next_phase"), pyast.num(self.phase_index[s.phase])))
        return 1

    def _next_turn(self, s: ast.NextTurnStmt, scope: Scope) -> int:
        self.names_next_player = True
        scope.flow.effects.add("next player")
        self.add(pyast.assign(pyast.attr(_r("s"), "next_player"), self._player_or_current(s.player, scope)))
        return 1


# Statements after which an empty site is still empty (they put nothing anywhere).
_LEAVE_SITES_EMPTY = (
    ast.LetStmt, ast.AssignStmt, ast.ThenStmt, ast.WinStmt, ast.LoseStmt, ast.DrawStmt, ast.EndStmt, ast.NextTurnStmt,
    ast.StartPhaseStmt, ast.RemoveStmt, ast.ReturnStmt, ast.ReleaseStmt, ast.GiveStmt, ast.NotationStmt,
)


def _short(e: ast.Expr) -> str:
    """A label for a condition (for coverage rows): as written, cut when long."""
    text = expression_text(e)
    return text if len(text) <= 60 else text[:57] + "..."


def _stored_whole(s: ast.AssignStmt, value: Code, what: str) -> None:
    """Stored values are whole numbers: a decimal one is refused, even when whole."""
    if value.type is Type.DECIMAL:
        quotient = isinstance(s.value, ast.BinOp) and s.value.op == "/"
        raise RuleError(s.value.pos, f"{what} hold whole numbers; this value may have a fractional part "
                                     f"({_short(s.value)})",
                        "'/' is the exact quotient; '//' is the whole number below it (-7 // 2 is -4), "
                        "'%' the remainder (format.md 3.12)" if quotient else None)


def _set_to_literals(following: list[ast.Stmt]) -> frozenset[str]:
    """The variables the statements at the head of `following` set to a number or
    a truth value (`idx = 0`, one after the other)."""
    names: set[str] = set()
    for stmt in following:
        if not (isinstance(stmt, ast.AssignStmt) and stmt.op == "=" and isinstance(stmt.target, ast.Name)
                and isinstance(stmt.value, (ast.Num, ast.Bool))):
            break
        names.add(stmt.target.id)
    return frozenset(names)


def _small_step(value: Code) -> bool:
    return value.is_const and isinstance(value.const, int) and abs(value.const) <= SMALL_STEP


__all__ = ["StatementCompiler", "Endings"]
