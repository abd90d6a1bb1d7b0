"""A search for a fixed goal goes towards it first (compilation/goal_search.py):
`exists(connected(X, C), it in GOAL)` written depth first, each site's
neighbours nearest the goal asked first — the order on a hand-made table, and
the same legal actions with the mechanism switched off, over random games of
Quoridor (a wall must leave both pawns a way), Hex (a chain joining the two
edges wins) and three pawns each with a goal of its own, asked in a loop over the
players (`all(p in players, ...)`: an order per player's goal)."""
import ast
import random
import shutil

import pytest

from interpreter import load_game
from interpreter.compilation import expr_sets
from interpreter.compilation.goal_search import _farthest_first
from tests.helpers import REPO, generated, write_definition


def test_the_neighbours_nearest_the_goal_come_last():
    # a line 0-1-2-3 and a site 4 off it, joined to 1; the goal is 3
    table = ((1,), (0, 2, 4), (1, 3), (2,), (1,), ())
    ordered = _farthest_first(table, [3])
    assert ordered == ((1,), (0, 4, 2), (1, 3), (2,), (1,), ())  # (0 and 4 tie: as written)


def test_sites_that_never_reach_the_goal_come_first():
    table = ((1, 3), (0,), (), (), ())  # site 3 is joined to nothing
    assert _farthest_first(table, [1]) == ((3, 1), (0,), (), (), ())


def _loaded(folder, monkeypatch, directed: bool):
    if not directed:
        monkeypatch.setattr(expr_sets, "goal_order", lambda *args: None)
    game = load_game(str(folder))
    monkeypatch.undo()
    return game


def _hex_asking_the_group_twice(tmp_path):
    """The Hex example as it was first written: each edge's question searches the
    group itself (`exists(group(to), it in start[player])`), a search for a goal."""
    folder = tmp_path / "hex"
    shutil.copytree(REPO / "docs" / "examples" / "hex", folder)
    rules = folder / "hex.rules"
    text = rules.read_text(encoding="utf-8")
    named = ("let chain = group(to)\n"
             "            if exists(chain, it in start[player]) and exists(chain, it in goal[player]):")
    assert named in text
    rules.write_text(text.replace(named, "if exists(group(to), it in start[player]) "
                                         "and exists(group(to), it in goal[player]):"), encoding="utf-8")
    return folder


@pytest.mark.parametrize("folder, origin, games, plies", [
    (REPO / "benchmarks" / "games" / "quoridor", "forbid result", 3, 80),
    ("hex", "onto empty", 20, 25),
])
def test_the_same_legal_actions_without_the_mechanism(folder, origin, games, plies, monkeypatch, tmp_path):
    if folder == "hex":
        folder = _hex_asking_the_group_twice(tmp_path)
    directed = _loaded(folder, monkeypatch, True)
    plain = _loaded(folder, monkeypatch, False)
    # (the searches are the loops the directed code has more of)
    assert len(list(generated(directed, ast.While, origin))) > len(list(generated(plain, ast.While, origin)))
    ended = _same_random_games(directed, plain, random.Random(3), games, plies)
    assert ended or folder.name == "quoridor"


def _same_random_games(directed, plain, rng, games, plies) -> int:
    """Random games played on both side by side, the legal actions and results equal
    at every step; how many ended within `plies`."""
    ended = 0
    for _ in range(games):
        a, b = directed.initial_state(), plain.initial_state()
        for _ in range(plies):
            if directed.is_terminal(a):
                ended += 1
                break
            legal = directed.legal_notations(a)
            assert legal == plain.legal_notations(b)
            notation = rng.choice(legal)
            a, b = directed.apply(a, notation), plain.apply(b, notation)
        assert directed.result(a) == plain.result(b)
    return ended


WALLS_FOR_THREE = """\
game: walls3
title: Walls for three
description: Three pawns race to their sides; a wall may not cut any pawn from its goal.
rules: game.rules
players:
  - {name: red}
  - {name: green}
  - {name: blue}
board:
  grid: {files: 5, ranks: 5}
pieces:
  pawn: {symbol: P}
  wall: {symbol: "#", owner: neutral}
regions:
  goal:
    per_player:
      red: {ranks: [5]}
      green: {files: [e]}
      blue: {ranks: [1]}
setup:
  red: {pawn: [c1]}
  green: {pawn: [a3]}
  blue: {pawn: [c5]}
"""

WALLS_FOR_THREE_RULES = """\
define reaches(p, a) = exists(connected(first(pieces of p), orthogonal, it is not wall and it != a),
    it in goal[p])

phase play:
    turn: move

decision move:
    action step by pawn:
        step orthogonal
        notation "{from}-{to}"
        onto empty: move
    action wall:
        drop wall on sites
        notation "{to}"
        where all(p in players, reaches(p, to))
        onto empty: place
    after each action:
        if to in goal[player] and piece is pawn:
            win
"""


def test_each_players_goal_read_in_a_loop_over_the_players_gets_its_order(monkeypatch, tmp_path):
    folder = write_definition(tmp_path, WALLS_FOR_THREE, WALLS_FOR_THREE_RULES)
    directed = _loaded(folder, monkeypatch, True)
    plain = _loaded(folder, monkeypatch, False)
    assert list(generated(directed, ast.While, "legal actions")) and not list(generated(plain, ast.While))
    assert directed.engine.perft(directed.initial_state(), 3) == [25, 600, 13785]  # (as main counted them)
    _same_random_games(directed, plain, random.Random(4), 6, 40)
