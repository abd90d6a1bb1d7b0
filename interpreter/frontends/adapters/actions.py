"""The fixed action space of a game: one index per notation an action can write.

`Game.possible_notations()` expands every case of the compiled rules over the
fields its notation writes (docs/api.md); index `i` is the `i`-th of them. Since a
position lists each notation once (`Game.legal_actions`), the legal action codes
of any position map one to one onto distinct indices. The chance events' outcomes
are indexed the same way in a space of their own (`chance=True`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from ...api import Game
    from ...runtime.pieces import Code


class ActionIndex:
    """Action codes <-> indices of one game's fixed action space."""

    def __init__(self, game: Game, chance: bool = False) -> None:
        self.notations: tuple[str, ...] = game.possible_notations(chance=chance)
        self._by_notation = {text: i for i, text in enumerate(self.notations)}
        self._notation = game.engine.notation
        self._game_name = game.name
        # code -> index, filled as codes are met: a position's codes come back often
        self._by_code: dict[Code, int] = {}

    def __len__(self) -> int:
        return len(self.notations)

    def index(self, code: Code) -> int:
        """The index of an action code (of a legal action)."""
        found = self._by_code.get(code)
        if found is None:
            text = self._notation(code)
            found = self._by_notation.get(text)
            if found is None:  # (possible_notations covers every case: a bug if not)
                raise LookupError(f"{self._game_name}: action '{text}' is outside the fixed action space")
            self._by_code[code] = found
        return found

    def indices(self, codes: Sequence[Code]) -> list[int]:
        """The indices of `codes`, in their order."""
        try:
            return list(map(self._by_code.__getitem__, codes))
        except KeyError:
            return [self.index(code) for code in codes]

    def notation(self, index: int) -> str:
        """The notation of index `index`."""
        return self.notations[index]
