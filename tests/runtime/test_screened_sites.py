"""A screen's landings found at once (compilation/clearances.screened_sites,
runtime/helpers.meetings and meeting_table): the conjuncts a drop's check asks
before its case read as bitmasks of every landing, with the landings whose
places meet the clearance's mask — the screen's loop over the candidates runs
only where some landing is left, and asks each candidate its bit. The helpers
by hand and against the test they stand for; Quoridor's walls the same with the
mechanism off, in positions where walls are forbidden."""
from __future__ import annotations

import ast
import random
import shutil

from interpreter import load_game
from interpreter.compilation import clearances
from interpreter.runtime import helpers
from interpreter.runtime.helpers import meeting_table, meeting_within, meetings
from tests.helpers import REPO, generated, helper_calls

QUORIDOR = REPO / "benchmarks" / "games" / "quoridor"


def _offsets(table: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...]]:
    """`meetings`' argument for one table, as screened_sites makes it."""
    by_offset: dict[int, int] = {}
    for site, bits in enumerate(table):
        for target in range(bits.bit_length()):
            if bits >> target & 1:
                by_offset[target - site] = by_offset.get(target - site, 0) | 1 << site
    shifts = tuple(sorted(by_offset))
    return shifts, (tuple((shifts.index(offset), sites) for offset, sites in sorted(by_offset.items())),)


def test_meetings_finds_the_sites_whose_entry_meets_the_mask():
    # sites 0..4 in a row; each entry the site's neighbours (an end has one)
    table = (0b00010, 0b00101, 0b01010, 0b10100, 0b01000)
    # a piece on site 2: its neighbours 1 and 3 meet it
    assert meetings(0b00100, _offsets(table)) == [0b01010]
    # pieces on 0 and 4: sites 1 and 3
    assert meetings(0b10001, _offsets(table)) == [0b01010]
    # a piece on 1: sites 0 and 2
    assert meetings(0b00010, _offsets(table)) == [0b00101]
    assert meetings(0, _offsets(table)) == [0]
    rng = random.Random(3)
    for _ in range(200):
        table = tuple(rng.getrandbits(12) for _ in range(12))
        mask = rng.getrandbits(14)
        expected = sum(1 << site for site, bits in enumerate(table) if mask & bits)
        assert meetings(mask, _offsets(table)) == [expected]
        assert meeting_table(mask, table) == expected
    # a table of more offsets than kept: its entries asked one by one, alike
    for _ in range(20):
        table = tuple(rng.getrandbits(40) for _ in range(40))
        mask = rng.getrandbits(40)
        assert meeting_table(mask, table) == sum(1 << site for site, bits in enumerate(table) if mask & bits)


def test_meeting_within_asks_few_sites_one_by_one_and_many_by_the_offsets(monkeypatch):
    # sites 0..4 in a row; each entry the site's neighbours (an end has one)
    table = (0b00010, 0b00101, 0b01010, 0b10100, 0b01000, 0)
    # a piece on site 2 meets the entries of 1 and 3: of the sites 1 and 4, 1
    assert meeting_within(0b00100, table, 0b10010) == 0b00010
    assert meeting_within(0b00100, table, 0b01010) == 0b01010
    assert meeting_within(0b00100, table, 0) == 0
    assert meeting_within(0, table, 0b11111) == 0
    rng = random.Random(5)
    asked = []
    monkeypatch.setattr(helpers, "meeting_table", lambda mask, t: asked.append(mask) or meeting_table(mask, t))
    for many in (False, True):
        for _ in range(300):
            table = tuple(rng.getrandbits(30) for _ in range(30)) + (0,)
            mask = rng.getrandbits(30)
            within = rng.getrandbits(30) if many else sum(1 << rng.randrange(30) for _ in range(3))
            expected = sum(1 << site for site, bits in enumerate(table) if mask & bits) & within
            assert meeting_within(mask, table, within) == expected
        # (more than FEW_LANDINGS sites: the table's offsets shifted, as meeting_table does)
        assert bool(asked) is many
    # sites beyond the table, or a negative mask: as meeting_table & within
    assert meeting_within(0b1, (0b1, 0b1), 0b111) == meeting_table(0b1, (0b1, 0b1)) & 0b111 == 0b11
    assert meeting_within(0b1, (0b1, 0b1), -1) == 0b11


def _walls(engine, s) -> set:
    """The wall codes (drops: no origin) of `s`'s candidates before `forbid result`."""
    return {code for code in engine.decisions[s.decision].candidates(s) if code[1] == -1}


