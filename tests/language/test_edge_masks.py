"""`neighbour(it, D) == none` (and `!= none`) in `exists` / `count` / `all` over a
group's bitmask, D a fixed direction or one per player (`forward`): the sites with
no neighbour that way are a fixed set, so the question is one AND with its mask,
as for a region (compilation/liberties.py: `region_test`, `_edge_test`). A sized
Hex written with the test as format.md 2.4 shows it, checked against the same game
written with regions (`ranks: [last]`) over random games at two sizes."""
import pytest

from interpreter import load_game
from tests.helpers import helper_calls, play, random_games_seen, write_definition

YAML = """\
game: sized_hex
title: Sized Hex
rules: game.rules
players:
  - {name: black, forward: n}
  - {name: white, forward: e}
board:
  grid: {files: size, ranks: size, neighbours: [n, ne, e, s, sw, w]}
options:
  size: {min: 3, max: 6, default: 4}
regions:
  start:
    per_player:
      black: {ranks: [1]}
      white: {files: [a]}
  goal:
    per_player:
      black: {ranks: [last]}
      white: {files: [last]}
  east: {files: [last]}
variables:
  east_stones: {default: 0}
pieces:
  stone: {symbol: O}
"""
RULES = """\
phase play:
    turn: place

decision place:
    action stone:
        drop stone on sites
        onto empty:
            place
            let chain = group(to)
            east_stones = count(chain, REACH_EAST)
            if exists(chain, it in start[player]) and exists(chain, REACH_GOAL):
                win
"""
BY_NEIGHBOUR = RULES.replace("REACH_GOAL", "neighbour(it, forward) == none") \
    .replace("REACH_EAST", "neighbour(it, e) == none")
BY_REGION = RULES.replace("REACH_GOAL", "it in goal[player]").replace("REACH_EAST", "it in east")


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    made = {}
    for name, rules in (("neighbour", BY_NEIGHBOUR), ("region", BY_REGION)):
        made[name] = write_definition(tmp_path_factory.mktemp(name), YAML, rules)
    return made


def test_the_edge_is_asked_of_the_group_bitmask(games):
    game = load_game(games["neighbour"])
    assert helper_calls(game, "h_group_mask")
    # (no list of the group's sites is made to go over it)
    assert not helper_calls(game, "h_group") and not helper_calls(game, "h_group_kept")


@pytest.mark.parametrize("size", [3, 5])
def test_the_same_games_as_with_regions(games, size):
    by_neighbour, by_region = (load_game(games[k], {"size": size}) for k in ("neighbour", "region"))
    seeds = range(12)
    assert random_games_seen(by_neighbour, seeds) == random_games_seen(by_region, seeds)


def test_a_hand_checked_win_and_count(games):
    game = load_game(games["neighbour"], {"size": 3})
    # black a1 a2 a3 joins rank 1 to rank 3 (the north edge at size 3)
    state = play(game, "@a1", "@c1", "@a2", "@c2")
    assert game.variables(state)["east_stones"] == 2  # white's c1 c2, both on the east edge
    assert not game.is_terminal(state)
    won = game.apply(state, "@a3")
    assert game.is_terminal(won) and game.result(won).winner == "black"
