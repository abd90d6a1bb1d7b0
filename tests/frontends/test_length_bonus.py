"""The length bonus of the default player's playouts (playout.py, `length_bonus`):
a decided playout's reward shares `length_weight` by its length against the
decided playouts before it — win soon, lose late."""
from __future__ import annotations

import math
import random

import pytest

from interpreter.frontends.agents.mcts import CURRENT, PREVIOUS
from interpreter.frontends.agents.playout import Playout, Tactics

from .fakes import TicTacToe


def _playout(weight: float) -> Playout:
    game = TicTacToe()
    playout = Playout(game.engine, random.Random(0), Tactics(), 2, limit=50, score_weight=0.0)
    playout.length_weight = weight
    return playout


def test_the_first_decided_playout_is_of_average_length():
    # nothing to compare it with: half of the weight each way
    assert _playout(0.1).length_bonus((1.0, 0.0), 0, 10) == pytest.approx((0.95, 0.05))


def test_a_later_win_gives_less_to_the_winner_and_more_to_the_loser():
    playout = _playout(0.1)
    playout.length_bonus((1.0, 0.0), 0, 10)
    # lengths 10 and 20: mean 15, deviation sqrt(50); 20 is 0.707 deviations late
    late = 1.0 / (1.0 + math.exp(-1.5 * 5.0 / math.sqrt(50.0)))
    assert playout.length_bonus((0.0, 1.0), 1, 20) == pytest.approx((0.1 * late, 0.9 + 0.1 * (1.0 - late)))
    assert playout.lengths == pytest.approx([2, 15.0, 50.0])
    # a third, short one (5): more to its winner than the long one gave
    soon = playout.length_bonus((0.0, 1.0), 1, 5)
    assert soon[1] > 0.9 + 0.1 * (1.0 - late) and soon[0] < 0.1 * late
    # however long, a win is worth more than the loss beside it
    assert all(won > lost for lost, won in (playout.length_bonus((0.0, 1.0), 1, n) for n in (1, 50, 10_000)))


def test_only_the_default_player_has_it():
    assert CURRENT.length_bonus > 0.0
    assert PREVIOUS.length_bonus == 0.0
