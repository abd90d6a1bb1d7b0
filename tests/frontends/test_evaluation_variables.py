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
    state = _two_men_ahead(game)
    leads = []
    for quiet in (0, 20, 38):
        position = engine.copy(state)
        position.vars = list(position.vars)
        position.vars[0] = quiet
        leads.append(evaluation.first_wins(position) - 0.5)
    assert leads[0] > leads[1] > leads[2] > 0


def _two_men_ahead(game):
    """The first position of a seeded random game of checkers where the first player is two men ahead."""
    engine = game.engine
    state, rng = game.initial_state(), random.Random(3)
    while True:  # (a few dozen actions)
        counts = engine.piece_counts(state)
        if sum(counts[0]) >= sum(counts[1]) + 2 and state.vars[0] == 0:
            return state
        engine.apply_in_place(state, engine.random_legal(state, rng) if engine.prepare(state) else None)


def test_the_horizon_of_the_quiet_counter_shrinks_a_lead_to_a_draw_at_the_limit():
    # The random games drew at 40 quiet actions (the largest value seen before is 39):
    # with the horizon, the lead at 0 is the learnt one, at 20 half of its log-odds,
    # at 40 nothing; the learnt fade alone still gives a third of the lead there.
    game = GAMES["checkers"].load()
    learnt = learn(game)
    assert learnt is not None and learnt.draw_limits == ((0, 39),)
    horizon = learnt.with_horizons()
    assert horizon.horizons == ((0, 40.0),)
    state = _two_men_ahead(game)
    odds = {}
    for quiet in (0, 20, 40):
        position = game.engine.copy(state)
        position.vars = list(position.vars)
        position.vars[0] = quiet
        odds[quiet] = (learnt.log_odds(position), horizon.log_odds(position))
    assert odds[0][1] == odds[0][0] > 0
    assert abs(odds[20][1] - odds[20][0] / 2) < 1e-9
    assert odds[40][1] == 0.0 and odds[40][0] > odds[0][0] / 4


def test_no_horizon_where_no_variable_makes_a_lead_fade():
    evaluation = learn(GAMES["xiangqi"].load())
    assert evaluation is not None and evaluation.with_horizons() is evaluation


def test_no_second_fit_where_no_variable_says_anything():
    # Xiangqi's variables (none of which explains the results of random games)
    evaluation = learn(GAMES["xiangqi"].load())
    assert evaluation is not None and evaluation.variables == ()
