"""`player_after(PLAYER, N)` (docs/format.md 3.12.2): the player N places after
PLAYER in turn order among the players in play — a pass to the left, across or to the
right in a card game, a turn that skips a player — wrapping round, before it when N is
negative, none for none."""
import ast

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import placing, stones_and_rocks, write_definition

FOUR = ("north", "east", "south", "west")


def _turns(tmp_path, skip: str, players=FOUR, plies: int = 6, options: str = "") -> list[str]:
    """Who places each stone when every turn hands over to `player_after(player, skip)`."""
    yaml = stones_and_rocks(players=players, files=4, ranks=4, extra=options)
    game = load_game(write_definition(tmp_path, yaml, placing(f"next turn player_after(player, {skip})")))
    state, movers = game.initial_state(), []
    for _ in range(plies):
        movers.append(game.to_move(state))
        state = game.apply(state, game.legal_actions(state)[0])
    return movers


@pytest.mark.parametrize("skip, movers", [
    ("1", ["north", "east", "south", "west", "north", "east"]),
    ("2", ["north", "south", "north", "south", "north", "south"]),
    ("-1", ["north", "west", "south", "east", "north", "west"]),
    ("7", ["north", "west", "south", "east", "north", "west"]),   # 7 places on is 3 on, one back
    ("0", ["north"] * 6),
    ("count(players) - 1", ["north", "west", "south", "east", "north", "west"]),
])
def test_the_turn_goes_round_by_that_many_places(tmp_path, skip, movers):
    assert _turns(tmp_path, skip) == movers


def test_only_the_players_in_play_count(tmp_path):
    # with three of the four in play, two places after north is west, then east
    options = ("options:\n  seats: {values: [3, 4], default: 3}\n"
               "in_play: {option: seats, choices: {3: [north, south, west], 4: [north, east, south, west]}}\n")
    assert _turns(tmp_path, "2", options=options, plies=4) == ["north", "west", "south", "north"]


@pytest.mark.parametrize("who, called", [("west", False), ("player", True)])
def test_a_constant_player_is_worked_out_when_compiling(tmp_path, who, called):
    yaml = stones_and_rocks(players=FOUR)
    game = load_game(write_definition(tmp_path, yaml, placing(f"next turn player_after({who}, 2)")))
    state = game.apply(game.initial_state(), game.legal_actions(game.initial_state())[0])
    assert game.to_move(state) == ("east" if who == "west" else "south")
    assert ("h_player_after" in ast.unparse(game.rules.module)) == called


@pytest.mark.parametrize("who, movers", [
    ("north", ["north", "west", "south", "east", "north", "west"]),  # (3 more places a stone)
    ("south", ["north", "east", "north", "west", "south", "east"]),
])
def test_a_player_named_goes_round_by_a_number_worked_out_in_play_without_the_helper(tmp_path, who, movers):
    # (a named player is never none: the places are counted on with `%` alone)
    yaml = stones_and_rocks(players=FOUR, files=4, ranks=4)
    game = load_game(write_definition(tmp_path, yaml, placing(
        f"next turn player_after({who}, count(pieces where it is stone) * 3)")))
    state, seen = game.initial_state(), []
    for _ in range(6):
        seen.append(game.to_move(state))
        state = game.apply(state, game.legal_actions(state)[0])
    assert seen == movers
    assert "h_player_after" not in ast.unparse(game.rules.module)


@pytest.mark.parametrize("call, message", [
    ("player_after(a1, 1)", "the first argument of 'player_after'"),
    ("player_after(player, east)", "the second argument of 'player_after'"),
    ("player_after(player)", "player_after"),
])
def test_wrong_arguments_are_errors_at_them(tmp_path, capsys, call, message):
    write_definition(tmp_path, stones_and_rocks(players=FOUR), placing(f"next turn {call}"))
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "game.rules:" in err and message in err, err
