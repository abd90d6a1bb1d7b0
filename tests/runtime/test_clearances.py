"""Drops let through without their `forbid result` check (runtime/clearances.py,
compilation/clearances.py): a listing asks a drop's clearance once, and a
candidate whose places miss the sites the listed position's answers read or
tested is allowed uncalled — exact on hand-checked walls (which are called,
which are not), where the listed position is forbidden itself (every candidate
called), on hand-made clearances, and over random games and perft against the
mechanism switched off."""
from __future__ import annotations

import ast
import copy
import random
import shutil
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.compilation import clearances
from interpreter.compilation.source import Source
from interpreter.runtime.clearances import ClearedChecks, sift, sift_runs
from interpreter.runtime.helpers import result_filter
from tests.helpers import REPO, WALL_DROPS, checks_allow, stones_and_rocks, write_definition
from tests.runtime.test_reach_reuse import EXTRA, FILES, _open

# A wall is two rocks side by side, dropped on the western one; white's stone
# must keep a way to the top rank (asked of every wall, as docs/format.md writes it).
RULES = """\
define open = exists(connected(first(pieces of white), orthogonal, it is not rock), it in top)
forbid result where not open
""" + WALL_DROPS


def _game(tmp_path: Path, on: bool = True, monkeypatch=None):
    if not on:
        monkeypatch.setattr(clearances, "ENABLED", False)
    folder = tmp_path / f"walls-{on}"
    folder.mkdir()
    return load_game(write_definition(folder, stones_and_rocks(extra=EXTRA), RULES))


def _position(game, rocks: set[str]):
    board = " ".join(["a1=white.stone"] + [f"{site}=neutral.rock" for site in sorted(rocks)])
    return game.parse_position(f"rw1; game probe; ply 0; phase play; turn white place 0; board {board}")


def _notation(site: int) -> str:
    return f"{FILES[site % 4]}{site // 4 + 1}"


def _listed(game, s, monkeypatch) -> tuple[list[str], list[str]]:
    """(the walls `result_filter` keeps of the candidates of `s`, the walls whose
    check it called), through the phase's row of checks as the listers read it."""
    engine = game.engine
    row = engine.rules.result_checks[s.phase]
    called: list[str] = []

    def spying(check):
        def spy(state, code, memo=None):
            called.append(_notation(code[2]))
            return check(state, code, memo)
        return spy if check is not None else None

    spied = ClearedChecks([spying(c) for c in row], row.clearances) if isinstance(row, ClearedChecks) \
        else tuple(spying(c) for c in row)
    kept = list(engine.decisions[s.decision].candidates(s))
    result_filter(s, kept, spied)
    return sorted(_notation(code[2]) for code in kept), sorted(called)


def _expected(rocks: set[str]) -> list[str]:
    return sorted(f"{FILES[f]}{r}" for f in range(3) for r in range(1, 5)
                  if not {f"{FILES[f]}{r}", f"{FILES[f + 1]}{r}"} & (rocks | {"a1"})
                  and _open(rocks | {f"{FILES[f]}{r}", f"{FILES[f + 1]}{r}"}))


def test_only_the_wall_on_the_kept_way_is_asked(tmp_path, monkeypatch):
    game = _game(tmp_path)
    assert isinstance(game.rules.result_checks[0], ClearedChecks)
    # Rocks on b1, b2, b3: white's one way is a1-a2-a3-a4. The candidates are the
    # walls on a4 (a4, b4), b4 (b4, c4) and c1..c4 (c, d). Only a4's writes a site
    # of the way: it alone is asked (and forbidden: it closes the way); the others
    # are let through without their check.
    rocks = {"b1", "b2", "b3"}
    legal, called = _listed(game, _position(game, rocks), monkeypatch)
    assert called == ["a4"]
    assert legal == ["b4", "c1", "c2", "c3", "c4"] == _expected(rocks)
    off = _game(tmp_path, False, monkeypatch)
    assert not isinstance(off.rules.result_checks[0], ClearedChecks)
    legal_off, called_off = _listed(off, _position(off, rocks), monkeypatch)
    assert legal_off == legal and called_off == ["a4", "b4", "c1", "c2", "c3", "c4"]


def test_every_wall_is_asked_where_the_listed_position_is_forbidden(tmp_path, monkeypatch):
    game = _game(tmp_path)
    # Rocks on a2 and b1 shut white in: the answer on the listed position holds
    # (no way), so no candidate is cleared — each is asked, and each forbidden.
    legal, called = _listed(game, _position(game, {"a2", "b1"}), monkeypatch)
    assert legal == []
    assert called == ["a3", "a4", "b2", "b3", "b4", "c1", "c2", "c3", "c4"]


