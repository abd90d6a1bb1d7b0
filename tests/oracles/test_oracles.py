"""The benchmark games against OpenSpiel (and python-chess): perft and random games.

Slow (REGELWERK_SLOW=1) and skipped without the `bench` extra. More games by hand:
`python -m benchmarks.oracle GAME --games 200 --seed 7` (see benchmarks/README.md).
"""
from __future__ import annotations

import dataclasses
import os
import shutil

import pytest

pyspiel = pytest.importorskip("pyspiel")
chess = pytest.importorskip("chess")

from benchmarks import oracle  # noqa: E402
from benchmarks.adapters import chess_state_from_fen  # noqa: E402
from benchmarks.catalog import GAMES  # noqa: E402
from interpreter.analysis.perft import perft  # noqa: E402

pytestmark = pytest.mark.slow

# Per game: perft depth from the start, perft depth at the mid-game positions
# (after 8 and 20 random moves, fixed by their seeds), random games compared. A
# move is what OpenSpiel plays as one action (backgammon: two regelwerk actions;
# a roll with its two orders once; the last level is counted, not played).
BUDGET = {
    "connect_four": (5, 4, 60),
    "clobber": (3, 3, 60),
    "breakthrough": (3, 3, 40),
    "checkers": (6, 4, 40),
    "othello": (5, 4, 30),
    "kalah": (5, 4, 60),
    "amazons": (3, 2, 8),   # perft counts regelwerk's actions: a move, then a shot
    "morris": (3, 3, 15),
    "chess": (3, 3, 40),
    "go": (3, 2, 60),
    "pentago": (3, 2, 60),
    "xiangqi": (3, 2, 15),
    "lines_of_action": (3, 2, 40),
    "quoridor": (2, 2, 20),
    "backgammon": (3, 2, 60),
    "antichess": (4, 3, 60),
    "crazyhouse": (3, 2, 10),
}
MIDGAME = ((8, 11), (20, 12))  # (moves, seed)

# Games that OpenSpiel ends in a draw when a board recurs whoever is to move: the
# format counts a position with the player to move, so a board recurring with the
# other player to move ends only OpenSpiel's game (oracle.BoardRepeated). Per
# game: the random games to measure the gap on and the largest share of them
# allowed to end so (measured: Go 4 of 2,000 games, Lines of Action 6 of 500).
BOARD_REPETITION = {"go": (1000, 0.006), "lines_of_action": (200, 0.03)}


@pytest.fixture(scope="module", params=list(BUDGET))
def loaded(request):
    bench = GAMES[request.param]
    return bench, bench.load(), bench.load_spiel()


def test_budget_lists_every_benchmark_game():
    assert set(BUDGET) == set(GAMES)


def test_perft_from_the_start(loaded):
    bench, game, spiel_game = loaded
    depth = BUDGET[bench.name][0]
    expected = oracle.spiel_perft(bench.adapter, spiel_game.new_initial_state(), depth)
    assert oracle.regel_perft(game.engine, game.engine.initial_state(), depth, bench.adapter) == expected


@pytest.mark.parametrize("moves, seed", MIDGAME)
def test_perft_in_the_middle_game(loaded, moves, seed):
    bench, game, spiel_game = loaded
    match = oracle.replay(bench, moves, seed, game, spiel_game)
    depth = BUDGET[bench.name][1]
    expected = oracle.spiel_perft(bench.adapter, match.spiel_state, depth)
    assert oracle.regel_perft(game.engine, match.state, depth, bench.adapter) == expected


def test_random_games_agree_move_by_move(loaded):
    bench, game, spiel_game = loaded
    endings = {}
    for seed in range(BUDGET[bench.name][2]):
        try:
            match = oracle.random_game(bench, seed, game, spiel_game)
        except oracle.BoardRepeated:
            assert bench.name in BOARD_REPETITION
            continue
        endings[match.ended] = endings.get(match.ended, 0) + 1
    # Every game was followed to its end, where both sides ended it alike.
    assert "" not in endings


@pytest.mark.parametrize("name", sorted(BOARD_REPETITION))
def test_the_board_repetition_gap_is_measured_and_rare(name):
    """Every game agrees move by move and at its end, except those OpenSpiel ends
    because a board recurred with the other player to move; those are few.
    Repetitions with the same player to move end both sides alike."""
    bench = GAMES[name]
    game, spiel_game = bench.load(), bench.load_spiel()
    games, share = BOARD_REPETITION[name]
    gap = 0
    endings: dict[str, int] = {}
    for seed in range(10_000, 10_000 + games):
        try:
            match = oracle.random_game(bench, seed, game, spiel_game)
        except oracle.BoardRepeated:
            gap += 1
            continue
        endings[match.ended] = endings.get(match.ended, 0) + 1
    assert gap <= share * games, (gap, endings)
    assert "" not in endings
    if name == "lines_of_action":  # a draw by repetition in about one game in five
        assert any("draw" in ending for ending in endings), endings


# The variants' perft against python-chess's boards of them, from the start (deeper
# than the OpenSpiel comparison) and, for crazyhouse, where random play left pieces
# in the pockets. (python-chess's antichess counts an en-passant capture as a
# capture, OpenSpiel's as a quiet move: in the middle game OpenSpiel is the oracle.)
@pytest.mark.parametrize("name, depth", [("antichess", 4), ("crazyhouse", 4)])
def test_chess_variants_perft_against_python_chess(name, depth):
    bench = GAMES[name]
    game = bench.load()
    assert perft(game, game.initial_state(), depth)[-1] == oracle.chess_perft(bench.adapter.tracker(), depth)


def test_crazyhouse_perft_with_pockets_against_python_chess():
    """Positions after 30 random moves whose pockets hold pieces (drops empty
    them fast: the first three such seeds)."""
    bench = GAMES["crazyhouse"]
    game, spiel_game = bench.load(), bench.load_spiel()
    checked = 0
    for seed in range(100):
        match = oracle.replay(bench, 30, seed, game, spiel_game)
        if game.is_terminal(match.state) or not any(
                count for pool in game.pools(match.state).values() for count in pool.values()):
            continue
        assert perft(game, match.state, 2)[-1] == oracle.chess_perft(match.tracker, 2), seed
        checked += 1
        if checked == 3:
            return
    pytest.fail(f"only {checked} positions with pieces in a pocket")
