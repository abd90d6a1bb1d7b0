"""Random playouts per second on each side, each a plain Python loop.

regelwerk uses the fast layer (`game.engine.random_playout`); OpenSpiel is driven through
`pyspiel` (legal_actions, a uniform choice, apply_action); python-chess through
`board.legal_moves` and `board.push`, ending its games as OpenSpiel does.
"""
from __future__ import annotations

import random
import time

# A definition whose rules never end a game must not hang the benchmark.
MAX_PLIES = 100_000

# The clocks `--clock` chooses from: wall-clock time, or the processor time this
# process used (which other programs on a busy machine do not inflate).
CLOCKS = {"wall": time.perf_counter, "process": time.process_time}
clock = CLOCKS["wall"]


def use_clock(name: str) -> None:
    """Time everything that follows by the clock `name` (a key of CLOCKS)."""
    global clock
    clock = CLOCKS[name]


def regel_playout(engine, state, rng: random.Random) -> int:
    """Play `state` (changed in place) to the end at random; the number of actions.

    `Engine.random_playout` is the loop the AI and `analyze` play: uniform over the
    legal actions, chance by its probabilities (with `forbid result` it checks only
    the action it picks, trying others until one passes: still uniform over the
    legal actions)."""
    return engine.random_playout(state, rng, MAX_PLIES)


def spiel_playout(spiel_game, rng: random.Random) -> int:
    state = spiel_game.new_initial_state()
    rand = rng.random
    plies = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            x = rand()
            action = outcomes[-1][0]
            for outcome, probability in outcomes:
                x -= probability
                if x < 0:
                    action = outcome
                    break
        else:
            legal = state.legal_actions()
            action = legal[int(rand() * len(legal))]
        state.apply_action(action)
        plies += 1
    return plies


def chess_over(board) -> bool:
    """OpenSpiel's endings: no legal move (mate or stalemate), insufficient material
    (python-chess's test, which differs from OpenSpiel's only in rare bishop
    endings), 100 plies without capture or pawn move, threefold repetition."""
    return (
        board.is_insufficient_material()
        or board.halfmove_clock >= 100
        or not any(board.generate_legal_moves())
        or board.is_repetition(3)
    )


def python_chess_playout(rng: random.Random) -> int:
    import chess

    board = chess.Board()
    rand = rng.random
    plies = 0
    while not chess_over(board):
        legal = list(board.legal_moves)
        board.push(legal[int(rand() * len(legal))])
        plies += 1
    return plies


def timed(playout, seconds: float) -> tuple[int, int, float]:
    """Complete playouts until `seconds` have passed (at least one): (playouts,
    plies, elapsed seconds)."""
    playouts = plies = 0
    start = clock()
    elapsed = 0.0
    while playouts == 0 or elapsed < seconds:
        plies += playout()
        playouts += 1
        elapsed = clock() - start
    return playouts, plies, elapsed
