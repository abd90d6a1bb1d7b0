"""How strong the default player is: the table of docs/playing.md ("How strong is it?").

    python -m benchmarks.strength [--out DIR] [--jobs N] [GAME...]

Plays, for every bundled game (RoyalFiz with two players), the new player against
the former default (`mcts-classic`: plain UCT, 1000 random playouts a decision) and
against `random`, seats swapped from game to game, with `regelwerk match --json`;
each match's JSON is kept in DIR (default `benchmarks/strength-results/`), so an
interrupted run goes on where it stopped. Then prints the table in Markdown.

The new player runs with a budget of simulations (`mcts:1000`, the same number as
the former default), not with its default of 3 seconds: the results are then the
same on any machine and under any load (`regelwerk match` with an iteration budget
is a function of its seed), and the comparison gives the new player no more
simulations than the old one had. Rows named `mcts` use the time budget itself.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

# (game, options, games per match, the new player's spec, opponents)
PLAN = [
    ("lielow", {}, 40, "mcts:1000", ("mcts-classic", "random")),
    ("morris", {}, 20, "mcts:1000", ("mcts-classic", "random")),
    ("morris", {}, 12, "mcts", ("mcts-classic",)),
    ("regibus", {}, 24, "mcts:1000", ("mcts-classic", "random")),
    ("tablut", {}, 16, "mcts:1000", ("mcts-classic", "random")),
    ("royalfiz", {"players": "2"}, 20, "mcts:1000", ("mcts-classic", "random")),
]
SEED = 1


def result_file(folder: Path, game: str, player: str, opponent: str) -> Path:
    return folder / f"{game}-{player.replace(':', '')}-{opponent}.json"


def play_match(folder: Path, game: str, options: dict, games: int, player: str, opponent: str, jobs: int) -> dict:
    """The match's JSON report, played now unless DIR holds it already."""
    out = result_file(folder, game, player, opponent)
    if out.exists():
        return json.loads(out.read_text(encoding="utf-8"))
    command = [sys.executable, "-m", "interpreter", "match", game, "--players", f"{player},{opponent}",
               "--games", str(games), "--seed", str(SEED), "--swap", "--jobs", str(jobs), "--json"]
    for name, value in options.items():
        command += ["--option", f"{name}={value}"]
    started = time.monotonic()
    report = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    report["wall_seconds"] = round(time.monotonic() - started)
    out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return report


def table_row(game: str, options: dict, report: dict, opponent: str) -> str:
    new = report["agents"][0]
    low, high = new["ci95"]
    name = game + (" (2 players)" if options else "")
    return (f"| {name} | `{new['spec']}` | `{opponent}` | {report['games']} | {new['wins']} | {new['draws']} | "
            f"{new['losses']} | {100 * new['win_rate']:.0f}% [{100 * low:.0f}%, {100 * high:.0f}%] | "
            f"{report['plies_mean']:.0f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help="only these games (default: all of the plan)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "strength-results", metavar="DIR")
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help="processes per match (default 1)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for game, options, games, player, opponents in PLAN:
        if args.games and game not in args.games:
            continue
        for opponent in opponents:
            report = play_match(args.out, game, options, games, player, opponent, args.jobs)
            rows.append(table_row(game, options, report, opponent))
            print(rows[-1], file=sys.stderr)
    print("| game | player | against | games | wins | draws | losses | win rate [95% interval] | actions a game |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
