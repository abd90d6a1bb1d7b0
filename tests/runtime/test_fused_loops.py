"""Two loops over one list that only count are one loop (compilation/fused_loops.py):
what the pass joins on small functions, where it must not, and a definition
counting pairs of a hand two ways plays the same with the pass switched off."""
import ast
import random
import textwrap

from interpreter import load_game
from interpreter.compilation import compiler
from interpreter.compilation.fused_loops import loops_fused
from tests.helpers import generated, write_definition


def _fused(code: str) -> str:
    function = ast.parse(textwrap.dedent(code)).body[0]
    return ast.unparse(ast.fix_missing_locations(ast.Module(body=[loops_fused(function)], type_ignores=[])))


TWO_COUNTS = """
    def f(s, l1, l2):
        b = s.board
        t1 = 0
        for i1 in l1:
            if i1 != l2 and (t3 := (b[i1] or k0))[5] + (b[l2] or k0)[5] == 15:
                t1 += 1
        t2 = 0
        for i2 in l1:
            if i2 != l2 and (b[i2] or k0)[3] == (b[l2] or k0)[3]:
                t2 += 1
        return t1 + t2
"""


def test_two_counts_over_one_list_are_one_loop_the_second_test_after_the_first():
    text = _fused(TWO_COUNTS)
    assert text.count("for ") == 1 and "i2" not in text
    assert text.index("t1 = 0") < text.index("t2 = 0") < text.index("for i1 in l1:") \
        < text.index("t1 += 1") < text.index("(b[i1] or k0)[3]") < text.index("t2 += 1")


def test_loops_that_may_tell_the_other_ran_first_stay_apart():
    cases = {
        # (the second reads the first's count, its walrus, or its loop variable)
        "reads the count": ("(b[l2] or k0)[3]:\n", "(b[l2] or k0)[3] + t1:\n"),
        "reads the walrus": ("(b[i2] or k0)[3] ==", "t3[3] =="),
        "reads the variable": ("i2 != l2 and", "i1 != l2 and"),
        # (what stands between reads the first's count, or calls)
        "between reads": ("t2 = 0", "t2 = t1"),
        "between calls": ("t2 = 0", "t2 = h_count(b)"),
        # (a body that calls, writes an entry, or leaves early)
        "calls": ("t1 += 1", "t1 += h_one(b)"),
        "writes an entry": ("t2 += 1", "v[2] += 1"),
        "breaks": ("t2 += 1", "t2 += 1\n                break"),
        # (another list; a list the loops change)
        "other list": ("for i2 in l1:", "for i2 in l3:"),
        "list written": ("t1 += 1", "t1 += 1\n                l1 = l3"),
        # (the second variable read after the loops)
        "variable read after": ("return t1 + t2", "return i2"),
    }
    for name, (old, new) in cases.items():
        code = TWO_COUNTS.replace(old, new)
        assert code != TWO_COUNTS, name
        assert _fused(code).count("for ") == 2, name


def test_three_counts_are_one_loop_and_nested_loops_are_joined_inside():
    three = TWO_COUNTS.replace("        return t1 + t2", """\
        t4 = 0
        for i4 in l1:
            if (b[i4] or k0)[4] == 2:
                t4 += 1
        return t1 + t2 + t4""")
    assert _fused(three).count("for ") == 1
    nested = """
    def f(s, l1):
        b = s.board
        for l2 in tuple(l1):
            t1 = 0
            for i1 in l1:
                if i1 != l2 and (b[i1] or k0)[5] + (b[l2] or k0)[5] == 15:
                    t1 += 1
            t2 = 0
            for i2 in l1:
                if i2 != l2 and (b[i2] or k0)[3] == (b[l2] or k0)[3]:
                    t2 += 1
            v[l2] = t1 + t2
"""
    assert _fused(nested).count("for ") == 2 and "i2" not in _fused(nested)


YAML = """game: pairs
title: Pairs
description: Cards drawn; each draw counts the pairs of the hand two ways.
rules: game.rules
players: [a, b]
board:
  grid: {files: 13, ranks: 4}
pieces:
  card: {symbol: C}
attributes:
  rank: {type: int}
  val: {type: int}
variables:
  total: {type: int, per_player: true}
"""
RULES = """\
phase play:
    turn: take
decision take:
    action take:
        select sites - pieces
        onto empty:
            create card at to for player
            to.rank = file(to)
            to.val = min(file(to) + 1, 10)
            count_hand(pieces of player)
    after each action:
        if count(pieces) >= 24:
            end game

procedure count_hand(h):
    for each a in h:
        total[player] += count(h, it != a and it.val + a.val == 15) + 2 * count(h, it != a and it.rank == a.rank)

score: total[player]
"""


def _playouts(path: str) -> list:
    game = load_game(path)
    out = []
    for seed in range(8):
        s = game.engine.initial_state()
        game.engine.random_playout(s, random.Random(seed), 100)
        out.append((tuple(s.board), tuple(s.vars), s.result))
    return out


def _loops(game) -> int:
    return sum(1 for _ in generated(game, ast.For))


def test_a_hand_counted_two_ways_plays_as_with_two_loops(tmp_path, monkeypatch):
    path = write_definition(tmp_path, YAML, RULES)
    fused = _playouts(path)
    loops = _loops(load_game(path))
    with monkeypatch.context() as patched:
        patched.setattr(compiler, "loops_fused", lambda function: function)
        assert _loops(load_game(path)) == loops + 1
        assert _playouts(path) == fused
    assert any(result is not None and max(result[1]) > 0 for _, _, result in fused)
