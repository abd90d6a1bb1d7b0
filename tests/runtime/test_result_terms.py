"""Terms of a `forbid result` part asked again alone (compilation/result_terms.py,
runtime/terms.py): which loops are terms, what a move leaves at its places,
hand-checked chess positions where a term changes and where it does not (against
python-chess), perft counts, and the same legal actions with terms off over random
games of the chess-likes."""
from __future__ import annotations

import ast
import random

import pytest

from interpreter import load_game
from interpreter.compilation import result_reuse, result_terms
from interpreter.runtime import clearances as runtime_clearances
from tests.helpers import REPO, generated, helper_calls

CHESS = str(REPO / "docs" / "examples" / "chess")
ORACLE = "python-chess is the oracle: the bench extra (pip install -e '.[bench]')"

# in_check as the compiler writes it: the king's loop, a ray term, a knight term
PART = """
t12 = False
for i0 in o[p]:
    if b[i0][1] == 5:
        t1 = False
        for i4 in k6[i0]:
            t0 = -1
            for i2 in i4:
                if not b[i2] is None:
                    t0 = i2
                    break
            if k3[p][(b[t0] or k0)[0]] and k4[(b[t0] or k0)[1]]:
                t1 = True
                break
        t4 = t1
        if not t4:
            t3 = False
            for i9 in k32[i0]:
                if k3[p][(b[i9] or k0)[0]] and (b[i9] or k0)[1] == 1:
                    t3 = True
                    break
            t4 = t3
        if t4:
            t12 = True
            break
"""


def _terms(text: str, answer: str = "t12") -> list[result_terms.Term]:
    lines = ast.parse(text).body
    return list(result_terms.find(lines, ast.parse(answer, mode="eval").body).values())


def test_the_loops_over_constant_collections_are_terms(monkeypatch):
    monkeypatch.setattr(result_terms, "EACH", False)  # (element by element: tests/runtime/test_term_elements.py)
    ray, knights = _terms(PART)
    assert (ray.inputs, ray.outputs, ray.captured) == (("i0",), ("t1",), ())
    assert isinstance(ray.starts[0], ast.Constant) and ray.starts[0].value is False
    assert (knights.inputs, knights.outputs) == (("i0",), ("t3",))
    assert ray.plain and knights.plain
    params, body = ray.function()
    assert params == ["b", "p", "q", "i0"] and isinstance(body[-1], ast.Return)


@pytest.mark.parametrize("text", [
    # a site list: an anchor, not a term
    "t1 = False\nfor i0 in o[p]:\n    if b[i0] is None:\n        t1 = True\n",
    # a call changing a local: not only its own locals set
    "t1 = False\nt9 = []\nfor i0 in k1:\n    t9.append(b[i0])\n",
    # its outcome not bound before it
    "for i0 in k1:\n    if b[i0] is None:\n        t1 = True\n",
    # a collection read from the board
    "t1 = False\nfor i0 in k1[b[3][1]]:\n    if b[i0] is None:\n        t1 = True\n",
    # nothing of the board read
    "t1 = False\nfor i0 in k1:\n    t1 = t1 or i0 > 3\n",
])
def test_what_is_no_term(text):
    assert _terms(text, "t1") == []


def test_an_outcome_set_before_by_anything_but_a_constant_is_an_input():
    (term,) = _terms("t1 = t7\nfor i0 in k1:\n    if b[i0] is None:\n        t1 = True\n", "t1")
    assert term.captured == ("t1",) and term.function()[0] == ["b", "p", "q", "t1"]


def test_a_term_reading_more_of_a_piece_is_not_plain():
    (term,) = _terms("t1 = False\nfor i0 in k1:\n    if b[i0][3]:\n        t1 = True\n", "t1")
    assert not term.plain


@pytest.mark.parametrize("code, placed", [
    # a move, a flag of the mover set after it
    ("b[at] = None\nb[to] = pc\nat = to\nx0 = (pc[0], pc[1], False)\nif at != -1:\n    b[at] = x0\n",
     {"frm": False, "to": True}),
    # a capture without moving
    ("b[to] = None\n", {"frm": None, "to": False}),
    # `to` written under a test that may fail: not told
    ("b[frm] = None\nif k1[to]:\n    b[to] = pc\n", {"frm": False}),
])
def test_what_a_move_leaves_at_its_places(code, placed):
    stmts = ast.parse(code).body
    assert result_reuse.places_after_mover(stmts) == placed


def _spied(game, monkeypatch) -> list[bool]:
    """The answers of h_terms_hold during the game's listings, and of
    `moved_answer` (the terms asked by the listing itself where no answer is
    kept: runtime/clearances.py; a game loaded afresh keeps none)."""
    checks = [c for phase in game.engine.rules.result_checks for c in phase if c is not None]
    namespace = checks[0].__globals__
    real = namespace["h_terms_hold"]
    answers: list[bool] = []

    def spying(real):
        def spy(*args):
            held = real(*args)
            answers.append(held)
            return held
        return spy

    monkeypatch.setitem(namespace, "h_terms_hold", spying(real))
    monkeypatch.setattr(runtime_clearances, "moved_answer", spying(runtime_clearances.moved_answer))
    return answers


def _python_chess(fen: str) -> list[str]:
    chess = pytest.importorskip("chess", reason=ORACLE)
    return sorted(move.uci() for move in chess.Board(fen).legal_moves)


