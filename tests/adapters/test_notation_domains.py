"""The values a notation's number can take, for the fixed action space
(compilation/domains.py, `Game.possible_notations`): followed through a
procedure's parameters as through the statements written out (format.md 3.8,
3.13); where they cannot be, the message names the assignment that lost them."""
import pytest

from interpreter import load_game
from tests.helpers import write_definition

YAML = """\
game: dice_race
title: Dice race
description: A die rolled, a man moved that far.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 8, ranks: 1}
pieces:
  man: {symbol: M}
variables:
  die: {}
  turns: {}
setup:
  white:
    man: [a1]
  black:
    man: [b1]
"""
RULES = """\
phase play:
    turn: roll, move
    after each turn:
        turns += 1

chance roll:
    outcomes 1, 2, 3, 6
    {roll}

{procedures}

decision move:
    action run by man for each d in [die]:
        where d > 0
        leap e distance d
        notation "{{from}}-{{to}}/{{d}}"
        onto empty:
            move
    action stuck:
        pass if no other action
"""
WRITTEN_OUT = {"roll": "die = outcome % 10", "procedures": ""}
THROUGH_PROCEDURES = {"roll": "set_die(outcome * 10)", "procedures": """\
procedure set_die(tens):
    keep(tens // 10)

procedure keep(value):
    die = value
"""}


def notations(tmp_path, roll: str, procedures: str) -> tuple[str, ...]:
    return load_game(write_definition(tmp_path, YAML, RULES.format(roll=roll, procedures=procedures))) \
        .possible_notations()


def test_a_value_passed_through_procedures_is_followed_as_if_written_out(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    written_out = notations(tmp_path / "a", **WRITTEN_OUT)
    through = notations(tmp_path / "b", **THROUGH_PROCEDURES)
    # from a1..h1 to a1..h1 or off, by the die's default 0 and the four outcomes; the pass
    assert through == written_out
    assert len(through) == 8 * 9 * 5 + 1 and "a1-c1/6" in through and "a1-c1/4" not in through


def test_a_value_passed_through_let_names_is_followed(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    written_out = notations(tmp_path / "a", **WRITTEN_OUT)
    # the same name let in the chance event and in a procedure keeps each place's values
    # apart (the procedure's `face` is never 10, 20, 30 or 60)
    through = notations(tmp_path / "b", "let face = outcome * 10\n    let tens = face\n    set_die(tens)",
                        "procedure set_die(tens):\n    let face = tens // 10\n    die = face\n")
    assert through == written_out


@pytest.mark.parametrize("roll,procedures,lost,where", [
    # the argument is counted: the message names the count
    ("set_die(turns)", "procedure set_die(v):\n    die = v\n",
     "'turns' is counted ('+=')", "4:9"),
    # a value that grows without end (it used to be cut at a few values: a list too short)
    ("die = die + outcome", "",
     "'die' takes ever more values (more than 1000, or without end)", "8:5"),
    ("set_die(outcome)", "procedure set_die(v):\n    die = v\n    die = count(pieces of player)\n",
     "'die' is given a value worked out while playing (a count, an attribute, ...)", "12:5"),
    # through a `let`: the message names the let that lost the values
    ("let seen = count(pieces of player)\n    die = seen", "",
     "let name 'seen' is given a value worked out while playing (a count, an attribute, ...)", "8:5"),
])
def test_a_value_the_rules_do_not_fix_is_traced_to_its_assignment(tmp_path, roll, procedures, lost, where):
    with pytest.raises(ValueError, match="whose values the rules do not fix") as raised:
        notations(tmp_path, roll, procedures)
    assert f"({lost} at {tmp_path / 'game.rules'}:{where}): no fixed action space" in str(raised.value)
