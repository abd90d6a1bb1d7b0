"""Each player's race in the learnt evaluation (evaluation.py, `Race`): where the
counts explain too little and every player won by moving to a few sites (RoyalFiz:
the goal), the steps each player's pieces need to reach them by the moves seen."""
from __future__ import annotations

from benchmarks.catalog import GAMES
from interpreter import load_game
from interpreter.frontends.agents.evaluation import GOAL_SHARE, Features, Race, Seen, learn, random_game_data


def test_race_counts_the_steps_of_the_moves_seen_to_the_goal():
    game = load_game("royalfiz", {"players": "2"})
    index = {name: i for i, name in enumerate(game.board.sites)}
    # a walk c1-goal (1 step), c4-c3-c2-c1 (3), o3-s1a-s1b-i2 (3); the jump i2 -> c4
    # leaves the board's lines: as many steps as the longest move along them (3)
    moves = {(index[a], index[b]) for a, b in (("c1", "goal"), ("c4", "c1"), ("i2", "c4"), ("o3", "i2"))}
    goal = {index["goal"]}
    race = Race(game.board, moves, [goal, goal], [5, 5])
    steps = race.moves[0]
    assert [steps[index[name]] for name in ("goal", "c1", "c4", "i2", "o3")] == [0, 1, 4, 7, 10]
    assert steps[index["o1"]] == 11  # (no move seen from there: farther than any)
    state = game.initial_state()  # every piece at home, off the board
    assert race.of(state) == [11, 55, 11, 55]
    state.occ[0].append(index["i2"])  # (the features read `occ` alone)
    assert race.of(state)[:2] == [7, 7 + 4 * 11]


def test_royalfiz_learns_an_evaluation_from_the_race():
    evaluation = learn(load_game("royalfiz", {"players": "2"}))
    assert evaluation is not None and isinstance(evaluation.features.reach, Race)
    # each player's pieces' steps in all: fewer for the first player, better for it
    *_, w_sum_first, _, w_sum_second = evaluation.weights
    assert w_sum_first < 0 < w_sum_second


def test_no_race_where_games_are_won_all_over_the_board():
    game = GAMES["connect_four"].load()  # (the last disc wins wherever it falls)
    seen = Seen(len(game.board.sites), 2)
    random_game_data(game, Features(game), seen=seen)
    assert len(seen.goals[0]) > GOAL_SHARE * len(game.board.sites) and not seen.racing()
