"""Every player's score in one generated function (compilation/all_scores.py): what
the pass writes, where it declines, and a game's scores and winner by it."""
import ast
import textwrap

from interpreter import load_game
from interpreter.compilation.all_scores import scores_at_once
from interpreter.compilation.source import Source
from tests.helpers import write_definition


def _at_once(code: str, players: int) -> str | None:
    src = Source()
    function = ast.parse(textwrap.dedent(code)).body[0]
    assert isinstance(function, ast.FunctionDef)
    written = scores_at_once(function, players, "f9", src.fresh)
    return None if written is None else ast.unparse(ast.fix_missing_locations(written))


def test_the_player_is_written_in_and_its_comparisons_worked_out():
    text = _at_once("""
        def f(s, p):
            v = s.vars
            return v[14] if p == 0 or p == 2 else 0 - v[14]
    """, 4)
    assert text == "def f9(s):\n    v = s.vars\n    return (v[14], 0 - v[14], v[14], 0 - v[14])"


def test_each_players_lines_run_before_the_next_players_and_an_if_of_a_constant_is_its_block():
    text = _at_once("""
        def f(s, p):
            v = s.vars
            l0 = 0
            if p != 1:
                l0 = v[p]
            else:
                l0 = 7
            return l0 + 1
    """, 2)
    assert text == textwrap.dedent("""\
        def f9(s):
            v = s.vars
            l0 = 0
            l0 = v[0]
            t0 = l0 + 1
            l0 = 0
            l0 = 7
            return (t0, l0 + 1)""")


def test_scores_it_cannot_write_out_are_left_to_one_call_per_player():
    for code in ("def f(s, p, notes):\n    return p",  # (a table the calls share)
                 "def f(s, p):\n    if p:\n        return 1\n    return 2",  # (a return inside)
                 "def f(s, p):\n    p = p + 1\n    return p"):  # (the player assigned)
        assert _at_once(code, 2) is None, code


YAML = """game: probe
title: Probe
description: Points for one side, the other side's the opposite.
rules: game.rules
players: [west, north, east, south]
teams:
  west_east: [west, east]
  north_south: [north, south]
board:
  grid: {files: 1, ranks: 1}
pieces:
  token:
variables:
  points: {}
"""

RULES = """
phase play:
    turn: choose
    after each action:
        end game
decision choose:
    action plus:
        pass: points = 3
        notation "plus"
    action minus:
        pass: points = -2
        notation "minus"
score: points if player == west or player == east else 0 - points
"""


def test_a_team_games_scores_and_winner(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    assert game.engine.results.all_scores is not None
    state = game.apply(game.initial_state(), "plus")
    assert game.current_scores(state) == {"west": 3, "north": -3, "east": 3, "south": -3}
    assert game.result(state).winner == "west_east"
    state = game.apply(game.initial_state(), "minus")
    assert game.current_scores(state) == {"west": -2, "north": 2, "east": -2, "south": 2}
    assert game.result(state).winner == "north_south"


def test_a_register_given_another_value_later_is_loaded_again_for_each_player():
    text = _at_once("""
        def f(s, p):
            v = s.vars
            if v[0] > p:
                v = s.other
            return v[p]
    """, 2)
    assert text is not None and text.count("v = s.vars") == 2
