"""`for each s in pieces: remove s` takes every piece off the board in one call
where the function keeps nothing else of the board (compilation/cleared_at_once.py,
helpers.clear_all): the same board and lists as one `h_clear` a piece."""
import ast
import random
import textwrap

import pytest

from interpreter import load_game
from interpreter.compilation import compiler
from interpreter.compilation.cleared_at_once import pieces_cleared_at_once
from interpreter.runtime.helpers import all_pieces, clear, clear_all
from interpreter.runtime.state import masked as masked_sites
from tests.helpers import REPO, generated, helper_calls, legal_codes_seen

CRIBBAGE = str(REPO / "benchmarks" / "outsiders" / "cribbage")


def _position(rng, masked):
    board, occ = [None] * 20, [[], [], masked_sites()]
    for site in rng.sample(range(20), rng.randrange(20)):
        owner = rng.randrange(-1, 2)
        board[site] = (owner, rng.randrange(3))
        occ[owner].append(site)
    if masked:
        occ[2].mask = sum(1 << site for site in occ[2])
    return board, occ


@pytest.mark.parametrize("masked", [False, True])
def test_every_piece_cleared_at_once_leaves_what_one_at_a_time_leaves(masked):
    rng = random.Random(3)
    for _ in range(50):
        board, occ = _position(rng, masked)
        one_board, one_occ = board[:], [owned.copy() for owned in occ]
        for site in tuple(all_pieces(one_occ)):
            clear(one_board, one_occ, site)
        clear_all(board, occ)
        assert board == one_board == [None] * 20 and occ == one_occ == [[], [], []]
        assert occ[2].mask == one_occ[2].mask == (0 if masked else None)


def _function(body):
    return ast.parse("def f(s):\n" + textwrap.indent(textwrap.dedent(body), "    ")).body[0]


def test_the_loop_becomes_one_call():
    changed = pieces_cleared_at_once(_function("""
        v[2] += 1
        for l7 in tuple(h_all_pieces(o)):
            h_clear(b, o, l7)
        v[1] = 0
    """))
    lines = ast.unparse(ast.fix_missing_locations(changed)).split("\n")
    assert lines[1:] == ["    v[2] += 1", "    h_clear_all(b, o)", "    v[1] = 0"]


@pytest.mark.parametrize("body", [
    "for l7 in tuple(h_all_pieces(o)):\n    h_clear(b, o, l7)\nv[1] = l7",  # (the last site read after)
    "for l7 in tuple(h_all_pieces(o)):\n    h_clear(b, o, l7)\n    h_keyed(s, l7)",  # (more kept a piece)
    "for l7 in tuple(h_all_pieces(o)):\n    h_clear_kept(s, b, o, l7)",  # (journaled)
    "for l7 in tuple(o[p]):\n    h_clear(b, o, l7)",  # (one owner's pieces)
])
def test_other_loops_stay(body):
    function = _function(body)
    assert pieces_cleared_at_once(function) is function


def test_cribbage_plays_as_with_a_call_a_piece(monkeypatch):
    game = load_game(CRIBBAGE)
    assert helper_calls(game, "h_clear_all")
    assert not [loop for loop in generated(game, ast.For) if ast.unparse(loop.iter) == "tuple(h_all_pieces(o))"]
    seen = legal_codes_seen(game, range(3))
    monkeypatch.setattr(compiler, "pieces_cleared_at_once", lambda function: function)
    plain = load_game(CRIBBAGE)
    assert not helper_calls(plain, "h_clear_all")
    assert legal_codes_seen(plain, range(3)) == seen
