"""The seed games beside their hand-written references: `regelwerk bench` and
`tests/reference/bench_reference.py`, run alternately.

    python -m benchmarks.bundled [GAME...] [--playouts N] [--rounds R] [--json]

Each round runs both commands as they are run by hand, each in a fresh process,
with the same number of playouts and the same seed (a new seed each round); the
table gives each side's median playouts and actions per second over the rounds
and the ratio regelwerk ÷ reference (above 1: the interpreter is faster). The two
sides draw their random games differently, so single rounds differ by the games
drawn as well as by the machine; the medians of several rounds are the figure.
Needs nothing beyond the package.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("lielow", "regibus", "royalfiz")
# Playouts per round and side that take half a second to a second on the development
# machine (timed; `regelwerk bench` plays untimed games first, as the reference
# builds its tables before it plays).
DEFAULT_PLAYOUTS = {"lielow": 4000, "regibus": 600, "royalfiz": 400}


def _run(command: list[str]) -> dict:
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(game: str, playouts: int, rounds: int) -> dict:
    """Both sides' rounds and their medians for one game."""
    sides: dict[str, list[dict]] = {"regelwerk": [], "reference": []}
    for seed in range(1, rounds + 1):
        common = ["--playouts", str(playouts), "--seed", str(seed)]
        sides["regelwerk"].append(_run([sys.executable, "-m", "interpreter", "bench", game, "--json", *common]))
        sides["reference"].append(_run([sys.executable, "tests/reference/bench_reference.py", game, *common]))
    result: dict = {"game": game, "playouts": playouts, "rounds": rounds}
    for side, runs in sides.items():
        result[side] = {
            "playouts_per_s": round(statistics.median(r["playouts_per_s"] for r in runs), 1),
            "actions_per_s": round(statistics.median(r["actions_per_s"] for r in runs)),
        }
    for rate in ("playouts_per_s", "actions_per_s"):
        result[f"ratio_{rate}"] = round(result["regelwerk"][rate] / result["reference"][rate], 2)
    return result


def table(results: list[dict]) -> str:
    lines = [
        "| game | regelwerk playouts/s | reference playouts/s | regelwerk ÷ reference | "
        "regelwerk actions/s | reference actions/s | regelwerk ÷ reference |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['game']} | {r['regelwerk']['playouts_per_s']} | {r['reference']['playouts_per_s']} | "
            f"{r['ratio_playouts_per_s']}× | {r['regelwerk']['actions_per_s']} | {r['reference']['actions_per_s']} | "
            f"{r['ratio_actions_per_s']}× |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bundled",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[2:]),
    )
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"default: all ({', '.join(GAMES)})")
    parser.add_argument("--playouts", type=int, help="playouts per round and side (default: per game, 400 to 4000)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--json", action="store_true", help="one JSON document instead of the table")
    args = parser.parse_args(argv)
    if args.rounds < 1 or (args.playouts is not None and args.playouts < 1):
        parser.error("--rounds and --playouts must be at least 1")
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"no reference for {', '.join(unknown)}: the games are {', '.join(GAMES)}")
    results = []
    for game in args.games or GAMES:
        print(f"measuring {game} ...", file=sys.stderr)
        results.append(measure(game, args.playouts or DEFAULT_PLAYOUTS[game], args.rounds))
    print(json.dumps(results, indent=2) if args.json else table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
