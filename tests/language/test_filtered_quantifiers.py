"""`exists(pieces [of P] where COND)` and `count(...)` are asked as `exists(pieces
[of P], COND)` (the quantifier's loop stops at the first piece, counts without a
list): the same answers on a hand-made position, `it` the piece in both."""
import ast as pyast

from interpreter import load_game
from tests.helpers import generated, stones_and_rocks, write_definition

YAML = stones_and_rocks(files=4, ranks=1, extra=(
    "setup:\n  white:\n    stone: [a1, b1]\n  black:\n    stone: [c1]\n  neutral:\n    rock: [d1]\n"
    "variables:\n  mine: {}\n  stones: {}\n  near: {}\n  none_there: {type: flag}\n  some_rock: {type: flag}\n"
    "  far_rock: {type: flag}\n"))
RULES = """\
phase play:
    turn: look

decision look:
    action now:
        pass:
            mine = count(pieces of white where it in [a1, c1])
            stones = count(pieces where it is stone)
            near = count(pieces where exists(neighbours(it), it is rock))
            none_there = exists(pieces of black where it == a1)
            some_rock = exists(pieces where it is rock and it != a1)
            far_rock = exists(pieces of white where it is rock)
"""


def test_filtered_counts_and_tests_on_a_position(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    state = game.apply(game.initial_state(), "pass")
    assert game.variables(state) == {"mine": 1, "stones": 3, "near": 1, "none_there": False, "some_rock": True,
                                     "far_rock": False}


DEFINED = """\
define white_near = pieces of white where it in [a1, c1]
define black_on_a1 = pieces of black where it == a1
define rocks_elsewhere = pieces where it is rock and it != a1

phase play:
    turn: look

decision look:
    action now:
        pass:
            mine = count(white_near)
            none_there = exists(black_on_a1)
            some_rock = exists(rocks_elsewhere)
            stones = count(pieces) - count(rocks_elsewhere)
"""


def test_a_define_of_a_filtered_set_is_asked_without_its_list(tmp_path):
    # `exists(undealt)`, the define naming the set: the same loop that stops early
    game = load_game(write_definition(tmp_path, YAML, DEFINED))
    state = game.apply(game.initial_state(), "pass")
    assert game.variables(state) == {"mine": 1, "stones": 3, "near": 0, "none_there": False, "some_rock": True,
                                     "far_rock": False}
    appends = [node for node in generated(game, pyast.Call, "action 'now'")
               if isinstance(node.func, pyast.Attribute) and node.func.attr == "append"]
    assert not appends, [pyast.unparse(node) for node in appends]


def test_an_error_inside_such_a_define_names_the_use(tmp_path, capsys):
    rules = DEFINED.replace("it is rock and it != a1", "it is rock and it != 5")
    write_definition(tmp_path, YAML, rules)
    from interpreter.frontends.cli import main

    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "game.rules:3:" in err and "used" in err, err
