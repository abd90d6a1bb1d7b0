"""A `forbid result` check leaves out the `after each action` rules that only set
attributes of pieces no `forbid result` line reads (compilation/attribute_writes.py,
cases.CaseWriter._checked_after): their answers are the same without them. Where a
line reads the attribute, or the rules do more, the check plays them."""
import ast

import pytest

from interpreter import load_game
from tests.helpers import stones_and_rocks, write_definition

SETUP = ("attributes:\n  moved: {type: flag}\n"
         "setup:\n  white:\n    stone: [a1]\n  black:\n    stone: [c1]\n")
RULES = """\
phase play:
    turn: move
    if no action: lose
decision move:
    action stone_move by stone:
        step orthogonal
        notation "{from}{to}"
        onto empty: move
    after each action:
        piece.moved = true
        if piece is stone:
            for each s in pieces of player where not it.moved:
                s.moved = true
forbid result where FORBID
"""
# (no stone of the mover's east of an enemy: a1b1 lands west of c1)
BESIDE = "exists(pieces of player, neighbour(it, e) is enemy)"
# (no stone of the mover's that has moved: every move)
MOVED = "exists(pieces of player, it.moved)"


def _game(tmp_path, forbid: str):
    rules = RULES.replace("FORBID", forbid)
    return load_game(write_definition(tmp_path, stones_and_rocks(extra=SETUP), rules))


def _check_code(game) -> str:
    """The generated check of the stones' moves."""
    name = game.rules.result_checks[0][0].__name__
    return next(ast.unparse(f) for f in game.rules.module.body if isinstance(f, ast.FunctionDef) and f.name == name)


def test_attributes_no_line_reads_are_not_set_by_the_check(tmp_path):
    game = _game(tmp_path, BESIDE)
    assert "x0" not in _check_code(game)  # (the register of a piece whose attribute is set)
    # a1b1 would stand west of c1; a1a2 is allowed, and sets the flag when played
    assert game.legal_notations(game.initial_state()) == ["a1a2"]
    state = game.apply(game.initial_state(), "a1a2")
    assert [piece[3] for piece in state.board if piece is not None and piece[0] == 0] == [True]


def test_an_attribute_a_line_reads_is_set_by_the_check(tmp_path):
    game = _game(tmp_path, MOVED)
    assert "x0" in _check_code(game)
    # every move leaves a stone that has moved: none is legal, white loses
    state = game.initial_state()
    assert game.legal_notations(state) == []
    assert game.is_terminal(state)


@pytest.mark.parametrize("after", ["                piece.moved = false\n        quiet = 1\n",
                                   "        remove to\n"])
def test_rules_doing_more_than_setting_attributes_are_played(tmp_path, after):
    # (a variable set, a piece removed: the block is not one of attribute writes alone)
    setup = SETUP + "variables:\n  quiet: {type: int, default: 0}\n"
    rules = RULES.replace("FORBID", BESIDE).replace("                s.moved = true\n",
                                                    f"                s.moved = true\n{after}")
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=setup), rules))
    assert "x0" in _check_code(game)
