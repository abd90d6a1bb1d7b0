"""The work of an analysis cut into tasks that any process can run.

A task is a run of consecutive games of one column (`GamesTask`) or of the
strategic-depth test (`DepthTask`). It carries everything its games depend on
— the column, the seed, the bounds, the players — and nothing about where it
runs, so its result is the same on this process, on a pool of processes or on
a Dask cluster. Each process compiles a column once and keeps it.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

from .columns import Column
from .playout import BLOCK, NO_TRACE, GameStats, Measurer, Tracing, block_generator, game_seed

if TYPE_CHECKING:
    from ...api import Game


@dataclass(frozen=True)
class Task:
    """Games `start` to `stop - 1` of column number `column` (`spec`)."""

    column: int
    spec: Column
    start: int
    stop: int
    seed: int
    max_plies: int

    @property
    def size(self) -> int:
        return self.stop - self.start


@dataclass(frozen=True)
class GamesTask(Task):
    """Games of a column, measured (see playout.py)."""

    tracing: Tracing = NO_TRACE
    players: Optional[tuple[Any, ...]] = None  # agent specs by seat; None: uniform random (fast)
    agent_factory: Optional[Callable[..., Any]] = None  # (spec, seed) -> agent, for `players`


@dataclass(frozen=True)
class DepthTask(Task):
    """Games of the depth test of a column: game j puts `strong` in seat
    j mod (number of seats) and `weak` in the others."""

    strong: str = "mcts"
    weak: str = "mcts"
    agent_factory: Optional[Callable[..., Any]] = None


@dataclass
class TaskResult:
    """The games of a task, in order, and the landings per site they made."""

    kind: str  # "games" or "depth"
    column: int
    start: int
    games: list[Any]
    heat: list[Any]


# One compiled game per column (and ply bound) per process: compiling is slow and
# a worker runs many tasks of the same columns.
_measurers: dict[tuple[Any, int], Measurer] = {}


def remember(spec: Column, game: Game, max_plies: int) -> None:
    """Use an already compiled `game` for `spec` in this process (no recompiling)."""
    _measurers[(spec, max_plies)] = Measurer(game, max_plies)


def _measurer(spec: Column, max_plies: int) -> Measurer:
    key = (spec, max_plies)
    if key not in _measurers:
        _measurers[key] = Measurer(spec.load(coverage=True), max_plies)
    return _measurers[key]


def run_task(task: Any) -> TaskResult:
    """Play the games of a task (a GamesTask or a DepthTask)."""
    measurer = _measurer(task.spec, task.max_plies)
    measurer.heat = [0] * len(measurer.heat)
    games: list[GameStats] = []
    if isinstance(task, DepthTask):
        for index in range(task.start, task.stop):
            games.append(measurer.play(task.seed, index, NO_TRACE, _depth_agents(task, measurer.game, index)))
        return TaskResult("depth", task.column, task.start, games, measurer.heat)
    if task.players:
        for index in range(task.start, task.stop):
            games.append(measurer.play(task.seed, index, task.tracing, _agents(task, measurer.game, index)))
    else:
        if task.start % BLOCK:
            raise ValueError(f"a run of random games starts at a block of {BLOCK}, not at game {task.start}")
        rng = None
        for index in range(task.start, task.stop):
            if index % BLOCK == 0:
                rng = block_generator(task.seed, index)
            games.append(measurer.play(task.seed, index, task.tracing, None, rng))
    return TaskResult("games", task.column, task.start, games, measurer.heat)


def seat_specs(specs: tuple[Any, ...], seats: int) -> list[Any]:
    """The spec of each seat: the entries in order, the last one filling the rest."""
    return [specs[min(i, len(specs) - 1)] for i in range(seats)]


def _agents(task: GamesTask, game: Game, index: int) -> dict[int, Any]:
    if task.players is None or task.agent_factory is None:
        raise ValueError("agents need their specs and an agent factory")
    seats = seat_specs(task.players, len(game.players))
    return {i: task.agent_factory(spec, _int_seed(game_seed(task.seed, index, player)))
            for i, (spec, player) in enumerate(zip(seats, game.players))}


def _depth_agents(task: DepthTask, game: Game, index: int) -> dict[int, Any]:
    if task.agent_factory is None:
        raise ValueError("the depth test needs an agent factory")
    strong_seat = index % len(game.players)
    return {i: task.agent_factory(task.strong if i == strong_seat else task.weak,
                                  _int_seed(game_seed(task.seed, index, f"depth/{player}")))
            for i, player in enumerate(game.players)}


def _int_seed(text: str) -> int:
    return random.Random(text).getrandbits(62)
