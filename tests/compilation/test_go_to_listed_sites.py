"""`go to [X, Y]` with sites worked out: the loop goes over them as they are, those
that are none (and the piece's own site) passed over, with no list made of them
(patterns._listed_sites): the same actions as the list of sites gave."""
import ast

import pytest

from interpreter.api import load_game
from tests.helpers import write_definition

YAML = """game: probe
title: Probe
description: A board to try go to on.
rules: game.rules
players:
  - {name: solo}
board:
  grid: {files: 4, ranks: 2}
pieces:
  stone: {symbol: S, description: A stone.}
attributes:
  k: {type: int, description: How far along the line the stone may go.}
tracks:
  line: [a1, b1, c1, d1]
setup:
  solo:
    stone: [{site: a2, k: 2}, {site: b2, k: 7}, {site: c1, k: 2}]
"""

RULES = """
phase main:
    turn: solo

decision solo:
    action go by stone:
        go to [ahead(line, a1, piece.k), neighbour(from, s), from]
        onto empty:
            move
        onto own:
            remove target
            move
        notation "{from}-{to}"
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return load_game(write_definition(tmp_path_factory.mktemp("go"), YAML, RULES))


def test_none_and_the_own_site_are_passed_over(game):
    # a2 (k 2): c1 (occupied: go lands anyway), a1; b2 (k 7): beyond the line, b1 alone;
    # c1 (k 2): c1 itself is passed over, and nothing lies south of it
    assert sorted(game.legal_notations(game.initial_state())) == ["a2-a1", "a2-c1", "b2-b1"]


def test_the_sites_are_looped_over_without_a_list_made(game):
    calls = [node for node in ast.walk(game.rules.module)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "h_sites"]
    assert calls == []
