"""Rules AST + GameModel → CompiledRules: Python functions generated for one game.

The compiler checks the rules and writes, through one `Source`:

- per decision, the function that lists its legal actions (decisions.py);
- per case of an action (and per chance event), for each phase, the function
  that applies it: the case's statements, the decision's and the phase's
  `after each action`, then the turn sequence (cases.py);
- per phase, the end of a turn and what happens when nobody can act;
- the score.

Once the module is compiled, `_write` builds the frozen `CompiledRules` the
runtime gets (runtime/compiled.py); the engine (runtime/engine.py) then only
calls these functions.
"""
from __future__ import annotations

import ast as py
import re
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Callable, Collection, Iterable, NamedTuple, Optional, Sequence, TypeVar

from ..limits import MAX_NOTATION_CHARS
from ..parsing import ast
from ..parsing.visit import structure
from ..runtime import helpers
from ..runtime.clearances import ClearedChecks
from ..runtime.compiled import CasePattern, CompiledRules, DecisionInfo, PhaseInfo
from ..runtime.coverage import RuleCoverage
from ..runtime.helpers import NotationKeys, ResultCheck, empty_counters, fixed_counter
from ..runtime.kept_answers import KeptByMove
from ..runtime.pieces import NO_SITE, STONES, Piece
from ..runtime.results import EndingKind, Results
from ..runtime.state import State
from . import kept_paths, pyast
from .actions import ActionCompiler, ActionPlan, never_listed
from .all_scores import scores_at_once
from .attribute_writes import attributes_set_only, reads_attributes
from .board_keys import (
    keep_board_state,
    keeping_costs_less,
    may_empty_a_site,
    reads_chains,
    reads_empty_sites,
    reads_liberties,
    writes_board,
    writes_many_sites,
)
from .bounded_checks import needless_checks_dropped
from .budget import check_budget
from .cases import CaseWriter, PhaseCode
from .cleared_at_once import pieces_cleared_at_once
from .code import Code, describe
from .compiled import Block, CaseCode, PhaseOutline
from .conditions import Condition
from .counted_in_place import counting_in_place, counts_in_place
from .counted_listing import counting_body
from .decisions import DecisionPlan, DecisionWriter, Templates, Variant
from .domains import Domains
from .drawn_outcomes import write_member_functions
from .errors import RuleError, unknown
from .expr_names import BOARD_REPETITIONS, TURN_START
from .expressions import ExpressionCompiler, whole_number
from .extremes import extremes_compared
from .fused_loops import loops_fused
from .invariants import share_work
from .items import RuleItems
from .known_children import fixed_listing, next_decision
from .kth_found import stopped_at_the_kth
from .liberties import adjacency_table, unread_groups_dropped
from .listed_at_once import empty_sites_listed
from .listed_runs import runs_told
from .lone_lists import firsts_read
from .lone_pieces import stop_after_lone
from .longest import LongestListers, LongestTurns
from .loop_locals import loop_variables_in_locals
from .model import GameModel
from .packed_masks import masks_packed
from .patterns import CodeTables
from .piece_writes import piece_writes_joined
from .preferences import preference_tiers
from .probes import Probes
from .registers import with_registers
from .repeated_scans import share_scans
from .restrictions import Restrictions, ResultPart, compile_restrictions
from .scope import Scope
from .single_kinds import single_kinds
from .source import LoopsTooNested, Origin, Source, SourceTooLarge, bind_later, compile_module
from .statements import Endings, StatementCompiler
from .statements_shared import parts_shared_across
from .tabulate import tabulate
from .told_apart import check_told_apart, reads_names
from .types import CANDIDATE_DEPS, ELEMENT, NUMBERS, Type
from .unblocked_drops import drops_unblocked, loops_unblocked

TEMPLATE_FIELDS = ("{from}", "{to}", "{outcome}")
MAX_OUTCOMES = 10_001
T = TypeVar("T")
# What the checks hand to the writing: by decision, a chance event's info or an
# action's plan; the phases; the score rule.
_Checked = tuple[list[Optional[DecisionInfo]], list[Optional[DecisionPlan]], list[PhaseCode],
                 Optional[tuple[list[py.stmt], Code]]]


class Listers(NamedTuple):
    """The names of a decision's listers."""

    legal: str
    every: Optional[str]  # every action, two writing one notation kept (None: the same as legal)
    candidates: Optional[str]  # the candidates before `forbid result` (None: without it)
    # the cases compared for notations among the legal ones, after `forbid result`
    alike_after_check: frozenset[int]
    # the draw function for random playouts, its pool's size and whether it draws from the empty sites (None: none)
    draws: Optional[tuple[str, int, bool]] = None


# The types an outcome may have.
_OUTCOME_TYPES = {t: t for t in (Type.INT, Type.PLAYER, Type.SITE, Type.STR)}


class _OutcomesNotFixed(RuleError):
    """Outcomes of chance `name` written with values that depend on the position,
    and the type of outcome they were meant to give; the hint says what to write
    instead (format.md 3.9)."""

    def __init__(self, pos: ast.Pos, message: str, name: str, outcome_type: Type):
        super().__init__(pos, message, (
            "to draw one site of a set as the position stands, each as likely, write 'outcomes one of SET' "
            "(e.g. 'outcomes one of sites - pieces', format.md 3.9)" if outcome_type is Type.SITE else
            "outcomes cannot depend on the position: draw from fixed ones and act on the one drawn, "
            f"e.g. 'outcomes sites', then 'if outcome is empty:' ... 'else: then {name}' to draw again "
            "(the redraws are in the record); for exact odds, one event per count of what is left, "
            "its outcome an index into it; a site of a set as the position stands: 'outcomes one of SET' "
            "(format.md 3.9)"))
        self.outcome_type = outcome_type


class _Written(NamedTuple):
    """The names of the functions written into the module, and the endings."""

    listers: list[Optional[Listers]]  # by decision (None: a chance event)
    notation_keys: str  # the constant of the cases' notation keys (helpers.NotationKeys)
    runs: list[list[str]]  # [phase][case]
    checks: list[list[Optional[str]]]  # [phase][case] (empty without `forbid result`)
    checks_table: Optional[str]  # the constant of the checks, bound later (None: none)
    clearances: dict[str, str]  # check -> its clearance (cases.CaseWriter._clearance_function)
    screens: dict[str, str]  # check -> its screen (cases.CaseWriter._screen)
    move_clearances: frozenset[str]  # the clearances of moves (cases.CaseWriter._move_clearance_function)
    unmoved: frozenset[str]  # checks whose candidates the runs a clearance gives may not let through
    kept_by_move: dict[str, tuple[int, str]]  # check -> (the lone kind of the moves whose answers are kept,
    # the check noting its reads: cases.CaseWriter.kept_by_move)
    deferred: dict[int, str]  # case -> the check of its deferred `where` (ActionPlan.deferred)
    no_action: list[str]  # by phase
    before_turn: list[Optional[str]]  # by phase
    score: Optional[str]
    endings: tuple[tuple[EndingKind, ast.Pos], ...]
    ending_probes: tuple[int, ...]


