"""A first-match loop asked again with nothing changed between them reads the
first's answer (compilation/repeated_scans.py): where it is shared, where it
is not (a board write, a call, a name the search reads given a value, inside a
loop's body), the rewritten function giving what the original gives, and
xiangqi's screen (`beyond(first_piece(k, d), d, ...)`) sharing the first
piece's scan with its perft counts unchanged."""
from __future__ import annotations

import ast
import random

from interpreter import load_game
from interpreter.compilation.repeated_scans import share_scans
from interpreter.compilation.source import Source
from tests.helpers import REPO

SCAN = """
t0 = -1
for i2 in k5[i0]:
    if not b[i2] is None:
        t0 = i2
        break
"""
AGAIN = SCAN.replace("t0", "t1").replace("i2", "i3")


def _shared(body: str) -> tuple[str, str]:
    src = Source()
    src.functions = [ast.parse(f"def f0(b, i0, k5):\n{_indent(body)}\n    return (t0, t1)").body[0]]
    share_scans(src)
    function = src.functions[0]
    assert isinstance(function, ast.FunctionDef)
    module = ast.fix_missing_locations(ast.Module(body=[function], type_ignores=[]))
    return ast.unparse(module), f"def f0(b, i0, k5):\n{_indent(body)}\n    return (t0, t1)"


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.strip("\n").splitlines())


def _run(code: str, board: list, start: int, rays: tuple) -> object:
    namespace: dict = {}
    exec(compile(code, "<test>", "exec"), namespace)  # noqa: S102 - the test's own code
    return namespace["f0"](board, start, rays)


def test_second_scan_reads_the_first_answer_and_gives_the_same() -> None:
    body = SCAN + "t3 = b[t0] is None\nif not t3:\n" + _indent(AGAIN)
    body += "\nelse:\n    t1 = 5\n"
    rewritten, original = _shared(body)
    assert "t1 = t0" in rewritten and "for i3" not in rewritten
    rays = tuple(tuple(range(s + 1, 8)) for s in range(8))
    generator = random.Random(3)
    for _ in range(200):
        board = [generator.choice([None, None, (0, 1)]) for _ in range(8)]
        start = generator.randrange(8)
        assert _run(rewritten, board, start, rays) == _run(original, board, start, rays)


def test_not_shared_where_something_may_change_between() -> None:
    between = ["b[3] = None", "h_clear(b)", "i0 = 2", "k5 = ()", "t0 = 4"]
    for stmt in between:
        rewritten, _ = _shared(SCAN + stmt + "\n" + AGAIN)
        assert "for i3" in rewritten, stmt
    # (a list of the function's own, appended to: the board is left alone)
    rewritten, _ = _shared("t9 = []\n" + SCAN + "t9.append(t0)\n" + AGAIN)
    assert "t1 = t0" in rewritten
    # (but not a list that may be another name for what the search reads)
    rewritten, _ = _shared("t9 = []\nk5 = (t9,)\n" + SCAN + "t9.append(t0)\n" + AGAIN)
    assert "for i3" in rewritten


def test_not_shared_inside_a_loop_or_after_a_branch() -> None:
    in_loop = SCAN + "for j in k5:\n" + _indent(AGAIN)
    rewritten, _ = _shared(in_loop)
    assert "for i3" in rewritten
    branch = "if i0:\n" + _indent(SCAN) + "\nelse:\n    t0 = 1\n" + AGAIN
    rewritten, _ = _shared(branch)
    assert "for i3" in rewritten


def test_xiangqi_screen_shares_the_first_piece_scan() -> None:
    game = load_game(str(REPO / "benchmarks" / "games" / "xiangqi"))
    source = game.engine.rules.source
    assert "t1 = t0" in source
    assert game.engine.perft(game.engine.initial_state(), 3) == [44, 1920, 79666]
