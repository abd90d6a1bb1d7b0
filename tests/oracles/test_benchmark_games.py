"""The benchmark definitions load, describe themselves, and start as OpenSpiel's
games do (perft counts taken from OpenSpiel; the slow oracle tests go deeper)."""
from __future__ import annotations

import pytest

from benchmarks.catalog import GAMES
from interpreter.analysis.perft import perft

# Depths 1-2 from the start, as counted by OpenSpiel (chess: the known 20, 400).
START_PERFT = {
    "connect_four": [7, 49],
    "clobber": [49, 2116],
    "breakthrough": [22, 484],
    "checkers": [7, 49],
    "othello": [4, 12],
    "kalah": [6, 35],
    "amazons": [4, 80],
    "morris": [24, 552],
    "chess": [20, 400],
}


def test_every_benchmark_game_has_start_counts():
    assert set(START_PERFT) == set(GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_definition_loads_with_title_and_no_warnings(name):
    game = GAMES[name].load()
    assert game.title != game.name
    assert game.warnings == []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_start_perft(name):
    game = GAMES[name].load()
    assert perft(game, game.initial_state(), 2) == START_PERFT[name]
