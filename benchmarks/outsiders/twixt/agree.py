"""Play random games of TwixT on both sides, regelwerk and OpenSpiel, and compare.

At every position: the links on the board (OpenSpiel's from its observation
tensor), the player to move, the legal actions by notation (OpenSpiel's
`xb8`, `oa2` are the definition's notations as they are), whether the game is over,
and at the end the returns. One random legal action (drawn from OpenSpiel's list,
with the swap chosen at blue's first turn with probability --swap-bias where it is
offered) is then played on both sides.

    python benchmarks/outsiders/twixt/agree.py --games 200 --seed 1 --sizes 5,8,11
    python benchmarks/outsiders/twixt/agree.py speed --sizes 5,8 --seconds 5
    python benchmarks/outsiders/twixt/agree.py perft --size 8 --depth 3 --random-plies 20

`speed` measures random games a second of processor time on both sides in
alternating rounds (regelwerk: `engine.random_playout`; OpenSpiel: a Python loop of
`legal_actions`, `random.choice`, `apply_action`) and prints the medians of the
rounds; `perft` counts action sequences on both sides (OpenSpiel: Python, cloning
states; regelwerk: `engine.perft`) from the start or from a position some random
plies into a game, and compares counts and processor times.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pyspiel

from interpreter import load_game

HERE = Path(__file__).resolve().parent


def load_both(size: int) -> tuple[Any, Any]:
    game = load_game(str(HERE), options={"board_size": size})
    spiel = pyspiel.load_game("twixt", {"board_size": size, "ansi_color_output": False})
    return game, spiel


def spiel_actions(state: Any) -> dict[str, int]:
    player = state.current_player()
    return {state.action_to_string(player, a): a for a in state.legal_actions()}


# OpenSpiel's link directions NNE, ENE, ESE, SSE (its y runs the other way than the
# ranks here) are these flags of the western peg.
SPIEL_DIRECTIONS = ("sse", "ese", "ene", "nne")


def spiel_links(spiel: Any, state: Any) -> set[tuple[str, str]]:
    """The links on OpenSpiel's board, as (western peg's site, flag), read from the
    observation tensor (planes 1-4 of each player: a peg's links eastwards)."""
    size = spiel.get_parameters()["board_size"]
    planes = spiel.observation_tensor_shape()
    tensor = state.observation_tensor(0)
    links = set()
    for plane in range(planes[0]):
        player, kind = divmod(plane, planes[0] // 2)
        if not 1 <= kind <= 4:
            continue
        for tx in range(planes[1]):
            for ty in range(planes[2]):
                if tensor[(plane * planes[1] + tx) * planes[2] + ty] == 0:
                    continue
                # undo OpenSpiel's GetTensorPosition (red unturned, blue turned)
                if player == 0:
                    x, y = ty + 1, size - 1 - tx
                else:
                    x, y = size - 1 - tx, size - 2 - ty
                links.add((f"{chr(ord('a') + x)}{size - y}", SPIEL_DIRECTIONS[kind - 1]))
    return links


def our_links(game: Any, state: Any) -> set[tuple[str, str]]:
    return {(piece.site, flag) for piece in game.pieces(state)
            for flag in SPIEL_DIRECTIONS if piece.attributes.get(flag)}


def expected_returns(game: Any, state: Any) -> list[float]:
    winner = game.result(state).winner
    if winner is None:
        return [0.0, 0.0]
    return [1.0, -1.0] if winner == "red" else [-1.0, 1.0]


def play_one(game: Any, spiel: Any, rng: random.Random,
             swap_bias: float) -> tuple[str | None, int, bool, str | None]:
    """One random game on both sides: (disagreement or None, plies, swapped, winner)."""
    ours = game.initial_state()
    theirs = spiel.new_initial_state()
    plies = 0
    swapped = False
    while True:
        if game.is_terminal(ours) != theirs.is_terminal():
            return (f"ply {plies}: over here {game.is_terminal(ours)}, "
                    f"in OpenSpiel {theirs.is_terminal()}"), plies, swapped, None
        links_here, links_there = our_links(game, ours), spiel_links(spiel, theirs)
        if links_here != links_there:
            return (f"ply {plies}: links only here {sorted(links_here - links_there)}, "
                    f"only in OpenSpiel {sorted(links_there - links_here)}"), plies, swapped, None
        if theirs.is_terminal():
            mine, spiels = expected_returns(game, ours), list(theirs.returns())
            if mine != spiels:
                return f"end at ply {plies}: returns {mine} here, {spiels} in OpenSpiel", plies, swapped, None
            return None, plies, swapped, game.result(ours).winner
        to_move = game.to_move(ours)
        if ["red", "blue"][theirs.current_player()] != to_move:
            return f"ply {plies}: {to_move} to move here, {theirs.current_player()} in OpenSpiel", plies, swapped, None
        actions = spiel_actions(theirs)
        notations = set(game.legal_notations(ours))
        if notations != set(actions):
            return (f"ply {plies}: only here {sorted(notations - set(actions))}, "
                    f"only in OpenSpiel {sorted(set(actions) - notations)}"), plies, swapped, None
        chosen = rng.choice(sorted(actions))
        if plies == 1:
            swap = "o" + game.pieces(ours)[0].site
            # the swap is one action of about fifty: offered more often than a
            # uniform draw would, so that enough games test it
            if swap in actions and rng.random() < swap_bias:
                chosen = swap
            swapped = chosen == swap
        ours = game.apply(ours, chosen)
        theirs.apply_action(actions[chosen])
        plies += 1


def agree(args: argparse.Namespace) -> int:
    if len(args.sizes) > 1:
        # OpenSpiel keeps the observation tensor's shape of the first size loaded in
        # a process (a static in TwixTGame::ObservationTensorShape): one process a size
        status = 0
        for size in args.sizes:
            status |= subprocess.call([sys.executable, __file__, "--games", str(args.games),
                                       "--seed", str(args.seed), "--sizes", str(size),
                                       "--swap-bias", str(args.swap_bias)])
        return status
    rng = random.Random(args.seed)
    failed = 0
    for size in args.sizes:
        game, spiel = load_both(size)
        failures = 0
        lengths, swaps, winners = [], 0, {"red": 0, "blue": 0, None: 0}
        for number in range(args.games):
            problem, plies, swapped, winner = play_one(game, spiel, rng, args.swap_bias)
            if problem is not None:
                failures += 1
                print(f"size {size} game {number}: {problem}")
                continue
            lengths.append(plies)
            swaps += swapped
            winners[winner] += 1
        failed += failures
        print(f"size {size}: {args.games - failures} of {args.games} games agree "
              f"(seed {args.seed}); plies median {statistics.median(lengths) if lengths else '-'}, "
              f"max {max(lengths) if lengths else '-'}; swaps played {swaps}; "
              f"red won {winners['red']}, blue {winners['blue']}, drawn {winners[None]}")
    return 1 if failed else 0


def spiel_playout(spiel: Any, rng: random.Random) -> int:
    state = spiel.new_initial_state()
    plies = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
    return plies


def rate(play: Callable[[], object], seconds: float) -> float:
    """Games a second of processor time, playing for about `seconds`."""
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        play()
        games += 1
    return games / (time.process_time() - start)


def speed(args: argparse.Namespace) -> int:
    for size in args.sizes:
        game, spiel = load_both(size)
        engine = game.engine
        initial = engine.initial_state()
        ours_rng, theirs_rng = random.Random(args.seed), random.Random(args.seed)

        def ours() -> None:
            engine.random_playout(engine.copy(initial), ours_rng, 100000)

        def theirs() -> None:
            spiel_playout(spiel, theirs_rng)

        rate(ours, 0.3)  # warm up: tables built on first use
        ours_rates, theirs_rates = [], []
        for _ in range(args.rounds):
            ours_rates.append(rate(ours, args.seconds))
            theirs_rates.append(rate(theirs, args.seconds))
        mine, spiels = statistics.median(ours_rates), statistics.median(theirs_rates)
        print(f"size {size}: regelwerk {mine:.0f} games/s, OpenSpiel {spiels:.0f} games/s "
              f"(medians of {args.rounds}, processor time); ratio {mine / spiels:.2f}")
        sys.stdout.flush()
    return 0


def spiel_perft(state: Any, depth: int, counts: list[int], level: int = 0) -> None:
    if depth == 0 or state.is_terminal():
        return
    actions = state.legal_actions()
    counts[level] += len(actions)
    if depth > 1:
        for action in actions:
            child = state.clone()
            child.apply_action(action)
            spiel_perft(child, depth - 1, counts, level + 1)


def perft(args: argparse.Namespace) -> int:
    game, spiel = load_both(args.size)
    ours, theirs = game.initial_state(), spiel.new_initial_state()
    # a position --random-plies into a random game (both sides play the same actions)
    rng = random.Random(args.seed)
    for _ in range(args.random_plies):
        if theirs.is_terminal():
            break
        actions = spiel_actions(theirs)
        chosen = rng.choice(sorted(actions))
        ours = game.apply(ours, chosen)
        theirs.apply_action(actions[chosen])
    counts = [0] * args.depth
    start = time.process_time()
    spiel_perft(theirs, args.depth, counts)
    spiel_seconds = time.process_time() - start
    start = time.process_time()
    our_counts = game.engine.perft(ours, args.depth)
    our_seconds = time.process_time() - start
    print(f"size {args.size}, {args.random_plies} random plies (seed {args.seed}), depth {args.depth}: "
          f"OpenSpiel {counts} in {spiel_seconds:.3f} s, regelwerk {list(our_counts)} in "
          f"{our_seconds:.3f} s (processor time); ratio {spiel_seconds / our_seconds:.2f}")
    return 0 if list(our_counts) == counts else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", nargs="?", default="agree", choices=["agree", "speed", "perft"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="5,8,11")
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--random-plies", type=int, default=0,
                        help="perft from a position this many random plies into a game")
    parser.add_argument("--swap-bias", type=float, default=0.2,
                        help="chance of playing the swap where it is offered (default 0.2)")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    args.sizes = [int(s) for s in args.sizes.split(",")]
    return {"agree": agree, "speed": speed, "perft": perft}[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
