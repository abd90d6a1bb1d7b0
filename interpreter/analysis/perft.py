"""Perft: the number of action sequences of each length from a position.

Chance outcomes count as actions (each once); a game that ends early contributes
nothing to deeper counts. Uses the engine directly: perft is a correctness tool
that is run to large depths.
"""
from __future__ import annotations

from ..runtime.state import State


def perft(game, state: State, depth: int) -> list[int]:
    """Counts for depths 1..depth."""
    counts = [0] * (depth + 1)
    engine = game.engine

    def walk(s: State, d: int) -> None:
        legal = engine.legal(s)
        counts[d] += len(legal)
        if d == depth:
            return
        for code in legal:
            child = s.copy()
            engine.apply_in_place(child, code)
            walk(child, d + 1)

    if depth >= 1:
        walk(state, 1)
    return counts[1:]
