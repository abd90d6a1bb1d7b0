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

import ast as py
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import Callable, Optional, Protocol, Sequence

from ..runtime.compiled import CasePattern
from ..runtime.pieces import CHOICE, DESTINATION, JUMPED, KIND, ORIGIN, OWNER
from ..runtime.results import EndingKind
from . import clearances, kept_paths, pyast, result_reuse, result_terms
from .asked_before import asked_before
from .compiled import Block, CaseCode, PhaseOutline
from .conditions import Condition
from .journal import WRITTEN, in_place
from .lone_pieces import (
    lone_anchors,
    mover_first,
    mover_list_kept,
    mover_list_unchanged,
    noting_reads,
    read_through_board,
)
from .model import GameModel
from .probes import Probes
from .registers import with_registers
from .restrictions import ResultPart
from .scope import Effect
from .source import Origin, Source
from .tabulate import worked_out

_S, _CODE, _FRM, _TO = pyast.name("s"), pyast.name("code"), pyast.name("frm"), pyast.name("to")
_NOWHERE = pyast.num(-1)


def _code_field(i: int) -> py.expr:
    return pyast.sub(_CODE, i)


def _on_board(register: str) -> py.expr:
    return pyast.sub(pyast.name("b"), pyast.name(register))


# What sets each register of a case function, by the kind of pattern, in the order
# they must run (None: set specially, see CaseWriter._prepare); a register is set
# only when the function reads it.
PREPARE: dict[CasePattern, tuple[tuple[str, Optional[py.expr]], ...]] = {
    CasePattern.MOVE: (
        ("frm", _code_field(ORIGIN)), ("at", _FRM), ("pc", _on_board("frm")), ("to", _code_field(DESTINATION)),
        ("tg", _on_board("to")), ("js", _NOWHERE), ("jp", pyast.none())),
    CasePattern.JUMP: (
        ("frm", _code_field(ORIGIN)), ("at", _FRM), ("pc", _on_board("frm")), ("to", _code_field(DESTINATION)),
        ("tg", pyast.none()), ("js", _code_field(JUMPED)), ("jp", _on_board("js"))),
    # a slide over a screen: jumped is the screen, the landing site may hold a piece
    CasePattern.SCREEN: (
        ("frm", _code_field(ORIGIN)), ("at", _FRM), ("pc", _on_board("frm")), ("to", _code_field(DESTINATION)),
        ("tg", _on_board("to")), ("js", _code_field(JUMPED)), ("jp", _on_board("js"))),
    CasePattern.DROP: (
        ("frm", _NOWHERE), ("at", _NOWHERE), ("pc", None), ("to", _code_field(DESTINATION)), ("tg", _on_board("to")),
        ("js", _NOWHERE), ("jp", pyast.none())),
    CasePattern.SELECT: (
        ("frm", _NOWHERE), ("at", _NOWHERE), ("pc", pyast.none()), ("to", _code_field(DESTINATION)),
        ("tg", _on_board("to")), ("js", _NOWHERE), ("jp", pyast.none())),
    CasePattern.PASS: (
        ("frm", _NOWHERE), ("at", _NOWHERE), ("pc", pyast.none()), ("to", _NOWHERE), ("tg", pyast.none()),
        ("js", _NOWHERE), ("jp", pyast.none())),
}
PREPARE[CasePattern.CHANCE] = (("ov", None),) + PREPARE[CasePattern.PASS]
# A register that needs another one set first.
NEEDS = {"pc": ("frm",), "at": ("frm",), "tg": ("to",), "jp": ("js",)}
# A part's answer a clearance finds: (its local, memo slot, recording function, the
# helper finding it, how it is kept across listings, the site lists its loops walk,
# whether its anchors are lone: ParentAnswer.lone).
ClearanceEntry = tuple[str, int, str, str, str, tuple[int, ...], bool]


# (the most players × landings a drop's writes are worked out for: `_writes_told_made`)
_MOST_WORKED_OUT = 20000
# Whether a drop's check asks its kept answer before its case alone where the test
# after the case would ask the same (`_drop_answered_before`); off for the tests
ASKED_ONCE = True


@dataclass
class PhaseCode:
    """A phase's compiled parts: blocks are (statements, cost, effects) or None."""

    info: PhaseOutline
    after_turn: Optional[Block]
    after_action: Optional[Block]
    no_action: Optional[Block]
    default_ending: Optional[int]  # the ending index used when nobody can act and no rule says
    before_turn: Optional[Block] = None


@dataclass(frozen=True)
class Turn:
    """What the functions ending a case in a phase must handle: what the actions
    that can happen do to the turn (`next player`, `next phase`, follow-ups, the
    end), and whether the case may be of a follow-up decision."""

    effects: frozenset[Effect]
    followed_up: bool = False


@dataclass(frozen=True)
class ParentAnswer:
    """How the checks reuse the listed position's answer of a `forbid result`
    part (result_reuse.py): the local holding it (`entry`: the answer and the
    bitmask of the sites read, or None), its `slot` in a listing's memo, the
    function finding it (`record`), the function testing whether a piece at a
    site is one the part's loops visit (`anchor`, "" without loops), the plan."""

    entry: str
    slot: int
    record: str
    anchor: str
    plan: result_reuse.Plan
    # whether its terms and point tests read a piece's owner and kind alone
    # (result_terms.py): then a move's places can be asked before it is played
    plain_terms: bool = False
    # whether its loops' anchors are of a kind no player has two of (lone_pieces.lone_anchors)
    lone: bool = False

    @property
    def kept(self) -> str:
        """How the call finding the entry keeps it across listings: "" not kept,
        "None" kept by a part without loops, else its anchor function's name
        (result_reuse.Plan.kept_argument)."""
        argument = self.plan.kept_argument(self.anchor)
        return "" if not argument else self.anchor or "None"

    @property
    def kept_arguments(self) -> list[py.expr]:
        """The last arguments of the call finding the entry (result_reuse.Plan.kept_argument)."""
        return self.plan.kept_argument(self.anchor, self.lone)


class GameCompiling(Protocol):
    """What a CaseWriter reads of the game's compiler (compiler.py)."""

    model: GameModel
    src: Source
    cases: list[CaseCode]
    probes: Probes
    result_code: list[ResultPart]

    @property
    def turn_hooks(self) -> bool: ...

    def result_reads_attributes(self, attributes: frozenset[str]) -> bool: ...

    def neutral_kinds(self) -> frozenset[int]: ...


# The helper giving a `forbid result` part's answer for the opponent (runtime/kept_answers.py).
OPPONENT_ANSWER = "h_answer_for_opponent"
# Whether such a test asks it (`CaseWriter._turn_end_answer_shared`): for the tests comparing the two.
TURN_END_SHARED = True
# An `after each turn` of up to this many generated lines is written into every
# case that ends a turn rather than called.
INLINE_TURN_END = 12
# A case's own statements of more than this many generated lines are written once
# for the phases play does not bring it to (`_SharedBody`); a shorter body is written
# into each, as a call of it would not be much shorter.
SHARED_BODY_LINES = 24


