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
