"""Variables a loop reads and writes, kept in locals while it runs
(compilation/loop_locals.py): what the pass writes, where it must leave the loop
alone, and a game whose counter in a loop picks the k-th of what is left."""
import ast
import textwrap

from interpreter import load_game
from interpreter.compilation.loop_locals import loop_variables_in_locals
from interpreter.compilation.source import Source
from tests.helpers import generated, write_definition


def _kept(code: str) -> str:
    src = Source()
    function = ast.parse(textwrap.dedent(code)).body[0]
    assert isinstance(function, ast.FunctionDef)
    return ast.unparse(ast.fix_missing_locations(loop_variables_in_locals(function, src.fresh)))


def test_an_entry_read_and_written_is_loaded_before_the_loop_and_stored_after():
    text = _kept("""
        def f(s, code):
            v = s.vars
            for l1 in range(1, 8):
                if v[15] == l1 and v[3] > 0:
                    v[4] = l1
                v[15] += 1
            return v[15]
    """)
    assert text == textwrap.dedent("""\
        def f(s, code):
            v = s.vars
            t0 = v[15]
            for l1 in range(1, 8):
                if t0 == l1 and v[3] > 0:
                    v[4] = l1
                t0 += 1
            v[15] = t0
            return v[15]""")


def test_the_store_back_that_a_constant_overwrites_at_once_is_left_out():
    text = _kept("""
        def f(s, code):
            v = s.vars
            for l1 in range(1, 8):
                for l2 in range(l1, 8):
                    if v[0] == l2:
                        v[1] = l1
                        v[0] = l2
                    v[2] += v[1]
            v[2] = 0
            v[5] = 1
    """)
    # (the outer loop is the one kept so: its inner loop reaches the same places)
    assert "t0 = v[0]\n    t1 = v[1]\n    t2 = v[2]\n    for l1" in text
    assert "v[0] = t0\n    v[1] = t1\n    v[2] = 0\n    v[5] = 1" in text
    assert "v[" not in text.split("for l1")[1].split("v[0] = t0")[0]


def test_loops_that_may_reach_the_entry_otherwise_are_left_alone():
    for body in ("v[k] += v[15]\n        v[15] += 1",  # (a place worked out: any entry)
                 "h_end(s, 3, -1, 0)\n        v[15] += 1",  # (the state handed on)
                 "if v[15] > 3:\n            return 1\n        v[15] += 1",  # (the store back skipped)
                 "v[15] = sum([v[15] for _ in range(2)])",  # (a comprehension's own scope)
                 "w = v\n        v[15] += 1"):  # (the variables named otherwise)
        code = f"""
def f(s, k):
    v = s.vars
    for l1 in range(3):
        {body}
"""
        assert _kept(code) == ast.unparse(ast.parse(code)), body


def test_an_entry_only_read_or_only_written_is_left_in_place():
    code = """
def f(s, code):
    v = s.vars
    for l1 in range(3):
        v[4] = v[3] + l1
"""
    assert _kept(code) == ast.unparse(ast.parse(code))


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
  pairs: {}
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
    pairs = pairs + seen
    seen = 0
score: high[player] * 10 + low[player] + pairs
"""


def test_the_kth_pair_left_is_dealt_with_the_counter_kept_in_a_local(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    # (the counter `seen` lives in a local in the deal's loops: no entry of it read there)
    deals = [f for f in game.rules.module.body if isinstance(f, ast.FunctionDef)
             and any(isinstance(n, ast.For) for n in ast.walk(f))]
    assert deals and all(any(isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)
                             for n in ast.walk(f)) for f in deals)
    assert list(generated(game, ast.AugAssign, "chance 'hand_n'"))
    # pairs of 1-5 in order: 12 13 14 15 23 24 25 34 (the 7th from 0): north holds 3 and 4, and the
    # pairs after it with either are no longer counted (35 is, 45 is not): 9
    state = game.apply(game.initial_state(), "hand_n:7")
    assert state.vars == [4, 0, 3, 0, 0, 9]
    state = game.apply(state, "hand_s:2")  # left 1 2 5: 12 15 25, 3 counted
    assert game.is_terminal(state)
    assert game.current_scores(state) == {"north": 43 + 12, "south": 52 + 12}
