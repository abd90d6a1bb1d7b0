"""A draw over the player's pieces where a piece gives one action at most
(compilation/draws.py, write_element_draws): written without a list of the piece's
actions, it still draws the keeping test's number, so that every try uses the same
random numbers as one over a list does and seeded playouts are the same.
Cribbage's pegging (benchmarks/outsiders/cribbage): a card of the hand that keeps
the count at most 31, one action a card, the go offered when there is none."""
from __future__ import annotations

import ast
import random

import pytest

from interpreter import load_game
from interpreter.compilation.draws import _appends_at_most_once
from tests.helpers import REPO
from tests.runtime.test_element_draws import positions

CRIBBAGE = REPO / "benchmarks" / "outsiders" / "cribbage"


@pytest.fixture(scope="module")
def cribbage():
    return load_game(str(CRIBBAGE)).engine


def _peg(engine):
    return next(d for d in engine.decisions if d.name == "peg")


def _function(engine, name: str) -> ast.FunctionDef:
    tree = ast.parse(engine.rules.source)
    return next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == name)


def test_the_pegs_draw_keeps_no_list(cribbage):
    peg = _peg(cribbage)
    assert peg.draws_per_element == 1
    draw = _function(cribbage, peg.draws[0].__name__)
    names = {node.id for node in ast.walk(draw) if isinstance(node, ast.Name)}
    assert "out" not in names
    assert not any(isinstance(node, ast.Attribute) and node.attr == "append" and isinstance(node.value, ast.Name)
                   and node.value.id == "out" for node in ast.walk(draw))


def _listed_draw(s, legal, rand):
    """What a draw keeping a list of the piece's actions gives (the writer's other
    form, format of the M > 1 draws), and the numbers it takes from `rand`: a piece
    drawn among the player's; one that has no action narrows the pool to those that
    have one (too few: None, the lister lists); else its actions listed, a number
    drawn and the action kept with chance k/M (M = 1)."""
    pieces = list(s.occ[s.player])
    n = len(pieces)
    for _ in range(n):
        frm = pieces[int(rand() * n)]
        own = [code for code in legal if code[2] == frm]
        if not own:
            pieces = [x for x in pieces if any(code[2] == x for code in legal)]
            n = len(pieces)
            if n < 2:
                return None
            continue
        u = rand() * 1
        if u < len(own):
            return own[int(u)]
    return None


def _counting(rng: random.Random):
    taken = []

    def rand():
        taken.append(rng.random())
        return taken[-1]
    return rand, taken


def test_a_draw_takes_the_numbers_a_list_would_and_gives_its_action(cribbage):
    peg = _peg(cribbage)
    compared = listed = 0
    for seed in range(6):
        for s in positions(cribbage, seed, tuple(range(30, 330, 2))):
            if s.decision != cribbage.decisions.index(peg):
                continue
            legal = [code for code in cribbage.legal(s) if code[2] >= 0]  # (not the go)
            for draw_seed in range(3):
                rand, taken = _counting(random.Random(draw_seed))
                expected_rand, expected_taken = _counting(random.Random(draw_seed))
                code = peg.draws[0](s, [], rand, False)
                assert code == _listed_draw(s, legal, expected_rand)
                assert taken == expected_taken
                assert code is None or code in legal
                compared += 1
                listed += code is None
    assert compared > 300 and 0 < listed < compared


@pytest.mark.parametrize("text, once", [
    ("out.append(1)", True),
    ("if a:\n    out.append(1)\nelse:\n    out.append(2)", True),
    ("if a:\n    out.append(1)\nx = 2", True),
    ("out.append(1)\nif a:\n    out.append(2)", False),
    ("for x in y:\n    out.append(x)", False),
    ("if a:\n    for x in y:\n        out.append(x)", False),
    ("while a:\n    out.append(1)\n    break", False),
])
def test_one_append_at_most_is_read_from_the_shape(text, once):
    assert _appends_at_most_once(ast.parse(text).body) is once
