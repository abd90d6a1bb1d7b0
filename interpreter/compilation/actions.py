"""One action of a decision → its plan: which pieces it moves, its conditions
split by the level they are asked at, its cases, and the code of its pattern.

The plan's `emit(src)` writes the action's candidates for one piece
(moving patterns: inside the decision's loop over pieces, with `frm`/`pc` set)
or once per position (drop, select, pass). The decision (decisions.py) decides
where the plan's code goes; the cases' statements are compiled here, once, into
`CaseCode` records from which cases.py builds the functions that apply them.
"""
from __future__ import annotations

import ast as py
import itertools
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Optional, Protocol, Sequence

from ..parsing import ast
from ..parsing.visit import nodes_of, structure
from ..runtime.compiled import CasePattern
from ..runtime.walks import WalkTables
from . import attribute_writes, patterns, pyast
from .action_values import KIND_OF_TYPE, Bound, bind, distinct_from_earlier, each_values, shown_fields
from .attribute_writes import (
    attributes_set_only,
    block_reads_attributes,
    block_reads_names,
    calls_written_out,
    variables_set_only,
)
from .code import Code, conjuncts, describe, disjuncts, either
from .compared_sites import ComparedSites
from .compiled import CaseCode
from .conditions import Condition, Part
from .errors import RuleError, name_pos, unknown
from .expressions import ExpressionCompiler, whole_number
from .items import RuleItems
from .model import GameModel
from .narrowing import pieces_in_fixed_set
from .necessary import CANDIDATE_NAMES, mentions, necessary
from .per_listing import code_key
from .probes import Probes
from .reach import Reach, reach_along, reach_of_set
from .restrictions import Restrictions
from .scope import DEFAULT_REGISTERS, Flow, Register, Scope
from .source import BUILTIN_NAMES, Origin, Source
from .statements import SMALL_STEP, StatementCompiler
from .told_apart import chooses_by_value, lands_by_value, one_landing, one_site_chosen, untold_templates
from .types import CANDIDATE_DEPS, PIECE_DEPS, Dep, Type

DEFAULT_NOTATION = {
    ("onto", "empty"): "{from}-{to}",
    ("onto", "own"): "{from}-{to}",
    ("onto", "enemy"): "{from}x{to}",
    ("onto", "neutral"): "{from}x{to}",
    ("over", "enemy"): "{from}x{to}",
    ("over", "own"): "{from}x{to}",
    ("over", "neutral"): "{from}x{to}",
    ("over", "any"): "{from}x{to}",
    ("off", "board"): "{from}-off",
}
TEMPLATE_FIELDS = ("{from}", "{to}", "{outcome}")
ACTION_FIELDS = ("{from}", "{to}")
CHOICE_FIELD = "{choice}"
SUFFIX_CHOICE = "={choice}"  # added to a choosing case's notation that does not show the choice
LANDING_SLOT = {"empty": patterns.Onto.EMPTY, "own": patterns.Onto.OWN, "neutral": patterns.Onto.NEUTRAL,
                "enemy": patterns.Onto.ENEMY}
# The estimated cost up to which a `where` about the moving piece alone is asked
# before its candidates are listed (see ActionCompiler._where_levels).
CHEAP_PIECE_TEST = 8
# The estimated cost from which a `where` about a candidate is also asked after
# the candidate is drawn rather than while listing, where playouts draw (see
# ActionPlan.deferred).
DEFERRED_TEST = 40
# The locals a deferred `where` may read: those a case's function prepares from
# the action code and the state (cases.PREPARE, registers.py).
_DEFERRABLE_READS = frozenset({"s", "b", "o", "v", "p", "q", "frm", "pc", "to", "tg"})
# The context names whose conditions are asked in a lister's loops (per piece, per candidate).
_PIECE_OR_CANDIDATE = CANDIDATE_NAMES | {"piece", "from"}
# The helper making a kind's mask of sites (site_masks.py), which no drawn candidate reads.
KIND_MASK = "h_kind_mask"
_DEFERRABLE_PATTERNS = frozenset({CasePattern.MOVE, CasePattern.DROP, CasePattern.SELECT})
RELATIVE_DIRECTIONS = ("forward", "backward", "sideways", "left", "right", "forward_diagonal", "backward_diagonal")

Pattern = ast.Pattern
# How an action's candidates are written: emit(src, exclude), `exclude` the local
# holding the sites another action landed on already (see patterns.Landing), or None.
Emit = Callable[[Source, Optional[py.Name]], None]
# A pool whose waiting pieces an action moves: (its offset, its site per player, the
# constant of the waiting piece per player).
PoolMovers = tuple[int, tuple[int, ...], py.Name]


def _no_candidates(src: Source, exclude: Optional[py.Name] = None) -> None:
    return None


@dataclass(frozen=True)
class Emitter:
    """The emit of a pattern written by `write` with `landing` (excluding what it
    is told to)."""

    landing: "patterns.Landing"
    write: Callable[[Source, "patterns.Landing"], None]

    def __call__(self, src: Source, exclude: Optional[py.Name] = None) -> None:
        self.write(src, self.landing if exclude is None else replace(self.landing, exclude=exclude))

    def restricted(self, keep: frozenset[int]) -> "Emitter":
        """The same pattern listing only the cases of `keep`."""
        return Emitter(self.landing.restricted(keep), self.write)


def _asks_every_site(code: py.expr) -> bool:
    """Whether `code` floods with its condition asked of every site of the board
    first (and of every step, with `each step`: expr_connected.py, outside lowered
    mode), where a flood written out asks only the sites it reaches — or searches
    with a generator (`next(...)`: `beyond`, outside lowered mode), where a loop
    written out makes no generator."""
    return any(isinstance(node, py.Name) and node.id in ("h_flood", "h_flood_steps", "next")
               for node in pyast.walk(code))


def _emitting(landing: "patterns.Landing", write: Callable[[Source, "patterns.Landing"], None]) -> Emitter:
    return Emitter(landing, write)


@dataclass
class ActionPlan:
    name: str
    pos: ast.Pos
    guard: Optional[Condition]  # asked once per position (None: always on)
    piece_where: Optional[Condition]  # asked per piece
    templates: list[tuple[str, ...]]
    movers: Optional[set[int]]  # kinds it can move (None: not limited to kinds)
    emit: Emit = _no_candidates  # the code listing its candidates
    moving: bool = False  # a moving pattern (per piece) rather than drop/select/pass
    kinds: Optional[tuple[int, ...]] = None  # kinds on the board it moves (None: all)
    pools: tuple[PoolMovers, ...] = ()  # pools whose pieces it moves
    same_piece: bool = False
    only_if_stuck: bool = False
    reach: Optional[Reach] = None
    # whether a notation of its cases leaves out the landing site (told_apart.py):
    # its candidates are compared while listing, the first of a text kept
    untold: bool = False
    walk_blocking: Optional[tuple[bool, ...]] = None  # by kind: whether its pieces block the walks (None: none do)
    walk_blockers_neutral: bool = False  # whether the blocking kinds are the neutral kinds
    # drop and select: statements that set `frm` and `pc` up, and a test for the pool
    placement_setup: tuple[py.stmt, ...] = ()
    placement_test: Optional[py.expr] = None
    prelude: tuple[py.stmt, ...] = ()  # statements run once per position before the action is listed
    piece_setup: tuple[py.stmt, ...] = ()  # statements run for each piece before its candidates are listed
    case_templates: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (case id, notation template) of its cases
    case_keys: tuple[tuple[tuple[str, str], int], ...] = ()  # ((kind, what), case id) of its cases: ("onto", "enemy")
    values: tuple[py.stmt, ...] = ()  # statements setting the value of `for each` it is made for (listed first)
    # the name of that value and its place in the list (the copies of one action have distinct values)
    each: Optional[tuple[str, int]] = None
    # whether its copies for two values land on two sites from one start, when on
    # the board (told_apart.lands_by_value), or, a drop's or select's, choose apart
    # (told_apart.chooses_by_value)
    lands_by_value: bool = False
    # ("step", k, directions, landing) or ("jump", k, directions, landing, over ids) for
    # a step or jump of exactly k: a pair of them is listed in one pass (decisions.py).
    shape: Optional[tuple[Any, ...]] = None
    landing: Optional["patterns.Landing"] = None  # the cases and checks of its candidates (not of a pass)
    cost: int = 1  # estimated steps per piece (or per position)
    guard_cost: int = 0  # estimated steps of the guard (once per position)
    # for the work estimate's error (budget.py): the estimated steps per candidate,
    # and the parts asked of each candidate (position, what, steps) that make them
    candidate_cost: int = 1
    candidate_parts: tuple[tuple[ast.Pos, str, int], ...] = ()
    # Its costly `where` conjuncts about a candidate alone (read from its code and
    # the position), and its emit without them: what playouts list before they
    # draw, asking these of the candidate drawn only (see `deferring`).
    deferred: Optional[Condition] = None
    eager: Optional[Emitter] = None


def deferring(plan: ActionPlan) -> ActionPlan:
    """The action as its candidates are listed before they are checked: without
    its deferred conditions (asked of a drawn candidate by its case's check)."""
    if plan.eager is None:
        return plan
    return replace(plan, emit=plan.eager, landing=plan.eager.landing, shape=None)


def _has_generator(code: py.expr) -> bool:
    """Whether `code` makes a generator or comprehension (the loops of a set or
    quantifier written as one expression), which statements run faster."""
    return any(isinstance(node, (py.GeneratorExp, py.ListComp, py.SetComp)) for node in pyast.walk(code))


def restricted_plan(plan: ActionPlan, keep: frozenset[int]) -> ActionPlan:
    """The action listing only its cases in `keep` (its cases split over `prefer`
    lines): the same loops, the other cases left out."""
    if not isinstance(plan.emit, Emitter) or plan.landing is None:
        return plan
    templates = [t for case, t in plan.case_templates if case in keep]
    return replace(plan, emit=plan.emit.restricted(keep), landing=plan.landing.restricted(keep), shape=None,
                   templates=templates, case_templates=tuple((c, t) for c, t in plan.case_templates if c in keep),
                   case_keys=tuple((k, c) for k, c in plan.case_keys if c in keep))