class CaseWriter:
    def __init__(self, compiler: GameCompiling, phases: list[PhaseCode], single_kinds: frozenset[int] = frozenset()):
        self.compiler = compiler
        # the kinds of which no player ever has two pieces (single_kinds.py): a check of a move
        # of one asks a part's loop over its owner's pieces of that kind at the mover's site first
        self.single_kinds = single_kinds
        self.src = compiler.src
        self.phases = phases
        self.model = compiler.model
        # the `forbid result` parts the listed position answers for its candidates, by id of their code
        self._parents: dict[int, Optional[ParentAnswer]] = {}
        self._answers: dict[str, ParentAnswer] = {}  # the same by the local holding the answer
        self._answered_early = False  # whether the check being written answers moves before playing them
        # (the entries of the parts whose kept answer the check being written asks before its case exactly as
        # it would after it: `_drop_answered_before`)
        self._after_repeats: frozenset[str] = frozenset()
        # the clearance of the check being written (a drop's, asked once per listing: clearances.py), or ""
        self._clearance = ""
        # whether the clearance's table of places holds every place worked out, and the pieces the drop of
        # the check being written puts (result_reuse.board_writes): for its screen's kept paths, kept_paths.py
        self._places_known = False
        self._drop_pieces: Optional[list[py.expr]] = None
        # by check: its clearance
        self.clearances: dict[str, str] = {}
        # check -> (the lone kind whose moves' answers are kept by code, the check noting the sites it
        # reads: runtime/kept_answers.KeptByMove)
        self.kept_by_move: dict[str, tuple[int, str]] = {}
        self._kept_kind: Optional[int] = None  # (what the last `_check_body` found of it)
        # (and whether that answer is kept only where the loops went over the mover: lone_pieces.mover_list_kept)
        self._kept_guarded = False
        # by check with a clearance: its screen, where it asks conjuncts before its case (clearances.py)
        self.screens: dict[str, str] = {}
        # the clearances of moves (their places the code's origin and destination), by the
        # answers they find (one function for the cases finding the same)
        # (by the parts' answers and, by player, the sites no candidate is let through at)
        self.move_clearances: dict[tuple[tuple[ClearanceEntry, ...], tuple[int, ...], bool], str] = {}
        # the checks of moves sharing a clearance that gives the terms' runs whose candidates may not be
        # let through by the runs (a promotion's: `moved_answer` moves the piece as it is), and whether
        # the check being written is one
        self.unmoved: set[str] = set()
        self._unmoved = False
        # by phase (its id): what the actions that can happen in it do, the decisions they reach
        self._reach: dict[int, tuple[frozenset[Effect], frozenset[int]]] = {}

    def write_all(self) -> list[list[str]]:
        """names[phase][case] of the functions applying each case in each phase."""
        names = []
        targets = {e[1] for case in self.compiler.cases for e in self._effects_of(case) if isinstance(e, tuple)}
        shared = self._shared_bodies()
        for phase in self.phases:
            self._turn_end_answer_shared(phase)
        for phase in self.phases:
            turn_end = self._turn_end(phase, Turn(self._phase_effects(phase)))
            reached = self._reached(phase)
            row = []
            for case_index, case in enumerate(self.compiler.cases):
                # What this case itself does counts too (a hand-made position may put
                # any decision in any phase).
                turn = Turn(self._phase_effects(phase) | self._effects_of(case), case.decision in targets)
                body = shared.get(case_index) if case.decision not in reached else None
                row.append(self._case(case, phase, turn_end, turn, shared_body=body))
            names.append(row)
        return names

    def _shared_bodies(self) -> dict[int, "_SharedBody"]:
        """By case index: the cases (of chance events and actions alike) whose
        decision play brings to none of two phases or more, their body written
        once for those phases (`_SharedBody`): a hand-made position may put a
        decision in any phase, so a case is written for each, but the body pasted
        into every phase's function made most of the code to load where a
        definition has many cases (one event per count of cards left, an action
        per card) and phases. The phases play brings it to keep it written out
        (no call more where the games are played)."""
        unreached: dict[int, int] = {}
        for phase in self.phases:
            reached = self._reached(phase)
            for index, case in enumerate(self.compiler.cases):
                if case.decision not in reached:
                    unreached[index] = unreached.get(index, 0) + 1
        shared = {}
        for index, count in unreached.items():
            case = self.compiler.cases[index]
            if count >= 2:
                body = _SharedBody(self, case)
                if body.usable and pyast.line_count(body.body) > SHARED_BODY_LINES:
                    shared[index] = body
        return shared

    def write_trials(self) -> list[list[Optional[str]]]:
        """names[phase][case] of the functions that play a case on a copy for `play
        the longest turn` (runtime/longest.py): the case, its `after each action`
        rules and the turn sequence up to the end of the turn, where they return
        True instead of ending it (None for chance events, which end the way)."""
        names = []
        targets = {e[1] for case in self.compiler.cases for e in self._effects_of(case) if isinstance(e, tuple)}
        for phase in self.phases:
            row: list[Optional[str]] = []
            for case in self.compiler.cases:
                if case.pattern is CasePattern.CHANCE:
                    row.append(None)
                    continue
                turn = Turn(self._phase_effects(phase) | self._effects_of(case), case.decision in targets)
                row.append(self._case(case, phase, "", turn, trial=True))
            names.append(row)
        return names

    def _effects_of(self, case: CaseCode) -> frozenset[Effect]:
        """What a case and its decision's `after each action` do to the turn."""
        after = case.after[2] if case.after else frozenset()
        return frozenset(case.effects) | frozenset(after)

    def _phase_effects(self, phase: PhaseCode) -> frozenset[Effect]:
        """What the actions that can happen in a phase do to the turn: those of the
        decisions of its turn and of the follow-ups they start, and its own rules."""
        return self._phase_reach(phase)[0]

    def _reached(self, phase: PhaseCode) -> frozenset[int]:
        """The decisions that can come in a phase in play: those of its turn and the
        follow-ups (`then`) they and its rules start."""
        return self._phase_reach(phase)[1]

    def _phase_reach(self, phase: PhaseCode) -> tuple[frozenset[Effect], frozenset[int]]:
        found = self._reach.get(id(phase))  # (asked for every case of every phase)
        if found is None:
            found = self._reach[id(phase)] = self._phase_reach_found(phase)
        return found

    def _phase_reach_found(self, phase: PhaseCode) -> tuple[frozenset[Effect], frozenset[int]]:
        effects: set[Effect] = set()
        for block in (phase.after_action, phase.after_turn, phase.before_turn):
            if block is not None:
                effects |= block[2]
        reachable = set(phase.info.turn) | {e[1] for e in effects if isinstance(e, tuple)}
        seen: set[int] = set()
        while reachable - seen:
            decision = (reachable - seen).pop()
            seen.add(decision)
            for case in self.compiler.cases:
                if case.decision == decision:
                    more = self._effects_of(case)
                    effects |= more
                    reachable |= {e[1] for e in more if isinstance(e, tuple)}
        return frozenset(effects), frozenset(reachable)

    def write_result_checks(
        self, condition_for: Callable[[Optional[frozenset[int]]], list[ResultPart]]
    ) -> list[list[Optional[str]]]:
        """names[phase][case] of the functions that play a case on the position
        (tried in place and undone, or on a copy: journal.py) and say whether a
        `forbid result` applies to what it leaves (None for chance events, which
        nothing forbids, and for a case no part of whose condition can hold:
        `condition_for(kinds)`, the parts for an acting piece of those kinds, left
        none): true when one does — with coverage, the number of the line's probe
        plus one (helpers.result_filter counts it)."""
        names = []
        for phase in self.phases:
            row: list[Optional[str]] = []
            for case in self.compiler.cases:
                if case.pattern is CasePattern.CHANCE:
                    row.append(None)
                    continue
                if case.checked_body is not None:  # (what its check plays: actions._checked_statements)
                    case = replace(case, body=case.checked_body)
                kinds = case.piece_kinds if not _changes_piece(case, self._checked_after(case, phase)) else None
                condition = condition_for(kinds)
                row.append(self._check(case, phase, condition) if condition else None)
            names.append(row)
        return names

    def write_deferred_check(self, case: CaseCode, condition: Condition) -> str:
        """The name of `f(s, code)`: true when `condition`, the `where` conjuncts
        its candidates were listed without (actions.ActionPlan.deferred), fails for
        the action `code` on `s` (asked before the case is played)."""
        src = self.src
        what = f"{case.label}: the conditions asked of a drawn candidate"
        with src.origin(Origin(what, case.pos)), src.capture() as body:
            with condition.holds(src):
                src.add(pyast.return_(pyast.false()))
            src.add(pyast.return_(pyast.true()))
        # (a check's signature: listings pass their memo, which this one leaves alone)
        return self._case_function(case, body, what, check=True)

    def _check(self, case: CaseCode, phase: PhaseCode, condition: list[ResultPart]) -> str:
        what = f"{case.label}: whether 'forbid result' forbids it, in phase '{phase.info.name}'"
        # Tried on the position itself and undone where the journal covers what the
        # case does, parts the listed position answers for it asked only when the
        # case may change their answer (result_reuse.py); else on a copy (journal.py).
        aliases = {"at": "frm"} if dict(PREPARE[case.pattern]).get("at") is _FRM else None
        lookups: list[py.stmt] = []
        body = self._check_body(case, phase, condition, lookups)
        self._clearance = ""
        self._places_known = False
        self._drop_pieces = None
        self._unmoved = False
        self._after_repeats = frozenset()
        early = self._answered_before(case, phase, condition)
        self._answered_early = bool(early)
        if self._after_repeats:  # (the kept answer asked once, before the case: written again without the second)
            lookups = []
            body = self._check_body(case, phase, condition, lookups, self._after_repeats)
        kept_kind, guarded = self._kept_kind, self._kept_guarded
        tried = in_place(body, self.src.fresh, aliases, self._answer_kept)
        if tried is None:
            body = self._check_body(case, phase, condition, None)
            return self._case_function(case, body, what, on_copy=True, check=True)
        # (conjuncts reading nothing the case writes, asked before it: asked_before.py)
        settled = [] if self._has_pool_pieces() else asked_before(
            case.pattern, _played(case, self._checked_after(case, phase)), condition, dict(PREPARE[case.pattern]),
            self.src,
            self.model.board.size, self.model.player_count)
        # (with a clearance, the candidates checked are those whose places the listed
        # position's answers read or tested: the conjuncts asked first, before the
        # answers are even looked up)
        first = settled + lookups + early if self._clearance else lookups + early + settled
        name = self._case_function(case, first + tried.statements(), what, check=True)
        if kept_kind is not None and not self.compiler.probes.coverage \
                and read_through_board([], settled) and not pyast.names_in(settled) & {"s", "o"}:
            self.kept_by_move[name] = (kept_kind, self._noting_check(name, what, case, guarded))
        if self._clearance:
            self.clearances[name] = self._clearance
            if self._unmoved:
                self.unmoved.add(name)
            # (a move's clearance tests its two places alone: no screen)
            screen = self._screen(case, settled, name, condition) \
                if settled and case.pattern is CasePattern.DROP else ""
            if screen:
                self.screens[name] = screen
        return name

    def _noting_check(self, name: str, what: str, case: CaseCode, guarded: bool = False) -> str:
        """The name of the check `name` written again noting the sites it reads
        (lone_pieces.noting_reads, `guarded` as it says): `f(s, code, memo=None)
        -> (answer, sites' bits)`."""
        src = self.src
        written = src.functions[-1]
        assert isinstance(written, py.FunctionDef) and written.name == name
        body = noting_reads(written.body, self._site_bits(), src.fresh, guarded)
        return src.function(src.fresh("f"), ["s", "code", "memo"], body,
                            Origin(what + " (noting the sites it reads)", case.pos), defaults=[pyast.none()])

    def _screen(self, case: CaseCode, settled: list[py.stmt], check: str, condition: list[ResultPart]) -> str:
        """The name of `screen(s, run, blocked, places, memo, rejected,
        forbidden)`, which asks the conjuncts `settled` (asked_before.py) of the
        candidates of a listing whose places meet the clearance's mask before
        calling their check (clearances.py) — not where the kept paths of the
        searches of the check's parts show them false (kept_paths.py) —, or ""
        where it cannot."""
        body = clearances.continuing(settled) if clearances.SCREENS else None
        if body is None:
            return ""
        src = self.src
        kept = None
        if kept_paths.ENABLED and self._places_known and self._drop_pieces is not None:
            kept = kept_paths.skip_plan([(lines, code) for lines, code, _, _ in condition], src,
                                        self._drop_pieces, self._site_bits(), self.model.board.size)
        read = pyast.names_in(body) | {"to"} | (pyast.names_in(kept[0]) if kept is not None else set())
        prepared = self._prepare(case, read)
        per_candidate = [stmt for stmt in prepared if pyast.names_in([stmt]) & {"to", "code"}]
        if not per_candidate or not pyast.assigns(per_candidate[:1], "to"):
            return ""
        per_listing = [stmt for stmt in prepared if not pyast.names_in([stmt]) & {"to", "code"}]
        body, masks = clearances.kind_masks(body, src, self._site_bits(), self.compiler.neutral_kinds())
        per_listing += masks
        names = (src.fresh("t"), src.fresh("t"), src.fresh("t"), src.fresh("t"), src.fresh("t"), src.fresh("t"))
        # (the conjuncts as masks of the landings: the candidates checked found at once)
        needed = clearances.screened_sites(body, per_listing, src, self.model.board.size, case.landings,
                                           self.model.player_count) \
            if case.landings is not None and len(per_candidate) == 1 and clearances.SCREENED_SITES else None
        screened = None
        ordered = src.fresh("t")
        if needed is not None:
            per_listing, prelude, sites = needed
            screened = (src.fresh("t"), prelude, sites, self._site_bits())
        # (a run ascending by landing looked up by its landings' bits: `_site_bits`, bit `site` a site's)
        loop = clearances.screen_body(body, per_candidate, check, names, screened, kept,
                                      ordered if screened is not None else None)
        if screened is not None:
            per_listing = clearances.unread_masks_dropped(per_listing, loop)
        code = with_registers(loop, board=case.pattern.lands, first=per_listing)
        what = (f"{case.label}: the conjuncts asked before its check, of the candidates its clearance "
                f"does not let through")
        params = ["s", names[0], names[1], names[2], "memo", names[3], names[4], ordered]
        return src.function(src.fresh("f"), params, code, Origin(what, case.pos), [pyast.false()])

    def _answered_before(self, case: CaseCode, phase: PhaseCode, condition: list[ResultPart]) -> list[py.stmt]:
        """The check's answer before its case is played, where the listed
        position gives it: every part reused (or false by a gate reused), the case
        a move writing the board at `frm` and `to` alone, with nothing or a piece of
        the mover's owner and kind (result_reuse.writes_of_mover, under tests of the
        moving piece that must fail), neither place read and the moving piece no
        anchor there — or a drop whose writes are told before it runs (below)."""
        # per part, the listed position's answer of the part itself, else of a gate
        # of it (which settles the part only when it is false: `closing`)
        parents: list[Optional[ParentAnswer]] = []
        closing: list[bool] = []
        for _, part, _, gates in condition:
            parent = self._reusable(self._parents.get(id(part)), case, phase)
            gate = next((g for g in (self._reusable(self._parents.get(id(c)), case, phase) for _, c in gates)
                         if g is not None), None)
            parents.append(parent or gate)
            closing.append(parent is None)
        # (a slide over a screen sets `frm`, `pc` and `to` as a move does: its code decides, as a move's)
        if case.pattern not in (CasePattern.MOVE, CasePattern.SCREEN, CasePattern.DROP) or self._has_pool_pieces() \
                or not parents or any(parent is None for parent in parents):
            return []
        code = _played(case, self._checked_after(case, phase))
        if case.pattern is CasePattern.DROP:
            return self._drop_answered_before(case, code, condition, parents, closing)
        guards = result_reuse.writes_of_mover(code)
        promoted: Optional[int] = None  # (the kind the move leaves at `to`, where not the mover's)
        if guards is None:
            promotion = result_reuse.promotion_of_mover(code)
            if promotion is None:
                return []
            guards, promoted = promotion
        tests: list[py.expr] = []
        unanchored: list[py.expr] = []
        bits = self._site_bits()
        # (the two places' bits, found where first asked and read there after)
        places_local = self.src.fresh("t")
        places: py.expr = pyast.walrus(places_local, pyast.binop(pyast.sub(bits, pyast.name("frm")), "|",
                                                                 pyast.sub(bits, pyast.name("to"))))
        for parent, closes in zip(parents, closing):
            assert parent is not None
            entry = pyast.name(parent.entry)
            tests += [pyast.is_not_none(entry), pyast.not_(pyast.binop(pyast.sub(entry, 1), "&", places))]
            places = pyast.name(places_local)
            if closes:
                tests.append(pyast.not_(pyast.sub(entry, 0)))
            if parent.plan.tests:  # (point tests at either place: settled ones, holding with the mover too)
                # (a promotion empties `frm` — settled tests give there what they gave — and puts at `to` a piece of
                # the mover's owner and the kind promoted to: all those tests read of it)
                moving = pyast.helper(result_reuse.TESTS_HOLD_MOVING, entry,
                                      pyast.tuple_(pyast.name("frm"), pyast.name("to")), pyast.name("pc"),
                                      pyast.name("p"), pyast.name("q")) if promoted is None else \
                    pyast.helper(result_reuse.TESTS_HOLD_MOVING, entry, pyast.tuple_(pyast.name("to")),
                                 pyast.tuple_(pyast.sub(pyast.name("pc"), OWNER), pyast.num(promoted)),
                                 pyast.name("p"), pyast.name("q"))
                tests.append(pyast.or_(
                    pyast.not_(pyast.binop(pyast.sub(entry, 2), "&", places)),
                    pyast.and_(pyast.not_(pyast.binop(pyast.sub(entry, 4), "&", places)), moving)))
            for place in ("frm", "to"):
                anchor = parent.plan.anchor(pyast.name("pc"), pyast.name(place))
                if anchor is not None:
                    if not _reads_owner_and_kind(anchor, "pc"):
                        return []
                    if promoted is not None and place == "to":  # (the piece arriving is of the kind promoted to)
                        anchor = _of_kind(anchor, "pc", promoted)
                        if pyast.key(anchor) == pyast.key(pyast.false()):
                            continue  # (the loops never visit it)
                    if all(pyast.key(anchor) != pyast.key(known.operand) for known in tests
                           if isinstance(known, py.UnaryOp)):
                        tests.append(pyast.not_(anchor))
                        unanchored.append(pyast.not_(anchor))
        unguarded: list[py.expr] = [pyast.not_(guard) for guard in guards]
        tests += unguarded
        only = parents[0]
        terms = len(parents) == 1 and not closing[0] and only is not None and only.plain_terms
        # (the terms asked before the move is played see its origin emptied and the mover at its destination:
        # a clearance may then ask, once per origin, the terms that read it with it emptied — `_terms_before`)
        placed = result_reuse.places_after_mover(code)
        vacating = terms and placed is not None and placed.get("frm") is False \
            and (placed.get("to") is True if promoted is None else isinstance(placed.get("to"), result_reuse.Promoted))
        # (a promotion shares the clearance the plain moves made, where its answers and the sites it lets no
        # candidate through at are theirs, its candidates meeting the mask checked each — the runs would move
        # the piece unpromoted: `unmoved`; not one of its own: beside the phase's others it sends every listing
        # to `let_through`'s path for several, slower — PROFILE-NOTES)
        self._clearance = self._move_clearance_function(case, parents, unanchored + unguarded, vacating,
                                                        shared_only=promoted is not None)
        self._unmoved = promoted is not None and bool(self._clearance)
        answers: list[py.stmt] = []
        for (_, _, probe, _), parent, closes in zip(condition, parents, closing):
            assert parent is not None
            if closes:
                continue
            forbidden = pyast.return_(pyast.true() if probe is None else pyast.num(probe + 1))
            answers.append(pyast.if_(pyast.sub(pyast.name(parent.entry), 0), [forbidden]))
        early: list[py.stmt] = [pyast.if_(pyast.and_(*tests), answers + [pyast.return_(pyast.false())])]
        if terms:
            assert only is not None
            early += self._terms_before(code, only, pyast.name(places_local), unanchored + unguarded, answers,
                                        promoted)
        return early

    def _terms_before(self, code: list[py.stmt], parent: ParentAnswer, places: py.expr, tests: list[py.expr],
                      answers: list[py.stmt], promoted: Optional[int] = None) -> list[py.stmt]:
        """Where the move's places were read by the part's terms alone
        (result_terms.py): the places set as the move leaves them (told from
        its code, result_reuse.places_after_mover: a piece of the mover's owner
        and kind or nothing, which is all the terms and point tests read of
        them), the terms that read them asked again, the board put back."""
        placed = result_reuse.places_after_mover(code)
        if placed is None or "frm" not in placed or "to" not in placed:
            return []
        src = self.src
        entry = pyast.name(parent.entry)
        outside = pyast.sub(pyast.sub(entry, 5), 0)
        # (`places`: the two places' bits, found by the test before this one once the entry is found)
        first = [pyast.is_not_none(entry), pyast.not_(pyast.binop(outside, "&", places)),
                 pyast.compare(pyast.name("frm"), "!=", pyast.name("to"))]
        saved = src.fresh("t")
        held = src.fresh("t")
        board = pyast.name("b")
        setting: list[py.stmt] = [pyast.assign(pyast.name(saved), pyast.sub(board, pyast.name("to")))]
        putting_back: list[py.stmt] = []
        for place, mover in (("frm", placed["frm"]), ("to", placed["to"])):
            if mover is None:
                continue  # (left as it was)
            if isinstance(mover, result_reuse.Promoted):  # (the piece a promotion writes, as statements.py does)
                assert mover.kind == promoted
                arrived: py.expr = pyast.add(pyast.tuple_(pyast.sub(pyast.name("pc"), OWNER), pyast.num(mover.kind)),
                                             pyast.sub(pyast.name("pc"), pyast.slice_(2)))
            else:
                arrived = pyast.name("pc") if mover else pyast.none()
            setting.append(pyast.assign(pyast.sub(board, pyast.name(place)), arrived))
        putting_back = [pyast.assign(pyast.sub(board, pyast.name("frm")), pyast.name("pc")),
                        pyast.assign(pyast.sub(board, pyast.name("to")), pyast.name(saved))]
        asked = pyast.assign(pyast.name(held), pyast.helper(
            result_reuse.TERMS_HOLD, entry, board, places, pyast.name("p"), pyast.name("q")))
        body = setting + [pyast.try_finally([asked], putting_back),
                          pyast.if_(pyast.name(held), answers + [pyast.return_(pyast.false())])]
        return [pyast.if_(pyast.and_(*first, *tests), body)]

    def _drop_answered_before(self, case: CaseCode, code: list[py.stmt], condition: list[ResultPart],
                              parents: list[Optional[ParentAnswer]], closing: list[bool]) -> list[py.stmt]:
        """`_answered_before` for a drop: the places its code writes and the pieces
        it puts there told before it runs (result_reuse.board_writes: the dropped
        piece and sites and pieces from tables by `to`), none read by the parts
        answered and no piece there one their loops visit."""
        fixed = frozenset(r for r in ("to", "frm", "pc", "p", "q") if not pyast.assigns(code, r))
        writes = result_reuse.board_writes(code, fixed)
        if writes is None:
            return []
        bits = self._site_bits()
        places = pyast.sub(bits, writes[0][0]) if writes else pyast.num(0)
        for site, _ in writes[1:]:
            places = pyast.binop(places, "|", pyast.sub(bits, site))
        mask = pyast.name(self.src.fresh("t"))
        tests: list[py.expr] = []
        anchors: list[py.expr] = []  # (the tests of the pieces put, by the parts' loops)
        for parent, closes in zip(parents, closing):
            assert parent is not None
            entry = pyast.name(parent.entry)
            tests += [pyast.is_not_none(entry), pyast.not_(pyast.binop(pyast.sub(entry, 1), "&", mask))]
            if parent.plan.tests:  # (point tests at the places: asked of the pieces the drop puts there)
                placed = pyast.tuple_(*(pyast.tuple_(site, piece) for site, piece in writes))
                tests.append(pyast.or_(pyast.not_(pyast.binop(pyast.sub(entry, 2), "&", mask)), pyast.helper(
                    result_reuse.TESTS_HOLD_PLACING, entry, placed, pyast.name("p"), pyast.name("q"))))
            if closes:
                tests.append(pyast.not_(pyast.sub(entry, 0)))
            for site, piece in writes:
                if isinstance(piece, py.Constant) and piece.value is None:
                    continue  # a site emptied holds no piece a loop could visit
                anchor = parent.plan.anchor(piece, site)
                if anchor is not None:
                    anchors.append(pyast.or_(pyast.is_none(piece), pyast.not_(anchor)))
        tests += anchors
        only = parents[0]
        if ASKED_ONCE and len(parents) == 1 and only is not None and not only.plan.terms \
                and self._writes_told_made(case, code, fixed, writes):
            # (the answer kept after the case, `_answer_kept`, asks of the same places with the same pieces
            # there what this test asks — of `to` more —, so it never holds where this one, which returned,
            # failed; not with terms, which it asks again where a place was read)
            self._after_repeats = frozenset({only.entry})
        self._clearance = self._clearance_function(case, parents, anchors, [site for site, _ in writes])
        self._drop_pieces = [piece for _, piece in writes]
        answers: list[py.stmt] = []
        for (_, _, probe, _), parent, closes in zip(condition, parents, closing):
            assert parent is not None
            if not closes:
                forbidden = pyast.return_(pyast.true() if probe is None else pyast.num(probe + 1))
                answers.append(pyast.if_(pyast.sub(pyast.name(parent.entry), 0), [forbidden]))
        early = [pyast.assign(mask, places), pyast.if_(pyast.and_(*tests), answers + [pyast.return_(pyast.false())])]
        if len(parents) == 1 and not closing[0] and only is not None and only.plain_terms and writes:
            early.append(self._drop_terms_before(only, writes, mask, anchors, answers))
        return early

    def _drop_terms_before(self, parent: ParentAnswer, writes: list[tuple[py.expr, py.expr]], places: py.Name,
                           anchors: list[py.expr], answers: list[py.stmt]) -> py.stmt:
        """`_terms_before` for a drop: where its places were read by the part's
        terms alone, the places set as the drop sets them (its writes, told
        before it runs: `_drop_answered_before`), the terms (and point tests)
        that read them asked again, the board put back (in the opposite order:
        a site written twice gets its first piece back)."""
        src = self.src
        entry = pyast.name(parent.entry)
        board = pyast.name("b")
        first = [pyast.is_not_none(entry), pyast.not_(pyast.binop(pyast.sub(pyast.sub(entry, 5), 0), "&", places))]
        setting: list[py.stmt] = []
        putting_back: list[py.stmt] = []
        for site, piece in writes:
            saved = src.fresh("t")
            setting += [pyast.assign(pyast.name(saved), pyast.sub(board, site)),
                        pyast.assign(pyast.sub(board, site), piece)]
            putting_back.insert(0, pyast.assign(pyast.sub(board, site), pyast.name(saved)))
        held = src.fresh("t")
        # (one site written: the answer kept with the entry's runs, asked on the listed position alone)
        helper = result_reuse.TERMS_HOLD_PLACED if len(writes) == 1 and result_reuse.PLACED_KEPT \
            else result_reuse.TERMS_HOLD
        asked = pyast.assign(pyast.name(held), pyast.helper(
            helper, entry, board, places, pyast.name("p"), pyast.name("q")))
        body = setting + [pyast.try_finally([asked], putting_back),
                          pyast.if_(pyast.name(held), answers + [pyast.return_(pyast.false())])]
        return pyast.if_(pyast.and_(*first, *anchors), body)

    def _writes_told_made(self, case: CaseCode, code: list[py.stmt], fixed: frozenset[str],
                          writes: list[tuple[py.expr, py.expr]]) -> bool:
        """Whether a drop's `writes` (result_reuse.board_writes of its played `code`)
        are the writes it makes, worked out for every player and landing (its fixed
        landings, `case.landings`): each made whenever the code runs
        (result_reuse.writes_all_made), at a site of the board, no two at one."""
        players = self.model.player_count
        if case.landings is None or len(case.landings) * players > _MOST_WORKED_OUT:
            return False
        envs = [{"p": p, "q": 1 - p, "to": to} if players == 2 else {"p": p, "to": to}
                for p in range(players) for to in sorted(case.landings)]
        size = self.model.board.size

        def decided(test: py.expr) -> Optional[bool]:
            try:
                found = {bool(worked_out(self.src, test, env)) for env in envs}
            except ValueError:
                return None
            return found.pop() if len(found) == 1 else None

        if not result_reuse.writes_all_made(code, fixed, decided):
            return False
        try:
            for env in envs:
                sites = [worked_out(self.src, site, env) for site, _ in writes]
                if not all(type(site) is int and 0 <= site < size for site in sites) or len(set(sites)) < len(sites):
                    return False
        except ValueError:
            return False
        return True

    def _clearance_function(self, case: CaseCode, parents: list[Optional[ParentAnswer]], anchors: list[py.expr],
                            places: list[py.expr]) -> str:
        """The name of `clearance(s, memo)`, the check's early answer asked once
        per listing for all its candidates (clearances.py), or "" where it
        cannot be."""
        if not clearances.ENABLED or not clearances.per_listing(anchors):
            return ""
        size = self.model.board.size
        table = clearances.places_table(self.src, places, size, self.model.player_count)
        if table is None:
            return ""
        # (every place worked out, for every player and landing: kept_paths.py)
        self._places_known = all(not mask >> (size + 1) for row in self.src.value(table) for mask in row)
        entries = list(dict.fromkeys((p.entry, p.slot, p.record, p.plan.memo, p.kept, p.plan.anchor_lists, p.lone)
                                     for p in parents if p is not None))
        body = clearances.clearance_body(self.src, entries, anchors, table, size)
        src = self.src
        what = f"{case.label}: what lets its candidates through without their check, once per listing"
        code = with_registers(body, first=self._prepare(case, pyast.names_in(body)))
        return src.function(src.fresh("f"), ["s", "memo"], code, Origin(what, case.pos))

    def _move_clearance_function(self, case: CaseCode, parents: list[Optional[ParentAnswer]],
                                 movers: list[py.expr], vacating: bool = False, shared_only: bool = False) -> str:
        """The name of `clearance(s, memo)` of a move answered before it is
        played (`_answered_before`), or "" where it cannot be: `movers`, the
        early answer's tests of the moving piece's owner and kind (no anchor, no
        guard), hold for every piece the case may move — its action's `by` kinds,
        of any owner — and every player; what is left of the early answer but its
        places is then the same for every candidate of a listing. A test reading
        one place besides (a guard of where the mover lands) is worked out for
        every site: the player's sites where it may fail join the mask. Settled
        point tests at the places are asked once per listing of the player's
        pieces (`h_moving_failures`): only the sites where one gives otherwise
        join the mask. The clearance gives the sites' bits for a table: a move's
        places are its code's `frm` and `to` (runtime/clearances.let_through).
        `vacating` (the part's terms asked before the move with its origin
        emptied and the mover at its destination, `_terms_before`): the clearance
        also gives the mask without the sites the terms alone read, and the
        entry (clearances.clearance_body). `shared_only`: the clearance an
        earlier case made with the same answers and sites, or ""."""
        if not clearances.ENABLED or not clearances.MOVES or not case.piece_kinds or case.off_board:
            return ""  # (no kinds known: any piece may move)
        players = self.model.player_count
        size = self.model.board.size
        blocked = [0] * players  # (by player: the sites where a place makes a test of the mover fail)
        for test in movers:
            places = sorted(pyast.names_in([test]) & {"frm", "to"})
            if len(places) > 1:
                return ""
            # (a test reading one place, a guard of where the mover lands: worked out for every site, those
            # where it may fail let no candidate through there; site -1 has no bit: it must hold there)
            sites: Sequence[Optional[int]] = (*range(size), -1) if places else (None,)
            for p in range(players):
                for site in sites:
                    for owner in range(-1, players):
                        for kind in sorted(case.piece_kinds):
                            env: dict[str, object] = {"pc": (owner, kind), "p": p}
                            if players == 2:
                                env["q"] = 1 - p
                            if site is not None:
                                env[places[0]] = site
                            try:
                                holds = worked_out(self.src, test, env)
                            except ValueError:
                                return ""
                            if holds is not True:
                                if site is None or site < 0:
                                    return ""
                                blocked[p] |= 1 << site
        entries = tuple(dict.fromkeys((p.entry, p.slot, p.record, p.plan.memo, p.kept, p.plan.anchor_lists, p.lone)
                                      for p in parents if p is not None))
        known = self.move_clearances.get((entries, tuple(blocked), vacating))
        if known is not None or shared_only:
            return known or ""
        src = self.src
        pieces: Optional[py.expr] = None
        if any(p is not None and p.plan.tests for p in parents):
            # (the mover is one of the player's pieces on the board — decisions.py, `for frm in o[p]`; pools'
            # pieces have no early answer — of a kind of the case: every kind, one clearance for all cases)
            kinds = sorted(k.index for k in self.model.kinds.values())
            pieces = pyast.sub(src.const(tuple(tuple(self.model.fresh_piece(p, k) for k in kinds)
                                               for p in range(players))), pyast.name("p"))
        guards = pyast.sub(src.const(tuple(blocked)), pyast.name("p")) if any(blocked) else None
        body = clearances.clearance_body(src, entries, [], self._site_bits(), size, moving=True,
                                         movers=pieces, blocked=guards, vacating=vacating, players=players)
        what = f"{case.label}: what lets the candidates of moves through without their check, once per listing"
        code = with_registers(body, first=self._prepare(case, pyast.names_in(body)))
        name = self.move_clearances[entries, tuple(blocked), vacating] = src.function(
            src.fresh("f"), ["s", "memo"], code, Origin(what, case.pos))
        return name

    def _site_bits(self) -> py.Name:
        """The constant of each site's bit (and none for site -1, the last)."""
        return self.src.const(tuple(1 << site for site in range(self.model.board.size)) + (0,))

    def _checked_after(self, case: CaseCode, phase: PhaseCode) -> list[Block]:
        """The `after each action` blocks (its decision's, its phase's) a check
        plays after its case: not those that only set attributes no `forbid
        result` line reads (attribute_writes.py) — the parts' answers are the
        same without them."""
        return [block for block in (case.after, phase.after_action)
                if block is not None and block[0]
                and (block.attributes_only is None or self.compiler.result_reads_attributes(block.attributes_only))]

    def _check_body(self, case: CaseCode, phase: PhaseCode, condition: list[ResultPart],
                    lookups: Optional[list[py.stmt]], repeated: frozenset[str] = frozenset()) -> list[py.stmt]:
        """The check's code: the case, then the parts; parts reused from the listed
        position (result_reuse.py) when `lookups` is given, which gets the
        statements finding their answers (for the check's start). A part whose
        entry is `repeated` is asked without its kept answer: the check has found
        it not kept before playing the case, and would find the same after."""
        src = self.src
        self._kept_kind = None
        self._kept_guarded = False
        what = f"{case.label}: whether 'forbid result' forbids it, in phase '{phase.info.name}'"
        plain: list[py.AST] = []  # (the parts as asked where nothing is kept: `read_through_board`)
        with src.origin(Origin(what, case.pos)), src.capture() as body:
            reuse = lookups is not None
            parents = [self._reusable(self._parent_answer(lines, code), case, phase) if reuse else None
                       for lines, code, _, _ in condition]
            # (where a part is asked for every candidate, its gates the listed position answers)
            gated = [[g for g in (self._reusable(self._parent_answer(*gate), case, phase) for gate in gates)
                      if g is not None]
                     if reuse and parent is None else [] for (_, _, _, gates), parent in zip(condition, parents)]
            looked_up: set[str] = set()
            answered = [p for p in parents if p is not None] + [g for gs in gated for g in gs]
            for answer in answered:  # (asked of the listed position, before the case changes it)
                if lookups is not None and answer.entry not in looked_up:
                    looked_up.add(answer.entry)
                    memo = pyast.name("memo")
                    found = pyast.or_(pyast.sub(memo, answer.slot), pyast.helper(
                        answer.plan.memo, memo, pyast.num(answer.slot), pyast.name(answer.record), _S,
                        *answer.kept_arguments))
                    lookups.append(pyast.assign(pyast.name(answer.entry),
                                                pyast.ifexp(pyast.none(), pyast.is_none(memo), found)))
            src.paste(case.body)
            pasted_after = False
            for block in self._checked_after(case, phase):
                if not _unread_by(block[0], condition):
                    with src.if_(_game_on()):
                        src.paste(block[0])
                    pasted_after = True
            # (the kinds of the acting piece of which no player has two: lone_pieces.py)
            lone = self.single_kinds & case.piece_kinds \
                if case.piece_kinds is not None and dict(PREPARE[case.pattern]).get("at") is _FRM else frozenset()
            lists: list[tuple[str, int, py.expr]] = []  # (the site lists mover_first's loops fall back on)
            for (lines, code, probe, _), parent, gates in zip(condition, parents, gated):
                # forbidden as soon as one holds
                forbidden = pyast.return_(pyast.true() if probe is None else pyast.num(probe + 1))
                if lone:
                    lines = mover_first(lines, code, lone, src.fresh, lists=lists)
                asked = list(lines) + [pyast.if_(code, [forbidden])]
                plain += asked
                if parent is None:
                    closed = []
                    for gate in gates:  # (a gate false on the listed position and kept: the part is false)
                        if gate.entry in repeated:
                            continue
                        entry = pyast.name(gate.entry)
                        self._answers[gate.entry] = gate
                        closed.append(pyast.and_(pyast.is_not_none(entry), pyast.helper(WRITTEN, entry),
                                                 pyast.not_(pyast.sub(entry, 0))))
                    src.add(*([pyast.if_(pyast.not_(pyast.or_(*closed)), asked)] if closed else asked))
                    continue
                if parent.entry in repeated:
                    src.add(*asked)
                    continue
                entry = pyast.name(parent.entry)
                self._answers[parent.entry] = parent
                kept = pyast.helper(WRITTEN, entry)  # (journal.in_place makes the test: _answer_kept)
                src.add(pyast.if_(pyast.and_(pyast.is_not_none(entry), kept),
                                  [pyast.if_(pyast.sub(entry, 0), [forbidden])], asked))
            src.add(pyast.return_(pyast.false()))
        if lists and not pasted_after and case.pattern is CasePattern.MOVE:
            # (the mover's own list left alone where the parts' loops go over its site instead)
            unchanged = mover_list_unchanged(body, case.body, body[len(case.body):], lists)
            if any(new is not old for new, old in zip(unchanged, body)):
                if read_through_board(case.body, plain):
                    self._kept_kind = lists[0][1]  # (the one kind of the loops: mover_list_unchanged)
            elif mover_list_kept(case.body, body[len(case.body):], lists) \
                    and read_through_board(case.body, plain, clearing=True):
                # (a move of two pieces: kept where the loops went over the mover)
                self._kept_kind = lists[0][1]
                self._kept_guarded = True
            return unchanged
        return body

    def _parent_answer(self, lines: Sequence[py.stmt], code: py.expr) -> Optional[ParentAnswer]:
        """How a check reuses the listed position's answer of the part `lines` +
        `code`, or None when the part is asked for each candidate (result_reuse.plan)."""
        if id(code) in self._parents:
            return self._parents[id(code)]
        src = self.src
        terms = result_terms.find(lines, code)
        calls = {key: (src.fresh("f"), term.inputs, term.captured, term.outputs) for key, term in terms.items()}
        rests = {key: term.rest for key, term in terms.items() if term.rest}
        each = {key: term.each for key, term in terms.items() if term.each is not None}
        made = result_reuse.plan(lines, code, src.fresh, self._site_bits(), calls, rests, each)
        found: Optional[ParentAnswer] = None
        if made is not None:
            origin = Origin("forbid result")
            for function, point_test in made.tests:
                src.function(function, [result_reuse.PIECE, "p", "q"], [pyast.return_(point_test)], origin)
            for finder, function, gives in made.finders:
                src.function(finder, result_reuse.FINDER_PARAMS, result_reuse.failing_finder(
                    dict(made.tests)[function], gives, self._site_bits(), src.fresh, self.compiler.neutral_kinds()),
                    origin)
            for key in made.terms:
                params, body = terms[key].function()
                src.function(calls[key][0], params, body, origin)
            record = src.function(src.fresh("f"), ["s"], with_registers(made.record), origin)
            anchor = ""
            test = made.anchor(pyast.name("pc"), pyast.name("site"))
            if test is not None:
                whether = pyast.and_(pyast.is_not_none(pyast.name("pc")), test)
                anchor = src.function(src.fresh("f"), ["site", "pc", "p", "q"], [pyast.return_(whether)], origin)
            plain = bool(made.terms) and made.plain_tests and all(terms[key].plain for key in made.terms)
            found = ParentAnswer(src.fresh("t"), len(self._parents), record, anchor, made, plain,
                                 bool(anchor) and lone_anchors(made, self.single_kinds))
        self._parents[id(code)] = found
        return found

    def _reusable(self, parent: Optional[ParentAnswer], case: CaseCode, phase: PhaseCode) -> Optional[ParentAnswer]:
        """`parent`, or None where the case (what its check plays) may write a
        variable the part reads (result_reuse.variables_written): both indices worked
        out for every player, the player to move being the same before and after. A
        write under `if` tests of the acting piece and the players (`if piece is king:`
        in `after each action`) that fail for every kind the case may move, of any
        owner, is none (the piece not set again on the way: `_changes_piece`)."""
        if parent is None or not parent.plan.variables:
            return parent
        written = result_reuse.variables_written(_played(case, self._checked_after(case, phase)))
        if written is None:
            return None
        if not written:
            return parent
        players = self.model.player_count
        after = self._checked_after(case, phase)
        kinds = sorted(case.piece_kinds) if case.piece_kinds and not _changes_piece(case, after) else []
        for p in range(players):
            env: dict[str, object] = {"p": p, "q": 1 - p} if players == 2 else {"p": p}
            try:
                read = {worked_out(self.src, index, env) for index in parent.plan.variables}
                for index, guards in written:
                    if worked_out(self.src, index, env) in read and not self._never(guards, env, kinds):
                        return None
            except ValueError:
                return None
        return parent

    def _never(self, guards: list[tuple[py.expr, bool]], env: dict[str, object], kinds: list[int]) -> bool:
        """Whether one of `guards` (tests, each with what holds the statement under
        it) fails for each of `kinds` of any owner as the acting piece `pc`."""
        if not guards or not kinds:
            return False
        for owner in range(-1, self.model.player_count):
            for kind in kinds:
                here = dict(env, pc=(owner, kind))
                if not any(self._fails(test, taken, here) for test, taken in guards):
                    return False
        return True

    def _fails(self, test: py.expr, taken: bool, env: dict[str, object]) -> bool:
        """Whether `test` worked out with `env` is not `taken` (False where it cannot be)."""
        try:
            return bool(worked_out(self.src, test, env)) is not taken
        except ValueError:
            return False

    def _answer_kept(self, call: py.Call, journal: Optional[py.expr], fixed: list[py.expr]) -> py.expr:
        """The test standing for `h_written_sites(entry)` in a check tried in place:
        whether the sites its case wrote (`fixed` places, and those on the board's
        `journal`) leave the listed position's answer `entry` as it was — none was
        read, and none holds now a piece one of the part's loops would visit."""
        entry = call.args[0]
        assert isinstance(entry, py.Name)
        parent = self._answers[entry.id]
        src = self.src
        tests: list[py.expr] = []
        if fixed:
            bits = self._site_bits()
            union: py.expr = pyast.sub(bits, fixed[0])
            for site in fixed[1:]:
                union = pyast.binop(union, "|", pyast.sub(bits, site))
            unread: list[py.expr] = []
            if parent.plan.tests or parent.plan.terms:  # (the places' bits asked twice: found once)
                union_local = src.fresh("t")
                unread.append(pyast.not_(pyast.binop(pyast.sub(entry, 1), "&", pyast.walrus(union_local, union))))
                union = pyast.name(union_local)
            else:
                unread.append(pyast.not_(pyast.binop(pyast.sub(entry, 1), "&", union)))
            if parent.plan.tests:
                # (point tests at a written place: asked again, unless the check has
                # asked before its case whatever a move may leave there)
                untested: py.expr = pyast.not_(pyast.binop(pyast.sub(entry, 2), "&", union))
                unread.append(untested if self._answered_early else pyast.or_(untested, pyast.helper(
                    result_reuse.TESTS_HOLD, entry, pyast.name("b"), pyast.tuple_(*fixed),
                    pyast.name("p"), pyast.name("q"))))
            if parent.plan.terms:  # (else the places read by terms alone, which give what they gave)
                outside = pyast.sub(pyast.sub(entry, 5), 0)  # (read outside the terms: asked whole)
                tests.append(pyast.or_(pyast.and_(*unread), pyast.and_(
                    pyast.not_(pyast.binop(outside, "&", union)),
                    pyast.helper(result_reuse.TERMS_HOLD, entry, pyast.name("b"), union,
                                 pyast.name("p"), pyast.name("q")))))
            else:
                tests += unread
        for site in fixed:
            piece = src.fresh("t")
            anchor = parent.plan.anchor(pyast.name(piece), site)
            if anchor is not None:
                stands = pyast.is_none(pyast.walrus(piece, pyast.sub(pyast.name("b"), site)))
                tests.append(pyast.or_(stands, pyast.not_(anchor)))
        if journal is not None:
            checked = pyast.helper(result_reuse.KEPT, entry, pyast.name("b"), journal,
                                   pyast.name(parent.anchor) if parent.anchor else pyast.none(),
                                   pyast.name("p"), pyast.name("q"))
            tests.append(pyast.or_(pyast.not_(journal), checked))
        return pyast.and_(*tests) if tests else pyast.true()

    # ------------------------------------------------------------ cases
    def _case(self, case: CaseCode, phase: PhaseCode, turn_end: str, turn: Turn, trial: bool = False,
              shared_body: Optional[_SharedBody] = None) -> str:
        src = self.src
        what = f"{case.label}, in phase '{phase.info.name}'" + (" (tried: the turn's end not played)" if trial else "")
        shared = shared_body is not None and shared_body.usable
        with src.origin(Origin(what, case.pos)), src.capture() as body:
            probe = None if trial else self.compiler.probes.count("case", case.label, case.pos)
            if probe is not None:
                src.add(probe)
            ended = "end" in case.effects  # whether the game may have ended by now
            if shared:
                assert shared_body is not None
                src.add(shared_body.call())
                uses_then = shared_body.uses_then
            else:
                self._case_body(case, ended)
                uses_then = any(isinstance(stmt, py.Assign) and any(pyast.is_name(t, "fu") for t in stmt.targets)
                                for stmt in pyast.statements_in(body))
            if case.after is not None and case.after[0]:
                ended = ended or "end" in case.after[2]
            start = len(body)
            if phase.after_action is not None and phase.after_action[0]:
                with src.if_(_game_on()) if ended else nullcontext():
                    src.paste(phase.after_action[0])
                ended = ended or "end" in phase.after_action[2]
            self._sequence(phase, turn_end, turn, uses_then=uses_then, decision=case.decision,
                           selects=case.pattern is CasePattern.SELECT, may_have_ended=ended, trial=trial)
        if shared and shared_body is not None and not shared_body.may_follow(body[start:]):
            return self._case(case, phase, turn_end, turn, trial)
        return self._case_function(case, body, what)

    def _case_body(self, case: CaseCode, ended: bool) -> None:
        """A case's own statements and its decision's `after each action`, written
        into the current capture."""
        self.src.paste(case.body)
        if case.after is not None and case.after[0]:
            with self.src.if_(_game_on()) if ended else nullcontext():
                self.src.paste(case.after[0])

    def _case_function(self, case: CaseCode, body: list[py.stmt], what: str, on_copy: bool = False,
                       check: bool = False) -> str:
        """Write `body` as the function `f(s, code)` of a case, its registers
        prepared as the body needs them (`on_copy`: on a copy of `s`, made first);
        returns its name. A `check` takes a third parameter, `memo`: the answers
        of the listed position its listing has found so far (result_reuse.py), or
        None (the default: nothing is reused)."""
        src = self.src
        read = pyast.names_in(body)
        name = src.fresh("f")
        first = self._prepare(case, read)
        if "fu" in read:
            first.append(pyast.assign(pyast.name("fu"), pyast.num(-1)))
        code = with_registers(body, board=case.pattern.lands, first=first)
        if on_copy:
            code.insert(0, pyast.assign(_S, pyast.helper("h_trial", _S)))
        if check:
            return src.function(name, ["s", "code", "memo"], code, Origin(what, case.pos), defaults=[pyast.none()])
        return src.function(name, ["s", "code"], code, Origin(what, case.pos))

    def _prepare(self, case: CaseCode, read: set[str]) -> list[py.stmt]:
        needed = {r for r, _ in PREPARE[case.pattern] if r in read}
        for register in list(needed):
            needed.update(NEEDS.get(register, ()))
        stmts: list[py.stmt] = []
        for register, value in PREPARE[case.pattern]:
            if register not in needed:
                continue
            if register == "ov":
                assert case.outcomes is not None
                value = pyast.sub(case.outcomes, _code_field(CHOICE))
            elif register == "pc" and case.pattern is CasePattern.DROP:
                assert case.fresh_pieces is not None
                value = pyast.sub(case.fresh_pieces, pyast.name("p"))
            assert value is not None
            stmts.append(pyast.assign(pyast.name(register), value))
            if register == "pc" and case.pattern is CasePattern.MOVE and self._has_pool_pieces():
                # A piece waiting in a pool stands on its pool's site without being on the board.
                assert case.pool_pieces is not None
                pc = pyast.name("pc")
                stmts.append(pyast.if_(pyast.is_none(pc), [pyast.assign(pc, pyast.sub(case.pool_pieces, _FRM))]))
        return stmts

    def _has_pool_pieces(self) -> bool:
        return any(pool.kind is not None and any(s != -1 for s in pool.sites) for pool in self.model.pools.values())

    def _sequence(self, phase: PhaseCode, turn_end: str, turn: Turn, uses_then: bool, decision: int,
                  selects: bool = False, may_have_ended: bool = True, trial: bool = False) -> None:
        """After the action: a follow-up decision, the next decision of the turn, or
        the end of the turn (unless the game has ended). The follow-up acts on the
        piece the action acted on: the acting piece, or the one a `select` chose.
        In a `trial` the end of the turn is not played: the function returns True."""
        src = self.src
        decisions = phase.info.turn
        step, decides = pyast.attr(_S, "step"), pyast.attr(_S, "decision")
        with src.if_(_game_on()) if may_have_ended else nullcontext():
            if uses_then:
                fu = pyast.name("fu")
                src.add(pyast.if_(pyast.compare(fu, ">=", pyast.num(0)), [
                    pyast.assign(decides, fu),
                    pyast.assign(pyast.attr(_S, "carry"), _TO if selects else pyast.name("at")),
                    pyast.return_(),
                ]))
            if turn.followed_up:
                # (a case of a follow-up decision: the piece it acted on is done with)
                src.add(pyast.assign(pyast.attr(_S, "carry"), pyast.num(-1)))
            if len(decisions) > 1 and not turn.followed_up and decisions.count(decision) == 1:
                # the decision has one place in the turn: what follows it is known
                following = decisions.index(decision) + 1
                if following < len(decisions):
                    src.add(pyast.assign(step, pyast.num(following)),
                            pyast.assign(decides, pyast.num(decisions[following])))
                    return
            elif len(decisions) > 1:
                x0 = pyast.name("x0")
                src.add(pyast.assign(x0, pyast.add(step, pyast.num(1))),
                        pyast.if_(pyast.compare(x0, "<", pyast.num(len(decisions))), [
                            pyast.assign(step, x0),
                            pyast.assign(decides, pyast.sub(src.const(decisions), x0)),
                            pyast.return_(),
                        ]))
            after_turn = phase.after_turn
            if trial:
                src.add(pyast.return_(pyast.true()))
            elif after_turn is None or not after_turn[0]:
                self._next_turn(phase, turn, decision)  # written out: it follows most actions
            elif pyast.line_count(after_turn[0]) <= INLINE_TURN_END:
                src.paste(after_turn[0])
                with src.if_(_game_on()) if "end" in after_turn[2] else nullcontext():
                    self._next_turn(phase, turn, decision)
            else:
                src.add(pyast.expr_stmt(pyast.call(pyast.name(turn_end), _S)))

    # ------------------------------------------------------------ phases
    def _turn_end_answer_shared(self, phase: PhaseCode) -> None:
        """Where an `if` of the phase's `after each turn` (a game of two players)
        tests what a `forbid result` part asks with the players' roles swapped
        (result_reuse.asks_swapped: `if in_check(opponent)` and `forbid ... where
        in_check(player)`), its test asks the part's answer for the opponent
        (runtime/kept_answers.answer_for_opponent) — the question the opponent's
        next listing asks of the same board: the entry the answer comes from is
        kept for that listing, or was kept for it by an earlier one — and asks
        the test itself only where the part fails. Only a part whose answer is
        kept across listings (`ParentAnswer.kept`): else the part's recording,
        which does more than the test, would run at every turn's end. The first
        such `if` only."""
        after = phase.after_turn
        parts = self.compiler.result_code
        if after is None or not parts or self.model.player_count != 2 or not TURN_END_SHARED:
            return
        lines = after.lines
        for index, stmt in enumerate(lines):
            if not isinstance(stmt, py.If):
                continue
            for part_lines, part_code, _, _ in parts:
                start = index - len(part_lines)
                asking = lines[start:index]
                if start < 0 or not result_reuse.asks_swapped(asking, stmt.test, part_lines, part_code):
                    continue
                # (the test's locals are set only where the part fails: nothing after may read them)
                if pyast.names_in([*stmt.body, *stmt.orelse, *lines[index + 1:]]) \
                        & set().union(*map(pyast.stored_names, asking)):
                    continue
                parent = self._parent_answer(part_lines, part_code)
                if parent is None or not parent.kept:
                    continue
                answer = pyast.name(self.src.fresh("t"))
                opponent = pyast.binop(pyast.num(1), "-", pyast.name("p"))
                shared = [
                    pyast.assign(answer, pyast.helper(OPPONENT_ANSWER, _S, opponent, pyast.name(parent.plan.memo),
                                                      pyast.name(parent.record), *parent.kept_arguments)),
                    pyast.if_(pyast.is_none(answer), [*asking, pyast.assign(answer, stmt.test)]),
                    pyast.if_(answer, stmt.body, stmt.orelse),
                ]
                phase.after_turn = after._replace(lines=[*lines[:start], *shared, *lines[index + 1:]])
                return

    def _turn_end(self, phase: PhaseCode, turn: Turn) -> str:
        """The function ending a turn of this phase: its `after each turn`, then the
        next player (and phase)."""
        src = self.src
        name = src.fresh("t")
        origin = Origin(f"phase '{phase.info.name}': the end of a turn", phase.info.pos)
        with src.origin(origin), src.capture() as body:
            if phase.after_turn is not None and phase.after_turn[0]:
                src.paste(phase.after_turn[0])
                if "end" in phase.after_turn[2]:
                    src.add(pyast.if_(pyast.is_not_none(pyast.attr(_S, "result")), [pyast.return_()]))
            self._next_turn(phase, turn)
        return src.function(name, ["s"], with_registers(body), origin)

    def _next_turn(self, phase: PhaseCode, turn: Turn, decision: int = -1) -> None:
        """Who plays the next turn, and in which phase (docs/format.md 3.15, steps 5-7);
        `decision`: the one just taken, when known."""
        src = self.src
        info = phase.info
        following = tuple(
            info.order[(info.order.index(p) + 1) % len(info.order)] if p in info.order else info.order[0]
            for p in range(self.model.player_count)
        )
        x0, x1 = pyast.name("x0"), pyast.name("x1")
        player = pyast.attr(_S, "player")
        turn_start = pyast.assign(pyast.attr(_S, "turn_start"), pyast.true())
        next_player = "next player" in turn.effects

        def chosen_or(default: py.expr) -> py.expr:
            """The player a `next turn` named, if any, else `default`."""
            return pyast.ifexp(x1, pyast.compare(x1, ">=", pyast.num(0)), default) if next_player else default

        if next_player:
            src.add(pyast.assign(x1, pyast.attr(_S, "next_player")),
                    pyast.assign(pyast.attr(_S, "next_player"), pyast.num(-1)))
        if "next phase" in turn.effects:
            first = src.const(tuple(ph.info.order[0] for ph in self.phases))
            first_decision = src.const(tuple(ph.info.turn[0] for ph in self.phases))
            src.add(pyast.assign(x0, pyast.attr(_S, "next_phase")))
            with src.if_(pyast.compare(x0, ">=", pyast.num(0))):
                src.add(pyast.assign(pyast.attr(_S, "phase"), x0),
                        pyast.assign(pyast.attr(_S, "next_phase"), pyast.num(-1)),
                        pyast.assign(player, chosen_or(pyast.sub(first, x0))),
                        pyast.assign(pyast.attr(_S, "decision"), pyast.sub(first_decision, x0)),
                        pyast.assign(pyast.attr(_S, "step"), pyast.num(0)))
                if self.compiler.turn_hooks:
                    src.add(turn_start)
                src.add(pyast.return_())
        if self.compiler.turn_hooks:
            src.add(turn_start)
        # (statements never change s.player itself)
        src.add(pyast.assign(player, chosen_or(pyast.sub(src.const(following), pyast.name("p")))))
        if not (decision == info.turn[0] and len(info.turn) == 1 and not turn.followed_up):
            # (else the turn's one decision is the one just taken, at step 0)
            src.add(pyast.assign(pyast.attr(_S, "decision"), pyast.num(info.turn[0])),
                    pyast.assign(pyast.attr(_S, "step"), pyast.num(0)))

    def write_before_turn(self, phase: PhaseCode) -> Optional[str]:
        """The function of the phase's `before each turn` rules, or None."""
        if phase.before_turn is None:
            return None
        name = self.src.fresh("f")
        return self.src.function(name, ["s", "stuck", "reps"], with_registers(phase.before_turn[0]),
                                 Origin(f"phase '{phase.info.name}', before each turn", phase.info.pos))

    def write_no_action(self, index: int, phase: PhaseCode) -> str:
        """The function run when the player to move has no legal action."""
        src = self.src
        name = src.fresh("f")
        body: Sequence[py.stmt]
        if phase.no_action is not None:
            body = phase.no_action[0]
        else:
            assert phase.default_ending is not None
            body = [pyast.expr_stmt(pyast.helper("h_end", _S, pyast.num(int(EndingKind.NO_ACTION)), pyast.num(-1),
                                                 pyast.num(phase.default_ending)))]
        return src.function(name, ["s", "reps"], with_registers(body),
                            Origin(f"phase '{phase.info.name}', if no action", phase.info.pos))


