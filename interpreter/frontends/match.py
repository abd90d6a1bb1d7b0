"""`regelwerk match`: many games between built-in players, with statistics.

    regelwerk match GAME --players mcts:1000,random --games 100 --seed 1 --swap

Each game is a pure function of (the game, the players, --seed, its number): its
agents and its chance events draw from generators seeded with `SEED/GAME/WHO`, so
a match gives the same results whatever the order the games run in, on one
process or on several (`--jobs`).

The players are the entries of --players; the last one fills the remaining
seats, as for `play`, each seat it fills counting as an entry of its own
(`random#1`, `random#2`). With `--swap` game k rotates the seats by k places, so
over a multiple of the number of seats every entry plays every side equally.

A game that reaches `--max-plies` unfinished counts as a draw (and is reported).
The win rate's 95% confidence interval is the Wilson score interval.
"""
from __future__ import annotations

import json
import math
import os
import random
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from ..api import CHANCE_NAME
from ..spelling import counted
from .agents import make_agent, sample_chance
from .agents.registry import split_players
from .common import prepare_agent
from .names import display_name, resolve_game
from .record_game import header_identity
from .records import RecordHeader, write_record

if TYPE_CHECKING:
    from ..api import Game


Z95 = 1.959963984540054


# -- one game -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GamePlan:
    """Game number `index` of a match: which entry sits in which seat."""

    index: int
    seats: tuple[int, ...]  # seats[i]: the entry (index into the --players list) playing players[i]


@dataclass
class GameOutcome:
    index: int
    seats: tuple[int, ...]
    winner: Optional[str]  # a player (seat name) or a team (`teams:`), None: draw or unfinished
    finished: bool
    plies: int
    notations: list[str] = field(default_factory=list)
    winners: tuple[str, ...] = ()  # the players who won: the winner, or a winning team's players

    def won_by(self, entry: int, players: Sequence[str]) -> bool:
        """Whether a seat `entry` played is among the winners."""
        return any(self.seats[players.index(p)] == entry for p in self.winners)


def game_seed(seed: int, index: int, who: str) -> str:
    return f"{seed}/{index}/{who}"


def play_one(game: Game, specs: Sequence[str], plan: GamePlan, seed: int, max_plies: int,
             think: Optional[str] = None, clock: Optional[Callable[[], float]] = None,
             adjust: Optional[Callable[[Any, int], None]] = None) -> GameOutcome:
    """Play game `plan.index` to its end (or `max_plies`). With `clock`, the time
    budgets of the searching agents are measured on it (time.process_time: the
    benchmarks' matches on a shared machine). `adjust(agent, entry)` is called on
    each agent made, with the index of its spec (a benchmark's variant of a player)."""
    players = game.players
    agents = {
        player: make_agent(specs[entry], seed=_int_seed(game_seed(seed, plan.index, player)), think=think)
        for player, entry in zip(players, plan.seats)
    }
    if adjust is not None:
        for player, entry in zip(players, plan.seats):
            adjust(agents[player], entry)
    for agent in agents.values():
        if clock is not None and hasattr(agent, "clock"):
            agent.clock = clock
        prepare_agent(agent, game)
    chance_rng = random.Random(game_seed(seed, plan.index, CHANCE_NAME))
    state = game.initial_state()
    notations: list[str] = []
    while len(notations) < max_plies:
        who = game.to_move(state)
        if who is None:
            break
        if who == CHANCE_NAME:
            action = sample_chance(game, state, chance_rng)
        else:
            action = agents[who].choose(game, state)
        notations.append(action.notation)
        state = game.apply(state, action)
    finished = game.is_terminal(state)
    result = game.result(state) if finished else None
    winner = result.winner if result is not None else None
    winners = result.winners if result is not None else ()
    return GameOutcome(plan.index, plan.seats, winner, finished, len(notations), notations, winners)


def _int_seed(text: str) -> int:
    return random.Random(text).getrandbits(62)


def plans(n_games: int, n_seats: int, n_entries: int, swap: bool) -> list[GamePlan]:
    base = tuple(min(i, n_entries - 1) for i in range(n_seats))  # the last entry fills the rest
    out = []
    for index in range(n_games):
        shift = index % n_seats if swap else 0
        out.append(GamePlan(index, tuple(base[(i + shift) % n_seats] for i in range(n_seats))))
    return out


# -- statistics ---------------------------------------------------------------------------------


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0..1), (0, 1) without trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def labels(specs: Sequence[str]) -> list[str]:
    """A name per entry: its spec, numbered when two entries are alike (`random#2`)."""
    out = []
    for i, spec in enumerate(specs):
        same = [j for j, other in enumerate(specs) if other == spec]
        out.append(spec if len(same) == 1 else f"{spec}#{same.index(i) + 1}")
    return out


