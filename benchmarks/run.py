"""regelwerk beside OpenSpiel (and python-chess): random playouts per second, perft.

    python -m benchmarks.run [GAME...] [--seconds S] [--rounds R] [--mcts] [--json]

For each game the sides are measured alternately, in R rounds of S/R seconds each,
so that whatever else the machine does hits both; the table gives each side's
median over the rounds and the ratio regelwerk ÷ OpenSpiel (below 1: OpenSpiel is
faster; 0.5 is twice as fast). Then both sides count the leaves of the game tree
from the start to a fixed depth per game (perft), one after the other, and the
ratio of their speeds. `--mcts` adds the time regelwerk's `mcts:1000` player takes
per move on a few positions of each game. Needs the `bench` extra:
`pip install -e '.[bench]'`.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from dataclasses import dataclass, field

from interpreter import DefinitionError

from . import timing
from .catalog import DEFINITION_HELP, GAMES, BenchmarkGame, with_definitions


@dataclass
class Side:
    """One implementation's rounds: playouts per second and moves per playout."""

    rates: list = field(default_factory=list)
    plies: int = 0
    playouts: int = 0

    def add(self, playouts: int, plies: int, seconds: float) -> None:
        self.rates.append(playouts / seconds)
        self.playouts += playouts
        self.plies += plies

    @property
    def median(self) -> float:
        return statistics.median(self.rates)

    def as_json(self) -> dict:
        return {
            "playouts_per_s": round(self.median, 2),
            "rounds": [round(r, 2) for r in self.rates],
            "playouts": self.playouts,
            "moves_per_playout": round(self.plies / self.playouts, 1),
        }


def measure(bench: BenchmarkGame, seconds: float, rounds: int, seed: int) -> dict[str, Side]:
    game = bench.load()
    spiel_game = bench.load_spiel()
    engine = game.engine
    start = engine.initial_state()
    rng = random.Random(seed)
    runners = {
        "regelwerk": lambda: timing.regel_playout(engine, engine.copy(start), rng),
        "openspiel": lambda: timing.spiel_playout(spiel_game, rng),
    }
    if bench.python_chess:
        runners["python-chess"] = lambda: timing.python_chess_playout(rng)
    sides = {name: Side() for name in runners}
    share = seconds / rounds
    for _ in range(rounds):
        for name, playout in runners.items():
            sides[name].add(*timing.timed(playout, share))
    return sides


def measure_perft(bench: BenchmarkGame, rounds: int) -> dict:
    """Both sides' perft from the start at the game's depths (`bench.perft`), timed
    alternately in `rounds` rounds: regelwerk's `engine.perft`, OpenSpiel's
    recursion over pyspiel states (`oracle.spiel_perft`: moves as the adapter
    groups them, a roll's two orders once, as regelwerk counts them; the last level
    counted, not played, as regelwerk's)."""
    from . import oracle

    game = bench.load()
    spiel_game = bench.load_spiel()
    regel_depth, spiel_depth = bench.perft
    engine = game.engine
    if hasattr(bench.adapter, "regel_depth"):  # (a definition playing OpenSpiel's action in several)
        regel_depth = bench.adapter.regel_depth(engine, spiel_depth)
    start = engine.initial_state()
    result = {"depth": [regel_depth, spiel_depth], "regelwerk": {"seconds": []}, "openspiel": {"seconds": []}}
    for _ in range(rounds):
        t0 = timing.clock()
        result["regelwerk"]["leaves"] = engine.perft(start, regel_depth)[-1]
        result["regelwerk"]["seconds"].append(round(timing.clock() - t0, 3))
        t0 = timing.clock()
        result["openspiel"]["leaves"] = oracle.spiel_perft(bench.adapter, spiel_game.new_initial_state(),
                                                           spiel_depth)
        result["openspiel"]["seconds"].append(round(timing.clock() - t0, 3))
    return result


def mcts_seconds_per_move(bench: BenchmarkGame, positions: int, seed: int) -> list[float]:
    """Seconds that `mcts:1000` takes to choose a move at the start and at
    positions reached by random moves (fixed by `seed`); a chance event there is
    decided at random first."""
    from interpreter.frontends.agents.registry import make_agent

    game = bench.load()
    rng = random.Random(seed)
    state = game.initial_state()
    times = []
    for _ in range(positions):
        while not game.is_terminal(state) and game.to_move(state) == "chance":
            state = game.apply(state, rng.choice(sorted(game.legal_notations(state))))
        if game.is_terminal(state):
            break
        agent = make_agent("mcts:1000", seed=seed)
        t0 = timing.clock()
        agent.choose(game, state)
        times.append(timing.clock() - t0)
        # on to a later position: 10 random moves
        for _ in range(10):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(sorted(game.legal_notations(state))))
    return times