@dataclass
class WhereLevels:
    """An action's `where` conjuncts by the level they are asked at."""

    action: Optional[Condition] = None  # once per position
    piece: list[Part] = field(default_factory=list)  # per piece
    candidate: list[Part] = field(default_factory=list)  # per candidate
    candidate_of: list[ast.Expr] = field(default_factory=list)  # (the conjunct each candidate part asks)
    # the indices in `candidate` of the conjuncts that may be asked of a drawn
    # candidate instead (costly, reading only what its code and the position hold)
    deferrable: list[int] = field(default_factory=list)
    # a deferrable conjunct as a drawn candidate asks it, where the listers' differs
    # (a kind's mask of sites, made once per listing: site_masks.py)
    drawn: dict[int, Part] = field(default_factory=dict)
    found_loop: Optional[tuple[py.stmt, ...]] = None  # of the last candidate conjunct (Code.found_loop)
    piece_cost: int = 0
    candidate_cost: int = 0
    guard_cost: int = 0
    candidate_parts: list[tuple[ast.Pos, str, int]] = field(default_factory=list)  # (position, what, steps)
    piece_setup: list[py.stmt] = field(default_factory=list)  # run for each piece
    # what the candidate conjuncts, all costly, imply about the piece or the
    # position alone (necessary.py), not compiled yet (ActionCompiler._hoist_implied)
    implied: list[ast.Expr] = field(default_factory=list)
    position_setup: list[py.stmt] = field(default_factory=list)  # run once per listing
    # the sites a drop or select chooses among, worked out where the action is
    # offered (its guard holds), kept for the other actions naming them alike
    chosen_setup: list[py.stmt] = field(default_factory=list)
    # the sites a drop chooses among with the candidate conjuncts it shares with
    # another drop asked of them once per listing (ActionCompiler._shared_drop_sites)
    shared_sites: Optional[py.expr] = None


# (statements the statement compiler numbers as it compiles them — endings for `h_end`, follow-ups:
# a case holding one is not compiled a second time for its check)
_NUMBERED = (ast.WinStmt, ast.LoseStmt, ast.DrawStmt, ast.EndStmt, ast.ThenStmt)


def _numbers_statements(stmts: list[ast.Stmt], procedures: dict[str, ast.Procedure]) -> bool:
    """Whether `stmts` or a procedure they call (each looked at once) holds one of `_NUMBERED`."""
    looked_at: set[str] = set()
    waiting: list[object] = [stmts]
    while waiting:
        for node in nodes_of(waiting.pop()):
            if isinstance(node, _NUMBERED):
                return True
            if isinstance(node, ast.CallStmt) and node.procedure in procedures and node.procedure not in looked_at:
                looked_at.add(node.procedure)
                waiting.append(procedures[node.procedure].body)
    return False


class GameCompiling(Protocol):
    """What an ActionCompiler reads of the game's compiler (compiler.py)."""

    model: GameModel
    items: RuleItems
    exprs: ExpressionCompiler
    src: Source
    statements: StatementCompiler
    restrictions: Restrictions
    code_tables: patterns.CodeTables
    cases: list[CaseCode]
    probes: Probes

    def scope(self, available: Iterable[str], where: str, piece_always: bool = False, followups: bool = False,
              **modes: Any) -> Scope: ...
    def add_case(self, info: CaseCode) -> int: ...
    def result_reads_attributes(self, attributes: frozenset[str]) -> bool: ...
    def pool_pieces_constant(self) -> py.Name: ...
    def targets(self, e: ast.Expr, scope: Scope, what: str, c: Optional[Code] = None) -> py.expr: ...
    def template(self, text: str, pos: ast.Pos, fields: tuple[str, ...] = TEMPLATE_FIELDS) -> tuple[str, ...]: ...