class Compiler:
    def __init__(self, model: GameModel, items: RuleItems, coverage: bool = False,
                 lone_from_start: frozenset[int] = frozenset()):
        self.model = model
        self.items = items
        # the kinds the first phase makes that playing it proved lone (start_kinds.py)
        self.lone_from_start = lone_from_start
        self._score_notes: list[int] = []  # (the score's floods noted for every player's call: Scope.score_notes)
        self.errors: list[RuleError] = []
        self.src = Source()
        for name, fn in helpers.NAMESPACE.items():
            self.src.helper(name, fn)
        self.exprs = ExpressionCompiler(model, items.defines, self.src)
        self.code_tables = CodeTables(self.src, model.board.size)
        self.decision_names = list(items.decisions) + list(items.chances)
        self.decision_index = {name: i for i, name in enumerate(self.decision_names)}
        self.phase_index = {p.name: i for i, p in enumerate(items.phases)}
        self.endings = Endings()
        self.probes = Probes()
        if coverage:
            self.probes.coverage = RuleCoverage()
            with self.src.origin(Origin("the coverage counts of the rules")):
                self.probes.counts = self.src.const(self.probes.coverage.counts)
        self.statements = StatementCompiler(
            self.exprs, items.procedures, self.decision_index, self.phase_index, self.endings, self.probes,
        )
        self.statements.duplicates = items.duplicates
        self.exprs.procedures = set(items.procedures)
        self.cases: list[CaseCode] = []
        self.actions = ActionCompiler(self)
        self.restrictions = Restrictions(self.exprs, self.scope((), "a 'forbid' condition"))
        self._pool_pieces: Optional[py.Name] = None
        self.warnings: list[RuleError] = []  # located, not fatal (see budget.py)
        self.plans: list[Optional[DecisionPlan]] = []  # per decision (None for chance events)
        self.phase_codes: list[Optional[PhaseCode]] = []
        self.result_code: list[ResultPart] = []  # the `forbid result` conditions
        self.keeps_empty = False  # whether a draw reads the empty sites (set once the functions are written)
        # the kinds of which no player ever has two pieces (single_kinds.py; set before the functions are written)
        self.lone_kinds: frozenset[int] = frozenset()
        self.sites_stay_taken = False  # whether no function empties a site (set once the functions are written)
        # lister -> the function counting its actions (counted_listing.py; set once the functions are written)
        self.counters: dict[str, str] = {}
        # the listers whose count leaves nothing on the position (counted_in_place.py; the same)
        self.counted_safely: set[str] = set()
        # the chance events whose counter may be asked of a position played in place (set with the counters)
        self.chances_counted_safely: set[int] = set()
        # [phase][case]: the function playing the case in place for perft's last ply (the same)
        self.in_place_counts: list[list[Optional[str]]] = []
        self.keeps_chains = False  # whether the rules read the groups' records (the same)
        # the functions before the board's writes kept what they keep, by name (the same)
        self._before_upkeep: dict[str, py.FunctionDef] = {}
        self._liberties = False  # whether a function asks a group's liberties (the same)
        # by chance event drawn from a set (`outcomes one of SET`): the names of its
        # lister, its playouts' picker and its counter
        self._member_listers: dict[int, tuple[str, str, str]] = {}
        # whether the writes keep the board's key (the same): for `board repetitions`,
        # and for `repetitions` where that costs less than hashing the whole board
        self.keeps_board_key = False
        self._result_scope: Optional[Scope] = None  # where they are compiled
        # the conditions for an acting piece of known kinds (result_code_for)
        self._result_code_by_kinds: dict[frozenset[int], list[ResultPart]] = {}
        self._reads_attributes: dict[frozenset[str], bool] = {}  # (result_reads_attributes, by attributes)
        self.longest_turns = LongestTurns(self)

    # ------------------------------------------------------------ helpers for parts
    def scope(self, available: Iterable[str], where: str, piece_always: bool = False, followups: bool = False,
              **modes: Any) -> Scope:
        """A scope of the rules' statements and conditions (`modes`: see Scope)."""
        return Scope(frozenset(available), where, piece_always=piece_always, followups=followups, **modes)

    def result_code_for(self, kinds: Optional[frozenset[int]]) -> list[ResultPart]:
        """The `forbid result` parts (as `result_code`) for a case whose acting piece
        is of one of `kinds` when the check asks about it (None: any): `piece is K`
        is then known, and a part that cannot hold is left out — a case none of
        whose parts can hold is never checked (cases.write_result_checks)."""
        if kinds is None or self._result_scope is None or not self._result_reads_piece():
            return self.result_code
        known = self._result_code_by_kinds.get(kinds)
        if known is None:
            cost = self.restrictions.result_cost  # (the budget counts the condition once)
            try:
                with self.src.origin(Origin("forbid result")):
                    known = self.restrictions.result_check(self._result_scope.child(piece_kinds=kinds))
            except RuleError:
                known = self.result_code  # (reported where it was compiled for any piece)
            self.restrictions.result_cost = cost
            self._result_code_by_kinds[kinds] = known
        return known

    def _result_reads_piece(self) -> bool:
        """Whether some `forbid result` line reads the acting piece (else its kinds
        change nothing)."""
        return any(reads_names(item.cond, self.items.defines, frozenset({"piece"}))
                   for item, _ in self.restrictions.results)

    def guard(self, fn: Callable[[], T]) -> Optional[T]:
        try:
            return fn()
        except RuleError as err:
            self.errors.append(err)
            return None

    def captured_block(self, stmts: Optional[list[ast.Stmt]], available: Iterable[str], where: str,
                       pos: ast.Pos, followups: bool = False) -> Optional[Block]:
        """(statements, cost, effects on the turn) of a block of statements compiled
        once, or None."""
        if stmts is None:
            return None
        with self.src.origin(Origin(where, pos)), self.src.capture() as lines:
            cost, effects = self.statements.block_with_effects(stmts, self.scope(available, where, followups=followups))
        return Block(lines, cost, effects, attributes_set_only(stmts, self.model.attributes, self.items.defines))

    def result_reads_attributes(self, attributes: frozenset[str]) -> bool:
        """Whether some `forbid result` line may read one of `attributes` (or
        count positions): a check leaves out rules setting only others
        (attribute_writes.py, cases.py)."""
        known = self._reads_attributes.get(attributes)
        if known is None:
            known = self._reads_attributes[attributes] = any(
                reads_attributes(item.cond, self.items.defines, attributes) for item, _ in self.restrictions.results)
        return known

    def add_case(self, info: CaseCode) -> int:
        self.cases.append(info)
        return len(self.cases) - 1

    def pool_pieces_constant(self) -> py.Name:
        """pieces[site]: the piece that leaves a pool standing on that site (or None)."""
        if self._pool_pieces is None:
            pieces: list[Optional[tuple[Any, ...]]] = [None] * (self.model.board.size + 1)
            for pool in self.model.pools.values():
                if pool.kind is not None:
                    for player, site in enumerate(pool.sites):
                        if site != -1:
                            pieces[site] = self.model.fresh_piece(player, pool.kind)
            self._pool_pieces = self.src.const(tuple(pieces))
        return self._pool_pieces

    def targets(self, e: ast.Expr, scope: Scope, what: str, c: Optional[Code] = None) -> py.expr:
        """The code of the sites an action chooses from (`c`: already compiled)."""
        c = c if c is not None else self.exprs.compile(e, scope)
        if c.type is Type.SITE:
            return pyast.helper("h_sites", pyast.tuple_(c.code))
        if c.type is not Type.SITES:
            if c.type is Type.PER_PLAYER:
                raise RuleError(e.pos, "this differs per player: say whose, e.g. [player]")
            raise RuleError(e.pos, f"'{what}' needs a set of sites, found {describe(c)}")
        if c.deps & CANDIDATE_DEPS:
            raise RuleError(e.pos, f"the sites of '{what}' cannot depend on the landing site")
        return c.code

    def template(self, text: str, pos: ast.Pos, fields: tuple[str, ...] = TEMPLATE_FIELDS) -> tuple[str, ...]:
        pos = getattr(text, "pos", pos)  # the notation string itself, when the parser kept where it is
        unrecordable = check_recordable(text, pos)
        if unrecordable is not None:
            self.warnings.append(unrecordable)
        parts = []
        rest = text
        while rest:
            i = rest.find("{")
            if i < 0:
                parts.append(rest)
                break
            if i > 0:
                parts.append(rest[:i])
            j = rest.find("}", i)
            field = rest[i : j + 1] if j >= 0 else rest[i:]
            if field not in fields:
                if field in TEMPLATE_FIELDS:
                    raise RuleError(pos, f"'{field}' has no meaning in this notation; it can use "
                                         f"{', '.join(fields) or 'no field'}")
                raise RuleError(pos, f"unknown notation field '{field}'; the fields are "
                                     f"{', '.join(fields) or 'none here'}")
            parts.append(field)
            rest = rest[j + 1 :]
        if not parts:
            raise RuleError(pos, "a notation cannot be empty")
        return tuple(parts)

    # ------------------------------------------------------------ the whole
    def compile(self) -> Optional[CompiledRules]:
        """The rules checked and written: None when `errors` says why not."""
        rules: Optional[CompiledRules] = self._guarded(
            lambda: self._write(*checked) if (checked := self._check()) is not None else None)
        return rules

    def check(self) -> bool:
        """The rules checked only: whether they passed, the errors and warnings found
        kept in `errors` and `warnings` — every problem of a definition is found before
        its code is written, so a check at other options (validation/sizes.py) needs
        no more."""
        return self._guarded(self._check) is not None

    def _guarded(self, stage: Callable[[], Any]) -> Any:
        try:
            return stage()
        except SourceTooLarge:
            self.errors.append(RuleError(
                self._first_line(), "the rules expand to too much code (defines used in defines used in defines ...)",
                "use fewer nested defines, or procedures",
            ))
            return None
        except LoopsTooNested as err:
            where = err.origin
            self.errors.append(RuleError(
                where.pos if where is not None and where.pos is not None else self._first_line(),
                f"the rules nest more loops (for each, exists, count, ...) one inside another than can be compiled"
                f"{f', in the code of {where.what}' if where is not None else ''}",
                "nest fewer loops one inside another: Python compiles blocks at most 20 deep, and the code of "
                "an action adds loops of its own",
            ))
            return None

    def _first_line(self) -> ast.Pos:
        return ast.Pos(self.items.files[0] if self.items.files else "<rules>", 1, 1)

    def _check(self) -> Optional[_Checked]:
        """What `_write` writes, once every check has passed (None after an error)."""
        items = self.items
        if not items.phases:
            self.errors.append(RuleError(self._first_line(), "the rules declare no phase (e.g. 'phase play:' with "
                                                             "'turn: move')"))
            return None
        forbid_scope = self.scope({"site", "piece", "from"}, "a 'forbid' condition")
        with self.src.origin(Origin("the forbids")):
            self.restrictions = compile_restrictions(items.forbids, items.forbid_labels, self.exprs, forbid_scope,
                                                     self.errors)
        self.restrictions.probes = self.probes
        result_scope = self.scope({"piece", "from", "to", "target", "jumped", BOARD_REPETITIONS},
                                  "a 'forbid result' condition")
        with self.src.origin(Origin("forbid result")):
            self.result_code = self.guard(lambda: self.restrictions.result_check(result_scope)) or []
        self._result_scope = result_scope
        # by decision: its plan, or a chance event's info (complete: it lists no actions)
        plans: list[Optional[DecisionPlan]] = []
        chances: list[Optional[DecisionInfo]] = []
        for name in self.decision_names:
            if name in items.decisions:
                plans.append(self._decision(items.decisions[name], len(plans)))
                chances.append(None)
            else:
                chances.append(self._chance(items.chances[name], len(plans)))
                plans.append(None)
        phases = [self._phase(p) for p in items.phases]
        self.plans, self.phase_codes = plans, phases
        score = self._score()
        if self.longest_turns.any(plans) and all(p is not None for p in phases):
            self.longest_turns.check(plans, [p for p in phases if p is not None],
                                     CaseWriter(self, [p for p in phases if p is not None]))
        self.errors.extend(self.statements.errors)
        self.warnings.extend(self.statements.warnings)
        if self.errors or any(p is None for p in phases):
            return None
        self.errors.extend(check_budget(self))
        if self.errors:
            return None
        return chances, plans, [p for p in phases if p is not None], score

    def _write(self, chances: list[Optional[DecisionInfo]], plans: list[Optional[DecisionPlan]],
               phases: list[PhaseCode], score: Optional[tuple[list[py.stmt], Code]]) -> CompiledRules:
        """Write the functions, compile the module, bind what is made of its
        functions, and make the contract the runtime gets."""
        self._shown_values(chances)
        written = self._write_functions(plans, phases, score)
        src = self.src
        # (a loop over a player's pieces of a kind no player has two of stops at the one found)
        src.functions = [stop_after_lone(f, self.lone_kinds) if isinstance(f, py.FunctionDef) else f
                         for f in src.functions]
        # (values by player and site worked out once: a table read in the loops)
        with src.origin(Origin("values by player and site, worked out once (a loop's table)")):
            tabulate(src, self.model.player_count, self.model.board.size)
        # (a number stored that cannot pass the limit, a table's entry among them, is not checked)
        src.functions = [needless_checks_dropped(f, src.value) if isinstance(f, py.FunctionDef) else f
                         for f in src.functions]
        # (attributes of one piece set one after the other: one piece written)
        src.functions = [piece_writes_joined(f, src.fresh) if isinstance(f, py.FunctionDef) else f
                         for f in src.functions]
        # (two loops over one list that only count: one loop, before their reads are hoisted)
        src.functions = [loops_fused(f) if isinstance(f, py.FunctionDef) else f for f in src.functions]
        # (a search asked again reads the first's answer)
        share_scans(src)
        # (loop invariants worked out before their loops, an expression's repeated parts once)
        share_work(src, self.model.player_count, self.model.board.size)
        # (a variable a loop reads and writes, a counter, kept in a local while it runs)
        src.functions = [loop_variables_in_locals(f, src.fresh) if isinstance(f, py.FunctionDef) else f
                         for f in src.functions]
        # (a loop nest looking for the k-th match, its counter in a local, stops at it)
        src.functions = [stopped_at_the_kth(f) if isinstance(f, py.FunctionDef) else f for f in src.functions]
        # (a value two statements of a block work out, worked out once before the first)
        src.functions = [parts_shared_across(f, src.fresh) if isinstance(f, py.FunctionDef) else f
                         for f in src.functions]
        src.functions = [unread_groups_dropped(f) if isinstance(f, py.FunctionDef) else f for f in src.functions]
        functions = [f for f in src.functions if isinstance(f, py.FunctionDef)]
        # (not where a permutation is written out: its writes are at one site each,
        # but a rotation after every placement would keep the list at every one)
        self.keeps_empty = any(map(reads_empty_sites, functions)) and not any(map(writes_many_sites, functions)) \
            and not self.statements.writes_permutations
        self.keeps_chains = any(map(reads_chains, functions))
        # (a site once taken stays taken: a playout's draw drops the taken sites it
        # draws from its pool for good, compilation/draws.py)
        self.sites_stay_taken = not any(may_empty_a_site(f, src.value) for f in functions)
        # (where only `repetitions` reads the key, at the start of a turn, the
        # `forbid result` checks need not keep it: they give the board back as it
        # was, or play on a copy they drop, and nothing they run reads it)
        unkept = set() if self.exprs.uses_board_repetitions else \
            {name for row in written.checks for name in row if name} | set(written.deferred.values()) \
            | {noting for _, noting in written.kept_by_move.values()}
        # (a check calling another generated function that writes the board, in place,
        # keeps the key too: that function's writes would change it, its undo not)
        writers = {f.name for f in functions if writes_board(f)}
        unkept = {f.name for f in functions if f.name in unkept and not _calls_any(f, writers - {f.name})}
        # (where only `repetitions` reads the key, the writes keep it only where that
        # costs less than hashing the whole board where a position is counted:
        # Engine.history_key)
        self.keeps_board_key = self.exprs.uses_board_repetitions or self.exprs.uses_repetitions and keeping_costs_less(
            [f for f in functions if f.name in writers and f.name not in unkept], self.model.board.size)
        keeps_key = self.keeps_board_key
        # (the cases as they were before the upkeep: perft's last ply plays them in
        # place keeping only what they and the child's count read, _write_in_place_counts)
        self._before_upkeep = {f.name: f for f in functions}
        self._liberties = liberties = any(map(reads_liberties, functions))
        if keeps_key or self.keeps_empty or self.keeps_chains:
            # (the board's key kept by every write, for the count of boards or of
            # positions at each turn; the empty sites, for the draws that take drops
            # from them; the groups, for the questions about their liberties)
            src.functions = [keep_board_state(f, src.fresh, key=keeps_key and f.name not in unkept,
                                              empty=self.keeps_empty,
                                              chains=adjacency_table(self.exprs).id if self.keeps_chains else None,
                                              liberties=liberties, value=src.value,
                                              empty_ordered=self.sites_stay_taken)
                             if isinstance(f, py.FunctionDef) else f for f in src.functions]
        self.counters = self._write_counters(written, plans)
        self.in_place_counts = self._write_in_place_counts(written, plans)
        # (the larger or smaller of two values a comparison, not a call: last, the
        # passes before reason about the calls)
        src.functions = [extremes_compared(f, src.fresh) if isinstance(f, py.FunctionDef) else f
                         for f in src.functions]
        # (every piece taken off the board in one call where nothing keeps more than the lists)
        src.functions = [pieces_cleared_at_once(f) if isinstance(f, py.FunctionDef) else f for f in src.functions]
        # (a lister's filter told where each case's candidates stand: no pass after it reads the call;
        # only where some phase's checks are sifted — drops' clearances, no move's: a phase with
        # a move's clearance is filtered by `let_through`, one without clearances candidate by candidate)
        if any(self._sifted(names, written) for names in written.checks):
            src.functions = [runs_told(f, src.const, src.fresh, src.value) if isinstance(f, py.FunctionDef) else f
                             for f in src.functions]
        # (a drop's loop asking a few sites around each landing answered from the pieces: after the runs are
        # told, which read its appends)
        src.functions = [drops_unblocked(f, src.const, src.value, self.model.board.size)
                         if isinstance(f, py.FunctionDef) else f for f in src.functions]
        # (one doing more than appending walks the landings its tests let through: after, the loops that
        # only append are calls)
        src.functions = [loops_unblocked(f, src.const, src.value, self.model.board.size, src.fresh)
                         if isinstance(f, py.FunctionDef) else f for f in src.functions]
        # (several bitmasks ORed from tables over one loop gathered as one: last, the passes before read the ORs)
        src.functions = [masks_packed(f, src.const, src.value, src.fresh) if isinstance(f, py.FunctionDef) else f
                         for f in src.functions]
        # (a player's first piece read from the list where each player has one piece at most: last, the
        # passes before recognise the call)
        if self._one_piece_a_player():
            players = len(self.model.players)
            src.functions = [firsts_read(f, players) if isinstance(f, py.FunctionDef) else f for f in src.functions]
        all_scores = self._write_all_scores(written.score)
        namespace = compile_module(self.src)
        coverage = self.probes.coverage
        score_rule = namespace[written.score] if written.score else None
        results = Results(self.model.player_count, written.endings, score_rule,
                          coverage.counts if coverage is not None else None, written.ending_probes,
                          score_notes=bool(self._score_notes),
                          all_scores=namespace[all_scores] if all_scores is not None else None,
                          teams=tuple(members for members in self.model.teams.values() if len(members) > 1))
        # (a phase's row with its checks' clearances where one has: runtime/clearances.py)
        checks = tuple(
            ClearedChecks(row, [namespace[written.clearances[n]] if n in written.clearances else None for n in names],
                          [namespace[written.screens[n]] if n in written.screens else None for n in names],
                          [n in written.clearances and written.clearances[n] in written.move_clearances
                           for n in names],
                          [n in written.unmoved for n in names])
            if any(n in written.clearances for n in names) else row
            for row, names in ((tuple(self._check_of(namespace, n, written.kept_by_move) if n else None
                                      for n in names), names)
                               for names in written.checks))
        candidate_checks = checks
        if written.deferred:
            forbids = checks or tuple((None,) * len(self.cases) for _ in written.runs)
            candidate_checks = tuple(
                tuple(helpers.in_turn(namespace[written.deferred[case]], forbid) if case in written.deferred
                      else forbid for case, forbid in enumerate(row))
                for row in forbids)
        later: dict[str, Any] = {"h_end": results.end, **kept_paths.tables_bound(self.src)}
        if written.checks_table is not None:
            later[written.checks_table] = checks
        bind_later(self.src, namespace, later)
        return self._contract(chances, plans, phases, written, namespace, results, checks, candidate_checks)

    @staticmethod
    def _sifted(names: Sequence[Optional[str]], written: "_Written") -> bool:
        """Whether the row of checks `names` is filtered by `runtime/clearances.sift`
        (helpers.result_filter): a clearance for some check, none of them a move's."""
        cleared = [written.clearances[n] for n in names if n in written.clearances]
        return bool(cleared) and not any(c in written.move_clearances for c in cleared)

    @staticmethod
    def _check_of(namespace: dict[str, Any], name: str, kept_by_move: dict[str, tuple[int, str]]) -> Any:
        """The check `name` of the module, its answers for moves of a lone kind kept by
        code where it gives them so (cases.CaseWriter.kept_by_move, runtime/kept_answers.KeptByMove)."""
        check = namespace[name]
        kept = kept_by_move.get(name)
        return check if kept is None else KeptByMove(check, kept[0], namespace[kept[1]])

    def _write_functions(self, plans: list[Optional[DecisionPlan]], phases: list[PhaseCode],
                         score: Optional[tuple[list[py.stmt], Code]]) -> _Written:
        """Every function of the module: the decisions' listers, the cases' and
        phases' functions, the `forbid result` checks, the score."""
        src = self.src
        with src.origin(Origin("the notations: per case, (its template, whether it shows from, to, a choice)")):
            keys = src.const(Templates(tuple(self.model.board.names)).key_table(self.cases))
        checks_table: Optional[py.Name] = None
        if self.result_code:
            with src.origin(Origin("forbid result: the checks of each case, by phase")):
                checks_table = src.bound_later(src.fresh("k"))
        kinds_fixed = not (self.statements.changes_owners or self.statements.changes_kinds)
        # (no kind where a statement compiled changes an owner, however written)
        lone = self.lone_kinds = frozenset() if self.statements.changes_owners \
            else single_kinds(self.model, self.items) | self.lone_from_start
        writer = DecisionWriter(
            src, keys, self.restrictions, self.probes.counts, self._owned_kinds(), self.exprs.owner_masks,
            checks_table, kinds_fixed=kinds_fixed, site_names=tuple(self.model.board.names),
            off_templates=frozenset(c.template for c in self.cases if c.off_board),
            single_kinds=lone,
            per_listing=self.exprs.per_listing,
            setup_counts=dict(Counter(placement.kind for placement in self.model.setup)),
        )
        deferred = self._deferred_cases(plans)
        listers: list[Optional[Listers]] = []
        for plan in plans:
            if plan is None:
                listers.append(None)
                continue
            defers = any(a.case_templates and a.case_templates[0][0] in deferred for a in plan.tiers[0]) \
                if plan.tiers else False
            writer.checked_after = bool(self.result_code) or defers
            legal = writer.write(plan)
            every = writer.write(plan, Variant(dedup=False)).name if legal.deduplicated else None
            candidates = writer.write(plan, Variant(candidates_only=True)) if writer.checked_after else None
            listers.append(Listers(legal.name, every, candidates.name if candidates else None,
                                   legal.alike_after_check, candidates.draws if candidates else legal.draws))
        src.bound_later("h_end")  # (Results.end, which calls the score function)
        case_writer = CaseWriter(self, phases, lone)
        endings = tuple(self.endings.entries)
        coverage = self.probes.coverage
        probes = tuple(coverage.add("ending", how.word, pos) for how, pos in endings) if coverage is not None else ()
        runs = case_writer.write_all()
        if self.longest_turns.any(plans):
            self.longest_turns.write(case_writer)
        checks = case_writer.write_result_checks(self.result_code_for) if self.result_code else []
        return _Written(
            listers=listers,
            notation_keys=keys.id,
            runs=runs,
            checks=checks,
            checks_table=checks_table.id if checks_table is not None else None,
            clearances=case_writer.clearances,
            screens=case_writer.screens,
            move_clearances=frozenset(case_writer.move_clearances.values()),
            unmoved=frozenset(case_writer.unmoved),
            kept_by_move=case_writer.kept_by_move,
            deferred={case: case_writer.write_deferred_check(self.cases[case], condition)
                      for case, condition in deferred.items()},
            no_action=[case_writer.write_no_action(i, phase) for i, phase in enumerate(phases)],
            before_turn=[case_writer.write_before_turn(phase) for phase in phases],
            score=self._write_score(score),
            endings=endings,
            ending_probes=probes,
        )

    def _deferred_cases(self, plans: list[Optional[DecisionPlan]]) -> dict[int, Condition]:
        """case -> the `where` conjuncts its candidates are listed without, asked of
        the one a playout draws (ActionPlan.deferred): for the actions offered first
        (those playouts draw from), not with coverage (which counts conditions as
        asked while listing) nor with `play the longest turn` (which draws its own)."""
        listed: dict[int, int] = {}  # case -> how many actions list it
        offered: list[tuple[ActionPlan, bool]] = []  # (action, whether it may defer)
        for plan in plans:
            for tier_number, tier in enumerate(plan.tiers if plan is not None else ()):
                for action in tier:
                    for case, _ in action.case_templates:
                        listed[case] = listed.get(case, 0) + 1
                    offered.append((action, not tier_number and plan is not None and plan.longest is None))
        found: dict[int, Condition] = {}
        for action, may in offered:
            cases = [case for case, _ in action.case_templates]
            if action.deferred is None:
                continue
            if not may or self.probes.coverage is not None or any(listed[case] > 1 for case in cases):
                action.eager = action.deferred = None
                continue
            for case in cases:
                found[case] = action.deferred
        return found

    def _contract(self, chances: list[Optional[DecisionInfo]], plans: list[Optional[DecisionPlan]],
                  phases: list[PhaseCode], written: _Written, namespace: dict[str, Any], results: Results,
                  checks: tuple[tuple[Optional[ResultCheck], ...], ...],
                  candidate_checks: tuple[tuple[Optional[ResultCheck], ...], ...]) -> CompiledRules:
        """What the runtime gets, the generated functions taken from the compiled module."""
        m = self.model
        src = self.src
        keys = namespace[written.notation_keys]
        longest = self.longest_turns.bind(
            namespace, plans, [namespace[names.legal] if names is not None else None for names in written.listers],
            [namespace[names.every] if names is not None and names.every else None for names in written.listers],
            self.probes.coverage.counts if self.probes.coverage is not None else None,
        ) if self.longest_turns.any(plans) else {}
        return CompiledRules(
            players=tuple(m.players),
            site_names=tuple(m.board.names),
            kind_symbols=tuple(k.symbol for k in sorted(m.kinds.values(), key=lambda k: k.index)),
            decisions=tuple(
                (self._drawn_chance(chance, index, namespace) if chance is not None
                 else self._decision_info(plan, names, keys, namespace, longest.get(index)))
                for index, (chance, plan, names) in enumerate(zip(chances, plans, written.listers))
            ),
            cases=tuple(case.info() for case in self.cases),
            phases=tuple(
                PhaseInfo(phase.info.name, phase.info.order, phase.info.turn, phase.info.pos,
                          no_action=namespace[no_action], before_turn=namespace[before] if before else None,
                          before_turn_changes=bool(writes), before_turn_variables_only=writes == {"variables"})
                for phase, no_action, before, writes in zip(
                    phases, written.no_action, written.before_turn,
                    [_position_writes(item.before_turn or [], self.items, m.variables) if before else set()
                     for item, before in zip(self.items.phases, written.before_turn)])
            ),
            runs=tuple(tuple(namespace[name] for name in per_phase) for per_phase in written.runs),
            result_checks=checks,
            candidate_checks=candidate_checks,
            initial_board=self._initial_board(),
            initial_vars=self._initial_vars(),
            results=results,
            turn_hooks=self.turn_hooks,
            keeps_history=self.exprs.uses_repetitions,
            keeps_boards=self.exprs.uses_board_repetitions,
            keeps_board_key=self.keeps_board_key,
            keeps_empty=self.keeps_empty,
            sites_stay_taken=self.sites_stay_taken,
            # (not where `forbid result` tries candidates in place: every check writes
            # and undoes, and keeping masks through those writes cost such a game more than
            # the masks saved its listers)
            masked_owners=self.exprs.owner_masks.made and not self.result_code,
            position_vars=self._position_vars(),
            coverage=self.probes.coverage,
            module=src.module(),
            source_map=MappingProxyType(dict(src.origins)),
            constants=MappingProxyType({name: namespace[name] for name in src.namespace if src.is_const_name(name)}),
            known_children=self._known_children(chances, written, longest),
            counted_in_place=tuple(tuple(namespace[name] if name else None for name in row)
                                   for row in self.in_place_counts),
            keeps_chains=self.keeps_chains,
        )

    def _drawn_chance(self, chance: DecisionInfo, index: int, namespace: dict[str, Any]) -> DecisionInfo:
        """A chance event with its lister where its outcomes are drawn from a set."""
        names = self._member_listers.get(index)
        if names is None:
            return chance
        lister, picker, counter = names
        return replace(chance, legal=namespace[lister], legal_with_duplicates=namespace[lister],
                       pick=namespace[picker], counted=namespace[counter],
                       counts_in_place=index in self.chances_counted_safely)

    def _write_counters(self, written: _Written, plans: list[Optional[DecisionPlan]]) -> dict[str, str]:
        """For each decision's lister that the counts of `_counted` do not cover, the
        function counting its actions without listing them (counted_listing.py),
        written into the module: lister -> counter. None with coverage (the rules'
        counts would differ) nor with `play the longest turn` (listed by its filter)."""
        if self.probes.coverage is not None:
            return {}
        src = self.src
        trees = {f.name: f for f in src.functions if isinstance(f, py.FunctionDef)}
        counters = {}
        for plan, names in zip(plans, written.listers):
            if plan is None or names is None or plan.longest is not None or names.legal not in trees:
                continue
            tree = trees[names.legal]
            if fixed_listing(tree) or empty_sites_listed(tree, src.value) is not None:
                self.counted_safely.add(tree.name)  # (helpers.fixed_counter, empty_counters: they only read)
                continue
            body = counting_body(tree)
            if body is not None:
                what = f"decision '{plan.name}': its legal actions counted, not listed (perft's last ply)"
                counters[tree.name] = src.function(src.fresh("f"), [a.arg for a in tree.args.args], body,
                                                   Origin(what, plan.pos))
                if counts_in_place(src.functions[-1]):  # type: ignore[arg-type]  # (the function just written)
                    self.counted_safely.add(tree.name)
        return counters

    def _write_in_place_counts(self, written: _Written,
                               plans: list[Optional[DecisionPlan]]) -> list[list[Optional[str]]]:
        """[phase][case]: the function that plays the case on the position itself for
        perft's last ply, asks the child's count and undoes the case
        (counted_in_place.py), or None; empty where a decision's count may not be
        asked so (`counted_safely`), with a chance event but one drawn from a set
        whose counter only reads (`chances_counted_safely`), with coverage or with `play
        the longest turn`."""
        src = self.src
        # (a chance event drawn from a set, `outcomes one of pieces where it is neutral`,
        # whose counter only reads: the number of pieces left)
        trees = {f.name: f for f in src.functions if isinstance(f, py.FunctionDef)}
        self.chances_counted_safely = {index for index, (_, _, counter) in self._member_listers.items()
                                       if counter in trees and counts_in_place(trees[counter])}
        # (every decision's count asked in place: else the children at another decision
        # would be played twice, in place and then on a copy)
        if self.probes.coverage is not None or any(
                index not in self.chances_counted_safely if plan is None else
                names is None or plan.longest is not None or names.legal not in self.counted_safely
                for index, (plan, names) in enumerate(zip(plans, written.listers))):
            return []
        score = next((f for f in src.functions if isinstance(f, py.FunctionDef) and f.name == written.score), None)

        def once() -> py.Name:
            return src.const((0,))  # (one name for all)
        rows = []
        for phase, per_phase in zip(self.phase_codes, written.runs):
            row: list[Optional[str]] = []
            for case, name in zip(self.cases, per_phase):
                tried = counting_in_place(self._before_upkeep[name], src.fresh, once, src.is_const_name) \
                    if name in self._before_upkeep else None
                if tried is None:
                    row.append(None)
                    continue
                tried = self._kept_in_place(tried, score)
                what = (f"{case.label}, in phase '{phase.info.name if phase is not None else ''}': played in place, "
                        "its child's actions counted, undone (perft's last ply)")
                row.append(src.function(tried.name, [a.arg for a in tried.args.args], tried.body,
                                        Origin(what, case.pos)))
            rows.append(row)
        return rows if any(name for row in rows for name in row) else []

    def _kept_in_place(self, tried: py.FunctionDef, score: Optional[py.FunctionDef]) -> py.FunctionDef:
        """A case played in place for perft's last ply (counted_in_place.py), made
        of the case as it was before the board's writes kept the board's key, the
        empty sites and the groups' records, with the upkeep of those of them that
        may be read while it runs: its undo gives the board back as it was, so a
        record of the board it does not keep is the one it leaves. The empty sites
        are read by the playouts' draws alone (compilation/draws.py), and the
        child's count reads none of them (`counts_in_place`); the board's key only
        `board repetitions`; the groups' records the questions about them, in the
        case or its ending's score. (Keeping the empty sites through a case and its
        undo cost a bisection and an insertion, and left a list kept in no order
        reordered.)"""
        key = self.keeps_board_key and self.exprs.uses_board_repetitions
        empty = self.keeps_empty and reads_empty_sites(tried)
        chains = self.keeps_chains and (reads_chains(tried) or score is not None and reads_chains(score))
        if not (key or empty or chains):
            return tried
        return keep_board_state(tried, self.src.fresh, key=key, empty=empty,
                                chains=adjacency_table(self.exprs).id if chains else None,
                                liberties=self._liberties, value=self.src.value,
                                empty_ordered=self.sites_stay_taken)

    def _known_children(self, chances: list[Optional[DecisionInfo]], written: _Written,
                        longest: dict[int, LongestListers]) -> tuple[tuple[Optional[int], ...], ...]:
        """By phase and case: the decision of fixed actions every child of the case
        is at (compilation/known_children.py), or None. Nothing with coverage: the
        listing skipped would not count its rules."""
        if self.probes.coverage is not None:
            return ()
        trees = {f.name: f for f in self.src.functions if isinstance(f, py.FunctionDef)}
        fixed = [chance is not None and index not in self._member_listers
                 or (names is not None and index not in longest and names.legal in trees
                     and fixed_listing(trees[names.legal]))
                 for index, (chance, names) in enumerate(zip(chances, written.listers))]
        known = []
        for per_phase in written.runs:
            row = []
            for name in per_phase:
                run = trees.get(name)
                decision = next_decision(run, self.src.is_const_name) if run is not None else None
                row.append(decision if decision is not None and 0 <= decision < len(fixed) and fixed[decision]
                           else None)
            known.append(tuple(row))
        return tuple(known)

    def _decision_info(self, plan: Optional[DecisionPlan], names: Optional[Listers], keys: NotationKeys,
                       namespace: dict[str, Any], longest: Optional[LongestListers] = None) -> DecisionInfo:
        """A decision's info, its listers taken from the compiled module (with `play
        the longest turn`, its filters: then playouts pick with it, drawing no
        candidates of their own)."""
        assert plan is not None and names is not None  # (a decision, not a chance event)
        lister = namespace[names.legal]
        alike = names.alike_after_check
        alike_keys = tuple(key if case in alike else None for case, key in enumerate(keys)) if alike else None
        pos = self.items.decisions[plan.name].pos
        if longest is not None:
            return DecisionInfo(plan.name, pos, False, legal=longest.legal,
                                legal_with_duplicates=longest.legal_with_duplicates, alike_keys=alike_keys,
                                pick=longest.pick, reached=longest.reached)
        return DecisionInfo(
            plan.name, pos, False, legal=lister, counted=self._counted(names.legal, lister, namespace),
            counts_in_place=names.legal in self.counted_safely,
            legal_with_duplicates=namespace[names.every] if names.every else lister,
            candidates=namespace[names.candidates] if names.candidates else None,
            alike_keys=alike_keys,
            draws=(namespace[names.draws[0]], max(names.draws[1], 0)) if names.draws else None,
            draws_from_empty=bool(names.draws and names.draws[2] and self.keeps_empty),
            draws_per_element=max(-names.draws[1], 0) if names.draws else 0,
        )

    def _counted(self, legal: str, lister: Callable[[State], Any],
                 namespace: dict[str, Any]) -> Optional[Callable[[State], int]]:
        """The count of a lister's actions without listing them, where it lists one for
        each empty site of a fixed set (compilation/listed_at_once.py) or the same
        actions in every position (it reads nothing of it: known_children.fixed_listing),
        else its counter where it has one (counted_listing.py, `_write_counters`);
        else None. None with coverage: the listing skipped would not count its rules."""
        if self.probes.coverage is not None:
            return None
        tree = next((f for f in self.src.functions if isinstance(f, py.FunctionDef) and f.name == legal), None)
        if tree is None:
            return None
        if fixed_listing(tree):
            return fixed_counter(lister)
        listed = empty_sites_listed(tree, self.src.value)
        if listed is not None:
            return empty_counters(listed, self.model.board.size)
        return namespace[self.counters[legal]] if legal in self.counters else None

    def _shown_values(self, chances: list[Optional[DecisionInfo]]) -> None:
        """The values each number a notation shows can take (for the fixed action space)."""
        if not self.actions.value_sources:
            return
        outcomes = {info.name: info.outcome_values for info in chances if info is not None}
        domains = Domains(self.model, self.items, outcomes)
        for case, sources in self.actions.value_sources.items():
            found = [frozenset(source) if isinstance(source, tuple) else domains.of(source) for source in sources]
            self.cases[case].shown_values = tuple(None if values is None else tuple(sorted(values, key=repr))
                                                  for values in found)
            self.cases[case].shown_lost = tuple(domains.why(source) or "" if values is None and
                                                not isinstance(source, tuple) else ""
                                                for source, values in zip(sources, found))

    @property
    def turn_hooks(self) -> bool:
        """Whether a turn's start has work: `before each turn` rules, `repetitions` or
        `board repetitions`."""
        exprs = self.exprs
        return exprs.uses_repetitions or exprs.uses_board_repetitions or any(
            p is not None and p.before_turn for p in self.phase_codes)

    def _position_vars(self) -> Optional[tuple[int, ...]]:
        """The variable slots that make a position different for `repetitions`
        (None: all of them)."""
        ignored = [v for v in self.model.variables.values() if not v.in_position]
        if not ignored:
            return None
        skip = {v.offset + i for v in ignored for i in range(self.model.player_count if v.per_player else 1)}
        return tuple(i for i in range(self.model.vars_size) if i not in skip)

    def neutral_kinds(self) -> frozenset[int]:
        """The kinds whose pieces are always neutral, on the last of State.occ's
        lists: the kinds declared neutral, where no rule changes an owner or a kind
        (`promote` may make a player's piece of any kind)."""
        if self.statements.changes_owners or self.statements.changes_kinds:
            return frozenset()
        return frozenset(k.index for k in self.model.kinds.values() if k.neutral)

    def _one_piece_a_player(self) -> bool:
        """Whether no player ever has two pieces on the board: the kinds a player's
        piece can be of are one kind at most, of which no player ever has two
        (single_kinds.py), and no statement changes a kind or an owner."""
        if self.statements.changes_owners or self.statements.changes_kinds:
            return False
        owned = self._owned_kinds()
        return len(owned) <= 1 and owned <= self.lone_kinds

    def _owned_kinds(self) -> frozenset[int]:
        """The kinds a player's piece can be of: every kind when the rules change
        owners (`X.owner = P` can make a neutral kind a player's), else the kinds
        not declared neutral."""
        kinds = self.model.kinds.values()
        if self.statements.changes_owners:
            return frozenset(k.index for k in kinds)
        return frozenset(k.index for k in kinds if not k.neutral)

    def _initial_board(self) -> tuple[Optional[Piece], ...]:
        # One more entry than sites, always empty: "no site" is -1, and board[-1]
        # must then read as nothing rather than as the last site.
        board: list[Optional[Piece]] = [None] * (self.model.board.size + 1)
        for placement in self.model.setup:
            piece = list(self.model.fresh_piece(placement.owner, placement.kind))
            for index, value in placement.attributes:
                piece[index] = value
            if placement.height != 1:
                piece[STONES] = (placement.owner,) * placement.height
            board[placement.site] = tuple(piece)
        return tuple(board)

    def _initial_vars(self) -> tuple[int, ...]:
        m = self.model
        values = [0] * m.vars_size
        for var in m.variables.values():
            for i in range(m.player_count if var.per_player else 1):
                values[var.offset + i] = var.defaults[i] if var.defaults else var.default
        for pool in m.pools.values():
            for i in range(m.player_count):
                values[pool.offset + i] = pool.initial
        return tuple(values)

    # ------------------------------------------------------------ phases
    def _phase(self, phase: ast.Phase) -> Optional[PhaseCode]:
        m = self.model
        if phase.order:
            order = []
            for name in phase.order:
                if name.id in m.players:
                    order.append(m.players.index(name.id))
                elif name.id not in m.all_players:
                    self.errors.append(unknown(name.pos, "player", name.id, list(m.all_players)))
            order_t = tuple(order)
        else:
            order_t = tuple(range(m.player_count))
        if not order_t:
            self.errors.append(RuleError(phase.pos, f"phase '{phase.name}' has no player in play"))
            return None
        if not phase.turn:
            self.errors.append(RuleError(phase.pos, f"phase '{phase.name}' has no 'turn:' naming the decisions "
                                                    "of a turn"))
            return None
        turn = []
        for name in phase.turn:
            if name.id not in self.decision_index:
                if name.id not in self.items.duplicates:  # declared twice: that error comes first
                    self.errors.append(unknown(name.pos, "decision", name.id, self.decision_names))
            else:
                turn.append(self.decision_index[name.id])
        what = f"phase '{phase.name}'"
        after_turn = self.captured_block(phase.after_turn, {BOARD_REPETITIONS}, f"{what}, after each turn", phase.pos)
        after_action = self.captured_block(
            phase.after_action, {"piece", "from", "to", BOARD_REPETITIONS}, f"{what}, after each action", phase.pos,
            followups=True,
        )
        no_action = self.captured_block(phase.no_action, {"repetitions", BOARD_REPETITIONS}, f"{what}, if no action",
                                        phase.pos)
        before_turn = self.captured_block(
            phase.before_turn, {"repetitions", "no legal action", BOARD_REPETITIONS, TURN_START},
            f"{what}, before each turn",
            phase.pos,
        )
        if not turn:
            return None
        info = PhaseOutline(phase.name, order_t, tuple(turn), phase.pos)
        default_ending = self.endings.add(EndingKind.NO_ACTION, phase.pos) if no_action is None else None
        return PhaseCode(info, after_turn, after_action, no_action, default_ending, before_turn)

    # ------------------------------------------------------------ decisions
    def _decision(self, decision: ast.Decision, index: int) -> DecisionPlan:
        plans: list[ActionPlan] = []
        by_name: dict[str, list[ActionPlan]] = {}  # (an action made for several values has a plan for each)
        self.actions.siblings = decision.actions
        for action in decision.actions:
            action_plans = self.guard(lambda: self.actions.compile_all(action, index))
            if action_plans:  # (none for a range of numbers that is empty with the options given)
                plans.extend(action_plans)
                by_name[action.name] = action_plans
                untold = {(e.pos, e.message): e for e in (
                    check_told_apart(action, p.templates, p.reach, self.model, self.items.defines)
                    for p in action_plans) if e is not None}
                self.errors.extend(untold.values())
        self._warn_of_actions_alike(decision, {name: found[0] for name, found in by_name.items()})
        after = self.captured_block(
            decision.after_action, {"piece", "from", "to", "target", "jumped", BOARD_REPETITIONS},
            f"decision '{decision.name}', after each action", decision.pos, followups=True,
        )
        for case in self.cases:
            if case.decision == index:
                case.after = after
        # (an action that can never be legal, its `where` false whatever the
        # position, is left out of the listers: it costs nothing. Not with
        # probes, which count each `prefer` line's tier, and never legal is a
        # count they report)
        listed = [p for p in plans if not never_listed(p)]
        if listed and len(listed) < len(plans) and not self.probes.on:
            plans = listed
        tiers = self.guard(lambda: preference_tiers(decision, plans, by_name)) or [plans]
        plan = DecisionPlan(decision.name, tiers, decision.pos, longest=decision.longest)
        if self.probes.on:
            for (pos, names), _tier in zip(decision.prefer, tiers):
                label = "prefer: " + ", ".join(n.id if isinstance(n, ast.Name) else n.text for n in names)
                plan.prefer_probes.append(self.probes.add("prefer", label, pos))
        return plan

    def _warn_of_actions_alike(self, decision: ast.Decision, by_name: dict[str, ActionPlan]) -> None:
        """Two actions of a decision that move alike (the same pieces, pattern and
        `where`) where every case of the second is a case of the first writing the
        same notation: wherever the second could act the first lists the same
        action, and only the first is kept: the second never acts (often a variant
        that meant to replace an action and misspelt its name). With `forbid
        result`, which may reject one and allow the other, the cases must also do
        the same."""
        seen: dict[Any, list[ast.Action]] = {}
        for action in decision.actions:
            plan = by_name.get(action.name)
            if plan is None or action.pattern is None:
                continue
            key = (structure(action.pattern), structure(action.by), structure(action.wheres))
            for earlier in seen.get(key, []):
                if self._covers(earlier, by_name[earlier.name], action, plan):
                    self.warnings.append(RuleError(
                        action.pos,
                        f"action '{action.name}' moves like action '{earlier.name}' (line {earlier.pos.line}) and "
                        f"writes the same notation: only '{earlier.name}' is listed, so '{action.name}' never acts",
                        f"give it another notation or other moves; to replace '{earlier.name}', use its name",
                    ))
                    break
            seen.setdefault(key, []).append(action)

    def _covers(self, first: ast.Action, first_plan: ActionPlan, second: ast.Action, second_plan: ActionPlan) -> bool:
        """Whether each case of `second` (an action moving like `first`) is one of
        `first`'s with its notation (and, with `forbid result`, its statements)."""
        def cases(action: ast.Action, plan: ActionPlan) -> set[Any]:
            if not action.cases:  # (a pass without statements)
                return {("pass", tuple(plan.templates))}
            judged = bool(self.result_code)
            # (a plan's templates are its cases', in order)
            return {(c.kind, c.what, template, structure(c.body) if judged else None)
                    for c, template in zip(action.cases, plan.templates)}

        return cases(second, second_plan) <= cases(first, first_plan)

    # ------------------------------------------------------------ chance
    def _chance(self, chance: ast.Chance, index: int) -> DecisionInfo:
        try:
            if chance.outcomes_member_of is not None:
                # (every site an outcome, those of the set as the position stands listed)
                size = self.model.board.size
                values, weights, out_type = list(range(size)), [1] * size, Type.SITE
            else:
                values, weights, out_type = self._outcomes(chance)
            reported = False
        except RuleError as err:
            # Reported at the outcomes line alone: the statements are compiled with
            # the type the outcomes were meant to have, so no "no outcome" and no
            # mistake of theirs caused by a wrong guess of it follow.
            self.errors.append(err)
            values, weights, reported = [], [], True
            out_type = err.outcome_type if isinstance(err, _OutcomesNotFixed) else Type.INT
        merged: dict[Any, int] = {}
        for v, w in zip(values, weights):
            merged[v] = merged.get(v, 0) + w
        values, weights = list(merged), list(merged.values())
        if not values:
            if not reported and not any(e.pos == chance.pos for e in self.errors):
                self.errors.append(RuleError(chance.pos, f"chance '{chance.name}' has no outcome"))
            values, weights = [0], [1]
        where = f"chance '{chance.name}'"
        scope = self.scope({"outcome"}, where, followups=True, outcome_type=out_type)
        values_t = tuple(values)
        with self.src.origin(Origin(where, chance.pos)):
            with self.src.capture() as lines:
                cost, effects = self.statements.block_with_effects(chance.body, scope)
            values_name = self.src.const(values_t)
        total = sum(weights)
        case_id = self.add_case(CaseCode(
            index, CasePattern.CHANCE, chance.name, (chance.name + ":", "{outcome}"), where, chance.pos,
            body=lines, outcomes=values_name, cost=cost, effects=effects,
        ))
        codes = tuple((case_id, NO_SITE, NO_SITE, NO_SITE, k) for k in range(len(values)))
        if chance.outcomes_member_of is not None and not reported:
            lister = self.guard(lambda: self._member_lister(chance, codes))
            if lister is not None:
                self._member_listers[index] = lister
        return DecisionInfo(
            chance.name, chance.pos, True,
            outcome_values=values_t, outcome_labels=tuple(self._label(v, out_type) for v in values),
            probabilities=tuple(float(Fraction(w, total)) for w in weights),
            codes=codes,
            uniform=len(set(weights)) == 1,
        )

    def _member_lister(self, chance: ast.Chance, codes: tuple[tuple[int, ...], ...]) -> tuple[str, str, str]:
        """The lister, picker and counter of `outcomes one of SET` (drawn_outcomes.py)."""
        member_of = chance.outcomes_member_of
        assert member_of is not None
        return write_member_functions(self.src, self.exprs, self.scope((), f"the outcomes of chance '{chance.name}'"),
                                      chance.name, member_of, member_of.pos, codes)

    def _outcomes(self, chance: ast.Chance) -> tuple[list[Any], list[int], Type]:
        values: list[Any] = []
        weights: list[int] = []
        out_type = Type.INT
        scope = self.scope((), f"the outcomes of chance '{chance.name}'")
        if chance.outcomes_range is not None:
            lo_e, hi_e = chance.outcomes_range
            lo = self.exprs.compile(lo_e, scope)
            hi = self.exprs.compile(hi_e, scope)
            for e, c in ((lo_e, lo), (hi_e, hi)):
                whole_number(c, e, "an outcome")
                if c.type is not Type.INT or not c.is_const:
                    message = "outcome ranges need fixed numbers (or number options), e.g. 'outcomes 1 to 6'"
                    if c.is_const:
                        raise RuleError(e.pos, message)
                    raise _OutcomesNotFixed(e.pos, message + ": a chance event's outcomes are the same in every "
                                                             "position", chance.name, Type.INT)
            if hi.const < lo.const:
                raise RuleError(chance.pos, f"the outcome range {lo.const} to {hi.const} is empty")
            if hi.const - lo.const >= MAX_OUTCOMES:
                raise RuleError(chance.pos, f"the outcome range {lo.const} to {hi.const} is too large: "
                                            f"{hi.const - lo.const + 1} outcomes, at most {MAX_OUTCOMES}")
            return list(range(lo.const, hi.const + 1)), [1] * (hi.const - lo.const + 1), out_type
        for outcome in chance.outcomes:
            w = 1
            if outcome.weight is not None:
                wc = self.exprs.compile(outcome.weight, scope)
                whole_number(wc, outcome.weight, "a weight")
                if wc.type is not Type.INT or not wc.is_const or wc.const <= 0:
                    raise RuleError(outcome.weight.pos, "a weight must be a fixed positive number")
                w = wc.const
            # `outcomes [X, Y, ...]`: the values of a bracketed list (which may break across
            # lines), each with the list's weight.
            listed = outcome.value.items if isinstance(outcome.value, ast.ListLit) else [outcome.value]
            if not listed:
                raise RuleError(outcome.value.pos, "an empty list of outcomes")
            for value in listed:
                c = self.exprs.compile(value, scope)
                whole_number(c, value, "an outcome")
                if not c.is_const:
                    raise _OutcomesNotFixed(value.pos, "outcomes must be fixed values (numbers, strings, players, "
                                                       "sites or fixed sets of them), the same in every position",
                                            chance.name, _OUTCOME_TYPES.get(ELEMENT.get(c.type, c.type), Type.INT))
                if c.type in (Type.PLAYERS, Type.SITES):
                    values.extend(c.const)
                    weights.extend([w] * len(c.const))
                    out_type = Type.PLAYER if c.type is Type.PLAYERS else Type.SITE
                elif c.type is Type.PLAYER and c.const == -1 and isinstance(value, ast.Name) \
                        and value.id in self.model.all_players:
                    continue  # (a player not in play with these options is no outcome)
                elif c.type in (Type.INT, Type.PLAYER, Type.SITE, Type.STR):
                    if c.type is Type.STR:  # (written into the notation NAME:{outcome})
                        try:
                            unrecordable = check_recordable(c.const, value.pos, "a chance outcome",
                                                            isinstance(value, ast.Str))
                        except RuleError as err:  # (reported alone: the outcomes keep their type)
                            self.errors.append(err)
                        else:
                            if unrecordable is not None:
                                self.warnings.append(unrecordable)
                    values.append(c.const)
                    weights.append(w)
                    out_type = c.type
                else:
                    raise RuleError(value.pos, f"an outcome must be a number, a player or a site, "
                                               f"found {describe(c)}")
                if len(values) > MAX_OUTCOMES:
                    break
        if len(values) > MAX_OUTCOMES:
            raise RuleError(chance.pos, f"chance '{chance.name}' has more than {MAX_OUTCOMES} outcomes")
        if not values and chance.outcomes:
            # (the players listed are all out of play: the outcome is still a player)
            self.errors.append(RuleError(chance.pos, f"chance '{chance.name}' has no outcome with these options: "
                                                     "every player it lists is out of play (format.md 2.3)"))
            return [], [], Type.PLAYER
        return values, weights, out_type

    def _label(self, value: Any, type_: Type) -> str:
        if type_ is Type.PLAYER:
            return str(self.model.players[value])
        if type_ is Type.SITE:
            return str(self.model.board.names[value])
        return str(value)

    # ------------------------------------------------------------ score
    def _score(self) -> Optional[tuple[list[py.stmt], Code]]:
        """(statements, code) of the score rule (see expressions.lowered), or None."""
        score = self.items.score
        if score is None:
            return None
        with self.src.origin(Origin("the score", score.pos)):
            lowered = self.guard(lambda: self.exprs.lowered(score.expr, self.scope(
                (), "the score", score_notes=self._score_notes)))
        if lowered is None:
            return None
        lines, c = lowered
        if c.type not in NUMBERS:
            self.errors.append(RuleError(score.expr.pos, f"the score must be a number, found {describe(c)}"))
            return None
        return lines, c

    def _write_score(self, score: Optional[tuple[list[py.stmt], Code]]) -> Optional[str]:
        if score is None:
            return None
        lines, c = score
        body = with_registers(list(lines) + [pyast.return_(c.code)], player_loaded=True)
        pos = self.items.score.pos if self.items.score is not None else None
        if not self._score_notes:
            return self.src.function(self.src.fresh("f"), ["s", "p"], body, Origin("the score", pos))
        # (`notes`: the regions' answers its floods keep for every player's call, Results.scores)
        return self.src.function(self.src.fresh("f"), ["s", "p", "notes"], body, Origin("the score", pos),
                                 [pyast.none()])

    def _write_all_scores(self, score: Optional[str]) -> Optional[str]:
        """The function giving every player's score at once, where the score can be
        written out so (compilation/all_scores.py): the name, or None."""
        tree = next((f for f in self.src.functions if isinstance(f, py.FunctionDef) and f.name == score), None)
        if tree is None:
            return None
        name = self.src.fresh("f")
        written = scores_at_once(tree, self.model.player_count, name, self.src.fresh)
        if written is None:
            return None
        pos = self.items.score.pos if self.items.score is not None else None
        return self.src.function(name, ["s"], written.body, Origin("the score of every player, at once", pos))


