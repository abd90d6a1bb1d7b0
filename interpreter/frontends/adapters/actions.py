"""The fixed action space of a game: one index per notation an action can write.

`Game.possible_notations()` expands every case of the compiled rules over the
fields its notation writes (docs/api.md); index `i` is the `i`-th of them. Since a
position lists each notation once (`Game.legal_actions`), the legal action codes
of any position map one to one onto distinct indices. The chance events' outcomes
are indexed the same way in a space of their own (`chance=True`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional, Sequence, Union, overload

from .common import shown_value

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
        """The notation of index `index`; ValueError outside the space (a negative index
        would name one from its end)."""
        if not 0 <= index < len(self.notations):
            raise ValueError(f"{self._game_name}: action {shown_value(index)} is outside the action space "
                             f"(0..{len(self.notations) - 1})")
        return self.notations[index]


class LegalIndices(Sequence[int]):
    """The indices of one position's legal codes, in the order of the listing, each
    worked out when it is read: picking one of n actions at random costs one
    look-up, not n. Reading it all (iterating, `as_list`) maps every code once."""

    def __init__(self, space: ActionIndex, codes: Sequence[Code]) -> None:
        self._space = space
        self._codes = codes
        self._all: Optional[list[int]] = None
        self._read: dict[int, Code] = {}  # index -> code, of the indices read one by one

    def __len__(self) -> int:
        return len(self._codes)

    @overload
    def __getitem__(self, i: int) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: Union[int, slice]) -> Union[int, list[int]]:
        if isinstance(i, slice):
            return self.as_list()[i]
        code = self._codes[i]
        index = self._space.index(code)
        self._read[index] = code
        return index

    def __iter__(self) -> Iterator[int]:
        return iter(self.as_list())

    def __contains__(self, index: object) -> bool:
        return index in self._read or index in self.as_list()

    def index(self, value: object, start: int = 0, stop: Optional[int] = None) -> int:
        return self.as_list().index(value, start, len(self) if stop is None else stop)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"LegalIndices({self.as_list()!r})"

    def as_list(self) -> list[int]:
        """Every index, in order (a list kept with the view: do not change it)."""
        if self._all is None:
            self._all = self._space.indices(self._codes)
        return self._all

    def code(self, index: int) -> Optional[Code]:
        """The legal code of `index`, or None when no legal action has that index."""
        found = self._read.get(index)
        if found is None:
            indices = self.as_list()
            if index in indices:
                found = self._codes[indices.index(index)]
        return found
