"""Material: what the pieces on the board are worth, for any game.

A player's **material** is the sum over its pieces on the board of their kind's
`value` when the game gives its kinds values (a power per kind), else 1 a piece,
plus 1 for each of its pieces in a pool (men still to place, stones off the
board): so a placement changes nobody's material, a capture lowers the loser's.
The **balance** of a player is its material minus the largest of the others'.

This is the yardstick of the tactical look-ahead (lookahead.py): a move *wins
material* when the balance is higher after it, whatever the answers within a few
turns; it *gives material away* when the balance is lower.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from ..runtime.state import State


class Material:
    """The material of the players of one game (see the module's doc)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.engine = game.engine
        self.players = tuple(game.players)
        self.n_players = len(game.players)
        values = [float(spec.get("value") or 0) for spec in game.kinds.values()]
        self.weights = values if any(values) else [1.0] * len(values)
        counts = getattr(self.engine, "piece_counts", None)
        # A fast layer without piece counts (a stand-in game of the tests) has no material.
        self.available = counts is not None and bool(values)

    def of(self, state: State) -> list[float]:
        """Each player's material (player index order)."""
        weights = self.weights
        material = [sum(w * c for w, c in zip(weights, row)) for row in self.engine.piece_counts(state)]
        for counts in self.game.pools(state).values():
            for i, player in enumerate(self.players):
                material[i] += counts.get(player, 0)
        return material

    def balance(self, state: State, player: int) -> float:
        return balance(self.of(state), player)


def balance(material: Sequence[float], player: int) -> float:
    """`player`'s material minus the largest of the others'."""
    others = [m for i, m in enumerate(material) if i != player]
    return material[player] - (max(others) if others else 0.0)
