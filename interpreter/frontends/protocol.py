"""What the front ends that take any game rely on: `FrontendGame`, the part of the
`Game` contract (docs/api.md) that the agents (random, MCTS) and the renderers
(text, SVG) use, and `FastLayer`, the part of the fast layer (`game.engine`,
action codes) the MCTS players search on.

`api.Game` offers both (its `engine` is a `runtime.engine.Engine`); so do the
hand-written games of the tests (tests/frontends/fakes.py), which stand in for
real games there. tests/frontends/test_contract.py checks both sides, and that
those front ends use nothing else. Positions are the runtime's `State`; the front
ends treat them as opaque values, but for `state.ply`.
"""
from __future__ import annotations

from random import Random
from typing import Any, Callable, Mapping, Optional, Protocol, Sequence, runtime_checkable

from ..parsing.ast import Pos
from ..runtime.pieces import Code, Outcome
from ..runtime.state import State
from ..runtime.views import Action, BoardView, PieceView, Result


@runtime_checkable
class FastLayer(Protocol):
    """The fast layer's members the MCTS players use (docs/api.md, runtime/engine.py);
    their positions are passed by position, whatever their names."""

    def copy(self, state: State, /) -> State: ...

    def legal(self, state: State, /) -> Sequence[Code]: ...

    def to_move(self, state: State, /) -> Optional[int]: ...

    def actor(self, state: State, /) -> int: ...

    def is_over(self, state: State, /) -> bool: ...

    def outcome(self, state: State, /) -> Optional[Outcome]: ...

    def winners(self, code: int, /) -> tuple[int, ...]: ...

    def ending(self, state: State, /) -> Optional[tuple[str, Pos]]: ...

    def scores(self, state: State, /) -> Optional[tuple[Any, ...]]: ...

    def chance_probabilities(self, state: State, /) -> list[tuple[Code, float]]: ...

    def apply_in_place(self, state: State, code: Code, /, settle: bool = True) -> None: ...

    def random_legal(self, state: State, rng: Random, /) -> Optional[Code]: ...

    def prepare(self, state: State, /) -> bool: ...

    def legal_matching(self, state: State, keep: Callable[[Code], bool], /) -> list[Code]: ...

    def random_playout(self, state: State, rng: Random, max_plies: int, /) -> int: ...

    def notation(self, code: Code, /) -> str: ...


@runtime_checkable
class DescribedGame(Protocol):
    """What a game is, read only (properties of `api.CheckedGame` and `api.Game`,
    attributes of the fakes): enough to say how it is drawn."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def board(self) -> BoardView: ...

    @property
    def player_colors(self) -> dict[str, str]: ...


@runtime_checkable
class FrontendGame(DescribedGame, Protocol):
    """A game as the front ends that take any game see it."""

    @property
    def kinds(self) -> dict[str, dict[str, Any]]: ...

    @property
    def pool_sites(self) -> dict[str, tuple[str, str]]: ...

    # The fast layer that the default MCTS player searches on.
    @property
    def engine(self) -> FastLayer: ...

    def initial_state(self) -> State: ...

    def to_move(self, state: State) -> str | None: ...

    def legal_actions(self, state: State) -> list[Action]: ...

    def legal_notations(self, state: State) -> list[str]: ...

    def chance_outcomes(self, state: State) -> list[tuple[Action, float]]: ...

    def make_state(
        self,
        pieces: Mapping[str, Sequence[Any]],
        to_move: Optional[str] = None,
        phase: Optional[str] = None,
        decision: Optional[str] = None,
        variables: Optional[Mapping[str, Any]] = None,
        pools: Optional[Mapping[str, Mapping[str, int]]] = None,
        carry: Optional[str] = None,
        step: Optional[int] = None,
        ply: int = 0,
        next_player: Optional[str] = None,
        next_phase: Optional[str] = None,
        result: Optional[tuple[Optional[str], Mapping[str, Any]]] = None,
        seen: Optional[Mapping[int, int]] = None,
        before_turn_done: Optional[bool] = None,
    ) -> State: ...

    def is_drawn_from_set(self, state: State) -> bool: ...

    def parse_action(self, state: State, text: str) -> Action: ...

    def apply(self, state: State, action: Action | str) -> State: ...

    def is_terminal(self, state: State) -> bool: ...

    def result(self, state: State) -> Result | None: ...

    def current_scores(self, state: State) -> dict[str, float] | None: ...

    def phase(self, state: State) -> str: ...

    # The decision or chance event taken now: the agents keep one table of outcomes per
    # chance event (its outcomes are fixed, docs/api.md).
    def decision(self, state: State) -> str: ...

    def last_action(self, state: State) -> Action | None: ...

    def pieces(self, state: State) -> list[PieceView]: ...

    def pools(self, state: State) -> dict[str, dict[str, int]]: ...

    def variables(self, state: State) -> dict[str, Any]: ...