TERM_POSITIONS = ["4k3/8/8/8/1b6/8/3PPP2/4K3 w - - 0 1", "4r2k/8/8/8/8/3P4/5P2/4K3 w - - 0 1",
                  "4q2k/8/8/8/8/8/4PP2/4K1N1 w - - 0 1", "4q2k/8/8/8/8/3n4/4P3/4K3 w - - 0 1"]


@pytest.mark.parametrize("fen, allowed, forbidden", [
    # d2 shields e1 from the bishop on b4: d2d3 and d2d4 change the diagonal term's
    # outcome (forbidden); f2 and e2 leave the king's lines with nothing behind them
    ("4k3/8/8/8/1b6/8/3PPP2/4K3 w - - 0 1", {"f2f3", "f2f4", "e2e3", "e2e4"}, {"d2d3", "d2d4"}),
    # in check from the rook on e8: the file's term is true, the later ones were not
    # asked (their squares not read): f2's steps keep the answer without any term
    ("4r2k/8/8/8/8/3P4/5P2/4K3 w - - 0 1", {"e1d1", "e1f1"}, {"f2f3", "f2f4", "d3d4"}),
    # a queen behind the e2 pawn: e2e3 keeps the file shut, the knight's term is
    # asked of f3 (a knight of the mover's there: still no check)
    ("4q2k/8/8/8/8/8/4PP2/4K1N1 w - - 0 1", {"e2e3", "e2e4", "g1f3", "f2f3"}, set()),
    # the e2 pawn pinned on the file: its captures open it
    ("4q2k/8/8/8/8/3n4/4P3/4K3 w - - 0 1", {"e1d2", "e1f1"}, {"e2d3", "e2e3"}),
])
def test_terms_keep_or_change_the_answer(fen, allowed, forbidden, monkeypatch):
    game = load_game(CHESS)
    answers = _spied(game, monkeypatch)
    legal = set(game.legal_notations(_position(game, fen)))
    assert allowed <= legal and not forbidden & legal
    assert (True in answers) is ("r2k" not in fen)  # (moves answered by their terms)


@pytest.mark.parametrize("fen", TERM_POSITIONS)
def test_the_same_moves_as_python_chess(fen):
    game = load_game(CHESS)
    assert sorted(game.legal_notations(_position(game, fen))) == _python_chess(fen)


_KINDS = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}


def _position(game, fen: str):
    """The position of a FEN without castling rights or an en-passant square (as
    those above), built by hand: no python-chess needed."""
    placement, side = fen.split()[:2]
    pieces = {}
    for rank, row in zip(range(8, 0, -1), placement.split("/")):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
                continue
            pieces["abcdefgh"[file] + str(rank)] = ("white" if char.isupper() else "black", _KINDS[char.lower()])
            file += 1
    return game.make_state(pieces, to_move="white" if side == "w" else "black")


def test_chess_writes_terms_and_asks_them_before_playing():
    game = load_game(CHESS)
    assert helper_calls(game, "h_parent_answer_terms_masked", "forbid result")
    assert helper_calls(game, "h_terms_hold", "forbid result")


def test_terms_reading_through_point_tests_alone_note_no_run():
    # Chess's in_check has five terms; the knight squares, the pawns and the king's
    # neighbours read the board through point tests alone (noted as the part's):
    # never asked again, so neither noted as runs nor written as functions. The
    # rays read the sites before the first piece: two term functions.
    game = load_game(CHESS)
    functions = [f for f in generated(game, ast.FunctionDef, "forbid result")
                 if [a.arg for a in f.args.args[:3]] == list(result_terms.PARAMETERS)]
    assert len(functions) == 2
    runs = [call for call in generated(game, ast.Call, "forbid result")
            if isinstance(call.func, ast.Attribute) and call.func.attr == "append"
            and call.args and isinstance(call.args[0], ast.Tuple) and len(call.args[0].elts) == 4
            and any(isinstance(e, ast.Name) and e.id in {f.name for f in functions} for e in call.args[0].elts)]
    assert len(runs) == 2


def test_perft_counts_with_terms():
    game = load_game(CHESS)
    engine = game.engine
    assert engine.perft(engine.initial_state(), 3) == [20, 400, 8902]


@pytest.mark.parametrize("name", ["docs/examples/chess", "docs/examples/chess/variants/crazyhouse.yaml",
                                  "docs/examples/chess/variants/king-of-the-hill.yaml",
                                  "benchmarks/games/xiangqi", "benchmarks/outsiders/shogi/shogi.yaml"])
def test_terms_agree_with_asking_the_part_again(name, monkeypatch):
    # The same legal actions with terms and without, on every position of random
    # games (captures, promotions, castling, drops, checks).
    path = str(REPO / name)
    game = load_game(path)
    assert helper_calls(game, "h_terms_hold", "forbid result")
    with_terms = game.engine
    monkeypatch.setattr(result_reuse, "TERMS", False)
    without = load_game(path).engine
    assert not helper_calls(load_game(path), "h_terms_hold", "forbid result")
    rng = random.Random(11)
    compared = 0
    for _ in range(5):
        s, t = with_terms.initial_state(), without.initial_state()
        for _ in range(150):
            if with_terms.is_over(s):
                assert without.is_over(t)
                break
            legal = list(with_terms.legal(s))
            assert legal == list(without.legal(t)), (name, s.ply)
            compared += 1
            code = rng.choice(legal)
            with_terms.apply_in_place(s, code)
            without.apply_in_place(t, code)
    assert compared > 200