class ActionCompiler:
    """Compiles the actions of decisions (see module docstring)."""

    def __init__(self, compiler: GameCompiling):
        self.compiler = compiler
        self.model = compiler.model
        self.exprs = compiler.exprs
        self.src = compiler.src
        # case id -> (number of choices, the listing-time condition for choosing or None)
        self.choices: dict[int, tuple[int, Optional[py.expr]]] = {}
        self.case_templates: list[tuple[int, tuple[str, ...]]] = []
        self.case_keys: list[tuple[tuple[str, str], int]] = []
        self.bound: Optional[Bound] = None  # the value of `for each` the action being compiled is made for
        self.shown: patterns.Shown = {}  # case id -> the codes of the values its notation shows
        # case id -> per value its notation shows, what the value can be (action_values.Shown.sources)
        self.value_sources: dict[int, tuple[Any, ...]] = {}
        # the code of a costly condition about the piece alone -> the local remembering it for a piece
        self.remembered: dict[str, str] = {}
        self.siblings: Sequence[ast.Action] = ()  # the actions of the decision being compiled
        self.compared_sites = ComparedSites(self.src, self.exprs.per_listing, self.exprs.n_sites)

    # ------------------------------------------------------------ the action
    def compile_all(self, action: ast.Action, decision_index: int) -> list[ActionPlan]:
        """The plans of an action: one, or one per value of its `for each`
        (action_values.py), in the order of the values."""
        if action.each is None:
            return [self.compile(action, decision_index)]
        each = action.each
        with self.src.origin(Origin(f"action '{action.name}'", action.pos)):
            values = each_values(action, self.exprs, self.model, set(self.compiler.items.defines),
                                 self.compiler.scope((), f"the values of action '{action.name}'"))
        directions = [v.code.const for v in values] if all(
            v.code.type is Type.DIR and v.code.is_const and type(v.code.const) is int for v in values) else None
        regions = [frozenset(v.code.const) if v.code.type is Type.SITES and v.code.is_const
                   and isinstance(v.code.const, tuple) else None for v in values]
        by_value = lands_by_value(action.pattern, each.name, self.model, directions, self.exprs.defines) \
            or chooses_by_value(action.pattern, each.name, self.model, regions)
        plans = []
        for i, value in enumerate(values):
            distinct = distinct_from_earlier(each, values, i)
            if distinct is None:
                continue
            self.bound = bind(each, value, self.src)
            try:
                copy = replace(action, wheres=distinct + list(action.wheres))
                plan = self.compile(copy, decision_index)
            finally:
                bound, self.bound = self.bound, None
            plan.values = bound.setup
            plan.each = (each.name, i)
            plan.lands_by_value = by_value
            plans.append(plan)
        return plans

    def _fixed_regions(self) -> dict[str, frozenset[int]]:
        """The value of `for each` the action is compiled for, by its name, when it
        is a region (its sites, fixed when the rules are compiled)."""
        bound = self.bound
        if bound is None or bound.type is not Type.SITES or not isinstance(bound.const, tuple):
            return {}
        return {bound.name: frozenset(bound.const)}

    def _locals(self) -> dict[str, Any]:
        """The scope's locals: the value of `for each`, when the action has one."""
        return {"locals": {self.bound.name: self.bound.local}} if self.bound is not None else {}

    def compile(self, action: ast.Action, decision_index: int) -> ActionPlan:
        with self.src.origin(Origin(f"action '{action.name}'", action.pos)):
            return self._compile(action, decision_index)

    def _compile(self, action: ast.Action, decision_index: int) -> ActionPlan:
        pattern = action.pattern
        if pattern is None:  # (the parser says so first)
            raise RuleError(action.pos, f"action '{action.name}' has no movement pattern")
        available = _available(pattern)
        kinds, pools, same_piece = self._movers(action, pattern)
        scope = self.compiler.scope(
            available, f"action '{action.name}'", piece_always="piece" in available,
            piece_kinds=self._known_kinds(pattern, kinds, pools, same_piece),
            # Wherever a candidate is asked about, `tg` holds what stands on `to` (patterns.py).
            registers=dict(DEFAULT_REGISTERS, to=Register("to", "tg")), **self._locals(),
            unknown_name_hint=_unnamed_direction_hint(action),
        )
        moving = not isinstance(pattern, (ast.DropPattern, ast.SelectPattern, ast.PassPattern))
        levels = self._where_levels(action, scope, moving, waits=not self._searched(pattern))
        if isinstance(pattern, ast.DropPattern):
            self._shared_drop_sites(action, pattern, scope, levels)
        if isinstance(pattern, ast.PassPattern):
            plan = ActionPlan(action.name, action.pos, levels.action, Condition.of(levels.piece), [], None)
            return self._pass(plan, action, pattern, decision_index)
        case_ids, over_ids, off_case, templates = self._cases(action, pattern, available, decision_index)
        for cid, _ in self.case_templates:
            self.compiler.cases[cid].piece_kinds = scope.piece_kinds
        plan = ActionPlan(
            action.name, action.pos, levels.action, Condition.of(levels.piece), templates,
            _movers(action, self.model), piece_setup=tuple(levels.piece_setup),
            case_templates=tuple(self.case_templates), case_keys=tuple(self.case_keys),
            untold=bool(untold_templates(action, templates)) and not one_landing(pattern)
            and not one_site_chosen(pattern, self.model, self._fixed_regions()),
        )
        if not action.cases:
            raise RuleError(action.pos, f"action '{action.name}' has no case: say what happens, "
                                        "e.g. 'onto empty: move'")
        where = Condition.of(levels.candidate, levels.found_loop)
        tables = self.compiler.code_tables
        landing = patterns.Landing(
            case_ids, self.compiler.restrictions, where, scope.piece_kinds,
            piece_always="piece" in available,
            choices=self.choices,
            occupied_where=self._where_occupied(where), empty_where=self._where_empty(where),
            # (a walk's ends lie anywhere on the board, as far as its number of
            # steps says: its codes are many and seldom listed again soon, so a
            # table of them is read cold, and fresh tuples cost less)
            codes=(None if isinstance(pattern, ast.WalkPattern)
                   else tables.without_origin() if isinstance(pattern, (ast.DropPattern, ast.SelectPattern))
                   else tables),
            over_ids=tuple(over_ids), off_case=off_case, shown=dict(self.shown), players=self.model.player_count,
        )
        plan.landing = landing
        plan.emit, plan.reach, plan.cost = self._pattern(pattern, scope, landing, over_ids, off_case, plan, levels)
        self._deferred(plan, levels, where)
        plan.prelude = plan.prelude + tuple(levels.position_setup)
        plan.cost += levels.piece_cost
        plan.guard_cost = levels.guard_cost
        self._hoist_implied(plan, levels, scope)
        frm, pc, p = pyast.name("frm"), pyast.name("pc"), pyast.name("p")
        if isinstance(pattern, ast.DropPattern):
            plan.placement_setup = (pyast.assign(frm, pyast.num(-1)),
                                    pyast.assign(pc, pyast.sub(self._fresh_pieces(pattern), p)),
                                    *levels.chosen_setup)
            if pattern.pool is not None:
                waiting = pyast.sub(pyast.name("v"), pyast.add(pyast.num(self.model.pools[pattern.pool].offset), p))
                plan.placement_test = pyast.compare(waiting, ">", pyast.num(0))
            return plan
        if isinstance(pattern, ast.SelectPattern):
            plan.placement_setup = (pyast.assign(frm, pyast.num(-1)), pyast.assign(pc, pyast.none()),
                                    *levels.chosen_setup)
            return plan
        plan.moving = True
        plan.kinds, plan.pools, plan.same_piece = kinds, tuple(pools), same_piece
        return plan

    def _movers(self, action: ast.Action, pattern: Pattern) -> tuple[Optional[tuple[int, ...]], list[PoolMovers], bool]:
        """(kinds, pools, same piece) of the `by` clause."""
        kinds: Optional[tuple[int, ...]] = None
        pools: list[PoolMovers] = []
        same_piece = False
        for by in action.by:
            if by.kind is not None:
                if by.kind not in self.model.kinds:
                    raise unknown(by.pos, "piece kind", by.kind, list(self.model.kinds))
                kinds = (kinds or ()) + (self.model.kinds[by.kind].index,)
            elif by.pool is not None:
                pool = self.compiler.statements.pool(by.pool, name_pos(by.pos, by.pool))
                if pool.kind is None:
                    raise RuleError(by.pos, f"pool '{by.pool}' has no 'kind': say which pieces wait in it")
                if all(s == -1 for s in pool.sites):
                    raise RuleError(by.pos, f"pool '{by.pool}' stands on no site: give it 'sites' in the YAML")
                waiting = tuple(self.model.fresh_piece(p, pool.kind) for p in range(self.model.player_count))
                pools.append((pool.offset, tuple(pool.sites), self.src.const(waiting)))
            else:
                same_piece = True
        if pools and kinds is None:
            kinds = ()
        if isinstance(pattern, (ast.DropPattern, ast.SelectPattern, ast.PassPattern)) and action.by:
            raise RuleError(action.by[0].pos, f"'by' chooses the moving piece; a {_pattern_word(pattern)} "
                                              "action has none")
        return kinds, pools, same_piece

    def _known_kinds(self, pattern: Pattern, kinds: Optional[tuple[int, ...]], pools: list[PoolMovers],
                     same_piece: bool) -> Optional[frozenset[int]]:
        """The kinds the acting piece can be of while the action is listed (None: any)."""
        if isinstance(pattern, ast.DropPattern) and pattern.kind in self.model.kinds:
            return frozenset({self.model.kinds[pattern.kind].index})
        if same_piece or kinds is None:
            return None
        offsets = {p[0] for p in pools}
        waiting = {pool.kind for pool in self.model.pools.values() if pool.offset in offsets}
        return frozenset(kinds) | frozenset(k for k in waiting if k is not None)

    def _searched(self, pattern: ast.Pattern) -> bool:
        """Whether the piece's candidates are found by a search from its site, each
        step asked about: a `walk` with a condition on each step, a `go to` sites
        `connected` to `from` (a flood from it)."""
        if isinstance(pattern, ast.WalkPattern):
            return pattern.step is not None
        if not isinstance(pattern, ast.GoPattern):
            return False
        return any(isinstance(node, ast.Call) and node.fn == "connected" and node.fn not in self.exprs.defines
                   and node.args and mentions(node.args[0], self.exprs.defines, frozenset({"from"}))
                   for node in nodes_of(pattern.targets))

    def _where_levels(self, action: ast.Action, scope: Scope, moving: bool, waits: bool = True) -> WhereLevels:
        """The `where` conjuncts by the level they are asked at: once per position
        ("action"), per piece, per candidate.

        A costly conjunct about the piece alone is asked of a moving piece only when
        one of its candidates passes everything else, and then once (remembered in
        a local that the piece setup empties for each piece): a costly test of the
        piece's own site waits for a candidate that passes the cheap tests of the
        landing site. Not where the candidates cost a search from the piece
        (`waits` false: `_searched`): the piece's test comes first and spares the
        search of a piece that may not move."""
        levels = WhereLevels()
        action_level: list[Part] = []
        remembered: list[Part] = []
        implied: list[ast.Expr] = []
        costs: list[int] = []  # of the candidate conjuncts
        for cond in action.wheres:
            for part in conjuncts(cond):
                # (what a conjunct about the position alone works out is asked once per listing anyway)
                lines, c = self._listed_condition(part, scope, per_listing=mentions(part, self.exprs.defines,
                                                                                    _PIECE_OR_CANDIDATE))
                if not c.deps & (CANDIDATE_DEPS | PIECE_DEPS) and self.exprs.per_listing.read_in([*lines, c.code]):
                    lines, c = self._listed_condition(part, scope)
                if c.is_const:
                    if not c.const:
                        action_level.append((tuple(lines), c.code))
                    continue
                if c.deps & CANDIDATE_DEPS:
                    costs.append(c.cost)
                    weaker = necessary(part, self.exprs.defines) if c.cost >= DEFERRED_TEST else None
                    if weaker is not None and weaker is not part:
                        implied.append(weaker)
                    hoisted = self._position_first(part, scope, levels.position_setup)
                    if hoisted is not None:
                        lines, c = hoisted
                    elif c.cost >= DEFERRED_TEST or self._asks_a_way(lines, c.code):
                        if self.exprs.per_listing.read_in([*lines, c.code]):
                            # (one that can wait for a drawn candidate waits, as it did: a part
                            # kept once per listing is not there)
                            plain_lines, plain = self._listed_condition(part, scope)
                            if self._reads_only_its_code(plain_lines, plain.code):
                                lines, c = plain_lines, plain
                        if self._reads_only_its_code(lines, c.code):
                            levels.deferrable.append(len(levels.candidate))
                        elif KIND_MASK in pyast.names_in([*lines, py.Expr(c.code)]) or self._asks_a_way(lines, c.code):
                            drawn = self._without_kind_masks(part, scope)
                            if self._reads_only_its_code(*drawn):
                                levels.drawn[len(levels.candidate)] = drawn
                                levels.deferrable.append(len(levels.candidate))
                    levels.candidate.append(self._compared_once(levels, lines, c.code, part, scope))
                    levels.candidate_of.append(part)
                    levels.found_loop = c.found_loop
                    levels.candidate_cost += c.cost
                    levels.candidate_parts.append((part.pos, "a 'where' condition", c.cost))
                elif c.deps & PIECE_DEPS:
                    if moving and waits and c.cost > CHEAP_PIECE_TEST:
                        # (one local for one code: the actions of a piece asking the same share it)
                        key = code_key(lines, c.code)
                        if key not in self.remembered:
                            self.remembered[key] = self.src.fresh("l")
                        name = pyast.name(self.remembered[key])
                        levels.piece_setup.append(pyast.assign(name, pyast.none()))
                        worked_out = pyast.if_(pyast.is_none(name), lines + [pyast.assign(name, c.code)])
                        remembered.append(((worked_out,), name))
                    else:
                        levels.piece.append((tuple(lines), c.code))
                    levels.piece_cost += c.cost
                else:
                    action_level.append((tuple(lines), c.code))
                    levels.guard_cost += c.cost
        levels.candidate.extend(remembered)
        if implied and all(cost >= DEFERRED_TEST for cost in costs):
            levels.implied = implied
        levels.action = Condition.of(action_level)
        return levels

    def _compared_once(self, levels: WhereLevels, lines: list[py.stmt], code: py.expr, part: ast.Expr,
                       scope: Scope) -> Part:
        """A candidate conjunct as the listers ask it: where it compares the
        candidate's sites only with sites it reads, answered once per listing and
        kept for the candidates it does not compare (compared_sites.py), each of its
        disjuncts apart where it is an `or` — only one the playouts leave to the
        drawn candidate, which asks it as it was."""
        index = len(levels.candidate)
        if index in levels.deferrable:
            masks = self.exprs.owner_masks.names.values()
            kept = self.compared_sites.kept(lines, code, masks)
            # (split only where the whole is kept: other definitions' code takes no fresh name)
            split = None if kept is None else \
                self._disjuncts_listed(part, scope, self.exprs.per_listing.read_in([*lines, py.Expr(code)]))
            if split is not None:
                kept = self.compared_sites.kept_parts(*split, masks) or kept
            if kept is not None:
                levels.drawn.setdefault(index, (tuple(lines), code))
                return tuple(kept[0]), kept[1]
        return tuple(lines), code

    def _disjuncts_listed(self, part: ast.Expr, scope: Scope, per_listing: bool) \
            -> Optional[tuple[list[py.stmt], bool, list[tuple[list[py.stmt], py.expr]]]]:
        """A condition that is an `or` (through `not`s and defines) compiled as
        `_listed_condition` compiles it, part by part: (the statements of the defines'
        arguments, negated, each disjunct's statements and code); None where it is no
        `or` or a disjunct is a constant."""
        prefix: list[py.stmt] = []
        listing = scope.child(listing=True, per_listing=self.exprs.per_listing if per_listing else None)
        found = self.exprs.disjuncts_of(part, listing.child(sink=prefix))
        if found is None:
            return None
        negated, parts = found
        compiled: list[tuple[list[py.stmt], py.expr]] = []
        for disjunct, inner in parts:
            lines, c = self.exprs.nested(inner, lambda s, d=disjunct: self.exprs.boolean(d, s))  # type: ignore[misc]
            if c.is_const:
                return None
            compiled.append((lines, c.code))
        return prefix, negated, compiled

    def _shared_drop_sites(self, action: ast.Action, pattern: ast.DropPattern, scope: Scope,
                           levels: WhereLevels) -> None:
        """A drop onto empty sites of a fixed set whose candidate conjuncts, about
        the site and the position alone, another drop of the decision asks too
        (written alike: several kinds placed by one rule): the empty sites of the
        set that pass them, worked out once per listing (a list kept whole,
        per_listing.ListingCache.kept_whole, inside the first guard that holds),
        are the sites each of those drops goes over — the conjuncts asked once a
        site, not once a site and drop (the first conjuncts shared, asked in the order
        written). Not where a conjunct waits for a drawn candidate, nor where the
        set is the position's."""
        if levels.deferrable or levels.drawn or levels.found_loop is not None or not self.siblings \
                or any((case.kind, case.what) != ("onto", "empty") for case in action.cases):
            return
        others = {structure(part) for other in self.siblings if other is not action
                  and isinstance(other.pattern, ast.DropPattern) for where in other.wheres for part in conjuncts(where)}
        # (the first conjuncts only: those after a conjunct not shared are asked after it, as written)
        shared = list(itertools.takewhile(lambda i: structure(levels.candidate_of[i]) in others,
                                          range(len(levels.candidate_of))))
        if not shared:
            return
        sites = self.exprs.as_sites(self.exprs.compile(pattern.targets, scope))
        if not sites.is_const or sites.type is not Type.SITES:
            return
        found, to, tg = pyast.name(self.src.fresh("t")), pyast.name("to"), pyast.name("tg")
        inner: list[py.stmt] = [pyast.expr_stmt(pyast.method(found, "append", to))]
        for i in reversed(shared):
            lines, code = levels.candidate[i]
            inner = [*lines, pyast.if_(code, inner)]
        loop: list[py.stmt] = [
            pyast.assign(found, pyast.list_()),
            pyast.for_(to, sites.code, [pyast.assign(tg, pyast.sub(pyast.name("b"), to)),
                                        pyast.if_(pyast.is_none(tg), inner)]),
        ]
        masks = list(self.exprs.owner_masks.names.values())
        if not self.exprs.per_listing.reads_position_only(loop, found, masks, "to"):
            return
        kept = self.exprs.per_listing.kept_whole(loop, Code(found, Type.SITES, frozenset({Dep.BOARD}), size=sites.size),
                                                 levels.chosen_setup, masks)
        levels.shared_sites = kept.code
        levels.candidate = [part for i, part in enumerate(levels.candidate) if i not in shared]
        levels.candidate_of = [part for i, part in enumerate(levels.candidate_of) if i not in shared]

    def _hoist_implied(self, plan: ActionPlan, levels: WhereLevels, scope: Scope) -> None:
        """Ask what the candidates' costly conditions imply about the piece (or
        the position) alone (necessary.py) before the piece's candidates are
        listed — where the pattern can give a piece several candidates (one would
        ask it as often as the condition itself) and no cheaper test of the
        candidate comes first (`_where_levels`: then most candidates listed reach
        the costly one). Each is compiled here and kept only when it reads no
        candidate and its code calls nothing that could fail (it may be asked
        where the condition itself never is)."""
        if not levels.implied or _most_landings(plan.reach) < 2:
            return
        piece = list(plan.piece_where.parts) if plan.piece_where is not None else []
        action = list(plan.guard.parts) if plan.guard is not None else []
        for weaker in levels.implied:
            try:
                lines, c = self._listed_condition(weaker, scope)
            except RuleError:
                continue
            if c.is_const or c.deps & CANDIDATE_DEPS or not cannot_fail([*lines, py.Expr(c.code)]):
                continue
            if c.deps & PIECE_DEPS:
                piece.append((tuple(lines), c.code))
                plan.cost += c.cost
            else:
                action.append((tuple(lines), c.code))
                plan.guard_cost += c.cost
        plan.piece_where, plan.guard = Condition.of(piece), Condition.of(action)

    def _reads_only_its_code(self, lines: Sequence[py.stmt], code: py.expr) -> bool:
        """Whether a condition reads no local but those it sets first and those a
        case's function prepares from the action code (the value of `for each`, a
        walk's ray, a remembered test or a mask are not there)."""
        first_seen: dict[str, bool] = {}  # name -> whether it is first written (not read)
        for node in pyast.walk_all([*lines, py.Expr(code)]):
            if isinstance(node, py.Name) and node.id not in first_seen:
                first_seen[node.id] = isinstance(node.ctx, py.Store)
        # (not a mask of sites made once per listing: asked of each candidate drawn,
        # a test reading one would make it again and again)
        namespace = self.src.namespace
        return all(written or name in _DEFERRABLE_READS or name in namespace or name in BUILTIN_NAMES
                   or name in self.src.later for name, written in first_seen.items())

    def _deferred(self, plan: ActionPlan, levels: WhereLevels, where: Optional[Condition]) -> None:
        """Set `plan.deferred` and `plan.eager` when some of its candidate
        conjuncts can wait for a drawn candidate (a move, drop or select whose emit
        asks `where` as it was made)."""
        emit = plan.emit
        if not levels.deferrable or where is None or not isinstance(emit, Emitter) or emit.landing.where is not where:
            return
        if any(self.compiler.cases[cid].pattern not in _DEFERRABLE_PATTERNS for cid, _ in plan.case_templates):
            return
        kept = [part for i, part in enumerate(levels.candidate) if i not in levels.deferrable]
        cheap = Condition.of(kept, levels.found_loop)
        occupied, empty = self._where_occupied(cheap), self._where_empty(cheap)
        plan.deferred = Condition.of([levels.drawn.get(i, levels.candidate[i]) for i in levels.deferrable],
                                     levels.found_loop)
        plan.eager = Emitter(replace(emit.landing, where=cheap, occupied_where=occupied, empty_where=empty), emit.write)

    def _where_occupied(self, where: Optional[Condition]) -> Optional[Condition]:
        """`where` as asked where the landing `to` holds a piece, `tg` (not None:
        nor is `to` the site -1, beyond the edge, whose entry is always empty)."""
        return self._where_knowing(where, occupied=True)

    def _where_empty(self, where: Optional[Condition]) -> Optional[Condition]:
        """`where` as asked where the landing `to` is empty (`tg` None)."""
        return self._where_knowing(where, occupied=False)

    def _where_knowing(self, where: Optional[Condition], occupied: bool) -> Optional[Condition]:
        if where is None:
            return None
        tg, read, empty = pyast.name("tg"), pyast.sub(pyast.name("b"), pyast.name("to")), self.exprs.empty
        taken, free = (pyast.true(), pyast.false()) if occupied else (pyast.false(), pyast.true())
        piece = tg if occupied else empty
        facts = [(pyast.or_(tg, empty), piece), (pyast.or_(read, empty), piece),
                 (pyast.is_none(tg), free), (pyast.is_not_none(tg), taken),
                 (pyast.is_none(read), free), (pyast.is_not_none(read), taken)]
        if occupied:
            facts.append((pyast.compare(pyast.name("to"), "!=", pyast.num(-1)), pyast.true()))
        return where.knowing(facts)

    def _asks_a_way(self, lines: Sequence[py.stmt], code: py.expr) -> bool:
        """Whether a candidate conjunct asks an exists/all of a move's way as masks
        (site_masks.quantified): one AND in the lister, with the owners' mask made
        once per listing, but a drawn candidate asks its few sites and no mask at
        all — deferred whatever it costs (`where not exists(ray(from, d, it != to),
        it is enemy)` beside a leap: see benchmarks/PROFILE-NOTES.md, s-loa1)."""
        ways = self.exprs.sets.site_masks.way_masks
        return bool(ways) and bool(pyast.names_in([*lines, py.Expr(code)]) & ways)

    def _without_kind_masks(self, e: ast.Expr, scope: Scope) -> tuple[tuple[py.stmt, ...], py.expr]:
        """A candidate conjunct compiled again with no kind's mask nor a way's (an exists or all
        asked of its sites, not of masks), for a drawn candidate."""
        masks = self.exprs.sets.site_masks
        masks.kinds = False
        try:
            lines, c = self._listed_condition(e, scope)
        finally:
            masks.kinds = True
        return tuple(lines), c.code

    def _listed_condition(self, e: ast.Expr, scope: Scope, per_listing: bool = False) -> tuple[list[py.stmt], Code]:
        """(statements, Code) of a condition asked while actions are listed (prefilters.py);
        with `per_listing`, its parts that read the position alone kept once per listing
        (per_listing.py)."""
        kept = self.exprs.per_listing if per_listing else None
        return self.exprs.lowered(e, scope.child(listing=True, per_listing=kept), condition=True)

    def _position_first(self, part: ast.Expr, scope: Scope,
                        setup: list[py.stmt]) -> Optional[tuple[list[py.stmt], Code]]:
        """`A or B` asked of each candidate, where A (the first disjuncts) is about
        the position alone and costly (`exists(houses[opponent], it.seeds > 0) or
        ...`): A is worked out for the first candidate that asks and remembered for
        the position (a local that `setup` empties once per listing). (statements,
        Code) of the condition, or None when there is nothing to remember."""
        parts = disjuncts(part)
        first = 0
        cost = 0
        for d in parts[:-1]:
            _, c = self._listed_condition(d, scope)
            if c.deps & (CANDIDATE_DEPS | PIECE_DEPS) or c.is_const:
                break
            first += 1
            cost += c.cost
        if first == 0 or cost <= CHEAP_PIECE_TEST:
            return None
        lines_a, a = self._listed_condition(either(parts[:first]), scope)
        lines_b, rest = self._listed_condition(either(parts[first:]), scope)
        known, held = pyast.name(self.src.fresh("l")), pyast.name(self.src.fresh("t"))
        setup.append(pyast.assign(known, pyast.none()))
        lines = [
            pyast.if_(pyast.is_none(known), lines_a + [pyast.assign(known, a.code)]),
            pyast.assign(held, known),
            pyast.if_(pyast.not_(held), lines_b + [pyast.assign(held, rest.code)]),
        ]
        return lines, Code(held, Type.BOOL, a.deps | rest.deps, cost=rest.cost + 1)

    # ------------------------------------------------------------ cases
    def _cases(self, action: ast.Action, pattern: Pattern, available: set[str],
               decision_index: int) -> tuple[list[Optional[int]], list[Optional[int]], Optional[int],
                                             list[tuple[str, ...]]]:
        allowed = _allowed_cases(pattern)
        case_ids: list[Optional[int]] = [None, None, None, None]
        over_ids: list[Optional[int]] = [None, None, None, None]
        off_case = None
        templates = []
        self.case_templates = []
        self.case_keys = []
        self.shown = {}
        seen: set[tuple[str, str]] = set()
        for case in action.cases:
            key = (case.kind, case.what)
            if key not in allowed and isinstance(pattern, ast.ScreenSlidePattern):
                raise RuleError(case.pos, f"'{case.label}' does not fit: a screen's way lands onto a site: its cases "
                                          f"are {', '.join(k + ' ' + w for k, w in allowed)}")
            if key not in allowed:
                raise RuleError(case.pos, f"'{case.label}' does not fit a {_pattern_word(pattern)} action; "
                                          f"it can have: {', '.join(k + ' ' + w for k, w in allowed)}")
            if key in seen:
                raise RuleError(case.pos, f"'{case.label}' appears twice in action '{action.name}'")
            seen.add(key)
            choice = find_choice(case.body, self.compiler.items.procedures)
            text = case.notation or action.notation or _default_notation(pattern, key)
            shown = shown_fields(text, getattr(text, "pos", case.pos), TEMPLATE_FIELDS + (CHOICE_FIELD,), self.bound,
                                 self.model, self._compile_name, self._name_of)
            fields = ACTION_FIELDS + ((CHOICE_FIELD,) if choice is not None else ()) + shown.fields
            if self.bound is not None and "{" + self.bound.name + "}" not in fields:
                fields += ("{" + self.bound.name + "}",)  # (named in the message about an unknown field)
            template = self.compiler.template(_located_like(shown.text, text), case.pos, fields)
            if choice is not None and CHOICE_FIELD not in template:
                # "=Q" after the notation, for the actions that choose
                template = template + (SUFFIX_CHOICE,)
            templates.append(template)
            cid = self._case(action, case, pattern, available, decision_index, template)
            if shown.fields:
                self.shown[cid] = shown.codes
                self.value_sources[cid] = shown.sources
                self.compiler.cases[cid].shown = tuple(zip(shown.fields, shown.kinds))
            self.case_templates.append((cid, template))
            self.case_keys.append((key, cid))
            if choice is not None:
                self._register_choice(cid, choice, available, action)
            if case.kind == "onto":
                case_ids[LANDING_SLOT[case.what]] = cid
            elif case.kind == "over":
                if case.what == "any":
                    for slot in (patterns.Onto.OWN, patterns.Onto.NEUTRAL, patterns.Onto.ENEMY):
                        over_ids[slot] = over_ids[slot] if over_ids[slot] is not None else cid
                else:
                    over_ids[LANDING_SLOT[case.what]] = cid
            else:
                off_case = cid
        return case_ids, over_ids, off_case, templates

    def _case(self, action: ast.Action, case: ast.Case, pattern: Pattern, available: set[str], decision_index: int,
              template: tuple[str, ...]) -> int:
        case_available = set(available)
        if case.kind == "off":
            case_available -= {"to", "target"}
        if case.what == "empty" and case.kind == "onto":
            case_available -= {"target"}
        statements = self.compiler.statements
        if isinstance(pattern, ast.DropPattern):
            statements.kind_index(pattern.kind, pattern.kind_pos)  # an unknown kind is a RuleError
        label = f"action '{action.name}', {case.label}"
        info = CaseCode(decision_index, _case_pattern(pattern), action.name, template, label, case.pos,
                        notation_pos=case.notation_pos if case.notation else action.notation_pos,
                        off_board=case.kind == "off")
        is_drop = isinstance(pattern, ast.DropPattern)
        pool_offset = statements.pool(pattern.pool, pattern.pool_pos or pattern.pos).offset \
            if isinstance(pattern, ast.DropPattern) and pattern.pool else None
        scope = self.compiler.scope(
            case_available, label, piece_always="piece" in available, followups=True, **self._locals(),
            in_drop=is_drop, drop_pool_offset=pool_offset, choice_allowed=True,
            flow=Flow(at_valid=info.pattern.moves, to_empty=(case.kind, case.what) == ("onto", "empty")),
        )
        with self.src.origin(Origin(label, case.pos)), self.src.capture() as lines:
            info.cost, info.effects = statements.block_with_effects(case.body, scope)
        # (the value of `for each`: as when the action was listed, since nothing has changed yet)
        info.body = list(self.bound.setup) + lines if self.bound is not None else lines
        kept = self._checked_statements(case.body)
        if kept is not None:
            checked_scope = self.compiler.scope(
                case_available, label, piece_always="piece" in available, followups=True, **self._locals(),
                in_drop=is_drop, drop_pool_offset=pool_offset, choice_allowed=True,
                flow=Flow(at_valid=info.pattern.moves, to_empty=(case.kind, case.what) == ("onto", "empty")))
            errors, warnings = len(statements.errors), len(statements.warnings)
            with self.src.origin(Origin(label, case.pos)), self.src.capture() as checked:
                statements.block_with_effects(kept, checked_scope)
            del statements.errors[errors:], statements.warnings[warnings:]  # (said once, of the case itself)
            info.checked_body = list(self.bound.setup) + checked if self.bound is not None else checked
        if isinstance(pattern, ast.DropPattern):
            info.fresh_pieces = self._fresh_pieces(pattern)
            info.landings = self._fixed_sites(pattern.targets, scope)
        elif info.pattern.moves:
            info.pool_pieces = self.compiler.pool_pieces_constant()
        return self.compiler.add_case(info)

    def _checked_statements(self, body: list[ast.Stmt]) -> Optional[list[ast.Stmt]]:
        """The statements of a case its `forbid result` check plays, where that
        leaves some out (else None): those that only set attributes of pieces to
        values written out (attribute_writes.attributes_set_only: nothing fails,
        no owner, kind or site changes, nothing ends), where none of those
        attributes is read by a `forbid result` line, the case's other
        statements, an `after each action` block the check may play, or the
        score — the parts then answer the same without them (cases.py). Then,
        of what is left, those that only set variables to values written out
        (attribute_writes.variables_set_only; the calls of procedures without
        parameters written out first, `calls_written_out`), where none of those
        variables is read by any of these."""
        compiler = self.compiler
        # (no check to play it without a `forbid result` line; with coverage, each rule's probe is
        # counted as the case plays it)
        if not attribute_writes.IN_CASES or not compiler.restrictions.results or compiler.probes.coverage is not None:
            return None
        items = self.compiler.items
        kept = self._without_attribute_writes(body)
        if attribute_writes.VARIABLES_IN_CASES:
            without_variables = self._without_variable_writes(body if kept is None else kept)
            kept = kept if without_variables is None else without_variables
        if kept is None or _numbers_statements(kept, items.procedures):
            return None
        return kept

    def _without_attribute_writes(self, body: list[ast.Stmt]) -> Optional[list[ast.Stmt]]:
        """`body` without its statements setting only attributes no check reads
        (`_checked_statements`), or None where none is left out."""
        compiler = self.compiler
        items = compiler.items
        left_out: list[int] = []
        attributes: frozenset[str] = frozenset()
        for index, stmt in enumerate(body):
            found = attributes_set_only([stmt], self.model.attributes, items.defines, items.procedures,
                                        self.model.regions)
            if found is not None:
                left_out.append(index)
                attributes |= found
        if not left_out or compiler.result_reads_attributes(attributes):
            return None
        kept = [stmt for index, stmt in enumerate(body) if index not in left_out]
        if _numbers_statements(kept, items.procedures):
            return None
        afters = [d.after_action for d in items.decisions.values()] + [p.after_action for p in items.phases]
        if block_reads_attributes([kept, afters, items.score], items.defines, items.procedures, attributes):
            return None
        return kept

    def _without_variable_writes(self, body: list[ast.Stmt]) -> Optional[list[ast.Stmt]]:
        """`body` without its statements setting only variables no check reads
        (`_checked_statements`), or None where none is left out."""
        items = self.compiler.items
        variables = {name: var.per_player for name, var in self.model.variables.items()}
        written_out = calls_written_out(body, items.procedures)
        left_out: list[int] = []
        names: frozenset[str] = frozenset()
        for index, stmt in enumerate(written_out):
            found = variables_set_only([stmt], variables, items.defines, items.procedures, SMALL_STEP)
            if found is not None:
                left_out.append(index)
                names |= found
        if not left_out:
            return None
        kept = [stmt for index, stmt in enumerate(written_out) if index not in left_out]
        afters = [d.after_action for d in items.decisions.values()] + [p.after_action for p in items.phases]
        forbids = [item.cond for item, _ in self.compiler.restrictions.results]
        if block_reads_names([kept, afters, items.score, forbids], items.defines, items.procedures, names):
            return None
        return kept

    def _register_choice(self, cid: int, choice: tuple[ast.PromoteChoiceStmt, tuple[tuple[ast.Expr, bool], ...]],
                         available: set[str], action: ast.Action) -> None:
        """Each kind of a `promote ... to one of` is an action of its own: the
        conditions around the statement are asked when actions are listed."""
        stmt, path = choice
        scope = self.compiler.scope(available, f"action '{action.name}' (the conditions around 'one of')",
                                    piece_always="piece" in available, **self._locals())
        tests = []
        for cond, holds in path:
            c = self.exprs.boolean(cond, scope)
            tests.append(c.code if holds else pyast.not_(c.code))
        kinds = tuple(self.model.kinds[k.id].index for k in stmt.kinds if k.id in self.model.kinds)
        self.compiler.cases[cid].choice_kinds = kinds
        self.choices[cid] = (len(kinds), pyast.and_(*tests) if tests else None)

    def _compile_name(self, name: ast.Name) -> Code:
        """A variable or option a notation shows, as the listing reads it."""
        return self.exprs.compile(name, self.compiler.scope((), "a notation"))

    def _name_of(self, kind: str, index: Any) -> str:
        return str(self.model.board.names[index] if kind == "site" else self.model.players[index])

    def _fixed_sites(self, e: ast.Expr, scope: Scope) -> Optional[frozenset[int]]:
        """The sites of `e` where it compiles to a constant of sites (a region, a
        define of regions), else None."""
        if not isinstance(e, ast.Name):
            return None
        code = self.exprs.compile(e, scope).code
        value = self.src.value(code) if isinstance(code, py.Name) else None
        size = self.model.board.size
        if not isinstance(value, tuple) or not all(type(site) is int and 0 <= site < size for site in value):
            return None
        return frozenset(value)

    def _fresh_pieces(self, pattern: ast.DropPattern) -> py.Name:
        """The constant of the piece a drop puts down, per player."""
        kind = self.model.kinds[pattern.kind]
        fresh = tuple(self.model.fresh_piece(-1 if kind.neutral else p, kind.index)
                      for p in range(self.model.player_count))
        return self.src.const(fresh)

    def _pass(self, plan: ActionPlan, action: ast.Action, pattern: ast.PassPattern, decision_index: int) -> ActionPlan:
        """A pass: a case of its own, doing nothing or what its block (`pass:`) says."""
        block = None
        for case in action.cases:
            if case.kind != "pass":
                raise RuleError(case.pos, f"'{case.label}': a pass has no landing site: its statements follow 'pass:'")
            block = case
        notation = (block.notation if block is not None else None) or action.notation or "pass"
        shown = shown_fields(notation, getattr(notation, "pos", action.pos), (), self.bound, self.model,
                             self._compile_name, self._name_of)
        template = self.compiler.template(_located_like(shown.text, notation), action.pos, shown.fields)
        plan.templates.append(template)
        label = f"action '{action.name}'" + (", pass" if block is not None else "")
        notation_pos = block.notation_pos if block is not None and block.notation else action.notation_pos
        passing = CaseCode(decision_index, CasePattern.PASS, action.name, template, label,
                           block.pos if block is not None else action.pos, notation_pos=notation_pos)
        if block is not None:
            scope = self.compiler.scope((), label, followups=True, **self._locals())
            with self.src.origin(Origin(label, block.pos)), self.src.capture() as lines:
                passing.cost, passing.effects = self.compiler.statements.block_with_effects(block.body, scope)
            passing.body = lines
        cid = self.compiler.add_case(passing)
        plan.case_templates = ((cid, template),)
        # (the values a notation shows follow the fields a pass leaves unused, as a move's do)
        code = pyast.tuple_(pyast.num(cid), pyast.num(-1), pyast.num(-1), *(
            (pyast.num(-1), pyast.num(-1), *shown.codes) if shown.fields else ()))
        if shown.fields:
            self.shown[cid] = shown.codes
            self.value_sources[cid] = shown.sources
            passing.shown = tuple(zip(shown.fields, shown.kinds))

        def emit(src: Source, exclude: Optional[py.Name] = None) -> None:
            src.add(pyast.expr_stmt(pyast.method(pyast.name("out"), "append", code)))

        plan.emit = emit
        plan.only_if_stuck = pattern.only_if_stuck
        return plan

    # ------------------------------------------------------------ patterns
    def _pattern(self, pattern: Pattern, scope: Scope, landing: patterns.Landing, over_ids: list[Optional[int]],
                 off_case: Optional[int], plan: ActionPlan, levels: WhereLevels) -> tuple[Emit, Optional[Reach], int]:
        """(emit, reach, cost per piece) of the action's pattern."""
        board = self.model.board
        passes = not isinstance(pattern, (ast.GoPattern, ast.DropPattern, ast.SelectPattern, ast.PassPattern))
        cost = 1 + levels.candidate_cost + self.compiler.restrictions.cost(passes)
        if not isinstance(pattern, ast.WalkPattern):  # (a walk's estimate is its own)
            plan.candidate_cost = cost
            plan.candidate_parts = (*levels.candidate_parts, *self.compiler.restrictions.line_costs(passes))
        if isinstance(pattern, (ast.StepPattern, ast.LeapPattern, ast.JumpPattern)):
            if board.kind != "grid":
                raise RuleError(pattern.pos, f"'{_pattern_word(pattern)}' moves along grid directions; on a graph "
                                             "board use 'walk N steps' or 'go to'")
            dirs = self._directions(pattern.directions)
            span = self._span(pattern.distance, scope)
            n, rays = board.size, board.rays
            first = span.low_fixed if span.low_fixed is not None else 1
            last = span.high_fixed if span.high is not None and span.high_fixed is not None else None
            exact = span.exact and span.low_fixed is not None and span.low_fixed >= 1
            # candidates per direction: one for an exact distance, else a line of them
            reach_per_direction = 1 if exact else max(board.files, board.ranks)
            steps = reach_per_direction * max(len(d) for d in dirs) * cost
            if isinstance(pattern, ast.JumpPattern):
                if exact:
                    plan.shape = ("jump", span.low_fixed, tuple(dirs), landing, over_ids)
                # A jump lands just beyond the piece it jumps.
                reach = reach_along(rays, dirs, first + 1, None if last is None else last + 1, False)
                emit = _emitting(landing,
                                 lambda src, ld: patterns.jump(src, list(ld.over_ids), ld, dirs, rays, n, span))
                return emit, reach, steps
            if isinstance(pattern, ast.LeapPattern):
                if pattern.distance.unbounded:
                    raise RuleError(pattern.pos, "a leap needs a bounded distance")
                reach = reach_along(rays, dirs, first, last, off_case is not None)
                masks = self.exprs.sets.site_masks.condition
                emit = _emitting(landing, lambda src, ld: patterns.leap(src, ld, dirs, rays, n, span, ld.off_case,
                                                                        ld.off_where, masks))
                return emit, reach, steps
            if exact and landing.case_ids[patterns.Onto.EMPTY] is not None and not landing.occupied_cases():
                plan.shape = ("step", span.low_fixed, tuple(dirs), landing)
            elif exact and span.low_fixed == 1 and landing.case_ids[patterns.Onto.EMPTY] is None \
                    and landing.occupied_cases() and off_case is None:
                plan.shape = ("step onto a piece", span.low_fixed, tuple(dirs), landing)
            reach = reach_along(rays, dirs, first, last, False)
            return _emitting(landing, lambda src, ld: patterns.step(src, ld, dirs, rays, n, span)), reach, steps
        if isinstance(pattern, ast.ScreenSlidePattern):
            if board.kind != "grid":
                raise RuleError(pattern.pos, "'slide ... over one piece' moves along grid directions; on a graph "
                                             "board use 'walk N steps' or 'go to'")
            dirs = self._directions(pattern.directions)
            rays = board.rays
            reach = reach_along(rays, dirs, 2, None, False)
            steps = max(board.files, board.ranks) * max(len(d) for d in dirs) * cost
            return _emitting(landing, lambda src, ld: patterns.screen_slide(src, ld, dirs, rays, board.size)), \
                reach, steps
        if isinstance(pattern, ast.OffsetLeapPattern):
            if board.kind != "grid":
                raise RuleError(pattern.pos, "'leap (X, Y)' leaps by grid offsets; on a graph board use 'walk N steps' "
                                             "or 'go to'")
            ways = self._offset_ways(pattern)
            targets = tuple(tuple(tuple(to for to, _ in row) for row in per_player) for per_player in ways)
            reach = Reach(table=tuple(tuple(frozenset(t) for t in per_player) for per_player in targets))
            if pattern.via:
                return _emitting(landing, lambda src, ld: patterns.offset_leap_via(src, ld, ways)), reach, 10 * cost
            return _emitting(landing, lambda src, ld: patterns.offset_leap(src, ld, targets)), reach, 8 * cost
        if isinstance(pattern, ast.AlongPattern):
            return self._along(pattern, scope, landing, off_case, cost)
        if isinstance(pattern, ast.WalkPattern):
            return self._walk(pattern, scope, landing, plan)
        if isinstance(pattern, ast.GoPattern):
            sites = self.exprs.as_sites(self.exprs.compile(pattern.targets, scope))
            lines: Sequence[py.stmt] = ()
            if _asks_every_site(sites.code):
                # A flood, which one expression would ask of every site (and step)
                # of the board first: written out as loops before the targets
                # instead, asking only the sites and steps it reaches.
                lowered, sites = self.exprs.lowered(pattern.targets, scope)
                sites, lines = self.exprs.as_sites(sites), tuple(lowered)
                if not sites.deps & (PIECE_DEPS | CANDIDATE_DEPS):
                    # (the same for every piece: once per listing, as a drop's sites)
                    levels.position_setup.extend(lines)
                    lines = ()
            code = self.compiler.targets(pattern.targets, scope, "go to", sites)
            fixed = reach_of_set(sites.static_sites) if sites.static_sites is not None else None
            return (_emitting(landing, lambda src, ld: patterns.go(src, ld, code, lines)), fixed,
                    sites.cost + sites.size * cost)
        if isinstance(pattern, ast.DropPattern):
            self.compiler.statements.kind_index(pattern.kind, pattern.kind_pos)
            if pattern.pool is not None:
                self.compiler.statements.pool(pattern.pool, pattern.pool_pos or pattern.pos)
            if levels.shared_sites is not None:
                code, test = levels.shared_sites, None
            else:
                code, test = self._chosen_sites(pattern.targets, scope, "drop ... on", levels.chosen_setup)
            emit = _emitting(landing, lambda src, ld: patterns.choose_site(src, ld, code, test))
            return emit, None, self.model.board.size * cost
        if isinstance(pattern, ast.SelectPattern):
            code, test = self._chosen_sites(pattern.targets, scope, "select", levels.chosen_setup)
            emit = _emitting(landing, lambda src, ld: patterns.choose_site(src, ld, code, test))
            return emit, None, self.model.board.size * cost
        raise AssertionError(pattern)

    def _offset_ways(self, pattern: ast.OffsetLeapPattern) -> patterns.LeapWays:
        """ways[player][site]: (the site at each of the pattern's offsets, the ways
        to it: for each, the sites at its `via` offsets, which must be empty) —
        offsets x to the right of the player's forward, y forward (east and north
        without a forward). The symmetric form turns each via offset with the leap
        offset it belongs to; a way whose via site lies beyond the edge is closed."""
        board = self.model.board
        for via in pattern.via:
            if via == (0, 0) or via in pattern.offsets:
                raise RuleError(pattern.pos, f"a leap's via site lies on its way, not at its start or end: "
                                             f"via {via} is {'the start' if via == (0, 0) else 'a site leapt to'}")
        images: set[tuple[tuple[int, int], tuple[tuple[int, int], ...]]] = set()
        for x, y in pattern.offsets:
            if not pattern.symmetric:
                images.add(((x, y), tuple(pattern.via)))
                continue
            for swap in (False, True):
                for sx in (1, -1):
                    for sy in (1, -1):
                        def turned(a: int, c: int) -> tuple[int, int]:
                            a, c = (c, a) if swap else (a, c)
                            return sx * a, sy * c
                        images.add((turned(x, y), tuple(turned(a, c) for a, c in pattern.via)))
        per_player = []
        for forward in self.model.forward:
            turn = _ROTATIONS.get(forward or "n")
            if turn is None:
                raise RuleError(pattern.pos, f"leap offsets need a forward direction along the board's lines, "
                                             f"not '{forward}'")
            absolute: dict[tuple[int, int], set[tuple[tuple[int, int], ...]]] = {}
            for offset, vias in images:
                absolute.setdefault(turn(*offset), set()).add(tuple(turn(a, c) for a, c in vias))
            per_site = []
            for s in range(board.size):
                f, r = board.site_file(s), board.site_rank(s)

                def at(df: int, dr: int) -> int:
                    if 0 <= f + df < board.files and 0 <= r + dr < board.ranks:
                        return (r + dr) * board.files + f + df
                    return -1

                row = []
                for (df, dr), alternatives in sorted(absolute.items()):
                    to = at(df, dr)
                    if to == -1 or (df, dr) == (0, 0):
                        continue
                    open_ways = sorted({tuple(at(a, c) for a, c in vias) for vias in alternatives
                                        if all(at(a, c) != -1 for a, c in vias)})
                    if open_ways:
                        row.append((to, tuple(open_ways)))
                per_site.append(tuple(row))
            per_player.append(tuple(per_site))
        return tuple(per_player)

    def _chosen_sites(self, e: ast.Expr, scope: Scope, what: str,
                      setup: list[py.stmt]) -> tuple[py.expr, Optional[py.expr]]:
        """(the sites a drop or select chooses among, a test of `to` or None): of
        `pieces ... where W`, the pieces, with W asked of each in the loop that
        lists the candidates rather than in a list made first. Sites worked out by
        loops (a ray up to a piece, ...) are worked out once per listing by
        statements added to `setup`, Python's loops rather than generators — reading
        the position alone, kept whole once per listing (per_listing.ListingCache.kept_whole):
        the other actions naming them alike read the local."""
        narrowed = pieces_in_fixed_set(self.exprs, e, scope)
        if narrowed is not None:
            return narrowed
        c = self.exprs.as_sites(self.exprs.compile(e, scope))  # (a track: its sites)
        code = self.compiler.targets(e, scope, what, c)
        asked = c.filtered[4] if c.filtered is not None and c.filtered[0] is None else code
        # (the value of `for each` is set before the setup; a drop's piece after it)
        if _has_generator(asked) and not c.deps & (PIECE_DEPS | CANDIDATE_DEPS):
            lines, lowered = self.exprs.lowered(e, scope)
            if lines:
                masks = self.exprs.owner_masks.names.values()
                lowered = self.exprs.per_listing.kept_whole(lines, lowered, setup, masks)
                return self.compiler.targets(e, scope, what, self.exprs.as_sites(lowered)), None
        if c.filtered is not None and c.filtered[0] is None:
            _, sites, var, _, where = c.filtered
            return sites, pyast.replace_nodes(where, pyast.renaming(var, "to"))
        return code, None

    def _along(self, pattern: ast.AlongPattern, scope: Scope, landing: patterns.Landing, off_case: Optional[int],
               cost: int) -> tuple[Emit, Optional[Reach], int]:
        name = pattern.track.id
        if name not in self.model.tracks:
            raise unknown(pattern.track.pos, "track", name, list(self.model.tracks))
        track = self.model.tracks[name]
        values = self.exprs.track_values(track)
        code: py.expr
        if pattern.distance.unbounded:
            raise RuleError(pattern.pos, "a move along a track needs a bounded distance")
        span = self._span(pattern.distance, scope)
        tables = self.exprs.tracks.landing_tables(track, span.high_fixed)
        landings: Optional[tuple[py.expr, int]] = None
        if track.per_player:
            code = pyast.sub(self.src.const(tuple(values)), pyast.name("p"))
            if tables is not None:
                landings = (pyast.sub(tables[1], pyast.name("p")), tables[2])
        else:
            code = self.src.const(values[0])
            if tables is not None:
                landings = (tables[0][0], tables[2])
        steps = max(len(t) for t in track.sites) * cost
        emit = _emitting(landing, lambda src, ld: patterns.along_track(src, ld, code, span, ld.off_case, ld.off_where,
                                                                       landings))
        return emit, None, steps

    def _walk(self, pattern: ast.WalkPattern, scope: Scope, landing: patterns.Landing,
              plan: ActionPlan) -> tuple[Emit, Optional[Reach], int]:
        steps = self.exprs.compile(pattern.steps, scope)
        whole_number(steps, pattern.steps, "the number of steps")
        if steps.type is not Type.INT:
            raise RuleError(pattern.steps.pos, f"the number of steps must be a number, found {describe(steps)}")
        adjacent = self.exprs.adjacency_table()
        shape = self.compiler.restrictions.passing_shape()
        pos = self.src.const(pattern.pos)
        cost = self.model.board.size * (2 + (landing.where is not None))
        step: Optional[patterns.WalkStep] = None
        if pattern.step is not None:
            rule = pattern.step
            a, b = self.src.fresh("i"), self.src.fresh("i")
            # (asked while the walk looks for its ends: there is no landing site yet)
            walking = scope.child(available=scope.available - {"to", "target", "jumped"},
                                  where=f"{scope.where}, 'each step' of its walk (no landing site yet)")
            lines, cond = self.exprs.nested(self.exprs.connected.step_scope(rule, walking, pyast.name(a),
                                                                            pyast.name(b)),
                                            lambda nested: self.exprs.boolean(rule.cond, nested))
            step = patterns.WalkStep(a, b, tuple(lines), cond.code)
            cost += self.model.board.size * cond.cost
        if shape is None or step is not None:
            emit = _emitting(landing, lambda src, ld: patterns.walk_general(src, ld, adjacent, steps.code, pos, step))
            return emit, None, cost * 4
        static, blocking = shape
        tables = self.src.const(WalkTables(tuple(tuple(a) for a in self.model.board.adjacent), static, pattern.pos))
        blocked: py.expr
        if blocking:
            mask = tuple(k in blocking for k in range(len(self.model.kinds)))
            # Blocking pieces are the neutral ones when the blocking kinds are the
            # neutral kinds (and the statements change no owner or kind: decisions.py).
            plan.walk_blocking = mask
            plan.walk_blockers_neutral = all(k.neutral == (k.index in blocking) for k in self.model.kinds.values())
            blocked = pyast.name("wb")
        else:
            blocked = pyast.num(0)
        row = None
        if not steps.deps & (PIECE_DEPS | {Dep.LOCALS}):
            # The same length for every piece: the row of walk tables once per position.
            row = pyast.name(self.src.fresh("l"))
            plan.prelude = (pyast.assign(row, patterns.walk_row(tables, steps.code)),)
        return _emitting(landing, lambda src, ld: patterns.walk(src, ld, tables, steps.code, blocked, row)), None, cost

    def _directions(self, names: list[ast.Name]) -> list[tuple[int, ...]]:
        """Per player, the direction indices named (relative ones resolved)."""
        sets = self.model.direction_sets
        per_player: list[list[int]] = [[] for _ in range(self.model.player_count)]
        for name in names:
            bound = self.bound
            if bound is not None and name.id == bound.name:
                # The value of `for each` (a local shadows a direction's name, as in expressions).
                d = self._bound_direction(name, bound)
                for p in range(self.model.player_count):
                    if d not in per_player[p]:
                        per_player[p].append(d)
                continue
            if name.id not in sets:
                if not all(self.model.forward) and name.id in RELATIVE_DIRECTIONS:
                    raise RuleError(name.pos, f"'{name.id}' is relative to a player: give each player a 'forward' "
                                              "direction in the YAML")
                raise unknown(name.pos, "direction", name.id, list(sets))
            for p in range(self.model.player_count):
                for d in sets[name.id][p]:
                    if d not in per_player[p]:
                        per_player[p].append(d)
        return [tuple(d) for d in per_player]

    @staticmethod
    def _bound_direction(name: ast.Name, bound: Bound) -> int:
        """The direction a pattern names by the value of `for each`: fixed when the
        rules are compiled (a set of directions, a list of direction names)."""
        if bound.type is not Type.DIR:
            kind = f"a {KIND_OF_TYPE[bound.type]}" if bound.type in KIND_OF_TYPE else bound.type.value
            raise RuleError(name.pos, f"'{name.id}' (the value of 'for each') is {kind}, not a direction")
        fixed = bound.local.fixed
        if fixed is None:
            raise RuleError(name.pos, f"a pattern's direction is fixed when the rules are compiled, and '{name.id}' "
                                      "is known only while playing (a direction relative to the player?)",
                            "write 'for each D in SET' with a set of directions, or a list of direction names "
                            "that mean the same for every player")
        return int(fixed[0])

    def _span(self, distance: ast.Distance, scope: Scope) -> patterns.Span:
        low = self._distance_bound(distance.low, scope)
        if distance.unbounded:
            return patterns.Span(low.code, None, low.const if low.is_const else None)
        if distance.high is None:
            fixed = low.const if low.is_const else None
            return patterns.Span(low.code, low.code, fixed, fixed)
        high = self._distance_bound(distance.high, scope)
        return patterns.Span(
            low.code, high.code, low.const if low.is_const else None, high.const if high.is_const else None,
        )

    def _distance_bound(self, e: ast.Expr, scope: Scope) -> Code:
        # (asked in the listers only, where the position does not change)
        c = self.exprs.compile(e, scope.child(listing=True))
        whole_number(c, e, "a distance")
        if c.type is not Type.INT:
            raise RuleError(e.pos, f"a distance must be a number, found {describe(c)}")
        if c.deps & CANDIDATE_DEPS:
            raise RuleError(e.pos, "a distance cannot depend on the landing site")
        return c


