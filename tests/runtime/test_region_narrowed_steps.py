"""A one-step landing whose `where` puts `to` in a region (or out of it), one per
player maybe: the step's table holds only the sites the region test keeps, and the
test is not asked again (compilation/patterns.py `_region_narrowed`) — a pawn far
from the last rank goes over no promotion at all. The same actions, in the same
order, as the listers that test every landing."""
import ast

import pytest

from interpreter import load_game
from interpreter.compilation import patterns
from tests.helpers import write_definition

YAML = """game: probe
title: Probe
description: A board to try one construct on.
rules: game.rules
players:
  - {name: white, forward: n}
  - {name: black, forward: s}
board:
  grid: {files: 4, ranks: 4}
regions:
  goal:
    per_player:
      white: {ranks: [4]}
      black: {ranks: [1]}
pieces:
  stone: {symbol: S, description: A stone.}
  queen: {symbol: Q, description: A crowned stone.}
setup:
  white:
    stone: [a1, b1, c2]
  black:
    stone: [b4, c4, d3]
"""

RULES = """
phase play:
    turn: move
    if no action:
        lose

decision move:
    action advance by stone:
        step forward_diagonal, forward
        where to not in goal[player]
        notation "{from}{to}"
        onto empty:
            move
    action crown by stone:
        step forward_diagonal, forward
        where to in goal[player]
        notation "{from}{to}q"
        onto empty:
            move
            promote piece to queen
        onto enemy:
            move
            promote piece to queen
"""


@pytest.fixture()
def probe(tmp_path):
    return write_definition(tmp_path, YAML, RULES)


def _lister_tests(game) -> int:
    lister = next(f for f in game.rules.module.body if isinstance(f, ast.FunctionDef) and f.name == "f0")
    return sum(isinstance(node, ast.If) for node in ast.walk(lister))


def _legal(game, board: str, player: str) -> list[str]:
    s = game.parse_position(f"rw1; game probe; ply 0; phase play; turn {player} move 0; board {board}")
    return sorted(game.legal_notations(s))


def test_the_region_is_not_asked_again(probe, monkeypatch):
    narrowed = load_game(probe)
    monkeypatch.setattr(patterns, "_region_narrowed", lambda src, landing, n: None)
    assert _lister_tests(narrowed) < _lister_tests(load_game(probe))


def test_hand_checked_positions(probe):
    game = load_game(probe)
    # a3 crowns onto a4 (empty) and b4 (taken); c2 advances to b3, c3, d3; nothing crowns from rank 2.
    assert _legal(game, "a3=white.stone b4=black.stone c2=white.stone d1=black.stone", "white") == \
        ["a3a4q", "a3b4q", "c2b3", "c2c3", "c2d3"]
    # Black's goal is rank 1: d2 crowns onto c1 and d1, b3 advances.
    assert _legal(game, "a4=white.stone d2=black.stone b3=black.stone", "black") == \
        ["b3a2", "b3b2", "b3c2", "d2c1q", "d2d1q"]


def test_random_games_and_perft_as_without_it(probe, monkeypatch):
    narrowed = load_game(probe)
    monkeypatch.setattr(patterns, "_region_narrowed", lambda src, landing, n: None)
    plain = load_game(probe)
    assert narrowed.engine.perft(narrowed.engine.initial_state(), 6) == \
        plain.engine.perft(plain.engine.initial_state(), 6) == [6, 34, 182, 898, 4666, 22057]
    import random
    for seed in range(20):
        rng = random.Random(seed)
        s, t = narrowed.engine.initial_state(), plain.engine.initial_state()
        for _ in range(30):
            narrowed.engine.settle(s)
            plain.engine.settle(t)
            if s.result is not None or not s.legal:
                break
            assert narrowed.engine.legal(s.copy()) == plain.engine.legal(t.copy())
            choice = rng.randrange(len(s.legal))
            narrowed.engine.apply_in_place(s, s.legal[choice])
            plain.engine.apply_in_place(t, t.legal[choice])
