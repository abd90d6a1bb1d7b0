"""A costly `where` that compares the candidate's sites with the sites it reads,
answered once per listing (compilation/compared_sites.py): the older chess's `where
safe` (benchmarks/older/chess: `attacked(king, opponent, from, to, c)`, `from`
counted as empty, `to` as taken) — exact on hand-checked positions where a wrongly
kept answer would let an illegal move through or drop a legal one, and on every
position of random games against the same listing without it."""
from __future__ import annotations

import random

import pytest

from interpreter import load_game
from interpreter.compilation import compared_sites
from tests.helpers import REPO

OLDER_CHESS = str(REPO / "benchmarks" / "older" / "chess")


@pytest.fixture(scope="module")
def older_chess():
    return load_game(OLDER_CHESS)


def _legal(game, board: str, player: str) -> list[str]:
    s = game.parse_position(f"rw1; game chess; ply 0; phase play; turn {player} move 0; board {board}")
    return sorted(game.legal_notations(s))


def _uses_kept_answers(game) -> bool:
    """Whether a lister asks a conjunct once per listing (the candidate's bits
    against the noted mask: `lN & (K[frm] | K[to])`)."""
    import ast

    for node in ast.walk(game.rules.module):
        if isinstance(node, ast.If) and isinstance(node.test, ast.BinOp) and isinstance(node.test.op, ast.BitAnd) \
                and isinstance(node.test.left, ast.Name) and node.test.left.id.startswith("l") \
                and {n.id for n in ast.walk(node.test.right) if isinstance(n, ast.Name)} >= {"frm", "to"}:
            return True
    return False


def test_the_older_chess_asks_its_safety_once_per_listing(older_chess, monkeypatch):
    assert _uses_kept_answers(older_chess)
    monkeypatch.setattr(compared_sites, "ENABLED", False)
    assert not _uses_kept_answers(load_game(OLDER_CHESS))


def test_a_pinned_piece_cannot_move(older_chess):
    # The bishop on e2 stands on the king's file: its moves are compared (`i == from`), asked again.
    assert _legal(older_chess, "e1=white.king e2=white.bishop e8=black.rook h8=black.king", "white") == \
        ["e1d1", "e1d2", "e1f1", "e1f2"]


def test_in_check_a_move_far_away_keeps_the_check(older_chess):
    # The pawn's moves touch none of the king's lines: the listing's answer (attacked) is kept.
    assert _legal(older_chess, "e8=black.king a7=black.pawn e1=white.rook h1=white.king", "black") == \
        ["e8d7", "e8d8", "e8f7", "e8f8"]


def test_a_check_is_blocked_on_the_ray(older_chess):
    # Of the bishop's moves only f8e7 lands on the checking file (an empty site of the ray: noted).
    assert _legal(older_chess, "e8=black.king f8=black.bishop e1=white.rook h1=white.king", "black") == \
        ["e8d7", "e8d8", "e8f7", "f8e7"]


def test_the_checking_rook_is_taken(older_chess):
    # The rook on e1 ends the ray (noted as the attacker): a1e1 takes it, a1 elsewhere does not help.
    assert _legal(older_chess, "e8=black.king a1=black.rook e1=white.rook h1=white.king", "black") == \
        ["a1e1", "e8d7", "e8d8", "e8f7", "e8f8"]


def test_the_checking_knight_is_taken(older_chess):
    # The knight on f6 is in the mask of the king's knight sites: g8f6 takes it; b8's moves keep the
    # check; the king may not step to d7, which the knight attacks too.
    assert _legal(older_chess, "e8=black.king g8=black.knight b8=black.knight f6=white.knight h1=white.king",
                  "black") == ["e8d8", "e8e7", "e8f7", "e8f8", "g8f6"]


def test_a_move_off_the_kings_line_that_is_no_pin(older_chess):
    # d2 stands on the king's diagonal, but nothing attacks along it: its moves are asked again and allowed.
    assert "d2d4" in _legal(older_chess, "e1=white.king d2=white.pawn e8=black.king", "white")


def _positions(game, games: int, plies: int, seed: int):
    rng = random.Random(seed)
    engine = game.engine
    for _ in range(games):
        s = engine.initial_state()
        for _ in range(plies):
            engine.settle(s)
            if s.result is not None or not s.legal:
                break
            yield s
            engine.apply_in_place(s, rng.choice(s.legal))


def test_random_games_list_and_count_as_without_it(older_chess, monkeypatch):
    # The same legal lists (in order) as the listers that ask every candidate, and
    # the perft counter (which asks it too) agrees with them.
    monkeypatch.setattr(compared_sites, "ENABLED", False)
    plain = load_game(OLDER_CHESS).engine
    engine = older_chess.engine
    compared = 0
    for s in _positions(older_chess, 6, 160, seed=3):
        legal = engine.legal(s.copy())
        assert legal == plain.legal(s.copy())
        count = engine.rules.decisions[s.decision].counted
        if count is not None:
            assert count(s.copy()) == len(legal)
        compared += 1
    assert compared > 300


def test_perft_from_the_start(older_chess):
    assert older_chess.engine.perft(older_chess.engine.initial_state(), 3) == [20, 400, 8902]


def _asks_parts_apart(game) -> bool:
    """Whether a lister asks a disjunct again by its own mask (`if lN & tM:`, tM the
    candidate's bits), compared_sites.ComparedSites.kept_parts."""
    import ast

    return any(isinstance(node, ast.If) and isinstance(node.test, ast.BinOp) and isinstance(node.test.op, ast.BitAnd)
               and isinstance(node.test.left, ast.Name) and node.test.left.id.startswith("l")
               and isinstance(node.test.right, ast.Name) for node in ast.walk(game.rules.module))


def test_the_attack_is_asked_again_part_by_part(older_chess):
    # `attacked` is an `or` of rays, knights, pawns and king: each part keeps its own mask.
    assert _asks_parts_apart(older_chess)


def test_blocking_one_check_of_two_is_not_enough(older_chess):
    # Double check (the rook on the e-file, the knight on f6): f8e7 blocks the ray (its part asked
    # again: not attacked) but the knight's part, kept, still attacks — or was not reached, and is asked.
    assert _legal(older_chess, "e8=black.king f8=black.bishop e1=white.rook f6=white.knight h1=white.king",
                  "black") == ["e8d8", "e8f7"]


def test_a_pin_on_one_ray(older_chess):
    # The bishop on b4 pins the knight on d2 (the diagonal's part asked again for its moves: attacked);
    # h2's moves touch no ray of the king.
    legal = _legal(older_chess, "e1=white.king d2=white.knight h2=white.pawn b4=black.bishop h8=black.king",
                   "white")
    assert not any(move.startswith("d2") for move in legal)
    assert "h2h3" in legal and "h2h4" in legal
