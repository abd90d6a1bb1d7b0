"""Random playouts per processor second, this definition against OpenSpiel's Hive.

    python benchmarks/outsiders/hive/speed.py --seconds 5 --rounds 3 [--perft 4]

regelwerk: `game.engine.random_playout` (docs/api.md); OpenSpiel: a Python loop of
`state.legal_actions()`, `random.choice`, `state.apply_action`. The sides alternate,
round by round, each timed by `time.process_time()`; medians are printed. With
--perft, the time of a perft of that depth from the start on both sides (OpenSpiel's
by cloning and applying every legal action: it counts the actions its notation tells
apart, which are more than the moves, so only the times compare).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

import pyspiel

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..", "..")))

from interpreter import load_game  # noqa: E402

OPENSPIEL = "hive(uses_mosquito=false,uses_ladybug=false,uses_pillbug=false)"


def regelwerk_round(game, seconds, rng):
    engine, start = game.engine, game.engine.initial_state()
    games = plies = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        plies += engine.random_playout(start.copy(), rng, 1000)
        games += 1
    spent = time.process_time() - began
    return games / spent, plies / spent


def openspiel_round(os_game, seconds, rng):
    games = plies = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        state = os_game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
        games += 1
    spent = time.process_time() - began
    return games / spent, plies / spent


def openspiel_perft(state, depth):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += openspiel_perft(child, depth - 1)
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--perft", type=int, default=0)
    args = parser.parse_args()
    game = load_game(HERE)
    os_game = pyspiel.load_game(OPENSPIEL)
    rng = random.Random(args.seed)
    game.engine.random_playout(game.engine.initial_state(), rng, 1000)   # warm up
    ours, theirs = [], []
    for number in range(args.rounds):
        ours.append(regelwerk_round(game, args.seconds, rng))
        theirs.append(openspiel_round(os_game, args.seconds, rng))
        print(f"round {number + 1}: regelwerk {ours[-1][0]:.2f} games/s ({ours[-1][1]:.0f} plies/s), "
              f"OpenSpiel {theirs[-1][0]:.2f} games/s ({theirs[-1][1]:.0f} plies/s)", flush=True)
    rw = statistics.median(g for g, _ in ours)
    os_ = statistics.median(g for g, _ in theirs)
    rw_plies = statistics.median(p for _, p in ours)
    os_plies = statistics.median(p for _, p in theirs)
    print(f"median playouts/s: regelwerk {rw:.2f}, OpenSpiel {os_:.2f}, ratio {rw / os_:.3f}; "
          f"plies/s {rw_plies:.0f} vs {os_plies:.0f} ({rw_plies / os_plies:.3f})")
    if args.perft:
        rw_times, os_times = [], []
        for _ in range(args.rounds):
            began = time.process_time()
            counts = game.engine.perft(game.engine.initial_state(), args.perft)
            rw_times.append(time.process_time() - began)
            began = time.process_time()
            os_count = openspiel_perft(os_game.new_initial_state(), args.perft)
            os_times.append(time.process_time() - began)
        rw_t, os_t = statistics.median(rw_times), statistics.median(os_times)
        print(f"perft {args.perft}: regelwerk {counts[-1]} in {rw_t:.3f} s, OpenSpiel {os_count} "
              f"in {os_t:.3f} s; OpenSpiel's time / regelwerk's {os_t / rw_t:.2f}")


if __name__ == "__main__":
    main()
