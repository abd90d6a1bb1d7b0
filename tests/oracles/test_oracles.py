"""The benchmark games against OpenSpiel (and python-chess): perft and random games.

Slow (REGELWERK_SLOW=1) and skipped without the `bench` extra. More games by hand:
`python -m benchmarks.oracle GAME --games 200 --seed 7` (see benchmarks/README.md).
"""
from __future__ import annotations

import dataclasses

import pytest

pyspiel = pytest.importorskip("pyspiel")
chess = pytest.importorskip("chess")

from benchmarks import oracle  # noqa: E402
from benchmarks.adapters import chess_state_from_fen  # noqa: E402
from benchmarks.catalog import GAMES  # noqa: E402

pytestmark = pytest.mark.slow

# Per game: perft depth from the start, perft depth at the mid-game positions
# (after 8 and 20 random moves, fixed by their seeds), random games compared.
BUDGET = {
    "connect_four": (5, 4, 60),
    "clobber": (3, 3, 60),
    "breakthrough": (3, 3, 40),
    "checkers": (6, 4, 40),
    "othello": (5, 4, 30),
    "kalah": (5, 4, 60),
    "amazons": (3, 3, 8),   # a move is three actions; perft counts actions
    "morris": (3, 3, 15),
    "chess": (3, 2, 12),
}
MIDGAME = ((8, 11), (20, 12))  # (moves, seed)


@pytest.fixture(scope="module", params=list(BUDGET))
def loaded(request):
    bench = GAMES[request.param]
    return bench, bench.load(), bench.load_spiel()


def regel_perft(bench, game, state, depth):
    return oracle.regel_perft(game.engine, state, depth, bench.adapter.forced_followups)


def test_budget_lists_every_benchmark_game():
    assert set(BUDGET) == set(GAMES)


def test_perft_from_the_start(loaded):
    bench, game, spiel_game = loaded
    depth = BUDGET[bench.name][0]
    expected = oracle.spiel_perft(spiel_game.new_initial_state(), depth)
    assert regel_perft(bench, game, game.engine.initial_state(), depth) == expected


@pytest.mark.parametrize("moves, seed", MIDGAME)
def test_perft_in_the_middle_game(loaded, moves, seed):
    bench, game, spiel_game = loaded
    match = oracle.replay(bench, moves, seed, game, spiel_game)
    depth = BUDGET[bench.name][1]
    expected = oracle.spiel_perft(match.spiel_state, depth)
    assert regel_perft(bench, game, match.state, depth) == expected


def test_random_games_agree_move_by_move(loaded):
    bench, game, spiel_game = loaded
    endings = {}
    for seed in range(BUDGET[bench.name][2]):
        match = oracle.random_game(bench, seed, game, spiel_game)
        endings[match.ended] = endings.get(match.ended, 0) + 1
    # Every game was followed to its end (or to a tolerated difference, chess only).
    assert "" not in endings
    if bench.name != "chess":
        assert set(endings) == {"over"}


# The standard perft positions (chessprogramming.org), counted by python-chess:
# castling through and out of check, en passant (also pinned), promotions.
CHESS_POSITIONS = [
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 2),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 2),
    ("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", 3),  # en passant, legal
    ("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", 2),  # en passant would expose the king
]


@pytest.mark.parametrize("fen, depth", CHESS_POSITIONS)
def test_chess_perft_positions(fen, depth):
    bench = GAMES["chess"]
    game = bench.load()
    state = chess_state_from_fen(game, fen)
    expected = oracle.chess_perft(chess.Board(fen), depth)
    assert regel_perft(bench, game, state, depth) == expected


def test_chess_perft_from_the_start_is_the_known_count():
    assert oracle.chess_perft(chess.Board(), 3) == 8902


def test_the_oracle_notices_a_wrong_rule(tmp_path):
    """A Breakthrough whose pieces cannot step diagonally must be caught."""
    bench = GAMES["breakthrough"]
    (tmp_path / "straight.yaml").write_text(
        f"variant: straight-only\nextends: {bench.definition}\nrules: straight.rules\n"
    )
    (tmp_path / "straight.rules").write_text("remove action move.diagonal\n")
    wrong = dataclasses.replace(bench, definition=str(tmp_path / "straight.yaml"))
    with pytest.raises(oracle.Disagreement, match="only OpenSpiel"):
        oracle.random_game(wrong, seed=0)
