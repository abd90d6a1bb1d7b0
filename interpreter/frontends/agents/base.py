"""What every built-in player has in common.

An agent sees a game only through the public `Game` API (docs/api.md) and owns a
seeded `random.Random`, so a game between agents replays exactly from the seeds.
"""
from __future__ import annotations

import random
import weakref
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Protocol, Sequence, runtime_checkable

from ...runtime.views import Action

if TYPE_CHECKING:
    from ...runtime.state import State
    from ..protocol import FrontendGame


_by_notation = attrgetter("notation")


@runtime_checkable
class Agent(Protocol):
    """A player that picks one legal action; deterministic given its seed."""

    name: str

    def choose(self, game: FrontendGame, state: State) -> Action:
        ...


class SeededAgent:
    """Base class: holds the seeded random generator and answers chance events."""

    name = "agent"

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, game: FrontendGame, state: State) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def check_budget(iterations: int | None, seconds: float | None, rollout_limit: int, least_rollout: int) -> None:
    """ValueError for a budget no search can run on (the players' shared checks)."""
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    if seconds is not None and seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    if rollout_limit < least_rollout:
        raise ValueError(f"rollout_limit must be at least {least_rollout}, got {rollout_limit}")


def sorted_actions(actions: Sequence[Action]) -> list[Action]:
    """Actions in notation order.

    The runtime may build its lists from sets, whose order of strings changes from
    one process to the next (hash randomisation); picking by index from a sorted
    list keeps a seeded agent reproducible across processes.
    """
    return sorted(actions, key=_by_notation)


# (game -> {chance event -> table}): a chance event's outcomes are fixed when the game
# is loaded (docs/api.md), and building the table of an event with 10001 outcomes
# costs far more than a draw from it; the search draws thousands of times a move.
_TABLES: "weakref.WeakKeyDictionary[Any, dict[str, Any]]" = weakref.WeakKeyDictionary()


def chance_table(game: FrontendGame, state: State) -> tuple[list[Action], list[float]]:
    """The outcomes of the chance event at `state` (sorted by notation) and their
    cumulative weights, built once per event of a game (per position for an event
    drawing from a set, `outcomes one of SET`). The lists are shared: do not
    change them."""
    event = getattr(game, "decision", None)
    drawn = getattr(game, "is_drawn_from_set", None)
    if drawn is not None and drawn(state):
        return _build_table(game, state)
    try:
        tables = _TABLES.setdefault(game, {}) if event is not None else None
    except TypeError:  # a game object that cannot be weakly referenced
        tables = None
    if tables is None or event is None:
        return _build_table(game, state)
    key = event(state)
    table = tables.get(key)
    if table is None:
        table = tables[key] = _build_table(game, state)
    return table


def _build_table(game: FrontendGame, state: State) -> tuple[list[Action], list[float]]:
    outcomes = sorted(game.chance_outcomes(state), key=lambda pair: pair[0].notation)
    actions = [action for action, _ in outcomes]
    cumulative: list[float] = []
    total = 0.0
    for _, probability in outcomes:
        total += float(probability)
        cumulative.append(total)
    return actions, cumulative


def sample_from_table(
    actions: Sequence[Action], cumulative: Sequence[float], rng: random.Random
) -> Action:
    """One outcome drawn by its probability (weights need not sum to exactly 1)."""
    # rng.choices does the bisect on cumulative weights; passing cum_weights avoids
    # re-summing the probabilities on every draw.
    return rng.choices(actions, cum_weights=cumulative, k=1)[0]


def sample_chance(game: FrontendGame, state: State, rng: random.Random) -> Action:
    """Draw the outcome of the chance event at `state` by its probabilities."""
    actions, cumulative = chance_table(game, state)
    if not actions:
        raise ValueError("no chance outcomes at this position")
    return sample_from_table(actions, cumulative, rng)
