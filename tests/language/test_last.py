"""`last(SET)`: the site of a set that comes last in board order, or none — for a
region (known when the rules are compiled), a row of a table (a ray), a player's
pieces (kept as a mask) and any other set."""
from interpreter import load_game
from tests.helpers import write_definition

YAML = """\
game: slide
title: Slide
description: A stone slides north as far as it can.
rules: game.rules
players:
  - {name: red}
  - {name: blue}
board:
  grid: {files: 3, ranks: 4}
pieces:
  stone: {symbol: S}
regions:
  middle: [b2, a2, c2]
  nowhere: {ranks: [9]}
setup:
  red: {stone: [a1, c1]}
  blue: {stone: [a3]}
"""

RULES = """\
phase play:
    turn: slide

decision slide:
    action north:
        select pieces of player
        notation "{to}>"
        onto own:
            let far = last(ray(to, n, it is empty))
            if far != none:
                move to to far
    action mark:
        select sites
        where to == last(middle)
        notation "m{to}"
        onto empty: create stone at to
    action top:
        select pieces of player
        where to == last(pieces of player)
        notation "t{to}"
        onto own: remove to
    action none_left:
        select pieces of player
        where last(nowhere) == none and last(pieces where it.owner == none) == none
        notation "x{to}"
        onto own: remove to
"""


def test_last_in_board_order(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    start = game.initial_state()
    # The region's last site c2 (b2, a2, c2 in board order: a2, b2, c2); red's last
    # piece c1 (a1 and c1); no site of a region of no site, no neutral piece.
    assert sorted(game.legal_notations(start)) == ["a1>", "c1>", "mc2", "tc1", "xa1", "xc1"]
    # a1's ray north stops below a3 (blue's): a2; c1's runs to the edge: c4.
    after = game.apply(start, game.parse_action(start, "a1>"))
    assert "a2=red.stone" in game.position_text(after)
    after = game.apply(start, game.parse_action(start, "c1>"))
    assert "c4=red.stone" in game.position_text(after)
