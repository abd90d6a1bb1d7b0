"""`max(A, B)` and `min(A, B)` written as comparisons (compilation/extremes.py):
what the pass writes, where it must read a temporary, what it leaves alone, and
a game's scores worked out by the comparisons."""
import ast
import textwrap

from interpreter import load_game
from interpreter.compilation.extremes import extremes_compared
from interpreter.compilation.source import Source
from tests.helpers import generated, write_definition


def _compared(code: str) -> str:
    src = Source()
    function = ast.parse(textwrap.dedent(code)).body[0]
    assert isinstance(function, ast.FunctionDef)
    return ast.unparse(ast.fix_missing_locations(extremes_compared(function, src.fresh)))


def test_each_argument_is_worked_out_once_first_one_first():
    text = _compared("""
        def f(s, a, b):
            return max(a + 1, min(b, a * 2))
    """)
    assert "max" not in text and "min" not in text
    # (the second kept only where it is larger: `a + 1` read from its temporary)
    assert "return t2 if (t1 := (a + 1)) < (t2 := (t0 if b > (t0 := (a * 2)) else b)) else t1" in text


def test_a_name_the_second_argument_gives_a_value_is_read_from_a_temporary():
    text = _compared("""
        def f(s, t5, b):
            return max(t5, (t5 := b + 1) * 2)
    """)
    assert "(t0 := t5) < " in text and "else t0" in text


def test_comprehensions_other_calls_and_keywords_are_left_alone():
    code = """
        def f(s, a, b):
            return [max(x, a) for x in range(min(a, b))] + [max(a, b, 3), min(b), max(a, b, key=abs)]
    """
    text = _compared(code)
    assert text == ast.unparse(ast.parse(textwrap.dedent(code)))


YAML = """game: probe
title: Probe
description: Two numbers chosen, the larger and the smaller scored.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 1, ranks: 1}
pieces:
  token:
variables:
  a: {}
  b: {}
"""


def test_scores_of_the_larger_and_the_smaller_of_two_values(tmp_path):
    rules = """
        define best(x, y) = max(max(x, y), min(x - y, y - x))
        phase play:
            turn: choose
            after each action:
                if a != 0 and b != 0:
                    end game
        decision choose:
            action three:
                pass: a = 3 if a == 0 else a
                notation "3"
            action minus_five:
                pass: b = -5 if b == 0 else b
                notation "-5"
        score: best(a, b) * 10 + min(a, b) if player == white else max(a, max(b, b + 1))
    """
    game = load_game(write_definition(tmp_path, YAML, rules))
    assert not [call for call in generated(game, ast.Call) if getattr(call.func, "id", None) in ("max", "min")]
    state = game.apply(game.apply(game.initial_state(), "3"), "-5")
    assert game.is_terminal(state)
    # white: max(max(3, -5), min(8, -8)) * 10 + min(3, -5) = 30 - 5; black: max(3, -4)
    assert game.current_scores(state) == {"white": 25, "black": 3}