def _of_kind(test: py.expr, piece: str, kind: int) -> py.expr:
    """`test` (reading `piece` only as its owner and kind) asked of a piece of
    the same owner and the kind `kind`."""
    def as_kind(node: py.AST) -> Optional[py.AST]:
        if isinstance(node, py.Subscript) and pyast.is_name(node.value, piece) and isinstance(node.slice, py.Constant) \
                and node.slice.value == KIND:
            return pyast.num(kind)
        return None

    def worked_out(node: py.expr) -> py.expr:
        # (a kind compared with a kind: its truth; an `and`/`or` of plain reads with one false/true operand: it)
        if isinstance(node, py.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (py.Eq, py.NotEq)) \
                and isinstance(node.left, py.Constant) and isinstance(node.comparators[0], py.Constant):
            return pyast.literal((node.left.value == node.comparators[0].value) == isinstance(node.ops[0], py.Eq))
        if isinstance(node, py.BoolOp):
            values = [worked_out(value) for value in node.values]
            settles = isinstance(node.op, py.Or)
            if any(isinstance(v, py.Constant) and v.value is settles for v in values):
                return pyast.literal(settles)
            return py.BoolOp(op=node.op, values=values)
        return node
    return worked_out(pyast.replace_nodes(test, as_kind, {}))


