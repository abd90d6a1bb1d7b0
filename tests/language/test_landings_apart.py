"""Two actions of one notation that land onto different contents (a slide onto empty
sites, a capture over a screen onto enemies) never list one landing site in one
position: they are not compared by notation (decisions._landings_apart), where
the notation tells the landing site (told_apart.tells_landing)."""
from interpreter import load_game
from interpreter.compilation.told_apart import tells_landing
from tests.helpers import names_read, stones_and_rocks, write_definition

# the helpers that compare notations while listing (decisions.py)
COMPARING = {"h_dedup", "h_drop_seen", "h_landings", "h_drop_landing", "h_drop_landing_alike"}

GRID = [f"{f}{r}" for f in "abcdefghi" for r in range(1, 11)]


def test_a_notation_tells_the_landing_where_names_read_one_way():
    assert tells_landing(("{from}", "{to}"), GRID)  # read from the end: no name ends another
    assert tells_landing(("{from}", "-", "{to}", "+"), GRID)
    assert not tells_landing(("{to}", "{from}"), GRID)  # a1 begins a10
    assert tells_landing(("{to}", "{from}"), ["p", "q", "xp"])
    assert not tells_landing(("{from}", "{to}"), ["p", "xp", "px"])  # p + xp, px + p
    assert not tells_landing(("{from}", "{to}", "{choice}"), GRID)
    assert not tells_landing(("{from}",), GRID)


SCREEN_RULES = """\
phase play:
    turn: move
decision move:
    action stone_move by stone:
        slide orthogonal
        notation "{from}{to}"
        onto empty: move
    action stone_capture by stone:
        slide orthogonal over one piece
        notation "{from}{to}"
        onto enemy: move
"""
SETUP = "setup:\n  white:\n    stone: [b1]\n  black:\n    stone: [b4, d1]\n  neutral:\n    rock: [b2]\n"


def test_a_slide_and_a_screen_capture_are_not_compared(tmp_path):
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=SETUP), SCREEN_RULES))
    assert not names_read(game) & COMPARING
    state = game.initial_state()
    # b1: onto empty a1, c1 (d1 is black's, no screen before it); over the rock b2
    # onto black's b4 (b3 empty on the way); nothing beyond d1 to capture.
    assert sorted(game.legal_notations(state)) == ["b1a1", "b1b4", "b1c1"]


def test_actions_landing_onto_the_same_contents_are_still_compared(tmp_path):
    rules = SCREEN_RULES.replace("onto enemy: move", "onto enemy: move\n        onto empty: move")
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=SETUP), rules))
    assert names_read(game) & COMPARING
    state = game.initial_state()
    # over the rock b2 onto the empty b3 as well: listed once
    assert sorted(game.legal_notations(state)) == ["b1a1", "b1b3", "b1b4", "b1c1"]


GRAPH = """\
game: probe
title: Probe
description: Sites whose names run into each other.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  graph:
    sites: {p: null, xp: null, px: null}
    edges: [[p, xp], [xp, px], [px, p]]
pieces:
  stone: {symbol: S}
setup:
  white:
    stone: [p, px]
  black:
    stone: [xp]
"""
GRAPH_RULES = """\
phase play:
    turn: move
decision move:
    action stone_move by stone:
        go to sites
        notation "{from}{to}"
        onto empty: move
    action stone_capture by stone:
        go to sites
        notation "{from}{to}"
        onto enemy: move
"""


def test_names_that_run_into_each_other_keep_the_comparison(tmp_path):
    # "p" + "xp" and "px" + "p" both write "pxp": the notation does not tell the landing.
    game = load_game(write_definition(tmp_path, GRAPH, GRAPH_RULES))
    assert names_read(game) & COMPARING


def test_xiangqis_cannon_moves_and_captures_are_not_compared():
    from benchmarks.catalog import GAMES

    game = GAMES["xiangqi"].load()
    assert game.rules.decisions[0].alike_keys is None and not names_read(game) & COMPARING
