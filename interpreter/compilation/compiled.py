"""What compiling a game's rules gives the runtime: `CompiledRules`, with a
`DecisionInfo` per decision and chance event, a `CaseInfo` per case, a
`PhaseInfo` per phase (runtime/engine.py reads them), and the generated module
itself, with where each of its functions and constants comes from.
"""
from __future__ import annotations

import ast as py
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Optional

from ..parsing import ast
from ..runtime.coverage import RuleCoverage
from ..runtime.results import Results
from .scope import Effect
from .source import Origin

# The kinds of case whose actions move a piece from a site (`from` is a site).
MOVING_CASES = ("move", "jump", "screen")
# A compiled block of statements: (its statements, its cost, what it does to the turn).
Block = tuple[list[py.stmt], int, frozenset[Effect]]


@dataclass
class CaseInfo:
    """One way an action can turn out, with what is needed to apply it."""

    decision: int
    pattern: str  # "move", "jump", "screen", "drop", "select", "pass" or "chance"
    template: tuple[str, ...]  # notation parts: literal strings and field names
    label: str  # "action 'leap', onto enemy" — for messages
    pos: ast.Pos
    body: list[py.stmt] = field(default_factory=list)  # the compiled statements
    fresh_pieces: Optional[py.Name] = None  # drops: the constant of the new piece per player
    pool_pieces: Optional[py.Name] = None  # moves: the constant of the piece waiting on each pool site
    outcomes: Optional[py.Name] = None  # chance events: the constant of the outcome values
    choice_kinds: tuple[int, ...] = ()  # the kinds of a `promote ... to one of` (code[4] picks one)
    after: Optional[Block] = None  # the decision's `after each action`
    effects: frozenset[Effect] = frozenset()  # what its statements do to the turn (scope.Flow.effects)
    cost: int = 1
    notation_pos: Optional[ast.Pos] = None  # where its notation is written (None: the default one)
    # the value fields its notation shows, in the order its codes carry them after the
    # choice: (field, kind) as ("{d}", "number") (action_values.py)
    shown: tuple[tuple[str, str], ...] = ()
    # per value shown that is a number: the values it can take, or None when the rules
    # do not fix them (compilation/domains.py); sites, players and flags: None
    shown_values: tuple[Optional[tuple[Any, ...]], ...] = ()


@dataclass
class DecisionInfo:
    """What the engine needs of a decision or chance event."""

    name: str
    is_chance: bool
    pos: ast.Pos
    legal: Optional[Callable[..., Any]] = None  # legal(state) -> list of codes (decisions)
    legal_with_duplicates: Optional[Callable[..., Any]] = None  # the same, two codes writing one notation kept
    # When the candidates (below) may hold several actions writing one notation,
    # compared only among the legal ones: by case, its notation key
    # (helpers.NotationKeys) or None for a case no other writes alike; else None.
    alike_keys: Optional[tuple[Optional[tuple[int, bool, bool, bool]], ...]] = None
    # With `forbid result`: candidates(state) -> the codes of the first `prefer` tier
    # before that check (a new list), for playouts that check only the one they
    # pick (see Engine.random_playout); else None.
    candidates: Optional[Callable[..., Any]] = None
    # With `play the longest turn`: pick(state, rand) -> a legal code drawn uniformly,
    # checking no more candidates than needed (runtime/longest.py), or None; else None.
    pick: Optional[Callable[..., Any]] = None
    outcome_values: tuple[Any, ...] = ()
    outcome_labels: tuple[str, ...] = ()
    probabilities: tuple[float, ...] = ()
    codes: tuple[tuple[int, ...], ...] = ()  # chance events: every outcome's code
    uniform: bool = False  # chance events: all outcomes equally likely


@dataclass
class PhaseInfo:
    name: str
    order: tuple[int, ...]  # player indices in turn order
    turn: tuple[int, ...]  # decision indices taken in sequence in each turn
    pos: ast.Pos
    # (state, repetitions) -> None: the phase's `if no action` (or the default ending)
    no_action: Optional[Callable[..., Any]] = None
    # (state, no legal action, repetitions) -> None: the phase's `before each turn`
    before_turn: Optional[Callable[..., Any]] = None


@dataclass
class CompiledRules:
    players: list[str]  # names in play
    site_names: list[str]
    decisions: list[DecisionInfo]
    cases: list[CaseInfo]
    phases: list[PhaseInfo]
    runs: list[list[Callable[..., Any]]]  # runs[phase][case](state, code): apply a case in a phase
    initial_board: list[Any]
    initial_vars: list[int]
    results: Results
    module: py.Module  # the generated code, as compiled
    coverage: Optional[RuleCoverage] = None
    kind_symbols: tuple[str, ...] = ()  # by kind index: the symbol (notation of a chosen kind)
    # Whether turns start with work for the engine: `before each turn` rules, or
    # positions to keep for `repetitions` (then `keeps_history`).
    turn_hooks: bool = False
    keeps_history: bool = False
    keeps_boards: bool = False  # whether boards are kept for `board repetitions`
    position_vars: Optional[tuple[int, ...]] = None  # the variables in a position's key (None: all)
    # result_checks[phase][case](copy of state, code) -> whether a `forbid result`
    # forbids the action (None for chance events); empty without `forbid result`
    result_checks: list[list[Optional[Callable[..., Any]]]] = field(default_factory=list)
    # where each generated function and constant comes from: name -> Origin
    source_map: dict[str, Origin] = field(default_factory=dict)
    constants: dict[str, Any] = field(default_factory=dict)  # the generated constants' values, by name

    @cached_property
    def source(self) -> str:
        """The generated Python as text, for people who want to read it (the
        compiler never reads it)."""
        return py.unparse(self.module)