def _reads_owner_and_kind(test: py.expr, piece: str) -> bool:
    """Whether `test` reads the piece `piece` only as its owner and kind."""
    fields = (OWNER, KIND)
    reads = [n for n in pyast.walk_in_order(test) if isinstance(n, py.Subscript) and pyast.is_name(n.value, piece)
             and isinstance(n.slice, py.Constant) and n.slice.value in fields]
    return len(reads) == pyast.uses([test], piece)


def _unread_by(block: list[py.stmt], condition: list[ResultPart]) -> bool:
    """Whether the `after each action` rules `block` change nothing the `forbid
    result` parts of `condition` read, and cannot fail: they set variables and end
    the game at most (plain code and `h_end`), and no part reads the variables nor
    the position's fields. A check then leaves them out (a dead store): what the
    parts ask of the position is the same with or without them."""
    for node in pyast.walk_all(block):
        if isinstance(node, py.Call):
            if not pyast.is_name(node.func, "h_end"):
                return False
        elif isinstance(node, (py.Assign, py.AugAssign)):
            targets = node.targets if isinstance(node, py.Assign) else [node.target]
            if not all(isinstance(t, py.Name) and t.id not in ("s", "b", "o", "v")
                       or isinstance(t, py.Subscript) and pyast.is_name(t.value, "v") for t in targets):
                return False
        elif isinstance(node, py.BinOp) and not isinstance(node.op, (py.Add, py.Sub, py.Mult)):
            return False  # (may fail: a division by zero, a shift past the bounds)
        elif isinstance(node, (py.While, py.NamedExpr, py.Lambda, py.Attribute)) \
                and not (isinstance(node, py.Attribute) and pyast.is_name(node.value, "s")
                         and isinstance(node.ctx, py.Load)):
            return False
    for lines, code, _, gates in condition:
        read = pyast.names_in(list(lines) + [pyast.expr_stmt(code)])
        for gate_lines, gate_code in gates:
            read |= pyast.names_in(list(gate_lines) + [pyast.expr_stmt(gate_code)])
        if read & {"v", "s"}:
            return False
    return True


