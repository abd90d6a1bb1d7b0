"""Shared by the outsiders' agree.py and speed.py: play random games on regelwerk and
OpenSpiel side by side, and measure random playouts and perft on both.

A game's agree.py gives the folder, the OpenSpiel game and a function that writes an
OpenSpiel action as the regelwerk notation of the same action."""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pyspiel

from interpreter import load_game

# (OpenSpiel state, action) -> regelwerk notation
ActionMap = Callable[[Any, int], str]


def returns_of(game: Any, state: Any) -> list[float]:
    """regelwerk's result as OpenSpiel's returns (win 1, loss -1, draw 0)."""
    result = game.result(state)
    if result.winner is None:
        return [0.0 for _ in game.players]
    return [1.0 if p == result.winner else -1.0 for p in game.players]


def parse_options(pairs: list[str]) -> dict[str, int | bool]:
    """NAME=VALUE pairs (whole numbers, true, false): given to both sides, whose option names agree."""
    flags = {"true": True, "false": False}
    return {name: flags[value] if value in flags else int(value)
            for name, value in (pair.split("=", 1) for pair in pairs)}


def agree(folder: Path, os_name: str, to_notation: ActionMap, games: int, seed: int,
          options: dict[str, int | bool] | None = None, variant: str | None = None,
          openspiel: dict[str, int | bool] | None = None, max_plies: int = 100000) -> int:
    """Plays `games` random games; returns the number of disagreements (printed).
    `options` go to both sides, `variant` to regelwerk, `openspiel` to OpenSpiel."""
    rw = load_game(str(folder), options=options, variant=variant)
    osg = pyspiel.load_game(os_name, {**(options or {}), **(openspiel or {})})
    problems = plies = draws = 0
    for g in range(games):
        rng = random.Random(seed * 100003 + g)
        rs, os_state = rw.initial_state(), osg.new_initial_state()
        history: list[str] = []
        for _ in range(max_plies):
            if os_state.is_terminal():
                break
            if os_state.is_chance_node():
                raise SystemExit("chance nodes are not handled")
            expected = {to_notation(os_state, a): a for a in os_state.legal_actions()}
            got = set(rw.legal_notations(rs))
            if rw.to_move(rs) != rw.players[os_state.current_player()] or got != set(expected):
                print(f"game {g} after {' '.join(history)}: to move {rw.to_move(rs)} / "
                      f"{os_state.current_player()}; only regelwerk {sorted(got - set(expected))}, "
                      f"only OpenSpiel {sorted(set(expected) - got)}")
                problems += 1
                break
            notation = rng.choice(sorted(expected))
            os_state.apply_action(expected[notation])
            rs = rw.apply(rs, notation)
            history.append(notation)
            plies += 1
        else:
            continue
        if os_state.is_terminal() != rw.is_terminal(rs):
            print(f"game {g} after {' '.join(history)}: over {rw.is_terminal(rs)} / {os_state.is_terminal()}")
            problems += 1
        elif os_state.is_terminal() and returns_of(rw, rs) != list(os_state.returns()):
            print(f"game {g} after {' '.join(history)}: returns {returns_of(rw, rs)} / {os_state.returns()}")
            problems += 1
        draws += os_state.is_terminal() and not any(os_state.returns())
    print(f"{games} games (seed {seed}, {plies} plies, {draws} drawn): {problems} disagreements")
    return problems


def agree_main(folder: Path, os_name: str, to_notation: ActionMap) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a parameter of both sides (gomoku: size, connect, anti)")
    parser.add_argument("--variant", help="a variant file of the regelwerk side")
    parser.add_argument("--openspiel", action="append", default=[], metavar="NAME=VALUE",
                        help="a parameter of the OpenSpiel side only (dots_and_boxes: num_rows)")
    args = parser.parse_args()
    problems = agree(folder, os_name, to_notation, args.games, args.seed, parse_options(args.option),
                     args.variant, parse_options(args.openspiel))
    sys.exit(1 if problems else 0)


def rw_playouts(game: Any, seconds: float, seed: int) -> float:
    engine, rng = game.engine, random.Random(seed)
    initial = engine.initial_state()
    start, n = time.process_time(), 0
    while time.process_time() - start < seconds:
        state = initial.copy()  # random_playout plays the state it is given
        engine.random_playout(state, rng, 100000)
        n += 1
    return n / (time.process_time() - start)


def os_playouts(game: Any, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    start, n = time.process_time(), 0
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return n / (time.process_time() - start)


def os_perft(state: Any, depth: int) -> int:
    """Leaf count at `depth`, the last ply counted without playing it (as regelwerk's)."""
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(os_perft(state.child(a), depth - 1) for a in actions)


def speed_main() -> None:
    """python benchmarks/outsiders/outsider_harness.py GAME [--perft N]: GAME is both the
    folder here and the OpenSpiel game."""
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--perft", type=int, default=0, help="perft depth (0: none)")
    args = parser.parse_args()
    rw = load_game(str(Path(__file__).resolve().parent / args.game))
    osg = pyspiel.load_game(args.game)
    rw_playouts(rw, 0.25, 0)  # warm-up: what the rules build on first use
    ours, theirs = [], []
    for r in range(args.rounds):
        ours.append(rw_playouts(rw, args.seconds, r))
        theirs.append(os_playouts(osg, args.seconds, r))
        print(f"round {r}: regelwerk {ours[-1]:.0f}/s, OpenSpiel {theirs[-1]:.0f}/s", flush=True)
    mo, mt = statistics.median(ours), statistics.median(theirs)
    print(f"playouts per processor second, medians of {args.rounds}: regelwerk {mo:.0f}, "
          f"OpenSpiel {mt:.0f}, ratio {mo / mt:.2f}")
    if args.perft:
        rt, ot = [], []
        for _ in range(args.rounds):
            start = time.process_time()
            counts = rw.engine.perft(rw.engine.initial_state(), args.perft)
            rt.append(time.process_time() - start)
            start = time.process_time()
            count = os_perft(osg.new_initial_state(), args.perft)
            ot.append(time.process_time() - start)
        assert counts[-1] == count, (counts, count)
        print(f"perft {args.perft} = {count}: regelwerk {statistics.median(rt):.3f} s, OpenSpiel "
              f"{statistics.median(ot):.3f} s (processor), ratio {statistics.median(ot) / statistics.median(rt):.2f}")


if __name__ == "__main__":
    speed_main()
