"""Runs compiled rules: legal actions, applying one, the end of the game.

Nothing here knows any game: the compiler hands over `CompiledRules`
(runtime/compiled.py), whose generated functions list a decision's actions and apply a case (including the
turn sequence). The engine calls them and keeps one promise: **reading a
position never changes it**. Whether the game is over is decided when a
position is made (`initial_state`, `apply_in_place`, `settle`): the legal
actions are listed then, and if there are none the phase's `if no action` rule
ends the game. The list is kept on the state; every later read returns it.

An `Engine` holds no position and no scratch data: one engine may serve any
number of positions, from any number of threads, as long as each position is
changed by one thread at a time — listing a position's actions counts as a
change: its `forbid result` checks try each candidate on the position itself and
undo it (compilation/journal.py). (Rule coverage counts, when enabled, are shared
and counted without locks.)
"""
from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from operator import itemgetter
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from .chains import records
from .errors import RuleRuntimeError
from .helpers import board_key, count_rejections, empty_sites, notation_key, result_filter
from .pieces import CASE, CHANCE, CHOICE, DESTINATION, FIRST_SHOWN, NO_CHOICE, NO_SITE, ORIGIN
from .results import unscored_ends
from .state import State, empty_occupancy, position_marks, variable_marks
from .values import format_value

if TYPE_CHECKING:
    from random import Random

    from ..parsing.ast import Pos
    from .compiled import CaseRun, CompiledRules, DecisionInfo, PhaseInfo
    from .coverage import RuleCoverage
    from .helpers import AlikeKeys, ResultCheck
    from .pieces import Code, Outcome
    from .results import Results


def _first() -> float:
    """A "random" draw that always takes the first of what is left."""
    return 0.0


# The versions of the keys positions are counted by for `repetitions` (history_key):
# 2, the board's key kept by the writes (1 was the hash of the whole position); 3,
# where the writes do not keep it, the board itself hashed
HISTORY_KEYS = 2
HISTORY_KEYS_HASHED = 3


def history_keys(kept: bool) -> int:
    """How `Engine.history_key` makes its keys, as a number: equal where two
    interpreters make equal keys of equal positions (the version of the keys,
    `HISTORY_KEYS` where the writes keep the board's key (`kept`), else
    `HISTORY_KEYS_HASHED`, and the hash of `None`, which every piece without stones
    holds and which differs between processes before Python 3.12). Saved positions
    carry it with their keys (positions.py)."""
    return hash((HISTORY_KEYS if kept else HISTORY_KEYS_HASHED, None))

# What perft's count of a child played in place (CompiledRules.counted_in_place)
# gives where the child must be played on a copy and settled instead: a count of 0
# means a game over.
PLAYED_ON_A_COPY = -1

# How many notations an engine keeps (a code's notation is a function of the code alone).
NOTATIONS_KEPT = 1 << 16

# A draw over the player's pieces (compilation/draws.py, write_element_draws) keeps a
# try's action with chance k/M (k the piece's actions, M the most a piece has): it
# needs n·M/T tries on average (n pieces, T actions), and lists all n pieces after n
# failed ones, where a listing costs n pieces' bodies and a try one body and its
# random number, list and keeping test. Where T is below a few M, listing is
# cheaper: a playout lists a decision whose last listing gave fewer than 2·M
# actions, and draws it again once a listing gives as many. Both pick uniformly
# among the legal actions, and which one picks depends only on positions already
# played. Measured in benchmarks/PROFILE-NOTES.md ("s-clobber1": a capturing game
# whose actions thin out to a few a piece late in a game; 2·M and 3·M alike there,
# 2·M the nearer to always drawing where a piece's body is the costly part, slides).
LIST_BELOW_PER_BOUND = 2


