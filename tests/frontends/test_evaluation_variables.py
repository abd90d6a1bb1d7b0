"""The learnt evaluation's second fit over a game's variables (evaluation.py):
being ahead counts for less as a draw counter nears its limit."""
from __future__ import annotations

import random

from benchmarks.catalog import GAMES
from interpreter.frontends.agents.evaluation import learn


def test_a_lead_counts_for_less_as_the_quiet_counter_nears_the_draw():
    # Checkers: 40 actions in a row without a capture draw the game; the counter
    # (`quiet`) is the definition's only variable. Found from random games alone.
    game = GAMES["checkers"].load()
    evaluation = learn(game)
    assert evaluation is not None and evaluation.variables == (0,)
    engine = game.engine
    state, rng = game.initial_state(), random.Random(3)
    while True:  # the first position of a random game where the first player is two men ahead
        counts = engine.piece_counts(state)
        if sum(counts[0]) >= sum(counts[1]) + 2 and state.vars[0] == 0:
            break
        engine.apply_in_place(state, engine.random_legal(state, rng) if engine.prepare(state) else None)
    leads = []
    for quiet in (0, 20, 38):
        position = engine.copy(state)
        position.vars = list(position.vars)
        position.vars[0] = quiet
        leads.append(evaluation.first_wins(position) - 0.5)
    assert leads[0] > leads[1] > leads[2] > 0


def test_no_second_fit_where_no_variable_says_anything():
    # Xiangqi's variables (none of which explains the results of random games)
    evaluation = learn(GAMES["xiangqi"].load())
    assert evaluation is not None and evaluation.variables == ()
