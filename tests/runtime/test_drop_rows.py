"""A phase's drops' clearances asked beside its moves' (runtime/clearances.py
`let_through`, `DROPS_ASKED`): where a phase has several move clearances and
its list ends with a drop, each drop case's clearance is asked once for the
listing and its answer read from a row by landing — a drop landing where the
case writes no site of the mask is let through uncalled, as `sift` lets it
through. Hand-checked crazyhouse positions (the drops called are those onto
the king's lines; in check every drop is called and only the blocking ones
stay), the rows themselves, and the same legal lists and perft with the
mechanism off over random crazyhouse games."""
from __future__ import annotations

import random

import pytest

from interpreter import load_game
from interpreter.runtime import clearances
from interpreter.runtime.clearances import MASKED, OUTSIDE, ClearedChecks, _kinds_by_case
from tests.helpers import REPO, spied_result_filter

CHESS = str(REPO / "docs" / "examples" / "chess")
CRAZYHOUSE = str(REPO / "docs" / "examples" / "chess" / "variants" / "crazyhouse.yaml")
SQUARES = [f + r for f in "abcdefgh" for r in "12345678"]


@pytest.fixture(scope="module")
def crazyhouse():
    return load_game(CHESS, variant=CRAZYHOUSE)


def _state(game, pieces):
    return game.make_state(pieces, to_move="white", pools={"knights": {"white": 1}})


def _spied(game, s):
    """(the notations `result_filter` keeps of the candidates of `s`, the drops whose check it called)."""
    assert list(game.engine.decisions[s.decision].candidates(s))[-1][1] == -1  # (the lister writes its drops last)
    kept, called = spied_result_filter(game, s)
    notation = game.engine.notation
    return {notation(code) for code in kept}, {notation(code) for code in called if code[1] == -1}


def test_the_phase_has_drops_whose_clearances_let_through_asks(crazyhouse):
    row = crazyhouse.rules.result_checks[0]
    assert isinstance(row, ClearedChecks) and len(row.distinct) > 1  # (let_through's path of several)
    dropped = [case for case, dropping in enumerate(row.dropping) if dropping]
    assert len(dropped) == 5 and [case for case, _ in row.drops] == dropped
    assert not any(row.moves[case] for case in dropped)


def test_only_drops_onto_the_kings_lines_are_called(crazyhouse, monkeypatch):
    # White's king on e1, not in check (the rook on a8 and the king on h8 attack neither e1 nor its
    # lines' squares); a knight in hand. Every empty square is a drop. The king's terms read its
    # lines from e1 up to the first piece (the rank, the e-file up to e8, both diagonals), its knight
    # squares and its neighbours: a drop there is asked of its check; any other is let through.
    position = {"e1": ("white", "king"), "h8": ("black", "king"), "a8": ("black", "rook")}
    lines = {"a1", "b1", "c1", "d1", "f1", "g1", "h1", "e2", "e3", "e4", "e5", "e6", "e7", "e8",
             "d2", "c3", "b4", "a5", "f2", "g3", "h4", "c2", "d3", "f3", "g2"}
    s = _state(crazyhouse, position)
    legal, called = _spied(crazyhouse, s)
    assert {n[2:] for n in legal if n.startswith("N@")} == set(SQUARES) - {"e1", "h8", "a8"}
    assert called and called <= {f"N@{site}" for site in lines}
    assert "N@a7" not in called and "N@h5" not in called and "N@c6" not in called
    monkeypatch.setattr(clearances, "DROPS_ASKED", False)
    legal_each, called_each = _spied(crazyhouse, _state(crazyhouse, position))
    assert legal_each == legal and len(called_each) == 61  # (every drop called)


def test_in_check_every_drop_is_called_and_only_blocks_stay(crazyhouse):
    # The rook on e8 gives check along the e-file: the listed position is forbidden itself, the
    # drops' clearances find nothing — each is called; a knight on e2..e7 blocks, none other.
    position = {"e1": ("white", "king"), "h8": ("black", "king"), "e8": ("black", "rook")}
    legal, called = _spied(crazyhouse, _state(crazyhouse, position))
    assert legal == {"N@e2", "N@e3", "N@e4", "N@e5", "N@e6", "N@e7", "e1d1", "e1d2", "e1f1", "e1f2"}
    assert len(called) == 61


def test_a_drops_rows_ask_nothing_of_its_origin_and_check_where_it_writes_the_mask():
    table = (1, 2, 4, 8)
    rows: list = []
    found = (0b0110, (1, 2 | 8, 4, 8))  # (the case writes site 3 too where it lands on 1)

    def clearance(s, memo):
        return found

    _kinds_by_case(rows, table, [0, -1], [0, -1], None, [(1, clearance)], [found])
    origins, landings = rows[1]
    assert origins[-1] == 0 and set(origins) == {0}  # (a drop's origin, -1, not asked)
    assert landings == (0, MASKED | OUTSIDE, MASKED | OUTSIDE, 0)
    _kinds_by_case(rows, table, [0, -1], [0, -1], None, [(1, clearance)], [None])
    assert rows[1][0][-1] == rows[1][1][0] == MASKED | OUTSIDE  # (nothing found: every one checked)


def test_the_same_legal_lists_and_perft_as_checking_each_drop(crazyhouse, monkeypatch):
    other = load_game(CHESS, variant=CRAZYHOUSE)
    rng = random.Random(7)
    drops = compared = 0
    for _ in range(3):
        s, t = crazyhouse.engine.initial_state(), other.engine.initial_state()
        for ply in range(120):
            if crazyhouse.engine.is_over(s):
                break
            legal = list(crazyhouse.engine.legal(s))
            counted = crazyhouse.engine.perft(s, 2) if ply % 40 == 39 else None
            monkeypatch.setattr(clearances, "DROPS_ASKED", False)  # (the games share the switch)
            assert legal == list(other.engine.legal(t)), ply
            if counted is not None:
                assert counted == other.engine.perft(t, 2), ply
            monkeypatch.undo()
            compared += 1
            drops += sum(code[1] == -1 for code in legal)
            code = rng.choice(legal)
            crazyhouse.engine.apply_in_place(s, code)
            other.engine.apply_in_place(t, code)
    assert compared > 200 and drops > 1000