__all__ = ["Compiler"]


def check_recordable(text: str, pos: ast.Pos, subject: str = "a notation",
                     located: bool = True) -> Optional[RuleError]:
    """A notation template whose literal text a record can carry: a record splits its
    actions at white space and `#` starts a comment there (frontends/records.py), so
    a template holding either lists actions that no record, `moves` or `play` can
    read back. `text` may have values written in already (an option's); where the
    mistake is in the text as written (`text.written`), the column is the character's.
    Such a character is returned as a warning (the game still plays through the API and
    `bench`, as definitions that validated before this check do); a text too long for a
    record is an error."""
    written = getattr(text, "written", text)
    for candidate, exact in ((written, located), (text, False)):
        for index, character in enumerate(candidate):
            if character == "#":
                what, why = "'#'", "it starts a comment in a record"
            elif character.isspace():
                what = "a space" if character == " " else f"white space (U+{ord(character):04X})"
                why = "a record splits its actions at white space"
            elif not character.isprintable():
                what, why = f"the character U+{ord(character):04X}", "a record is plain text"
            else:
                continue
            at = ast.Pos(pos.file, pos.line, pos.column + 1 + index) if exact else pos
            where = "" if exact or candidate is written else " (once an option's value is written in)"
            return RuleError(at, f"{subject} holds {what}{where}: {why}, so no record, `moves` or `play` "
                                 f"can read these actions back",
                             "a notation is one word of printable characters other than '#': "
                             "write e.g. '-', ',', ':' or '_' where a space was meant")
    literal = "".join(_FIELD_IN_TEXT.split(text))
    if len(literal) > MAX_NOTATION_CHARS:
        raise RuleError(pos, f"a notation's text is {len(literal)} characters long: a record holds an action of at "
                             f"most {MAX_NOTATION_CHARS}")
    return None


