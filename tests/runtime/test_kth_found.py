"""A loop nest that looks for the k-th match stops once it has found it
(compilation/kth_found.py): what the pass writes, where it must leave the loops
alone, and a deal of the k-th pair left that deals every pair as before."""
import ast
import itertools
import textwrap

from interpreter import load_game
from interpreter.compilation.kth_found import stopped_at_the_kth
from tests.helpers import generated, write_definition

DEAL = """
def f(s, code):
    v = s.vars
    l0 = code[4]
    t4 = v[0]
    t5 = v[4]
    t9 = v[15]
    for l1 in range(1, 8):
        if not (t4 == l1 or t5 == l1 or v[1] == l1):
            t0 = l1 + 1
            for l2 in range(t0, 9):
                if not (t4 == l2 or t5 == l2 or v[1] == l2):
                    if t9 == l0:
                        t5 = l1
                        t4 = l2
                    t9 += 1
    v[0] = t4
    v[4] = t5
    v[15] = 0
"""


def _stopped(code: str) -> str:
    function = ast.parse(textwrap.dedent(code)).body[0]
    assert isinstance(function, ast.FunctionDef)
    return ast.unparse(ast.fix_missing_locations(stopped_at_the_kth(function)))


def _unchanged(code: str) -> bool:
    return _stopped(code) == ast.unparse(ast.parse(textwrap.dedent(code)))


def test_the_nest_stops_at_the_match_and_the_outer_loop_with_it():
    assert _stopped(DEAL) == textwrap.dedent("""\
        def f(s, code):
            v = s.vars
            l0 = code[4]
            t4 = v[0]
            t5 = v[4]
            t9 = v[15]
            for l1 in range(1, 8):
                if not (t4 == l1 or t5 == l1 or v[1] == l1):
                    t0 = l1 + 1
                    for l2 in range(t0, 9):
                        if not (t4 == l2 or t5 == l2 or v[1] == l2):
                            if t9 == l0:
                                t5 = l1
                                t4 = l2
                                break
                            t9 += 1
                    else:
                        continue
                    break
            v[0] = t4
            v[4] = t5
            v[15] = 0""")


def test_a_single_loop_only_breaks():
    text = _stopped("""
        def f(s, k):
            t1 = 0
            t2 = -1
            for l1 in range(10):
                if l1 % 2 == 0:
                    if t1 == k:
                        t2 = l1
                    t1 += 1
            return t2
    """)
    assert "t2 = l1\n                break\n            t1 += 1" in text
    assert "else" not in text


def test_loops_whose_skipped_rounds_could_be_seen_are_left_alone():
    changes = [
        # the counter read after the loops
        ("v[15] = 0", "v[15] = t9"),
        # a name the match sets written by the other rounds too
        ("t0 = l1 + 1", "t0 = l1 + 1\n            t5 = t5 + 0"),
        # a call in the rounds skipped (it may fail)
        ("t9 += 1", "t9 += 1\n                    h_bounded(t9, k)"),
        # a division that may fail
        ("t0 = l1 + 1\n", "t0 = l1 // l0\n"),
        # the counter also set otherwise, or lowered
        ("            t0 = l1 + 1\n", "            t0 = l1 + 1\n            t9 = 0\n"),
        ("t9 += 1", "t9 += 0"),
        # the count not raised right after the match
        ("                    t9 += 1\n", "                    t3 = 1\n                    t9 += 1\n"),
        # what is sought changes in the loops
        ("t4 = l2\n", "t4 = l2\n                        l0 = 5\n"),
        # the inner loop not the last of the outer loop's round
        ("                    t9 += 1\n", "                    t9 += 1\n            t3 = l1\n"),
        # the match's body leaves a loop itself
        ("t4 = l2\n", "t4 = l2\n                        break\n"),
        # a variable written in the rounds skipped
        ("t9 += 1\n", "t9 += 1\n                    v[3] = l2\n"),
    ]
    for old, new in changes:
        code = DEAL.replace(old, new, 1)
        assert code != DEAL, old
        assert _unchanged(code), new
    inside = "def f(s, code):\n    v = s.vars\n    for l5 in range(3):\n" + textwrap.indent(
        DEAL.split("    v = s.vars\n")[1], "    ")
    assert _unchanged(inside)  # (a nest inside another loop: its rounds set the counter again, read what it found)


YAML = """game: probe
title: Probe
description: A deal of the k-th pair of numbers left, as tiny bridge deals a hand.
rules: game.rules
players: [north, south]
board:
  grid: {files: 1, ranks: 1}
pieces:
  token:
variables:
  high: {per_player: true}
  low: {per_player: true}
  seen: {}
"""

RULES = """
define held(c) = high[north] == c or low[north] == c or high[south] == c or low[south] == c
phase deal:
    turn: hand_n
chance hand_n:
    outcomes 0 to 9
    deal_pair(north, outcome)
    then hand_s
chance hand_s:
    outcomes 0 to 2
    deal_pair(south, outcome)
    end game
procedure deal_pair(p, k):
    for each a in 1 to 4:
        if not held(a):
            for each b in a + 1 to 5:
                if not held(b):
                    if seen == k:
                        low[p] = a
                        high[p] = b
                    seen += 1
    seen = 0
score: high[player] * 10 + low[player]
"""


def test_every_pair_is_dealt_as_the_kth_of_those_left(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    assert list(generated(game, ast.Break, "chance 'hand_n'")) and list(generated(game, ast.Break, "chance 'hand_s'"))
    pairs = list(itertools.combinations(range(1, 6), 2))
    for k, (low, high) in enumerate(pairs):
        state = game.apply(game.initial_state(), f"hand_n:{k}")
        assert state.vars == [high, 0, low, 0, 0], k
        left = [pair for pair in itertools.combinations(sorted(set(range(1, 6)) - {low, high}), 2)]
        for j, (low_s, high_s) in enumerate(left):
            end = game.apply(state, f"hand_s:{j}")
            assert game.is_terminal(end)
            assert end.vars == [high, high_s, low, low_s, 0]
            assert game.current_scores(end) == {"north": high * 10 + low, "south": high_s * 10 + low_s}
