"""Tactical test sets of the bundled games, and how many positions a player solves.

    python -m benchmarks.tactics [GAME...] [--positions N] [--players mcts,mcts-v1] [--think TIME]
                                 [--clock wall|process] [--seed N --out DIR]

For each game, `interpreter.analysis.tactics.generate` finds up to N positions
(half from random games, half from games of the default player at 100
simulations a move, seed 1 or `--seed N`) in which one action wins the game, wins material, or
must be found to avoid losing the game or material, valued by the bounded
look-ahead over material (docs/playing.md, "The built-in players";
benchmarks/README.md, "Tactical positions"). The set is kept in
`benchmarks/tactics-results/GAME.json` (delete it to make it again; another `--out DIR`
starts from a copy of it; `--seed` other than 1 draws a fresh set, as a held-out check
would, into `--out DIR`: the kept sets are seed 1's). Then each
player chooses an action in every position, a fresh player per position (seeded
by its number), and the table says the share solved by kind and how often the
player gave material away while it could keep it — "(N against a forced win)": N of
those stopped a win two moves deep that every action keeping the material allows
(`against_a_forced_win`; the set's look-ahead is one turn deep). `--think` sets the time of
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
from interpreter.frontends.agents.safety import allows_forced_win
from interpreter.frontends.agents.tree import Node

RESULTS = Path(__file__).resolve().parent / "tactics-results"
GAMES = ("lielow", "regibus", "tablut", "morris")
KINDS = ("win", "avoid-loss", "avoid-material", "must-avoid", "win-material", "all")
SELF_PLAY = "mcts:100"


def tactical_set(game, count: int, out: Path, seed: int = 1) -> TacticalSet:
    """The game's set: read from `out`; else the kept set (`tactics-results/`, seed 1)
    copied there, so that another `--out` asks the same positions; else generated now
    (minutes) from the games of `seed` and written there."""
    kept = RESULTS / out.name
    if seed == 1 and not out.exists() and kept.exists() and kept.resolve() != out.resolve():
        print(f"{out}: the kept set {kept.relative_to(RESULTS.parent.parent)} copied there", file=sys.stderr)
        out.write_text(kept.read_text(encoding="utf-8"), encoding="utf-8")
    if out.exists():
        data = json.loads(out.read_text(encoding="utf-8"))
        return TacticalSet(data["game"], [TacticalPosition.from_json(p) for p in data["positions"]])
    print(f"{out}: no set of {game.name} kept: generating {count} positions (a few minutes)", file=sys.stderr)
    player = make_agent(SELF_PLAY, seed=seed)
    found = generate(game, count, seed=seed, chooser=player.choose)
    out.write_text(json.dumps({"game": found.game, "self_play": SELF_PLAY, "seed": seed,
                               "positions": [p.to_json() for p in found.positions]}, indent=1), encoding="utf-8")
    return found


FORCED_NODES = 200_000  # positions the look for a forced win may make after one action (`against_a_forced_win`)


def against_a_forced_win(game, position: TacticalPosition, chosen: str) -> bool:
    """Whether material given away (`chosen`) stops a forced win: after each action
    that keeps the balance the next player wins by force two moves deep (the player's
    own look, safety.py `allows_forced_win`, trying every action), after `chosen` not.
    The set's look-ahead sees one turn of answers; this is the one exception to "no
    material given away for nothing" it cannot see: the game before the piece."""
    engine = game.engine
    state = game.parse_position(position.position)
    me = engine.to_move(state)
    codes = {engine.notation(code): code for code in engine.legal(state)}

    def lets_them_force(notation: str) -> bool:
        child = Node(codes[notation])
        child.state = engine.copy(state)
        engine.apply_in_place(child.state, codes[notation])
        return allows_forced_win(engine, child, me, FORCED_NODES)

    kept = set(position.values) - position.losing()
    return bool(kept) and not lets_them_force(chosen) and all(lets_them_force(n) for n in sorted(kept))


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
    parser.add_argument("--seed", type=int, default=1, metavar="N",
                        help="the games the set is drawn from (default 1, the kept sets'); another needs --out")
    parser.add_argument("--verbose", action="store_true", help="list the positions missed")
    args = parser.parse_args(argv)
    if args.seed != 1 and args.out.resolve() == RESULTS.resolve():
        parser.error("--seed other than 1 draws a new set: give it an --out DIR (the kept sets are seed 1's)")
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in args.games:
        game = load_game(name)
        found = tactical_set(game, args.positions, args.out / f"{name}.json", args.seed)
        for spec in args.players.split(","):
            started = time.monotonic()

            def choose(game, state, number=[0], spec=spec):
                number[0] += 1
                agent = make_agent(spec, seed=number[0], think=args.think)
                if args.clock == "process" and hasattr(agent, "clock"):
                    agent.clock = time.process_time
                return agent.choose(game, state).notation

            for_the_game: list[str] = []

            def tell_given_away(number, position, chosen, name=name, for_the_game=for_the_game):
                """Every action that gave material away, with what it lost and whether
                that stopped a forced win (on stderr, as it comes)."""
                if position.gives_away(chosen):
                    stops = against_a_forced_win(game, position, chosen)
                    if stops:
                        for_the_game.append(chosen)
                    print(f"  {name} gave away: {position.source}: {position.position}: {chosen} "
                          f"(value {position.values[chosen]:+g}, balance {position.balance:+g}, "
                          f"kept by {' '.join(sorted(position.good()))}"
                          f"{'; each of those lets the opponent force a win two moves deep' if stops else ''})",
                          file=sys.stderr)

            report = solve(game, found, choose, tell_given_away)
            cells = []
            for kind in KINDS:
                total = report.positions.get(kind, 0)
                cells.append(f"{report.solved.get(kind, 0)}/{total}" if total else "-")
            clock = "" if args.clock == "wall" else " --clock process"
            rows.append(f"| {name} | `{spec}{'' if args.think is None else ' --think ' + args.think}{clock}` | "
                        + " | ".join(cells) + f" | {len(report.gave_away)}"
                        + (f" ({len(for_the_game)} against a forced win)" if for_the_game else "") + " |")
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
