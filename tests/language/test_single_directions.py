"""A direction handed to a define (`forward`, one per player) where one direction is
needed (`neighbour`, `beyond`, ...): read from a table of the players' directions
when the rules are compiled (expr_sites._single_directions), not asked at run time."""
import pytest

from interpreter import load_game
from interpreter.runtime.errors import RuleRuntimeError
from tests.helpers import helper_calls, write_definition

YAML = """\
game: probe
title: Probe
description: Stones that step to the site ahead when the one beyond that is empty.
rules: game.rules
players:
  - {name: white, forward: n}
  - {name: black, forward: s}
board:
  grid: {files: 3, ranks: 5}
pieces:
  stone: {symbol: S}
setup:
  white:
    stone: [a1, b1, c2]
  black:
    stone: [a5, b4, c4]
"""
RULES = """\
define ahead(s, d) = neighbour(neighbour(s, d), d)
phase play:
    turn: move
decision move:
    action stone_move by stone:
        step DIRS
        where ahead(from, DIRS) is empty
        notation "{from}{to}"
        onto empty: move
"""


def test_a_players_direction_through_a_define_is_read_from_a_table(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES.replace("DIRS", "forward")))
    assert not helper_calls(game, "h_one_direction")
    state = game.initial_state()
    # white: a1 (a3 empty), b1 (b3 empty); c2 steps to c3 but c4 is black's: not listed
    assert sorted(game.legal_notations(state)) == ["a1a2", "b1b2"]
    state = game.apply(state, "a1a2")
    # black: a5 (a3 empty), c4 (c2 is white's: no), b4 (b2 empty)
    assert sorted(game.legal_notations(state)) == ["a5a4", "b4b3"]


def test_a_set_of_directions_is_still_an_error_when_asked(tmp_path):
    rules = RULES.replace("step DIRS", "step forward").replace("DIRS", "orthogonal")
    game = load_game(write_definition(tmp_path, YAML, rules))
    assert helper_calls(game, "h_one_direction")
    with pytest.raises(RuleRuntimeError, match="single direction"):
        game.legal_notations(game.initial_state())
