"""How strong the default player is, against three opponents, at the same time a move.

    python -m benchmarks.strength [GAME...] [--against openspiel,previous,greedy]
                                  [--seconds 0.25] [--games N] [--first N] [--clock wall|process]
                                  [--out DIR] [--methods NAME=VALUE,...]

For each bundled game (RoyalFiz with two players) and each benchmark game
(benchmarks/catalog.py), the default player (`mcts`, given `--seconds` a move)
plays, seats swapped from game to game:

- `openspiel`: OpenSpiel's `MCTSBot` with random rollouts (uct_c 2, one rollout
  per simulation, MCTS-Solver: OpenSpiel's own example) given the same time a
  move, on the benchmark games (openspiel.py; every position is compared on both
  sides as the oracle does);
- `previous`: the previous default player, `mcts-v1`, given the same time;
- `greedy`: the one-ply greedy player (`greedy`).

Each match's result is kept in DIR (default `benchmarks/strength-results/`), one
JSON file per game, opponent and time, so an interrupted run goes on where it
stopped and `--games` more games extend a match (game k is a function of the
seed and k): run again with `--games 40` into the same DIR, games 20 to 39 are
added. `--first 20 --games 40` plays games 20 to 39 alone — the second half of a
match beside the first, into another DIR, or a half whose first is not wanted —
and a later run without `--first` adds whatever numbers the file lacks; the
file keeps its games in the order of their numbers. Each game's record holds
`index`, `score` (of the default player: 1, 0.5, 0), `plies` and `moves` (the
notations, chance's included); against OpenSpiel also `regelwerk_seat` (0 or 1),
`seconds` (each side's thinking time) and `capped` (stopped at the move cap),
against the others `default_player` (the seat's name). Then the table is printed in
Markdown: games, wins, draws, losses, the win rate with its 95% (Wilson) interval, the score rate (a draw counts half)
and the Elo difference it means, with the interval of the score rate in Elo.

Run it niced and alone on a shared machine: a time budget measures the machine
as much as the player, and both sides share whatever else runs. `--clock process`
measures both sides' time a move in processor time of this process
(time.process_time) instead of the wall clock, so that the load of other jobs
changes how long a match takes, not what a move may cost (its files end in
`-cpu.json`).

`--methods grave=0,evaluation=0` plays a variant of the default player against
any opponent: those fields of its `Methods` (mcts.py) changed, to measure what one
of them is worth (give such a match a `--out` of its own).
"""
from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import sys
import time
from pathlib import Path
from typing import Callable

from interpreter import load_game
from interpreter.frontends.match import GamePlan, play_one, wilson

from ..catalog import GAMES as BENCHMARKS
from .stats import elo, elo_interval

RESULTS = Path(__file__).resolve().parent.parent / "strength-results"
SEED = 1
MAX_PLIES = 5000  # a game still going after so many actions is a draw
# (name, options) of the bundled games
BUNDLED = [("lielow", {}), ("regibus", {}), ("tablut", {}), ("morris", {}), ("royalfiz", {"players": "2"})]
OPPONENTS = ("openspiel", "previous", "greedy")
GAMES = {"openspiel": 30, "previous": 30, "greedy": 10}  # games a match, by opponent
SPECS = {"previous": "mcts-v1:{seconds}s", "greedy": "greedy"}


def games_to_play(names: list[str]) -> list[tuple[str, str, dict]]:
    """(label, kind, options): kind 'bundled' or 'benchmark'. A name is a game's
    label: `morris` the bundled game, `morris-benchmark` the benchmark game of that
    name (its result files' name); an unknown name is a ValueError."""
    out = [(name, "bundled", options) for name, options in BUNDLED]
    out += [(f"{name} (benchmark)" if name in dict(BUNDLED) else name, "benchmark", {}) for name in BENCHMARKS]
    if not names:
        return out
    by_name = {_name(label): (label, kind, options) for label, kind, options in out}
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise ValueError(f"unknown games {', '.join(unknown)}; known: {', '.join(by_name)}")
    return [by_name[name] for name in dict.fromkeys(names)]


def _name(label: str) -> str:
    """`morris (benchmark)` -> `morris-benchmark`: a label as a command names it."""
    return label.split()[0] + ("-benchmark" if "(" in label else "")


_LOADED: dict = {}


def load(label: str, kind: str, options: dict):
    """The game (loaded once: what the player learns of it is kept with it)."""
    if label not in _LOADED:
        name = label.split()[0]
        game = _LOADED[label] = BENCHMARKS[name].load() if kind == "benchmark" else load_game(name, options)
        warm_up(game)
        # what is loaded and learnt lives as long as the process: kept out of the
        # collector's full passes, whose pauses (0.1-0.15 s of processor time with a
        # game loaded) fell into either side's moves and ran them past their time
        gc.collect()
        gc.freeze()
    return _LOADED[label]


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "process": time.process_time}
METHODS: dict = {}  # fields of the default player's `Methods` changed by --methods


