"""Moves let through without their `forbid result` check (runtime/clearances.py
`let_through`, compilation/cases.py `_move_clearance_function`): where a move's
early answer tests nothing of the moving piece that can hold for the kinds its
action moves, a listing asks the clearance once and a candidate whose origin
and destination miss the sites the listed position's answers read or tested is
allowed uncalled — exact on xiangqi's start (which are called, hand-checked),
where the listed position is forbidden itself, through the counting path, and
by perft against the mechanism switched off."""
from __future__ import annotations

import random
from collections import defaultdict

import pytest

from interpreter import load_game
from interpreter.compilation import clearances
from interpreter.runtime.clearances import ClearedChecks, let_through
from interpreter.runtime.helpers import result_filter
from tests.helpers import REPO, spied_result_filter

XIANGQI = REPO / "benchmarks" / "games" / "xiangqi"
CHESS = REPO / "docs" / "examples" / "chess"


@pytest.fixture(scope="module")
def xiangqi():
    return load_game(XIANGQI)


def _spied(game, s):
    """(the notations `result_filter` keeps of the candidates of `s`, those whose check it called)."""
    kept, called = spied_result_filter(game, s)
    notation = game.engine.notation
    return sorted(notation(code) for code in kept), sorted(notation(code) for code in called)


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
    # rank; the horse tests ask c2, d3, f3, g2 and the soldier tests e2, d1, f1. A test
    # asking for an enemy horse holds alike with any of Red's pieces there: the cannons
    # landing on d3 or f3 (b3d3, b3f3, h3d3, h3f3) are let through uncalled. c1 and g1
    # are read by the rank's terms alone: the elephants leaving them for a3 and i3 (read
    # by nothing) are let through once those terms give what they gave with the move made;
    # so are the moves onto e2 and e3, read by the file's terms alone (b3e3, c1e3, d1e2,
    # f1e2, g1e3, h3e3: the general's file stops at the piece that lands there, as it did
    # at e4). e4e5 leaves e4, where the file's term asked whether the first piece is a
    # general (a test that would hold were one of Red's pieces — the general — to land
    # there: e4 is in the mask for a destination), but an origin is emptied, where the test
    # gives what it gave: the file's terms give what they gave with the move made (the
    # soldier is the first piece, on e5): let through uncalled too.
    assert called == ["e1e2"]


def test_a_piece_leaving_the_generals_file_is_called_one_along_it_is_not(xiangqi):
    # The cannon on e5 stands alone between the generals. The file's term tested e5
    # ("is the first piece a general?": no), a test one of Red's pieces landing there could
    # turn — e5 is in the clearance's mask for a destination, not for an origin: the file's
    # terms are asked of each of its moves. Along the file (e2..e4, e6..e9) they give what
    # they gave (the cannon is still the first piece, no chariot nor cannon behind it):
    # let through uncalled. Off it (a5..d5, f5..i5) the file's first piece is Black's
    # general: called, forbidden. The general's own moves are always called.
    game = xiangqi
    s = game.parse_position("rw1; game xiangqi; ply 0; phase play; turn red move 0; "
                            "board e1=red.general e5=red.cannon e10=black.general; variables moves=0")
    kept, called = _spied(game, s)
    assert kept == ["e1d1", "e1e2", "e1f1", "e5e2", "e5e3", "e5e4", "e5e6", "e5e7", "e5e8", "e5e9"]
    assert called == ["e1d1", "e1e2", "e1f1"] + [f"e5{c}5" for c in "abcdfghi"]
    # a soldier there (not over the river: forward alone) steps along the file uncalled
    s = game.parse_position("rw1; game xiangqi; ply 0; phase play; turn red move 0; "
                            "board e1=red.general e5=red.soldier e10=black.general; variables moves=0")
    assert _spied(game, s) == (["e1d1", "e1e2", "e1f1", "e5e6"], ["e1d1", "e1e2", "e1f1"])


