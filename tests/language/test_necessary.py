"""What a costly `where` about a candidate implies about its piece alone
(compilation/necessary.py) is asked before the piece's candidates are listed:
the weaker condition on hand-written expressions, and the same legal actions
with the mechanism switched off, over random games."""
import random

import pytest

from interpreter import load_game
from interpreter.compilation import actions
from interpreter.compilation.necessary import necessary
from interpreter.parsing import ast
from interpreter.parsing.parser import parse_rules
from interpreter.parsing.unparse import expression_text
from tests.helpers import write_definition

DEFINES = """\
define two(s, d) = neighbour(neighbour(s, d), d)
define landing_ok = to is empty
define beside(s, t) = exists(d in orthogonal, neighbour(s, d) is enemy and neighbour(s, d) == t)
define side_step(s, d, t) = neighbour(s, d) is empty and two(s, d) is enemy \\
    and exists(e in orthogonal, two(two(s, d), e) == t and neighbour(two(s, d), e) is empty)
"""


def _weaker(where: str, defines: str = DEFINES) -> str | None:
    rules = parse_rules(f"{defines}phase play:\n    turn: move\ndecision move:\n    action a by pawn:\n"
                        f"        step all\n        where {where}\n        onto empty: move\n")
    found = {item.name: item for item in rules.items if isinstance(item, ast.Define)}
    decision = next(item for item in rules.items if isinstance(item, ast.Decision))
    weaker = necessary(decision.actions[0].wheres[0], found)
    return None if weaker is None else expression_text(weaker)


@pytest.mark.parametrize("where, implied", [
    # the conjuncts before the first reading `to`, inside the quantifier
    ("exists(d in orthogonal, two(from, d) is enemy and two(two(from, d), d) == to)",
     "exists(d in orthogonal, two(from, d) is enemy)"),
    # a define written out, its parameters replaced by the arguments
    ("exists(d in orthogonal, side_step(from, d, to))",
     "exists(d in orthogonal, neighbour(from, d) is empty and two(from, d) is enemy)"),
    ("exists(d in diagonal, neighbour(from, d) is enemy and landing_ok)",
     "exists(d in diagonal, neighbour(from, d) is enemy)"),
    ("from in goal[player] and to is empty", "from in goal[player]"),
    ("(piece is pawn and to is empty) or (neighbour(from, n) is enemy and to == a1)",
     "piece is pawn or neighbour(from, n) is enemy"),
    # a condition reading no candidate is its own
    ("neighbour(from, n) is enemy", "neighbour(from, n) is enemy"),
    # nothing is known
    ("to is empty", None),
    ("not exists(d in orthogonal, two(from, d) is enemy and two(two(from, d), d) == to)", None),
    ("neighbour(from, n) is enemy or to == a1", None),
    ("exists(neighbours(to), it is enemy)", None),
    ("all(d in orthogonal, two(from, d) is enemy and two(two(from, d), d) == to)", None),
    # a part after one reading `to` is not kept: the original asks it only after
    ("exists(d in orthogonal, to == two(from, d) and neighbour(from, d) is enemy)", None),
    # `d` of the argument would be taken by the define's own `d`: not written out
    ("exists(d in diagonal, beside(neighbour(from, d), to))", None),
])
def test_the_weaker_condition(where, implied):
    assert _weaker(where) == implied


def test_defines_that_double_at_every_level_stay_bounded():
    levels = "define f0 = to == a1\n" + "".join(
        f"define f{i} = (f{i - 1} and from == a1) or (f{i - 1} and from == a2)\n" for i in range(1, 40))
    assert _weaker("f39", levels) is None


YAML = """\
game: probe
title: Probe
description: One pawn each, jumping over the other.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 5, ranks: 5}
pieces:
  pawn: {symbol: P}
setup:
  white: {pawn: [c1]}
  black: {pawn: [c5]}
"""
# A pawn steps, jumps over the other pawn, or (the far side off the board) steps
# beside it; reaching the far rank wins.
RULES = """\
define two(s, d) = neighbour(neighbour(s, d), d)
phase play:
    turn: move
    after each action:
        if exists(pieces of player, it in far[player]):
            win
decision move:
    action step by pawn:
        step orthogonal
        notation "{to}"
        onto empty: move
    action jump by pawn:
        leap orthogonal distance 2
        where exists(d in orthogonal, neighbour(from, d) is enemy and two(from, d) == to)
        notation "{to}"
        onto empty: move
    action side by pawn:
        leap diagonal distance 1
        where exists(d in orthogonal, neighbour(from, d) is enemy and two(from, d) == none \\
            and exists(e in orthogonal, neighbour(neighbour(from, d), e) == to))
        notation "{to}"
        onto empty: move
"""
REGIONS = "regions:\n  far:\n    per_player:\n      white: {ranks: [5]}\n      black: {ranks: [1]}\n"


def _game(folder, hoisting: bool = True, monkeypatch=None):
    folder.mkdir(exist_ok=True)
    if not hoisting:
        monkeypatch.setattr(actions.ActionCompiler, "_hoist_implied", lambda *args: None)
    return load_game(write_definition(folder, YAML + REGIONS, RULES))


def test_a_piece_without_the_other_beside_it_lists_no_jump(tmp_path):
    game = _game(tmp_path)
    s = game.initial_state()
    candidates = game.engine.rules.decisions[0].candidates or game.engine.rules.decisions[0].legal
    assert sorted(c[0] for c in candidates(s)) == [0, 0, 0]  # three steps, no jump or side step listed
    s = game.apply(game.apply(game.apply(s, "c2"), "c4"), "c3")
    # black at c4, white at c3: black steps to b4, d4, c5 or jumps to c2
    assert sorted(game.legal_notations(s)) == ["b4", "c2", "c5", "d4"]


def test_side_steps_where_the_far_side_is_off_the_board(tmp_path):
    game = _game(tmp_path)
    s = game.initial_state()
    for notation in ("b1", "c4", "c1", "c3", "b1", "c2", "c1"):
        s = game.apply(s, notation)
    # black at c2 above white's c1, nothing beyond: b1 and d1 beside it, and the steps
    assert sorted(game.legal_notations(s)) == ["b1", "b2", "c3", "d1", "d2"]


def test_the_same_legal_actions_without_the_mechanism(tmp_path, monkeypatch):
    on = _game(tmp_path / "on")
    off = _game(tmp_path / "off", False, monkeypatch)
    assert len(off.engine.rules.decisions[0].candidates(off.initial_state())) > 3  # (switched off indeed)
    rng = random.Random(5)
    positions = 0
    for _ in range(30):
        a, b = on.initial_state(), off.initial_state()
        while not on.is_terminal(a) and positions < 2000:
            legal = sorted(on.legal_notations(a))
            assert legal == sorted(off.legal_notations(b))
            notation = rng.choice(legal)
            a, b = on.apply(a, notation), off.apply(b, notation)
            positions += 1
    assert positions > 500
