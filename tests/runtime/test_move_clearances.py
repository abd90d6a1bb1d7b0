"""Moves let through without their `forbid result` check (runtime/clearances.py
`let_through`, compilation/cases.py `_move_clearance_function`): where a move's
early answer tests nothing of the moving piece that can hold for the kinds its
action moves, a listing asks the clearance once and a candidate whose origin
and destination miss the sites the listed position's answers read or tested is
allowed uncalled — exact on xiangqi's start (which are called, hand-checked),
where the listed position is forbidden itself, through the counting path, and
by perft against the mechanism switched off."""
from __future__ import annotations

from collections import defaultdict

import pytest

from interpreter import load_game
from interpreter.compilation import clearances
from interpreter.runtime.clearances import ClearedChecks, let_through
from interpreter.runtime.helpers import result_filter
from tests.helpers import REPO

XIANGQI = REPO / "benchmarks" / "games" / "xiangqi"
CHESS = REPO / "docs" / "examples" / "chess"


@pytest.fixture(scope="module")
def xiangqi():
    return load_game(XIANGQI)


def _spied(game, s):
    """(the notations `result_filter` keeps of the candidates of `s`, those whose check it called)."""
    engine = game.engine
    row = engine.rules.result_checks[s.phase]
    called: list[str] = []

    def spying(check):
        def spy(state, code, memo=None):
            called.append(engine.notation(code))
            return check(state, code, memo)
        return spy if check is not None else None

    spied = ClearedChecks([spying(c) for c in row], row.clearances, row.screens, row.moves)
    kept = list(engine.decisions[s.decision].candidates(s))
    result_filter(s, kept, spied)
    return sorted(engine.notation(code) for code in kept), sorted(called)


def test_xiangqi_start_calls_only_the_moves_near_the_general(xiangqi):
    game = xiangqi
    row = game.rules.result_checks[0]
    assert isinstance(row, ClearedChecks)
    # the general's own moves (the part's loop visits the general) get no clearance; every other kind does
    assert row.moves[:2] == (False, False) and all(row.moves[2:]) and len(row.distinct) == 1
    s = game.engine.initial_state()
    kept, called = _spied(game, s)
    assert len(kept) == 44
    # Red's general on e1 reads its rays: e2, e3 up to the e4 soldier, then e5..e7
    # (the screen); d1, f1 (advisors) and c1, g1 (elephants behind them) along the
    # rank; the horse tests ask c2, d3, f3, g2 and the soldier tests e2, d1, f1.
    assert called == ["b3d3", "b3e3", "b3f3", "c1a3", "c1e3", "d1e2", "e1e2", "e4e5", "f1e2",
                      "g1e3", "g1i3", "h3d3", "h3e3", "h3f3"]


def test_every_move_is_called_where_the_listed_position_is_forbidden(xiangqi):
    game = xiangqi
    # Red's general in check from the chariot on e9: the listed position's answer
    # forbids, so no candidate is let through. The chariot on a1 cannot block the
    # e-file (its 12 moves and the general's 3 are all called), and d1 faces Black's general on d10: only e1f1 is left.
    s = game.parse_position("rw1; game xiangqi; ply 0; phase play; turn red move 0; "
                            "board a1=red.chariot e1=red.general e9=black.chariot d10=black.general; variables moves=0")
    kept, called = _spied(game, s)
    assert called == sorted(game.engine.notation(c) for c in game.engine.decisions[s.decision].candidates(s))
    assert len(called) == 15 and kept == ["e1f1"]


def test_the_counting_path_agrees(xiangqi):
    game = xiangqi
    s = game.engine.initial_state()
    row = game.rules.result_checks[0]
    plain = list(game.engine.decisions[s.decision].candidates(s))
    counted = plain[:]
    result_filter(s, counted, row, [0] * 8)  # (through `sift`: a move's places are its origin and destination)
    quick = plain[:]
    let_through(s, quick, row, defaultdict(lambda: None))
    assert counted == quick and len(quick) == 44


def test_perft_is_the_same_with_the_mechanism_off(xiangqi, monkeypatch):
    monkeypatch.setattr(clearances, "MOVES", False)
    off = load_game(XIANGQI)
    assert not any(isinstance(row, ClearedChecks) and row.distinct for row in off.rules.result_checks)
    assert xiangqi.engine.perft(xiangqi.engine.initial_state(), 3) == [44, 1920, 79666]
    assert off.engine.perft(off.engine.initial_state(), 3) == [44, 1920, 79666]


def test_chess_perft_with_its_moves_let_through():
    game = load_game(CHESS)
    row = game.rules.result_checks[0]
    # knights', bishops' and rooks'/queens' moves get one clearance; the pawns' (a promotion
    # writes another kind; a double step an en-passant mark), the king's (the part's loop
    # visits it) and castling are always called
    assert isinstance(row, ClearedChecks) and len(row.distinct) == 1
    assert row.moves == (False,) * 4 + (True,) * 6 + (False,) * 4
    assert game.engine.perft(game.engine.initial_state(), 3) == [20, 400, 8902]


def test_let_through_calls_the_check_only_where_origin_or_destination_meet_the_mask():
    asked: list[tuple[int, int, int]] = []

    def check(s, code, memo):
        asked.append(code)
        return code[2] == 2  # (forbidden)

    bits = (0b1, 0b10, 0b100, 0b1000, 0)  # (sites 0..3; the last for site -1)

    def clearance(s, memo):
        memo.append("asked")
        return (0b110, bits)  # (sites 1 and 2 read or tested)

    def other(s, memo):
        return (0b1000, bits)

    out = [(0, 0, 3), (1, 0, 3), (1, 3, 0), (1, 0, 1), (1, 2, 0), (1, 3, 2), (2, 0, 3), (3, 0, 3)]
    one = ClearedChecks([None, check, check, check], [None, clearance, None, clearance], None,
                        [False, True, False, True])
    assert one.distinct == (clearance,) and one.which == (1, 0, 1, 0)
    memo: list[str] = []
    kept = out[:]
    let_through(None, kept, one, memo)
    # case 0 has no check; case 1's 0-3 and 3-0 are cleared, 0-1, 2-0, 3-2 met; case 2 has no clearance
    assert asked == [(1, 0, 1), (1, 2, 0), (1, 3, 2), (2, 0, 3)] and memo == ["asked"]
    assert kept == [(0, 0, 3), (1, 0, 3), (1, 3, 0), (1, 0, 1), (1, 2, 0), (2, 0, 3), (3, 0, 3)]
    # two clearances, each for its cases; one that gives none has every candidate of its cases asked
    asked.clear()
    two = ClearedChecks([None, check, check, check], [None, clearance, other, lambda s, memo: None], None,
                        [False, True, True, True])
    kept = out[:]
    let_through(None, kept, two, [])
    assert asked == [(1, 0, 1), (1, 2, 0), (1, 3, 2), (2, 0, 3), (3, 0, 3)]
    assert kept == [(0, 0, 3), (1, 0, 3), (1, 3, 0), (1, 0, 1), (1, 2, 0), (2, 0, 3), (3, 0, 3)]
    # a drop's clearance beside them: the phase goes through `sift` (no `distinct`)
    assert ClearedChecks([check, check], [clearance, clearance], None, [True, False]).distinct == ()