def parse_methods(text: str) -> dict:
    """`grave=0,try_all=8` -> {"grave": False, "try_all": 8}, typed as `Methods` declares."""
    from interpreter.frontends.agents.mcts import Methods

    fields = {f.name: f.type for f in dataclasses.fields(Methods)}
    out: dict = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = (part.strip() for part in item.partition("="))
        if name not in fields:
            raise ValueError(f"--methods: no method {name!r}; known: {', '.join(fields)}")
        kind = fields[name] if isinstance(fields[name], str) else fields[name].__name__
        out[name] = value not in ("0", "false", "no", "off") if kind == "bool" else float(value) if kind == "float" \
            else int(value)
    return out


def default_player(spec: str, seed: int):
    """The default player of `spec` (`mcts:0.25s`), with --methods' changes."""
    from interpreter.frontends.agents import make_agent

    agent = make_agent(spec, seed=seed)
    with_methods(agent, 0)
    return agent


def with_methods(agent, entry: int) -> None:
    """The default player (entry 0 of a match's specs) with --methods' changes."""
    from interpreter.frontends.agents.mcts import CURRENT

    if METHODS and entry == 0:
        agent.methods = dataclasses.replace(CURRENT, **METHODS)  # type: ignore[attr-defined]


def result_file(folder: Path, label: str, opponent: str, seconds: float, clock: str = "wall") -> Path:
    suffix = "-cpu" if clock == "process" else ""
    return folder / f"{_name(label)}-{opponent}-{seconds:g}s{suffix}.json"


def warm_up(game) -> None:
    """What the default player learns of a game once per process (a second or two,
    docs/playing.md), learnt before the clock runs, as in a long session."""
    from interpreter.frontends.agents.knowledge import evaluation_of, knowledge_of

    knowledge_of(game)
    evaluation_of(game)


def play_against_openspiel(label: str, seconds: float, first: int, count: int, clock: str = "wall") -> list[dict]:
    """Games `first` .. `first + count - 1` of the default player against MCTSBot."""
    from .openspiel import play_game

    bench = BENCHMARKS[label.split()[0]]
    game, spiel_game = load(label, "benchmark", {}), bench.load_spiel()
    timer = CLOCKS[clock]

    def regelwerk_player(seed: int):
        agent = default_player(f"mcts:{seconds}s", seed)
        agent.clock = timer  # type: ignore[attr-defined]
        return agent

    out = []
    for index in range(first, first + count):
        result = play_game(bench, game, spiel_game, regelwerk_player, seconds, index, SEED, clock=timer)
        out.append({"index": index, "score": result.score, "plies": result.plies,
                    "seconds": {side: round(t, 1) for side, t in result.seconds.items()}}
                   | ({"capped": True} if result.capped else {})
                   | {"regelwerk_seat": result.regel_seat, "moves": list(result.moves)})
        capped = " (unfinished at the move cap: a draw)" if result.capped else ""
        print(f"  {label} against openspiel, game {index}: {result.score}{capped}", file=sys.stderr)
    return out


def play_against(label: str, kind: str, options: dict, opponent: str, seconds: float, first: int,
                 count: int, clock: str = "wall") -> list[dict]:
    """Games `first` .. `first + count - 1` of the default player against
    `previous` or `greedy`: game k as `regelwerk match --swap --seed 1` plays it."""
    game = load(label, kind, options)
    specs = [f"mcts:{seconds}s", SPECS[opponent].format(seconds=seconds)]
    n_seats = len(game.players)
    out = []
    for index in range(first, first + count):
        seats = tuple(min(i, 1) for i in range(n_seats))
        plan = GamePlan(index, tuple(seats[(i + index) % n_seats] for i in range(n_seats)))
        o = play_one(game, specs, plan, SEED, MAX_PLIES, clock=CLOCKS[clock], adjust=with_methods)
        mine = game.players[plan.seats.index(0)]
        score = 0.5 if o.winner is None else 1.0 if o.winner == mine else 0.0
        out.append({"index": index, "score": score, "plies": o.plies, "default_player": mine,
                    "moves": list(o.notations)})
        print(f"  {label} against {opponent}, game {index}: {score}", file=sys.stderr)
    return out


def run_row(folder: Path, label: str, kind: str, options: dict, opponent: str, seconds: float, games: int,
            clock: str = "wall", first: int = 0) -> dict:
    """The match's record, its missing games from `first` to `games` − 1 played now,
    kept in the order of their numbers (the file is written after each game, so that
    an interrupted run loses one game at most)."""
    path = result_file(folder, label, opponent, seconds, clock)
    record = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {
        "game": label, "opponent": opponent, "seconds": seconds, "clock": clock, "methods": dict(METHODS),
        "games": []}
    played = {game["index"] for game in record["games"]}
    missing = [index for index in range(first, games) if index not in played]
    if missing and record.get("methods", {}) != METHODS:
        # (one file, one player: games of another variant would be counted as its)
        raise SystemExit(f"{path} holds games of the default player with --methods "
                         f"{_methods_text(record.get('methods', {})) or '(none)'}; this run has "
                         f"{_methods_text(METHODS) or '(none)'}: give another --out")
    for index in missing:
        started = time.monotonic()
        if opponent == "openspiel":
            record["games"] += play_against_openspiel(label, seconds, index, 1, clock)
        else:
            record["games"] += play_against(label, kind, options, opponent, seconds, index, 1, clock)
        record["games"].sort(key=lambda game: game["index"])
        record["wall_seconds"] = record.get("wall_seconds", 0) + round(time.monotonic() - started)
        path.write_text(json.dumps(record, indent=1), encoding="utf-8")
    return record