def test_the_origin_asked_apart_gives_the_same_moves(xiangqi):
    """A clearance with terms gives, as its fifth item, the sites in the mask outside
    the terms only for a mover landing there (compilation/clearances.clearance_body):
    `let_through` leaves them out of a move's origin. The same legal moves as with
    that item left out, and as every candidate's check gives, along seeded games;
    fewer checks called."""
    game = xiangqi
    engine = game.engine
    row = game.rules.result_checks[0]
    clearance = row.distinct[0]

    def four(s, memo):  # (the clearance without its fifth item)
        found = clearance(s, memo)
        return found if found is None else found[:4]

    without = [None if c is None else four for c in row.clearances]
    calls = [0, 0]

    def counting(which):
        def count(check):
            def spy(state, code, memo=None):
                calls[which] += 1
                return check(state, code, memo)
            return spy if check is not None else None
        return count

    mine = ClearedChecks([counting(0)(c) for c in row], row.clearances, row.screens, row.moves)
    plain = ClearedChecks([counting(1)(c) for c in row], without, row.screens, row.moves)
    assert mine.distinct == (clearance,) and plain.distinct == (four,)
    landing = 0
    for seed in range(3):
        rng = random.Random(seed)
        s = engine.initial_state()
        for _ in range(30):
            candidates = list(engine.decisions[s.decision].candidates(s))
            if not candidates:
                break
            found = clearance(s, defaultdict(lambda: None))
            landing += found is not None and found[4] != 0
            a, b = candidates[:], candidates[:]
            let_through(s, a, mine, defaultdict(lambda: None))
            let_through(s, b, plain, defaultdict(lambda: None))
            checked = [c for c in candidates if row[c[0]] is None or not row[c[0]](s, c, None)]
            assert a == b == checked
            if not a:
                break
            engine.apply_in_place(s, rng.choice(a))
    assert landing > 10 and calls[0] < calls[1]


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
    # knights', bishops' and rooks'/queens' moves get one clearance; the pawns' steps and
    # captures another, their guard (a promotion writes another kind) a mask of the last
    # rank; the double step (an en-passant mark), the king's (the part's loop visits it)
    # and castling are always called
    assert isinstance(row, ClearedChecks) and len(row.distinct) == 2
    assert row.which == (0, 0, 0, 2, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2)
    assert game.engine.perft(game.engine.initial_state(), 3) == [20, 400, 8902]


def test_chess_moves_whose_tested_squares_hold_with_the_mover_are_not_called():
    # c7 and f6 are squares a knight would check e8 from (point tests: an enemy knight
    # there?), which hold alike with any of Black's pieces there: c7c6, c7c5 and d5f6
    # are let through uncalled. d7 closes the diagonal (read by its term alone: d7d6, to
    # a square nothing read, leaves the term's outcome and is let through uncalled), the
    # e-file is open down to e1, read by the king's ray alone: d5e3 and d5e7 land on it,
    # the ray stops there and finds no enemy, as before — let through uncalled too. The
    # king's moves are always called.
    game = load_game(CHESS)
    s = game.parse_position("rw1; game chess; ply 0; phase play; turn black move 0; board e8=black.king "
                            "d7=black.pawn c7=black.pawn d5=black.knight a7=black.pawn e1=white.king")
    kept, called = _spied(game, s)
    assert called == ["e8d8", "e8e7", "e8f7", "e8f8"]
    assert kept == ["a7a5", "a7a6", "c7c5", "c7c6", "d5b4", "d5b6", "d5c3", "d5e3", "d5e7", "d5f4", "d5f6",
                    "d7d6", "e8d8", "e8e7", "e8f7", "e8f8"]


def test_pinned_pieces_leaving_their_line_are_called_those_along_it_are_not():
    # The rook on e2 is pinned by the one on e8, the bishop on d2 by the one on a5: each
    # origin is read by one of the king's rays alone (which stop there). Along its line
    # (e2e3..e2e8, d2c3, d2b4, d2a5: squares nothing read) the ray's term gives what it
    # gave with the move made: let through uncalled. Off it (e2g2, e2h2, d2e3..d2h6) the
    # term finds the enemy behind: called, forbidden. e2f2 and d2c1 land on squares the
    # answer read (the e1-h4 diagonal, the first rank), the king's moves are always
    # called. The same moves as python-chess gives.
    game = load_game(CHESS)
    s = game.parse_position("rw1; game chess; ply 0; phase play; turn white move 0; board e1=white.king "
                            "e2=white.rook d2=white.bishop e8=black.rook a5=black.bishop h8=black.king")
    kept, called = _spied(game, s)
    assert kept == ["d2a5", "d2b4", "d2c3", "e1d1", "e1f1", "e1f2", "e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8"]
    assert called == ["d2c1", "d2e3", "d2f4", "d2g5", "d2h6", "e1d1", "e1f1", "e1f2", "e2f2", "e2g2", "e2h2"]


