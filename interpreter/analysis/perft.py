"""Perft: the number of action sequences of each length from a position.

Chance outcomes count as actions (each once); a game that ends early contributes
nothing to deeper counts. Runs on the fast layer (`Engine.perft`): perft is a
correctness tool that is run to large depths.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..api import Game
    from ..runtime.state import State


def perft(game: Game, state: State, depth: int) -> list[int]:
    """Counts for depths 1..depth."""
    return game.engine.perft(state, depth)
