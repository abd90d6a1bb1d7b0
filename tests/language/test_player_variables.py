"""Variables that hold a player (`type: player`, docs/format.md 2.11): none by
default or a named player, assigned with `=`, read wherever a player is, written
by name in positions and drawings — the bidder of the standing bid, the leader of
a trick."""
import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import stones_and_rocks, validate_says, write_definition

PLAYERS = ("white", "black", "red")
VARIABLES = """\
variables:
  leader: {type: player, description: Who dropped on the top rank last.}
  partner: {type: player, per_player: true, default: {white: red}}
  turns: {}
regions:
  top: {ranks: [3]}
"""
# A stone anywhere but on the top rank by the player who dropped there last; the
# one who drops there becomes the leader, and remembers the leader before.
RULES = """\
    phase play:
        turn: place
        after each turn:
            turns += 1
            if turns == 5 and leader != none:
                win leader
    decision place:
        action stone:
            drop stone on sites
            where not (to in top and leader == player)
            notation "{to}"
            onto empty:
                place
                if to in top:
                    partner[player] = leader
                    leader = player
"""


def _game(tmp_path, rules=RULES, variables=VARIABLES):
    return load_game(write_definition(tmp_path, stones_and_rocks(players=PLAYERS, files=3, ranks=3,
                                                                 extra=variables), rules))


def test_a_player_variable_starts_as_none_or_its_default(tmp_path):
    game = _game(tmp_path)
    assert game.variables(game.initial_state()) == {
        "leader": None, "partner": {"white": "red", "black": None, "red": None}, "turns": 0}


def test_it_is_a_player_wherever_a_player_is_read(tmp_path):
    game = _game(tmp_path)
    state = game.apply(game.initial_state(), "a3")  # white leads
    assert game.variables(state)["leader"] == "white"
    assert game.variables(state)["partner"]["white"] is None  # the leader before: none
    state = game.apply(state, "b3")  # black leads; white's partner stays
    assert game.variables(state)["leader"] == "black" and game.variables(state)["partner"]["black"] == "white"
    top = {"c3"}
    assert top <= set(game.legal_notations(state))  # red may drop on the top rank
    state = game.apply(game.apply(state, "a1"), "b1")  # red, then white
    assert not top & set(game.legal_notations(state))  # black, the leader, may not
    state = game.apply(state, "a2")  # the fifth turn: the leader wins
    assert game.result(state) is not None and game.result(state).winner == "black"


def test_positions_write_and_read_the_player_by_name(tmp_path):
    game = _game(tmp_path)
    state = game.apply(game.initial_state(), "a3")
    text = game.position_text(state)
    assert "variables leader=white partner=white:-,black:-,red:- turns=1" in text
    assert game.position_text(game.parse_position(text)) == text
    assert "leader=- partner=white:red,black:-,red:-" in game.position_text(game.initial_state())
    made = game.make_state({}, variables={"leader": "red", "partner": {"black": "white"}})
    assert game.variables(made)["leader"] == "red" and game.variables(made)["partner"]["black"] == "white"
    with pytest.raises(ValueError, match="unknown player 'blue'"):
        game.make_state({}, variables={"leader": "blue"})


def test_the_drawing_shows_it_by_name(tmp_path):
    from interpreter.frontends.render_text import render_text

    game = _game(tmp_path)
    assert "leader: red" in render_text(game, game.make_state({}, variables={"leader": "red"}))


@pytest.mark.parametrize("edit, message", [
    (("leader = player", "leader += 1"), "'+=' needs a number variable; this one holds a player"),
    (("leader = player", "leader = to"), "variable 'leader' holds a player; found a site"),
    (("leader = player", "leader = 1"), "variable 'leader' holds a player; found a number (1)"),
    (("leader = player", "leader = none"), None),
    (("leader = player", "leader = player_after(player, 1)"), None),
])
def test_what_a_player_variable_refuses(tmp_path, capsys, edit, message):
    yaml = stones_and_rocks(players=PLAYERS, files=3, ranks=3, extra=VARIABLES)
    write_definition(tmp_path, yaml, RULES.replace(*edit))
    validate_says(tmp_path, capsys, message)


def test_a_default_that_is_no_player_is_located(tmp_path, capsys):
    yaml = stones_and_rocks(players=PLAYERS, files=3, ranks=3, extra=VARIABLES.replace("white: red", "white: blu"))
    write_definition(tmp_path, yaml, RULES)
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "game.yaml:16:62: error: unknown player 'blu'" in err, err
