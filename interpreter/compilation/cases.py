"""Cases → the generated functions that apply an action, and the phases' functions.

For each case and each phase, one function applies the case in that phase:

    def f12(s, code):
        b = s.board; ...            # the registers the body reads
        frm = at = code[1]          # set from the code, by the kind of pattern
        pc = b[frm]
        to = code[2]
        fu = -1                     # a follow-up decision asked by `then`
        <the case's statements>
        if s.result is None:
            <the decision's `after each action`>
        if s.result is None:
            <the phase's `after each action`>
        if s.result is None:        # the turn sequence (docs/format.md 3.15)
            ...

Each phase also gets the function that ends a turn (its `after each turn`, then
who plays next) and the one run when the player to move has no legal action.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, Optional

from .registers import write_body
from .source import Source
from ..runtime.results import NO_ACTION
from .actions import CaseInfo

# The lines that set each register of a case function, by the kind of pattern, in
# the order they must run; a register is set only when the function reads it.
PREPARE = {
    "move": (("frm", "frm = code[1]"), ("at", "at = frm"), ("pc", "pc = b[frm]"), ("to", "to = code[2]"),
             ("tg", "tg = b[to]"), ("js", "js = -1"), ("jp", "jp = None")),
    "jump": (("frm", "frm = code[1]"), ("at", "at = frm"), ("pc", "pc = b[frm]"), ("to", "to = code[2]"),
             ("tg", "tg = None"), ("js", "js = code[3]"), ("jp", "jp = b[js]")),
    "drop": (("frm", "frm = -1"), ("at", "at = -1"), ("pc", None), ("to", "to = code[2]"), ("tg", "tg = b[to]"),
             ("js", "js = -1"), ("jp", "jp = None")),
    "select": (("frm", "frm = -1"), ("at", "at = -1"), ("pc", "pc = None"), ("to", "to = code[2]"),
               ("tg", "tg = b[to]"), ("js", "js = -1"), ("jp", "jp = None")),
    "pass": (("frm", "frm = -1"), ("at", "at = -1"), ("pc", "pc = None"), ("to", "to = -1"), ("tg", "tg = None"),
             ("js", "js = -1"), ("jp", "jp = None")),
}
PREPARE["chance"] = (("ov", None),) + PREPARE["pass"]
# A register that needs another one set first.
NEEDS = {"pc": ("frm",), "at": ("frm",), "tg": ("to",), "jp": ("js",)}


@dataclass
class PhaseCode:
    """A phase's compiled parts: blocks are (captured lines, cost) or None."""

    info: object  # compiler.PhaseInfo
    after_turn: Optional[tuple]
    after_action: Optional[tuple]
    no_action: Optional[tuple]
    default_ending: Optional[int]  # the ending index used when nobody can act and no rule says
    before_turn: Optional[tuple] = None


# An `after each turn` of up to this many generated lines is written into every
# case that ends a turn rather than called.
INLINE_TURN_END = 12