# Offsets (x to the right of forward, y forward) -> (file, rank) deltas, by forward.
_ROTATIONS: dict[str, Callable[[int, int], tuple[int, int]]] = {
    "n": lambda x, y: (x, y),
    "s": lambda x, y: (-x, -y),
    "e": lambda x, y: (y, -x),
    "w": lambda x, y: (-y, x),
}


# The calls generated code may make in a condition asked where the rules did not
# ask it (ActionCompiler._hoist_implied): none of them fails.
_SAFE_CALLS = frozenset({"len", "any", "all", "h_first", "h_last", "h_sites_mask", "h_others_mask", "h_occupied_mask",
                         "h_kind_mask"})
_SAFE_OPERATORS = (py.Add, py.Sub, py.Mult, py.BitOr, py.BitAnd, py.BitXor)


def _most_landings(reach: Optional[Reach]) -> int:
    """The most sites one piece can land on by an action (a large number when
    not known before play)."""
    if reach is None:
        return 1 << 30
    if reach.anywhere is not None:
        return len(reach.anywhere)
    return max((len(sites) for per_site in reach.table or () for sites in per_site), default=0)


def cannot_fail(code: Sequence[py.AST]) -> bool:
    """Whether generated code calls nothing but `_SAFE_CALLS` and divides nothing
    (the helpers that fail, a division by zero, are calls or divisions)."""
    for node in pyast.walk_all(code):
        if isinstance(node, py.Call) and not (isinstance(node.func, py.Name) and node.func.id in _SAFE_CALLS):
            return False
        if isinstance(node, py.BinOp) and not isinstance(node.op, _SAFE_OPERATORS):
            return False
    return True


