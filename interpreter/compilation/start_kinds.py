"""Kinds that the first phase makes, proven one a player by playing that phase.

single_kinds.start_made_kinds finds the kinds of which no rule outside the first
phase can add a piece, a phase play never comes back to. Whether a player has two
of them once play leaves it depends on what the phase's rules did (a chance event
drawing an arrangement, a loop over a rank): rather than reading that from the
statements, every way through the phase is played — every outcome of its chance
events and every action of its decisions, from the start position, with the rules
compiled without the proof — and the pieces counted at every position met. Where
no player ever has two pieces of a kind there, none has later: the rules are
compiled again with the kind lone (decisions.py, cases.py, lone_pieces.py).

A phase with more ways through it than START_ACTIONS actions, or whose rules
fail on one, proves nothing. A position built by hand cannot be reached this way:
api.Game.make_state refuses one in which a player has two pieces of a kind proven
lone, and one in the first phase that was not met here (the rules could make two
from it).
"""
from __future__ import annotations

from copy import deepcopy
from dataclasses import replace
from typing import Hashable, Optional

from ..runtime.compiled import CompiledRules
from ..runtime.engine import Engine
from ..runtime.errors import RuleRuntimeError
from ..runtime.pieces import KIND, OWNER
from ..runtime.state import State
from .compiler import Compiler
from .items import RuleItems
from .model import GameModel
from .single_kinds import start_made_kinds

# whether the proof is sought (off: the rules compiled once, as without it — for tests)
LONE_FROM_START = True

# the actions of the first phase played at most, each on a copy of the position (a start drawn by chance among 960: 960)
START_ACTIONS = 4096


class StartPlayed:
    """What playing the first phase gave: the kinds no player had two pieces of at
    any position met, and the keys (`start_key`) of the positions met in the phase."""

    def __init__(self, kinds: frozenset[int], keys: frozenset[Hashable]):
        self.kinds = kinds
        self.keys = keys


def start_key(s: State) -> Hashable:
    """Everything of a position the first phase's rules may read: the position as
    positions are compared (`State.__eq__`) and whether its turn has begun."""
    return s, s.turn_start


def played_start(rules: CompiledRules, kinds: frozenset[int]) -> Optional[StartPlayed]:
    """Every way through the first phase played from the start position: the kinds
    of `kinds` no player has two pieces of at any position met, or None where the
    phase has too many positions or its rules fail."""
    engine = Engine(rules)
    try:
        waiting = [engine.initial_state()]
        keys: set[Hashable] = set()
        lone = set(kinds)
        played = 0
        while waiting:
            s = waiting.pop()
            lone -= doubled_kinds(s, lone)
            if not lone:
                return None
            if s.phase != 0 or engine.is_over(s):
                continue
            key = start_key(s)
            if key in keys:
                continue
            keys.add(key)
            # (a position kept as a key is never changed: its children are copies)
            legal = engine.legal(s)
            played += len(legal)
            if played > START_ACTIONS:
                return None
            for code in legal:
                child = s.copy()
                engine.apply_in_place(child, code)
                waiting.append(child)
    except RuleRuntimeError:
        return None
    return StartPlayed(frozenset(lone), frozenset(keys))


def doubled_kinds(s: State, kinds: frozenset[int] | set[int]) -> set[int]:
    """The kinds of `kinds` of which some player has two pieces in `s`."""
    seen: set[tuple[int, int]] = set()
    doubled: set[int] = set()
    for piece in s.board:
        if piece is not None and piece[KIND] in kinds:
            mark = (piece[OWNER], piece[KIND])
            if mark in seen:
                doubled.add(piece[KIND])
            seen.add(mark)
    return doubled


def with_start_kinds(model: GameModel, items: RuleItems, compiler: Compiler, rules: CompiledRules,
                     coverage: bool = False) -> CompiledRules:
    """`rules` (compiled by `compiler`), or the rules compiled again where playing the
    first phase proves some kinds it makes lone."""
    if not LONE_FROM_START or compiler.statements.changes_owners:
        return rules
    candidates = start_made_kinds(model, items) - compiler.lone_kinds
    if not candidates:
        return rules
    tables = _tables_kept(rules)
    played = played_start(rules, candidates)
    proven = _compiled_lone(model, items, played.kinds, coverage) if played is not None and played.kinds else None
    if played is None or proven is None:
        _tables_restored(rules, tables)
        return rules
    return replace(proven, lone_from_start=played.kinds, start_keys=played.keys)


def _compiled_lone(model: GameModel, items: RuleItems, kinds: frozenset[int],
                   coverage: bool) -> Optional[CompiledRules]:
    """The rules compiled with `kinds` lone, or None where that fails."""
    again = Compiler(model, items, coverage=coverage, lone_from_start=kinds)
    proven = again.compile()
    return None if proven is None or again.errors else proven


# The generated code fills some of its tables as it plays (the action codes made on
# first use: code tables, listed_runs); the rules given back unproven are left as
# compiled, their tables as a game would first find them.
def _tables_kept(rules: CompiledRules) -> dict[str, list[object]]:
    return {name: deepcopy(value) for name, value in rules.constants.items() if type(value) is list}


def _tables_restored(rules: CompiledRules, kept: dict[str, list[object]]) -> None:
    for name, value in kept.items():
        _restore(rules.constants[name], value)


def _restore(table: list[object], kept: list[object]) -> None:
    """`table` given `kept`'s entries in place (nested lists too: a row may be a table of its own)."""
    del table[len(kept):]
    for index, entry in enumerate(kept):
        now = table[index] if index < len(table) else None
        if type(now) is list and type(entry) is list and len(now) == len(entry):
            _restore(now, entry)
        elif index < len(table):
            table[index] = entry
        else:
            table.append(entry)
