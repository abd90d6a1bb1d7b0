"""Fixed permutations (`rotate` of a fixed block, `cycle` of fixed sites) written
out site by site (compilation/permutations.py): the same positions as the
helper they replace (`h_permute`), the owners' site lists in the same order,
in every position of random games."""
from __future__ import annotations

import ast
import random

import pytest

from interpreter import load_game
from interpreter.compilation import statements
from interpreter.runtime.helpers import board_key
from tests.helpers import REPO, helper_calls, stones_and_rocks, write_definition

QUARTERS = "regions:\n  low: [a1, b1, a2, b2]\n  high: [b2, c2, b3, c3]\n"
# Both players drop stones and rocks appear; then a quarter turns or three sites cycle.
RULES = """\
phase play:
    turn: place, turn
decision place:
    action stone:
        drop stone on sites
        notation "{to}"
        onto empty:
            place
            if count(pieces) % 3 == 0:
                create rock at to
decision turn:
    action left:
        pass: rotate low clockwise
        notation "l"
    action right:
        pass: rotate high anticlockwise
        notation "r"
    action round:
        pass: cycle a1, c3, b2
        notation "c"
"""


def _games(path: str, monkeypatch: pytest.MonkeyPatch) -> tuple:
    written = load_game(path)
    with monkeypatch.context() as m:
        m.setattr(statements, "MAX_WRITTEN_OUT", 0)
        called = load_game(path)
    assert not helper_calls(written, "h_permute") and helper_calls(called, "h_permute")
    return written.engine, called.engine


def _same_games(one, other, games: int) -> int:
    rng = random.Random(11)
    compared = 0
    for _ in range(games):
        s, t = one.initial_state(), other.initial_state()
        while not one.is_over(s):
            assert s.board == t.board and s.occ == t.occ  # (the lists in their order too)
            assert one.legal(s) == other.legal(t)
            code = rng.choice(one.legal(s))
            one.apply_in_place(s, code)
            other.apply_in_place(t, code)
            compared += 1
        assert other.is_over(t) and s.result == t.result
    return compared


def test_pentago_turns_its_quarters_as_the_helper_did(monkeypatch):
    one, other = _games(str(REPO / "benchmarks/games/pentago"), monkeypatch)
    assert _same_games(one, other, games=30) > 500


def test_rotations_and_cycles_of_mixed_pieces(tmp_path, monkeypatch):
    path = write_definition(tmp_path, stones_and_rocks(files=3, ranks=3, extra=QUARTERS), RULES)
    one, other = _games(path, monkeypatch)
    assert _same_games(one, other, games=40) > 300


def test_a_quarter_turn_by_hand(tmp_path):
    engine = load_game(write_definition(tmp_path, stones_and_rocks(files=3, ranks=3, extra=QUARTERS), RULES)).engine
    game_names = engine.rules.site_names
    s = engine.initial_state()
    play = {c: engine.notation(c) for c in engine.legal(s)}
    engine.apply_in_place(s, next(c for c, n in play.items() if n == "a1"))  # white on a1
    engine.apply_in_place(s, next(c for c in engine.legal(s) if engine.notation(c) == "l"))
    # a1 goes to a2 turning the block clockwise (north up)
    assert [game_names[x] for x in s.occ[0]] == ["a2"]
    engine.apply_in_place(s, next(c for c in engine.legal(s) if engine.notation(c) == "b2"))  # black on b2
    engine.apply_in_place(s, next(c for c in engine.legal(s) if engine.notation(c) == "c"))
    # the cycle a1 -> c3 -> b2 -> a1: black's stone from b2 to a1; a2 keeps white's
    assert [game_names[x] for x in s.occ[1]] == ["a1"] and [game_names[x] for x in s.occ[0]] == ["a2"]


def test_the_board_key_follows_written_out_rotations(tmp_path):
    # `board repetitions` keeps a key of the board through every write: the
    # written-out writes keep it one site at a time
    rules = RULES.replace("phase play:\n    turn: place, turn\n",
                          "phase play:\n    turn: place, turn\n    after each turn:\n"
                          "        if board repetitions >= 3:\n            draw\n")
    engine = load_game(write_definition(tmp_path, stones_and_rocks(files=3, ranks=3, extra=QUARTERS), rules)).engine
    assert engine.rules.keeps_boards and not helper_calls_of(engine, "h_permute")
    rng = random.Random(5)
    for _ in range(20):
        s = engine.initial_state()
        while not engine.is_over(s):
            assert s.board_key == board_key(s.board)
            engine.apply_in_place(s, rng.choice(engine.legal(s)))


def helper_calls_of(engine, helper: str) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == helper
               for n in ast.walk(engine.rules.module))
