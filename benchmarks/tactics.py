"""Tactical test sets of the bundled games, and how many positions a player solves.

    python -m benchmarks.tactics [GAME...] [--positions N] [--players mcts,mcts-v1] [--think TIME]
                                 [--clock wall|process]

For each game, `interpreter.analysis.tactics.generate` finds up to N positions
(half from random games, half from games of the default player at 100
simulations a move, seed 1) in which one action wins the game, wins material, or
must be found to avoid losing the game or material, valued by the bounded
look-ahead over material (docs/playing.md, "The built-in players";
benchmarks/README.md, "Tactical positions"). The set is kept in
`benchmarks/tactics-results/GAME.json` (delete it to make it again; another `--out DIR`
starts from a copy of it). Then each
player chooses an action in every position, a fresh player per position (seeded
by its number), and the table says the share solved by kind and how often the
player gave material away while it could keep it. `--think` sets the time of
`mcts` entries that name none (default: their default, 3 s). `--clock process`
gives each player its time in processor time, so that a loaded machine does not
cut the search short (the safety checks count processor time either way).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from interpreter import load_game
from interpreter.analysis.tactics import TacticalPosition, TacticalSet, generate, solve
from interpreter.frontends.agents import make_agent

RESULTS = Path(__file__).resolve().parent / "tactics-results"
GAMES = ("lielow", "regibus", "tablut", "morris")
KINDS = ("win", "avoid-loss", "avoid-material", "must-avoid", "win-material", "all")
SELF_PLAY = "mcts:100"


def tactical_set(game, count: int, out: Path) -> TacticalSet:
    """The game's set: read from `out`; else the kept set (`tactics-results/`) copied
    there, so that another `--out` asks the same positions; else generated now (minutes)
    and written there."""
    kept = RESULTS / out.name
    if not out.exists() and kept.exists() and kept.resolve() != out.resolve():
        print(f"{out}: the kept set {kept.relative_to(RESULTS.parent.parent)} copied there", file=sys.stderr)
        out.write_text(kept.read_text(encoding="utf-8"), encoding="utf-8")
    if out.exists():
        data = json.loads(out.read_text(encoding="utf-8"))
        return TacticalSet(data["game"], [TacticalPosition.from_json(p) for p in data["positions"]])
    print(f"{out}: no set of {game.name} kept: generating {count} positions (a few minutes)", file=sys.stderr)
    player = make_agent(SELF_PLAY, seed=1)
    found = generate(game, count, seed=1, chooser=player.choose)
    out.write_text(json.dumps({"game": found.game, "self_play": SELF_PLAY,
                               "positions": [p.to_json() for p in found.positions]}, indent=1), encoding="utf-8")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES), metavar="GAME")
    parser.add_argument("--positions", type=int, default=60, metavar="N", help="positions per game (default 60)")
    parser.add_argument("--players", default="mcts", help="players to ask, separated by commas (default mcts)")
    parser.add_argument("--think", default=None, metavar="TIME", help="budget of mcts entries that name none")
    parser.add_argument("--clock", choices=("wall", "process"), default="wall",
                        help="the players' clock: wall (default) or process (processor time: a loaded "
                             "machine does not shorten the search)")
    parser.add_argument("--out", type=Path, default=RESULTS, metavar="DIR")
    parser.add_argument("--verbose", action="store_true", help="list the positions missed")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in args.games:
        game = load_game(name)
        found = tactical_set(game, args.positions, args.out / f"{name}.json")
        for spec in args.players.split(","):
            started = time.monotonic()

            def choose(game, state, number=[0], spec=spec):
                number[0] += 1
                agent = make_agent(spec, seed=number[0], think=args.think)
                if args.clock == "process" and hasattr(agent, "clock"):
                    agent.clock = time.process_time
                return agent.choose(game, state).notation

            report = solve(game, found, choose)
            cells = []
            for kind in KINDS:
                total = report.positions.get(kind, 0)
                cells.append(f"{report.solved.get(kind, 0)}/{total}" if total else "-")
            clock = "" if args.clock == "wall" else " --clock process"
            rows.append(f"| {name} | `{spec}{'' if args.think is None else ' --think ' + args.think}{clock}` | "
                        + " | ".join(cells) + f" | {len(report.gave_away)} |")
            print(rows[-1], f"({time.monotonic() - started:.0f} s)", file=sys.stderr)
            if args.verbose:
                for line in report.missed:
                    print("  missed", line, file=sys.stderr)
    print("| game | player | " + " | ".join(KINDS) + " | gave material away |")
    print("|---|---|" + "---|" * len(KINDS) + "---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
