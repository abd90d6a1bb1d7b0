"""The games every adapter test runs on: the bundled ones (RoyalFiz with 2, 3 and 4
players), the documentation's example games and the benchmark games, which were
written from the docs by people who never saw the adapters (a folder holding only
a README documents a variant kept beside the game it extends)."""
from __future__ import annotations

import random
from typing import Any, Iterator

from tests.helpers import GAMES, REPO

BUNDLED: list[tuple[str, dict[str, Any]]] = [
    (str(GAMES / "lielow"), {}),
    (str(GAMES / "regibus"), {}),
    (str(GAMES / "royalfiz"), {"players": 2}),
    (str(GAMES / "royalfiz"), {"players": 3}),
    (str(GAMES / "royalfiz"), {"players": 4}),
    (str(GAMES / "tablut"), {}),
    (str(GAMES / "morris"), {}),
]
OTHERS: list[tuple[str, dict[str, Any]]] = [
    (str(path), {}) for folder in ("docs/examples", "benchmarks/games")
    for path in sorted((REPO / folder).iterdir()) if path.is_dir() and any(path.glob("*.yaml"))
]
ALL = BUNDLED + OTHERS


def label(case: tuple[str, dict[str, Any]]) -> str:
    path, options = case
    name = "/".join(path.split("/")[-2:])
    return name + "".join(f"-{k}={v}" for k, v in options.items())


def random_positions(game: Any, seed: int, games: int = 3, max_plies: int = 400) -> Iterator[Any]:
    """Every position of `games` random games (cut at `max_plies`), seeded."""
    rng = random.Random(seed)
    engine = game.engine
    for _ in range(games):
        state = game.initial_state()
        for _ply in range(max_plies):
            yield state
            if engine.is_over(state):
                break
            state = state.copy()
            engine.apply_in_place(state, engine.pick_random(state, rng))
