"""`regelwerk analyze`: measure a game and its variants side by side.

    regelwerk analyze GAME --variant VARIANT.yaml --compare OPTION=A,OPTION=B --games 400 --seed 1

The work is `interpreter.analysis.analyze`; this module reads the command line,
shows a progress bar, prints the table (or JSON) and writes the HTML report.
See docs/analysis.md.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from ..analysis.analyze import analyze
from ..analysis.analyze.driver import DEFAULT_DEPTH_GAMES, DEFAULT_MAX_PLIES, DEFAULT_TRACE_EVERY
from ..analysis.analyze.table import format_table
from ..assets import install_command
from ..spelling import counted
from .agents import make_agent
from .agents.registry import MAX_ITERATIONS
from .common import (
    EXIT_INTERRUPTED,
    MAX_PLAYOUTS,
    MAX_PLIES,
    CliError,
    int_argument,
    isatty,
    option_pair,
    positive_int,
    positive_int_up_to,
    use_color,
)

DEFAULT_GAMES = 1000
DEFAULT_DEPTH_ITERATIONS = 100


def help_texts(prog: str, g: str) -> dict[str, Any]:
    """The summary, description and examples of the command."""
    summary = "measure a game and its variants: balance, length, choices, rule coverage, side by side"
    examples = (
        f"  {prog} analyze {g} --games 2000 --seed 1\n"
        f"  {prog} analyze {g} --variant my-variant.yaml --games 400\n"
        f"  {prog} analyze {g} --compare OPTION=A,OPTION=B --games 400 --jobs 2\n"
        f"  {prog} analyze {g} --games 200 --report out/ --depth-test 50\n"
        f"  {prog} analyze {g} --games 5000 --scheduler tcp://10.0.0.5:8786 --json\n\n"
        "Every variant (--variant FILE) and every option set (--compare NAME=VALUE[+NAME=VALUE],\n"
        "several columns separated by ',') is a column beside the base game; every metric a row,\n"
        "with its 95% interval and each column's difference from the base ('*': significant).\n"
        "The results depend only on --seed and --games (not on --jobs or --scheduler).\n"
        "Ctrl-C stops and prints what was measured so far. See docs/analysis.md."
    )
    return {"help": summary, "description": summary, "epilog": "examples:\n" + examples}


def configure_parser(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("game", metavar="GAME",
                     help="a bundled game or the path of a game folder, game file or variant file")
    sub.add_argument("--option", metavar="NAME=VALUE", type=option_pair, action="append", default=[],
                     help="set an option of the game, in every column (repeatable)")
    sub.add_argument("--variant", metavar="FILE", action="append", default=[],
                     help="a variant file: one more column (repeatable)")
    sub.add_argument("--compare", metavar="SETS", action="append", default=[],
                     help="option sets, one column each: size=9,size=13 (two columns); "
                          "'+' joins options of one column: size=9+rule=b (repeatable)")
    sub.add_argument("--games", type=positive_int_up_to(MAX_PLAYOUTS), default=DEFAULT_GAMES, metavar="N",
                     help=f"games per column (default {DEFAULT_GAMES})")
    sub.add_argument("--seed", type=int_argument, default=0, metavar="S", help="random seed (default 0)")
    sub.add_argument("--players", metavar="LIST", default="random",
                     help="who plays: random (default, fast) or agents by seat: mcts:200, mcts:500,random, ...")
    sub.add_argument("--max-plies", type=positive_int_up_to(MAX_PLIES), default=DEFAULT_MAX_PLIES, metavar="N",
                     help=f"cut a game off after N actions (default {DEFAULT_MAX_PLIES})")
    sub.add_argument("--trace-every", type=_whole, default=None, metavar="K",
                     help="trace one game in K: board coverage, heat map, lead changes, stability, "
                          f"decisiveness, repetition (default {DEFAULT_TRACE_EVERY}; 1 with agents; 0: none)")
    sub.add_argument("--depth-test", type=positive_int_up_to(MAX_ITERATIONS // 2), nargs="?",  # (mcts:2N)
                     const=DEFAULT_DEPTH_ITERATIONS, default=None,
                     metavar="N", help=f"also play mcts:2N against mcts:N (default N {DEFAULT_DEPTH_ITERATIONS})")
    sub.add_argument("--depth-games", type=positive_int_up_to(MAX_PLAYOUTS), default=DEFAULT_DEPTH_GAMES, metavar="N",
                     help=f"games of the depth test per column (default {DEFAULT_DEPTH_GAMES})")
    sub.add_argument("--jobs", type=positive_int, default=1, metavar="N",
                     help="play on N local processes (at most the number of CPUs; same results)")
    sub.add_argument("--scheduler", metavar="ADDRESS", default=None,
                     help="send the games to the Dask scheduler at ADDRESS (tcp://host:8786), or 'local' "
                          "for a local cluster of --jobs workers (needs regelwerk[cluster])")
    sub.add_argument("--json", action="store_true", help="print the report as one JSON object")
    sub.add_argument("--report", metavar="DIR", default=None,
                     help="write an HTML page with pictures to DIR (needs regelwerk[analysis])")
    sub.set_defaults(run=run)


def _whole(text: str) -> int:
    value = int_argument(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of at least 0, got '{text}'")
    return value


def compare_sets(values: list[Any]) -> list[Any]:
    """The option sets of every --compare, split at ','."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def run(args: argparse.Namespace) -> int:
    if args.report:
        _check_report_extra()
    jobs = min(args.jobs, os.cpu_count() or 1)
    started = time.perf_counter()
    try:
        report = _with_progress(args, jobs) if isatty(sys.stderr) else _analyze(args, jobs, None)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    except (ImportError, ConnectionError) as exc:
        raise CliError(str(exc)) from None
    seconds = time.perf_counter() - started
    if args.json:
        sys.stdout.write(json.dumps(report.to_json()) + "\n")
    else:
        sys.stdout.write(format_table(report))
    played = report.games_played
    rate = f": {played / report.play_seconds:.0f} games/s" if report.play_seconds > 0 else ""
    print(f"{counted(played, 'game')} played in {report.play_seconds:.2f} s{rate} ({seconds:.1f} s in all)",
          file=sys.stderr)
    if args.report:
        _write_report(report, args.report)
    if report.interrupted:
        print("interrupted: the figures above are of the games finished before Ctrl-C", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def _analyze(args: argparse.Namespace, jobs: int, progress: Any) -> Any:
    return analyze(
        args.game, args.variant, options=dict(args.option or []), compare=compare_sets(args.compare),
        games=args.games, seed=args.seed, players=args.players, agent_factory=make_agent,
        max_plies=args.max_plies, jobs=jobs, scheduler=args.scheduler, trace_every=args.trace_every,
        depth_test=args.depth_test, depth_games=args.depth_games, progress=progress,
    )


def _with_progress(args: argparse.Namespace, jobs: int) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    console = Console(stderr=True, no_color=not use_color(sys.stderr))
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(f"analyze {args.game}: games", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return _analyze(args, jobs, advance)


def _check_report_extra() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        command = install_command("analysis")
        raise CliError(f"--report draws with matplotlib, which is not installed: {command}") from None


def _write_report(report: Any, folder: str) -> None:
    from .analyze_report import write_report

    page = write_report(report, folder)
    print(f"report: {page}", file=sys.stderr)
