"""A drop or select whose sites the rules fix at one per player lists one candidate
(told_apart.one_site_chosen), whatever its notation leaves out: its candidates are
not compared while listing. The region an action's copy is made for (`for each c
in [...]`) counts as fixed. Where a player's sites may be two, they are compared.
Copies whose `where` is one expression that does not read the value ask it once."""
import ast

import pytest

from interpreter import load_game
from tests.helpers import generated, names_read, write_definition
from tests.language.test_landings_apart import COMPARING

YAML = """\
game: card
title: Card
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 3, ranks: 3}
regions:
  row:
    per_player:
      white: {ranks: [1]}
      black: {ranks: [2]}
  left: {files: [a]}
  middle: {files: [b]}
  right: {files: [c]}
  both: {files: [a, b]}
variables:
  marks: {default: 0}
pieces:
  mark: {symbol: M}
"""
# Each player marks a column of their own row, once each; `{c}` writes the column's name.
RULES = """\
phase play:
    turn: pick
    if no action:
        draw

decision pick:
    action mark for each c in [left, middle, right]:
        where marks < 5
        select c - (c - row[player])
        notation "{c}"
        onto empty:
            create mark at to
            marks += 1
"""


def game_of(tmp_path, rules):
    return load_game(write_definition(tmp_path, YAML, rules))


@pytest.fixture(scope="module")
def card(tmp_path_factory):
    return game_of(tmp_path_factory.mktemp("card"), RULES)


def test_one_site_per_copy_is_not_compared(card):
    assert not names_read(card) & COMPARING
    state = card.initial_state()
    assert card.legal_notations(state) == ["left", "middle", "right"]
    after = card.apply(state, "middle")
    assert {p.site: p.owner for p in card.pieces(after)} == {"b1": "white"}
    # black's row is rank 2: all three columns are open to black
    assert card.legal_notations(after) == ["left", "middle", "right"]
    again = card.apply(card.apply(after, "middle"), "right")
    assert card.legal_notations(again) == ["left", "right"]  # black's b2 is taken
    again = card.apply(again, "right")
    assert card.legal_notations(again) == ["left"]  # white's b1 and c1
    assert {p.site for p in card.pieces(again)} == {"b1", "b2", "c1", "c2"}


def test_the_shared_where_is_asked_once(card):
    assigned = [node.targets[0].id for node in generated(card, ast.Assign, ": the legal actions")
                if isinstance(node.targets[0], ast.Name) and node.targets[0].id.startswith("l")]
    # one local for the three copies' `where marks < 5`, in each function listing them
    assert len(set(assigned)) == 1
    state = card.initial_state()
    for notation in ["left", "left", "middle", "middle", "right"]:
        state = card.apply(state, notation)
    assert card.legal_notations(state) == []  # five marks: no copy is legal (black could mark c2)


def test_two_sites_of_a_player_are_compared(tmp_path):
    # `both` holds a1 and b1 of white's row: the copy writes "both" for either, and
    # only the first is listed
    game = game_of(tmp_path, RULES.replace("[left, middle, right]", "[both, right]"))
    assert names_read(game) & COMPARING
    assert game.legal_notations(game.initial_state()) == ["both", "right"]