def summarise(game: Game, specs: Sequence[str], outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    """Wins, draws and losses per entry and per seat, win rates with 95% intervals."""
    players = list(game.players)
    names = labels(specs)
    n = len(outcomes)
    agents = []
    for entry, name in enumerate(names):
        played = [o for o in outcomes if entry in o.seats]
        wins = sum(1 for o in played if o.won_by(entry, players))
        draws = sum(1 for o in played if o.winner is None)
        losses = len(played) - wins - draws
        low, high = wilson(wins, len(played))
        seats = {
            player: sum(1 for o in played if o.seats[i] == entry)
            for i, player in enumerate(players)
        }
        agents.append({
            "agent": name,
            "spec": specs[entry],
            "games": len(played),
            "wins": wins,
            "draws": draws,
            "losses": losses,
            "win_rate": _round(wins / len(played)) if played else None,
            "ci95": [_round(low), _round(high)],
            "score_rate": _round((wins + draws / 2) / len(played)) if played else None,
            "seats": {p: c for p, c in seats.items() if c},
        })
    by_seat = {}
    for player in players:
        wins = sum(1 for o in outcomes if player in o.winners)
        by_seat[player] = {"wins": wins, "win_rate": _round(wins / n) if n else None}
    draws = sum(1 for o in outcomes if o.winner is None)
    return {
        "game": display_name(game),
        "games": n,
        "agents": agents,
        "seats": by_seat,
        "draws": draws,
        "unfinished": sum(1 for o in outcomes if not o.finished),
        "plies_mean": _round(sum(o.plies for o in outcomes) / n) if n else 0,
    }


def _round(x: float) -> float:
    return round(x, 4)


# -- running --------------------------------------------------------------------------------------


_worker_game: Optional[Game] = None


def _worker_init(game_name: str, options: dict[str, Any], variant: Optional[str]) -> None:
    global _worker_game
    from ..api import load_game

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it keeps the games finished
    _worker_game = load_game(game_name, options, variant)


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a match: `outcomes` are the games finished before it, in order."""

    def __init__(self, outcomes: list[Any]) -> None:
        super().__init__()
        self.outcomes = outcomes


def _worker_play(specs: Any, plan: Any, seed: int, max_plies: int, think: Any) -> GameOutcome:
    assert _worker_game is not None  # (loaded by the worker's initializer)
    return play_one(_worker_game, specs, plan, seed, max_plies, think)


def run_match(game: Game, specs: Sequence[str], n_games: int, seed: int, *, swap: bool = False,
              max_plies: int = 5000, jobs: int = 1, load_args: Optional[tuple[Any, ...]] = None,
              progress: Optional[Callable[[GameOutcome], None]] = None,
              think: Optional[str] = None) -> list[GameOutcome]:
    """Play the match; outcomes in game order. `load_args` = (name, options, variant)
    lets worker processes load the game themselves when `jobs` > 1; `think` is the
    budget of `mcts` entries that name none. Ctrl-C raises MatchInterrupted with
    the games finished by then."""
    todo = plans(n_games, len(game.players), len(specs), swap)
    results: list[GameOutcome] = []
    try:
        if jobs <= 1 or load_args is None or n_games <= 1:
            for plan in todo:
                outcome = play_one(game, specs, plan, seed, max_plies, think)
                results.append(outcome)
                if progress is not None:
                    progress(outcome)
            return results
        _play_on_processes(todo, specs, seed, max_plies, think, jobs, load_args, results, progress)
    except KeyboardInterrupt:
        raise MatchInterrupted(sorted(results, key=lambda o: o.index)) from None
    return sorted(results, key=lambda o: o.index)


def _play_on_processes(todo: Any, specs: Any, seed: int, max_plies: int, think: Any, jobs: Any, load_args: Any,
                       results: Any, progress: Any) -> None:
    """The games of `todo` on `jobs` processes; each outcome appended to `results` as it comes."""
    from concurrent.futures import ProcessPoolExecutor, as_completed

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init, initargs=load_args)
    try:
        futures = [pool.submit(_worker_play, list(specs), plan, seed, max_plies, think) for plan in todo]
        for future in as_completed(futures):
            outcome = future.result()
            results.append(outcome)
            if progress is not None:
                progress(outcome)
    finally:  # an error or Ctrl-C: the games not started yet are not played
        pool.shutdown(wait=True, cancel_futures=True)


def available_processors() -> int:
    """The processors this process may run on (all of the machine's if unknown)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def capped_jobs(requested: int) -> tuple[int, Optional[str]]:
    """`--jobs` at most the number of processors (more processes only compete for
    them, and each holds a copy of the game), with a note when it was cut."""
    available = available_processors()
    if requested <= available:
        return requested, None
    return available, f"note: --jobs {requested} is more than the {available} processors here; using {available}"


def check_specs(game: Game, players_text: str, think: Optional[str] = None) -> list[str]:
    """One entry per seat from --players (the last entry fills the remaining seats,
    each seat an entry of its own), each a valid agent; ValueError otherwise."""
    specs = split_players(players_text, list(game.players), display_name(game))
    for spec in specs:
        if spec.lower() == "human":
            raise ValueError("--players: a match is played by built-in players only (random, mcts, mcts:N, ...)")
        try:
            make_agent(spec, seed=0, think=think)
        except ValueError as exc:
            raise ValueError(f"--players: {exc}") from None
    return specs + [specs[-1]] * (len(game.players) - len(specs))


def format_report(report: dict[str, Any], seconds: float) -> str:
    head = (
        f"{report['game']}: {counted(report['games'], 'game')}, seed {report['seed']}"
        f"{', seats swapped' if report['swap'] else ''}; {seconds:.1f} s, "
        f"{report['plies_mean']:.1f} actions per game"
    )
    width = max([len(a["agent"]) for a in report["agents"]] + [5])
    lines = [head, "", f"{'agent':<{width}}  games  wins  draws  losses  win rate  95% interval      score"]
    for a in report["agents"]:
        rate = "-" if a["win_rate"] is None else f"{100 * a['win_rate']:.1f}%"
        score = "-" if a["score_rate"] is None else f"{100 * a['score_rate']:.1f}%"
        low, high = a["ci95"]
        lines.append(
            f"{a['agent']:<{width}}  {a['games']:5d}  {a['wins']:4d}  {a['draws']:5d}  {a['losses']:6d}  "
            f"{rate:>8}  [{100 * low:5.1f}%, {100 * high:5.1f}%]  {score:>6}"
        )
    seats = ", ".join(f"{p} {s['wins']}" for p, s in report["seats"].items())
    lines.append("")
    lines.append(f"wins by seat: {seats}; draws {report['draws']}")
    if report["unfinished"]:
        lines.append(f"{counted(report['unfinished'], 'game')} stopped unfinished after "
                     f"{counted(report['max_plies'], 'action')} "
                     "(counted as draws)")
    n_seats = len(report["seats"])
    if report["swap"] and report["games"] % n_seats:
        lines.append(f"note: {counted(report['games'], 'game')} is not a multiple of {n_seats} seats: the sides are "
                     "not played equally often")
    return "\n".join(lines)


# -- the command ------------------------------------------------------------------------------------


def help_texts(prog: str, g: str) -> tuple[str, str]:
    return (
        "many games between built-in players: wins, draws, losses and win rates",
        f"  {prog} match {g} --players mcts:1000,random --games 100 --seed 1 --swap\n"
        f"  {prog} match {g} --players mcts:200,mcts:50 --games 40 --seed 7 --swap --jobs 4\n"
        f"  {prog} match {g} --players mcts:20,random --games 2 --seed 1 --json\n\n"
        "--players names one agent per seat in turn order (the last fills the remaining seats);\n"
        "--swap rotates the seats from one game to the next, so that each agent plays each side\n"
        "equally often. Given --seed, the results are the same on every run (and any --jobs).\n"
        "The win rate comes with a 95% confidence interval (Wilson); 'score' counts a draw as\n"
        "half a win. Games reaching --max-plies unfinished count as draws.",
    )


def configure_parser(sub: Any) -> None:
    from .common import MAX_PLAYOUTS, add_think_argument, int_argument, positive_int, positive_int_up_to
    from .records import MAX_RECORD_ACTIONS

    sub.add_argument("--players", metavar="LIST", default="mcts,random",
                     help="the agents, one per seat in turn order: random, greedy (one action ahead), mcts (the "
                          "default player), mcts:easy|normal|hard, mcts:N (N iterations: reproducible), mcts:Ns, "
                          "mcts-v1 (the previous default, same parameters), mcts-classic; the last one fills the "
                          "remaining seats, each seat counted on its own (default mcts,random)")
    add_think_argument(sub)
    sub.add_argument("--games", type=positive_int_up_to(MAX_PLAYOUTS), default=10, metavar="N",
                     help="number of games (default 10)")
    sub.add_argument("--seed", type=int_argument, default=0, metavar="S", help="random seed (default 0)")
    sub.add_argument("--swap", action="store_true", help="rotate the seats from game to game")
    sub.add_argument("--max-plies", type=positive_int_up_to(MAX_RECORD_ACTIONS), default=5000, metavar="N",
                     help="stop a game unfinished after N actions (default 5000)")
    sub.add_argument("--jobs", type=positive_int, default=1, metavar="N",
                     help="play on N processes at once, at most one per processor (same results; default 1)")
    sub.add_argument("--records", metavar="DIR", default=None,
                     help="save every game as a record DIR/GAME-match-NNNN.txt")
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.set_defaults(run=run)


def run(args: Any) -> int:
    from .common import EXIT_INTERRUPTED, CliError, isatty, load, use_color

    game = load(args)
    try:
        specs = check_specs(game, args.players, args.think)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    options = dict(args.option or [])
    load_args = (resolve_game(args.game), options, args.variant)
    args.jobs, note = capped_jobs(args.jobs)
    if note:
        print(note, file=sys.stderr)
    started = time.perf_counter()
    show_progress = not args.json and isatty(sys.stderr) and args.games > 1
    kwargs = dict(swap=args.swap, max_plies=args.max_plies, jobs=args.jobs, load_args=load_args, think=args.think)
    interrupted = False
    try:
        if show_progress:
            outcomes = _with_progress(game, specs, args, kwargs, use_color(sys.stderr))
        else:
            outcomes = run_match(game, specs, args.games, args.seed, **kwargs)
    except MatchInterrupted as stop:  # the games finished so far are reported, as `analyze` does
        outcomes, interrupted = stop.outcomes, True
    seconds = time.perf_counter() - started
    if args.records:
        try:
            _save_records(game, specs, outcomes, args, options)
        except OSError as exc:
            raise CliError(f"cannot write the records in {args.records}: {exc.strerror or exc}") from None
    report = summarise(game, specs, outcomes)
    report.update({"seed": args.seed, "swap": args.swap, "max_plies": args.max_plies, "options": options,
                   "players": list(specs)})
    if args.variant:
        report["variant"] = args.variant
    if interrupted:
        report["interrupted"] = True
    if args.json:
        sys.stdout.write(json.dumps(report) + "\n")
    else:
        print(format_report(report, seconds))
    if interrupted:
        games = f"{len(outcomes)} game{'' if len(outcomes) == 1 else 's'}"
        print(f"interrupted: the figures above are of the {games} finished before Ctrl-C",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def time_left(elapsed: float, done: int, total: int) -> str:
    """The estimate of the progress bar: the average time of all the games so far
    times the games still to play ("?" before the first one ends)."""
    if done <= 0:
        return "left ?"
    seconds = round(elapsed / done * (total - done))
    hours, rest = divmod(seconds, 3600)
    return f"left {hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"left {rest // 60}:{rest % 60:02d}"


def _with_progress(game: Game, specs: Any, args: Any, kwargs: Any, colour: bool) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    names = labels(specs)
    wins = [0] * len(specs)
    draws = [0]
    done = [0]
    players = list(game.players)
    started = time.perf_counter()

    def tally() -> str:
        parts = [f"{name} {w}" for name, w in zip(names, wins)]
        return " · ".join(parts) + f" · draws {draws[0]}"

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.fields[left]}"), TextColumn("{task.fields[tally]}"))
    console = Console(stderr=True, no_color=not colour)
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(display_name(game), total=args.games, tally=tally(), left=time_left(0, 0, 1))

        def advance(outcome: GameOutcome) -> None:
            if outcome.winner is None:
                draws[0] += 1
            for entry in {outcome.seats[players.index(p)] for p in outcome.winners}:
                wins[entry] += 1
            done[0] += 1
            left = time_left(time.perf_counter() - started, done[0], args.games)
            progress.update(task, advance=1, tally=tally(), left=left)

        return run_match(game, specs, args.games, args.seed, progress=advance, **kwargs)


def _save_records(game: Game, specs: Any, outcomes: Any, args: Any, options: Any) -> None:
    folder = Path(args.records)
    folder.mkdir(parents=True, exist_ok=True)
    width = max(4, len(str(args.games)))
    for outcome in outcomes:
        file = folder / f"{display_name(game).replace('/', '-')}-match-{outcome.index + 1:0{width}d}.txt"
        name, game_path, variant = header_identity(game, file)
        header = RecordHeader(
            game=name, path=game_path, options=options, variant=variant,
            players=",".join(specs[entry] for entry in outcome.seats),
            extra={"match": f"game {outcome.index + 1} of {args.games}, seed {args.seed}",
                   "result": (outcome.winner or "draw") if outcome.finished else "unfinished"},
        )
        write_record(str(file), outcome.notations, header)