def test_a_pawn_reaching_the_last_rank_is_called():
    # the pawns' guard (a promotion) gives the last rank to the mask: b7b8 is checked,
    # h2h3 (away from the e1 king's lines and knight squares) is not; nor is h2h4, a double
    # step onto the e1-h4 diagonal (read by the king's ray alone, which stops there now)
    game = load_game(CHESS)
    s = game.parse_position("rw1; game chess; ply 0; phase play; turn white move 0; board e1=white.king "
                            "b7=white.pawn h2=white.pawn e8=black.king")
    kept, called = _spied(game, s)
    assert [c for c in called if c.startswith("b7")] == ["b7b8b", "b7b8n", "b7b8q", "b7b8r"]
    assert [c for c in called if c.startswith("h2")] == []
    assert "h2h3" in kept and "h2h4" in kept and "b7b8q" in kept


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
    # a drop's clearance beside them (case 1, its code from site -1): let_through asks each of the
    # drop's candidates (its clearance is `sift`'s) and lets the move's through as before
    mixed = ClearedChecks([check, check], [clearance, other], None, [True, False])
    assert mixed.distinct == (clearance,) and mixed.which == (0, 1) and mixed.cleared == (True, False)
    asked.clear()
    kept = [(0, 0, 3), (1, -1, 3), (0, 0, 1), (1, -1, 2)]
    let_through(None, kept, mixed, [])
    assert asked == [(1, -1, 3), (0, 0, 1), (1, -1, 2)]
    assert kept == [(0, 0, 3), (1, -1, 3), (0, 0, 1)]


def test_an_origin_is_not_asked_at_the_sites_only_a_landing_mover_fails():
    """A clearance's fifth item (the sites in its mask outside the terms only
    because a settled test there gives otherwise with a mover landing there):
    a candidate leaving one is let through where its destination misses the
    mask outside the terms and the runs reading either place (none here) give
    what they gave; one landing there is called — with one clearance and with two."""
    from types import SimpleNamespace

    from interpreter.runtime.terms import Runs

    asked: list[tuple[int, int, int]] = []

    def check(s, code, memo):
        asked.append(code)
        return False

    bits = (0b1, 0b10, 0b100, 0b1000, 0)  # (sites 0..3; the last for site -1)
    runs = Runs([(0b1000, lambda board, p, q: (False,), (), (False,))])  # (a run reading site 3)

    def landing(s, memo):  # (sites 1 and 2 in the mask, outside the terms; site 2 only for a landing mover)
        return (0b110, bits, 0, runs, 0b100)

    def other(s, memo):
        return (0b1000, bits, 0, runs, 0)

    def four(s, memo):
        return landing(s, memo)[:4]

    s = SimpleNamespace(board=[None] * 4, player=0)
    out = [(1, 2, 0), (1, 0, 2), (1, 1, 0), (1, 2, 3), (2, 2, 0), (2, 3, 0)]
    # one clearance: 2-0 and 2-3 leave site 2 for sites outside the mask (let through),
    # 0-2 lands on it, 1-0 leaves site 1 (called)
    kept = out[:]
    let_through(s, kept, ClearedChecks([None, check, check], [None, landing, landing], None, [False, True, True]), {})
    assert asked == [(1, 0, 2), (1, 1, 0)] and kept == out
    # without the fifth item each move meeting the mask is called
    asked.clear()
    let_through(s, out[:], ClearedChecks([None, check, check], [None, four, four], None, [False, True, True]), {})
    assert asked == [(1, 2, 0), (1, 0, 2), (1, 1, 0), (1, 2, 3), (2, 2, 0)]
    # two clearances: case 2's mask is site 3 alone: 2-0 let through at once, 2-3 called
    asked.clear()
    kept = out[:]
    let_through(s, kept, ClearedChecks([None, check, check], [None, landing, other], None, [False, True, True]), {})
    assert asked == [(1, 0, 2), (1, 1, 0), (2, 3, 0)] and kept == out
    asked.clear()
    let_through(s, out[:], ClearedChecks([None, check, check], [None, four, other], None, [False, True, True]), {})
    assert asked == [(1, 2, 0), (1, 0, 2), (1, 1, 0), (1, 2, 3), (2, 3, 0)]


