"""A drop's `forbid result` check asks its kept answer once, before its case
(compilation/cases.py `_drop_answered_before`, `ASKED_ONCE`), where the writes
told before the case runs are the writes it makes: for every player and fixed
landing, each made whenever the case runs (result_reuse.writes_all_made) at a
site of the board, no two at one. And `tests_hold_placing`, which that early
answer asks, from each piece's failing sites kept for the entry
(helpers.placing_failures): the same answers as asking each test."""
from __future__ import annotations

import ast
import random
import shutil
from pathlib import Path
from typing import Any, Optional

import pytest

from interpreter import load_game
from interpreter.compilation import cases, result_reuse
from interpreter.runtime import helpers
from interpreter.runtime.point_masks import MaskedTests
from tests.helpers import REPO, helper_calls
from tests.runtime.test_point_masks import _played_alike

OUTSIDER = REPO / "benchmarks" / "outsiders" / "quoridor"
HORIZONTAL = "action 'horizontal_wall', onto empty: whether 'forbid result' forbids it"
VERTICAL = "action 'vertical_wall', onto empty: whether 'forbid result' forbids it"


def _quoridor(tmp_path: Path, monkeypatch, name: str, asked_once: bool = True, west: str = "") -> Any:
    """The outsiders' Quoridor at size 5; with `west`, the horizontal wall's west half
    created there instead (an expression of `to`)."""
    monkeypatch.setattr(cases, "ASKED_ONCE", asked_once)
    folder = tmp_path / name
    shutil.copytree(OUTSIDER, folder)
    if west:
        rules = folder / "quoridor.rules"
        text = rules.read_text()
        assert text.count("create wall at neighbour(to, w)") == 1
        rules.write_text(text.replace("create wall at neighbour(to, w)", f"create wall at {west}"))
    game = load_game(str(folder), options={"board_size": 5})
    monkeypatch.undo()
    return game


def test_the_wall_checks_ask_their_kept_answer_once(tmp_path, monkeypatch):
    game = _quoridor(tmp_path, monkeypatch, "once")
    for check in (HORIZONTAL, VERTICAL):
        assert helper_calls(game, "h_tests_hold_placing", check)  # (the early answer, before the case)
        assert not helper_calls(game, "h_answer_kept", check)
    off = _quoridor(tmp_path, monkeypatch, "twice", asked_once=False)
    for check in (HORIZONTAL, VERTICAL):
        assert helper_calls(off, "h_tests_hold_placing", check) and helper_calls(off, "h_answer_kept", check)


def test_a_write_that_may_not_be_made_keeps_the_test_after_the_case(tmp_path, monkeypatch):
    # Two steps west of a junction of the first gap file is off the board: that write
    # is not made there (under `!= -1`), so the answer may be kept after the case
    # where it was not before — asked both times. The vertical wall's writes are all made.
    game = _quoridor(tmp_path, monkeypatch, "west", west="two(to, w)")
    assert helper_calls(game, "h_answer_kept", HORIZONTAL)
    assert not helper_calls(game, "h_answer_kept", VERTICAL)
    # Two writes at one site (the west half written over by the east half's):
    # the first piece is not what stands there after the case.
    game = _quoridor(tmp_path, monkeypatch, "twice-east", west="neighbour(to, e)")
    assert helper_calls(game, "h_answer_kept", HORIZONTAL)


def test_a_kept_answer_with_terms_is_asked_after_the_case_too():
    # Crazyhouse's drops: the part's terms (the king's attackers) asked again after the
    # case where it reads the place (`h_terms_hold`), which the test before it does not.
    game = load_game(str(REPO / "docs" / "examples" / "chess"),
                     variant=str(REPO / "docs" / "examples" / "chess" / "variants" / "crazyhouse.yaml"))
    assert helper_calls(game, "h_terms_hold", "action 'knight_drop', onto empty: whether 'forbid result' forbids it")


def test_the_same_legal_actions_and_perft_with_the_answer_asked_once(tmp_path, monkeypatch):
    once = _quoridor(tmp_path, monkeypatch, "once")
    twice = _quoridor(tmp_path, monkeypatch, "twice", asked_once=False)
    assert once.engine.perft(once.engine.initial_state(), 3) == [35, 1109, 31540]
    a, b, compared = _played_alike(once, twice, random.Random(7), plies=60, games=6)
    assert compared > 1200
    assert once.engine.perft(a, 2) == twice.engine.perft(b, 2)


def _tree(text: str) -> list[ast.stmt]:
    return ast.parse(text).body


