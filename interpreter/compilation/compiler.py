"""Rules AST + GameModel → CompiledRules: Python functions generated for one game.

The compiler checks the rules and writes, through one `Source`:

- per decision, the function that lists its legal actions (decisions.py);
- per case of an action (and per chance event), for each phase, the function
  that applies it: the case's statements, the decision's and the phase's
  `after each action`, then the turn sequence (cases.py);
- per phase, the end of a turn and what happens when nobody can act;
- the score.

The engine (runtime/engine.py) then only calls these functions.
"""
from __future__ import annotations

import ast as py
from fractions import Fraction
from typing import Any, Callable, Iterable, Optional, TypeVar

from ..parsing import ast
from ..runtime import helpers
from ..runtime.coverage import RuleCoverage
from ..runtime.pieces import STONES
from ..runtime.results import HOW_WORDS, NO_ACTION, Results
from ..runtime.walks import Blockers
from . import pyast
from .actions import ActionCompiler, ActionPlan
from .budget import check_budget
from .cases import CaseWriter, PhaseCode
from .code import Code, describe
from .compiled import Block, CaseInfo, CompiledRules, DecisionInfo, PhaseInfo
from .decisions import DecisionPlan, DecisionWriter, Templates, Variant
from .domains import Domains
from .errors import RuleError, unknown
from .expr_names import BOARD_REPETITIONS, TURN_START
from .expressions import ExpressionCompiler, whole_number
from .items import RuleItems
from .longest import LongestTurns
from .model import GameModel
from .patterns import CodeTables
from .preferences import preference_tiers
from .probes import Probes
from .registers import with_registers
from .restrictions import Restrictions, ResultPart, compile_restrictions, structure
from .scope import Scope
from .source import Origin, Source, SourceTooLarge, compile_module
from .statements import Endings, StatementCompiler
from .told_apart import check_told_apart
from .types import CANDIDATE_DEPS, NUMBERS, Type

TEMPLATE_FIELDS = ("{from}", "{to}", "{outcome}")
MAX_OUTCOMES = 10_001
T = TypeVar("T")