def _played(case: CaseCode, blocks: list[Block]) -> list[py.stmt]:
    """What a check plays before asking: the case, then the `after each action`
    blocks it plays (CaseWriter._checked_after) while the game goes on."""
    code: list[py.stmt] = list(case.body)
    for block in blocks:
        code.append(pyast.if_(_game_on(), block[0]))
    return code


class _SharedBody:
    """A case's own statements (its body and its decision's `after each action`)
    written once as a function `f(s, code)` that the case's functions of several
    phases call, returning the follow-up decision asked for (`fu`) where the body
    asks one. Not where the body returns, nor in a phase whose part after the body
    reads a local the body sets (the follow-up aside): that part must read only
    what the state holds."""

    def __init__(self, writer: CaseWriter, case: CaseCode):
        self.writer, self.case = writer, case
        with writer.src.capture() as body:  # (pasted: nothing is written yet)
            writer._case_body(case, "end" in case.effects)
        self.body = body
        self.uses_then = any(isinstance(stmt, py.Assign) and any(pyast.is_name(t, "fu") for t in stmt.targets)
                             for stmt in pyast.statements_in(body))
        nodes = list(pyast.walk_all(body))
        self.usable = not any(isinstance(node, py.Return) for node in nodes)
        self.set_here = frozenset(node.id for node in nodes
                                  if isinstance(node, py.Name) and isinstance(node.ctx, py.Store))
        self.name: Optional[str] = None

    def call(self) -> py.stmt:
        """The call of the function (written at the first), `fu` set to its answer
        where the body asks a follow-up."""
        if self.name is None:
            body = self.body + ([pyast.return_(pyast.name("fu"))] if self.uses_then else [])
            what = f"{self.case.label}, its statements (in the phases play does not bring it to)"
            with self.writer.src.origin(Origin(what, self.case.pos)):
                self.name = self.writer._case_function(self.case, body, what)
        called = pyast.call(pyast.name(self.name), _S, pyast.name("code"))
        return pyast.assign(pyast.name("fu"), called) if self.uses_then else pyast.expr_stmt(called)

    def may_follow(self, tail: list[py.stmt]) -> bool:
        """Whether `tail` (what follows the body in a phase) reads no local the body
        sets but the follow-up."""
        set_in_tail = {node.id for node in pyast.walk_all(tail) if isinstance(node, py.Name)
                       and isinstance(node.ctx, py.Store)}
        return not (pyast.names_in(tail) - set_in_tail - {"fu"}) & self.set_here


def _game_on() -> py.expr:
    """`s.result is None`: the game has not ended."""
    return pyast.is_none(pyast.attr(_S, "result"))



def _changes_piece(case: CaseCode, after: list[Block]) -> bool:
    """Whether the statements a check plays before asking (the case, the `after
    each action` blocks `after` it plays) may set the acting piece (`pc`: a
    promotion, a new kind): then what it was when the case started says nothing."""
    blocks = [case.body] + [block[0] for block in after]
    return any(isinstance(node, py.Name) and node.id == "pc" and isinstance(node.ctx, py.Store)
               for block in blocks for node in pyast.walk_all(block))
