"""The compiled game, as the runtime gets it from the compiler.

`CompiledRules` holds, by index, a `DecisionInfo` per decision and chance event
(`State.decision` indexes them), a `CaseInfo` per case — one way an action can
turn out; an action code's first field indexes them —, a `PhaseInfo` per phase
(`State.phase`), the generated functions that apply each case in each phase and
check it against `forbid result`, the start position, and the generated module
itself with where each of its functions and constants comes from.

The compiler (compilation/compiler.py) builds these once, complete, after the
generated module is compiled; nothing changes them afterwards. What changes is
per position (`State`) or counted (`RuleCoverage.counts`), and the tables the
generated code fills on first use (`helpers.make_code`, `walks.WalkTables`).
"""
from __future__ import annotations

import ast as py
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Hashable, Mapping, Optional

if TYPE_CHECKING:
    from ..parsing.ast import Pos
    from .coverage import RuleCoverage
    from .helpers import AlikeKeys, ResultCheck
    from .pieces import Code, Piece
    from .results import Results
    from .state import State

# The generated functions, as the engine calls them.
Lister = Callable[["State"], list["Code"]]  # a decision's legal action codes in a position
CaseRun = Callable[["State", "Code"], None]  # runs[phase][case](state, code): apply the case
NoAction = Callable[["State", int], None]  # (state, repetitions): the phase's `if no action`
BeforeTurn = Callable[["State", bool, int], None]  # (state, no legal action, repetitions)
Picker = Callable[["State", Callable[[], float]], Optional["Code"]]  # (state, rand): one legal code drawn, or None
# (state): right after a listing, by candidate, the position it reaches, where the listing played it; or None
Reached = Callable[["State"], Optional[dict["Code", int]]]


class CasePattern(Enum):
    """How a case's action moves, which tells what its codes' fields are."""

    MOVE = "move"  # a piece from origin to destination (step, slide, walk, go to ...), or off the board
    JUMP = "jump"  # the same, over the jumped site
    SCREEN = "screen"  # the same, over one piece (the screen) somewhere on its way
    DROP = "drop"  # a new piece onto destination
    SELECT = "select"  # destination chosen
    PASS = "pass"  # no site
    CHANCE = "chance"  # a chance event's outcome: the code's choice

    @property
    def moves(self) -> bool:
        """Whether a piece leaves its site: the codes' origin is a site."""
        return self is CasePattern.MOVE or self is CasePattern.JUMP or self is CasePattern.SCREEN

    @property
    def lands(self) -> bool:
        """Whether the codes' destination is a site (-1: off the board)."""
        return self is not CasePattern.PASS and self is not CasePattern.CHANCE


