"""A one-ply greedy player (`greedy`): the baseline that looks one action ahead.

It plays each legal action and takes the one whose position is best for it: a
win at once before anything else, a loss at once last; among the rest the
highest chance by the evaluation learnt for the game (evaluation.py) where there
is one, else the highest balance of material (analysis/material.py), else the
highest share of the score rule's points; ties are broken at random (seeded).
It sees nothing of the answers: what it takes, it may lose at once.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from interpreter.runtime.views import Action

from ...analysis.material import Material
from ...runtime.pieces import CHANCE
from .base import SeededAgent, sample_chance, sorted_actions
from .knowledge import evaluation_of
from .rewards import score_rewards

if TYPE_CHECKING:
    from ...runtime.state import State
    from ..protocol import FrontendGame

WIN = 1e9


class GreedyAgent(SeededAgent):
    """Plays the action whose position looks best one ply ahead (see the module's doc)."""

    name = "greedy"

    def choose(self, game: FrontendGame, state: State) -> Action:
        engine = game.engine
        mover = engine.to_move(state)
        if mover is None:
            raise ValueError("no legal action: the game is over")
        if mover == CHANCE:
            return sample_chance(game, state, self.rng)
        judge = _judge(game, mover)
        best: list[Action] = []
        best_value = -WIN * 2
        for action in sorted_actions(game.legal_actions(state)):
            after = engine.copy(state)
            engine.apply_in_place(after, action.code)
            value = judge(after)
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return self.rng.choice(best)


def _judge(game: FrontendGame, me: int) -> Callable[[State], float]:
    """How the greedy player values a position for player `me`."""
    engine = game.engine
    evaluation = evaluation_of(game)
    material = Material(game)

    def judge(state: State) -> float:
        outcome = engine.outcome(state)
        if outcome is not None:
            return WIN if outcome[0] == me else 0.0 if outcome[0] < 0 else -WIN
        if evaluation is not None:
            first = evaluation.first_wins(state)
            return first if me == 0 else 1.0 - first
        if material.available:
            return material.balance(state, me)
        scores = engine.scores(state)
        return score_rewards(scores)[me] if scores is not None else 0.0

    return judge
