"""`play the longest turn[, then the highest|lowest EXPR]` of decisions → what the
runtime's search needs (runtime/longest.py): the tie-break's function, how many
decisions each step of a turn has left, the trial functions of the cases, and
the filter that wraps each such decision's lister.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Protocol

from ..parsing import ast
from ..runtime.compiled import CasePattern, Lister, Picker, Reached
from ..runtime.longest import LongestTurn, TurnSearch
from . import pyast
from .code import describe
from .errors import RuleError
from .expressions import ExpressionCompiler
from .registers import with_registers
from .scope import Scope
from .source import Origin, Source
from .types import Type

if TYPE_CHECKING:
    from .cases import CaseWriter, PhaseCode
    from .compiled import CaseCode
    from .decisions import DecisionPlan

TIEBREAK_WHERE = "the tie-break of 'play the longest turn' (asked at the end of the turn)"


class LongestListers(NamedTuple):
    """A decision's listers wrapped in its longest-turn filter, its pick for
    random playouts and what its listing played, for perft (runtime/compiled.py:
    DecisionInfo)."""

    legal: Lister
    legal_with_duplicates: Lister
    pick: Picker
    reached: Reached


class GameCompiling(Protocol):
    """What the longest turns read of the game's compiler (compiler.py)."""

    src: Source
    exprs: ExpressionCompiler
    cases: list[CaseCode]
    errors: list[RuleError]
    warnings: list[RuleError]

    def scope(self, available: Any, where: str, piece_always: bool = False, followups: bool = False,
              **modes: Any) -> Scope: ...


class LongestTurns:
    """The decisions with `play the longest turn`, compiled in three steps: `check`
    (with the rules), `write` (the trial functions, with the cases), `bind` (the
    filters, once the module is compiled)."""

    def __init__(self, compiler: GameCompiling):
        self.compiler = compiler
        self.tiebreaks: dict[int, str] = {}  # decision index -> the function of its tie-break
        self.trial_names: list[list[Optional[str]]] = []
        self.horizons: list[tuple[Optional[int], ...]] = []

    def any(self, plans: list[Optional[DecisionPlan]]) -> bool:
        return any(plan is not None and plan.longest is not None for plan in plans)

    def check(self, plans: list[Optional[DecisionPlan]], phases: list[PhaseCode], writer: CaseWriter) -> None:
        """The tie-breaks compiled, the turns' lengths worked out, a rule that can
        change nothing warned about."""
        self.horizons = [self._horizons(phase, writer) for phase in phases]
        for index, plan in enumerate(plans):
            if plan is None or plan.longest is None:
                continue
            longest = plan.longest
            if longest.tiebreak is not None:
                name = self._tiebreak(longest.tiebreak, plan.name)
                if name is not None:
                    self.tiebreaks[index] = name
            self._warn_if_alone(index, plan, phases, writer)

    def _tiebreak(self, e: ast.Expr, decision: str) -> Optional[str]:
        compiler = self.compiler
        src = compiler.src
        origin = Origin(f"decision '{decision}': the tie-break of 'play the longest turn'", e.pos)
        try:
            with src.origin(origin):
                lines, c = compiler.exprs.lowered(e, compiler.scope((), TIEBREAK_WHERE))
        except RuleError as err:
            compiler.errors.append(err)
            return None
        if c.type is not Type.INT:
            compiler.errors.append(RuleError(e.pos, f"the tie-break of 'play the longest turn' must be a number, "
                                                    f"found {describe(c)}"))
            return None
        body = with_registers(list(lines) + [pyast.return_(c.code)], player_loaded=True)
        return src.function(src.fresh("f"), ["s", "p"], body, origin)

    def _horizons(self, phase: PhaseCode, writer: CaseWriter) -> tuple[Optional[int], ...]:
        """For each step of the phase's turn: how many decisions are left to the end
        of the turn or the next chance event, when no follow-up can start (else None)."""
        turn = phase.info.turn
        if any(isinstance(e, tuple) for e in writer._phase_effects(phase)):
            return (None,) * len(turn)
        chance = {case.decision for case in self.compiler.cases if case.pattern is CasePattern.CHANCE}
        left = []
        for step in range(len(turn)):
            count = 0
            for decision in turn[step:]:
                if decision in chance:
                    break
                count += 1
            left.append(count)
        return tuple(left)

    def _warn_if_alone(self, index: int, plan: DecisionPlan, phases: list[PhaseCode], writer: CaseWriter) -> None:
        """`play the longest turn` where no turn through the decision can have a
        second action changes nothing."""
        places = [(p, step) for p, phase in enumerate(phases) for step, d in enumerate(phase.info.turn) if d == index]
        followed = any(isinstance(e, tuple) and e[1] == index for case in self.compiler.cases
                       for e in writer._effects_of(case))
        if followed or not places:
            return
        if all(self.horizons[p][step] is not None and (self.horizons[p][step] or 0) <= 1 for p, step in places):
            assert plan.longest is not None
            self.compiler.warnings.append(RuleError(
                plan.longest.pos, f"'play the longest turn' changes nothing in decision '{plan.name}': no turn "
                                  "has an action after it (no follow-up, no later decision)",
                "it keeps the actions that begin the longest rest of the turn; here the rest is the action alone",
            ))

    def write(self, writer: CaseWriter) -> None:
        self.trial_names = writer.write_trials()

    def bind(self, namespace: dict[str, Any], plans: list[Optional[DecisionPlan]], listers: list[Optional[Lister]],
             every: list[Optional[Lister]], counts: Optional[list[int]]) -> dict[int, LongestListers]:
        """The filters of the decisions with `play the longest turn`, by decision
        index, made of their listers (`listers`: by decision, None for a chance
        event; `every`: the listers keeping two codes of one notation, where they
        differ, else None)."""
        passes = frozenset(i for i, case in enumerate(self.compiler.cases) if case.pattern is CasePattern.PASS)
        trials = [[namespace[name] if name else None for name in row] for row in self.trial_names]
        search = TurnSearch(trials, listers, passes, self.horizons, counts)
        filters: dict[int, LongestListers] = {}
        for index, (plan, lister) in enumerate(zip(plans, listers)):
            if plan is None or plan.longest is None or lister is None:
                continue
            tiebreak = namespace[self.tiebreaks[index]] if index in self.tiebreaks else None
            pos = plan.longest.pos
            wrapped = LongestTurn(search, lister, pos, tiebreak, plan.longest.highest)
            search.filters[index] = wrapped
            duplicates = every[index]
            with_duplicates = wrapped if duplicates is None else LongestTurn(search, duplicates, pos, tiebreak,
                                                                             plan.longest.highest)
            filters[index] = LongestListers(wrapped, with_duplicates, wrapped.pick, wrapped.reached)
        return filters