def _available(pattern: Pattern) -> set[str]:
    if isinstance(pattern, ast.ScreenSlidePattern):
        return {"piece", "from", "to", "target", "jumped"}
    if isinstance(pattern, ast.JumpPattern):
        return {"piece", "from", "to", "jumped"}
    if isinstance(pattern, ast.DropPattern):
        return {"piece", "to", "target"}
    if isinstance(pattern, ast.SelectPattern):
        return {"to", "target"}
    if isinstance(pattern, ast.PassPattern):
        return set()
    return {"piece", "from", "to", "target"}


def _case_pattern(pattern: Pattern) -> CasePattern:
    if isinstance(pattern, ast.ScreenSlidePattern):
        return CasePattern.SCREEN
    if isinstance(pattern, ast.JumpPattern):
        return CasePattern.JUMP
    if isinstance(pattern, ast.DropPattern):
        return CasePattern.DROP
    if isinstance(pattern, ast.SelectPattern):
        return CasePattern.SELECT
    return CasePattern.MOVE


def _movers(action: ast.Action, model: GameModel) -> Optional[set[int]]:
    """The kinds an action can move, or None when it is not limited to kinds."""
    if not action.by or any(b.same_piece for b in action.by):
        return None
    kinds = set()
    for b in action.by:
        if b.kind is not None and b.kind in model.kinds:
            kinds.add(model.kinds[b.kind].index)
        elif b.pool is not None and b.pool in model.pools:
            pool_kind = model.pools[b.pool].kind
            if pool_kind is not None:
                kinds.add(pool_kind)
    return kinds


