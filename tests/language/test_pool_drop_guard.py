"""A drop from a pool has its `where`s about the position alone (its guard, one
per value of `for each`) asked once its pool holds a piece, inside the drop's
block of the lister (decisions.TierWriter._placement): not worked out for an empty
pool, and the same moves whatever the pool holds."""
import ast

from interpreter import load_game
from tests.helpers import generated, write_definition

YAML = """\
game: zones
title: Zones
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 4, ranks: 4}
regions:
  west: {files: [a, b]}
  east: {files: [c, d]}
pools:
  stones: {initial: 1}
pieces:
  stone: {symbol: S}
"""
RULES = """\
phase play:
    turn: claim
    if no action:
        draw

decision claim:
    action zone for each r in [west, east]:
        drop stone from stones on r
        where not exists(r, it is own)
        notation "{r}:{to}"
        onto empty: place
    action pass:
        pass
        notation "pass"
"""


def _pool_tests(node: ast.AST) -> list[ast.If]:
    """The `if v[...] > 0:` blocks (a pool holds a piece) under `node`."""
    return [n for n in ast.walk(node) if isinstance(n, ast.If) and isinstance(n.test, ast.Compare)
            and isinstance(n.test.left, ast.Subscript) and isinstance(n.test.left.value, ast.Name)
            and n.test.left.value.id == "v" and isinstance(n.test.ops[0], ast.Gt)]


def test_a_pool_drops_guard_is_asked_inside_its_pool_test(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    lister = next(f for f in generated(game, ast.FunctionDef, origin="the legal actions"))
    blocks = _pool_tests(lister)
    assert len(blocks) == 2
    # (each guard's local set in its drop's block, none at the lister's top level)
    guards = [n.targets[0].id for block in blocks for n in block.body
              if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) and n.targets[0].id.startswith("l")]
    assert len(guards) == 2
    top = {n.targets[0].id for n in lister.body if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name)}
    assert not top & set(guards)
    state = game.initial_state()
    assert sorted(game.legal_notations(state)) == sorted(
        ["pass"] + [f"west:{f}{r}" for f in "ab" for r in "1234"] + [f"east:{f}{r}" for f in "cd" for r in "1234"])
    state = game.apply(state, "west:a1")
    assert sorted(game.legal_notations(state)) == sorted(
        ["pass"] + [f"west:{f}{r}" for f in "ab" for r in "1234" if f + r != "a1"]
        + [f"east:{f}{r}" for f in "cd" for r in "1234"])
    state = game.apply(state, "east:c1")
    assert game.legal_notations(state) == ["pass"]  # (white's stone is down, its pool empty)
    state = game.apply(state, "pass")
    assert game.legal_notations(state) == ["pass"]
