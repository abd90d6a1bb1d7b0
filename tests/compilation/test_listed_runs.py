"""A lister tells its `forbid result` filter where each case's candidates stand
(compilation/listed_runs.py, runtime/clearances.sift_runs): the stretches cut
where the cases appended change, by hand; listers left alone where `out` is used
otherwise, a code's case is not known or coverage is counted; Quoridor (the
benchmark's and the outsiders') listing and counting the same with it off."""
from __future__ import annotations

import ast
import shutil

import pytest

from interpreter import load_game
from interpreter.compilation import listed_runs
from interpreter.compilation.source import Source
from tests.helpers import REPO, assert_same_play

LISTER = """\
def f0(s):
    b = s.board
    out = []
    for frm in o[p]:
        for to in k1[frm]:
            if b[to] is None:
                out.append((0, frm, to))
        if frm > 3:
            out.append((2, frm, frm))
    l0 = v[p] < 10
    if l0:
        frm = -1
        for to in k2:
            if b[to] is None:
                out.append(ROW[to] or h_make_code(TABLE, 3, frm, to))
    if l0:
        for to in k2:
            out.append(TABLE[frm][to] or h_make_code(TABLE, 4, frm, to))
    if out:
        h_result_filter(s, out, k9[s.phase])
    return out
"""


def _told(text: str) -> tuple[str, Source]:
    src = Source()
    table = [[None] * 4]
    name = src.const(table, key=("codes", 3)).id
    row = src.const(table[-1], key=("codes from nowhere", 3)).id
    function = ast.parse(text.replace("TABLE", name).replace("ROW", row)).body[0]
    assert isinstance(function, ast.FunctionDef)
    return ast.unparse(ast.fix_missing_locations(listed_runs.runs_told(function, src.const, src.fresh, src.value))), src


def test_the_stretches_are_cut_where_the_cases_appended_change():
    text, src = _told(LISTER)
    lines = [line.strip() for line in text.splitlines()]
    # (the pieces' loop appends cases 0 and 2; `l0 = ...` appends nothing and joins it)
    first, second = lines.index("t0 = len(out)"), lines.index("t1 = len(out)")
    assert lines[first - 1] == "l0 = v[p] < 10"
    assert lines[first + 1] == "if l0:" and lines[second + 1] == "if l0:"
    call = next(line for line in lines if "h_result_filter" in line)
    assert call.startswith("h_result_filter_runs(s, out, k9[s.phase], k") and call.endswith(", (t0, t1))")
    cases = src.namespace[call.split(", ")[3]]
    assert cases == ((0, 2), (3,), (4,))


@pytest.mark.parametrize("change", [
    ("    if out:\n        h_result_filter", "    h_dedup(out, 0, k5)\n    if out:\n        h_result_filter"),
    ("out.append((2, frm, frm))", "out.append(code)"),
    ("out.append((2, frm, frm))", "out.append(k8[to] or h_make_code(k7, 2, frm, to))"),
    ("k9[s.phase])", "k9[s.phase], k10)"),
    ("    b = s.board\n    out = []", "    out = []\n    b = s.board\n    out = []"),
])
def test_a_lister_using_its_list_otherwise_is_left_alone(change):
    # (another use of the list; a code of no known case; a table that is not a code maker's;
    # coverage counted; the list made twice)
    text, _ = _told(LISTER.replace(*change))
    assert "h_result_filter_runs" not in text and "len(out)" not in text


def test_one_stretch_tells_nothing():
    only_drops = LISTER.replace("(0, frm, to)", "(3, frm, to)").replace("(2, frm, frm)", "(3, frm, frm)") \
        .replace("TABLE, 4, frm", "TABLE, 3, frm")
    text, _ = _told(only_drops.replace("TABLE[frm][to] or h_make_code(TABLE, 3", "ROW[to] or h_make_code(TABLE, 3"))
    assert "h_result_filter_runs" not in text


QUORIDORS = [REPO / "benchmarks" / "games" / "quoridor", REPO / "benchmarks" / "outsiders" / "quoridor"]


def _told_calls(game) -> int:
    return sum(1 for node in ast.walk(game.rules.module) if isinstance(node, ast.Name)
               and node.id == "h_result_filter_runs")


@pytest.mark.parametrize("folder", QUORIDORS, ids=["benchmark", "outsiders"])
def test_quoridor_lists_and_counts_the_same_told_or_not(folder, tmp_path, monkeypatch):
    options = {"board_size": 7} if "outsiders" in str(folder) else {}
    on = load_game(str(folder), options)
    assert _told_calls(on) == 1
    copy = tmp_path / "off"
    shutil.copytree(folder, copy)
    monkeypatch.setattr(listed_runs, "ENABLED", False)
    off = load_game(str(copy), options)
    assert _told_calls(off) == 0
    assert_same_play(on.engine, off.engine, seed=7, games=3, plies=60, at_least=1000, perft_every=10)