def test_a_case_whose_candidates_the_runs_may_not_let_through_is_called():
    """`ClearedChecks.moved` false for a case (a promotion sharing the plain
    moves' clearance: the runs would move the piece as it is): its candidates
    meeting the mask only at sites the terms alone read are called, where the
    plain case's are let through by the runs — with one clearance and with two
    giving the same runs; its candidates missing the mask are let through."""
    from types import SimpleNamespace

    from interpreter.runtime.terms import Runs

    asked: list[tuple[int, int, int]] = []

    def check(s, code, memo):
        asked.append(code)
        return False

    bits = (0b1, 0b10, 0b100, 0b1000, 0)  # (sites 0..3; the last for site -1)
    runs = Runs([(0b1000, lambda board, p, q: (False,), (), (False,))])  # (a run reading site 3: holds)

    def shared(s, memo):  # (the mask: site 3, read by the terms alone)
        return (0b1000, bits, 0b1000, runs)

    def other(s, memo):
        return (0b1000, bits, 0b1000, runs)

    s = SimpleNamespace(board=[None] * 4, player=0)
    out = [(1, 2, 3), (2, 2, 3), (2, 1, 0), (1, 3, 1)]
    for second in (shared, other):
        for unmoved, called in (([False, False, True], [(2, 2, 3)]), (None, [])):
            asked.clear()
            kept = out[:]
            let_through(s, kept, ClearedChecks([None, check, check], [None, shared, second], None,
                                               [False, True, True], unmoved), {})
            assert asked == called and kept == out


def test_moving_failures_marks_the_settled_sites_a_test_gives_otherwise_at():
    from interpreter.runtime.helpers import _NotedTests, moving_failures
    from interpreter.runtime.point_masks import MaskedTests

    def enemy(pc, p, q):  # (an enemy piece there?)
        return pc is not None and pc[0] == q

    def kind_one(pc, p, q):  # (a piece of kind 1 there?)
        return pc is not None and pc[1] == 1

    mine = ((0, 0, None), (0, 1, None))  # (player 0's pieces of kinds 0 and 1)
    # notes (site, test, what it gave, plain, on empty): enemy failed at 1 and 2, held at 3;
    # kind_one failed at 4; site 2 unsettled, site 5 read
    notes = [(1, enemy, False, True, False), (2, enemy, False, True, False), (3, enemy, True, True, False),
             (4, kind_one, False, True, False), (5, enemy, False, True, False)]
    read, tested, unsettled = 1 << 5, 0b11110, 1 << 2
    # enemy gives False with each of them: fine at 1, otherwise at 3; kind_one gives True with kind 1: 4
    noted = (False, read, tested, _NotedTests(notes, read), unsettled)
    assert moving_failures(noted, mine, 0, 1) == 0b11000
    assert noted[3][3] == [(enemy, True)]  # (its notes sorted by site: asked from the table)
    assert moving_failures((False, read, tested, noted[3], unsettled), mine, 0, 1) == 0b11000
    # the same as bitmasks: enemy held at 3, failed at 1, 2
    masked = (False, read, tested, MaskedTests(notes[3:4], [(enemy, 1 << 3, 0b110, False)], read), unsettled)
    assert moving_failures(masked, mine, 0, 1) == 0b11000
    assert moving_failures(masked, ((0, 0, None),), 0, 1) == 0b01000


def test_moved_holds_asks_the_runs_reading_either_place():
    from interpreter.runtime.terms import Runs, moved_holds

    def first(board, p, q, line):  # (a term's run: whether the first piece along `line` is an enemy)
        for site in line:
            if board[site] is not None:
                return (board[site][0] == q,)
        return (False,)

    board: list = [None] * 10
    board[2] = (0, 0, None)  # (the player's pieces at 2 and 9, the enemy's at 6)
    board[9] = (0, 0, None)
    board[6] = (1, 0, None)
    # (sites read, function, inputs, outputs), as a listing's entry keeps them
    shut = (1 << 2, first, ((2, 3, 6),), (False,))  # (stops at 2)
    open_line = (1 << 4 | 1 << 5, first, ((4, 5),), (False,))  # (reads 4 and 5, finds nothing)
    facing = (1 << 7 | 1 << 6, first, ((7, 6),), (True,))  # (finds the enemy on 6)
    runs = Runs([shut, open_line, facing])
    assert runs == [shut, open_line, facing]
    assert runs.at == {2: [shut], 4: [open_line], 5: [open_line], 6: [facing], 7: [facing]}
    before = list(board)
    assert not moved_holds(runs, board, 2, 8, 0, 1)  # (2 left: the line finds the enemy behind)
    assert moved_holds(runs, board, 9, 4, 0, 1)  # (onto 4: the open line stops there, at the player's piece)
    assert not moved_holds(runs, board, 9, 7, 0, 1)  # (onto 7: the piece now stands before the enemy)
    assert moved_holds(runs, board, 9, 8, 0, 1)  # (nothing read either place)
    assert not moved_holds(runs, board, 9, 9, 0, 1)  # (no move: left to the check)
    asked = []

    def counted(board, p, q, line):
        asked.append(line)
        return first(board, p, q, line)

    both = (1 << 2 | 1 << 3, counted, ((3, 2),), (False,))  # (reads 3 and 2)
    assert moved_holds(Runs([both]), board, 2, 3, 0, 1) and asked == [(3, 2)]  # (read at both places: asked once)
    assert board == before