class Compiler:
    def __init__(self, model: GameModel, items: RuleItems, coverage: bool = False):
        self.model = model
        self.items = items
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
        self.cases: list[CaseInfo] = []
        self.actions = ActionCompiler(self)
        self.restrictions = Restrictions(self.exprs, self.scope((), "a 'forbid' condition"))
        self._pool_pieces: Optional[py.Name] = None
        self.warnings: list[RuleError] = []  # located, not fatal (see budget.py)
        self.plans: list[Optional[DecisionPlan]] = []  # per decision (None for chance events)
        self.phase_codes: list[Optional[PhaseCode]] = []
        self.result_code: list[ResultPart] = []  # the `forbid result` conditions
        self.longest_turns = LongestTurns(self)

    # ------------------------------------------------------------ helpers for parts
    def scope(self, available: Iterable[str], where: str, piece_always: bool = False, followups: bool = False,
              **modes: Any) -> Scope:
        """A scope of the rules' statements and conditions (`modes`: see Scope)."""
        return Scope(frozenset(available), where, piece_always=piece_always, followups=followups, **modes)

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
        return lines, cost, effects

    def add_case(self, info: CaseInfo) -> int:
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
        try:
            return self._compile()
        except SourceTooLarge:
            self.errors.append(RuleError(
                self._first_line(), "the rules expand to too much code (defines used in defines used in defines ...)",
                "use fewer nested defines, or procedures",
            ))
            return None

    def _first_line(self) -> ast.Pos:
        return ast.Pos(self.items.files[0] if self.items.files else "<rules>", 1, 1)

    def _compile(self) -> Optional[CompiledRules]:
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
        decisions: list[DecisionInfo] = []
        plans: list[Optional[DecisionPlan]] = []
        for name in self.decision_names:
            if name in items.decisions:
                info, plan = self._decision(items.decisions[name], len(decisions))
                decisions.append(info)
                plans.append(plan)
            else:
                decisions.append(self._chance(items.chances[name], len(decisions)))
                plans.append(None)
        phases = [self._phase(p) for p in items.phases]
        self.plans, self.phase_codes = plans, phases
        score = self._score()
        if self.longest_turns.any(plans) and all(p is not None for p in phases):
            self.longest_turns.check(plans, [p for p in phases if p is not None],
                                     CaseWriter(self, [p for p in phases if p is not None], decisions))
        self.errors.extend(self.statements.errors)
        if self.errors or any(p is None for p in phases):
            return None
        self.errors.extend(check_budget(self))
        if self.errors:
            return None
        return self._write(decisions, plans, [p for p in phases if p is not None], score)

    def _write(self, decisions: list[DecisionInfo], plans: list[Optional[DecisionPlan]], phases: list[PhaseCode],
               score: Optional[tuple[list[py.stmt], Code]]) -> CompiledRules:
        m = self.model
        templates = Templates()
        with self.src.origin(Origin("the notations: per case, (its template, whether it shows from, to, a choice)")):
            keys = self.src.const(templates.key_table(self.cases))
        checks_table: list[list[Optional[Callable[..., Any]]]] = []
        with self.src.origin(Origin("forbid result: the checks of each case, by phase")):
            checks_name = self.src.const(checks_table) if self.result_code else None
        writer = DecisionWriter(
            self.src, keys, self.restrictions, self.probes.counts, self._owned_kinds(), self.exprs.owner_masks,
            checks_name,
        )
        legal_names: list[Optional[str]] = []
        all_names: list[Optional[str]] = []
        candidate_names: list[Optional[str]] = []
        key_table = self.src.namespace[keys.id]
        for plan, info in zip(plans, decisions):
            if plan is None:
                legal_names.append(None)
                all_names.append(None)
                candidate_names.append(None)
                continue
            legal = writer.write(plan)
            if legal.alike_after_check:
                alike = legal.alike_after_check
                info.alike_keys = tuple(key if case in alike else None for case, key in enumerate(key_table))
            legal_names.append(legal.name)
            all_names.append(writer.write(plan, Variant(dedup=False)).name if legal.deduplicated else None)
            candidate_names.append(writer.write(plan, Variant(candidates_only=True)).name if self.result_code else None)
        self._shown_values(decisions)
        results = Results(m.player_count, self.endings.entries)
        self.src.helper("h_end", results.end)
        case_writer = CaseWriter(self, phases, decisions)
        run_names = case_writer.write_all()
        if self.longest_turns.any(plans):
            self.longest_turns.write(case_writer)
        check_names = case_writer.write_result_checks(self.result_code) if self.result_code else []
        no_action_names = [case_writer.write_no_action(i, phase) for i, phase in enumerate(phases)]
        before_turn_names = [case_writer.write_before_turn(phase) for phase in phases]
        score_name = self._write_score(score)
        if self.statements.changes_owners or self.statements.changes_kinds:
            # A neutral piece may then be of a kind that does not block, or change
            # kind where it stands: the neutral sites no longer tell the blockers.
            for value in self.src.namespace.values():
                if isinstance(value, Blockers):
                    value.neutral_only = False
        namespace = compile_module(self.src)
        results.score = namespace[score_name] if score_name else None
        checks_table.extend([[namespace[n] if n else None for n in per_phase] for per_phase in check_names])
        for info, name, every, candidates in zip(decisions, legal_names, all_names, candidate_names):
            if name is not None:
                info.legal = namespace[name]
                info.legal_with_duplicates = namespace[every] if every else info.legal
                info.candidates = namespace[candidates] if candidates else None
        if self.longest_turns.any(plans):
            self.longest_turns.bind(namespace, plans, decisions,
                                    self.probes.coverage.counts if self.probes.coverage is not None else None)
        phase_infos = []
        for phase, name, before in zip(phases, no_action_names, before_turn_names):
            phase.info.no_action = namespace[name]
            phase.info.before_turn = namespace[before] if before else None
            phase_infos.append(phase.info)
        coverage = self.probes.coverage
        if coverage is not None:
            results.counts = coverage.counts
            results.probes = [coverage.add("ending", HOW_WORDS[how], pos) for how, pos in results.endings]
        return CompiledRules(
            players=list(m.players),
            site_names=list(m.board.names),
            decisions=decisions,
            cases=self.cases,
            phases=phase_infos,
            runs=[[namespace[name] for name in per_phase] for per_phase in run_names],
            initial_board=self._initial_board(),
            initial_vars=self._initial_vars(),
            results=results,
            module=self.src.module(),
            coverage=coverage,
            kind_symbols=tuple(k.symbol for k in sorted(m.kinds.values(), key=lambda k: k.index)),
            turn_hooks=self.turn_hooks,
            keeps_history=self.exprs.uses_repetitions,
            keeps_boards=self.exprs.uses_board_repetitions,
            position_vars=self._position_vars(),
            result_checks=checks_table,
            source_map=dict(self.src.origins),
            constants={name: value for name, value in self.src.namespace.items() if self.src.is_const_name(name)},
        )

    def _shown_values(self, decisions: list[DecisionInfo]) -> None:
        """The values each number a notation shows can take (for the fixed action space)."""
        if not self.actions.value_sources:
            return
        outcomes = {info.name: info.outcome_values for info in decisions if info.is_chance}
        domains = Domains(self.model, self.items, outcomes)
        for case, sources in self.actions.value_sources.items():
            found = [frozenset(source) if isinstance(source, tuple) else domains.of(source) for source in sources]
            self.cases[case].shown_values = tuple(None if values is None else tuple(sorted(values, key=repr))
                                                  for values in found)

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

    def _owned_kinds(self) -> frozenset[int]:
        """The kinds a player's piece can be of: every kind when the rules change
        owners (`X.owner = P` can make a neutral kind a player's), else the kinds
        not declared neutral."""
        kinds = self.model.kinds.values()
        if self.statements.changes_owners:
            return frozenset(k.index for k in kinds)
        return frozenset(k.index for k in kinds if not k.neutral)

    def _initial_board(self) -> list[Any]:
        # One more entry than sites, always empty: "no site" is -1, and board[-1]
        # must then read as nothing rather than as the last site.
        board: list[Any] = [None] * (self.model.board.size + 1)
        for placement in self.model.setup:
            piece = list(self.model.fresh_piece(placement.owner, placement.kind))
            for index, value in placement.attributes:
                piece[index] = value
            if placement.height != 1:
                piece[STONES] = (placement.owner,) * placement.height
            board[placement.site] = tuple(piece)
        return board

    def _initial_vars(self) -> list[int]:
        m = self.model
        values = [0] * m.vars_size
        for var in m.variables.values():
            for i in range(m.player_count if var.per_player else 1):
                values[var.offset + i] = var.default
        for pool in m.pools.values():
            for i in range(m.player_count):
                values[pool.offset + i] = pool.initial
        return values

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
        info = PhaseInfo(phase.name, order_t, tuple(turn), phase.pos)
        default_ending = self.endings.add(NO_ACTION, phase.pos) if no_action is None else None
        return PhaseCode(info, after_turn, after_action, no_action, default_ending, before_turn)

    # ------------------------------------------------------------ decisions
    def _decision(self, decision: ast.Decision, index: int) -> tuple[DecisionInfo, DecisionPlan]:
        plans: list[ActionPlan] = []
        by_name: dict[str, list[ActionPlan]] = {}  # (an action made for several values has a plan for each)
        for action in decision.actions:
            action_plans = self.guard(lambda: self.actions.compile_all(action, index))
            if action_plans is not None:
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
        tiers = self.guard(lambda: preference_tiers(decision, plans, by_name)) or [plans]
        plan = DecisionPlan(decision.name, tiers, decision.pos, longest=decision.longest)
        if self.probes.on:
            for (pos, names), _tier in zip(decision.prefer, tiers):
                label = "prefer: " + ", ".join(n.id if isinstance(n, ast.Name) else n.text for n in names)
                plan.prefer_probes.append(self.probes.add("prefer", label, pos))
        return DecisionInfo(decision.name, False, decision.pos), plan

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
        outcomes = self.guard(lambda: self._outcomes(chance))
        values, weights, out_type = outcomes if outcomes is not None else ([], [], Type.INT)
        merged: dict[Any, int] = {}
        for v, w in zip(values, weights):
            merged[v] = merged.get(v, 0) + w
        values, weights = list(merged), list(merged.values())
        if not values:
            if not any(e.pos == chance.pos for e in self.errors):
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
        case_id = self.add_case(CaseInfo(
            index, "chance", (chance.name + ":", "{outcome}"), where, chance.pos,
            body=lines, outcomes=values_name, cost=cost, effects=effects,
        ))
        return DecisionInfo(
            chance.name, True, chance.pos,
            outcome_values=values_t, outcome_labels=tuple(self._label(v, out_type) for v in values),
            probabilities=tuple(float(Fraction(w, total)) for w in weights),
            codes=tuple((case_id, -1, -1, -1, k) for k in range(len(values))),
            uniform=len(set(weights)) == 1,
        )

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
                    raise RuleError(e.pos, "outcome ranges need fixed numbers, e.g. 'outcomes 1 to 6'")
            if hi.const - lo.const >= MAX_OUTCOMES or hi.const < lo.const:
                raise RuleError(chance.pos, f"the outcome range {lo.const} to {hi.const} is empty or too large")
            return list(range(lo.const, hi.const + 1)), [1] * (hi.const - lo.const + 1), out_type
        for outcome in chance.outcomes:
            c = self.exprs.compile(outcome.value, scope)
            whole_number(c, outcome.value, "an outcome")
            if not c.is_const:
                raise RuleError(outcome.value.pos, "outcomes must be fixed values (numbers, players or sites)")
            w = 1
            if outcome.weight is not None:
                wc = self.exprs.compile(outcome.weight, scope)
                whole_number(wc, outcome.weight, "a weight")
                if wc.type is not Type.INT or not wc.is_const or wc.const <= 0:
                    raise RuleError(outcome.weight.pos, "a weight must be a fixed positive number")
                w = wc.const
            if c.type in (Type.PLAYERS, Type.SITES):
                values.extend(c.const)
                weights.extend([w] * len(c.const))
                out_type = Type.PLAYER if c.type is Type.PLAYERS else Type.SITE
            elif c.type in (Type.INT, Type.PLAYER, Type.SITE, Type.STR):
                values.append(c.const)
                weights.append(w)
                out_type = c.type
            else:
                raise RuleError(outcome.value.pos, f"an outcome must be a number, a player or a site, "
                                                   f"found {describe(c)}")
        if len(values) > MAX_OUTCOMES:
            raise RuleError(chance.pos, f"chance '{chance.name}' has more than {MAX_OUTCOMES} outcomes")
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
            lowered = self.guard(lambda: self.exprs.lowered(score.expr, self.scope((), "the score")))
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
        return self.src.function(self.src.fresh("f"), ["s", "p"], body, Origin("the score", pos))


__all__ = ["Compiler", "CompiledRules", "DecisionInfo", "PhaseInfo", "compile_module"]