class CaseWriter:
    def __init__(self, compiler, phases: list, decisions: list):
        self.turn_effects: frozenset = frozenset()  # of the phase being written (see _phase_effects)
        self.followed_up = False  # whether the case being written may be of a follow-up decision
        self.compiler = compiler
        self.src: Source = compiler.src
        self.phases = phases
        self.decisions = decisions
        self.model = compiler.model

    def write_all(self) -> list:
        """names[phase][case] of the functions applying each case in each phase."""
        names = []
        targets = {e[1] for case in self.compiler.cases for e in self._effects_of(case) if isinstance(e, tuple)}
        for index, phase in enumerate(self.phases):
            self.turn_effects = self._phase_effects(phase)
            turn_end = self._turn_end(index, phase)
            row = []
            for case_id, case in enumerate(self.compiler.cases):
                # What this case itself does counts too (a hand-made position may put
                # any decision in any phase).
                self.turn_effects = self._phase_effects(phase) | self._effects_of(case)
                self.followed_up = case.decision in targets
                row.append(self._case(case_id, case, phase, turn_end))
            names.append(row)
        return names

    def _effects_of(self, case: CaseInfo) -> frozenset:
        """What a case and its decision's `after each action` do to the turn."""
        after = case.after[2] if case.after else frozenset()
        return frozenset(case.effects) | frozenset(after)

    def _phase_effects(self, phase: PhaseCode) -> frozenset:
        """What the actions that can happen in a phase do to the turn: those of the
        decisions of its turn and of the follow-ups they start, and its own rules."""
        effects: set = set()
        for block in (phase.after_action, phase.after_turn, phase.before_turn):
            if block is not None:
                effects |= block[2]
        reachable = set(phase.info.turn) | {e[1] for e in effects if isinstance(e, tuple)}
        seen: set = set()
        while reachable - seen:
            decision = (reachable - seen).pop()
            seen.add(decision)
            for case in self.compiler.cases:
                if case.decision == decision:
                    more = self._effects_of(case)
                    effects |= more
                    reachable |= {e[1] for e in more if isinstance(e, tuple)}
        return frozenset(effects)

    def write_result_checks(self, condition: list) -> list:
        """names[phase][case] of the functions that play a case on a copy of the
        position and say whether a `forbid result` applies to what it leaves
        (None for chance events, which nothing forbids)."""
        names = []
        for phase in self.phases:
            row = []
            for case in self.compiler.cases:
                row.append(None if case.pattern == "chance" else self._check(case, phase, condition))
            names.append(row)
        return names

    def _check(self, case: CaseInfo, phase: PhaseCode, condition: list) -> str:
        src = self.src
        with src.capture() as body:
            src.paste(case.body)
            for block in (case.after, phase.after_action):
                if block is not None and block[0]:
                    with src.block("if s.result is None:"):
                        src.paste(block[0])
            for lines, code in condition:  # forbidden as soon as one holds
                src.paste(list(lines))
                with src.block(f"if {code}:"):
                    src.line("return True")
            src.line("return False")
        return self._case_function(case, body)

    # ------------------------------------------------------------ cases
    def _case(self, case_id: int, case: CaseInfo, phase: PhaseCode, turn_end: str) -> str:
        src = self.src
        with src.capture() as body:
            probe = self.compiler.probes.count("case", case.label, case.pos)
            if probe:
                src.line(probe)
            src.paste(case.body)
            ended = "end" in case.effects  # whether the game may have ended by now
            for block in (case.after, phase.after_action):
                if block is not None and block[0]:
                    with src.block("if s.result is None:") if ended else _flat():
                        src.paste(block[0])
                    ended = ended or "end" in block[2]
            self._sequence(phase, turn_end, uses_then=any("fu = " in line for line in body), decision=case.decision,
                           selects=case.pattern == "select", may_have_ended=ended)
        return self._case_function(case, body)

    def _case_function(self, case: CaseInfo, body: list) -> str:
        """Write `body` as the function `f(s, code)` of a case, its registers
        prepared as the body needs them; returns its name."""
        src = self.src
        words = set(re.findall(r"[A-Za-z_]\w*", "\n".join(body)))
        name = src.fresh("f")
        with src.block(f"def {name}(s, code):"):
            first = self._prepare(case, words) + (["fu = -1"] if "fu" in words else [])
            write_body(src, body, board=case.pattern in ("move", "jump", "drop", "select"), first=tuple(first))
        return name

    def _prepare(self, case: CaseInfo, words: set) -> list:
        needed = {r for r, _ in PREPARE[case.pattern] if r in words}
        for register in list(needed):
            needed.update(NEEDS.get(register, ()))
        lines = []
        for register, line in PREPARE[case.pattern]:
            if register not in needed:
                continue
            if register == "ov":
                line = f"ov = {case.outcomes}[code[4]]"
            elif register == "pc" and case.pattern == "drop":
                line = f"pc = {case.fresh_pieces}[p]"
            lines.append(line)
            if register == "pc" and case.pattern == "move" and self._has_pool_pieces():
                # A piece waiting in a pool stands on its pool's site without being on the board.
                lines.append(f"if pc is None: pc = {case.pool_pieces}[frm]")
        return lines

    def _has_pool_pieces(self) -> bool:
        return any(pool.kind is not None and any(s != -1 for s in pool.sites) for pool in self.model.pools.values())

    def _sequence(self, phase: PhaseCode, turn_end: str, uses_then: bool, decision: int, selects: bool = False,
                  may_have_ended: bool = True) -> None:
        """After the action: a follow-up decision, the next decision of the turn, or
        the end of the turn (unless the game has ended). The follow-up acts on the
        piece the action acted on: the acting piece, or the one a `select` chose."""
        src = self.src
        turn = phase.info.turn
        with src.block("if s.result is None:") if may_have_ended else _flat():
            if uses_then:
                with src.block("if fu >= 0:"):
                    src.line("s.decision = fu")
                    src.line("s.carry = to" if selects else "s.carry = at")
                    src.line("return")
            if self.followed_up:
                src.line("s.carry = -1")  # (a case of a follow-up decision: the piece it acted on is done with)
            if len(turn) > 1 and not self.followed_up and turn.count(decision) == 1:
                # the decision has one place in the turn: what follows it is known
                step = turn.index(decision) + 1
                if step < len(turn):
                    src.line(f"s.step = {step}")
                    src.line(f"s.decision = {turn[step]}")
                    return
            elif len(turn) > 1:
                src.line("x0 = s.step + 1")
                with src.block(f"if x0 < {len(turn)}:"):
                    src.line("s.step = x0")
                    src.line(f"s.decision = {src.const(turn)}[x0]")
                    src.line("return")
            after_turn = phase.after_turn
            if after_turn is None or not after_turn[0]:
                self._next_turn(phase, decision)  # written out: it follows most actions
            elif len(after_turn[0]) <= INLINE_TURN_END:
                src.paste(after_turn[0])
                with src.block("if s.result is None:") if "end" in after_turn[2] else _flat():
                    self._next_turn(phase, decision)
            else:
                src.line(f"{turn_end}(s)")

    # ------------------------------------------------------------ phases
    def _turn_end(self, index: int, phase: PhaseCode) -> str:
        """The function ending a turn of this phase: its `after each turn`, then the
        next player (and phase)."""
        src = self.src
        name = src.fresh("t")
        with src.capture() as body:
            if phase.after_turn is not None and phase.after_turn[0]:
                src.paste(phase.after_turn[0])
                if "end" in phase.after_turn[2]:
                    with src.block("if s.result is not None:"):
                        src.line("return")
            self._next_turn(phase)
        with src.block(f"def {name}(s):"):
            write_body(src, body)
        return name

    def _next_turn(self, phase: PhaseCode, decision: int = -1) -> None:
        """Who plays the next turn, and in which phase (docs/format.md 3.15, steps 5-7);
        `decision`: the one just taken, when known."""
        src = self.src
        info = phase.info
        following = tuple(
            info.order[(info.order.index(p) + 1) % len(info.order)] if p in info.order else info.order[0]
            for p in range(self.model.player_count)
        )
        next_player = "next player" in self.turn_effects
        if next_player:
            src.line("x1 = s.next_player")
            src.line("s.next_player = -1")
        if "next phase" in self.turn_effects:
            first = src.const(tuple(ph.info.order[0] for ph in self.phases))
            first_decision = src.const(tuple(ph.info.turn[0] for ph in self.phases))
            src.line("x0 = s.next_phase")
            with src.block("if x0 >= 0:"):
                src.line("s.phase = x0")
                src.line("s.next_phase = -1")
                src.line(f"s.player = x1 if x1 >= 0 else {first}[x0]" if next_player else f"s.player = {first}[x0]")
                src.line(f"s.decision = {first_decision}[x0]")
                src.line("s.step = 0")
                if self.compiler.turn_hooks:
                    src.line("s.turn_start = True")
                src.line("return")
        if self.compiler.turn_hooks:
            src.line("s.turn_start = True")
        following_code = f"{src.const(following)}[p]"  # (statements never change s.player itself)
        src.line(f"s.player = x1 if x1 >= 0 else {following_code}" if next_player else f"s.player = {following_code}")
        if not (decision == info.turn[0] and len(info.turn) == 1 and not self.followed_up):
            # (else the turn's one decision is the one just taken, at step 0)
            src.line(f"s.decision = {info.turn[0]}")
            src.line("s.step = 0")

    def write_before_turn(self, phase: PhaseCode) -> Optional[str]:
        """The function of the phase's `before each turn` rules, or None."""
        if phase.before_turn is None:
            return None
        src = self.src
        name = src.fresh("f")
        with src.block(f"def {name}(s, stuck, reps):"):
            write_body(src, phase.before_turn[0])
        return name

    def write_no_action(self, index: int, phase: PhaseCode) -> str:
        """The function run when the player to move has no legal action."""
        src = self.src
        name = src.fresh("f")
        with src.capture() as body:
            if phase.no_action is not None:
                src.paste(phase.no_action[0])
            else:
                src.line(f"h_end(s, {NO_ACTION}, -1, {phase.default_ending})")
        with src.block(f"def {name}(s, reps):"):
            write_body(src, body)
        return name


@contextmanager
def _flat() -> Iterator[None]:
    """No block: what is written inside stays at the current indentation."""
    yield