def test_moved_holds_keeps_its_answer_while_the_sites_read_hold_the_same():
    from interpreter.runtime.terms import Runs, moved_holds

    asked = []

    def first(board, p, q, line):  # (whether the first piece along `line` is an enemy)
        asked.append(line)
        for site in line:
            if board[site] is not None:
                return (board[site][0] == q,)
        return (False,)

    board: list = [None] * 10
    board[2] = (0, 0, None)  # (the player's piece on 2 shields the line from 6 on)
    runs = Runs([(1 << 2, first, ((2, 3, 6, 7),), (False,))])
    assert moved_holds(runs, board, 2, 8, 0, 1) and len(asked) == 1  # (2 left: 3, 6, 7 empty)
    assert moved_holds(runs, board, 2, 8, 0, 1) and len(asked) == 1  # (kept: the same pieces read)
    assert moved_holds(runs, board, 2, 8, 1, 0) and len(asked) == 2  # (other players: asked)
    board[9] = (1, 0, None)  # (a site the line does not read: still kept)
    assert moved_holds(runs, board, 2, 8, 0, 1) and len(asked) == 2
    board[6] = (1, 0, None)  # (an enemy on the line: asked again, and the line finds it)
    assert not moved_holds(runs, board, 2, 8, 0, 1) and len(asked) == 3
    assert not moved_holds(runs, board, 2, 8, 0, 1) and len(asked) == 3
    board[2] = (0, 1, None)  # (another piece moving from 2: asked again)
    assert not moved_holds(runs, board, 2, 8, 0, 1) and len(asked) == 4
    board[3] = (0, 0, None)  # (the player's piece on 3 now shields the line)
    assert moved_holds(runs, board, 2, 8, 0, 1) and len(asked) == 5
    assert moved_holds(runs, board, 2, 3, 0, 1) and len(asked) == 6  # (onto 3: another move, asked)
    board[6] = None  # (read by neither answer kept)
    assert moved_holds(runs, board, 2, 8, 0, 1) and moved_holds(runs, board, 2, 3, 0, 1) and len(asked) == 6
    assert board[2] == (0, 1, None) and board[8] is None  # (the board as it was)


def _named(found):
    """What a clearance gave, its terms' runs with their functions' names (two games' functions differ)."""
    if found is None or len(found) < 4:
        return found
    return (*found[:3], [(run[0], run[1].__name__, *run[2:]) for run in found[3]])


def test_a_move_clearance_gives_again_what_it_gave_for_the_same_entries(monkeypatch):
    """What a move's clearance gives is kept by player with the entries it was
    made of (compilation/clearances.py, `_kept_by_entries`): the same object while
    the entries found are the same, equal to what one made afresh gives (the
    answers not kept across listings: every entry new) along seeded games."""
    from interpreter.compilation import result_reuse
    from interpreter.runtime.helpers import _no_answer

    on = load_game(CHESS)
    monkeypatch.setattr(result_reuse, "KEPT_ACROSS", False)
    off = load_game(CHESS)
    monkeypatch.undo()
    given_again = 0
    for seed in range(2):
        rng = random.Random(seed)
        s = on.engine.initial_state()
        for _ in range(40):
            legal = on.engine.legal(s)
            if not legal:
                break
            row_on, row_off = on.rules.result_checks[s.phase], off.rules.result_checks[s.phase]
            assert len(row_on.distinct) == len(row_off.distinct) > 0
            for mine, fresh in zip(row_on.distinct, row_off.distinct):
                found = mine(s, defaultdict(_no_answer))
                assert _named(found) == _named(fresh(s, defaultdict(_no_answer)))
                again = mine(s, defaultdict(_no_answer))
                assert again == found
                given_again += again is found
            on.engine.apply_in_place(s, rng.choice(list(legal)))
    assert given_again > 100