def _methods_text(methods: dict) -> str:
    return ",".join(f"{name}={value}" for name, value in sorted(methods.items()))


def table_row(record: dict) -> str:
    scores = [g["score"] for g in record["games"]]
    n = len(scores)
    wins, draws = scores.count(1.0), scores.count(0.5)
    losses = n - wins - draws
    capped = sum(1 for g in record["games"] if g.get("capped"))
    drawn = f"{draws} ({capped} at the move cap)" if capped else f"{draws}"
    points = wins + draws / 2
    low, high = wilson(wins, n)
    elo_low, elo_high = elo_interval(points, n)
    plies = sum(g["plies"] for g in record["games"]) / n if n else 0
    against = {"openspiel": "OpenSpiel MCTSBot", "previous": "`mcts-v1`", "greedy": "`greedy`"}[record["opponent"]]
    cpu = " (processor)" if record.get("clock") == "process" else ""
    variant = f" (`{_methods_text(record['methods'])}`)" if record.get("methods") else ""
    return (f"| {record['game']}{variant} | {against} | {record['seconds']:g} s{cpu} | {n} | {wins} | {drawn} | "
            f"{losses} | "
            f"{100 * wins / n:.0f}% [{100 * low:.0f}%, {100 * high:.0f}%] | {100 * points / n:.0f}% | "
            f"{elo(points / n, n):+.0f} [{elo_low:+.0f}, {elo_high:+.0f}] | {plies:.0f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help="only these games (default: all); a benchmark game named as a bundled one is "
                             "NAME-benchmark (morris-benchmark)")
    parser.add_argument("--against", default=",".join(OPPONENTS), help="opponents, comma-separated")
    parser.add_argument("--seconds", type=float, default=0.25, help="time a move of both sides (default 0.25)")
    parser.add_argument("--games", dest="count", type=int, default=None,
                        help="games a match (default: 30 against openspiel and previous, 10 against greedy)")
    parser.add_argument("--first", type=int, default=0, metavar="N",
                        help="play the match's games from number N on only (those its file lacks): the second "
                             "half of a match beside the first")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="what the time a move is measured on (default: wall; process: processor time)")
    parser.add_argument("--out", type=Path, default=RESULTS, metavar="DIR")
    parser.add_argument("--methods", default="", metavar="NAME=VALUE,...",
                        help="a variant of the default player against openspiel: these fields of its Methods changed")
    parser.add_argument("--table-only", action="store_true", help="print the table of what DIR holds")
    args = parser.parse_args(argv)
    try:
        METHODS.update(parse_methods(args.methods))
    except ValueError as error:
        parser.error(str(error))
    args.out.mkdir(parents=True, exist_ok=True)
    opponents = [o.strip() for o in args.against.split(",") if o.strip()]
    unknown = set(opponents) - set(OPPONENTS)
    if unknown:
        parser.error(f"unknown opponents {sorted(unknown)}; known: {', '.join(OPPONENTS)}")
    try:
        chosen = games_to_play(args.games)
    except ValueError as error:
        parser.error(str(error))
    rows = []
    for label, kind, options in chosen:
        for opponent in opponents:
            if opponent == "openspiel" and kind != "benchmark":
                continue
            if args.table_only:
                path = result_file(args.out, label, opponent, args.seconds, args.clock)
                if not path.exists():
                    continue
                record = json.loads(path.read_text(encoding="utf-8"))
            else:
                record = run_row(args.out, label, kind, options, opponent, args.seconds,
                                 args.count or GAMES[opponent], args.clock, args.first)
            if record["games"]:
                rows.append(table_row(record))
                if not args.table_only:  # (progress, while matches are played)
                    print(rows[-1], file=sys.stderr)
    if args.table_only and not rows:
        held = sorted(path.name for path in args.out.glob("*.json"))
        print(f"no match in {args.out} for these games, opponents, --seconds {args.seconds:g} and --clock "
              f"{args.clock}" + (f"; it holds {', '.join(held)} (`-cpu` files: --clock process)" if held else
                                 "; it holds no result file"), file=sys.stderr)
        return 1
    print("| game | against | time a move | games | wins | draws | losses | win rate [95% interval] | score | "
          "Elo [95% interval] | actions a game |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
