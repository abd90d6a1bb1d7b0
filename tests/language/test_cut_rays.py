"""`ray(X, D, it != Y)`: the sites of a ray before Y (all of it where Y is not on
it), read from a table by X and Y (expr_sites._cut_ray) — the same answers as the
ray walked and cut site by site, which `not (it == Y)` still is."""
import ast
import random

from interpreter import load_game
from tests.helpers import checks_allow, generated, write_definition

YAML = """\
game: lines
title: Lines
description: Leaps as far as the line is full, never over an enemy.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 5, ranks: 5, neighbours: all}
pieces:
  man: {symbol: M, description: A leaper.}
variables:
  seen: {in_position: true}
setup:
  white: {man: [a1, b1, c1, d2, e5]}
  black: {man: [a5, b5, c4, e1, d4]}
"""

RULES = """\
phase play:
    turn: move
    if no action:
        lose

decision move:
    action leap for each d in all:
        leap d distance 1 + count(ray(from, d), it is occupied)
        where not exists(ray(from, d, CUT), it is enemy)
        onto empty: move
        onto enemy: move
    after each action:
        seen = count(ray(to, n, it != first(pieces of opponent))) + count(ray(from, sw, CUT_TO))
        if count(pieces of opponent) <= 2:
            win
"""


def _game(tmp_path, cut: str, cut_to: str):
    folder = tmp_path / ("cut" if "!=" in cut else "walked")
    folder.mkdir()
    return load_game(write_definition(folder, YAML, RULES.replace("CUT_TO", cut_to).replace("CUT", cut)))


def _site_tests(game) -> list[str]:
    """The comparisons of a loop's element with `to` or a call (`h_first(...)`)."""
    return [ast.unparse(node) for node in generated(game, ast.Compare)
            if isinstance(node.left, ast.Name) and node.left.id.startswith("i")
            and isinstance(node.ops[0], (ast.Eq, ast.NotEq))
            and (isinstance(node.comparators[0], ast.Call)
                 or isinstance(node.comparators[0], ast.Name) and node.comparators[0].id == "to")]


def test_cut_rays_agree_with_walked_rays(tmp_path):
    cut = _game(tmp_path, "it != to", "it != to")
    walked = _game(tmp_path, "not (it == to)", "not (it == to)")
    # (a cut ray is a table's row by two sites: no loop asks each site of the ray
    # whether it is `to`, or the opponent's first piece)
    assert not _site_tests(cut)
    assert _site_tests(walked)
    # (the lister asks whether an enemy is on the way with one AND of two masks)
    assert not [loop for loop in generated(cut, ast.For, ": the legal actions") if isinstance(loop.iter, ast.Subscript)
                and isinstance(loop.iter.value, ast.Subscript)]
    rng = random.Random(7)
    engine, deferred = cut.engine, 0
    assert engine.rules.candidate_checks  # (playouts ask the way of a drawn candidate only)
    for _ in range(6):
        a, b = cut.initial_state(), walked.initial_state()
        for _ in range(30):
            if cut.is_terminal(a):
                break
            moves = sorted(cut.legal_notations(a))
            assert moves == sorted(walked.legal_notations(b))
            assert cut.position_text(a) == walked.position_text(b)
            candidates = engine.decisions[a.decision].candidates(a)
            assert sorted(checks_allow(a, candidates, engine.rules.candidate_checks[a.phase])) \
                == sorted(engine.legal(a))
            deferred += len(candidates) > len(moves)
            move = rng.choice(moves)
            a, b = cut.apply(a, move), walked.apply(b, move)
        assert cut.is_terminal(a) == walked.is_terminal(b)
    assert deferred > 10  # (positions where an enemy stood in some way)
