"""Random playouts per second of processor time, for before/after comparisons.

    python -m benchmarks.cpu_rate GAME [--seconds S]

Loads a benchmark game (benchmarks/catalog.py) from the tree it is run in, plays
one warm-up playout, then `engine.random_playout` from the start until S seconds
(default 3) of this process's processor time have passed, and prints playouts
per second. Processor time is less hit than wall time by other jobs on a shared
machine; run it alternately in two trees (`cd TREE && python -m
benchmarks.cpu_rate GAME`) to compare two versions of the interpreter. No
OpenSpiel: the runner (`benchmarks.run`) gives the ratios.
"""
from __future__ import annotations

import argparse
import random
import time

from .catalog import GAMES


def playouts_per_second(name: str, seconds: float) -> float:
    engine = GAMES[name].load().engine
    start = engine.initial_state()
    engine.random_playout(engine.copy(start), random.Random(0), 100_000)
    rng = random.Random(1)
    played = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        engine.random_playout(engine.copy(start), rng, 100_000)
        played += 1
    return played / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"{playouts_per_second(args.game, args.seconds):.1f}")


if __name__ == "__main__":
    main()
