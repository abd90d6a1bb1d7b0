"""The part of the `Game` contract (docs/api.md) that the front ends which take any
game rely on: the agents (random, MCTS) and the renderers (text, SVG).

The fakes in `fakes.py` stand in for real games in the front ends' tests, so they
must offer every member of `FrontendGame` with the real `Game`'s signatures;
`test_contract.py` checks both sides, and that the front ends use nothing else.
States are opaque to the front ends (`Any`), except that they may show `state.ply`.
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from interpreter.runtime.views import Action, BoardView, PieceView, Result


@runtime_checkable
class FrontendGame(Protocol):
    name: str
    title: str
    players: tuple[str, ...]
    board: BoardView
    kinds: dict[str, dict]
    player_colors: dict[str, str]
    pool_sites: dict[str, tuple[str, str]]
    # The fast layer (docs/api.md: action codes, random playouts) that the default
    # MCTS player searches on; the fakes answer it with `fakes.FakeEngine`.
    engine: object

    def initial_state(self) -> Any: ...

    def to_move(self, state: Any) -> str | None: ...

    def legal_actions(self, state: Any) -> list[Action]: ...

    def legal_notations(self, state: Any) -> list[str]: ...

    def chance_outcomes(self, state: Any) -> list[tuple[Action, float]]: ...

    def parse_action(self, state: Any, text: str) -> Action: ...

    def apply(self, state: Any, action: Action | str) -> Any: ...

    def is_terminal(self, state: Any) -> bool: ...

    def result(self, state: Any) -> Result | None: ...

    def current_scores(self, state: Any) -> dict[str, float] | None: ...

    def phase(self, state: Any) -> str: ...

    # The decision or chance event taken now: the agents keep one table of outcomes per
    # chance event (its outcomes are fixed, docs/api.md).
    def decision(self, state: Any) -> str: ...

    def last_action(self, state: Any) -> Action | None: ...

    def pieces(self, state: Any) -> list[PieceView]: ...

    def pools(self, state: Any) -> dict[str, dict[str, int]]: ...

    def variables(self, state: Any) -> dict[str, Any]: ...


DATA_MEMBERS = tuple(FrontendGame.__annotations__)
METHODS = tuple(
    name for name, value in vars(FrontendGame).items() if callable(value) and not name.startswith("_")
)
