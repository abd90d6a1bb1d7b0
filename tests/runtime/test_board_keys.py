"""The board's key kept by the generated code's writes (compilation/board_keys.py)
and the count of `board repetitions` that reads it (State.count_board): the key
always equals the one made from the whole board, and two boards sharing a key
are still counted apart."""
import ast
import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.compilation import pyast
from interpreter.compilation.board_keys import keep_board_key
from interpreter.runtime.helpers import board_key

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks" / "games"


@pytest.mark.parametrize("name", ["go", "lines_of_action"])
def test_the_kept_key_is_the_key_of_the_board_at_every_ply(name):
    game = load_game(str(BENCHMARKS / name))
    engine = game.engine
    rng = random.Random(11)
    plies = 0
    for _ in range(4):
        s = engine.initial_state()
        assert s.board_key == board_key(s.board)
        while s.result is None and plies < 3000:
            engine.random_playout(s, rng, 1)
            plies += 1
            assert s.board_key == board_key(s.board), f"ply {plies}"
    assert plies > 200


def test_checks_tried_in_place_give_the_key_back(tmp_path):
    # A `forbid result` reading `board repetitions`: every candidate is tried on
    # the position itself (a move and a capture) and undone.
    from tests.helpers import write_definition
    from tests.language.test_board_repetitions import YAML
    rules = """\
        phase play:
            turn: move
            before each turn:
                if board repetitions >= 4:
                    draw
        decision move:
            action step by stone:
                step e, w
                onto empty: move
                onto enemy:
                    remove target
                    move
            action pass:
                pass:
                    passes += 1
        forbid result where board repetitions >= 2
    """
    game = load_game(write_definition(tmp_path, YAML, rules))
    engine = game.engine
    rng = random.Random(2)
    for _ in range(20):
        s = engine.initial_state()
        while s.result is None:
            engine.legal(s)
            assert s.board_key == board_key(s.board)
            engine.random_playout(s, rng, 1)
            assert s.board_key == board_key(s.board)


def test_two_boards_under_one_key_are_counted_apart():
    game = load_game(str(BENCHMARKS / "go"))
    engine = game.engine
    s = engine.initial_state()
    engine.random_playout(s, random.Random(0), 3)
    t = s.copy()
    engine.random_playout(t, random.Random(1), 1)
    assert t.board != s.board
    before = t.board_count()
    t.board_key = s.board_key  # (as if the two boards' keys were the same)
    assert t.board_count() == 0
    t.count_board()
    t.count_board()
    assert t.board_count() == 2
    t.board_key = board_key(t.board)
    assert t.board_count() == before
    # the first board under that key keeps its own count
    s_count = s.board_count()
    s.boards, s.board_firsts = t.boards, t.board_firsts
    assert s.board_count() == s_count


def _rewritten(code: str) -> str:
    function = pyast.function("f0", ["s", "code"], ast.parse(code).body)
    names = iter(f"t{i}" for i in range(100, 200))
    return ast.unparse(ast.fix_missing_locations(keep_board_key(function, lambda prefix: next(names))))


def test_a_write_at_a_site_toggles_the_key_around_it():
    text = _rewritten("b[to] = pc\nh_clear(b, o, at)")
    toggle_to = "if b[to] is not None:\n        s.board_key ^= h_hash((to, b[to]))"
    toggle_at = "if b[at] is not None:\n        s.board_key ^= h_hash((at, b[at]))"
    assert f"{toggle_to}\n    b[to] = pc\n    {toggle_to}" in text
    assert f"{toggle_at}\n    h_clear(b, o, at)\n    {toggle_at}" in text


def test_a_site_worked_out_by_an_expression_is_worked_out_once_in_python_order():
    text = _rewritten("b[j.pop()] = x0")
    assert ("t101 = x0\n    t100 = j.pop()\n    if b[t100] is not None:\n        s.board_key ^= h_hash((t100, b[t100]))"
            "\n    b[t100] = t101") in text


def test_anything_else_that_may_change_the_board_makes_the_key_again():
    for code in ("h_permute(b, o, k0, k1)", "b[x], b[y] = b[y], b[x]", "s.board = x0", "x0 = h_move_one(b, o, a, z)"):
        assert "s.board_key = h_board_key(b)" in _rewritten(code), code
    assert "t100 = h_flip(s)\n    s.board_key = h_board_key(b)\n    return t100" in _rewritten("return h_flip(s)")


def test_a_function_that_writes_nothing_of_the_board_is_left_alone():
    function = pyast.function("f0", ["s"], ast.parse("v[0] = h_group(b, k1, 3)\nx0 = f3(s, code)").body)
    assert keep_board_key(function, lambda prefix: "t0") is function
