"""The sites a drop chooses among, worked out by loops and reading the position
alone, are worked out once per listing where the drop is offered
(per_listing.ListingCache.kept_whole): every drop naming them alike reads one
local, a drop whose `where` fails never works them out, and the legal actions are
those of asking each drop on its own (hand-checked, on the next position too)."""
import ast

from interpreter import load_game
from tests.helpers import generated, stones_and_rocks, write_definition

#   1  R  .  .  .
#      a  b  c  d
SETUP = "setup:\n  neutral:\n    rock: [a1]\n"

# `free`: the empty sites joined to the rock on a1 through empty sites, a flood.
RULES = """\
define free = connected(a1, it == a1 or it is empty) - [a1]
phase play:
    turn: place
decision place:
    action light:
        where count(pieces) < 9
        drop stone on free
        notation "L{to}"
        onto empty: place
    action heavy:
        where count(pieces) > 9
        drop stone on free
        notation "H{to}"
        onto empty: place
    action other:
        where count(pieces) < 9
        drop stone on free
        notation "O{to}"
        onto empty: place
"""


def _game(tmp_path):
    return load_game(write_definition(tmp_path, stones_and_rocks(files=4, ranks=1, extra=SETUP), RULES))


def test_drops_naming_one_set_list_what_each_would(tmp_path):
    game = _game(tmp_path)
    state = game.initial_state()
    assert game.legal_notations(state) == ["Lb1", "Lc1", "Ld1", "Ob1", "Oc1", "Od1"]
    # A stone on c1 cuts d1 off (empty, no longer free): the local is made again.
    assert game.legal_notations(game.apply(state, "Lc1")) == ["Lb1", "Ob1"]


def test_one_local_worked_out_inside_each_drops_guard(tmp_path):
    game = _game(tmp_path)
    listers = [f for f in generated(game, ast.FunctionDef, origin=": the legal actions")
               if isinstance(f, ast.FunctionDef)]
    assert listers
    for function in listers:
        kept = [node for node in ast.walk(function) if isinstance(node, ast.If)
                and isinstance(node.test, ast.Compare) and isinstance(node.test.ops[0], ast.Is)
                and isinstance(node.test.left, ast.Name) and any(isinstance(n, ast.For) for n in ast.walk(node))]
        assert len(kept) == 3  # (one block per drop, each behind that drop's guard)
        assert len({block.test.left.id for block in kept}) == 1
        assert not set(map(id, kept)) & {id(stmt) for stmt in function.body}
