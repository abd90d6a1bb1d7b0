"""What each site function gives for none (format.md 3.12, "No site"): the value
documented there, read from a site variable that holds none (so nothing is folded
at compile time)."""
from interpreter import load_game
from tests.helpers import write_definition

YAML = """\
game: nowhere
title: Nowhere
description: Every site function asked about none.
rules: game.rules
players: [white, black]
board:
  grid: {files: 3, ranks: 3}
pieces:
  man: {symbol: M}
lines:
  - [a1, b1, c1]
tracks:
  t: [a1, b1, c1]
variables:
  nowhere: {type: site}
  neighbours_: {}
  ray_: {}
  ray_cond: {}
  group_: {}
  group_dirs: {}
  connected_: {}
  along_: {}
  steps_on_: {}
  beyond_: {type: flag}
  neighbour_: {type: flag}
  ahead_: {type: flag}
  behind_: {type: flag}
  full_line: {type: flag}
  in_sites: {type: flag}
setup:
  white: {man: [a1, b1, c1]}
"""
RULES = """\
phase play:
    turn: move
decision move:
    action go by man:
        step n
        onto empty:
            move
            neighbours_ = count(neighbours(nowhere))
            ray_ = count(ray(nowhere, n))
            ray_cond = count(ray(nowhere, n, true))
            group_ = count(group(nowhere))
            group_dirs = count(group(nowhere, all))
            connected_ = count(connected(nowhere, true))
            along_ = count(along(t, nowhere, 2))
            steps_on_ = steps_on(t, nowhere)
            beyond_ = beyond(nowhere, n, it is empty) == none
            neighbour_ = neighbour(nowhere, n) == none
            ahead_ = ahead(t, nowhere, 1) == none
            behind_ = behind(t, nowhere, 1) == none
            full_line = on_full_line(nowhere)
            in_sites = nowhere in sites
"""


def test_every_site_function_given_none(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    state = game.apply(game.initial_state(), "a1-a2")
    assert {name: value for name, value in game.variables(state).items() if name != "nowhere"} == {
        "neighbours_": 0, "ray_": 0, "ray_cond": 0, "group_": 0, "group_dirs": 0, "connected_": 0, "along_": 0,
        "steps_on_": -1, "beyond_": True, "neighbour_": True, "ahead_": True, "behind_": True,
        "full_line": False, "in_sites": False}
