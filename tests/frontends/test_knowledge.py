"""What the default player measures of a game before it searches (knowledge.py):
whether material guards the root, found from random games for any definition."""
from __future__ import annotations

import pytest

from benchmarks.catalog import GAMES
from interpreter import load_game
from interpreter.frontends.agents.knowledge import measure


@pytest.mark.parametrize("name", ["lielow", "regibus", "tablut", "morris"])
def test_material_guards_the_root_of_the_bundled_capture_games(name):
    assert measure(load_game(name)).material is not None


def test_material_guards_the_root_in_chess():
    known = measure(GAMES["chess"].load())
    assert known.material is not None
    assert known.winners_behind == 0


def test_material_is_no_guide_where_the_winner_is_who_loses_pieces():
    # Antichess is won by losing every piece (or being stalemated): in every won
    # random game the winner has lost more than the loser, so a look-ahead that
    # keeps material would play against the goal.
    known = measure(GAMES["antichess"].load())
    assert 0.0 < known.capture_rate <= 0.5  # (captures are events, as in chess)
    assert known.winners_ahead == 0 and known.winners_behind >= 5
    assert known.material is None


def test_amaf_is_left_out_where_an_action_names_a_slot():
    # Kalah's six actions a side are its pits, each sown again and again with
    # other seeds: most actions of a random game repeat one their player played
    # before, and "all moves as first" would credit a pit with every later sowing.
    known = measure(GAMES["kalah"].load())
    assert known.repeat_rate > 0.6
    assert not known.uses_amaf


@pytest.mark.parametrize("name", ["connect_four", "clobber", "chess", "quoridor", "backgammon"])
def test_amaf_guides_where_an_action_is_a_move(name):
    # A disc or a move from one square to another is seldom played twice by one
    # player in a game (Quoridor's pawn, wandering at random, comes nearest).
    assert measure(GAMES[name].load()).uses_amaf


def test_the_search_chooses_by_uct_where_amaf_is_left_out():
    from interpreter.frontends.agents import MCTSAgent

    game = GAMES["kalah"].load()
    agent = MCTSAgent(iterations=50, seed=1)
    search, _ = agent._start(game, game.initial_state())
    assert not search.grave
    connect_four = GAMES["connect_four"].load()
    search, _ = MCTSAgent(iterations=50, seed=1)._start(connect_four, connect_four.initial_state())
    assert search.grave
