"""The overlays on the chess example against python-chess's variant boards: random
games compared move by move (every legal list equal, every game ending alike).

Slow (REGELWERK_SLOW=1) and skipped without python-chess (the `bench` extra).
"""
from __future__ import annotations

import random

import pytest

BENCH = "python-chess is the bench extra: pip install -e '.[bench]'"
chess = pytest.importorskip("chess", reason=BENCH)

import chess.variant as variant  # noqa: E402

from interpreter import load_game  # noqa: E402
from tests.helpers import REPO  # noqa: E402

pytestmark = pytest.mark.slow

VARIANTS = REPO / "docs" / "examples" / "chess" / "variants"
ANTICHESS = VARIANTS / "antichess.yaml"


def test_antichess_agrees_with_python_chess_move_by_move():
    game = load_game(str(ANTICHESS))
    endings: dict[str, int] = {}
    for seed in range(200):
        rng = random.Random(seed)
        board = variant.AntichessBoard()
        state = game.initial_state()
        while not game.is_terminal(state):
            legal = sorted(game.legal_notations(state))
            assert legal == sorted(m.uci() for m in board.legal_moves), f"seed {seed}: {board.fen()}"
            move = rng.choice(legal)
            state = game.apply(state, move)
            board.push_uci(move)
        result = game.result(state)
        if result.winner is None:
            # Threefold repetition or the fifty-move rule, enforced at once.
            assert board.is_repetition(3) or board.halfmove_clock >= 100, f"seed {seed}: {board.fen()}"
            endings["draw"] = endings.get("draw", 0) + 1
        else:
            # The player to move has no legal move (no piece left, or stalemated) and wins.
            assert board.is_variant_win() and result.winner == ("white" if board.turn else "black"), board.fen()
            endings["win"] = endings.get("win", 0) + 1
    assert endings.get("win", 0) > 100, endings


def test_king_of_the_hill_agrees_with_python_chess_move_by_move():
    game = load_game(str(VARIANTS / "king-of-the-hill.yaml"))
    endings: dict[str, int] = {}
    for seed in range(150):
        rng = random.Random(seed)
        board = variant.KingOfTheHillBoard()
        state = game.initial_state()
        while not game.is_terminal(state):
            legal = sorted(game.legal_notations(state))
            assert legal == sorted(m.uci() for m in board.legal_moves), f"seed {seed}: {board.fen()}"
            move = rng.choice(legal)
            state = game.apply(state, move)
            board.push_uci(move)
        mover = "black" if board.turn else "white"  # the side that has just moved
        if board.is_variant_end() or board.is_checkmate():
            why, expected = ("hill" if board.is_variant_end() else "mate"), mover
        else:
            assert board.is_stalemate() or board.is_repetition(3) or board.halfmove_clock >= 100, board.fen()
            why, expected = "draw", None
        assert game.result(state).winner == expected, f"seed {seed}: {board.fen()}"
        endings[why] = endings.get(why, 0) + 1
    assert endings.get("hill", 0) > 50 and endings.get("mate", 0) > 5, endings
