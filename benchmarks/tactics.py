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
player gave material away while it could keep it — "(N where keeping it lost by
force)": in N of those every action keeping the material lets the opponent win by
force within four of its moves (`for_the_game`; the set's look-ahead is one turn
deep): given for the game, not for nothing. `--think` sets the time of
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
from interpreter.frontends.agents.safety import allows_net
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


# `lost_by_force`: the next player's moves and positions the look for a forced win goes
# after one action. Four moves: the default player's solver proves losses deeper than its
# own look for a net (NET_MOVES, three): a won endgame's every line ends within four.
FORCED_MOVES = 4
FORCED_NODES = 200_000


def lost_by_force(game, position: TacticalPosition, notations: list[str], moves: int = FORCED_MOVES) -> list[str]:
    """Those of `notations` (actions of the position) after which the next player
    wins by force within `moves` of its moves: the player's own look for a net
    (safety.py `allows_net`), here trying every action, one move deeper at a time;
    where each runs past FORCED_NODES positions, the action is not counted lost. The set's look-ahead
    sees one turn of answers: material given away where every action that keeps it
    is lost so is given for the game, not for nothing (a blocker in the line of a
    king that escapes two moves later, the longest loss of a lost position)."""
    engine = game.engine
    state = game.parse_position(position.position)
    me = engine.to_move(state)
    codes = {engine.notation(code): code for code in engine.legal(state)}
    lost = []
    for notation in notations:
        child = Node(codes[notation])
        child.state = engine.copy(state)
        engine.apply_in_place(child.state, codes[notation])
        # (one move deeper at a time: a deep look that runs out of positions knows nothing
        # of the short win a shallow one finds)
        if any(allows_net(engine, child, me, depth, FORCED_NODES, lambda player: lambda code: True, [])
               for depth in range(1, moves + 1)):
            lost.append(notation)
    return lost


def for_the_game(game, position: TacticalPosition) -> bool:
    """Whether every action of the position that keeps the balance is lost by force
    (`lost_by_force`): material given away there is not given for nothing."""
    kept = sorted(set(position.values) - position.losing())
    return bool(kept) and lost_by_force(game, position, kept) == kept


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

            excused: list[str] = []

            def tell_given_away(number, position, chosen, name=name, excused=excused):
                """Every action that gave material away, with what it lost and whether
                every action keeping the material was lost by force (on stderr, as it comes)."""
                if position.gives_away(chosen):
                    lost, lost_too = for_the_game(game, position), ""
                    if lost:
                        excused.append(chosen)
                        lost_too = " (it too)" if lost_by_force(game, position, [chosen]) else " (it not)"
                    print(f"  {name} gave away: {position.source}: {position.position}: {chosen} "
                          f"(value {position.values[chosen]:+g}, balance {position.balance:+g}, "
                          f"kept by {' '.join(sorted(position.good()))}"
                          f"{f'; each of those lost by force within {FORCED_MOVES} moves' + lost_too if lost else ''})",
                          file=sys.stderr)

            report = solve(game, found, choose, tell_given_away)
            cells = []
            for kind in KINDS:
                total = report.positions.get(kind, 0)
                cells.append(f"{report.solved.get(kind, 0)}/{total}" if total else "-")
            clock = "" if args.clock == "wall" else " --clock process"
            rows.append(f"| {name} | `{spec}{'' if args.think is None else ' --think ' + args.think}{clock}` | "
                        + " | ".join(cells) + f" | {len(report.gave_away)}"
                        + (f" ({len(excused)} where keeping it lost by force)" if excused else "") + " |")
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