# The file name the generated module is compiled under: what tracebacks and
# profilers show for the generated functions (analysis/rule_profile.py finds them by it).
GENERATED_FILE = "<regelwerk rules>"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a generated function or constant comes from: a rule of the game
    ("action 'leap', onto enemy", "phase 'play', after each turn") and its place."""

    what: str
    pos: Optional[Pos] = None

    def __str__(self) -> str:
        return self.what if self.pos is None else f"{self.what} ({self.pos.file}:{self.pos.line})"


@dataclass(frozen=True, slots=True)
class CaseInfo:
    """One way an action can turn out (or a chance event's outcomes): what is
    needed to write and describe its codes, and its compiled statements."""

    decision: int  # the decision (or chance event) it belongs to
    pattern: CasePattern
    action: str  # the name of its action (of the chance event, for a chance event's case)
    label: str  # "action 'leap', onto enemy", for messages
    template: tuple[str, ...]  # its notation: literal strings and the fields "{from}", "{to}", ...
    pos: Pos
    notation_pos: Optional[Pos] = None  # where its notation is written (None: the default one)
    choice_kinds: tuple[int, ...] = ()  # the kinds of a `promote ... to one of`, which the code's choice picks
    # Its statements and its decision's `after each action`, as compiled (the functions
    # of `runs` hold them), for tools that compare cases (lint).
    body: tuple[py.stmt, ...] = ()
    after: tuple[py.stmt, ...] = ()
    # The value fields its notation shows, in the order its codes carry them after the
    # choice (pieces.FIRST_SHOWN): (field, kind) as ("{d}", "number") (compilation/action_values.py).
    shown: tuple[tuple[str, str], ...] = ()
    # Per value shown that is a number: the values it can take, or None when the rules
    # do not fix them (compilation/domains.py); sites, players and flags: None.
    shown_values: tuple[Optional[tuple[Any, ...]], ...] = ()
    # Per value shown that the rules do not fix: the assignment that lost its values, for
    # the message ("" when fixed or not known).
    shown_lost: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DecisionInfo:
    """A decision (its listers) or a chance event (its outcomes)."""

    name: str
    pos: Pos
    is_chance: bool
    legal: Optional[Lister] = None  # the legal action codes (None for a chance event)
    legal_with_duplicates: Optional[Lister] = None  # the same, two codes writing one notation both kept
    # When the candidates (below) may hold several actions writing one notation,
    # compared only among the legal ones: by case, its notation key
    # (helpers.NotationKeys) or None for a case no other writes alike; else None.
    alike_keys: Optional[AlikeKeys] = None
    # With `forbid result`: the codes of the first `prefer` tier that has any, before
    # that check (a new list), for playouts that check only the one they pick (see
    # Engine.random_playout); else None.
    candidates: Optional[Lister] = None
    # For random playouts, when the actions they pick from (the legal ones, or the
    # candidates above) are independent candidates: (draw, n), draw(state, pool,
    # rand) -> the code of a candidate drawn out of pool (a list of numbers below
    # n) that gives one, or None (compilation/draws.py); else None.
    draws: Optional[tuple[Callable[..., Optional[Code]], int]] = None
    # Whether the draw, given None for its pool, makes one of the position's empty
    # sites (`State.empty`) and its other candidates: a drop onto any empty site
    # drawn without drawing occupied sites (compilation/draws.py).
    draws_from_empty: bool = False
    # Where the draw picks one of the player's pieces and keeps one of its actions
    # with a chance in proportion to their number (n above is 0, its pool unread):
    # the most actions one piece gives (compilation/draws.write_element_draws); else 0.
    draws_per_element: int = 0
    # With `play the longest turn`: a legal code drawn uniformly, checking no more
    # candidates than needed (runtime/longest.py), for random playouts; else None.
    # (Its legal listers are then the longest turn's filters; no draws, no candidates.)
    pick: Optional[Picker] = None
    # With `play the longest turn`: how many legal actions the positions its last
    # listing reached have, by candidate (LongestTurn.reached), for perft's last
    # ply; else None.
    reached: Optional[Reached] = None
    # Where the legal actions are one for each empty site of a fixed set and nothing
    # else (compilation/listed_at_once.empty_sites_listed), or the same in every
    # position (the lister reads nothing of it: known_children.fixed_listing;
    # helpers.fixed_counter): their number in a position, counted without listing
    # them (perft's last ply); else, where the lister only makes its list, its
    # generated counter (compilation/counted_listing.py); else None.
    counted: Optional[Callable[["State"], int]] = None
    # Whether `counted` leaves nothing on the position it counts (it reads the
    # position only), so that perft may ask it of a child played in place and
    # undone (`CompiledRules.counted_in_place`).
    counts_in_place: bool = False
    # A chance event's outcomes, by the codes' choice: value, label, probability.
    outcome_values: tuple[Any, ...] = ()  # numbers, player or site indices, strings
    outcome_labels: tuple[str, ...] = ()
    probabilities: tuple[float, ...] = ()
    codes: tuple[Code, ...] = ()  # a chance event's codes, one per outcome
    uniform: bool = False  # a chance event whose outcomes are all equally likely


@dataclass(frozen=True, slots=True)
class PhaseInfo:
    name: str
    order: tuple[int, ...]  # player indices in turn order
    turn: tuple[int, ...]  # decision indices taken in sequence in each turn
    pos: Pos
    no_action: NoAction  # its `if no action` (or the default ending)
    before_turn: Optional[BeforeTurn] = None  # its `before each turn`, if any
    # whether its `before each turn` may change the position (then the turn's actions
    # are listed again after it when it did: they were listed for its `no legal action`)
    before_turn_changes: bool = False
    # whether all it may change is variables (then they alone tell whether it did)
    before_turn_variables_only: bool = False


@dataclass(frozen=True, eq=False)
class CompiledRules:
    """A game's rules as the runtime runs them."""

    players: tuple[str, ...]  # names in play, by index
    site_names: tuple[str, ...]  # by site index
    kind_symbols: tuple[str, ...]  # by kind index: the symbol (notation of a chosen kind)
    decisions: tuple[DecisionInfo, ...]
    cases: tuple[CaseInfo, ...]
    phases: tuple[PhaseInfo, ...]
    runs: tuple[tuple[CaseRun, ...], ...]  # runs[phase][case](state, code): apply a case in a phase
    # result_checks[phase][case](state, code) -> whether a `forbid result` forbids
    # the action, the state left as it was (the case tried in place and undone, or on
    # a copy: compilation/journal.py); None for chance events and for cases none of
    # its lines can forbid (nothing is checked); empty without `forbid result`
    result_checks: tuple[tuple[Optional[ResultCheck], ...], ...]
    # candidate_checks[phase][case](state, code): the same for a candidate that a
    # decision's `candidates` lister gives, whose costliest `where` conditions are
    # asked here rather than while listing (then first); the result_checks
    # themselves where nothing is deferred; empty when no candidate is checked
    candidate_checks: tuple[tuple[Optional[ResultCheck], ...], ...]
    initial_board: tuple[Optional[Piece], ...]  # with the entry for "no site" (-1) at the end
    initial_vars: tuple[int, ...]
    results: Results
    # Whether turns start with work for the engine: `before each turn` rules, or
    # positions to keep for `repetitions` (then `keeps_history`).
    turn_hooks: bool
    keeps_history: bool
    keeps_boards: bool  # whether boards are kept for `board repetitions`
    # whether the generated code's writes keep the board's key (`State.board_key`,
    # compilation/board_keys.py): for `board repetitions`, and for `repetitions`
    # where that costs less than hashing the whole board at each turn (history_key)
    keeps_board_key: bool
    # whether positions keep the list of their empty sites (`State.empty`): a
    # playout's draw takes drops onto any empty site from it (compilation/draws.py)
    keeps_empty: bool
    # whether the players' site lists keep their bitmasks (MaskedSites, like the
    # neutral pieces'): the listers read owners' masks (compilation/prefilters.py)
    # and no `forbid result` tries candidates (each check's writes would keep them)
    masked_owners: bool
    position_vars: Optional[tuple[int, ...]]  # the variables in a position's key (None: all)
    coverage: Optional[RuleCoverage]
    module: py.Module  # the generated code, as compiled
    source_map: Mapping[str, Origin]  # where each generated function and constant comes from, by name
    constants: Mapping[str, Any]  # the generated constants' values, by name
    # known_children[phase][case]: the decision every child of the case is at, within
    # the turn, whose actions do not depend on the position (a fixed listing or a
    # chance event), the case unable to end the game or fail; None where unsure.
    # perft counts those children's actions without playing the case
    # (compilation/known_children.py); empty where nothing is known
    known_children: tuple[tuple[Optional[int], ...], ...] = ()
    # whether positions keep their groups and liberties (`State.chains`,
    # runtime/chains.py): the rules ask whether groups have liberties
    # (compilation/liberties.py)
    keeps_chains: bool = False
    # whether no action empties a site that held a piece (nor any other rule):
    # a playout's draw of a drop onto a fixed region then drops from its pool for
    # good the taken sites it draws (compilation/draws.py)
    sites_stay_taken: bool = False
    # counted_in_place[phase][case]: `f(s, code, count)`, which plays the case on `s`
    # itself, asks `count(s)` of the position reached and undoes the case, also when
    # a rule fails (compilation/counted_in_place.py), returning that count: perft's
    # last ply, where `count` gives engine.PLAYED_ON_A_COPY the child is played on a
    # copy as before (0: its game is over); None
    # where the journal does not cover the case; empty with no count to ask
    counted_in_place: tuple[tuple[Optional[Callable[["State", Code, Callable[["State"], int]], int]], ...], ...] = ()
    # the kinds the first phase makes of which the code assumes no player has two pieces,
    # proven by playing that phase (compilation/start_kinds.py): a position built by hand
    # must keep to it
    lone_from_start: frozenset[int] = frozenset()
    # with them, the keys (start_kinds.start_key) of the positions met in that phase,
    # the only ones of it the proof covers; None without such kinds
    start_keys: Optional[frozenset[Hashable]] = None

    @cached_property
    def source(self) -> str:
        """The generated Python as text, for people who want to read it (the
        compiler never reads it)."""
        return py.unparse(self.module)
