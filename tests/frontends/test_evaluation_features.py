"""The evaluation the default player learns per game (evaluation.py) reads the
points of the score rule only where they say more than the pieces do: a score
rule may count areas over the whole board, and the evaluation is asked at every
node of the search and at the end of every playout."""
from __future__ import annotations

from benchmarks.catalog import GAMES
from interpreter import load_game
from interpreter.frontends.agents.evaluation import SCORE_GAIN, Features, learn


def test_the_points_are_left_out_where_they_add_nothing_to_the_pieces():
    # Regibus scores what the pieces on the board already tell (R² 0.24 either way).
    game = load_game("regibus")
    assert Features(game).scored
    evaluation = learn(game)
    assert evaluation is not None
    assert not evaluation.features.scored
    assert len(evaluation.features.of(game.initial_state())) == len(Features(game).of(game.initial_state())) - 2


def test_the_points_are_kept_where_the_pieces_say_too_little():
    # Kalah's seeds are counters: the stores (the points) are what tells who wins,
    # and without them nothing learnt explains enough of the results.
    game = GAMES["kalah"].load()
    evaluation = learn(game)
    assert evaluation is not None
    assert evaluation.features.scored
    assert evaluation.r2 > SCORE_GAIN


def test_the_score_columns_are_where_the_points_stand_in_a_row():
    game = GAMES["kalah"].load()
    features = Features(game)
    start = game.initial_state()
    row = features.of(start)
    assert [row[i] for i in features.score_columns] == list(game.engine.scores(start))
    assert features.without_scores().score_columns == range(0)