_FIELD_IN_TEXT = re.compile(r"\{[^{}]*\}")


def _calls_any(function: py.FunctionDef, names: set[str]) -> bool:
    """Whether `function` names any of `names` (a call, or a function handed to a helper)."""
    return pyast.names_any(function, names)


# Statements that end the game or only decide (what `before each turn` does without
# changing the position its turn's actions were listed for).
_ENDING_STATEMENTS = (ast.WinStmt, ast.LoseStmt, ast.DrawStmt, ast.EndStmt, ast.LetStmt)


def _position_writes(stmts: list[ast.Stmt], items: RuleItems, variables: Collection[str]) -> set[str]:
    """What running `stmts` may change of the position: nothing (endings, `let` and
    the conditions and loops around them; a procedure called counts by its
    statements), "variables" (assignments to variables, `score[player] += 1`) or
    "position" (anything else: the board, the turn, a piece's attribute)."""
    writes: set[str] = set()
    for stmt in stmts:
        if isinstance(stmt, _ENDING_STATEMENTS):
            continue
        if isinstance(stmt, ast.IfStmt):
            for body in [body for _, body in stmt.branches] + [stmt.otherwise or []]:
                writes |= _position_writes(body, items, variables)
        elif isinstance(stmt, ast.ForEachStmt):
            writes |= _position_writes(stmt.body, items, variables)
        elif isinstance(stmt, ast.CallStmt) and stmt.procedure in items.procedures:
            writes |= _position_writes(items.procedures[stmt.procedure].body, items, variables)
        elif isinstance(stmt, ast.AssignStmt) and _variable_written(stmt.target) in variables:
            writes.add("variables")
        else:
            writes.add("position")
    return writes


def _variable_written(target: ast.Expr) -> Optional[str]:
    """The variable an assignment writes (`moves`, `score[player]`), else None."""
    if isinstance(target, ast.Index):
        target = target.obj
    return target.id if isinstance(target, ast.Name) else None