def _allowed_cases(pattern: Pattern) -> list[tuple[str, str]]:
    onto = [("onto", w) for w in ("empty", "enemy", "own", "neutral")]
    if isinstance(pattern, ast.JumpPattern):
        return [("over", w) for w in ("enemy", "own", "neutral", "any")]
    if isinstance(pattern, (ast.LeapPattern, ast.AlongPattern)):
        return onto + [("off", "board")]
    return onto


def _located_like(text: str, original: str) -> str:
    """`text` keeping where `original` is written (parser.LocatedText), for messages."""
    pos = getattr(original, "pos", None)
    if pos is None or text is original:
        return original if text == original else text
    located = type(original)(text)
    located.pos = pos  # type: ignore[attr-defined]
    located.written = str(original)  # type: ignore[attr-defined]  # (for a message's column)
    return located


def _unnamed_direction_hint(action: ast.Action) -> Optional[str]:
    """For an action going along directions none of which has a name (no `for each`):
    how to name the one being tried, for an unknown name in its pattern or conditions."""
    if action.each is not None or not isinstance(
            action.pattern, (ast.StepPattern, ast.LeapPattern, ast.JumpPattern, ast.ScreenSlidePattern)):
        return None
    return ("the direction the pattern is trying has no name; to name it, make the action once for each "
            "direction: 'action NAME for each d in DIRS:' with 'd' in the pattern ('leap d distance ...'), "
            "then 'd' is that direction in the distance and the 'where' (format.md 3.4, 3.5)")


