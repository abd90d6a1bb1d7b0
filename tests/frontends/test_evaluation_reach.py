"""Each player's reach in the learnt evaluation (evaluation.py, `Reach`): where the
piece counts explain nothing (Amazons: pieces are never taken), the empty sites a
player gets to first along the board's lines."""
from __future__ import annotations

from benchmarks.catalog import GAMES
from interpreter.frontends.agents.evaluation import Reach, learn


def test_reach_counts_the_empty_sites_each_side_gets_to_first():
    game = GAMES["amazons"].load()
    reach = Reach(game.board)
    state = game.initial_state()
    # by symmetry at the start, as many sites for either side; a few are as near to both
    first, second = reach.of(state)
    assert first == second and 0 < first and first + second < 92
    # an amazon walled in by arrows reaches nothing: x's a4 alone on the board, o's
    # a7 sealed off (a6, b6, rank 7 from b to j and rank 8 filled): ranks 9 and 10 are no one's
    board = [None] * len(state.board)
    index = {name: i for i, name in enumerate(game.board.sites)}
    x, o = state.board[index["a4"]], state.board[index["a7"]]
    arrow_sites = [f"{f}{r}" for f in "bcdefghij" for r in (7, 8)] + ["a8", "a6", "b6"]
    arrow = state.board[index["a7"]]  # (any piece blocks: the owner does not matter here)
    for name in arrow_sites:
        board[index[name]] = arrow
    board[index["a4"]], board[index["a7"]] = x, o
    walled = game.engine.copy(state)
    walled.board = board
    walled.occ = [[index["a4"]], [index["a7"]]] + [[]]
    assert reach.of(walled) == [6 * 10 - 3, 0]  # ranks 1 to 6 but a4, a6 and b6


def test_amazons_learns_an_evaluation_from_the_reach():
    evaluation = learn(GAMES["amazons"].load())
    assert evaluation is not None and evaluation.features.reach is not None
    # more reach for the first player, better for the first player
    *_, w_first, w_second = evaluation.weights
    assert w_first > 0 > w_second


def test_no_reach_where_the_counts_explain_enough():
    evaluation = learn(GAMES["morris"].load())
    assert evaluation is not None and evaluation.features.reach is None
