"""`exists(pieces [of P] where COND)` and `count(...)` are asked as `exists(pieces
[of P], COND)` (the quantifier's loop stops at the first piece, counts without a
list): the same answers on a hand-made position, `it` the piece in both."""
from interpreter import load_game
from tests.helpers import stones_and_rocks, write_definition

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
