"""A player out of play (format.md 2.3) listed among a chance event's outcomes is
left out with its weight (crazy eights' dealer drawn from `p0, ..., p4` with two in
play gave `dealer:p1` three fifths of the time), and a list of none in play is an error."""
from interpreter import load_game
from tests.helpers import validate_says, write_definition

YAML = """\
game: dealer
rules: game.rules
players: [p0, p1, p2, p3, p4]
options:
  players: {values: [2, 3, 5], default: 2}
in_play:
  option: players
  choices:
    2: [p0, p1]
    3: [p0, p1, p2]
    5: [p0, p1, p2, p3, p4]
board:
  grid: {files: 2, ranks: 1}
pieces:
  stone: {symbol: S}
variables:
  dealer: {type: player}
"""
RULES = """\
phase deal:
    turn: draw_dealer
    after each turn:
        start phase play
phase play:
    turn: put
    if no action:
        draw
chance draw_dealer:
    outcomes p0, p1 weight 2, p2, p3, p4
    dealer = outcome
decision put:
    action stone:
        drop stone on sites
        onto empty:
            place
"""


def _outcomes(tmp_path, players):
    game = load_game(write_definition(tmp_path, YAML, RULES), options={"players": players})
    return {action.notation: round(chance, 4) for action, chance in game.chance_outcomes(game.initial_state())}


def test_the_players_out_of_play_are_no_outcomes(tmp_path):
    assert _outcomes(tmp_path, 2) == {"draw_dealer:p0": 0.3333, "draw_dealer:p1": 0.6667}
    assert _outcomes(tmp_path, 3) == {"draw_dealer:p0": 0.25, "draw_dealer:p1": 0.5, "draw_dealer:p2": 0.25}
    assert _outcomes(tmp_path, 5) == {"draw_dealer:p0": 0.1667, "draw_dealer:p1": 0.3333,
                                      "draw_dealer:p2": 0.1667, "draw_dealer:p3": 0.1667, "draw_dealer:p4": 0.1667}


def test_a_list_of_players_none_of_them_in_play(tmp_path, capsys):
    write_definition(tmp_path, YAML, RULES.replace("outcomes p0, p1 weight 2, p2, p3, p4", "outcomes p3, p4"))
    validate_says(tmp_path, capsys, "chance 'draw_dealer' has no outcome with these options: every player it "
                                    "lists is out of play")
