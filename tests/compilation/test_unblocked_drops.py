"""A drop's loop asking a few sites around each landing is listed from the pieces
(compilation/unblocked_drops.py, runtime/helpers.listed_unblocked): the helper
against the loop on random boards, the loops rewritten and left alone by hand,
and both Quoridors listing and counting the same with the pass on and off."""
from __future__ import annotations

import ast
import random
import shutil

import pytest

from interpreter import load_game
from interpreter.compilation import unblocked_drops
from interpreter.compilation.source import Source
from interpreter.runtime.helpers import listed_unblocked
from tests.helpers import REPO

SITES = 12
LISTER = """\
def f0(s):
    b = s.board
    o = s.occ
    out = []
    for frm in o[0]:
        for to in k9[frm]:
            tg = b[to]
            if tg is None:
                out.append((0, frm, to))
    if v[0] < 3:
        frm = -1
        for to in LANDINGS:
            tg = b[to]
            if tg is None:
                if b[WEST[to]] is None and b[EAST[to]] is None:
                    out.append(ROW[to] or h_make_code(TABLE, 3, frm, to))
    return out
"""


def _rewritten(text: str) -> tuple[str, Source, list]:
    src = Source()
    table = [[None] * (SITES + 1) for _ in range(SITES + 1)]
    names = {
        "TABLE": src.const(table, key=("codes", 3)).id,
        "ROW": src.const(table[-1], key=("codes from nowhere", 3)).id,
        "LANDINGS": src.const((1, 4, 7, 10)).id,
        "WEST": src.const(tuple(site - 1 for site in range(SITES))).id,
        "EAST": src.const(tuple(site + 1 if site + 1 < SITES else -1 for site in range(SITES))).id,
    }
    for placeholder, name in names.items():
        text = text.replace(placeholder, name)
    function = ast.parse(text).body[0]
    assert isinstance(function, ast.FunctionDef)
    done = unblocked_drops.drops_unblocked(function, src.const, src.value, SITES)
    return ast.unparse(ast.fix_missing_locations(done)), src, table


def test_the_walls_loop_becomes_one_call_of_the_codes_and_what_blocks_them():
    text, src, table = _rewritten(LISTER)
    call = next(line.strip() for line in text.splitlines() if "h_listed_unblocked" in line)
    assert "for to in k" not in text.split("frm = -1")[1]
    blocking, codes = (src.namespace[name] for name in call[len("h_listed_unblocked(out, o, "):-1].split(", "))
    # (the codes the loop makes, made as it makes them: into the table's row of `frm = -1`)
    assert codes == tuple((3, -1, site) for site in (1, 4, 7, 10))
    assert all(code is table[-1][code[2]] for code in codes)
    # (landing 1 reads sites 0, 1, 2; 4 reads 3, 4, 5; 7: 6-8; 10: 9-11 — EAST of 11 is off the board)
    assert blocking == (1, 1, 1, 2, 2, 2, 4, 4, 4, 8, 8, 8)
    # (the pieces' loop reads one site a landing: left as it is)
    assert "out.append((0, frm, to))" in text


@pytest.mark.parametrize("change", [
    # (a test that is not `is None`, a site not read through a table, a code reading the piece)
    ("if b[WEST[to]] is None", "if b[WEST[to]] is not None"),
    ("if b[WEST[to]] is None", "if b[WEST[frm]] is None"),
    ("out.append(ROW[to] or h_make_code(TABLE, 3, frm, to))", "out.append((3, tg, to))"),
    # (one site read a landing)
    ("if b[WEST[to]] is None and b[EAST[to]] is None:", "if b[to] is None:"),
    # (the code's `frm` not a number given before the loop; the body doing more)
    ("        frm = -1\n", ""),
    ("                    out.append(ROW", "                    v[1] += 1\n                    out.append(ROW"),
    # (the loop in a loop; its variables read after it)
    ("    if v[0] < 3:", "    for q in o[1]:"),
    ("    return out", "    v[2] = to\n    return out"),
    ("    return out", "    if tg is None:\n        v[2] = 1\n    return out"),
    # (the board not the position's throughout)
    ("    return out", "    b = k9\n    return out"),
])
def test_a_loop_of_another_shape_is_left_alone(change):
    assert change[0] in LISTER
    text, _, table = _rewritten(LISTER.replace(*change))
    assert "h_listed_unblocked" not in text
    assert all(code is None for row in table for code in row)


def test_variables_given_again_before_they_are_read_let_the_loop_go():
    text, _, _ = _rewritten(LISTER.replace("    return out", "    to = 3\n    v[2] = to\n    return out"))
    assert "h_listed_unblocked" in text


@pytest.mark.parametrize("seed", range(40))
def test_the_helper_lists_what_the_loop_lists(seed):
    rng = random.Random(seed)
    sites = rng.randrange(4, 120)
    landings = sorted(rng.sample(range(sites), rng.randrange(1, sites)))
    reads = [{landing} | {rng.randrange(-1, sites) for _ in range(rng.randrange(1, 3))} for landing in landings]
    codes = tuple((5, -1, landing) for landing in landings)
    blocking = [0] * sites
    for index, read in enumerate(reads):
        for site in read - {-1}:
            blocking[site] |= 1 << index
    taken = set(rng.sample(range(sites), rng.randrange(0, sites // 2 + 1)))
    occ = [[], [], []]
    for site in taken:
        occ[rng.randrange(3)].append(site)
    before = [(0, 1, 2)] * rng.randrange(3)
    out = list(before)
    listed_unblocked(out, occ, blocking, codes)
    assert out == before + [code for code, read in zip(codes, reads) if not read & taken]


QUORIDORS = [REPO / "benchmarks" / "games" / "quoridor", REPO / "benchmarks" / "outsiders" / "quoridor"]


def _calls(game) -> int:
    return sum(1 for node in ast.walk(game.rules.module) if isinstance(node, ast.Name)
               and node.id == "h_listed_unblocked")


@pytest.mark.parametrize("folder", QUORIDORS, ids=["benchmark", "outsiders"])
def test_quoridor_lists_and_counts_the_same_with_the_pass_or_without(folder, tmp_path, monkeypatch):
    options = {"board_size": 5, "wall_count": 6} if "outsiders" in str(folder) else {}
    on = load_game(str(folder), options)
    assert _calls(on) == 4  # (both walls, in the lister and its unfiltered twin)
    copy = tmp_path / "off"
    shutil.copytree(folder, copy)
    monkeypatch.setattr(unblocked_drops, "ENABLED", False)
    off = load_game(str(copy), options)
    assert _calls(off) == 0
    engine, other = on.engine, off.engine
    rng = random.Random(11)
    compared = 0
    for _ in range(8):
        s, t = engine.initial_state(), other.initial_state()
        for _ in range(80):
            if engine.is_over(s):
                break
            legal = list(engine.legal(s))
            assert legal == list(other.legal(t)), s.ply
            if s.ply % 15 == 0:
                assert engine.perft(s, 2) == other.perft(t, 2), s.ply
            code = rng.choice(legal)
            engine.apply_in_place(s, code)
            other.apply_in_place(t, code)
            compared += len(legal)
    assert compared > 2000
