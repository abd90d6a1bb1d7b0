"""A `where` asked of each candidate whose first part is about the position alone
(`exists(...) or <a test of the site>`): the first part is worked out once per
listing and remembered (compilation/actions.py). What is listed must be what the
condition says, in a position where that part holds and in one where it does not,
one listing after the other."""
from interpreter import load_game
from tests.helpers import drop_where, stones_and_rocks, write_definition

RULES = drop_where("exists(pieces of opponent, it in [d4]) or neighbour(to, n) is occupied")


def test_the_position_part_then_the_site_part(tmp_path):
    game = load_game(write_definition(tmp_path, stones_and_rocks(), RULES))
    # black on d4: every empty site is legal
    everywhere = game.make_state({"d4": ("black", "stone"), "a2": ("white", "stone")}, to_move="white")
    assert len(game.legal_notations(everywhere)) == 14
    # black elsewhere: only the sites below a piece
    below = game.make_state({"c4": ("black", "stone"), "a2": ("white", "stone")}, to_move="white")
    assert sorted(game.legal_notations(below)) == ["a1", "c3"]
    # ... and again the first position (nothing remembered from one listing to the next)
    assert len(game.legal_notations(everywhere)) == 14


def test_a_cheap_position_part_is_asked_as_it_stands(tmp_path):
    # `player == white or ...`: nothing worth remembering; the same answers.
    rules = RULES.replace("exists(pieces of opponent, it in [d4])", "player == black")
    game = load_game(write_definition(tmp_path, stones_and_rocks(), rules))
    white = game.make_state({"c4": ("black", "stone"), "a2": ("white", "stone")}, to_move="white")
    assert sorted(game.legal_notations(white)) == ["a1", "c3"]
    black = game.make_state({"c4": ("black", "stone"), "a2": ("white", "stone")}, to_move="black")
    assert len(game.legal_notations(black)) == 14