def test_random_walls_agree_with_a_search_of_their_own(tmp_path, monkeypatch):
    game = _game(tmp_path)
    rng = random.Random(5)
    sites = [f"{f}{r}" for f in FILES for r in range(1, 5) if f"{f}{r}" != "a1"]
    for _ in range(80):
        rocks = set(rng.sample(sites, rng.randint(0, 7)))
        legal, _ = _listed(game, _position(game, rocks), monkeypatch)
        assert legal == _expected(rocks), rocks


def _code(case: int, to: int) -> tuple[int, int, int]:
    return (case, -1, to)


def test_sift_calls_the_check_only_where_the_places_meet_the_mask():
    asked: list[tuple[int, int, int]] = []

    def check(s, code, memo):
        asked.append(code)
        return 3 if code[2] == 2 else 0  # (a line's probe plus one: forbidden)

    row_of_places = (0b1, 0b10, 0b100, 1 << 9, 0)  # (sites 0..3; the last for site -1)
    clearance_asked = []

    def clearance(s, memo):
        clearance_asked.append(memo)
        return (0b110 | 1 << 9, row_of_places)  # (sites 1 and 2 read; the unknown bit)

    checks = ClearedChecks([None, check, check], [None, clearance, None])
    out = [_code(0, 1), _code(1, 0), _code(1, 1), _code(1, 2), _code(1, 3), _code(1, -1), _code(2, 0)]
    kept = out[:]
    rejected = sift(None, kept, checks, "memo")  # (the list itself is left with what is kept)
    # case 0 has no check; case 1's sites 0 and -1 are cleared, 1 and 2 met, 3 unknown; case 2 has no clearance
    assert asked == [_code(1, 1), _code(1, 2), _code(1, 3), _code(2, 0)]
    assert kept == [_code(0, 1), _code(1, 0), _code(1, 1), _code(1, 3), _code(1, -1), _code(2, 0)]
    assert rejected == [3] and clearance_asked == ["memo"]  # (asked once per listing)
    # where the clearance gives none, every candidate of the case is asked
    asked.clear()
    none = ClearedChecks([None, check, check], [None, lambda s, memo: None, None])
    some = out[1:6]
    assert sift(None, some, none, {}) == [3]
    assert some == [_code(1, 0), _code(1, 1), _code(1, 3), _code(1, -1)]
    assert len(asked) == 5
    # a code listed twice (legal_with_duplicates) is asked twice: both copies go, the rest stays in order
    asked.clear()
    twice = [_code(1, 2), _code(0, 1), _code(1, 1), _code(1, 2), _code(1, 0), _code(1, 2)]
    assert sift(None, twice, checks, {}) == [3, 3, 3]
    assert twice == [_code(0, 1), _code(1, 1), _code(1, 0)]
    assert asked == [_code(1, 2), _code(1, 1), _code(1, 2), _code(1, 2)]


def test_sift_told_the_runs_asks_what_sift_asks_and_passes_over_the_unchecked():
    asked: list[tuple[int, int, int]] = []

    def check(s, code, memo):
        asked.append(code)
        return 3 if code[2] == 2 else 0

    row_of_places = (0b1, 0b10, 0b100, 1 << 9, 0)
    checks = ClearedChecks([None, check, check, None], [None, lambda s, memo: (0b110 | 1 << 9, row_of_places), None,
                                                         None])
    # (stretches: cases 0 and 3, no check; case 1 alone; cases 0 and 2 mixed; case 1 again, empty; case 2 alone)
    runs = ((0, 3), (1,), (0, 2), (1,), (2,))
    out = [_code(0, 1), _code(3, 2), _code(1, 0), _code(1, 2), _code(1, 3), _code(0, 2), _code(2, 2), _code(0, 0),
           _code(2, 1), _code(2, 2)]
    ends = (2, 5, 9, 9)
    grouped = out[:]
    rejected = sift(None, grouped, checks, {})
    by_sift = asked[:]
    asked.clear()

    class Unread(tuple):  # (a candidate of a stretch without a check: never looked at)
        def __getitem__(self, index):
            raise AssertionError("read")

    unread = Unread(_code(3, 2))
    told = out[:1] + [unread] + out[2:]
    assert sift_runs(None, told, checks, {}, runs, ends) == rejected == [3, 3, 3]
    assert told == grouped == [_code(0, 1), _code(3, 2), _code(1, 0), _code(1, 3), _code(0, 2), _code(0, 0),
                               _code(2, 1)]
    assert told[1] is unread
    assert asked == by_sift == [_code(1, 2), _code(1, 3), _code(2, 2), _code(2, 1), _code(2, 2)]
    assert checks.stretches[runs] == ((1, 1), (2, -1), (3, 1), (4, 2))  # (kept for the next listing)


