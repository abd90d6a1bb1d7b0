"""Flag variables (format.md 2.11): stored as 1 and 0, read as true and false."""
import ast

from interpreter import load_game
from tests.helpers import drop_where, generated, stones_and_rocks, write_definition


def test_a_flag_set_to_true_or_false_stores_the_number(tmp_path):
    # `lucky = true` stores 1, `lucky = to == a4` 1 or 0 as it turns out; the
    # constant needs no test at run time (`1 if True else 0`).
    yaml = stones_and_rocks() + "variables:\n  lucky: {type: flag}\n  late: {type: flag}\n"
    game = load_game(write_definition(tmp_path, yaml, drop_where(
        "not lucky", "place\nlucky = true\nlate = to == a4")))
    assert game.variables(game.apply(game.initial_state(), "a4")) == {"lucky": True, "late": True}
    after = game.apply(game.initial_state(), "b1")
    assert game.variables(after) == {"lucky": True, "late": False}
    assert game.legal_notations(after) == []  # (`where not lucky`)
    stores = [node for node in generated(game, ast.Assign, "action 'stone'")
              if isinstance(node.value, ast.IfExp) and isinstance(node.value.test, ast.Constant)]
    assert stores == []
