"""Bitmasks ORed from several tables over one loop gathered as one
(compilation/packed_masks.py): the loop rewritten and left alone by hand, the
rewritten function against the loop on random boards, and both Quoridors
listing and counting the same with the pass on and off."""
from __future__ import annotations

import ast
import random
import shutil

import pytest

from interpreter import load_game
from interpreter.compilation import packed_masks
from interpreter.compilation.source import Source
from tests.helpers import REPO, assert_same_play

SITES = 40
SCREEN = """\
def f0(s):
    b = s.board
    o = s.occ
    t1 = 0
    t2 = 0
    t3 = 0
    for x in o[-1]:
        if (b[x] or EMPTY)[1] == 3:
            t1 = t1 | FIRST[x]
            t2 = t2 | SECOND[x]
            t3 |= THIRD[x]
    return (t1, t2, t3)
"""


def _tables(rng: random.Random) -> dict[str, object]:
    return {
        "FIRST": tuple(rng.getrandbits(SITES) if rng.random() < 0.4 else 0 for _ in range(SITES)),
        # (narrower entries: the third's bits start where the second's widest ends)
        "SECOND": tuple(rng.getrandbits(5) for _ in range(SITES)),
        "THIRD": tuple(rng.getrandbits(SITES + 7) if rng.random() < 0.4 else 0 for _ in range(SITES)),
        "EMPTY": (None, None),
    }


def _packed(text: str, tables: dict[str, object]) -> tuple[str, Source]:
    src = Source()
    for placeholder, value in tables.items():
        text = text.replace(placeholder, src.const(value).id)
    function = ast.parse(text).body[0]
    assert isinstance(function, ast.FunctionDef)
    done = packed_masks.masks_packed(function, src.const, src.value, src.fresh)
    return ast.unparse(ast.fix_missing_locations(done)), src


def _run(text: str, src: Source, board: list, neutral: list[int]) -> object:
    namespace = dict(src.namespace)
    exec(compile(ast.parse(text), "<test>", "exec"), namespace)  # noqa: S102 - the test's own function
    position = type("Position", (), {"board": board, "occ": [[], [], neutral]})()
    return namespace["f0"](position)


@pytest.mark.parametrize("seed", range(6))
def test_the_masks_gathered_as_one_are_the_masks_gathered_apart(seed):
    rng = random.Random(seed)
    tables = _tables(rng)
    text, src = _packed(SCREEN, tables)
    # (one OR a piece, the zeros before the loop left out: each mask is given after it)
    assert text.count(" | ") == 1 and "t1 = 0" not in text and "t2 = 0" not in text
    assert ">> " in text
    loop, loop_src = SCREEN, Source()
    for placeholder, value in tables.items():
        loop = loop.replace(placeholder, loop_src.const(value).id)
    for _ in range(50):
        board: list = [None] * SITES
        neutral = rng.sample(range(SITES), rng.randrange(0, 12))
        for site in neutral:
            board[site] = (2, rng.choice((1, 3, 3)))
        assert _run(text, src, board, neutral) == _run(loop, loop_src, board, neutral)


def test_the_packed_table_holds_each_table_above_the_one_before():
    tables = _tables(random.Random(9))
    text, src = _packed(SCREEN, tables)
    packed = next(src.namespace[name] for name in src.namespace if isinstance(src.namespace[name], tuple)
                  and len(src.namespace[name]) == SITES and src.namespace[name] not in tables.values())
    first, second = max(tables["FIRST"]).bit_length(), max(tables["SECOND"]).bit_length()
    for site in range(SITES):
        entry = packed[site]
        assert entry & (1 << first) - 1 == tables["FIRST"][site]
        assert entry >> first & (1 << second) - 1 == tables["SECOND"][site]
        assert entry >> (first + second) == tables["THIRD"][site]
    assert f">> {first}" in text and f">> {first + second}" in text


@pytest.mark.parametrize("change", [
    # (a table with a negative entry, of another length, a list; one mask alone)
    ("FIRST[x]", "NEGATIVE[x]"),
    ("FIRST[x]", "SHORT[x]"),
    ("FIRST[x]", "LISTED[x]"),
    ("            t2 = t2 | SECOND[x]\n            t3 |= THIRD[x]\n", ""),
    # (a mask read by the test, not 0 just before the loop, given twice; the body doing more; an `else`)
    ("if (b[x] or EMPTY)[1] == 3:", "if t1 == 0:"),
    ("    t2 = 0\n", ""),
    ("    t3 = 0\n", "    t3 = 0\n    b = o\n"),
    ("            t3 |= THIRD[x]\n", "            t3 |= THIRD[x]\n            t1 = t1 | THIRD[x]\n"),
    ("            t3 |= THIRD[x]\n", "            t3 |= THIRD[x]\n            b[x] = None\n"),
    ("    return (t1", "    else:\n        t1 = 5\n    return (t1"),
    # (a table read at another index)
    ("SECOND[x]", "SECOND[t1]"),
])
def test_a_loop_of_another_shape_is_left_alone(change):
    tables = _tables(random.Random(2))
    tables.update(NEGATIVE=(-1,) + tables["FIRST"][1:], SHORT=tables["FIRST"][:-1], LISTED=list(tables["FIRST"]))
    assert change[0] in SCREEN
    text = SCREEN.replace(*change)
    done, _ = _packed(text, tables)
    assert ">>" not in done and done.count(" | ") + done.count(" |= ") == text.count(" | ") + text.count(" |= ")


def test_a_loop_without_a_test_is_gathered_as_one():
    text = SCREEN.replace("        if (b[x] or EMPTY)[1] == 3:\n", "").replace("            t", "        t")
    assert "if" not in text
    body, _ = _packed(text, _tables(random.Random(4)))
    assert body.count(" | ") == 1 and ">>" in body


QUORIDORS = [REPO / "benchmarks" / "games" / "quoridor", REPO / "benchmarks" / "outsiders" / "quoridor"]


@pytest.mark.parametrize("folder", QUORIDORS, ids=["benchmark", "outsiders"])
def test_quoridor_lists_and_counts_the_same_with_the_masks_packed_or_not(folder, tmp_path, monkeypatch):
    options = {"board_size": 5, "wall_count": 6} if "outsiders" in str(folder) else {}
    on = load_game(str(folder), options)
    shifts = sum(isinstance(node, ast.RShift) for node in ast.walk(on.rules.module))
    assert shifts >= 4  # (each screen's kind masks: four tables, three cut out by a shift)
    copy = tmp_path / "off"
    shutil.copytree(folder, copy)
    monkeypatch.setattr(packed_masks, "ENABLED", False)
    off = load_game(str(copy), options)
    assert not any(isinstance(node, ast.RShift) for node in ast.walk(off.rules.module))
    assert_same_play(on.engine, off.engine, seed=7)
