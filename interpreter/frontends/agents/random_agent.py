"""The baseline player: uniform among the legal actions."""
from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.runtime.views import Action

from ...runtime.pieces import CHANCE_NAME
from .base import SeededAgent, sample_chance, sorted_actions

if TYPE_CHECKING:
    from ...runtime.state import State
    from ..protocol import FrontendGame



class RandomAgent(SeededAgent):
    """Picks uniformly among the legal actions (by probability at a chance event)."""

    name = "random"

    def choose(self, game: FrontendGame, state: State) -> Action:
        if game.to_move(state) == CHANCE_NAME:
            return sample_chance(game, state, self.rng)
        actions = game.legal_actions(state)
        if not actions:
            raise ValueError("no legal action: the game is over")
        return self.rng.choice(sorted_actions(actions))
