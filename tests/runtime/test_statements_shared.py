"""A value two statements of a block work out, worked out once before the first
(compilation/statements_shared.py): what the pass writes, where it must leave the
statements alone, and a define asked in two lets that gives what it gave."""
import ast
import textwrap

from interpreter import load_game
from interpreter.compilation.source import Source
from interpreter.compilation.statements_shared import parts_shared_across
from tests.helpers import generated, write_definition

LEAF = """
def f(s, code):
    l29 = t73 if t73 > (t2 := (20 + t94 % 4 if (t93 := ((t94 := (l27 - 1)) // 4)) == l16 else 0)) else t2
    l30 = l29 + 1
    l31 = 1 if (20 + t96 % 4 if (t95 := ((t96 := (l27 - 1)) // 4)) == l16 else 0) > t84 else 0
    return l30 + l31
"""


def _shared(code: str) -> str:
    src = Source()
    function = ast.parse(textwrap.dedent(code)).body[0]
    assert isinstance(function, ast.FunctionDef)
    return ast.unparse(ast.fix_missing_locations(parts_shared_across(function, src.fresh)))


def _unchanged(code: str) -> bool:
    return _shared(code) == ast.unparse(ast.parse(textwrap.dedent(code)))


def test_a_part_two_statements_work_out_is_worked_out_once_before_the_first():
    assert _shared(LEAF) == textwrap.dedent("""\
        def f(s, code):
            t0 = 20 + t94 % 4 if (t93 := ((t94 := (l27 - 1)) // 4)) == l16 else 0
            l29 = t73 if t73 > (t2 := t0) else t2
            l30 = l29 + 1
            l31 = 1 if t0 > t84 else 0
            return l30 + l31""")


def test_statements_whose_part_could_differ_or_fail_are_left_alone():
    changes = [
        # a name the part reads given a value between the two statements
        ("l30 = l29 + 1", "l27 = l29 + 1"),
        # the first statement gives it a value (the later one would read the new one)
        ("l29 = t73", "l27 = t73"),
        # the part worked out in the first statement only on one branch
        (LEAF.splitlines()[2],
         "    l29 = t73 if t73 > 0 else (20 + t94 % 4 if (t93 := ((t94 := (l27 - 1)) // 4)) == l16 else 0)"),
        # the part may fail (a division by a name) or calls something
        ("((t94 := (l27 - 1)) // 4)", "((t94 := (l27 - 1)) // l16)"),
        ("((t94 := (l27 - 1)) // 4)", "h_rank(t94 := l27 - 1)"),
        # its own temporary read outside it
        ("l30 = l29 + 1", "l30 = l29 + t93"),
    ]
    for old, new in changes:
        code = LEAF.replace(old, new, 1)
        assert code != LEAF, old
        assert "t0 = 20" not in _shared(code), new
    # (statements in different blocks: only within one)
    assert _unchanged("""
def f(s, code):
    l1 = (l0 - 1) // 4 + 1
    if l1 > 2:
        l2 = (l0 - 1) // 4 * 2
    return l1
""")


YAML = """game: probe
title: Probe
description: A define asked in two lets of a block.
rules: game.rules
players: [north, south]
board:
  grid: {files: 1, ranks: 1}
pieces:
  token:
variables:
  a: {}
  b: {}
"""

RULES = """
define strength(c, t) = 20 + (c - 1) % 4 if (c - 1) // 4 == t else 0
phase deal:
    turn: card
chance card:
    outcomes 1 to 8
    score_it(outcome, outcome % 2)
    end game
procedure score_it(c, t):
    let x = max(3, strength(c, t))
    a = x + 1
    let y = 1 if strength(c, t) > 21 else 0
    b = y * 100
score: a + b
"""


def test_a_define_asked_in_two_lets_gives_what_it_gave(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    # (one `// 4` and one `% 4` of the card in the chance's function: the strength worked out once)
    divisions = [node for node in generated(game, ast.BinOp, "chance 'card'")
                 if isinstance(node.op, (ast.FloorDiv, ast.Mod)) and isinstance(node.right, ast.Constant)
                 and node.right.value == 4]
    assert len(divisions) == 2, len(divisions)
    for card in range(1, 9):
        trump = card % 2
        strength = 20 + (card - 1) % 4 if (card - 1) // 4 == trump else 0
        end = game.apply(game.initial_state(), f"card:{card}")
        assert game.is_terminal(end)
        expected = max(3, strength) + 1 + (100 if strength > 21 else 0)
        assert game.current_scores(end) == {"north": expected, "south": expected}, card
