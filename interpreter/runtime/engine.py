"""Runs compiled rules: legal actions, applying one, turn order, the result.

Nothing here knows any game; the compiler hands over `CompiledRules` — closures
and tables — and the engine sequences them: the decisions of a turn, follow-up
decisions started by `then`, the end of a turn, phase changes and the end of the
game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from .state import Frame, State

CHANCE = -2  # `to_move` index of the chance player


@dataclass
class CaseRuntime:
    """One way an action can turn out (an action's `onto empty` case, a chance event, ...)."""

    decision: int
    effect: Callable
    prepare: Callable  # (frame, code) -> None: sets the registers the effects read
    template: tuple  # notation parts: literal strings and field names
    label: str  # "action leap, onto enemy" — for messages
    pos: object  # source position of the case
    after: Optional[Callable] = None  # its decision's `after each action` (set when that is compiled)

    def runner(self) -> Callable:
        """run(frame, code): set the registers, apply the effect and, unless that
        ended the game, the decision's after-rules — one call per action for the
        engine instead of three, and no look-up of the parts."""
        prepare, effect, after = self.prepare, self.effect, self.after
        if after is None:
            def run(f, code):
                prepare(f, code)
                effect(f)

            return run

        def run_then_after(f, code):
            prepare(f, code)
            effect(f)
            if f.s.result is None:
                after(f)

        return run_then_after


@dataclass
class DecisionRuntime:
    name: str
    is_chance: bool
    gen: Callable  # (frame, out) -> None
    after: Optional[Callable] = None
    pos: object = None  # source position, for runtime errors
    # chance events only
    outcome_values: tuple = ()
    outcome_labels: tuple = ()
    probabilities: tuple = ()
    codes: tuple = ()  # chance events: every outcome's action code
    uniform: bool = False  # chance events: all outcomes equally likely


@dataclass
class PhaseRuntime:
    name: str
    order: tuple  # player indices in turn order
    turn: tuple  # decision indices taken in sequence in each turn
    after_turn: Optional[Callable] = None
    after_action: Optional[Callable] = None
    no_action: Optional[Callable] = None
    successor: dict = field(default_factory=dict)
    pos: object = None


@dataclass
class CompiledRules:
    players: list  # names in play
    site_names: list
    decisions: list  # DecisionRuntime
    cases: list  # CaseRuntime
    phases: list  # PhaseRuntime
    initial_board: list
    initial_vars: list
    score: Optional[Callable]  # (frame) -> number for frame.p
    local_slots: int


class RuleRuntimeError(Exception):
    """The rules did something impossible at run time (reported with the rule's position)."""

    def __init__(self, pos, message: str):
        super().__init__(f"{pos}: {message}" if pos else message)
        self.pos = pos
        self.message = message


class Engine:
    def __init__(self, rules: CompiledRules):
        self.r = rules
        self.frame = Frame(rules.local_slots)
        self.n_players = len(rules.players)
        self.cases = rules.cases
        self.decisions = rules.decisions
        self.runs = [case.runner() for case in rules.cases]
        self.phases = rules.phases
        # following[phase][player]: who plays after `player` (lists: no hashing per turn)
        self.following = [
            [phase.successor.get(p, phase.order[0]) for p in range(self.n_players)] for phase in rules.phases
        ]
        # How often a game ended because nobody could act and the phase said nothing
        # about it (the default: the game ends by the scores). Lint reports it.
        self.default_endings = 0
        self.coverage = None  # RuleCoverage when enabled
        self._ending_probes: dict = {}

    def enable_coverage(self, items):
        """Count the cases applied and the endings (see runtime/coverage.py)."""
        from .coverage import RuleCoverage

        cov = RuleCoverage()
        for i, case in enumerate(self.cases):
            probe = cov.add("case", case.label, case.pos)
            run = self.runs[i]

            def counted(f, code, run=run, probe=probe, counts=cov.counts):
                counts[probe] += 1
                run(f, code)

            self.runs[i] = counted
        for pos, label in _ending_statements(items):
            self._ending_probes[pos] = cov.add("ending", label, pos)
        for phase in self.phases:
            self._ending_probes[("no action", phase.pos)] = cov.add(
                "ending", f"phase '{phase.name}': no legal action", phase.pos
            )
        self.coverage = cov
        return cov

    # ------------------------------------------------------------ positions
    def initial_state(self) -> State:
        r = self.r
        s = State.__new__(State)
        s.board = list(r.initial_board)
        s.occ = [[] for _ in range(self.n_players + 1)]
        for site, piece in enumerate(s.board):
            if piece is not None:
                s.occ[piece[0]].append(site)
        s.vars = list(r.initial_vars)
        s.phase = 0
        phase = r.phases[0]
        s.player = phase.order[0]
        s.step = 0
        s.decision = phase.turn[0]
        s.carry = -1
        s.ply = 0
        s.result = None
        s.next_player = -1
        s.next_phase = -1
        s.last = None
        s.legal = None
        s.ending = None
        return s

    # ------------------------------------------------------------ the fast layer
    # Tools that play many games (bench, perft, lint, MCTS, analysis) use these with
    # action codes instead of `Action` objects; see docs/api.md, "The fast layer".
    def copy(self, s: State) -> State:
        return s.copy()

    def is_over(self, s: State) -> bool:
        return self.to_move(s) is None

    def outcome(self, s: State) -> Optional[tuple]:
        """(winner index or -1, scores tuple) once the game is over, else None."""
        if self.to_move(s) is not None:
            return None
        return s.result

    def ending(self, s: State) -> Optional[tuple]:
        """(how, source position) of the rule that ended the game, or None: how is
        "win", "lose", "draw", "score" (an `end game`) or "no action" (nobody could
        act and the phase says nothing)."""
        if self.to_move(s) is not None:
            return None
        return s.ending

    def scores(self, s: State) -> Optional[tuple]:
        """The `score` rule evaluated on this position, per player index (None
        without a score rule)."""
        if self.r.score is None:
            return None
        return _scores(self.frame.bind(s), self.r.score, self.n_players)

    def to_move(self, s: State) -> Optional[int]:
        """Player index, CHANCE, or None when the game is over."""
        if s.result is None:
            self.legal(s)
        if s.result is not None:
            return None
        return CHANCE if self.r.decisions[s.decision].is_chance else s.player

    # ------------------------------------------------------------ legal actions
    def legal(self, s: State) -> list:
        legal = s.legal
        if legal is not None:
            return legal
        if s.result is not None:
            s.legal = []
            return s.legal
        decision = self.decisions[s.decision]
        if decision.is_chance:
            # The outcomes of a chance event are fixed when the rules are compiled.
            s.legal = out = list(decision.codes)
            return out
        f = self.frame
        f.bind(s)
        out: list = []
        try:
            decision.gen(f, out)
        except Exception as exc:  # a rule failed while listing actions: say which
            raise _runtime_error(exc, decision.pos, f"while listing the actions of '{decision.name}'") from exc
        if not out:
            self._no_action(s)
        s.legal = out
        return out

    def _no_action(self, s: State) -> None:
        phase = self.r.phases[s.phase]
        f = self.frame.bind(s)
        if phase.no_action is not None:
            phase.no_action(f)
        else:
            end_game(self, f, "score", -1, ("no action", phase.pos))
            s.ending = ("no action", phase.pos)
            self.default_endings += 1
        if s.result is None:
            raise RuleRuntimeError(
                phase.pos,
                f"{self.r.players[s.player]} has no legal action in phase '{phase.name}' "
                f"and the phase's 'if no action' rule did not end the game",
            )

    # ------------------------------------------------------------ applying
    def apply_in_place(self, s: State, code: tuple) -> None:
        f = self.frame
        f.s = s
        f.b = s.board
        f.v = s.vars
        f.o = s.occ
        f.p = s.player
        f.followup = -1
        phase = self.phases[s.phase]
        try:
            self.runs[code[0]](f, code)
            # A game that has just ended ends at once: nothing more happens.
            if phase.after_action is not None and s.result is None:
                phase.after_action(f)
        except Exception as exc:  # a rule failed while applying: say which
            case = self.cases[code[0]]
            raise _runtime_error(exc, case.pos, f"while applying {case.label}") from exc
        s.ply += 1
        s.last = code
        s.legal = None
        if s.result is not None:
            return
        if f.followup >= 0:
            s.decision = f.followup
            s.carry = f.at
            return
        s.carry = -1
        step = s.step + 1
        turn = phase.turn
        if step < len(turn):
            s.step = step
            s.decision = turn[step]
            return
        s.step = step
        # The end of the turn (written here rather than in a method: it follows most actions).
        if phase.after_turn is not None:
            f.p = s.player
            try:
                phase.after_turn(f)
            except Exception as exc:
                raise _runtime_error(exc, phase.pos, f"at the end of a turn of phase '{phase.name}'") from exc
            if s.result is not None:
                return
        if s.next_phase >= 0:
            phase = self.phases[s.next_phase]
            s.phase = s.next_phase
            s.next_phase = -1
            s.player = s.next_player if s.next_player >= 0 else phase.order[0]
        else:
            s.player = s.next_player if s.next_player >= 0 else self.following[s.phase][s.player]
        s.next_player = -1
        s.step = 0
        s.decision = phase.turn[0]

    # ------------------------------------------------------------ notation
    def notation(self, code: tuple) -> str:
        case = self.r.cases[code[0]]
        names = self.r.site_names
        parts = []
        for part in case.template:
            if part == "{from}":
                parts.append(names[code[1]] if code[1] >= 0 else "")
            elif part == "{to}":
                parts.append(names[code[2]] if code[2] >= 0 else "off")
            elif part == "{outcome}":
                parts.append(self.r.decisions[case.decision].outcome_labels[code[3]])
            else:
                parts.append(part)
        return "".join(parts)

    def chance_probabilities(self, s: State) -> list[tuple[tuple, float]]:
        decision = self.r.decisions[s.decision]
        return [(code, decision.probabilities[code[3]]) for code in self.legal(s)]


def _runtime_error(exc: Exception, pos, doing: str) -> "RuleRuntimeError":
    """A failure inside compiled rules, pinned to the rule that was running."""
    if isinstance(exc, RuleRuntimeError):
        return exc
    inner_pos = getattr(exc, "pos", None)
    message = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
    return RuleRuntimeError(inner_pos or pos, f"{message} ({doing})")


def end_game(engine: "Engine", f: Frame, how: str, player: int, pos=None) -> None:
    """Record the result on the frame's state (the first ending counts); `pos` is
    the rule that ended the game (kept for `Engine.ending`)."""
    s = f.s
    if s.result is not None:
        return
    s.ending = (how, pos)
    if engine.coverage is not None:
        probe = engine._ending_probes.get(pos)
        if probe is not None:
            engine.coverage.counts[probe] += 1
    n = engine.n_players
    score = engine.r.score
    if how == "win":
        scores = _scores(f, score, n) if score else tuple(1 if i == player else 0 for i in range(n))
        s.result = (player, scores)
    elif how == "lose":
        winner = (1 - player) if n == 2 else -1
        scores = _scores(f, score, n) if score else tuple(0 if i == player else 1 for i in range(n))
        s.result = (winner, scores)
    elif how == "draw":
        scores = _scores(f, score, n) if score else (0,) * n
        s.result = (-1, scores)
    else:
        scores = _scores(f, score, n) if score else (0,) * n
        best = max(scores)
        winners = [i for i, x in enumerate(scores) if x == best]
        s.result = (winners[0] if len(winners) == 1 else -1, scores)


def _scores(f: Frame, score: Callable, n: int) -> tuple:
    saved = f.p
    try:
        values = []
        for i in range(n):
            f.p = i
            values.append(score(f))
        return tuple(values)
    finally:
        f.p = saved


def _ending_statements(items) -> list:
    """(pos, label) of every win/lose/draw/end game statement of the rules."""
    from dataclasses import fields, is_dataclass

    from ..parsing import ast as A

    words = {A.WinStmt: "win", A.LoseStmt: "lose", A.DrawStmt: "draw", A.EndStmt: "end game"}
    found: list = []
    seen: set = set()

    def visit(node) -> None:
        if isinstance(node, (list, tuple)):
            for x in node:
                visit(x)
            return
        if not is_dataclass(node) or isinstance(node, A.Pos) or id(node) in seen:
            return
        seen.add(id(node))
        if type(node) in words:
            found.append((node.pos, words[type(node)]))
        for fld in fields(node):
            visit(getattr(node, fld.name))

    for group in (items.phases, list(items.decisions.values()), list(items.chances.values()), list(items.procedures.values())):
        visit(group)
    return found
