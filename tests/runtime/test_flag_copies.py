"""A temporary copied into another and read nowhere else, written under the other's
name (compilation/flag_copies.py): what the pass leaves out on small functions,
where it must not, and games that list and play as with the pass switched off."""
import ast
import random
import textwrap

import pytest

from interpreter import load_game
from interpreter.compilation import compiler
from interpreter.compilation.flag_copies import coalesced
from tests.helpers import REPO


def _pass(code: str) -> str:
    function = ast.parse(textwrap.dedent(code)).body[0]
    assert isinstance(function, ast.FunctionDef)
    before = ast.dump(function)
    out = coalesced(function)
    assert ast.dump(function) == before  # (never changed in place)
    return ast.unparse(out)


def _run(text: str, *args: object) -> object:
    namespace: dict = {}
    exec(text, namespace)  # (the test's own functions, not a definition's text)
    return next(v for k, v in namespace.items() if k.startswith("f"))(*args)


OR_CHAIN = """
    def f(b, rows):
        out = []
        for to in range(len(b)):
            t0 = False
            for i in rows[to]:
                if b[i] is None:
                    t0 = True
                    break
            t2 = t0
            if not t2:
                t1 = False
                if b[to] == 2:
                    t1 = True
                t2 = t1
            t4 = t2
            if t4:
                out.append(to)
        return out
"""


def test_an_or_chain_keeps_one_flag():
    text = _pass(OR_CHAIN)
    assert "t4 = t2" not in text and "t2 = t0" not in text and "t2 = t1" not in text
    assert "t0" not in text and "t1" not in text and "t2" not in text
    rows = [(1,), (0, 2), (1, 3), (2,)]
    for board in ([None, 1, 1, 1], [1, 2, 1, None], [2, 1, 1, 2], [1, 1, 1, 1]):
        assert _run(text, board, rows) == _run(textwrap.dedent(OR_CHAIN), board, rows)


@pytest.mark.parametrize("code", [
    # (t0 read after the copy)
    "def f(a):\n    t0 = a\n    t2 = t0\n    return t2 + t0\n",
    # (t2 read between t0's first setting and the copy)
    "def f(a):\n    t2 = 1\n    t0 = a\n    t0 = t0 + t2\n    t2 = t0\n    return t2\n",
    # (t0 read before it is set: it holds the last round's value)
    "def f(a):\n    t0 = 0\n    t2 = 0\n    for x in a:\n        y = t0\n        t0 = x\n        t2 = t0\n"
    "        t2 += 1\n    return t2\n",
    # (a break of the block's loop between: the copy would be skipped)
    "def f(a):\n    t2 = 0\n    for x in a:\n        t0 = x\n        if x > 2:\n            break\n"
    "        t2 = t0\n    return t2\n",
    # (set elsewhere: another block)
    "def f(a):\n    if a:\n        t0 = 1\n    else:\n        t0 = 2\n    t2 = t0\n    return t2\n",
    # (a handler: a value half written could be read there)
    "def f(a):\n    t2 = 0\n    try:\n        t0 = a[0]\n        t2 = t0\n    except IndexError:\n        pass\n"
    "    return t2\n",
])
def test_copies_left_as_they_are(code):
    assert _pass(code) == ast.unparse(ast.parse(code).body[0])


def test_a_break_of_an_inner_loop_does_not_stop_it():
    code = "def f(a):\n    t2 = 0\n    for x in a:\n        t0 = False\n        for y in x:\n" \
           "            if y:\n                t0 = True\n                break\n        t2 = t0\n    return t2\n"
    text = _pass(code)
    assert "t0" not in text
    for a in ([[0, 1]], [[0], [0, 0]], [], [[1], []]):
        assert _run(text, a) == _run(code, a)


def _legal_along_random_games(path: str, games: int) -> list:
    game = load_game(path)
    engine, rng, out = game.engine, random.Random(3), []
    for _ in range(games):
        s = engine.initial_state()
        while s.result is None:
            legal = engine.legal(s)
            out.append(tuple(legal))
            engine.apply_in_place(s, legal[int(rng.random() * len(legal))])
        out.append((s.result, tuple(s.board)))
    return out


@pytest.mark.parametrize("path,games", [("benchmarks/games/go", 3), ("games/morris", 4), ("docs/examples/kalah", 6)])
def test_games_list_and_play_as_without_the_pass(path, games, monkeypatch):
    full = str(REPO / path)
    coalesced_games = _legal_along_random_games(full, games)
    monkeypatch.setattr(compiler, "coalesced", lambda function: function)
    assert _legal_along_random_games(full, games) == coalesced_games
