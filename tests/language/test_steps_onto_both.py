"""A piece's step onto empty sites and its step onto pieces along the same
directions are listed in one loop over the step's sites (decisions._fused_pairs,
patterns.step_onto_both: a pawn's capture and its capture en passant), each
action's candidates where what stands there is its landing's, its own `where`
asked; the same actions as listed apart (one with a condition of its own)."""
import ast

from interpreter import load_game
from tests.helpers import generated, stones_and_rocks, write_definition

RULES = """\
phase play:
    turn: move
decision move:
    action stone_capture by stone:
        step diagonal
        notation "{from}x{to}"
        onto enemy: move
    action stone_slip by stone:
        step diagonal
        where neighbour(to, n) is rock
        notation "{from}-{to}"
        onto empty: move
"""
SETUP = ("setup:\n  white:\n    stone: [b2, d4]\n  black:\n    stone: [c3, a1]\n"
         "  neutral:\n    rock: [a4, d2]\n")


def _steps_loops(game) -> int:
    """How many loops of the lister walk a step table (`for to in ...`)."""
    return sum(1 for node in generated(game, ast.For, origin=": the legal actions")
               if isinstance(node.target, ast.Name) and node.target.id == "to")


def test_a_step_onto_empty_sites_and_one_onto_pieces_are_listed_in_one_loop(tmp_path):
    (tmp_path / "fused").mkdir()
    (tmp_path / "apart").mkdir()
    fused = load_game(write_definition(tmp_path / "fused", stones_and_rocks(extra=SETUP), RULES))
    apart = load_game(write_definition(tmp_path / "apart", stones_and_rocks(extra=SETUP),
                                       RULES.replace("step diagonal\n        notation \"{from}x",
                                                     "step diagonal\n        where count(pieces of player) > 0\n"
                                                     "        notation \"{from}x")))
    assert _steps_loops(fused) == 1
    assert _steps_loops(apart) == 2
    # b2: captures c3 and a1 (black's), not c1 (empty) nor a3 (empty); slips onto
    # a3 (a4 north of it is a rock) but not c1 (c2 north of it is empty); d4: captures
    # c3, slips onto nothing (c5 off the 4x4 board, e3/e5 off it too).
    want = ["b2-a3", "b2xa1", "b2xc3", "d4xc3"]
    for game in (fused, apart):
        assert sorted(game.legal_notations(game.initial_state())) == want
