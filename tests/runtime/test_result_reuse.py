"""`forbid result` answers of the listed position reused for the candidates that
cannot change them (compilation/result_reuse.py): exact on hand-checked chess
positions where a wrongly kept answer would let an illegal move through or drop
a legal one, and on every candidate of random positions of every game with
`forbid result`, against the same checks asked without reuse."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.runtime import helpers
from interpreter.runtime.helpers import result_filter
from tests.helpers import (
    REPO,
    checks_allow,
    drop_where,
    helper_calls,
    parent_answer_calls,
    stones_and_rocks,
    write_definition,
)
from tests.runtime.test_checks_in_place import DEFINITIONS, snapshot

CHESS = str(REPO / "docs" / "examples" / "chess")


def _legal(board: str, player: str) -> list[str]:
    game = load_game(CHESS)
    s = game.parse_position(f"rw1; game chess; ply 0; phase play; turn {player} move 0; board {board}")
    return sorted(game.legal_notations(s))


def test_a_pinned_piece_cannot_move():
    # The bishop on e2 shields its king from the rook on e8: it is read on the king's
    # file, so its moves are asked again (and forbidden).
    assert _legal("e1=white.king e2=white.bishop e8=black.rook h8=black.king", "white") == \
        ["e1d1", "e1d2", "e1f1", "e1f2"]


def test_in_check_only_the_king_moving_off_the_ray_is_legal():
    # The listed position is in check: a pawn move far away keeps that answer (and is
    # forbidden); e8e7 moves along the checking file (read): asked again, still in check.
    assert _legal("e8=black.king a7=black.pawn e1=white.rook h1=white.king", "black") == \
        ["e8d7", "e8d8", "e8f7", "e8f8"]


def test_a_check_is_blocked_on_the_ray():
    # Of the bishop's moves only f8e7 lands on the checking file; g7 and h6 keep the check.
    assert _legal("e8=black.king f8=black.bishop e1=white.rook h1=white.king", "black") == \
        ["e8d7", "e8d8", "e8f7", "f8e7"]


def test_en_passant_exposing_the_king_is_forbidden():
    # e5xd6 takes d5 off the board: neither e5 nor d6 is read by the king's lines, but
    # d5 (the rank's first piece) is, and the case clears it through its journal.
    assert _legal("a5=white.king e5=white.pawn d5=black.pawn[en_passant=1] h5=black.rook h8=black.king",
                  "white") == ["a5a4", "a5a6", "a5b4", "a5b5", "a5b6", "e5e6"]


def test_the_chess_likes_reuse_the_listed_positions_answer():
    for name in ("docs/examples/chess", "benchmarks/games/xiangqi", "docs/examples/chess/variants/crazyhouse.yaml"):
        assert parent_answer_calls(load_game(str(REPO / name))), name


@pytest.mark.parametrize("rules", [
    # the landing site: per candidate
    "forbid result where to == a1\n",
    # a variable: not followed
    "forbid result where n > 0\n",
])
def test_a_part_reading_the_action_or_the_variables_is_asked_for_each_candidate(tmp_path, rules):
    yaml = stones_and_rocks(extra="variables:\n  n: {type: int}\n")
    game = load_game(write_definition(tmp_path, yaml, drop_where("true", "place\nn = 1", before=rules)))
    assert not parent_answer_calls(game)


def test_a_part_over_a_players_pieces_is_reused(tmp_path):
    # No stone of the mover's may have an enemy stone just north of it.
    rules = drop_where("true", before="forbid result where exists(pieces of player, it is stone and "
                                      "neighbour(it, n) is enemy)\n")
    game = load_game(write_definition(tmp_path, stones_and_rocks(), rules))
    assert parent_answer_calls(game)
    s = game.apply(game.apply(game.initial_state(), "a1"), "b2")
    # white's a1 is free (a2 empty): of the 14 empty sites only b1, under black's b2, is forbidden
    assert sorted(game.legal_notations(s)) == sorted(
        f"{file}{rank}" for file in "abcd" for rank in "1234" if f"{file}{rank}" not in ("a1", "b2", "b1"))
    s = game.apply(game.apply(game.initial_state(), "a1"), "a2")
    # white's a1 has black's a2 north of it whatever white drops (kept from the listed position)
    assert game.legal_notations(s) == []


@pytest.mark.parametrize("path", DEFINITIONS, ids=lambda p: Path(p).stem)
def test_reused_answers_agree_with_asking_each_candidate(path):
    engine = load_game(path).engine
    rng = random.Random(11)
    compared = 0
    for _ in range(3):
        s = engine.initial_state()
        for _ in range(60):
            if engine.is_over(s):
                break
            decision = engine.decisions[s.decision]
            if not decision.is_chance and decision.candidates is not None:
                checks = engine.rules.result_checks[s.phase]
                candidates = list(decision.candidates(s))
                before = snapshot(s)
                asked = checks_allow(s, candidates, checks)
                reused = list(candidates)
                result_filter(s, reused, checks)
                assert snapshot(s) == before, (path, s.ply)
                assert reused == asked, (path, s.ply)
                compared += len(candidates)
            engine.apply_in_place(s, engine.pick_random(s, rng))
    assert compared > 0


def test_a_rule_failing_on_the_listed_position_only_is_asked_per_candidate(tmp_path, monkeypatch):
    monkeypatch.setattr(helpers, "MEMO_FROM", 1)  # (one candidate here)
    # White's a1 has a stone north of it: the condition divides by zero on the listed
    # position. The one candidate, a3, removes a2 first: its position is fine.
    condition = "exists(pieces of player, it is stone and 4 // (1 if neighbour(it, n) is empty else 0) > 9)"
    rules = drop_where("neighbour(to, s) is enemy", "place\nremove neighbour(to, s)",
                       before=f"forbid result where {condition}\n")
    game = load_game(write_definition(tmp_path, stones_and_rocks(), rules))
    assert parent_answer_calls(game)
    s = game.parse_position("rw1; game probe; ply 2; phase play; turn white place 0; board a1=white.stone "
                            "a2=black.stone")
    assert game.legal_notations(s) == ["a3"]


def _guards(code: str):
    import ast

    from interpreter.compilation.result_reuse import writes_of_mover
    found = writes_of_mover(ast.parse(code).body)
    return None if found is None else [ast.unparse(guard) for guard in found]


def test_a_move_writing_only_its_two_places_needs_no_test():
    assert _guards("b[at] = None\no[pc[0]].remove(at)\nb[to] = pc\no[pc[0]].append(to)\nat = to\n"
                   "x0 = (pc[0], pc[1], pc[2], True)\nb[at] = x0\nv[0] += 1") == []


def test_writes_elsewhere_are_answered_before_only_under_a_test_of_the_moving_piece():
    # (clearing castling rights when a king moves; a promotion on the last rank)
    castling = "b[to] = pc\nif (pc or k0)[1] == 5:\n    for l1 in t0:\n        b[l1] = None\n"
    assert _guards(castling) == ["(pc or k0)[1] == 5"]
    promotion = "b[to] = pc\nat = to\nif k38[p][to]:\n    x0 = b[at] = (pc[0], k41[x1]) + pc[2:]\n    pc = x0\n"
    assert _guards(promotion) == ["k38[p][to]"]
    # after the promotion (when it happens) pc is not the mover's kind: but the check answers
    # before the case only when it does not happen
    assert _guards(promotion + castling.replace("b[to] = pc\n", "")) == ["k38[p][to]", "(pc or k0)[1] == 5"]


# (a promotion as `promote piece to K` writes it after the move, K's index 9)
PROMOTING = ("b[at] = None\no[pc[0]].remove(at)\nx0 = b[to]\nif x0 is not None:\n    o[x0[0]].remove(to)\n"
             "b[to] = pc\no[pc[0]].append(to)\nat = to\nx0 = b[at]\nif x0 is not None:\n"
             "    t1 = (x0[0], 9) + x0[2:]\n    x0 = t1\n    b[at] = t1\n    if at == at:\n        pc = x0\n")


def test_a_promotion_leaves_a_piece_of_the_movers_owner_and_the_kind_promoted_to():
    import ast

    from interpreter.compilation.result_reuse import Promoted, places_after_mover, promotion_of_mover
    code = ast.parse(PROMOTING).body
    assert _guards(PROMOTING) is None  # (not the mover's kind: the check must know which)
    assert promotion_of_mover(code) == ([], 9)
    assert places_after_mover(code) == {"frm": False, "to": Promoted(9)}


@pytest.mark.parametrize("code", [
    PROMOTING.replace("x0 = b[at]\n", "x0 = b[t5]\n"),  # the piece of another site
    PROMOTING.replace("if x0 is not None:\n    t1", "if k38[p][to]:\n    t1"),  # only on some sites
    PROMOTING.replace("(x0[0], 9)", "(x0[0], k41[t2])"),  # a kind not known
    PROMOTING.replace("(x0[0], 9)", "(p, 9)"),  # an owner not the mover's
    PROMOTING + "b[to] = (pc[0], 8)",  # two kinds
])
def test_what_is_no_promotion_of_the_mover(code):
    import ast

    from interpreter.compilation.result_reuse import promotion_of_mover
    assert promotion_of_mover(ast.parse(code).body) is None


SHOGI = str(REPO / "benchmarks" / "outsiders" / "shogi")
_SHOGI_HANDS = ("; variables checks=black:0,white:0; pools pawns=black:0,white:0 lances=black:0,white:0 "
                "knights=black:0,white:0 silvers=black:0,white:0 golds=black:0,white:0 bishops=black:0,white:0 "
                "rooks=black:0,white:0")


@pytest.mark.parametrize("board, legal, played", [
    # In check from the rook on e9: the bishop's promotions onto f8 and g9 leave the check as the listed
    # position's answer has it (a horse there changes nothing the check reads): answered before playing;
    # onto e7 it blocks the rook's line the check read — played.
    ("e1=black.king e9=white.rook a9=white.king b4=black.bishop",
     ["b4e7", "b4e7+", "e1d1", "e1d2", "e1f1", "e1f2"], ["b4e7"]),
    # The bishop on e5 is pinned (its promotions too: played, their origin read by the line); the one on a4
    # promotes freely (answered before playing).
    ("e1=black.king e9=white.rook a9=white.king e5=black.bishop a4=black.bishop",
     ["a4b3", "a4b5", "a4c2", "a4c6", "a4d1", "a4d7", "a4d7+", "a4e8", "a4e8+", "a4f9", "a4f9+",
      "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"], ["e5a9", "e5b8", "e5c7", "e5g7", "e5h8", "e5i9"]),
])
def test_a_promotions_check_is_answered_before_playing_it(board, legal, played, monkeypatch):
    import sys

    from interpreter.compilation import clearances

    monkeypatch.setattr(clearances, "MOVES", False)  # (else the clearance lets them through uncalled)
    game = load_game(SHOGI)
    checks = [c for phase in game.engine.rules.result_checks for c in phase if c is not None]
    namespace = checks[0].__globals__
    promoting = {name for name, origin in game.rules.source_map.items()
                 if "bishop_promote" in str(origin) and "forbid result" in str(origin)}
    assert promoting
    names = game.rules.site_names
    moves: list[str] = []
    real = namespace["h_undo_sites"]  # (undoing the case: the check played it)

    def spy(*args):
        check = sys._getframe(1)
        if check.f_code.co_name in promoting:
            moves.append(names[check.f_locals["frm"]] + names[check.f_locals["to"]])
        return real(*args)

    monkeypatch.setitem(namespace, "h_undo_sites", spy)
    # (a position read is settled: its listing, and its checks, come with it)
    s = game.parse_position(f"rw2; game shogi; ply 0; phase play; turn black move 0; board {board}{_SHOGI_HANDS}")
    assert sorted(game.legal_notations(s)) == legal
    assert sorted(moves) == played


def test_a_drops_check_asks_the_terms_before_playing_it(monkeypatch):
    # Black's pawn on e5 shields the king from the rook on e9; black has a silver in hand. A drop onto the
    # king's lines (e2-e4, the first rank, the diagonals: read by the check's terms alone) leaves them
    # as they were: answered before playing, with the silver set there and taken back (19 drops were
    # played whole before); every drop is legal.
    import sys

    from interpreter.compilation import clearances

    monkeypatch.setattr(clearances, "ENABLED", False)  # (else the clearance lets the unread ones through)
    game = load_game(SHOGI)
    checks = [c for phase in game.engine.rules.result_checks for c in phase if c is not None]
    namespace = checks[0].__globals__
    dropping = {name for name, origin in game.rules.source_map.items()
                if "silver_drop" in str(origin) and "forbid result" in str(origin)}
    assert dropping
    names = game.rules.site_names
    played: list[str] = []
    real = namespace["h_undo_sites"]  # (undoing the case: the check played it)

    def spy(*args):
        check = sys._getframe(1)
        if check.f_code.co_name in dropping:
            played.append(names[check.f_locals["to"]])
        return real(*args)

    monkeypatch.setitem(namespace, "h_undo_sites", spy)
    occupied = {"e1", "e5", "e9", "a9"}
    s = game.parse_position("rw2; game shogi; ply 0; phase play; turn black move 0; board e1=black.king "
                            "e5=black.pawn e9=white.rook a9=white.king"
                            + _SHOGI_HANDS.replace("silvers=black:0", "silvers=black:1"))
    assert sorted(game.legal_notations(s)) == sorted(
        [f"S*{name}" for name in names[:81] if name not in occupied]
        + ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e5e6"])
    assert played == []


@pytest.mark.parametrize("code", [
    "b[to] = pc\nb[t0] = None",  # a write elsewhere, always
    "b[to] = (pc[0], 3)",  # a piece of another kind
    "b[to] = pc\nif b[t0] is None:\n    b[t0] = pc",  # under a test of the board
    "b[to] = pc\nh_end(s, 1)",  # a helper
    "to = t0\nb[to] = pc",  # `to` set again
    "pc = b[t0]\nb[to] = pc",  # another piece
])
def test_what_cannot_be_answered_before_the_case(code):
    assert _guards(code) is None


# ---------------------------------------------------------------- point tests
def test_a_knight_taken_on_a_knight_square_lifts_the_check():
    # The knight on d3 checks: its square is read by a point test (an enemy knight
    # there?) that the pawn's capture changes, so c2d3 is asked again (legal); a2a3
    # and c2c3 leave the test as it was and keep the check (forbidden).
    assert _legal("e1=white.king d3=black.knight c2=white.pawn a2=white.pawn h8=black.king", "white") == \
        ["c2d3", "e1d1", "e1d2", "e1e2", "e1f1"]


def test_a_rook_taken_off_the_kings_diagonal_keeps_no_check():
    # The black rook on c6 is the first piece on the king's diagonal (a point test: an
    # enemy bishop or queen there? no) — taking it with the bishop leaves that answer;
    # the rook on e8 pins nothing: the king is free.
    assert "a4c6" in _legal("e8=black.king c6=black.rook a4=white.bishop e1=white.king", "white")
    # a queen there instead checks along the diagonal: only moves that meet the check
    assert _legal("e8=black.king c6=white.queen a8=black.rook h1=white.king", "black") == \
        ["e8d8", "e8e7", "e8f7", "e8f8"]


def _answered_early(game, s, monkeypatch) -> list[tuple[int, int]]:
    """The (from, to) of the moves a listing of `s` answered before playing them
    through its point tests (h_tests_hold_moving giving True)."""
    checks = [c for phase in game.engine.rules.result_checks for c in phase if c is not None]
    namespace = checks[0].__globals__
    answered: list[tuple[int, int]] = []
    real = namespace["h_tests_hold_moving"]

    def spy(entry, sites, mover, p, q):
        kept = real(entry, sites, mover, p, q)
        if kept:
            answered.append(tuple(sites))
        return kept

    monkeypatch.setitem(namespace, "h_tests_hold_moving", spy)
    game.engine.settle(s)
    return answered


def test_a_pawn_on_a_knight_square_moves_without_being_played(monkeypatch):
    # c7 and f6 are squares a knight would check e8 from (point tests: an enemy knight
    # there?): the pawn leaving c7, a knight landing on f6 change nothing they ask, and
    # neither square is on the king's lines (d7 closes the diagonal). (The moves' clearances,
    # which let these through uncalled — tests/runtime/test_move_clearances.py —, switched off.)
    from interpreter.compilation import clearances

    monkeypatch.setattr(clearances, "MOVES", False)
    game = load_game(CHESS)
    s = game.parse_position("rw1; game chess; ply 0; phase play; turn black move 0; board e8=black.king "
                            "d7=black.pawn c7=black.pawn d5=black.knight a7=black.pawn e1=white.king")
    names = game.engine.rules.site_names
    answered = {(names[a], names[b]) for a, b in _answered_early(game, s, monkeypatch)}
    assert {("c7", "c6"), ("c7", "c5"), ("d5", "f6")} <= answered
    assert sorted(game.legal_notations(s)) == sorted(
        ["a7a6", "a7a5", "c7c6", "c7c5", "d7d6", "d5b4", "d5b6", "d5c3", "d5e3", "d5f4", "d5f6", "d5e7",
         "e8d8", "e8f8", "e8e7", "e8f7"])


def test_chess_records_point_tests(monkeypatch):
    from interpreter.compilation import result_reuse

    assert helper_calls(load_game(CHESS), "h_tests_hold_moving", "forbid result")
    monkeypatch.setattr(result_reuse, "POINT_TESTS", False)
    assert not helper_calls(load_game(CHESS), "h_tests_hold_moving", "forbid result")


@pytest.mark.parametrize("name", ["docs/examples/chess", "docs/examples/chess/variants/crazyhouse.yaml",
                                  "docs/examples/chess/variants/king-of-the-hill.yaml",
                                  "benchmarks/games/xiangqi"])
def test_point_tests_agree_with_reads_of_their_sites(name, monkeypatch):
    # The same legal actions with point tests recorded as tests and as reads of their
    # sites, on every position of random games (captures, promotions, castling, drops).
    from interpreter.compilation import result_reuse

    path = str(REPO / name)
    game = load_game(path)
    assert helper_calls(game, "h_tests_hold_moving", "forbid result")
    tested = game.engine
    monkeypatch.setattr(result_reuse, "POINT_TESTS", False)
    read = load_game(path).engine
    rng = random.Random(5)
    compared = 0
    for _ in range(4):
        s, t = tested.initial_state(), read.initial_state()
        for _ in range(120):
            if tested.is_over(s):
                assert read.is_over(t)
                break
            assert list(tested.legal(s)) == list(read.legal(t)), (name, s.ply)
            compared += 1
            code = rng.choice(list(tested.legal(s)))
            tested.apply_in_place(s, code)
            read.apply_in_place(t, code)
    assert compared > 100


def test_point_tests_only_where_the_value_is_a_truth_value():
    # `t1` (an `if not` reads it) and the operands of the answer's `or` are truth values:
    # a test of one site there stands for its outcome; `t2` indexes a table (its value
    # counts), and `t5` is read by `t6`, whose value is the answer's key: neither may.
    import ast

    from interpreter.compilation import result_reuse

    lines = ast.parse("t1 = b[i0][1] == 3\nt2 = b[i1][1] == 4\nt3 = k5[t2]\nif not t1:\n    t4 = True\n"
                      "t5 = b[i2][1] == 2\nt6 = k6[t5 or t3]").body
    code = ast.parse("t3 or t4 or b[i3][1] == 1 or t6", mode="eval").body
    truth = result_reuse._truth_only(lines, code)
    assert id(lines[0].value) in truth
    assert id(lines[1].value) not in truth and id(lines[4].value) not in truth
    assert id(code.values[2]) in truth
    assert all(id(value) in truth for value in code.values)


def test_xiangqi_answers_moves_by_the_point_tests_of_its_expressions(monkeypatch):
    # Xiangqi's horse and soldier squares are asked inside `or`s and assignments, not
    # `if`s: recorded as point tests, a move leaving or entering one is answered early.
    from interpreter.compilation import result_reuse

    xiangqi = str(REPO / "benchmarks" / "games" / "xiangqi")
    assert helper_calls(load_game(xiangqi), "h_tests_hold_moving", "forbid result")
    monkeypatch.setattr(result_reuse, "POINT_TESTS", False)
    assert not helper_calls(load_game(xiangqi), "h_tests_hold_moving", "forbid result")
