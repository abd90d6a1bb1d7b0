"""`exists(connected(X, it == X or M), it in GOAL)` answered from GOAL's side grown
as bitmasks (compilation/masked_reach.py, runtime/dilation.py): the growth on small
tables, and random games of a rule without `it == n` on an orthogonal grid equal to
the same definition compiled with the site-by-site search. (Havannah's ring, with
`it == n`, on a hexagonal grid: tests/language/test_cut_pretest.py.)"""
import ast

from interpreter import load_game
from interpreter.compilation import expr_sets
from interpreter.runtime import dilation
from tests.helpers import generated, random_games_seen
from tests.language.test_cut_pretest import ring_game


def test_the_goal_side_grown_through_the_allowed_sites():
    # a path 0 - 1 - 2 - 3 - 4, the goal {4}: from 4 through the allowed sites
    rows = (0b10, 0b101, 0b1010, 0b10100, 0b1000)
    assert dilation.reach([(-1, 0)], 0b10000, 0b11011, (), (), rows) == 0b11000
    assert dilation.reach([(-1, 0)], 0b10000, 0b11111, (), (), rows) == 0b11111
    assert dilation.reach([(-1, 0)], 0b10000, 0b01111, (), (), rows) == 0
    # the same as steps: +1 from sites 0-3, -1 from sites 1-4
    assert dilation.reach([(-1, 0)], 0b10000, 0b11011, ((1, 0b01111),), ((1, 0b11110),), ()) == 0b11000
    # the answer kept by the allowed sites (the goal and table are the caller's own)
    cache = [(-1, 0)]
    assert dilation.reach(cache, 0b10000, 0b11110, (), (), rows) == 0b11110
    assert cache == [(0b11110, 0b11110)]
    assert dilation.reach(cache, 0, 0b11110, (), (), rows) == 0b11110


def _helpers(game):
    return {node.func.id for node in generated(game, ast.Call) if isinstance(node.func, ast.Name)}


def _grows(game):
    return any(isinstance(node.op, ast.FloorDiv) for node in generated(game, ast.BinOp))


def _same_games(tmp_path, monkeypatch, ring, neighbours):
    path = ring_game(tmp_path, ring, neighbours)
    game = load_game(path)
    with monkeypatch.context() as patched:
        patched.setattr(expr_sets, "reach_answer", lambda *args: None)
        searched = load_game(path)
    assert _grows(game) and "h_marks" not in _helpers(game)
    assert not _grows(searched) and "h_marks" in _helpers(searched)
    seeds = range(20)
    games = random_games_seen(game, seeds)
    assert games == random_games_seen(searched, seeds)
    assert any(winner for _, winner, _ in games)


def test_a_flood_without_its_start_and_on_an_orthogonal_grid(tmp_path, monkeypatch):
    # (a neighbour in the group never reaches: asked of the sites out of it alone)
    _same_games(tmp_path, monkeypatch, "it not in g", "[n, e, s, w]")
