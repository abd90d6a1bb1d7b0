"""A lister tells its filter which stretches stand in ascending order of landing
(compilation/listed_runs.py `_by_landing`, `ORDERED`), and a screen looks their
landings up by bisection (runtime/clearances.landed): the stretches told by hand
and those left untold; `landed` against the run tested candidate by candidate;
the outsiders' Quoridor listing and counting the same with it off, its screens
looking landings up."""
from __future__ import annotations

import ast
import random
import shutil
from itertools import combinations

import pytest

from interpreter import load_game
from interpreter.compilation import listed_runs
from interpreter.compilation.source import Source
from interpreter.runtime import clearances, helpers
from tests.helpers import REPO
from tests.runtime.test_point_masks import _played_alike

LISTER = """\
def f0(s):
    b = s.board
    out = []
    for frm in o[p]:
        for to in k1[frm]:
            if b[to] is None:
                out.append((0, frm, to))
    l0 = v[p] < 10
    if l0:
        frm = -1
        for to in SITES:
            if b[to] is None:
                out.append(ROW[to] or h_make_code(TABLE, 3, frm, to))
    if l0:
        for to in SITES:
            out.append((4, frm, to))
    if out:
        h_result_filter(s, out, k9[s.phase])
    return out
"""


def _ordered(text: str, sites: tuple[int, ...] = (1, 3, 4, 8)) -> tuple[int, ...]:
    """The stretches the lister `text` tells ordered by landing (none: ())."""
    src = Source()
    table = [[None] * 10]
    name = src.const(table, key=("codes", 3)).id
    row = src.const(table[-1], key=("codes from nowhere", 3)).id
    listed = src.const(sites).id
    function = ast.parse(text.replace("TABLE", name).replace("ROW", row).replace("SITES", listed)).body[0]
    assert isinstance(function, ast.FunctionDef)
    told = listed_runs.runs_told(function, src.const, src.fresh, src.value)
    call = next(node for node in ast.walk(told) if isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name) and node.func.id == "h_result_filter_runs")
    return src.value(call.args[5]) if len(call.args) == 6 else ()


def test_the_loops_over_ascending_sites_appending_once_are_told_ordered():
    # (the pieces' stretch loops over a row of a table by piece: not told; both drops' are)
    assert _ordered(LISTER) == (1, 2)


@pytest.mark.parametrize("change", [
    ("out.append((4, frm, to))", "out.append((4, frm, to))\n            out.append((4, to, to))"),  # twice a landing
    ("out.append((4, frm, to))", "out.append((4, to, frm))"),  # landing elsewhere
    ("out.append((4, frm, to))", "to = k7[to]\n            out.append((4, frm, to))"),  # the loop's site changed
    ("        for to in SITES:\n            out.append((4", "        for i in k1:\n          for to in SITES:\n"
     "            out.append((4"),  # inside two loops
])
def test_a_stretch_that_may_append_out_of_order_is_not_told(change):
    assert _ordered(LISTER.replace(*change)) == (1,)


@pytest.mark.parametrize("sites", [(1, 4, 3, 8), (1, 3, 3, 8), (-1, 3)])
def test_a_loop_over_sites_not_strictly_ascending_is_not_told(sites):
    assert _ordered(LISTER, sites) == ()


def test_not_told_with_the_flag_off(monkeypatch):
    monkeypatch.setattr(listed_runs, "ORDERED", False)
    assert _ordered(LISTER) == ()


def test_landed_gives_the_candidates_the_mask_holds_in_order():
    rng = random.Random(3)
    for _ in range(300):
        landings = sorted(rng.sample(range(40), rng.randrange(0, 20)))
        run = [(3, -1, site) for site in landings]
        mask = sum(1 << site for site in rng.sample(range(41), rng.randrange(0, 12)))
        tested = [code for code in run if mask >> code[2] & 1]
        found = clearances.landed(run, mask, True)
        if bin(mask).count("1") > clearances.LANDED_AT_MOST:
            assert found is run
        else:
            assert found == tested, (landings, mask)
        assert clearances.landed(run, mask, False) is run
    # (by hand: 3 and 8 are listed, 5 is not)
    assert clearances.landed([(3, -1, 1), (3, -1, 3), (3, -1, 8)], 1 << 3 | 1 << 5 | 1 << 8, True) \
        == [(3, -1, 3), (3, -1, 8)]


OUTSIDER = REPO / "benchmarks" / "outsiders" / "quoridor"


def _quoridor(tmp_path, on: bool, monkeypatch, counts: list[int]):
    monkeypatch.setattr(listed_runs, "ORDERED", on)

    def landed(run, mask, ordered):
        found = clearances.landed(run, mask, ordered)
        counts[found is not run] += 1
        return found
    monkeypatch.setitem(helpers.NAMESPACE, "h_landed", landed)
    folder = tmp_path / f"quoridor-{on}"  # (a game loaded before keeps the helpers it was given)
    shutil.copytree(OUTSIDER, folder)
    game = load_game(str(folder), options={"board_size": 5})
    monkeypatch.undo()
    return game


def test_the_outsiders_quoridor_lists_and_counts_the_same_with_its_landings_looked_up(tmp_path, monkeypatch):
    looked_up, tested = [0, 0], [0, 0]
    on = _quoridor(tmp_path, True, monkeypatch, looked_up)
    off = _quoridor(tmp_path, False, monkeypatch, tested)
    a, b, compared = _played_alike(on, off, random.Random(23), plies=60, games=6)
    assert compared > 1000
    assert on.engine.perft(a, 2) == off.engine.perft(b, 2)
    assert on.engine.perft(on.initial_state(), 3) == off.engine.perft(off.initial_state(), 3)
    # (the screens looked their landings up with it on, never with it off)
    assert looked_up[1] > 100 and tested[1] == 0 and tested[0] > 100


def test_every_pair_of_landings_is_found():
    run = [(4, -1, site) for site in (0, 2, 5, 9, 30)]
    for a, b in combinations(range(32), 2):
        mask = 1 << a | 1 << b
        assert clearances.landed(run, mask, True) == [code for code in run if code[2] in (a, b)]
