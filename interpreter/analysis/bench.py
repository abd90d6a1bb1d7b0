"""Random playouts at full speed: the figure of merit of the compiled rules."""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..api import Game
    from ..runtime.engine import Engine
    from ..runtime.state import State

# A game whose rules never end it must not hang a benchmark.
DEFAULT_MAX_PLIES = 100_000
WARM_UP_SECONDS = 0.25
# What the timed games are measured in: the time that passed (what a user waits), or
# the processor time this process used, which other work on a shared machine does
# not inflate (two runs made at different loads compare only in processor time).
CLOCKS = {"wall": time.perf_counter, "process": time.process_time}


@dataclass
class BenchResult:
    playouts: int
    seconds: float
    actions: int
    unfinished: int  # playouts stopped at the ply bound

    @property
    def playouts_per_s(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else float("inf")

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else float("inf")

    def as_json(self) -> dict[str, Any]:
        return {
            "playouts": self.playouts,
            "seconds": round(self.seconds, 6),
            "playouts_per_s": round(self.playouts_per_s, 3),
            "actions_per_s": round(self.actions_per_s, 3),
        }


def playout(engine: Engine, state: State, rng: random.Random, max_plies: int = DEFAULT_MAX_PLIES) -> int:
    """Play `state` (changed in place) to the end, uniformly at random (chance by its
    probabilities). Returns the number of actions played."""
    return engine.random_playout(state, rng, max_plies)


def bench(game: Game, playouts: int, seed: int, max_plies: int = DEFAULT_MAX_PLIES, progress: Any=None,
          warm_up: float = WARM_UP_SECONDS, clock: str = "wall") -> BenchResult:
    """`playouts` random games from the start, timed.

    Untimed games come first, for at most `warm_up` seconds and `playouts` games,
    with a generator of their own (the timed games are those of `seed` either way):
    what the rules build on first use (tables of walks, of action codes) is then
    built before the clock starts, as a hand-written program builds its tables
    before it plays, and the figure is the steady speed. `clock` names what the
    timed games are measured in (`CLOCKS`); the warm-up is always wall time."""
    now = CLOCKS[clock]
    engine = game.engine
    start = game.initial_state()
    _warm_up(engine, start, playouts, seed, max_plies, warm_up)
    rng = random.Random(seed)
    actions = 0
    unfinished = 0
    t0 = now()
    for i in range(playouts):
        state = start.copy()
        actions += playout(engine, state, rng, max_plies)
        if not engine.is_over(state):
            unfinished += 1
        if progress is not None:
            progress(i + 1)
    seconds = now() - t0
    return BenchResult(playouts, seconds, actions, unfinished)


def _warm_up(engine: Engine, start: Any, playouts: int, seed: int, max_plies: int, seconds: float) -> None:
    rng = random.Random(f"warm-up {seed}")
    until = time.perf_counter() + seconds
    for _ in range(playouts):
        if time.perf_counter() >= until:
            return
        engine.random_playout(start.copy(), rng, max_plies)
