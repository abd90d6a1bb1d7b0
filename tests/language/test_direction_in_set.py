"""`D in DIRS` and `D not in DIRS`: a direction in a set of directions (format.md 3.12),
a player's own set (`forward_diagonal`) read by the player deciding."""
import pytest

from interpreter import DefinitionError, load_game
from tests.helpers import write_definition

YAML = """\
game: probe
title: Probe
description: A stone of each player in the middle of a small board.
rules: game.rules
players:
  - {name: white, forward: n}
  - {name: black, forward: s}
board:
  grid: {files: 3, ranks: 5}
pieces:
  stone: {symbol: S}
setup:
  white: {stone: [b2]}
  black: {stone: [b4]}
"""
RULES = """\
phase play:
    turn: move
decision move:
    action go by stone:
        step all
        where exists(d in all, TEST and neighbour(from, d) == to)
        notation "{from}{to}"
        onto empty: move
"""


@pytest.mark.parametrize("test, white, black", [
    # (by hand: b2's eight neighbours all empty; white's forward diagonals ne, nw, black's se, sw)
    ("d in diagonal", ["b2a1", "b2a3", "b2c1", "b2c3"], ["b4a3", "b4a5", "b4c3", "b4c5"]),
    ("d not in orthogonal", ["b2a1", "b2a3", "b2c1", "b2c3"], ["b4a3", "b4a5", "b4c3", "b4c5"]),
    # (white's b2a3 then takes black's a3: black keeps c3)
    ("d in forward_diagonal", ["b2a3", "b2c3"], ["b4c3"]),
    ("d in [n, e]", None, None),
    ("n in [n, e] and d in [n, e]", None, None),
])
def test_a_direction_in_a_set_of_directions(tmp_path, test, white, black):
    if white is None:
        # (a list in brackets is a list of sites: its directions are no sites)
        with pytest.raises(DefinitionError):
            load_game(write_definition(tmp_path, YAML, RULES.replace("TEST", test)))
        return
    game = load_game(write_definition(tmp_path, YAML, RULES.replace("TEST", test)))
    state = game.initial_state()
    assert sorted(game.legal_notations(state)) == white
    state = game.apply(state, white[0])
    assert sorted(game.legal_notations(state)) == black


def test_a_name_of_one_direction_on_the_left(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES.replace("TEST", "ne in diagonal and d == n")))
    assert sorted(game.legal_notations(game.initial_state())) == ["b2b3"]


def test_a_site_in_a_set_of_directions_is_an_error(tmp_path):
    with pytest.raises(DefinitionError, match="the left side of 'in'"):
        load_game(write_definition(tmp_path, YAML, RULES.replace("TEST", "from in diagonal")))


def test_one_direction_on_the_right_says_to_compare(tmp_path):
    with pytest.raises(DefinitionError, match="the right side of 'in' is one direction, not a set") as caught:
        load_game(write_definition(tmp_path, YAML, RULES.replace("TEST", "ne in d")))
    assert "compare two directions with '==' (d == n)" in str(caught.value)
