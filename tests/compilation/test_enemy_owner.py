"""An action with an `onto enemy` (or `over enemy`) case and no `onto own` or
`onto neutral` one: in a game of two players the enemy's pieces are the
opponent's, so the lister asks `owner == q`, one test and no local
(compilation/patterns.py `_by_owner`); with more players it still asks for an
owner that is a player and not the one to move. Hand-checked legal lists:
neutral and own pieces are never taken, every other player's are."""
import ast

import pytest

from interpreter import load_game
from tests.helpers import write_definition

YAML = """game: probe
title: Probe
description: A board to try one construct on.
rules: game.rules
players: {players}
board:
  grid: {{files: 4, ranks: 4}}
pieces:
  stone: {{symbol: S, description: A stone.}}
  rock: {{symbol: R, owner: neutral, description: A rock nobody owns.}}
setup:
  white:
    stone: [a1]
"""

RULES = """
phase play:
    turn: move
    if no action:
        lose

decision move:
    action take by stone:
        step all
        notation "{from}x{to}"
        onto enemy: move
    action hop by stone:
        jump orthogonal
        notation "{from}^{to}"
        over enemy:
            remove jumped
            move
"""


def _game(tmp_path, players: str):
    return load_game(write_definition(tmp_path, YAML.format(players=players), RULES))


def _legal(game, board: str, player: str) -> list[str]:
    s = game.parse_position(f"rw1; game probe; ply 0; phase play; turn {player} move 0; board {board}")
    return sorted(game.legal_notations(s))


def _owner_tests(game) -> list[str]:
    """The lister's tests of an owner, as written."""
    lister = next(f for f in game.rules.module.body if isinstance(f, ast.FunctionDef) and f.name == "f0")
    tests = {ast.unparse(node.test) for node in ast.walk(lister) if isinstance(node, ast.If)}
    return sorted(test for test in tests if "[0]" in test or "off" in test)


# b2 white's stone; about it: a1 white (own), a3 a rock (neutral), b3, c2, c1 black's
BOARD = "b2=white.stone a1=white.stone a3=neutral.rock b3=black.stone c2=black.stone c1=black.stone"


def test_two_players_ask_whether_the_owner_is_the_opponent(tmp_path):
    game = _game(tmp_path, "[white, black]")
    assert _owner_tests(game) == ["jp[0] == q", "tg[0] == q"]
    # (a1 own and a3 neutral never taken; the hop over b3 lands on b4, over c2 on d2)
    assert _legal(game, BOARD, "white") == ["b2^b4", "b2^d2", "b2xb3", "b2xc1", "b2xc2"]
    # (each black stone takes b2, never another black one; b3 hops b2 to b1, c2 to a2, not the rock)
    assert _legal(game, BOARD, "black") == ["b3^b1", "b3xb2", "c1xb2", "c2^a2", "c2xb2"]


@pytest.mark.parametrize("mover", ["white", "black", "red"])
def test_three_players_ask_for_any_other_player(tmp_path, mover):
    game = _game(tmp_path, "[white, black, red]")
    assert _owner_tests(game) == ["off >= 0 and off != p"]
    board = "b2=white.stone a3=neutral.rock b3=black.stone c2=red.stone"
    others = {"white": ["b2^b4", "b2^d2", "b2xb3", "b2xc2"],
              "black": ["b3^b1", "b3xb2", "b3xc2"],
              "red": ["c2^a2", "c2xb2", "c2xb3"]}
    assert _legal(game, board, mover) == others[mover]