def _decided(test: ast.expr) -> Optional[bool]:
    """`k1[to] != -1` always holds, `k2[to] != -1` never, anything else cannot be told."""
    shown = ast.unparse(test)
    return {"k1[to] != -1": True, "k2[to] != -1": False}.get(shown)


@pytest.mark.parametrize("code, made", [
    ("b[to] = pc\nh_replace(b, o, k1[to], k3)", True),
    ("b[to] = pc\nt5 = k1[to]\nif t5 != -1:\n    h_replace(b, o, t5, k3)", True),  # (the local told as its value)
    ("b[to] = pc\nif k2[to] != -1:\n    v[0] += 1\nelse:\n    h_replace(b, o, k1[to], k3)", True),
    ("b[to] = pc\nif k4[to] != -1:\n    h_replace(b, o, k1[to], k3)", False),  # (not told)
    ("b[to] = pc\nif k1[to] != -1:\n    v[0] += 1\nelse:\n    h_replace(b, o, k1[to], k3)", False),  # (never made)
    ("if k1[to] != -1:\n    b[to] = pc\nelse:\n    b[k1[to]] = pc", False),  # (listed, one of the two made)
    ("if b[to] is None:\n    b[to] = pc", False),  # (reads the board)
    ("for t5 in k5[to]:\n    b[t5] = pc", False),
    ("b[to] = pc\nif s.result is None:\n    h_replace(b, o, k1[to], k3)", False),  # (an `after` block's write)
    ("b[to] = pc\nv[0] += 1\nif v[0] > 3:\n    h_end(s, 0, p, 1)", True),  # (no write under the test)
])
def test_writes_all_made(code, made):
    assert result_reuse.writes_all_made(_tree(code), frozenset({"to", "p", "q", "pc"}), _decided) is made


def _held(kind: int):
    def test(piece, p, q):
        return piece is not None and piece[1] == kind
    return test


def _masked_entry(read: int = 0) -> tuple[Any, ...]:
    """An entry whose test `is kind 3` held at sites 1 and 2 and failed at 4, 5
    and 6 (bitmasks), with `is kind 1` noted as a tuple at 5 (failed) and 7 (held)."""
    wall, pawn = _held(3), _held(1)
    masked = [(wall, 0b110, 0b1110000, False)]
    notes = [(5, pawn, False, True, False), (7, pawn, True, True, False)]
    tested = 0b11110110 & ~read
    return (False, read, tested, MaskedTests(notes, masked, read), 0)


@pytest.mark.parametrize("read", [0, 0b100000])
def test_tests_hold_placing_as_each_test_asked(read):
    pieces = [None, (0, 1, 1), (-1, 3, 1), (1, 2, 1)]
    sites = range(-1, 9)
    entries = [_masked_entry(read), _masked_entry(read)]
    rng = random.Random(3)
    for _ in range(400):
        entry = rng.choice(entries)  # (two entries alike: each its own failing sites)
        placed = tuple((rng.choice(sites), rng.choice(pieces)) for _ in range(rng.randint(1, 3)))
        assert helpers.tests_hold_placing(entry, placed, 0, 1) is helpers._tests_hold_placed(entry, placed, 0, 1)
    # (hand-checked: a wall at 1 holds as it held; a wall at 4 does not; a pawn at 7 holds; at 5 not)
    entry = _masked_entry(read)
    assert helpers.tests_hold_placing(entry, ((1, (-1, 3, 1)), (7, (0, 1, 1))), 0, 1)
    assert not helpers.tests_hold_placing(entry, ((1, (-1, 3, 1)), (4, (-1, 3, 1))), 0, 1)
    assert helpers.tests_hold_placing(entry, ((5, (0, 1, 1)),), 0, 1) is bool(read)
    assert helpers.tests_hold_placing(entry, ((3, (0, 1, 1)), (-1, None)), 0, 1)  # (untested, no site)


def test_tests_hold_placing_of_an_unhashable_piece_or_a_failing_test():
    entry = _masked_entry()
    assert not helpers.tests_hold_placing(entry, ((4, [-1, 3, 1]),), 0, 1)
    assert helpers.tests_hold_placing(entry, ((4, [0, 2, 1]),), 0, 1)

    def failing(piece, p, q):
        return piece[1] == 3  # (fails on an empty site)
    failing_entry = (False, 0, 0b10, MaskedTests([], [(failing, 0b10, 0, False)], 0), 0)
    with pytest.raises(TypeError):
        helpers.tests_hold_placing(failing_entry, ((1, None),), 0, 1)
    assert helpers.tests_hold_placing(failing_entry, ((3, None), (1, (0, 3, 1))), 0, 1)