def test_quoridor_lists_the_same_walls_with_the_landings_found_one_by_one(tmp_path, monkeypatch):
    on = load_game(str(QUORIDOR))
    # each wall's screen finds its landings from the walls' and the paths' masks first, its
    # loop over the candidates under the test of that mask (not at the function's top)
    assert len(helper_calls(on, "h_meeting_within")) == 2
    screens = list(generated(on, ast.FunctionDef, "the conjuncts asked before its check"))
    assert len(screens) == 2 and not any(isinstance(stmt, ast.For) and getattr(stmt.target, "id", "") == "code"
                                         for f in screens for stmt in f.body)
    copy = tmp_path / "quoridor-off"
    shutil.copytree(QUORIDOR, copy)
    monkeypatch.setattr(clearances, "SCREENED_SITES", False)
    off = load_game(str(copy))
    assert not helper_calls(off, "h_meeting_within") and not helper_calls(off, "h_meeting_table")
    engine, other = on.engine, off.engine
    rng = random.Random(8)
    forbidden = compared = 0
    for _ in range(6):
        s, t = engine.initial_state(), other.initial_state()
        for _ in range(60):
            if engine.is_over(s):
                break
            legal = list(engine.legal(s))
            assert legal == list(other.legal(t))
            forbidden += len(_walls(engine, s) - set(legal))
            compared += len(legal)
            walls = [code for code in legal if code[1] == -1]
            # (walls most of the time: positions where some would shut a pawn in)
            code = rng.choice(walls if walls and rng.random() < 0.7 else legal)
            engine.apply_in_place(s, code)
            other.apply_in_place(t, code)
        if not engine.is_over(s):
            assert engine.perft(s, 2) == other.perft(t, 2)
    # walls were forbidden (their screens had landings to check) in the positions compared
    assert forbidden >= 10 and compared > 5000


def _statements(text: str) -> list[ast.stmt]:
    return ast.parse(text).body


def _text(statements: list[ast.stmt]) -> str:
    return ast.unparse(ast.fix_missing_locations(ast.Module(body=statements, type_ignores=[])))


def test_a_mask_only_ored_into_itself_and_read_nowhere_is_dropped():
    per_listing = _statements(
        "m = 0\nn = 0\nfor x in o:\n    for y in x:\n        if b[y] is not None:\n"
        "            m = m | k1[y]\n            n = n | k2[y]\nt = (n,)")
    kept = clearances.unread_masks_dropped(per_listing, _statements("if t[0] & k3[to]:\n    pass"))
    assert _text(kept) == ("n = 0\nfor x in o:\n    for y in x:\n        if b[y] is not None:\n"
                           "            n = n | k2[y]\nt = (n,)")


def test_a_mask_read_anywhere_else_is_kept():
    for per_listing, after in [
        # (read after the listing's statements: by the screen's loop)
        ("m = 0\nfor y in o:\n    m = m | k1[y]", "if m & k3[to]:\n    pass"),
        # (read by an `if`'s own test among them)
        ("m = 0\nfor y in o:\n    m = m | k1[y]\n    if m:\n        pass", "pass"),
        # (set otherwise than ORed into itself)
        ("m = 0\nfor y in o:\n    m = m | k1[y]\nm = 5", "pass"),
        # (ORed with what a call gives: the call kept)
        ("m = 0\nfor y in o:\n    m = m | f(y)", "pass"),
    ]:
        statements = _statements(per_listing)
        kept = clearances.unread_masks_dropped(statements, _statements(after))
        assert _text(kept) == per_listing, per_listing


def test_quoridor_screens_build_no_mask_nothing_reads_nor_a_tuple_of_answers():
    game = load_game(str(QUORIDOR))
    for screen in generated(game, ast.FunctionDef, "the conjuncts asked before its check"):
        # (the answers built beside the walls' mask read as they are, not packed in a tuple first;
        # a tuple unpacked — a table of kept paths with its table of bitmasks — builds none)
        assert not any(isinstance(node, ast.Tuple) and not isinstance(node.ctx, ast.Store)
                       for node in ast.walk(screen)), screen.name
        names = [node for node in ast.walk(screen) if isinstance(node, ast.Name)]
        stored = {node.id for node in names if isinstance(node.ctx, ast.Store)}
        loaded = [node.id for node in names if isinstance(node.ctx, ast.Load)]
        # (each local ORed into itself is read somewhere beyond its own updates)
        for name in stored:
            updates = sum(1 for node in ast.walk(screen) if isinstance(node, ast.Assign)
                          and isinstance(node.value, ast.BinOp) and isinstance(node.value.left, ast.Name)
                          and node.value.left.id == name and node.targets[0].id == name)  # type: ignore[attr-defined]
            assert not updates or loaded.count(name) > updates, (screen.name, name)
