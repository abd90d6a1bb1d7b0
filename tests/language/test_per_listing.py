"""Parts of a lister's `where` that read only the position, worked out once per
listing (compilation/per_listing.py): the same legal actions as asking them
each time (hand-checked), a part reading the piece asked for each piece, and
one local for one part however many conditions ask it."""
import ast

from interpreter import load_game
from tests.helpers import generated, stones_and_rocks, write_definition

#   4  .  .  w  .
#   3  .  .  w  .
#   2  w  .  .  w
#   1  R  w  .  R
#      a  b  c  d
SETUP = "setup:\n  white:\n    stone: [a2, b1, c3, c4, d2]\n  neutral:\n    rock: [a1, d1]\n"

# `anchored` (the rock on a1 and what touches it, orthogonally) reads the position
# alone; `count(connected(from, ...))` reads the piece (asked by two actions).
RULES = """\
define anchored = connected(a1, it is occupied)
phase play:
    turn: move
decision move:
    action step by stone:
        where from not in anchored and count(connected(from, it is occupied)) == 2
        go to neighbours(from)
        notation "{from}-{to}"
        onto empty: move
    action hop by stone:
        where count(connected(from, it is occupied)) == 2
        go to [b4]
        notation "{from}>{to}"
        onto empty: move
    action pull by stone:
        where from in anchored and count(anchored) == 3
        go to neighbours(from)
        notation "{from}+{to}"
        onto empty: move
"""


def test_a_position_only_part_is_kept_and_a_piece_part_is_not(tmp_path):
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=SETUP), RULES))
    # step: c3 and c4 (a pair) and d2 (beside the rock on d1); a2 and b1 are anchored.
    # pull: a2 and b1, the anchored group being the rock and the two of them.
    assert game.legal_notations(game.initial_state()) == sorted([
        "c3-b3", "c3-c2", "c3-d3", "c4-b4", "c4-d4", "d2-c2", "d2-d3",
        "c3>b4", "c4>b4", "d2>b4", "a2+a3", "a2+b2", "b1+b2", "b1+c1"])


def _kept_locals(function: ast.FunctionDef) -> set[str]:
    """The locals set to None at the function's start and worked out by a loop
    under `if NAME is None:` inside its loop over the pieces."""
    emptied = {s.targets[0].id for s in function.body if isinstance(s, ast.Assign)
               and isinstance(s.value, ast.Constant) and s.value.value is None
               and isinstance(s.targets[0], ast.Name)}
    kept = set()
    for loop in (s for s in function.body if isinstance(s, ast.For) and s.target.id == "frm"):
        for node in ast.walk(loop):
            if isinstance(node, ast.If) and isinstance(node.test, ast.Compare) \
                    and isinstance(node.test.left, ast.Name) and node.test.left.id in emptied \
                    and isinstance(node.test.ops[0], ast.Is) \
                    and any(isinstance(n, ast.For) for n in ast.walk(node)):
                kept.add(node.test.left.id)
    return kept


def test_one_local_for_the_flood_every_condition_asks(tmp_path):
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=SETUP), RULES))
    listers = list(generated(game, ast.FunctionDef, origin=": the legal actions"))
    assert listers
    for function in listers:
        assert len(_kept_locals(function)) == 1
        # The costly conditions about the piece, each remembered for the piece: `from
        # not in anchored`, `from in anchored` and the piece's flood, asked by two
        # actions, in one local.
        loop = next(s for s in function.body if isinstance(s, ast.For) and s.target.id == "frm")
        emptied = [s.targets[0].id for s in loop.body if isinstance(s, ast.Assign)
                   and isinstance(s.value, ast.Constant) and s.value.value is None]
        assert len(emptied) == len(set(emptied)) == 3


def test_a_forbid_result_reads_the_position_after_the_move(tmp_path):
    # The same flood asked after the move: not the listing's (a stone may not
    # leave the anchored group by moving).
    rules = RULES.replace("phase play:", "forbid result where exists(pieces of player, it in neighbours(a1)) "
                          "and count(anchored) < 3\nphase play:")
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=SETUP), rules))
    # a2 to a3 or b1 to c1 leaves the group at 2 (a1 and the other one); to b2
    # either keeps it at 3 (b2 touches the other).
    assert game.legal_notations(game.initial_state()) == sorted([
        "c3-b3", "c3-c2", "c3-d3", "c4-b4", "c4-d4", "d2-c2", "d2-d3",
        "c3>b4", "c4>b4", "d2>b4", "a2+b2", "b1+b2"])