class Engine:
    """The fast layer of a compiled game (docs/api.md, "The fast layer")."""

    def __init__(self, rules: CompiledRules):
        self.rules = rules
        self.n_players = len(rules.players)
        self.decisions: tuple[DecisionInfo, ...] = rules.decisions
        self.phases: tuple[PhaseInfo, ...] = rules.phases
        # runs[phase][case](state, code): the generated functions that apply a case
        self.runs: tuple[tuple[CaseRun, ...], ...] = rules.runs
        self.results: Results = rules.results
        self.is_chance = tuple(d.is_chance for d in rules.decisions)
        self.coverage: Optional[RuleCoverage] = rules.coverage
        self.turn_hooks: bool = rules.turn_hooks
        self.keeps_history: bool = rules.keeps_history
        self.keeps_boards: bool = rules.keeps_boards
        # whether positions keep their board's key (`State.board_key`, kept by the
        # generated code's writes: compilation/board_keys.py), for `board repetitions`
        # and for the key `repetitions` counts positions by (history_key) where
        # keeping it costs less than hashing the board there
        self.keeps_board_key: bool = rules.keeps_board_key
        self.position_vars: Optional[tuple[int, ...]] = rules.position_vars
        # the variables of a position's key as one value (history_key), or None for none
        positional = rules.position_vars
        self._position_values: Optional[Callable[[list[int]], object]] = \
            tuple if positional is None else itemgetter(*positional) if positional else None
        # per chance event: the running sums of its outcomes' probabilities, in the
        # order of its codes (a weighted pick is a binary search)
        self._cumulative: list[tuple[float, ...]] = [
            tuple(accumulate(d.probabilities[code[CHOICE]] for code in d.codes)) if d.is_chance else ()
            for d in rules.decisions
        ]
        decisions = rules.decisions
        # What random_playout reads by decision and phase (made once, not per playout):
        # whether the choice is weighted (a chance event of unequal odds), the lister
        # (None for a chance event), the outcomes, the unchecked candidates (with
        # `forbid result`: only the action picked is checked, see _pick_checked; the
        # full list is made only when none passes), each phase's `before each turn`,
        # and whether any choice is weighted or any decision has candidates.
        weighted = [d.is_chance and not d.uniform for d in decisions]
        lazy = [d.candidates for d in decisions] if rules.candidate_checks else [None] * len(decisions)
        self._candidates = lazy  # by decision: its unchecked candidates' lister, or None
        # the notations written so far, by code (up to NOTATIONS_KEPT of them): every
        # listing asks them of its actions (the API, the adapters, perft by notation)
        self._notations: dict[Code, str] = {}
        # by decision: its drawer of one legal action (`play the longest turn`), or None
        pickers = [d.pick for d in decisions]
        # by decision: the notation keys when its candidates may hold actions writing
        # one notation, compared among the legal ones only (see _pick_alike), or None
        self._alike = [d.alike_keys for d in decisions]
        # by decision: its candidates as (draw, element) pairs when a playout can draw
        # one at a time instead of listing them (see _draw), else None
        # (with the pool to copy for each draw: every candidate's number)
        # (never with `play the longest turn`, whose pick draws: see runtime/longest.py)
        # (a pool of every candidate, or None for a draw that makes its own of the
        # position's empty sites: DecisionInfo.draws_from_empty)
        draws = [(d.draws[0], d.draws[1], list(range(d.draws[1])) if not d.draws_from_empty else None)
                 if d.draws and d.alike_keys is None and d.pick is None else None
                 for d in decisions]
        # by decision with a draw over the player's pieces: below how many actions its
        # last listing in a playout makes the playout list its next position rather
        # than draw (0: always draw; see random_playout)
        few = [LIST_BELOW_PER_BOUND * d.draws_per_element if drawn is not None else 0
               for d, drawn in zip(decisions, draws)]
        # by phase: what tells whether its `before each turn` changed the position
        # (None where it cannot)
        self._marks: list[Optional[Callable[[State], object]]] = [
            (variable_marks if phase.before_turn_variables_only else position_marks)
            if phase.before_turn_changes else None for phase in rules.phases]
        self._playout_tables = (
            weighted,
            [d.legal for d in decisions],  # (None for a chance event of fixed outcomes)
            [d.codes for d in decisions],
            lazy,
            [phase.before_turn for phase in rules.phases],
            self._marks,
            any(weighted),
            any(c is not None for c in lazy),
            draws,
            any(d is not None for d in draws),
            pickers,
            any(p is not None for p in pickers),
            few,
            any(few),
        )

    # ------------------------------------------------------------ positions
    def initial_state(self) -> State:
        """The start position."""
        s = self.blank_state()
        self.settle(s)
        return s

    def blank_state(self) -> State:
        """The start position, not yet settled: for building a position by hand
        (`settle` it when done)."""
        rules = self.rules
        s = State.__new__(State)
        s.board = list(rules.initial_board)
        s.occ = empty_occupancy(self.n_players, self.rules.masked_owners)
        for site, piece in enumerate(s.board):
            if piece is not None:
                s.occ[piece[0]].append(site)
        s.vars = list(rules.initial_vars)
        s.phase = 0
        first = rules.phases[0]
        s.player = first.order[0]
        s.step = 0
        s.decision = first.turn[0]
        s.carry = -1
        s.ply = 0
        s.result = None
        s.next_player = -1
        s.next_phase = -1
        s.last = None
        s.legal = None
        s.ending = None
        s.turn_start = True
        s.history = {}
        s.history_shared = False
        s.boards = {}
        s.board_firsts = {}
        s.boards_shared = False
        s.board_counted = 0
        s.board_key = board_key(s.board) if self.keeps_board_key else 0
        s.empty = empty_sites(s.board) if rules.keeps_empty else None
        s.chains = None  # (no group known yet: runtime/chains.py)
        return s

    def copy(self, s: State) -> State:
        return s.copy()

    def settle(self, s: State) -> None:
        """List the legal actions of a position just made; at the start of a turn
        keep the position (for `repetitions`) and run `before each turn`; end the
        game when nobody can act (docs/format.md 3.15)."""
        if s.result is not None:
            s.legal = []
            return
        if s.turn_start and self.keeps_boards and not s.board_counted:
            s.count_board()
        decision = self.decisions[s.decision]
        if decision.is_chance and decision.legal is None:
            # The outcomes of a chance event are fixed when the rules are compiled
            # (unless drawn from a set: then listed as a decision's actions are).
            legal: Sequence[Code] = decision.codes
        else:
            try:
                # (a decision, unlike a chance event, has its lister)
                legal = decision.legal(s)  # type: ignore[misc]
            except RuleRuntimeError as exc:
                raise self._listing_fault(exc, s) from None
        if s.turn_start:
            s.turn_start = False
            if self.turn_hooks:
                marks_of = self._marks[s.phase]
                marks = marks_of(s) if marks_of is not None else None
                self._start_turn(s, legal)
                s.board_counted = 0
                if s.result is not None:
                    s.legal = []
                    return
                if marks_of is not None and marks_of(s) != marks:
                    legal = self._listed_again(s)
        if not legal:
            self._no_action(s)
            legal = []
        s.legal = legal

    def position_key(self, s: State) -> tuple[object, ...]:
        """What makes a position the same for `repetitions`: the board (every piece
        with its attributes), the variables that are part of the position, the
        phase, the player to move and the decision to take."""
        values = s.vars if self.position_vars is None else [s.vars[i] for i in self.position_vars]
        return (tuple(s.board), tuple(values), s.phase, s.player, s.decision)

    def history_key(self, s: State) -> int:
        """The number `repetitions` counts the position by (`State.history`): the hash
        of what `position_key` holds, with the board's key kept by the writes
        (`State.board_key`, compilation/board_keys.py) for the board itself — no
        hash of the whole board at every turn — or, where the writes do not keep that
        key (it would cost more: `board_keys.keeping_costs_less`), the board itself.
        Equal positions have equal keys."""
        values = self._position_values
        board = s.board_key if self.keeps_board_key else tuple(s.board)
        if values is None:
            return hash((board, s.phase, s.player, s.decision))
        return hash((board, values(s.vars), s.phase, s.player, s.decision))

    def repetitions(self, s: State) -> int:
        """How often the position has occurred at the start of a turn (this one
        included when it is such a position)."""
        return s.history.get(self.history_key(s), 0) if self.keeps_history else 0

    def _start_turn(self, s: State, legal: Sequence[Code]) -> None:
        reps = 0
        if self.keeps_history:
            reps = s.count_position(self.history_key(s))
        phase = self.phases[s.phase]
        if phase.before_turn is not None:
            try:
                phase.before_turn(s, not legal, reps)
            except RuleRuntimeError as exc:
                raise _located(exc, phase.pos, f"in the 'before each turn' rules of phase '{phase.name}'") from None

    def _listed_again(self, s: State) -> Sequence[Code]:
        """The legal actions of `s` listed again after its `before each turn` may
        have changed the position (they were listed for its `no legal action`)."""
        decision = self.decisions[s.decision]
        if decision.is_chance and decision.legal is None:
            return decision.codes
        try:
            return decision.legal(s)  # type: ignore[misc]
        except RuleRuntimeError as exc:
            raise self._listing_fault(exc, s) from None

    def _no_action(self, s: State) -> None:
        phase = self.phases[s.phase]
        try:
            phase.no_action(s, self.repetitions(s))
        except RuleRuntimeError as exc:
            raise _located(exc, phase.pos, f"in the 'if no action' rule of phase '{phase.name}'") from None
        if s.result is None:
            raise RuleRuntimeError(
                phase.pos,
                f"{self.rules.players[s.player]} has no legal action in phase '{phase.name}' "
                f"and the phase's 'if no action' rule did not end the game",
            )

    # ------------------------------------------------------------ reading
    def legal(self, s: State) -> Sequence[Code]:
        """The legal action codes (do not change the list: it belongs to the state)."""
        legal = s.legal
        if legal is None:  # a position changed by hand since it was settled
            self.settle(s)
            legal = s.legal
        return legal  # type: ignore[return-value]  # (settle has just listed them)

    def legal_with_duplicates(self, s: State) -> list[Code]:
        """The legal action codes before actions that write the same notation are
        merged (the first is kept in `legal`): for `lint`, which reports such clashes."""
        decision = self.decisions[s.decision]
        if self.to_move(s) is None:
            return []
        if decision.is_chance and decision.legal is None:
            return list(decision.codes)
        # (a decision, unlike a chance event, has its lister)
        return decision.legal_with_duplicates(s)  # type: ignore[misc]

    def to_move(self, s: State) -> Optional[int]:
        """Player index, CHANCE, or None when the game is over."""
        if s.legal is None:
            self.settle(s)
        if s.result is not None:
            return None
        return CHANCE if self.is_chance[s.decision] else s.player

    def is_over(self, s: State) -> bool:
        return self.to_move(s) is None

    def outcome(self, s: State) -> Optional[Outcome]:
        """(winner code, scores tuple) once the game is over, else None: the code is
        the winner's index, -1 for none, below -1 for a team (`winners`)."""
        return s.result if self.to_move(s) is None else None

    def winners(self, code: int) -> tuple[int, ...]:
        """The players an outcome's winner code names (`outcome(s)[0]`): one, the
        players of a team (`teams:`), or none."""
        return self.results.winners(code)

    def ending(self, s: State) -> Optional[tuple[str, Pos]]:
        """(how, source position) of the rule that ended the game, or None: how is
        "win", "lose", "draw", "end game" or "no legal action" (`EndingKind.word`)."""
        if self.to_move(s) is not None or s.ending is None:
            return None
        how, pos = self.results.describe(s.ending)
        return how.word, pos

    def scores(self, s: State) -> Optional[tuple[int, ...]]:
        """The `score` rule on this position, per player index (None without one)."""
        if self.results.score is None:
            return None
        return self.results.scores(s)

    def piece_counts(self, s: State) -> list[list[int]]:
        """Each player's pieces on the board: `counts[player]` is the number of its
        pieces of each kind (in kind order, as `Game.kinds` lists them), then the
        stones of its colour on the board (its pieces, in a game without stacks)."""
        n_kinds = len(self.rules.kind_symbols)
        counts = [[0] * (n_kinds + 1) for _ in range(self.n_players)]
        board = s.board
        for sites in s.occ:
            for site in sites:
                piece = board[site]
                owner = piece[0]  # type: ignore[index]  # (occupied: the site lists hold pieces' sites)
                stones = piece[2]  # type: ignore[index]
                if owner >= 0:
                    counts[owner][piece[1]] += 1  # type: ignore[index]
                    if stones is None:
                        counts[owner][n_kinds] += 1
                if stones is not None:
                    for colour in stones:
                        if colour >= 0:
                            counts[colour][n_kinds] += 1
        return counts

    def chance_probabilities(self, s: State) -> list[tuple[Code, float]]:
        decision = self.decisions[s.decision]
        legal = self.legal(s)
        if decision.legal is not None:  # (drawn from a set: each outcome listed as likely)
            return [(code, 1 / len(legal)) for code in legal]
        return [(code, decision.probabilities[code[CHOICE]]) for code in legal]

    # ------------------------------------------------------------ applying
    def apply_in_place(self, s: State, code: Code, settle: bool = True) -> None:
        """Play `code` (one of `legal(s)`), changing `s`. With `settle=False` the
        position reached is listed only when asked (`legal`, `to_move`, ...) or, as
        little as needed, by `random_legal`."""
        try:
            self.runs[s.phase][code[0]](s, code)  # (code[0]: its case)
        except RuleRuntimeError as exc:
            case = self.rules.cases[code[CASE]]
            raise _located(exc, case.pos, f"while applying {case.label}") from None
        s.ply += 1
        s.last = code
        s.legal = None
        if settle:
            self.settle(s)

    def random_legal(self, s: State, rng: Random) -> Optional[Code]:
        """A legal action of `s` drawn as `pick_random` draws it, or None when the game
        is over. A position left unsettled (`apply_in_place(..., settle=False)`) whose
        decision has `forbid result` rules is not listed whole: candidates are drawn
        and checked one at a time, as in `random_playout`, and it stays unsettled
        (`actor` then tells who acts)."""
        code = self._unsettled_pick(s, rng.random)
        if code is not None:
            return code if self._turn_started(s, code) else None
        if self.to_move(s) is None:
            return None
        return self.pick_random(s, rng)

    def prepare(self, s: State) -> bool:
        """Whether the game goes on in `s`, found listing no more than needed: an
        unsettled position (see `random_legal`) is checked only until one action is
        allowed, and its turn started (`before each turn`) with that, so that
        `legal_matching` and `random_legal` can then read it."""
        # (the first candidate first, and so on: any allowed one will do, and no
        # draw is taken from a generator)
        found = self._unsettled_pick(s, _first)
        if found is not None:
            return self._turn_started(s, found)
        return self.to_move(s) is not None

    def legal_matching(self, s: State, keep: Callable[[Code], bool]) -> list[Code]:
        """The legal actions of `s` that `keep` keeps, in the order of `legal(s)`; on a
        position `prepare` has made ready, only the kept ones are checked."""
        lazy = self._unsettled_lister(s)
        if lazy is None or s.turn_start or self._alike[s.decision] is not None:
            return [code for code in self.legal(s) if keep(code)]
        kept = [code for code in lazy(s) if keep(code)]
        counts = self.coverage.counts if self.coverage is not None else None
        try:
            result_filter(s, kept, self.rules.candidate_checks[s.phase], counts)
        except RuleRuntimeError as exc:
            raise self._listing_fault(exc, s) from None
        return kept

    def _unsettled_lister(self, s: State) -> Optional[Callable[[State], list[Code]]]:
        """The lister of unchecked candidates of `s` when `s` is unsettled and its
        decision has `forbid result` rules, else None."""
        if s.legal is not None or s.result is not None \
                or s.turn_start and self.phases[s.phase].before_turn_changes:
            # (one action drawn before `before each turn` changes the position: list them all)
            return None
        return self._candidates[s.decision]

    def _unsettled_pick(self, s: State, rand: Callable[[], float]) -> Optional[Code]:
        """On an unsettled position with unchecked candidates (`_unsettled_lister`),
        an allowed one drawn with `rand` (see `_pick_checked`); else None."""
        lazy = self._unsettled_lister(s)
        if lazy is None:
            return None
        if s.turn_start and self.keeps_boards and not s.board_counted:
            s.count_board()
        try:
            return self._pick_checked(s, lazy(s), rand, self.rules.candidate_checks[s.phase])
        except RuleRuntimeError as exc:
            raise self._listing_fault(exc, s) from None

    def _turn_started(self, s: State, allowed: Code) -> bool:
        """Start the turn of unsettled `s` when it starts one (`allowed` is one of its
        legal actions); whether the game goes on."""
        if s.turn_start:
            s.turn_start = False
            self._start_turn(s, (allowed,))
            s.board_counted = 0
            if s.result is not None:
                s.legal = []
                return False
        return True

    def _listing_fault(self, exc: RuleRuntimeError, s: State) -> RuleRuntimeError:
        decision = self.decisions[s.decision]
        return _located(exc, decision.pos, f"while listing the actions of '{decision.name}'")

    def actor(self, s: State) -> int:
        """Who acts in `s` (a player index or CHANCE), the game going on: unlike
        `to_move`, lists nothing (for a position `random_legal` has just drawn from)."""
        return CHANCE if self.is_chance[s.decision] else s.player

    # ------------------------------------------------------------ tools
    def pick_random(self, s: State, rng: Random) -> Code:
        """A legal code chosen uniformly at random (a chance outcome by its
        probability), with `rng` (a random.Random)."""
        legal = self.legal(s)
        if not legal:
            raise ValueError("the game is over: there is no action to pick")
        decision = self.decisions[s.decision]
        if decision.is_chance and not decision.uniform:
            x = rng.random()
            if legal is decision.codes:
                # (legal is decision.codes, a tuple of codes that the type checker takes as Any)
                return legal[min(bisect_right(self._cumulative[s.decision], x), len(legal) - 1)]  # type: ignore[no-any-return]
            probabilities = decision.probabilities
            for code in legal:
                x -= probabilities[code[4]]  # (its choice: the outcome)
                if x < 0:
                    return code
            return legal[-1]
        return legal[int(rng.random() * len(legal))]

    def random_playout(self, s: State, rng: Random, max_plies: int) -> int:
        """Play `s` (changed in place) to the end, uniformly at random (chance by its
        probabilities), for at most `max_plies` actions; returns the number played.

        The loop of `apply_in_place` and `settle`, written out: this is the hot
        path of benchmarks, analysis and the AI's playouts."""
        (weighted, listers, outcomes, lazy, befores, marks_by_phase, any_weighted, any_lazy, draws, any_draws, pickers,
         any_pick, few, any_few) = self._playout_tables
        if any_draws:
            # (each playout its own pools, which the draws reorder: see compilation/draws.py)
            draws = [(drawn[0], drawn[1], drawn[2][:] if drawn[2] is not None else None) if drawn is not None
                     else None for drawn in draws]
            drawn_by = draws[:]
        checks = self.rules.candidate_checks
        # (None: the taken sites a draw finds leave this playout's pools for good —
        # nothing empties a site; False: the pools keep every candidate)
        kept_cut = None if self.rules.sites_stay_taken else False
        runs = self.runs
        rand = rng.random
        if s.legal is None:
            self.settle(s)
        if s.result is not None or max_plies <= 0:
            return 0
        if s.chains is None and self.rules.keeps_chains:
            # (played in place: the groups' records kept from ply to ply, runtime/chains.py)
            s.chains = records(len(s.board))
        # The position's ply, last action and legal actions are kept in locals and
        # stored when the loop ends: generated code never reads them.
        legal: Sequence[Code] = s.legal  # type: ignore[assignment]  # (settled above)
        d = s.decision
        keeps_history = self.keeps_history
        keeps_boards = self.keeps_boards
        history_key = self.history_key
        n = 0  # actions applied
        code = None
        pending = None  # the action already picked for the position reached
        # Each call that runs rules has its own `try` (free since Python 3.11), so
        # that a fault tells what was being done: applying `code` (False), listing
        # the actions of s.decision (True) or the phase's `before each turn` (None).
        # (A `for` counts the actions with fewer steps than `n += 1` and a test.)
        try:
            for n in range(1, max_plies + 1):
                if pending is not None:
                    code, pending = pending, None
                elif any_weighted and weighted[d]:
                    s.legal = legal
                    code = self.pick_random(s, rng)
                else:
                    code = legal[int(rand() * len(legal))]
                try:
                    runs[s.phase][code[0]](s, code)  # (code[0]: its case)
                except RuleRuntimeError as exc:
                    n -= 1  # (not applied)
                    raise self._fault(exc, s, code, False) from None
                if s.result is not None:
                    legal = []
                    break
                d = s.decision
                if keeps_boards and s.turn_start:
                    # (counted before the listing: `forbid result` may read it; a
                    # board never counted, the usual one, counted here: count_board
                    # written out, a call less a ply)
                    key = s.board_key
                    if s.boards_shared or key in s.board_firsts:
                        s.count_board()
                    else:
                        s.board_firsts[key] = s.board[:]
                        s.board_counted = s.boards[key] = 1
                lister = listers[d]
                if lister is None:
                    legal = outcomes[d]
                else:
                    try:
                        if any_draws and draws[d] is not None and n < max_plies:
                            drawn = draws[d]
                            if lazy[d] is None:  # (nothing to check: _draw, written out)
                                pending = drawn[0](s, drawn[2], rand, kept_cut)  # type: ignore[index]
                            else:
                                pending = self._draw(s, drawn, rand, checks[s.phase])  # type: ignore[arg-type]
                        elif any_lazy and lazy[d] is not None and n < max_plies:
                            # (lazy[d] is not None: tested just above)
                            pending = self._pick_checked(s, lazy[d](s), rand, checks[s.phase])  # type: ignore[misc]
                        elif any_pick and pickers[d] is not None and n < max_plies:
                            # (pickers[d] is not None: tested just above)
                            pending = pickers[d](s, rand)  # type: ignore[misc]
                        if pending is None:
                            legal = lister(s)
                            if any_few and few[d]:  # (drawn next time only if there are many)
                                draws[d] = None if len(legal) < few[d] else drawn_by[d]
                    except RuleRuntimeError as exc:
                        raise self._fault(exc, s, code, True) from None
                if s.turn_start:  # only set when turns start with work (see settle)
                    s.turn_start = False
                    # (_start_turn, written out; an action drawn is one the turn has)
                    reps = s.count_position(history_key(s)) if keeps_history else 0
                    before = befores[s.phase]
                    marks_of = marks_by_phase[s.phase]
                    marks = marks_of(s) if marks_of is not None else None
                    if before is not None:
                        try:
                            before(s, pending is None and not legal, reps)
                        except RuleRuntimeError as exc:
                            raise self._fault(exc, s, code, None) from None
                    s.board_counted = 0
                    if s.result is not None:
                        legal = []
                        break
                    if marks_of is not None and marks_of(s) != marks:
                        pending = None
                        legal = self._listed_again(s)
                if pending is not None:
                    continue
                if not legal:
                    try:
                        self._no_action(s)
                    except RuleRuntimeError as exc:
                        raise self._fault(exc, s, code, True) from None
                    legal = []
                    break
        finally:
            s.ply += n
            if code is not None:
                s.last = code
        s.legal = legal
        return n

    def _fault(self, exc: RuleRuntimeError, s: State, code: Code, listing: Optional[bool]) -> RuleRuntimeError:
        """A fault during a playout, located at the case applied, the decision listed
        or the rules of the turn's start; the position is left unsettled."""
        s.legal = None
        if listing is None:
            phase = self.phases[s.phase]
            return _located(exc, phase.pos, f"in the 'before each turn' rules of phase '{phase.name}'")
        if not listing:
            case = self.rules.cases[code[CASE]]
            return _located(exc, case.pos, f"while applying {case.label}")
        return self._listing_fault(exc, s)

    def _pick_checked(
        self, s: State, candidates: list[Code], rand: Callable[[], float], checks: Sequence[Optional[ResultCheck]]
    ) -> Optional[Code]:
        """A candidate that no `forbid result` forbids, uniformly at random among
        those (candidates are tried in random order, the forbidden ones dropped), or
        None when all are forbidden. Where several candidates may write one notation
        (the decision's `alike_keys`), only the first allowed of them is legal
        (format.md 3.8): one drawn that an allowed one before it writes alike is
        dropped too (`_first_alike`). Coverage counts stay as they were — checking
        is not playing — but for the `forbid result` lines, which count the
        candidates they rejected (see helpers.result_filter)."""
        counts = self.coverage.counts if self.coverage is not None else None
        saved = counts[:] if counts is not None else None
        rejected: list[int] = []
        keys = self._alike[s.decision]
        # (what was listed, in its order, and what is known of its candidates: only
        # where several may write one notation)
        listed = candidates[:] if keys is not None else None
        verdicts: dict[Code, bool] = {}
        try:
            while candidates:
                i = int(rand() * len(candidates))
                code = candidates[i]
                # (code[0]: its case; no check: nothing can forbid it)
                check = checks[code[0]]
                line = check(s, code) if check is not None else 0
                if not line:
                    if listed is None or keys[code[0]] is None:  # type: ignore[index]
                        return code
                    verdicts[code] = True
                    if self._first_alike(s, code, listed, keys, checks, verdicts,  # type: ignore[arg-type]
                                         rejected if counts is not None else None):
                        return code
                else:
                    if counts is not None:
                        rejected.append(line)
                    if listed is not None:
                        verdicts[code] = False
                candidates[i] = candidates[-1]
                candidates.pop()
            return None
        finally:
            if counts is not None:
                counts[:] = saved  # type: ignore[assignment]  # (saved is counts' copy)
                count_rejections(counts, rejected)

    @staticmethod
    def _draw(s: State, drawn: tuple[Callable[[State, Optional[list[int]], Callable[[], float], Optional[bool]],
                                              Optional[Code]], int, Optional[list[int]]],
              rand: Callable[[], float], checks: Optional[Sequence[Optional[ResultCheck]]]) -> Optional[Code]:
        """An action drawn uniformly among those the decision's candidates give and
        no `forbid result` (with `checks`) forbids, or None when none does:
        candidates are drawn without replacement until one gives an allowed action
        (see compilation/draws.py), so that the position's actions need not be listed."""
        # (None: a draw from the empty sites, whose pool this one is — made here once,
        # so that the candidates the checks forbid stay out of it)
        draw = drawn[0]
        pool = drawn[2][:] if drawn[2] is not None else s.empty + list(  # type: ignore[operator]  # (kept: see Engine)
            range(len(s.board) - 1, drawn[1]))
        while True:
            code = draw(s, pool, rand, True)
            # (no check: nothing can forbid it)
            check = checks[code[0]] if code is not None and checks is not None else None
            if check is None or not check(s, code):
                return code

    @staticmethod
    def _first_alike(s: State, code: Code, listed: list[Code], keys: AlikeKeys,
                     checks: list[Optional[ResultCheck]], verdicts: dict[Code, bool],
                     rejected: Optional[list[int]]) -> bool:
        """Whether no candidate listed before `code` (an allowed one) writes its
        notation and is allowed: then `code` is the legal action of that notation.
        The candidates asked are checked once (`verdicts`)."""
        key = notation_key(code, keys)
        for earlier in listed:
            if earlier is code:
                return True
            if keys[earlier[0]] is None or notation_key(earlier, keys) != key:
                continue
            allowed = verdicts.get(earlier)
            if allowed is None:
                # (no check: nothing can forbid it)
                check = checks[earlier[0]]
                line = check(s, earlier) if check is not None else 0
                if line and rejected is not None:
                    rejected.append(line)
                allowed = verdicts[earlier] = not line
            if allowed:
                return False
        return True

    def perft(self, s: State, depth: int) -> list[int]:
        """The number of action sequences of each length 1..depth from `s` (chance
        outcomes count as actions; a game that ends early adds nothing deeper)."""
        counts = [0] * (depth + 1)
        apply = self.apply_in_place

        def walk(position: State, d: int) -> None:
            legal = self.legal(position)
            counts[d] += len(legal)
            if d == depth:
                return
            if d == depth - 1:
                counts[depth] += last_ply(position, legal)
                return
            for code in legal:
                child = position.copy()
                apply(child, code)
                walk(child, d + 1)

        known = self._known_child_counts(s)
        reached_by = [d.reached for d in self.decisions]
        counted = [d.counted for d in self.decisions]
        any_counted = any(counted)
        # (a turn's start with no work: settling it only lists its actions)
        plain_starts = not self.turn_hooks and not self.keeps_boards

        def child_count(child: State) -> int:
            # (the child's legal actions counted on its board where its decision's
            # are one per empty site of a fixed set, some there, and settling it
            # would only list them — the game not over, no work at a turn's start;
            # else it is settled and its listing counted)
            count = counted[child.decision]
            if count is not None and child.result is None and (plain_starts or not child.turn_start):
                n = count(child)
                if n:
                    return n
            self.settle(child)
            return len(child.legal)  # type: ignore[arg-type]  # (settle has listed it)

        in_place = self.rules.counted_in_place
        counts_in_place = [d.counts_in_place for d in self.decisions]

        def count_in_place(child: State) -> int:
            # (a child played on its parent itself, undone after: 0 where its game is
            # over — settled, it would list nothing —; its count where child_count
            # would take it without settling, from a count that only reads the
            # position; else PLAYED_ON_A_COPY, and the child is played on a copy)
            if child.result is not None:
                return 0
            decision = child.decision
            count = counted[decision]
            if count is not None and counts_in_place[decision] and (plain_starts or not child.turn_start):
                try:
                    n = count(child)
                except RuleRuntimeError as exc:
                    listing_failed.append(True)
                    raise self._listing_fault(exc, child) from None
                if n:
                    return n  # (0: settled, a `no action` rule may act)
            return PLAYED_ON_A_COPY

        # (set where a count in place failed: its fault located as the listing's, not the case's)
        listing_failed: list[bool] = []

        def last_ply(position: State, legal: Sequence[Code]) -> int:
            # (the actions of the last ply counted, not played: each child's legal
            # actions are listed when it is settled (or counted), or known without
            # playing it, or listed on the position the listing of `position`
            # reached by playing it)
            leaves = 0
            counts = known[position.phase] if known and not position.turn_start else None
            reach = reached_by[position.decision]
            reached = reach(position) if reach is not None else None
            if counts is None and not reached:
                if not any_counted:
                    for code in legal:
                        child = position.copy()
                        apply(child, code)
                        leaves += len(child.legal)  # type: ignore[arg-type]  # (apply has settled it)
                    return leaves
                tried = in_place[position.phase] if in_place else None
                for code in legal:
                    if tried is not None:
                        play = tried[code[0]]  # (code[0]: its case)
                        if play is not None:
                            try:
                                played = play(position, code, count_in_place)
                            except RuleRuntimeError as exc:
                                # (undone; located as apply_in_place and settle locate it)
                                if listing_failed:
                                    raise
                                case = self.rules.cases[code[CASE]]
                                raise _located(exc, case.pos, f"while applying {case.label}") from None
                            if played != PLAYED_ON_A_COPY:
                                leaves += played
                                continue
                    child = position.copy()
                    apply(child, code, False)
                    leaves += child_count(child)
                return leaves
            if counts is None:
                # (every candidate counted by the listing, the usual: summed in one pass)
                found = list(map(reached.get, legal))  # type: ignore[union-attr]  # (reached: tested above)
                if all(found):
                    return sum(found)
            for code in legal:
                if counts is not None:
                    n = counts[code[0]]
                    if n is not None:
                        leaves += n
                        continue
                if reached:
                    n = reached.get(code)
                    if n:
                        leaves += n
                        continue
                child = position.copy()
                apply(child, code, False)
                leaves += child_count(child)
            return leaves

        if depth >= 1:
            self.legal(s)  # (`s` is the caller's: settled, and scored if over, as it would be)
            with unscored_ends():  # (the positions below are perft's own)
                walk(s, 1)
        return counts[1:]

    def _known_child_counts(self, s: State) -> list[list[Optional[int]]]:
        """By phase and case: how many legal actions every child of the case has,
        where that is known without playing it (`CompiledRules.known_children`: a
        decision whose actions do not depend on the position, `s` or any other),
        else None; empty where nothing is known."""
        counts = []
        for row in self.rules.known_children:
            per_case: list[Optional[int]] = []
            for index in row:
                n = None
                if index is not None:
                    decision = self.decisions[index]
                    # (a fixed lister reads nothing of the position it is given)
                    n = len(decision.codes if decision.is_chance else decision.legal(s))  # type: ignore[misc]
                per_case.append(n or None)  # (none: the child ends the game, played as before)
            counts.append(per_case)
        return counts if any(n is not None for per_case in counts for n in per_case) else []

    def landing_site(self, code: Code) -> Optional[int]:
        """The site (index) an action lands on or chooses, or None (off the board, a
        pass, a chance outcome)."""
        destination = code[DESTINATION]
        return destination if destination != NO_SITE else None

    def describe_phase(self, s: State) -> tuple[str, Pos]:
        """(name, source position) of the position's phase."""
        phase = self.phases[s.phase]
        return phase.name, phase.pos

    def describe_action(self, code: Code) -> tuple[str, Pos]:
        """(label, source position) of the case a code applies: "action 'leap', onto
        enemy", at the line of its notation (or of the case, when it has the default one)."""
        case = self.rules.cases[code[CASE]]
        return case.label, case.notation_pos or case.pos

    # ------------------------------------------------------------ notation
    def notation(self, code: Code) -> str:
        known = self._notations.get(code)
        if known is None:
            known = self._notation(code)
            if len(self._notations) < NOTATIONS_KEPT:
                self._notations[code] = known
        return known

    def _notation(self, code: Code) -> str:
        # (the fields are read where the template shows them, a code with a choice
        # having all five)
        case = self.rules.cases[code[CASE]]
        names = self.rules.site_names
        parts = []
        for part in case.template:
            if part == "{from}":
                origin = code[ORIGIN]
                parts.append(names[origin] if origin != NO_SITE else "")
            elif part == "{to}":
                destination = code[DESTINATION]
                parts.append(names[destination] if destination != NO_SITE else "off")
            elif part == "{outcome}":
                parts.append(self.decisions[case.decision].outcome_labels[code[CHOICE]])
            elif part == "{choice}" or part == "={choice}":
                choice = code[CHOICE]
                if choice != NO_CHOICE:
                    symbol = self.rules.kind_symbols[case.choice_kinds[choice]]
                    parts.append(symbol if part == "{choice}" else "=" + symbol)
            elif case.shown and part.startswith("{"):
                parts.append(self._shown(case.shown, part, code))
            else:
                parts.append(part)
        return "".join(parts)

    def _shown(self, shown: tuple[tuple[str, str], ...], part: str, code: Code) -> str:
        """A value the notation shows (`{d}`), carried by the code after its choice."""
        for k, (field, kind) in enumerate(shown):
            if field == part:
                return format_value(code[FIRST_SHOWN + k] if len(code) > FIRST_SHOWN + k else None, kind, self._name)
        return part

    def _name(self, kind: str, index: int) -> str:
        return self.rules.site_names[index] if kind == "site" else self.rules.players[index]


def _located(exc: RuleRuntimeError, pos: Optional[Pos], doing: str) -> RuleRuntimeError:
    """The fault with the rule it happened in (when it has no position yet) and
    what was being done."""
    located = RuleRuntimeError(exc.pos or pos, f"{exc.message} ({doing})")
    return located
