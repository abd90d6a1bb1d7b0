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
from interpreter.runtime.helpers import listed_unblocked, listed_unblocked_pair, make_code
from tests.helpers import REPO, assert_same_play

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
        "OTHER_LANDINGS": src.const((2, 5, 9)).id,
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


def _named(game, name: str) -> int:
    return sum(1 for node in ast.walk(game.rules.module) if isinstance(node, ast.Name) and node.id == name)


QUORIDORS = [REPO / "benchmarks" / "games" / "quoridor", REPO / "benchmarks" / "outsiders" / "quoridor"]


def _calls(game) -> int:
    """The drops' loops listed by a helper (a pair's call lists two)."""
    return sum({"h_listed_unblocked": 1, "h_listed_unblocked_pair": 2}.get(node.id, 0)
               for node in ast.walk(game.rules.module) if isinstance(node, ast.Name))


@pytest.mark.parametrize("folder", QUORIDORS, ids=["benchmark", "outsiders"])
@pytest.mark.parametrize("switched", ["ENABLED", "PAIRS_JOINED"])
def test_quoridor_lists_and_counts_the_same_with_the_pass_or_without(folder, switched, tmp_path, monkeypatch):
    options = {"board_size": 5, "wall_count": 6} if "outsiders" in str(folder) else {}
    on = load_game(str(folder), options)
    assert _calls(on) == 4  # (both walls, in the lister and its unfiltered twin)
    # (each lister's two walls' loops one pair's call)
    assert _named(on, "h_listed_unblocked_pair") == 2 and _named(on, "h_listed_unblocked") == 0
    copy = tmp_path / "off"
    shutil.copytree(folder, copy)
    monkeypatch.setattr(unblocked_drops, switched, False)
    off = load_game(str(copy), options)
    assert _calls(off) == (0 if switched == "ENABLED" else 4)
    assert _named(off, "h_listed_unblocked_pair") == 0
    assert_same_play(on.engine, off.engine, seed=11)


TWO_DROPS = """\
def f0(s):
    b = s.board
    o = s.occ
    out = []
    l0 = v[0] < 3
    t1 = len(out)
    if l0:
        frm = -1
        for to in LANDINGS:
            tg = b[to]
            if tg is None:
                if b[WEST[to]] is None and b[EAST[to]] is None:
                    out.append(ROW[to] or h_make_code(TABLE, 3, frm, to))
    t2 = len(out)
    if l0:
        frm = -1
        for to in OTHERS:
            tg = b[to]
            if tg is None:
                if b[WEST[to]] is None and b[EAST[to]] is None:
                    out.append(ROW[to] or h_make_code(TABLE, 4, frm, to))
    return (out, t1, t2)
"""


def _two_drops(text: str) -> tuple[str, Source]:
    text, src, _ = _rewritten(text.replace("OTHERS", "OTHER_LANDINGS"))
    return text, src


def _run(text: str, src: Source, board: list, walls: int) -> tuple:
    """f0 of `text` on a position of `board` (its pieces' lists from it)."""
    namespace = dict(src.namespace)
    namespace.update(v=[walls], h_make_code=make_code, h_listed_unblocked=listed_unblocked,
                     h_listed_unblocked_pair=listed_unblocked_pair)
    exec(compile(ast.parse(text), "<test>", "exec"), namespace)  # noqa: S102 - the test's own function
    occ = [[], [], [site for site, piece in enumerate(board) if piece is not None]]
    position = type("Position", (), {"board": board, "occ": occ})()
    return namespace["f0"](position)


def test_two_drops_after_each_other_walk_the_pieces_once_and_list_the_same():
    text, src = _two_drops(TWO_DROPS)
    assert "h_listed_unblocked(" not in text and text.count("h_listed_unblocked_pair(") == 1
    # (the length taken between them given by the call, or by `len` where the guard is false)
    assert "t2 = h_listed_unblocked_pair(" in text and "else:\n        t2 = len(out)" in text
    call = next(line.strip() for line in text.splitlines() if "h_listed_unblocked_pair" in line)
    blocking = src.namespace[call.split(", ")[2]]
    # (site 0 blocks landing 1 (bit 0); site 3: landings 4 (bit 1) and 2 (the second's first: bit 4))
    assert blocking[0] == 0b1 and blocking[3] == 0b10010 and blocking[2] == 0b10001
    plain = TWO_DROPS.replace("    t2 = len(out)\n", "    t2 = len(out)\n    t3 = 0\n")
    loops, loops_src = _two_drops(plain)
    assert "h_listed_unblocked_pair" not in loops and loops.count("h_listed_unblocked(") == 2
    rng = random.Random(5)
    for _ in range(60):
        board = [(2, 3) if rng.random() < 0.25 else None for _ in range(SITES)]
        walls = rng.randrange(2, 5)
        joined = _run(text, src, board, walls)
        assert joined == _run(loops, loops_src, board, walls)[:3]


@pytest.mark.parametrize("change", [
    # (another guard; something else between; the guard given between; the length of something else)
    ("    t2 = len(out)\n    if l0:", "    t2 = len(out)\n    if v:"),
    ("    t2 = len(out)\n", "    t2 = len(out)\n    v[0] = 1\n"),
    ("    t2 = len(out)\n", "    l0 = len(out)\n"),
    ("    t2 = len(out)\n", "    t2 = len(o)\n"),
    # (an `else` after a drop)
    ("    t2 = len(out)\n", "    else:\n        out.append(1)\n    t2 = len(out)\n"),
])
def test_two_drops_not_joined_where_anything_may_stand_between(change):
    assert change[0] in TWO_DROPS
    text, _ = _two_drops(TWO_DROPS.replace(*change, 1))
    assert "h_listed_unblocked_pair" not in text and text.count("h_listed_unblocked(") == 2


def test_the_pair_helper_lists_what_two_calls_list():
    rng = random.Random(3)
    for _ in range(200):
        sites = rng.randrange(2, 80)
        tables = []
        for case in (1, 2):
            codes = tuple((case, -1, site) for site in sorted(rng.sample(range(sites), rng.randrange(1, sites))))
            tables.append((tuple(rng.getrandbits(len(codes)) if rng.random() < 0.3 else 0 for _ in range(sites)),
                           codes))
        (first, codes), (second, later) = tables
        occ = [[], [], rng.sample(range(sites), rng.randrange(0, sites))]
        before = [(0, 1, 2)] * rng.randrange(3)
        one, two = list(before), list(before)
        listed_unblocked(one, occ, first, codes)
        middle = len(one)
        listed_unblocked(one, occ, second, later)
        joined = tuple(low | high << len(codes) for low, high in zip(first, second))
        assert listed_unblocked_pair(two, occ, joined, codes, later) == middle
        assert two == one