def _pattern_word(pattern: Pattern) -> str:
    if isinstance(pattern, ast.ScreenSlidePattern):
        return "screen (slide ... over one piece)"
    return type(pattern).__name__.replace("Pattern", "").lower()


def _default_notation(pattern: Pattern, key: tuple[str, str]) -> str:
    if isinstance(pattern, ast.DropPattern):
        return "@{to}"
    if isinstance(pattern, ast.SelectPattern):
        return "{to}"
    return DEFAULT_NOTATION[key]


__all__ = ["ActionCompiler", "ActionPlan", "CaseCode", "Dep"]

# A `promote ... to one of` with the conditions of the `if`s around it.
Choice = tuple[ast.PromoteChoiceStmt, tuple[tuple[ast.Expr, bool], ...]]


def find_choice(stmts: Sequence[ast.Stmt], procedures: dict[str, ast.Procedure],
                path: tuple[tuple[ast.Expr, bool], ...] = (), depth: int = 0) -> Optional[Choice]:
    """The `promote ... to one of` statement of a case body, with the conditions
    of the `if`s around it: (statement, ((condition, holds), ...)); None if none.
    At most one per case, not inside `for each` or `repeat`."""
    found = None
    for stmt in stmts:
        here: Optional[Choice] = None
        if isinstance(stmt, ast.PromoteChoiceStmt):
            here = (stmt, path)
        elif isinstance(stmt, ast.IfStmt):
            earlier: tuple[tuple[ast.Expr, bool], ...] = ()
            for cond, body in stmt.branches:
                here = _either(here, find_choice(body, procedures, path + earlier + ((cond, True),), depth))
                earlier += ((cond, False),)
            here = _either(here, find_choice(stmt.otherwise, procedures, path + earlier, depth))
        elif isinstance(stmt, (ast.ForEachStmt, ast.RepeatStmt)):
            if find_choice(stmt.body, procedures, path, depth) is not None:
                raise RuleError(stmt.pos, "'promote ... to one of' cannot stand inside 'for each' or 'repeat': "
                                          "each choice is one action")
        elif isinstance(stmt, ast.CallStmt) and stmt.procedure in procedures and depth < 50 and not stmt.args:
            here = find_choice(procedures[stmt.procedure].body, procedures, path, depth + 1)
        found = _either(found, here)
    return found


def _either(a: Optional[Choice], b: Optional[Choice]) -> Optional[Choice]:
    if a is not None and b is not None:
        raise RuleError(b[0].pos, f"a case can have one 'promote ... to one of' (the other is at {a[0].pos})")
    return a if a is not None else b



def never_listed(plan: ActionPlan) -> bool:
    """Whether the action's guard (its `where` conditions about the position
    alone, asked once per position) is known false when compiling — an option's
    value folded in, `where extra == "on" and ...` with the option off — and
    nothing asked before the false operand can fail: the action is never legal,
    and a decision may leave it out of its listers (its other actions then list
    as if it were not written: no notations compared, draws kept)."""
    if plan.guard is None or not cannot_fail(plan.values):
        return False
    for lines, code in plan.guard.parts:
        if lines:
            return False
        operands = code.values if isinstance(code, py.BoolOp) and isinstance(code.op, py.And) else [code]
        for operand in operands:
            if isinstance(operand, py.Constant) and not operand.value:
                return True
            if not cannot_fail([operand]):
                return False
    return False
