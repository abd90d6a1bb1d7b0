"""The cost of a step through the PettingZoo adapter, beside `regelwerk bench`.

    python -m benchmarks.rl_speed [GAME...] [--seconds S] [--rounds R]

For each game (default: the bundled ones), three loops are timed alternately in R
rounds of S/R seconds each, and the medians printed:

- `bench`: random playouts of the fast layer (`engine.random_playout`, what
  `regelwerk bench` times): actions per second, chance outcomes included;
- `env`: a random agent through the environment, `env.step(a uniform pick of env.legal_actions())`
  until the game ends: steps per second (the agents' actions) and actions per
  second (the positions' plies, the chance outcomes drawn inside included);
- `env+obs`: the usual AEC loop, `env.last()` (observation tensor and action
  mask) each step, then the same pick: steps per second.

Needs the `rl` extra (docs/rl.md, "Cost per step").
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any, Callable

from interpreter import bundled_games, load_game
from interpreter.frontends.adapters import pettingzoo_env


def bench_loop(game: Any, seconds: float, seed: int) -> tuple[int, int]:
    """(actions, 0) played by random playouts within `seconds`."""
    engine = game.engine
    start = game.initial_state()
    rng = random.Random(seed)
    actions = 0
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        actions += engine.random_playout(start.copy(), rng, 100_000)
    return actions, 0


def env_loop(env: Any, seconds: float, seed: int) -> tuple[int, int]:
    """(plies, steps) of a random agent through `env.legal_actions()` within `seconds`."""
    rand = random.Random(seed).random
    steps = plies = 0
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        env.reset(seed=seed)
        seed += 1
        start = env.position.ply
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            legal = env.legal_actions()
            env.step(legal[int(rand() * len(legal))])  # (the uniform pick random_playout makes)
            steps += 1
        plies += env.position.ply - start
    return plies, steps


def env_observing_loop(env: Any, seconds: float, seed: int) -> tuple[int, int]:
    """(plies, steps) of the AEC loop with `env.last()` within `seconds`."""
    rand = random.Random(seed).random
    steps = plies = 0
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        env.reset(seed=seed)
        seed += 1
        start = env.position.ply
        for _agent in env.agent_iter():
            _observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            # (the pick as above: an agent's own scan of the mask is not the environment's cost)
            legal = env.legal_actions()
            env.step(legal[int(rand() * len(legal))])
            steps += 1
        plies += env.position.ply - start
    return plies, steps


def measure(name: str, seconds: float, rounds: int) -> dict[str, float]:
    game = load_game(name)
    env = pettingzoo_env.env(game)
    loops: dict[str, Callable[[float, int], tuple[int, int]]] = {
        "bench": lambda s, seed: bench_loop(game, s, seed),
        "env": lambda s, seed: env_loop(env, s, seed),
        "env+obs": lambda s, seed: env_observing_loop(env, s, seed),
    }
    for loop in loops.values():  # warm up: tables the rules build on first use
        loop(0.2, 99)
    rates: dict[str, list[float]] = {f"{k} {unit}": [] for k in loops for unit in ("actions", "steps")}
    share = seconds / rounds / len(loops)
    for r in range(rounds):
        for key, loop in loops.items():
            t0 = time.perf_counter()
            plies, steps = loop(share, r)
            elapsed = time.perf_counter() - t0
            rates[f"{key} actions"].append(plies / elapsed)
            rates[f"{key} steps"].append(steps / elapsed)
    return {k: statistics.median(v) for k, v in rates.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="bundled names or paths (default: the bundled games)")
    parser.add_argument("--seconds", type=float, default=9.0, help="per game, all loops and rounds (default 9)")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the loops (default 3)")
    args = parser.parse_args(argv)
    print("| game | bench actions/s | env steps/s | env actions/s | env ÷ bench (actions) | env+obs steps/s |")
    print("|---|---|---|---|---|---|")
    for name in args.games or bundled_games():
        m = measure(name, args.seconds, args.rounds)
        ratio = m["env actions"] / m["bench actions"]
        print(f"| {name} | {m['bench actions']:.0f} | {m['env steps']:.0f} | {m['env actions']:.0f} | "
              f"{ratio:.2f} | {m['env+obs steps']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
