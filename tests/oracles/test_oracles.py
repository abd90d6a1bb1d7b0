"""The benchmark games against OpenSpiel (and python-chess): perft and random games.

Slow (REGELWERK_SLOW=1) and skipped without the `bench` extra. More games by hand:
`python -m benchmarks.oracle GAME --games 200 --seed 7` (see benchmarks/README.md).
"""
from __future__ import annotations

import dataclasses
import os
import shutil

import pytest

BENCH = "the oracles are OpenSpiel and python-chess: the bench extra (pip install -e '.[bench]')"
pyspiel = pytest.importorskip("pyspiel", reason=BENCH)
chess = pytest.importorskip("chess", reason=BENCH)

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

# Games that OpenSpiel ends in a draw when a board recurs, whoever is to move (Go's
# positional superko, Lines of Action's repeated board): the definitions say it
# with `board repetitions`, and every game must end alike — a board recurring with
# the other player to move included (oracle.BoardRepeated is a disagreement like
# any other). Per game: the random games compared, and the draws by a repeated
# board that must be among their endings (measured with `python -m
# benchmarks.oracle GAME --games 2000`: Go 6 superko draws in 2,000 games, Lines
# of Action 411).
REPEATED_BOARDS = {"go": (1000, 1), "lines_of_action": (200, 20)}


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
        match = oracle.random_game(bench, seed, game, spiel_game)
        endings[match.ended] = endings.get(match.ended, 0) + 1
    # Every game was followed to its end, where both sides ended it alike.
    assert "" not in endings


@pytest.mark.parametrize("name", sorted(REPEATED_BOARDS))
def test_a_repeated_board_ends_both_sides_alike(name):
    """Every game agrees move by move and at its end, the draws by a board that
    recurred (whoever was to move) included, and there are such draws."""
    bench = GAMES[name]
    game, spiel_game = bench.load(), bench.load_spiel()
    games, draws = REPEATED_BOARDS[name]
    endings: dict[str, int] = {}
    for seed in range(10_000, 10_000 + games):
        match = oracle.random_game(bench, seed, game, spiel_game)
        endings[match.ended] = endings.get(match.ended, 0) + 1
    assert "" not in endings
    assert endings.get(_repetition_draw(game), 0) >= draws, endings


def _repetition_draw(game) -> str:
    """The ending (as the oracle writes it) of the `draw` that follows the rules'
    `board repetitions` test."""
    lines = next(text for text in game.definition.sources.values() if "board repetitions" in text).splitlines()
    test = next(i for i, line in enumerate(lines) if "board repetitions" in line)
    number = next(i for i in range(test + 1, len(lines)) if lines[i].strip() == "draw") + 1
    return f"line {number}: draw"


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


# The six standard perft positions (chessprogramming.org "Perft Results"), counted
# by python-chess: castling through and out of check, en passant, promotions; and
# two en-passant positions (legal; exposing the king).
CHESS_POSITIONS = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),  # 197,281
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),  # "Kiwipete", 97,862
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),  # 43,238
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3),  # 9,467
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3),  # 62,379
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3),  # 89,890
    ("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", 3),  # en passant, legal
    ("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", 2),  # en passant would expose the king
]


@pytest.mark.parametrize("fen, depth", CHESS_POSITIONS)
def test_chess_perft_positions(fen, depth):
    game = GAMES["chess"].load()
    state = chess_state_from_fen(game, fen)
    expected = oracle.chess_perft(chess.Board(fen), depth)
    assert perft(game, state, depth)[-1] == expected


def test_chess_perft_from_the_start_is_the_known_count():
    assert oracle.chess_perft(chess.Board(), 3) == 8902


def chess_ending(board) -> str:
    """How OpenSpiel ended a game, told from python-chess's board of it."""
    if not board.is_valid() or board.is_checkmate():
        return "mate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_repetition(3):
        return "threefold repetition"
    if board.halfmove_clock >= 100:
        return "fifty moves"
    return "material"


# Endgames where random play often repeats a position three times, with castling
# rights, en passant and promotions still possible.
REPETITION_ENDGAMES = [
    "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1",
    "4k3/3pp3/8/8/8/8/3PP3/4K3 w - - 0 1",
    "r3k3/1p2p3/8/8/8/8/4P1P1/4K2R w Kq - 0 1",
]


def play_chess_games(seeds, position=None) -> dict[str, int]:
    """Random games compared move by move; how many ended each way (every game
    must end alike on both sides)."""
    bench = GAMES["chess"]
    game, spiel_game = bench.load(), bench.load_spiel()
    endings: dict[str, int] = {}
    for seed in seeds:
        match = oracle.random_game(bench, seed, game, spiel_game, position=position)
        assert match.ended, f"seed {seed}: not over"
        why = chess_ending(match.tracker)
        endings[why] = endings.get(why, 0) + 1
    return endings


def test_chess_endgames_end_alike_threefold_repetition_included():
    endings: dict[str, int] = {}
    for fen in REPETITION_ENDGAMES:
        for why, count in play_chess_games(range(20), fen).items():
            endings[why] = endings.get(why, 0) + count
    assert endings.get("threefold repetition", 0) >= 5, endings


@pytest.mark.skipif(os.environ.get("REGELWERK_CHESS_GAMES") != "1000",
                    reason="2 to 8 minutes; set REGELWERK_CHESS_GAMES=1000 to run")
def test_a_thousand_random_chess_games_agree_with_openspiel():
    endings = play_chess_games(range(1000, 2000))
    # Every ending OpenSpiel knows occurred.
    assert set(endings) == {"mate", "stalemate", "threefold repetition", "fifty moves", "material"}, endings


def test_the_oracle_notices_a_wrong_rule(tmp_path):
    """A Breakthrough whose pieces cannot step diagonally must be caught."""
    bench = GAMES["breakthrough"]
    # (a variant reaches only files of its own game's folder: it is kept there)
    folder = tmp_path / "breakthrough"
    shutil.copytree(bench.definition, folder)
    (folder / "straight.yaml").write_text("variant: straight-only\nextends: breakthrough.yaml\nrules: straight.rules\n")
    (folder / "straight.rules").write_text("remove action move.diagonal\n")
    wrong = dataclasses.replace(bench, definition=str(folder / "straight.yaml"))
    with pytest.raises(oracle.Disagreement, match="only OpenSpiel"):
        oracle.random_game(wrong, seed=0)
