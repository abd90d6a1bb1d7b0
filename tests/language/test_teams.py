"""`teams:` (format.md 2.2, 3.14): players who win and lose together — a win of one
partner is the team's, a loss leaves the other team the winner, and `end game` goes
to the team holding the highest score (Euchre's and Spades' partners, who share a
score and would otherwise tie for it)."""
import json

import pytest

from interpreter import load_game
from interpreter.frontends.adapters.common import result_rewards, zero_sum_rewards
from interpreter.frontends.agents import normalised_rewards
from interpreter.frontends.agents.playout import reward_where_stopped
from interpreter.frontends.cli import main
from interpreter.positions import parse_position
from tests.helpers import validate_says, write_definition

YAML = """\
game: relay
title: Relay
description: Four runners in two teams; each turn the runner to move may run or rest.
rules: game.rules
players: [north, east, south, west]
teams:
  north_south: [north, south]
  east_west: [east, west]
board:
  grid: {files: 1, ranks: 1}
pieces:
  baton:
variables:
  points: {type: int, per_player: true}
options:
  players: {type: int, default: 4, values: [3, 4]}
in_play:
  option: players
  choices:
    "3": [north, east, south]
    "4": [north, east, south, west]
"""
RULES = """\
phase play:
    turn: move

decision move:
    action run:
        pass:
            points[player] += 1
            if points[player] >= 2:
                win
        notation "run"
    action trip:
        pass:
            lose
        notation "trip"
    action stop:
        pass:
            end game
        notation "stop"
    action level:
        pass:
            draw
        notation "level"
    action rest:
        pass
        notation "rest"

score: points[player]
"""


def _game(tmp_path, yaml=YAML, rules=RULES, **options):
    return load_game(write_definition(tmp_path, yaml, rules), options=options or None)


def _play(game, *notations):
    state = game.initial_state()
    for notation in notations:
        state = game.apply(state, notation)
    return state


def test_a_win_of_one_partner_is_the_teams(tmp_path):
    game = _game(tmp_path)
    # north, east, south, west run once each; north runs again and wins
    result = game.result(_play(game, "run", "run", "run", "run", "run"))
    assert result.winner == "north_south"
    assert result.winners == ("north", "south")
    assert result.scores == {"north": 2, "east": 1, "south": 1, "west": 1}
    assert game.teams == {"north_south": ("north", "south"), "east_west": ("east", "west")}


def test_a_loss_leaves_the_other_team_the_winner(tmp_path):
    game = _game(tmp_path)
    result = game.result(_play(game, "run", "trip"))  # east trips
    assert (result.winner, result.winners) == ("north_south", ("north", "south"))


def test_end_game_goes_to_the_team_holding_the_top_score(tmp_path):
    game = _game(tmp_path)
    # north, east and south 1 each: both teams hold the top score — no winner
    assert game.result(_play(game, "run", "run", "run", "stop")).winner is None
    # north 1, the others 0: one team holds it
    result = game.result(_play(game, "run", "stop"))
    assert (result.winner, result.winners) == ("north_south", ("north", "south"))
    # a draw names nobody, whatever the scores
    result = game.result(_play(game, "run", "level"))
    assert (result.winner, result.winners) == (None, ())


def test_without_a_score_rule_the_winners_score_one(tmp_path):
    game = _game(tmp_path, rules=RULES.replace("score: points[player]\n", ""))
    result = game.result(_play(game, "run", "run", "run", "run", "run"))
    assert result.scores == {"north": 1, "east": 0, "south": 1, "west": 0}
    result = game.result(_play(game, "run", "trip"))
    assert result.scores == {"north": 1, "east": 0, "south": 1, "west": 0}


def test_a_team_with_one_player_in_play_plays_as_that_player(tmp_path):
    game = _game(tmp_path, players=3)
    assert game.teams == {"north_south": ("north", "south"), "east_west": ("east",)}
    result = game.result(_play(game, "run", "run", "rest", "rest", "run"))  # east's second run
    assert (result.winner, result.winners) == ("east", ("east",))
    # north trips: east is the one side left
    assert game.result(_play(game, "trip")).winners == ("east",)


def test_a_finished_team_game_round_trips_through_its_position_text(tmp_path):
    game = _game(tmp_path)
    state = _play(game, "run", "trip")
    text = game.position_text(state)
    assert "over north_south " in text
    again = parse_position(game, text)
    assert game.result(again).winners == ("north", "south")