def test_site_kinds_tell_by_site_what_let_through_asks():
    """`site_kinds`: by site, whether its bits meet the mask (MASKED) and the
    part of it outside the terms (OUTSIDE; an origin's only where `leaving`
    asks it), the rows kept for the same masks and table."""
    from interpreter.runtime.clearances import MASKED, OUTSIDE, site_kinds

    bits = (0b1, 0b10, 0b100, 0b1000, 0b11, 0)  # (sites 0..3, one of two bits, the last for site -1)
    # mask: sites 1, 2, 3; outside the terms: 1 and 3; an origin asked at 1 alone (3 only for a landing)
    from_row, onto_row = site_kinds(bits, 0b1110, 0b1010, ~0b1000)
    assert from_row == (0, MASKED | OUTSIDE, MASKED, MASKED, MASKED | OUTSIDE, 0)
    assert onto_row == (0, MASKED | OUTSIDE, MASKED, MASKED | OUTSIDE, MASKED | OUTSIDE, 0)
    assert site_kinds(bits, 0b1110, 0b1010, ~0b1000) == (from_row, onto_row)
    assert site_kinds(bits, 0b1110, 0b1010, ~0b1000)[0] is from_row  # (kept, not made again)
    # every site of the mask outside the terms (no terms): met or not, nothing between
    assert site_kinds(bits, 0b110, 0b110) == ((0, 3, 3, 0, 3, 0), (0, 3, 3, 0, 3, 0))
    assert site_kinds(list(bits), 0b110, 0b110) == site_kinds(bits, 0b110, 0b110)  # (another table alike)


def test_move_clearances_giving_different_tables_are_asked_each_with_its_own():
    """Two cases whose move clearances give different tables of the sites' bits
    (`_how`'s answer by clearance): a candidate is let through where its origin and
    destination miss its own clearance's mask in its own table, the others asked of
    the check."""
    asked = []

    def check(s, code, memo):
        asked.append(code)
        return code[2] == 3  # (forbidden: a move onto site 3)

    table_a = (0b1, 0b10, 0b100, 0b1000, 0)  # (sites 0..3; the last for site -1)
    table_b = (0b1000, 0b100, 0b10, 0b1, 0)  # (the same bits, the sites the other way round)
    checks = ClearedChecks([check, check], [lambda s, memo: (0b1000, table_a), lambda s, memo: (0b1000, table_b)],
                           moves=[True, True])
    assert len(checks.distinct) == 2
    out = [(0, 1, 2), (0, 1, 3), (1, 1, 2), (1, 2, 0), (1, 1, 3)]
    let_through(None, out, checks, {})
    # case 0 meets its mask only on site 3; case 1 (table_b) only on site 0
    assert asked == [(0, 1, 3), (1, 2, 0)]
    assert out == [(0, 1, 2), (1, 1, 2), (1, 2, 0), (1, 1, 3)]


def test_the_founds_before_the_last_are_followed_as_they_were(monkeypatch):
    """Two players' listings in turn (perft's last ply: a position, its children,
    its sibling): what follows from each one's founds (`_how`) is worked out
    once, the two kept, and each listing lets through what it did."""
    import interpreter.runtime.clearances as runtime_clearances

    worked_out = []
    how = runtime_clearances._how

    def spy(founds, which):
        worked_out.append(founds)
        return how(founds, which)

    monkeypatch.setattr(runtime_clearances, "_how", spy)
    table = (0b1, 0b10, 0b100, 0b1000, 0)  # (sites 0..3; the last for site -1)
    found = {0: (0b1000, table), 1: (0b0001, table)}  # (by player: the mask, site 3 or site 0)

    def check(s, code, memo):
        return True  # (every candidate asked is forbidden)

    checks = ClearedChecks([check, check], [lambda s, memo: found[s.player], lambda s, memo: (0b0100, table)],
                           moves=[True, True])
    out = [(0, 1, 2), (0, 1, 3), (1, 0, 1), (1, 1, 2)]
    players = [0, 1, 1, 0, 1, 0, 0, 1]
    for player in players:
        listed = list(out)
        let_through(type("S", (), {"player": player})(), listed, checks, {})
        # (player 0: case 0 meets its mask onto 3, case 1 onto 2; player 1: case 0 from 0 — none)
        assert listed == ([(0, 1, 2), (1, 0, 1)] if player == 0 else [(0, 1, 2), (0, 1, 3), (1, 0, 1)])
    assert len(worked_out) == 2  # (one for each player's founds, however often they come back)