def _ratio(regelwerk: float, other: float) -> str:
    return f"{regelwerk / other:.2f}" if other else ""


def table(results: list[dict], with_mcts: bool) -> str:
    head = ["game", "regelwerk playouts/s", "OpenSpiel playouts/s", "regelwerk ÷ OpenSpiel",
            "python-chess playouts/s", "regelwerk ÷ python-chess", "moves/playout (rw / OS)"]
    with_perft = any("perft" in r for r in results)
    if with_perft:
        head += ["perft depth", "perft leaves", "perft s (rw / OS)", "perft regelwerk ÷ OpenSpiel"]
    if with_mcts:
        head.append("mcts:1000 s/move")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in results:
        rw, os_ = r["regelwerk"], r["openspiel"]
        pc = r.get("python-chess")
        row = [
            r["game"],
            f"{rw['playouts_per_s']:.1f}",
            f"{os_['playouts_per_s']:.1f}",
            _ratio(rw["playouts_per_s"], os_["playouts_per_s"]),
            f"{pc['playouts_per_s']:.1f}" if pc else "",
            _ratio(rw["playouts_per_s"], pc["playouts_per_s"]) if pc else "",
            f"{rw['moves_per_playout']} / {os_['moves_per_playout']}",
        ]
        if with_perft:
            perft = r.get("perft")
            if perft is None:
                row += ["", "", "", ""]
            else:
                rw_depth, os_depth = perft["depth"]
                rw_leaves, os_leaves = perft["regelwerk"]["leaves"], perft["openspiel"]["leaves"]
                rw_s = statistics.median(perft["regelwerk"]["seconds"])
                os_s = statistics.median(perft["openspiel"]["seconds"])
                row += [
                    str(rw_depth) if rw_depth == os_depth else f"{rw_depth} / {os_depth}",
                    str(rw_leaves) if rw_leaves == os_leaves else f"{rw_leaves} / {os_leaves} (DIFFER)",
                    f"{rw_s:.2f} / {os_s:.2f}",
                    _ratio(os_s, rw_s),
                ]
        if with_mcts:
            row.append(f"{statistics.median(r['mcts_seconds']):.2f}" if r.get("mcts_seconds") else "")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.run", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 2)[2])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"default: all ({', '.join(GAMES)})")
    parser.add_argument("--seconds", type=float, default=6.0,
                        help="measuring time per side and game, split over the rounds (default 6)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-perft", action="store_true", help="leave out perft")
    parser.add_argument("--perft-rounds", type=int, default=1, metavar="N",
                        help="alternating perft rounds per side (default 1)")
    parser.add_argument("--mcts", action="store_true", help="also time regelwerk's mcts:1000 per move")
    parser.add_argument("--mcts-positions", type=int, default=2, metavar="N",
                        help="positions per game for --mcts (default 2: the start, 10 moves later)")
    parser.add_argument("--definition", action="append", default=[], metavar="GAME=PATH",
                        help=DEFINITION_HELP + "; the moves/playout column shows whether it plays the same rules")
    parser.add_argument("--clock", choices=sorted(timing.CLOCKS), default="wall",
                        help="wall: elapsed time (default); process: the processor time the run used, "
                             "which other programs on a busy machine do not inflate")
    parser.add_argument("--json", action="store_true", help="one JSON document instead of the table")
    args = parser.parse_args(argv)
    timing.use_clock(args.clock)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(GAMES)}")
    if args.seconds <= 0 or args.rounds < 1 or args.perft_rounds < 1:
        parser.error("--seconds must be positive, --rounds and --perft-rounds at least 1")
    try:
        games = with_definitions(args.definition)
    except ValueError as e:
        parser.error(str(e))
    for name in {given.partition("=")[0] for given in args.definition}:
        try:
            games[name].load()
        except DefinitionError as e:
            parser.exit(1, f"{e}\n")
    try:
        import chess  # noqa: F401
        import pyspiel  # noqa: F401
    except ImportError as e:
        parser.exit(1, f"benchmarks need the bench extra (pip install -e '.[bench]'): {e}\n")

    results = []
    for name in args.games or list(GAMES):
        bench = games[name]
        print(f"measuring {name} ...", file=sys.stderr, flush=True)
        sides = measure(bench, args.seconds, args.rounds, args.seed)
        result = {"game": name, **{side: s.as_json() for side, s in sides.items()}}
        if not args.no_perft:
            result["perft"] = measure_perft(bench, args.perft_rounds)
        if args.mcts:
            result["mcts_seconds"] = [round(t, 3) for t in
                                      mcts_seconds_per_move(bench, args.mcts_positions, args.seed)]
        results.append(result)
    if args.json:
        print(json.dumps({"seconds": args.seconds, "rounds": args.rounds, "clock": args.clock, "games": results},
                         indent=1))
    else:
        print(table(results, args.mcts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
