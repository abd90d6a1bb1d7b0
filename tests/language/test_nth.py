"""`nth(SET, N)`: the N-th site of a set in board order (1 the first), or none when
it has fewer — for a region (known when the rules are compiled), a player's pieces
(kept as a mask), any other set, and an index drawn by chance."""
import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import write_definition

YAML = """\
game: pick
title: Pick
description: A stone removed by its place among the stones left.
rules: game.rules
players:
  - {name: red}
  - {name: blue}
board:
  grid: {files: 3, ranks: 3}
pieces:
  stone: {symbol: S}
regions:
  middle: [c2, a2, b2]
variables:
  k: {type: int, default: 2}
setup:
  red: {stone: [c1, a1, b3]}
  blue: {stone: [a3]}
"""

RULES = """\
phase play:
    turn: take, deal

decision take:
    action pick for each i in 1 to 4:
        select pieces of player
        where to == nth(pieces of player, i)
        notation "p{i}{to}"
        onto own: remove to
    action region:
        select sites
        where to == nth(middle, k) or to == nth(middle, 3)
        notation "m{to}"
        onto empty: create stone at to
    action any:
        select sites
        where to == nth(sites - pieces, k)
        notation "e{to}"
        onto empty: create stone at to
    action beyond:
        select pieces of player
        where nth(middle, 4) == none and nth(pieces of player, 0) == none and nth(pieces of player, k + 2) == none
        notation "x{to}"
        onto own: remove to

chance deal:
    outcomes 1 to 3
    k = outcome
"""


def test_nth_in_board_order(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    start = game.initial_state()
    # Red's stones in board order a1, c1, b3 (the setup lists c1 first), none
    # fourth; the region's a2, b2, c2 (listed c2, a2, b2); the empty sites b1, a2,
    # b2, c2, c3, the second (k = 2) a2; nothing before the first or past the last.
    assert sorted(game.legal_notations(start)) == [
        "ea2", "mb2", "mc2", "p1a1", "p2c1", "p3b3", "xa1", "xb3", "xc1"]


@pytest.mark.parametrize("outcome,site", [(1, "a1"), (2, "b1"), (3, "a2")])
def test_nth_of_an_index_drawn_by_chance(tmp_path, outcome, site):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    state = game.apply(game.initial_state(), "p1a1")  # red's a1 taken off: empty again
    state = game.apply(state, f"deal:{outcome}")
    # blue's turn: the empty sites a1, b1, a2, b2, c2, c3; k the outcome
    assert [n for n in game.legal_notations(state) if n.startswith("e")] == [f"e{site}"]


def test_a_wrong_argument_is_told(tmp_path, capsys):
    write_definition(tmp_path, YAML, RULES.replace("nth(middle, k)", "nth(middle, red)"))
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "the second argument of 'nth'" in err and "game.rules:12:33:" in err
