"""Rules AST + GameModel → CompiledRules (closures and tables the engine runs)."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Optional

from ..parsing import ast as A
from ..runtime.engine import CaseRuntime, CompiledRules, DecisionRuntime, PhaseRuntime, end_game
from . import patterns as P
from .dispatch import CompiledAction, decision_generator
from .restrictions import compile_restrictions
from .effects import EffectCompiler, _sequence
from .expressions import ExpressionCompiler, RuleError, Scope, conjuncts, describe, name_pos
from .model import GameModel

CANDIDATE_DEPS = {"to", "target", "jumped"}
PIECE_DEPS = {"piece", "from"}

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
LANDING_SLOT = {"empty": P.EMPTY, "own": P.OWN, "neutral": P.NEUTRAL, "enemy": P.ENEMY}


@dataclass
class RuleItems:
    """The top-level items of a rules file, by kind and name."""

    phases: list
    decisions: dict
    chances: dict
    defines: dict
    procedures: dict
    forbids: list
    score: Optional[A.Score]
    files: list = field(default_factory=list)  # the rules files, for messages about all of them


def collect_items(files: list[A.RulesFile], errors: list) -> RuleItems:
    items = RuleItems([], {}, {}, {}, {}, [], None, [rules.path for rules in files])
    seen: dict[str, A.Pos] = {}
    for rules in files:
        for item in rules.items:
            if isinstance(item, A.Forbid):
                items.forbids.append(item)
                continue
            if isinstance(item, A.Score):
                if items.score is not None:
                    errors.append(RuleError(item.pos, f"a second 'score' (the first is at {items.score.pos})"))
                items.score = item
                continue
            if isinstance(item, A.Removal):
                errors.append(RuleError(item.pos, "'remove' belongs in a variant's rules, not in a game's"))
                continue
            name = item.name
            if name in seen:
                errors.append(RuleError(item.pos, f"'{name}' is already defined at {seen[name]}"))
                continue
            seen[name] = item.pos
            if isinstance(item, A.ForbidGroup):
                items.forbids.extend(item.forbids)
            if isinstance(item, A.Phase):
                items.phases.append(item)
            elif isinstance(item, A.Decision):
                items.decisions[name] = item
            elif isinstance(item, A.Chance):
                items.chances[name] = item
            elif isinstance(item, A.Define):
                items.defines[name] = item
            elif isinstance(item, A.Procedure):
                items.procedures[name] = item
    return items


def _first_legal(generators: list) -> Callable:
    """gen(frame, out) offering the actions of the first generator that has any."""
    if len(generators) == 1:
        return generators[0]

    def gen(f, out):
        for g in generators:
            g(f, out)
            if out:
                return

    return gen


class Compiler:
    def __init__(self, model: GameModel, items: RuleItems):
        self.m = model
        self.items = items
        self.errors: list[RuleError] = []
        self.x = ExpressionCompiler(model, items.defines)
        self.slots = [0]
        self.decision_names = list(items.decisions) + list(items.chances)
        self.decision_index = {name: i for i, name in enumerate(self.decision_names)}
        self.phase_index = {p.name: i for i, p in enumerate(items.phases)}
        self.engine_ref: list = [None]
        engine_ref = self.engine_ref

        def end(f, how, player, pos=None):
            end_game(engine_ref[0], f, how, player, pos)

        self.fx = EffectCompiler(self.x, items.procedures, self.decision_index, self.phase_index, end)
        self.cases: list[CaseRuntime] = []
        board = model.board
        # neighbours[direction][site]: the adjacent site that way, or -1.
        self.neighbours = [[ray[0] if ray else -1 for ray in per_site] for per_site in board.rays]
        # pool_pieces[site]: the piece that leaves a pool standing on that site.
        self.pool_pieces = [None] * (board.size + 1)
        for pool in model.pools.values():
            if pool.kind is not None:
                for player, site in enumerate(pool.sites):
                    if site != -1:
                        self.pool_pieces[site] = model.fresh_piece(player, pool.kind)

    # ------------------------------------------------------------ helpers
    def scope(self, available, where: str, piece_always: bool = False, followups: bool = False) -> Scope:
        return Scope(frozenset(available), where, {}, self.slots, piece_always, followups)

    def guard(self, fn: Callable) -> Optional[Callable]:
        try:
            return fn()
        except RuleError as err:
            self.errors.append(err)
            return None

    def block(self, stmts, available, where: str, followups: bool = False) -> Optional[Callable]:
        if stmts is None:
            return None
        return self.fx.block(stmts, self.scope(available, where, followups=followups))

    # ------------------------------------------------------------ the whole
    def compile(self) -> Optional[CompiledRules]:
        m, items = self.m, self.items
        if not items.phases:
            file = items.files[0] if items.files else "<rules>"
            self.errors.append(RuleError(A.Pos(file, 1, 1), "the rules declare no phase (e.g. 'phase play:' with 'turn: move')"))
            return None
        self.forbid = compile_restrictions(self.items.forbids, self.x, self.m.board.size, self.scope, self.errors)
        decisions: list[DecisionRuntime] = []
        for name in self.decision_names:
            if name in items.decisions:
                decisions.append(self._decision(items.decisions[name], len(decisions)))
            else:
                decisions.append(self._chance(items.chances[name], len(decisions)))
        phases = [self._phase(p) for p in items.phases]
        score = None
        if items.score is not None:
            v = self.guard(lambda: self.x.compile(items.score.expr, self.scope((), "the score")))
            if v is not None:
                if v.type != "int":
                    self.errors.append(RuleError(items.score.expr.pos, f"the score must be a number, found {describe(v)}"))
                score = v.fn
        self.errors.extend(self.fx.errors)
        if self.errors or any(p is None for p in phases):
            return None
        # One more entry than sites, always empty: "no site" is -1, and board[-1]
        # must then read as nothing rather than as the last site.
        board = [None] * (m.board.size + 1)
        for site, owner, kind in m.setup:
            board[site] = m.fresh_piece(owner, kind)
        vars_ = [0] * m.vars_size
        for var in m.variables.values():
            for i in range(m.player_count if var.per_player else 1):
                vars_[var.offset + i] = var.default
        for pool in m.pools.values():
            for i in range(m.player_count):
                vars_[pool.offset + i] = pool.initial
        return CompiledRules(
            players=list(m.players),
            site_names=list(m.board.names),
            decisions=decisions,
            cases=self.cases,
            phases=phases,
            initial_board=board,
            initial_vars=vars_,
            score=score,
            local_slots=self.slots[0] + 1,
        )

    # ------------------------------------------------------------ forbids
    # ------------------------------------------------------------ phases
    def _phase(self, phase: A.Phase) -> Optional[PhaseRuntime]:
        m = self.m
        if phase.order:
            order = []
            for name in phase.order:
                if name.id in m.players:
                    order.append(m.players.index(name.id))
                elif name.id not in m.all_players:
                    self.errors.append(RuleError(name.pos, f"unknown player '{name.id}'", self.x.hint(name.id, self.scope((), ""))))
            order = tuple(order)
        else:
            order = tuple(range(m.player_count))
        if not order:
            self.errors.append(RuleError(phase.pos, f"phase '{phase.name}' has no player in play"))
            return None
        if not phase.turn:
            self.errors.append(RuleError(phase.pos, f"phase '{phase.name}' has no 'turn:' naming the decisions of a turn"))
            return None
        turn = []
        for name in phase.turn:
            if name.id not in self.decision_index:
                from ..validation.diagnostics import suggest

                best = suggest(name.id, self.decision_names)
                self.errors.append(RuleError(name.pos, f"unknown decision '{name.id}'", f"did you mean '{best}'?" if best else None))
            else:
                turn.append(self.decision_index[name.id])
        after_turn = self.block(phase.after_turn, (), f"phase '{phase.name}', after each turn")
        after_action = self.block(
            phase.after_action, {"piece", "from", "to"}, f"phase '{phase.name}', after each action", followups=True
        )
        no_action = self.block(phase.no_action, (), f"phase '{phase.name}', if no action")
        successor = {p: order[(i + 1) % len(order)] for i, p in enumerate(order)}
        if not turn:
            return None
        return PhaseRuntime(phase.name, order, tuple(turn), after_turn, after_action, no_action, successor, phase.pos)

    # ------------------------------------------------------------ chance
    def _chance(self, chance: A.Chance, index: int) -> DecisionRuntime:
        values: list = []
        weights: list = []
        out_type = "int"
        scope = self.scope((), f"the outcomes of chance '{chance.name}'")
        try:
            if chance.outcomes_range is not None:
                lo_e, hi_e = chance.outcomes_range
                lo = self.x.compile(lo_e, scope)
                hi = self.x.compile(hi_e, scope)
                for e, v in ((lo_e, lo), (hi_e, hi)):
                    if v.type != "int" or not v.is_const:
                        raise RuleError(e.pos, "outcome ranges need fixed numbers, e.g. 'outcomes 1 to 6'")
                if hi.const - lo.const > 10_000 or hi.const < lo.const:
                    raise RuleError(chance.pos, f"the outcome range {lo.const} to {hi.const} is empty or too large")
                values = list(range(lo.const, hi.const + 1))
                weights = [1] * len(values)
            else:
                for outcome in chance.outcomes:
                    v = self.x.compile(outcome.value, scope)
                    if not v.is_const:
                        raise RuleError(outcome.value.pos, "outcomes must be fixed values (numbers, players or sites)")
                    w = 1
                    if outcome.weight is not None:
                        wv = self.x.compile(outcome.weight, scope)
                        if wv.type != "int" or not wv.is_const or wv.const <= 0:
                            raise RuleError(outcome.weight.pos, "a weight must be a fixed positive number")
                        w = wv.const
                    if v.type == "players":
                        values.extend(v.const)
                        weights.extend([w] * len(v.const))
                        out_type = "player"
                    elif v.type == "sites":
                        values.extend(v.const)
                        weights.extend([w] * len(v.const))
                        out_type = "site"
                    elif v.type in ("int", "player", "site", "str"):
                        values.append(v.const)
                        weights.append(w)
                        out_type = v.type
                    else:
                        raise RuleError(outcome.value.pos, f"an outcome must be a number, a player or a site, found {describe(v)}")
        except RuleError as err:
            self.errors.append(err)
        merged: dict = {}
        for v, w in zip(values, weights):
            merged[v] = merged.get(v, 0) + w
        values, weights = list(merged), list(merged.values())
        if not values:
            if not any(e.pos == chance.pos for e in self.errors):
                self.errors.append(RuleError(chance.pos, f"chance '{chance.name}' has no outcome"))
            values, weights = [0], [1]
        body_scope = self.scope({"outcome"}, f"chance '{chance.name}'", followups=True)
        body_scope.locals["$outcome_type"] = (0, out_type)
        effect = self.fx.block(chance.body, body_scope)
        total = sum(weights)
        probabilities = tuple(float(Fraction(w, total)) for w in weights)
        labels = tuple(self._label(v, out_type) for v in values)
        case_id = len(self.cases)
        values_t = tuple(values)

        def prepare(f, code, values_t=values_t):
            # Nothing moves in a chance event: no piece, no sites.
            f.out = values_t[code[3]]
            f.frm = f.at = f.to = f.js = -1
            f.pc = f.tg = f.jp = None

        self.cases.append(CaseRuntime(index, effect, prepare, (chance.name + ":", "{outcome}"), f"chance '{chance.name}'", chance.pos))
        codes = tuple((case_id, -1, -1, k) for k in range(len(values)))

        def gen(f, out, codes=codes):
            out.extend(codes)

        return DecisionRuntime(
            chance.name, True, gen, None, pos=chance.pos,
            outcome_values=values_t, outcome_labels=labels, probabilities=probabilities, codes=codes,
            uniform=len(set(weights)) == 1,
        )

    def _label(self, value, type_: str) -> str:
        if type_ == "player":
            return self.m.players[value]
        if type_ == "site":
            return self.m.board.names[value]
        return str(value)

    # ------------------------------------------------------------ decisions
    def _decision(self, decision: A.Decision, index: int) -> DecisionRuntime:
        actions: list[CompiledAction] = []
        by_name: dict = {}
        for action in decision.actions:
            compiled = self.guard(lambda: self._action(action, index))
            if compiled is not None:
                actions.append(compiled)
                by_name[action.name] = compiled
        after = self.block(
            decision.after_action,
            {"piece", "from", "to", "target", "jumped"},
            f"decision '{decision.name}', after each action",
            followups=True,
        )
        for case in self.cases:
            if case.decision == index:
                case.after = after
        tiers = self.guard(lambda: self._preference_tiers(decision, actions, by_name)) or [actions]
        # The restrictions are brought up to date once per position, by the first tier.
        refreshers = [self.forbid.refresher()] + [None] * (len(tiers) - 1)
        generators = [
            decision_generator(tier, len(self.m.kinds), self.cases, self.pool_pieces, self.neighbours, refresh)
            for tier, refresh in zip(tiers, refreshers)
        ]
        return DecisionRuntime(decision.name, False, _first_legal(generators), after, pos=decision.pos)

    def _preference_tiers(self, decision: A.Decision, actions: list, by_name: dict) -> list:
        """The actions in the order `prefer:` gives: one list per `prefer` line, then
        the rest. A tier is offered only when no earlier tier has a legal action."""
        if not decision.prefer:
            return [actions]
        names = [a.name for a in decision.actions]
        tiers, placed = [], {}
        for _, line in decision.prefer:
            tier = []
            for name in line:
                if name.id not in names:
                    from ..validation.diagnostics import suggest

                    best = suggest(name.id, names)
                    raise RuleError(name.pos, f"decision '{decision.name}' has no action '{name.id}'", f"did you mean '{best}'?" if best else None)
                if name.id in placed:
                    raise RuleError(name.pos, f"action '{name.id}' is already preferred at {placed[name.id]}")
                placed[name.id] = name.pos
                if name.id in by_name:
                    tier.append(by_name[name.id])
            tiers.append(tier)
        rest = [a for a in actions if not any(a is t for tier in tiers for t in tier)]
        return [tier for tier in tiers + [rest] if tier]

    def _action(self, action: A.Action, decision_index: int):
        pattern = action.pattern
        kind = type(pattern).__name__
        available = {"piece", "from", "to", "target"}
        if isinstance(pattern, A.JumpPattern):
            available = {"piece", "from", "to", "jumped"}
        elif isinstance(pattern, A.DropPattern):
            available = {"piece", "to", "target"}
        elif isinstance(pattern, A.SelectPattern):
            available = {"to", "target"}
        elif isinstance(pattern, A.PassPattern):
            available = set()
        where_text = f"action '{action.name}'"

        # -- which pieces act
        kinds = None
        pools = []
        same_piece = False
        for by in action.by:
            if by.kind is not None:
                if by.kind not in self.m.kinds:
                    from ..validation.diagnostics import suggest

                    best = suggest(by.kind, list(self.m.kinds))
                    raise RuleError(by.pos, f"unknown piece kind '{by.kind}'", f"did you mean '{best}'?" if best else None)
                kinds = (kinds or ()) + (self.m.kinds[by.kind].index,)
            elif by.pool is not None:
                pool = self.fx._pool(by.pool, name_pos(by.pos, by.pool))
                if pool.kind is None:
                    raise RuleError(by.pos, f"pool '{by.pool}' has no 'kind': say which pieces wait in it")
                if all(s == -1 for s in pool.sites):
                    raise RuleError(by.pos, f"pool '{by.pool}' stands on no site: give it 'sites' in the YAML")
                pools.append((pool.offset, tuple(pool.sites)))
            else:
                same_piece = True
        if pools and kinds is None:
            kinds = ()
        if isinstance(pattern, (A.DropPattern, A.SelectPattern, A.PassPattern)) and action.by:
            raise RuleError(action.by[0].pos, f"'by' chooses the moving piece; a {kind.replace('Pattern', '').lower()} action has none")

        # -- where conditions, split into the level they can be checked at
        scope = self.scope(available, where_text, piece_always="piece" in available)
        levels = {"action": [], "piece": [], "candidate": []}
        for cond in action.wheres:
            for part in conjuncts(cond):
                v = self.x.boolean(part, scope)
                if v.is_const:
                    if not v.const:
                        levels["action"].append(v.fn)
                    continue
                if v.deps & CANDIDATE_DEPS:
                    levels["candidate"].append(v.fn)
                elif v.deps & PIECE_DEPS:
                    levels["piece"].append(v.fn)
                else:
                    levels["action"].append(v.fn)
        action_guard = _all(levels["action"])
        piece_where = _all(levels["piece"])
        cand_where = _all(levels["candidate"])

        # -- cases
        allowed = _allowed_cases(pattern)
        case_ids = [None, None, None, None]
        over_ids = [None, None, None, None]
        off_case = None
        templates = []
        seen_cases = {}
        for case in action.cases:
            key = (case.kind, case.what)
            if key not in allowed:
                raise RuleError(case.pos, f"'{case.label}' does not fit a {_pattern_word(pattern)} action; it can have: {', '.join(k + ' ' + w for k, w in allowed)}")
            if key in seen_cases:
                raise RuleError(case.pos, f"'{case.label}' appears twice in action '{action.name}'")
            seen_cases[key] = True
            template_text = case.notation or action.notation or _default_notation(pattern, key)
            template = self._template(template_text, case.pos, TEMPLATE_FIELDS[:2])
            templates.append(template)
            case_available = set(available)
            if case.kind == "off":
                case_available -= {"to", "target"}
            if case.what == "empty" and case.kind == "onto":
                case_available -= {"target"}
            is_drop = isinstance(pattern, A.DropPattern)
            self.fx.in_drop = is_drop
            self.fx.drop_pool_offset = self.fx._pool(pattern.pool, pattern.pool_pos or pattern.pos).offset if is_drop and pattern.pool else None
            case_scope = self.scope(
                case_available, f"{where_text}, {case.label}", piece_always="piece" in available, followups=True
            )
            try:
                effect = self.fx.block(case.body, case_scope)
            finally:
                self.fx.in_drop = False
                self.fx.drop_pool_offset = None
            cid = len(self.cases)
            self.cases.append(CaseRuntime(decision_index, effect, self._prepare(pattern), template, f"action '{action.name}', {case.label}", case.pos))
            if case.kind == "onto":
                case_ids[LANDING_SLOT[case.what]] = cid
            elif case.kind == "over":
                if case.what == "any":
                    for slot in (P.OWN, P.NEUTRAL, P.ENEMY):
                        over_ids[slot] = over_ids[slot] if over_ids[slot] is not None else cid
                else:
                    over_ids[LANDING_SLOT[case.what]] = cid
            else:
                off_case = cid

        result = CompiledAction(action.name, action_guard, templates, _movers(action, self.m))
        if isinstance(pattern, A.PassPattern):
            template = self._template(action.notation or "pass", action.pos, ())
            result.templates.append(template)
            cid = len(self.cases)
            self.cases.append(CaseRuntime(decision_index, _sequence([]), _prepare_nothing, template, f"action '{action.name}'", action.pos))
            code = (cid, -1, -1, -1)

            def pass_gen(f, out, code=code):
                out.append(code)

            result.place_gen = pass_gen
            result.only_if_stuck = pattern.only_if_stuck
            return result

        if not action.cases:
            raise RuleError(action.pos, f"action '{action.name}' has no case: say what happens, e.g. 'onto empty: move'")

        landing = P.Landing(
            case_ids, self.forbid["landing"], self.forbid["capturing"], self.forbid["passing"], cand_where, self.forbid.union,
            self.m.board.size,
        )
        if isinstance(pattern, (A.DropPattern, A.SelectPattern, A.GoPattern)):
            # These do not move along a path: nothing is passed over.
            landing.passing = None
        gen, reach = self._pattern(pattern, scope, landing, over_ids, off_case, cand_where, piece_where)
        if isinstance(pattern, (A.DropPattern, A.SelectPattern)):
            result.place_gen = gen
        else:
            result.piece_gen = P.with_piece_condition(gen, piece_where)
            result.reach = reach
            result.kinds = kinds
            result.pools = tuple(pools)
            result.same_piece = same_piece
        return result

    def _pattern(self, pattern, scope, landing, over_ids, off_case, cand_where, piece_where):
        """(generator, reach): reach[player][site] is every site the action can ever
        land on from `site` (-1: off the board), or None when that is not known before
        play. Two actions of a piece whose reaches never meet cannot write the same
        notation, so the decision need not compare what they produce."""
        board = self.m.board
        if isinstance(pattern, (A.StepPattern, A.LeapPattern, A.JumpPattern)):
            if board.kind != "grid":
                raise RuleError(pattern.pos, f"'{_pattern_word(pattern)}' moves along grid directions; on a graph board use 'walk N steps' or 'go to'")
            table = self._directions(pattern.directions)
            low, high, low_attr = self._distance(pattern.distance, scope)
            fixed = isinstance(low, int) and (high is None or isinstance(high, int))
            first, last = (low, high) if fixed else (1, None)
            if isinstance(pattern, A.JumpPattern):
                # A jump lands just beyond the piece it jumps.
                reach = P.reach_along(board.rays, table, first + 1, None if last is None else last + 1, False)
                return P.jump_pattern(table, low, high, board.rays, self.neighbours, over_ids, landing), reach
            if isinstance(pattern, A.LeapPattern):
                if pattern.distance.unbounded:
                    raise RuleError(pattern.pos, "a leap needs a bounded distance")
                exact = pattern.distance.high is None
                tables = P.leap_table(board.rays, table, max(board.files, board.ranks) + 1) if exact else None
                reach = P.reach_along(board.rays, table, first, last, off_case is not None)
                return P.leap_pattern(
                    tables, _as_fn(low), None if exact else _as_fn(high), board.rays, table, landing, off_case, cand_where,
                    low_attr,
                ), reach
            reach = P.reach_along(board.rays, table, first, last, False)
            return P.step_pattern(table, low, high, board.rays, self.neighbours, landing), reach
        if isinstance(pattern, A.WalkPattern):
            steps = self.x.compile(pattern.steps, scope)
            if steps.type != "int":
                raise RuleError(pattern.steps.pos, f"the number of steps must be a number, found {describe(steps)}")
            neutral = frozenset(k.index for k in self.m.kinds.values() if k.neutral)
            per_piece = bool(steps.deps & (PIECE_DEPS | {"locals"}))
            return P.walk_pattern(steps.fn, per_piece, board.adjacent, landing, pattern.pos, neutral), None
        if isinstance(pattern, A.GoPattern):
            targets = self.x.compile(pattern.targets, scope)
            reach = None
            if targets.static_sites is not None:
                sites = frozenset(targets.static_sites)
                reach = [[sites - {s} for s in range(board.size)]] * self.m.player_count
            return P.go_pattern(self._targets(pattern.targets, scope, "go to", targets), landing), reach
        if isinstance(pattern, A.DropPattern):
            kind = self.fx._kind(pattern.kind, pattern.kind_pos)
            neutral = self.m.kinds[pattern.kind].neutral
            fresh = [self.m.fresh_piece(-1 if neutral else p, kind) for p in range(self.m.player_count)]
            pool_offset = None
            if pattern.pool is not None:
                pool_offset = self.fx._pool(pattern.pool, pattern.pool_pos or pattern.pos).offset
            return P.choose_site_pattern(self._targets(pattern.targets, scope, "drop ... on"), piece_where, landing, fresh, pool_offset), None
        if isinstance(pattern, A.SelectPattern):
            return P.choose_site_pattern(self._targets(pattern.targets, scope, "select"), piece_where, landing, None, None), None
        raise AssertionError(pattern)

    def _targets(self, e: A.Expr, scope: Scope, what: str, v=None) -> Callable:
        """The sites an action chooses from, as a closure (`v`: already compiled)."""
        v = v if v is not None else self.x.compile(e, scope)
        if v.type == "site":
            fn = v.fn
            return lambda f: (s,) if (s := fn(f)) != -1 else ()
        if v.type != "sites":
            if v.type == "perplayer":
                raise RuleError(e.pos, "this differs per player: say whose, e.g. [player]")
            raise RuleError(e.pos, f"'{what}' needs a set of sites, found {describe(v)}")
        if v.deps & CANDIDATE_DEPS:
            raise RuleError(e.pos, f"the sites of '{what}' cannot depend on the landing site")
        return v.fn

    def _directions(self, names: list[A.Name]) -> list:
        """Per player, the direction indices named (relative ones resolved)."""
        sets = self.m.direction_sets
        per_player = [[] for _ in range(self.m.player_count)]
        for name in names:
            if name.id not in sets:
                from ..validation.diagnostics import suggest

                best = suggest(name.id, list(sets))
                if not any(self.m.forward) and name.id in ("forward", "backward", "sideways", "left", "right", "forward_diagonal", "backward_diagonal"):
                    raise RuleError(name.pos, f"'{name.id}' is relative to a player: give each player a 'forward' direction in the YAML")
                raise RuleError(name.pos, f"unknown direction '{name.id}'", f"did you mean '{best}'?" if best else None)
            for p in range(self.m.player_count):
                for d in sets[name.id][p]:
                    if d not in per_player[p]:
                        per_player[p].append(d)
        return [tuple(d) for d in per_player]

    def _distance(self, distance: A.Distance, scope: Scope):
        """(low, high, low_attribute): low and high as numbers when fixed, else
        closures (high None: unbounded); low_attribute the index of the attribute of
        the moving piece that `low` reads (`distance piece.ATTR`), else None."""
        low = self.x.compile(distance.low, scope)
        if low.type != "int":
            raise RuleError(distance.low.pos, f"a distance must be a number, found {describe(low)}")
        if low.deps & CANDIDATE_DEPS:
            raise RuleError(distance.low.pos, "a distance cannot depend on the landing site")
        low_v = low.const if low.is_const else low.fn
        if distance.unbounded:
            return low_v, None, low.piece_attr
        if distance.high is None:
            return low_v, low_v, low.piece_attr
        high = self.x.compile(distance.high, scope)
        if high.type != "int":
            raise RuleError(distance.high.pos, f"a distance must be a number, found {describe(high)}")
        return low_v, (high.const if high.is_const else high.fn), low.piece_attr

    def _template(self, text: str, pos, fields: tuple = TEMPLATE_FIELDS) -> tuple:
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
                    raise RuleError(pos, f"'{field}' has no meaning in this notation; it can use {', '.join(fields) or 'no field'}")
                raise RuleError(pos, f"unknown notation field '{field}'; the fields are {', '.join(fields) or 'none here'}")
            parts.append(field)
            rest = rest[j + 1 :]
        if not parts:
            raise RuleError(pos, "a notation cannot be empty")
        return tuple(parts)

    def _prepare(self, pattern) -> Callable:
        if isinstance(pattern, A.JumpPattern):
            return _prepare_jump
        if isinstance(pattern, A.DropPattern):
            self.fx._kind(pattern.kind, pattern.kind_pos)  # an unknown kind is a RuleError, not a KeyError
            kind = self.m.kinds[pattern.kind]
            fresh = [self.m.fresh_piece(-1 if kind.neutral else p, kind.index) for p in range(self.m.player_count)]

            def prepare_drop(f, code, fresh=fresh):
                f.frm = f.at = -1
                f.pc = fresh[f.p]
                to = code[2]
                f.to = to
                f.tg = f.b[to]
                f.js = -1
                f.jp = None

            return prepare_drop
        if isinstance(pattern, A.SelectPattern):
            return _prepare_select
        pools = {}
        for pool in self.m.pools.values():
            if pool.kind is not None:
                for p, site in enumerate(pool.sites):
                    if site != -1:
                        pools[site] = self.m.fresh_piece(p, pool.kind)

        def prepare_move(f, code, pools=pools):
            frm = code[1]
            b = f.b
            f.frm = f.at = frm
            p = b[frm]
            f.pc = p if p is not None else pools.get(frm)
            to = code[2]
            f.to = to
            f.tg = b[to] if to != -1 else None
            f.js = -1
            f.jp = None

        return prepare_move


def _prepare_jump(f, code):
    frm = code[1]
    b = f.b
    f.frm = f.at = frm
    f.pc = b[frm]
    f.to = code[2]
    f.tg = None
    f.js = code[3]
    f.jp = b[code[3]]


def _prepare_select(f, code):
    f.frm = f.at = -1
    f.pc = None
    f.to = code[2]
    f.tg = f.b[code[2]]
    f.js = -1
    f.jp = None


def _prepare_nothing(f, code):
    f.frm = f.at = f.to = f.js = -1
    f.pc = f.tg = f.jp = None


def _movers(action: A.Action, model: GameModel):
    """The kinds an action can move, or None when it is not limited to kinds."""
    if not action.by or any(b.same_piece for b in action.by):
        return None
    kinds = set()
    for b in action.by:
        if b.kind is not None and b.kind in model.kinds:
            kinds.add(model.kinds[b.kind].index)
        elif b.pool is not None and b.pool in model.pools and model.pools[b.pool].kind is not None:
            kinds.add(model.pools[b.pool].kind)
    return kinds


def _as_fn(x):
    return x if callable(x) or x is None else (lambda f, x=x: x)


def _all(fns: list) -> Optional[Callable]:
    if not fns:
        return None
    if len(fns) == 1:
        return fns[0]
    if len(fns) == 2:
        a, b = fns
        return lambda f: a(f) and b(f)
    fns_t = tuple(fns)
    return lambda f: all(fn(f) for fn in fns_t)


def _allowed_cases(pattern) -> list:
    onto = [("onto", w) for w in ("empty", "enemy", "own", "neutral")]
    if isinstance(pattern, A.JumpPattern):
        return [("over", w) for w in ("enemy", "own", "neutral", "any")]
    if isinstance(pattern, A.LeapPattern):
        return onto + [("off", "board")]
    return onto


def _pattern_word(pattern) -> str:
    return type(pattern).__name__.replace("Pattern", "").lower()


def _default_notation(pattern, key) -> str:
    if isinstance(pattern, A.DropPattern):
        return "@{to}"
    if isinstance(pattern, A.SelectPattern):
        return "{to}"
    return DEFAULT_NOTATION[key]