def test_result_filter_counts_the_lines_of_the_asked_only():
    counts = [5, 0, 0, 0]

    def check(s, code, memo):
        counts[0] += 100  # (what checking plays is not counted)
        return 2

    checks = ClearedChecks([check], [lambda s, memo: (0b10, (0b1, 0b10, 0b100, 0))])
    out = [_code(0, 0), _code(0, 1), _code(0, 2)]
    result_filter(None, out, checks, counts)
    assert out == [_code(0, 0), _code(0, 2)] and counts == [5, 1, 0, 0]
    with pytest.raises(ValueError):
        ClearedChecks([check], [])
    copied = copy.deepcopy(checks)
    assert type(copied) is ClearedChecks and copied == checks and copied.clearances == checks.clearances


def test_the_places_table_marks_what_cannot_be_worked_out():
    src = Source()
    east = src.const((1, 2, -1, 9))  # (a table by site: -1 none, 9 not a site)
    places = [ast.Name("to", ast.Load()), ast.Subscript(east, ast.Name("to", ast.Load()), ast.Load())]
    table = clearances.places_table(src, places, 4, 2)
    assert table is not None
    rows = src.namespace[table.id]
    # (site 2 writes itself alone; 3 and -1 read 9 from the table: unknown, a bit no site has)
    assert rows[0] == rows[1] == (0b11, 0b110, 0b100, 1 << 5, 1 << 5)
    unknown = [ast.Subscript(ast.Name("b", ast.Load()), ast.Name("to", ast.Load()), ast.Load())]
    assert clearances.places_table(src, unknown, 4, 2) is None
    assert clearances.per_listing([ast.parse("pc is None or pc[0] == p", mode="eval").body])
    assert not clearances.per_listing([ast.parse("pc[0] == to", mode="eval").body])
    assert not clearances.per_listing([ast.parse("h_first(pc) == 1", mode="eval").body])


QUORIDOR = REPO / "benchmarks" / "games" / "quoridor"


def _quoridor_off(tmp_path: Path, monkeypatch):
    copy = tmp_path / "quoridor-off"
    shutil.copytree(QUORIDOR, copy)
    monkeypatch.setattr(clearances, "ENABLED", False)
    return load_game(str(copy))


def test_quoridor_lists_the_same_actions_with_the_mechanism_off(tmp_path, monkeypatch):
    on = load_game(str(QUORIDOR))
    assert any(isinstance(row, ClearedChecks) for row in on.rules.result_checks)
    off = _quoridor_off(tmp_path, monkeypatch)
    assert not any(isinstance(row, ClearedChecks) for row in off.rules.result_checks)
    rng = random.Random(23)
    compared = 0
    for _ in range(3):
        a, b = on.initial_state(), off.initial_state()
        for _ in range(90):
            if on.is_terminal(a):
                break
            legal = sorted(on.legal_notations(a))
            assert legal == sorted(off.legal_notations(b)), a.ply
            checks = on.engine.rules.result_checks[a.phase]
            candidates = list(on.engine.decisions[a.decision].candidates(a))
            kept = list(candidates)
            result_filter(a, kept, checks)
            assert kept == checks_allow(a, candidates, checks), a.ply
            notation = rng.choice(legal)
            a, b = on.apply(a, notation), off.apply(b, notation)
            compared += len(legal)
    assert compared > 5000


def test_quoridor_perft_is_the_same_with_the_mechanism_off(tmp_path, monkeypatch):
    on = load_game(str(QUORIDOR)).engine
    assert on.perft(on.initial_state(), 2) == [131, 16677]
    # a position with walls down and the pawns met: the same count either way
    off = _quoridor_off(tmp_path, monkeypatch).engine
    rng = random.Random(4)
    a, b = on.initial_state(), off.initial_state()
    for _ in range(24):
        code = rng.choice(list(on.legal(a)))
        on.apply_in_place(a, code)
        off.apply_in_place(b, code)
        if on.is_over(a):
            break
    assert on.perft(a, 2) == off.perft(b, 2)