def test_rewards_count_each_partner_as_a_winner(tmp_path):
    game = _game(tmp_path, rules=RULES.replace("score: points[player]\n", ""))
    result = game.result(_play(game, "run", "trip"))
    assert normalised_rewards(game.players, result, score_weight=0) == (1.0, 0.0, 1.0, 0.0)
    code = game.engine.outcome(_play(game, "run", "trip"))[0]
    winners = game.engine.winners(code)
    assert winners == (0, 2)
    assert result_rewards(winners, 4) == [1.0, -1.0, 1.0, -1.0]
    assert zero_sum_rewards(winners, 4) == [1.0, -1.0, 1.0, -1.0]
    assert zero_sum_rewards((0,), 4) == [1.0, -1 / 3, -1 / 3, -1 / 3]


def test_json_and_text_name_the_team_and_its_players(tmp_path, capsys):
    folder = write_definition(tmp_path, YAML, RULES)
    (tmp_path / "game.txt").write_text("run trip\n")
    assert main(["replay", folder, str(tmp_path / "game.txt"), "--json"]) == 0
    last = [json.loads(line) for line in capsys.readouterr().out.splitlines()][-1]
    assert last["winner"] == "north_south" and last["winners"] == ["north", "south"]
    assert main(["replay", folder, str(tmp_path / "game.txt")]) == 0
    assert "north_south (north and south) win" in capsys.readouterr().out


@pytest.mark.parametrize("teams, message", [
    ("teams:\n  a: [north, sotuh]\n", "unknown player 'sotuh'"),
    ("teams:\n  a: [north, south]\n  b: [south, east]\n", "player 'south' is already in team 'a'"),
    ("teams:\n  north: [north, south]\n", "team 'north' has the name of a player"),
    ("teams:\n  a: []\n", "teams"),
])
def test_broken_teams_are_errors(tmp_path, capsys, teams, message):
    yaml = YAML.replace("teams:\n  north_south: [north, south]\n  east_west: [east, west]\n", teams)
    write_definition(tmp_path, yaml, RULES)
    validate_says(tmp_path, capsys, message)


def test_a_position_may_name_a_team_of_one_as_the_winner(tmp_path):
    game = _game(tmp_path, players=3)
    state = game.make_state({}, result=("east_west", {"north": 0, "east": 1, "south": 0}))
    assert game.result(state).winners == ("east",)


# `same_team(P, Q)`: a cheer for the runner who moved last, allowed to a partner only
# (tiny bridge's double: the bid of the other side only).
CHEERING = RULES.replace('''    action rest:''', '''    action cheer:
        where same_team(player, player_after(player, -1))
        pass
        notation "cheer"
    action taunt:
        where not same_team(player, player_after(player, -1)) and same_team(player, player)
        pass
        notation "taunt"
    action wave:
        where same_team(player, none) or same_team(none, none)
        pass
        notation "wave"
    action rest:''')


def _cheers(game, *notations):
    return sorted(n for n in game.legal_notations(_play(game, *notations)) if n in ("cheer", "taunt", "wave"))


def test_same_team_asks_for_partners(tmp_path):
    game = _game(tmp_path, rules=CHEERING)
    assert _cheers(game) == ["taunt"]  # north after west
    assert _cheers(game, "rest") == ["taunt"]  # east after north
    # three in play: north plays after south, its partner
    three = _game(tmp_path, rules=CHEERING, players=3)
    assert _cheers(three) == ["cheer"]
    assert _cheers(three, "rest") == ["taunt"]


def test_same_team_without_teams_is_the_same_player(tmp_path):
    yaml = YAML.replace("teams:\n  north_south: [north, south]\n  east_west: [east, west]\n", "")
    game = _game(tmp_path, yaml=yaml, rules=CHEERING.replace("player_after(player, -1)", "player_after(player, 4)"))
    assert _cheers(game) == ["cheer"]
    game = _game(tmp_path, yaml=yaml, rules=CHEERING)
    assert _cheers(game) == ["taunt"]


def test_same_team_wants_players(tmp_path, capsys):
    rules = CHEERING.replace("where same_team(player, player_after(player, -1))", "where same_team(player, 3)")
    validate_says(write_definition(tmp_path, YAML, rules), capsys,
                  "the second argument of 'same_team' must be a player or none, found a number (3)")


def test_the_search_rewards_each_partner_of_a_winning_team(tmp_path):
    game = _game(tmp_path)
    state = _play(game, "run", "run", "run", "run", "run")  # north's second run: north_south wins
    assert reward_where_stopped(game.engine, state, 4, 0.0) == (1.0, 0.0, 1.0, 0.0)
