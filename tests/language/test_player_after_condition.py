"""`player_after(P, N, COND)` (docs/format.md 3.12.2): the first player from N
places after P on, round the turn order once, for which COND holds — the next
player in turn who can play; none when no one can."""
from interpreter import load_game
from tests.helpers import placing, stones_and_rocks, validate_says, winner, write_definition

PLAYERS = ("north", "east", "south", "west")
VARIABLES = """\
variables:
  out: {type: flag, per_player: true, default: {east: true, south: true}}
  chosen: {type: player}
"""
RULES = placing("""\
    if to == b2 or to == c2:
        out[player] = true
    chosen = player_after(player, 1, not out[it])
    if chosen == none:
        draw
    else:
        next turn chosen
""")

def _game(tmp_path, rules=RULES):
    return load_game(write_definition(tmp_path, stones_and_rocks(players=PLAYERS, files=3, ranks=3,
                                                                 extra=VARIABLES), rules))


def _movers(game, actions):
    state, movers = game.initial_state(), []
    for action in actions:
        state = game.apply(state, action)
        movers.append(game.variables(state)["chosen"])
    return movers, state


def test_the_players_who_cannot_are_passed_over_and_the_mover_comes_last(tmp_path):
    game = _game(tmp_path)
    # east and south are out: north, west, north, ...; west drops on b2 and is out
    # too: north alone is left, and plays again (itself, last in the round)
    movers, state = _movers(game, ["@a1", "@a2", "@a3", "@b2", "@c3", "@b1"])
    assert movers == ["west", "north", "west", "north", "north", "north"]
    assert game.to_move(state) == "north"


def test_none_when_no_one_can(tmp_path):
    game = _game(tmp_path)
    movers, state = _movers(game, ["@a1", "@b2", "@c2"])  # west out on b2, then north on c2
    assert movers == ["west", "north", None]
    assert game.is_terminal(state) and winner(game, state) is None


def test_it_is_each_player_in_the_condition(tmp_path, capsys):
    write_definition(tmp_path, stones_and_rocks(players=PLAYERS, extra=VARIABLES),
                     RULES.replace("not out[it]", "it + 1 > 0"))
    validate_says(tmp_path, capsys, "the left side of '+' must be a number, found a player")


def test_a_condition_that_loops_over_the_board(tmp_path):
    rules = "define fewer_than_two(p) = count(pieces of p) < 2\n" + RULES.replace("not out[it]", "fewer_than_two(it)")
    game = _game(tmp_path, rules)
    sites = ["@a1", "@a2", "@a3", "@b1", "@b3", "@c1", "@c2", "@c3"]  # none on b2: nobody is out
    movers, state = _movers(game, sites)
    assert movers == ["east", "south", "west", "north", "east", "south", "west", None]
    assert game.is_terminal(state) and winner(game, state) is None
