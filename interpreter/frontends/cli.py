"""The `regelwerk` command: the contract is docs/interface.md.

Every command goes through the public API (`load_game` and the `Game` facade).
Whatever goes wrong ends in one clear message and a non-zero exit status:
1 for a broken definition, record or argument, 2 for an illegal action in a
record, 130 for Ctrl-C; never a traceback (set REGELWERK_DEBUG=1 to see one for
an internal error).
"""
from __future__ import annotations

import argparse
import errno
import json
import math
import os
import sys
import time
import warnings
from typing import TYPE_CHECKING, Any, Optional

from ..api import CheckedGame, DefinitionError, Game, RuleRuntimeError, bundled_games, load_game
from ..loading.options import show_option_value
from ..spelling import counted
from ..validation.diagnostics import Diagnostic, cut_long_words, format_diagnostics, shorten, visible
from ..validation.files import FileRefused
from .common import (
    EXIT_ERROR,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    MAX_DEPTH,
    MAX_PLAYOUTS,
    MAX_PLIES,
    PROG,
    CliError,
    describe_result,
    int_argument,
    isatty,
    load,
    option_pair,
    position_json,
    positive_int_up_to,
    replay_record,
    seconds_up_to,
    use_color,
    version,
)
from .display import display_warnings
from .names import (
    UnknownVariant,
    bundled_variants,
    complete_game,
    copy_read,
    display_name,
    enable_completion,
    resolve_game,
)
from .records import Record, RecordError, read_record

if TYPE_CHECKING:
    from ..runtime.state import State


def _read_optional_record(args: argparse.Namespace) -> Optional[Record]:
    return read_record(args.record) if getattr(args, "record", None) else None


def read_position(game: Game, text: str) -> Any:
    """The position of --position TEXT; a CliError that says what is wrong otherwise.
    What the position's reader left out (`PositionNote`) is printed as a note."""
    from ..positions import PositionError, PositionNote

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", PositionNote)
            state = game.parse_position(text)
    except PositionError as exc:
        raise CliError(f"--position: {exc}") from None
    for warning in caught:
        if issubclass(warning.category, PositionNote):
            print(f"note: --position: {warning.message}", file=sys.stderr)
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return state


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")


# ----------------------------------------------------------------------------- commands


def cmd_list(args: argparse.Namespace) -> int:
    entries, broken = [], []
    for name in bundled_games():
        try:
            game = load_game(name)
        except DefinitionError:
            broken.append(name)
            continue
        entries.append(
            {
                "name": name,
                "title": game.title,
                "players": list(game.players),
                "options": game.option_specs,
                "variants": bundled_variants(name),
            }
        )
    if args.json:
        _print_json(entries)
    else:
        for entry in entries:
            print(_list_entry(entry))
    for name in broken:
        print(f"{PROG}: the bundled game '{name}' does not load; see `{PROG} validate {name}`", file=sys.stderr)
    return EXIT_ERROR if broken else 0


def _list_entry(entry: dict[str, Any]) -> str:
    lines = [f"{entry['name']} — {entry['title']}, players: {', '.join(entry['players'])}"]
    if not entry["options"]:
        lines.append("    no options")
    for name, spec in entry["options"].items():
        if "values" in spec:
            allowed = "|".join(show_option_value(v) for v in spec["values"])
        else:
            allowed = spec.get("type", "value")
            if "min" in spec or "max" in spec:
                allowed += f" {spec.get('min', '')}..{spec.get('max', '')}"
        lines.append(f"    --option {name}={show_option_value(spec['default'])}  ({allowed})")
        if spec.get("default_written"):
            lines.append(f"        by default {spec['default_written']}")
        if spec.get("description"):
            lines.append(f"        {spec['description']}")
        if spec.get("board"):
            lines.append(f"        the board's {' and '.join(spec['board'])}")
    if entry.get("variants"):
        lines.append("    variants: " + ", ".join(entry["variants"]))
    return "\n".join(lines)


def cmd_validate(args: argparse.Namespace) -> int:
    color = use_color(sys.stderr)
    status = 0
    # A definition named twice (`validate nim/nim.yaml nim`) has its reports printed once.
    printed: set[str] = set()

    def report(text: str) -> None:
        if text not in printed:
            printed.add(text)
            print(text, file=sys.stderr)

    for path in args.paths:
        try:
            game = load_game(resolve_game(path), dict(args.option or []), args.variant)
        except UnknownVariant as exc:
            print(f"{path}:1:1: error: {exc}", file=sys.stderr)
            status = EXIT_ERROR
            continue
        except DefinitionError as exc:
            report(format_diagnostics(exc.diagnostics, exc.sources, color=color))
            status = EXIT_ERROR
            continue
        except Exception as exc:  # noqa: BLE001 - validate must report, not crash, on any input
            if os.environ.get("REGELWERK_DEBUG"):
                raise
            print(f"{path}:1:1: error: internal error while checking: {type(exc).__name__}: {_describe(exc)}",
                  file=sys.stderr)
            status = EXIT_ERROR
            continue
        warnings = list(game.warnings) + display_warnings(game)
        if warnings:
            report(format_diagnostics(warnings, game.definition.sources, color=color))
        sizes, problems = _other_sizes(game, dict(args.option or []))
        if problems:
            print(format_diagnostics(problems, game.definition.sources, color=color), file=sys.stderr)
        if any(problem.severity == "error" for problem in problems):
            status = EXIT_ERROR
            continue
        read = copy_read(path, game.definition.yaml_file)
        copy = "" if read is None else f"; read from {read}"
        sizes = f"; {sizes}" if sizes else ""
        print(f"{path}: ok ({game.title}, {counted(len(game.players), 'player')}{copy}{sizes})")
    return status


def _other_sizes(game: Game, given: dict[str, Any]) -> tuple[str, list[Diagnostic]]:
    """The definition compiled at the other board sizes its options allow
    (validation/sizes.py): what was checked, and the errors found, each saying at
    which size, with the warnings the size loaded has not (a region rule's rank that
    a smaller board lacks, a display mark of a site one size lacks)."""
    from ..validation.sizes import at_size, sizes_checked, sizes_to_check

    checked, total = sizes_to_check(game.definition.data, game.model.option_specs, given)
    problems: list[Diagnostic] = []
    known = {(d.file, d.line, d.column, d.message) for d in list(game.warnings) + display_warnings(game)}
    for chosen in checked:
        if all(game.model.options.get(name) == value for name, value in chosen.items()):
            continue  # the size just loaded
        try:
            other = CheckedGame(game.definition, {**given, **chosen})
            problems.extend(at_size(d, chosen) for d in list(other.warnings) + display_warnings(other)
                            if (d.file, d.line, d.column, d.message) not in known)
        except DefinitionError as exc:
            problems.extend(at_size(d, chosen) for d in exc.diagnostics if d.severity == "error")
        except Exception as exc:  # noqa: BLE001 - validate must report, not crash, on any input
            if os.environ.get("REGELWERK_DEBUG"):
                raise
            message = f"internal error while checking: {type(exc).__name__}: {_describe(exc)}"
            problems.append(at_size(Diagnostic(game.definition.yaml_file, 1, 1, message), chosen))
    return sizes_checked(checked, total), problems


def cmd_moves(args: argparse.Namespace) -> int:
    record = _read_optional_record(args)
    game = load(args, record)
    plies = len(record.actions) if record else 0
    state = replay_record(game, record)
    if args.position is not None:
        if record is not None:
            raise CliError("give a RECORD or --position, not both")
        state = read_position(game, args.position)
        plies = state.ply
    if args.json:
        _print_json(position_json(game, state, plies))
        return 0
    if game.is_terminal(state):
        print(describe_result(game, state), file=sys.stderr)
        return 0
    for notation in game.legal_notations(state):
        print(notation)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    record = read_record(args.record)
    game = load(args, record)
    if args.json:
        replay_record(game, record, lambda ply, s: _print_json(position_json(game, s, ply)))
        return 0
    if args.positions:
        replay_record(game, record, lambda ply, s: print(game.position_text(s)))
        return 0
    if args.step:
        from .view_cmd import step_through

        return step_through(game, record)

    movers: list[str] = []  # who was to move before each action

    def show(ply: int, s: Any) -> None:
        if ply:
            print(f"{ply:4d}. {movers[-1]:<10} {record.actions[ply - 1].notation}")
        movers.append(game.to_move(s) or "")

    state = replay_record(game, record, show)
    _draw(game, state)
    if game.is_terminal(state):
        print(describe_result(game, state))
    else:
        print(f"to move: {game.to_move(state)}")
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    from ..analysis.perft import perft

    record = _read_optional_record(args)
    game = load(args, record)
    state = replay_record(game, record)
    # One depth at a time, so each count shows as soon as it is known; the shallower
    # walks cost a fraction of the deepest one. Each depth's time is that of its own
    # walk (`engine.perft(state, depth)`), not a sum over the depths.
    clock = time.process_time if args.clock == "process" else time.perf_counter
    kind = "processor time" if args.clock == "process" else "wall clock"
    for depth in range(1, args.depth + 1):
        started = clock()
        count = perft(game, state, depth)[-1]
        seconds = clock() - started
        if args.json:
            _print_json({"depth": depth, "count": count, "seconds": seconds, "clock": args.clock})
        else:
            print(f"depth {depth}: {count}  ({seconds_text(seconds)} s {kind})")
        sys.stdout.flush()
    return 0


def seconds_text(seconds: float) -> str:
    """A time in seconds with three significant digits below 10 s (`0.0412`, `1.23`),
    two decimals above: a short walk's time is not shown as `0.00`."""
    if seconds <= 0:
        return "0.00"
    places = min(6, max(2, 2 - math.floor(math.log10(seconds))))
    return f"{seconds:.{places}f}"


def cmd_bench(args: argparse.Namespace) -> int:
    from ..analysis.bench import bench

    game = load(args)
    if args.profile:
        return _bench_profile(game, args)
    if args.json or not isatty(sys.stderr):
        result = bench(game, args.playouts, args.seed, max_plies=args.max_plies, warm_up=args.warm_up,
                       clock=args.clock)
    else:
        result = _bench_with_progress(game, args, bench)
    if args.json:
        data = result.as_json()
        data.update({"game": display_name(game), "seed": args.seed, "actions": result.actions,
                     "unfinished": result.unfinished, "clock": args.clock})
        _print_json(data)
        return 0
    average = result.actions / result.playouts
    print(
        f"{display_name(game)}: {counted(result.playouts, 'playout')} in {result.seconds:.2f} s "
        f"({'processor time' if args.clock == 'process' else 'wall clock'}): "
        f"{result.playouts_per_s:.1f} playouts/s, {result.actions_per_s:.0f} actions/s "
        f"({average:.1f} actions per game, seed {args.seed})"
    )
    if result.unfinished:
        print(f"note: {counted(result.unfinished, 'playout')} stopped unfinished after "
              f"{counted(args.max_plies, 'action')}", file=sys.stderr)
    return 0


def _bench_profile(game: Game, args: argparse.Namespace) -> int:
    from ..analysis.rule_profile import profile_playouts

    profile = profile_playouts(game, args.playouts, args.seed, args.max_plies)
    shown = profile.rules[:args.top]
    if args.json:
        _print_json({"game": display_name(game), "seed": args.seed, "playouts": profile.playouts,
                     "actions": profile.actions, "profile": [rule.as_json() for rule in profile.rules]})
        return 0
    print(f"{display_name(game)}: where {counted(profile.playouts, 'random playout')} "
          f"({counted(profile.actions, 'action')}, seed {args.seed}) spend their processor time, by rule")
    print("(under Python's profiler, which weighs short calls more: a guide to where to look; "
          "`regelwerk show GAME --compiled` prints each rule's code)")
    for rule in shown:
        print(f"{100 * rule.share:6.1f} %  {rule.rule}")
    if len(profile.rules) > len(shown):
        rest = sum(rule.share for rule in profile.rules[len(shown):])
        print(f"{100 * rest:6.1f} %  {counted(len(profile.rules) - len(shown), 'other rule')} (--top shows more)")
    return 0


def _bench_with_progress(game: Game, args: argparse.Namespace, bench: Any) -> Any:
    from rich.console import Console
    from rich.progress import Progress

    # Updating the bar costs time that the benchmark counts: update ~200 times in all.
    step = max(1, args.playouts // 200)
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"{game.name}: playouts", total=args.playouts)

        def advance(done: int) -> None:
            if done % step == 0 or done == args.playouts:
                progress.update(task, completed=done)

        return bench(game, args.playouts, args.seed, max_plies=args.max_plies, progress=advance, warm_up=args.warm_up,
                     clock=args.clock)


def cmd_lint(args: argparse.Namespace) -> int:
    from ..analysis.lint import format_report, lint

    game = load(args)
    report = lint(game, playouts=args.playouts, max_plies=args.max_plies, seed=args.seed)
    print(format_report(report, display_name(game), game.definition.yaml_file))
    return 0 if report.ok else EXIT_ERROR


def cmd_show(args: argparse.Namespace) -> int:
    from ..loading.definition import load_definition
    from ..loading.show import effective_definition

    if args.compiled:
        from ..compilation.listing import compiled_listing

        game = load(args)
        sys.stdout.write(compiled_listing(game.rules, display_name(game)))
        return 0
    if args.option:
        raise CliError("--option sets an option of the compiled game: use it with --compiled")
    try:
        name = resolve_game(args.game)
    except UnknownVariant as exc:
        raise CliError(str(exc)) from None
    definition = load_definition(name, args.variant)
    read = copy_read(args.game, definition.yaml_file)
    if read is not None:
        sys.stdout.write(f"# read from {read}\n")
    sys.stdout.write(effective_definition(definition))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from .play import PlayError
    from .play_cmd import run

    try:
        return run(args)
    except PlayError as exc:
        raise CliError(str(exc), exc.status) from None


def _draw(game: Game, state: State) -> None:
    try:
        from .render_text import print_position
    except ImportError:  # the renderer is optional for the command-line tools
        return
    print_position(game, state)


# ----------------------------------------------------------------------------- the parser


def _example_game() -> str:
    try:
        names = bundled_games()
    except OSError:
        names = []
    return names[0] if names else "GAME"


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The `regelwerk` parser and its commands' parsers by name."""
    g = _example_game()
    try:
        games = ", ".join(bundled_games())
    except OSError:
        games = ""
    parser = _Parser(
        prog=PROG,
        formatter_class=_RAW,
        description="regelwerk plays board games described in YAML and a rules language.",
        epilog="examples:\n" + "\n".join(f"  {command:<{len(PROG) + len(g) + 26}}  {what}" for command, what in (
            (f"{PROG} list", "the bundled games and their options"),
            (f"{PROG} play {g}", "play against the computer"),
            (f"{PROG} replay {g} game.txt --json", "every position of a recorded game"),
            (f"{PROG} COMMAND --help", "more about one command"),
        )),
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {version()}")
    commands = _Commands(parser.add_subparsers(dest="command", metavar="COMMAND", required=True), games)
    # (the order of the commands is the order of `regelwerk --help`)
    _add_list_and_validate(commands, g)
    _add_record_commands(commands, g)
    _add_playout_commands(commands, g)
    _add_show(commands, g)
    _add_module_commands(commands, g)
    return parser, dict(commands.subparsers.choices)


_RAW = argparse.RawDescriptionHelpFormatter


class _Parser(argparse.ArgumentParser):
    """argparse, whose usage errors quote what was typed: shown fit to print (an
    escape sequence in an argument must not reach the terminal), long words cut.
    The commands' parsers are of this class too (`add_subparsers` makes them so)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        super().error(visible(cut_long_words(message)))


def completes_games(argument: argparse.Action) -> None:
    """Shell completion of games for `argument`, where argcomplete is installed: it
    reads the attribute `completer` of an argument (argparse knows nothing of it)."""
    setattr(argument, "completer", complete_game)  # noqa: B010 - an attribute argparse does not declare


class _Commands:
    """The commands' parsers while build_parser makes them."""

    def __init__(self, subparsers: "argparse._SubParsersAction[_Parser]", games: str):
        self.subparsers = subparsers
        self.games = games  # the bundled games' names, for the help of GAME

    def add(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        """A command's parser."""
        return self.subparsers.add_parser(name, **kwargs)

    def game_command(self, name: str, summary: str, examples: str, game_optional: bool = False,
                     **kwargs: Any) -> argparse.ArgumentParser:
        """A command about one game: GAME and the options of a definition."""
        sub = self.subparsers.add_parser(
            name, help=summary, description=summary, epilog="examples:\n" + examples, formatter_class=_RAW, **kwargs
        )
        argument = sub.add_argument(
            "game", metavar="GAME", nargs="?" if game_optional else None,
            help=f"a bundled game ({self.games}), a bundled variant (GAME/VARIANT, see `{PROG} list`) or the path "
                 "of a game folder, game file or variant file",
        )
        completes_games(argument)
        _definition_options(sub)
        return sub


def _record_argument(sub: argparse.ArgumentParser, required: bool) -> None:
    sub.add_argument(
        "record", metavar="RECORD", nargs=None if required else "?",
        help="a game record: actions separated by spaces or new lines, '#' comments; '-' reads standard input",
    )


def _add_list_and_validate(commands: _Commands, g: str) -> None:
    sub = commands.add(
        "list", help="the bundled games and their options",
        description="List the bundled games with their players and options (defaults, allowed values).",
        epilog=f"examples:\n  {PROG} list\n  {PROG} list --json", formatter_class=_RAW,
    )
    sub.add_argument("--json", action="store_true", help="print one JSON list")
    sub.set_defaults(run=cmd_list)

    sub = commands.add(
        "validate", help="check game definitions",
        description=(
            "Check game definitions (folders, game files, variant files or bundled names). Every problem is\n"
            "printed as FILE:LINE:COLUMN: error: message. The exit status is 0 only when all are valid.\n"
            "A rule whose estimated work in one position (listing a decision's actions, applying an action,\n"
            "the rules of a turn: loops over sets inside loops over sets, every site full) passes 10^9 steps\n"
            "is an error, past 10^8 a warning; the message names the part that costs most (docs/format.md 5)."
        ),
        epilog=f"examples:\n  {PROG} validate {g}\n  {PROG} validate mygame/ mygame/variants/fast.yaml",
        formatter_class=_RAW,
    )
    completes_games(sub.add_argument(
        "paths", metavar="PATH", nargs="+",
        help="a game folder, game file, variant file or bundled name (GAME or GAME/VARIANT)"))
    _definition_options(sub)
    sub.set_defaults(run=cmd_validate)


def _add_record_commands(commands: _Commands, g: str) -> None:
    """moves, replay and perft: a game and (most often) a record."""
    sub = commands.game_command(
        "moves", "the legal actions after a record, one per line, sorted",
        f"  {PROG} moves {g}\n  {PROG} moves {g} game.txt\n  echo 'd2-d3' | {PROG} moves {g} -\n"
        f"  {PROG} moves {g} --position \"$({PROG} replay {g} game.txt --positions | tail -1)\"",
    )
    _record_argument(sub, required=False)
    sub.add_argument("--position", metavar="TEXT", default=None,
                     help="the position as text (`rw2; ...`, as `replay --positions` prints it) instead of a record")
    sub.add_argument("--json", action="store_true", help="print the position as one JSON line (as replay --json)")
    sub.set_defaults(run=cmd_moves)

    _replay_commands(commands.game_command, _record_argument, g)

    sub = commands.game_command(
        "perft", "count the action sequences of each length (a test of the move generator)",
        f"  {PROG} perft {g} --depth 3\n  {PROG} perft {g} --depth 4 game.txt --json\n\n"
        "Chance outcomes count as actions; a game that ends early adds nothing deeper.",
    )
    sub.add_argument("--depth", type=positive_int_up_to(MAX_DEPTH), required=True, metavar="N",
                     help="count depths 1 to N")
    _record_argument(sub, required=False)
    sub.add_argument(
        "--clock", choices=("wall", "process"), default="wall",
        help="what each depth's time is measured in (the time of that depth's own walk from the position, "
             "as engine.perft(state, depth) takes it): wall (default) the time that passed; process the "
             "processor time this process used, which other programs on a busy machine do not inflate",
    )
    sub.add_argument("--json", action="store_true",
                     help='one JSON line per depth: {"depth": d, "count": n, "seconds": t, "clock": "wall"}')
    sub.set_defaults(run=cmd_perft)


def _add_playout_commands(commands: _Commands, g: str) -> None:
    """bench and lint: random games."""
    sub = commands.game_command(
        "bench", "random playouts at full speed: playouts and actions per second",
        f"  {PROG} bench {g} --playouts 1000 --seed 1\n  {PROG} bench {g} --playouts 200 --seed 7 --json\n"
        f"  {PROG} bench {g} --profile --playouts 50   # which rules cost the time",
    )
    sub.add_argument("--playouts", type=positive_int_up_to(MAX_PLAYOUTS), default=100, metavar="N",
                     help="number of games (default 100)")
    sub.add_argument("--seed", type=int_argument, default=0, metavar="S", help="random seed (default 0)")
    sub.add_argument(
        "--max-plies", type=positive_int_up_to(MAX_PLIES), default=100_000, metavar="N",
        help="stop a playout after N actions (default 100000)",
    )
    sub.add_argument(
        "--warm-up", type=seconds_up_to(60), default=0.25, metavar="SECONDS",
        help="untimed games first, for at most SECONDS (default 0.25; 0: none): tables the rules build on "
             "first use are then built before the clock starts; the timed games are those of --seed either way",
    )
    sub.add_argument(
        "--clock", choices=("wall", "process"), default="wall",
        help="what the timed games are measured in: wall (default) the time that passed; process the processor "
             "time this process used, which other programs on a busy machine do not inflate (compare runs made "
             "at different loads in it)",
    )
    sub.add_argument(
        "--profile", action="store_true",
        help="instead of the speed, where the playouts spend their time: each rule's share of the processor "
             "time (the code it compiles to and the helpers that code calls), the most costly first",
    )
    sub.add_argument("--top", type=positive_int_up_to(1000), default=15, metavar="N",
                     help="with --profile: how many rules to show (default 15)")
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.set_defaults(run=cmd_bench)

    sub = commands.game_command(
        "lint", "play bounded random games and report what only play reveals",
        f"  {PROG} lint {g}\n  {PROG} lint mygame/ --playouts 1000 --max-plies 500\n\n"
        "Reports games that reach the ply bound without ending, positions where nobody can act\n"
        "but the game goes on, runtime errors of the rules and two actions with one notation,\n"
        "each at the rule (FILE:LINE:COLUMN) involved. Exit status 1 when an error is found.",
    )
    sub.add_argument("--playouts", type=positive_int_up_to(MAX_PLAYOUTS), default=200, metavar="N",
                     help="number of random games (default 200)")
    sub.add_argument("--max-plies", type=positive_int_up_to(MAX_PLIES), default=5000, metavar="N",
                     help="the ply bound of one game (default 5000)")
    sub.add_argument("--seed", type=int_argument, default=0, metavar="S", help="random seed (default 0)")
    sub.set_defaults(run=cmd_lint)


def _add_show(commands: _Commands, g: str) -> None:
    sub = commands.add(
        "show", help="print the effective definition (after variants), with where each part comes from; "
        "with --compiled, the code generated from it",
        description="Print the effective, merged definition of a game or variant: its YAML sections and rules,\n"
        "each marked with the file (and line) it comes from.\n\n"
        "With --compiled, print the Python code the rules are compiled to instead (with --option values\n"
        "and --variant applied): every generated function (f0, f1, ... and t0, t1, ...: the ends of turns)\n"
        "and constant (k0, k1, ...) with the decision, case, phase or rule it comes from and its line.",
        epilog=f"examples:\n  {PROG} show {g}\n  {PROG} show {g} --variant fast.yaml\n"
               f"  {PROG} show mygame/variants/fast.yaml"
        f"\n  {PROG} show {g} --compiled\n  {PROG} show GAME --compiled --option NAME=VALUE",
        formatter_class=_RAW,
    )
    completes_games(sub.add_argument("game", metavar="GAME",
                                     help="a bundled game or variant (GAME/VARIANT), a game folder or file, "
                                          "or a variant file"))
    sub.add_argument("--variant", metavar="FILE", default=None, help="a variant file to apply on top of GAME")
    sub.add_argument("--compiled", action="store_true",
                     help="print the generated code, each function and constant with the rule it comes from")
    sub.add_argument("--option", metavar="NAME=VALUE", type=option_pair, action="append", default=[],
                     help="with --compiled: set an option of the game (repeatable)")
    sub.set_defaults(run=cmd_show)


def _add_module_commands(commands: _Commands, g: str) -> None:
    """The commands that have modules of their own, which describe their arguments."""
    from . import analyze_cmd, match, play_cmd, render_cmd

    play_cmd.configure_parser(commands.game_command("play", *play_cmd.help_texts(PROG, g), game_optional=True),
                              cmd_play)
    match.configure_parser(commands.game_command("match", *match.help_texts(PROG, g)))
    sub = commands.game_command("render", *render_cmd.help_texts(PROG, g))
    _record_argument(sub, required=False)
    render_cmd.configure_parser(sub)
    analyze_cmd.configure_parser(commands.add("analyze", formatter_class=_RAW, **analyze_cmd.help_texts(PROG, g)))


def _replay_commands(game_command: Any, record_argument: Any, g: str) -> None:
    """`replay` and `view` (the same command stepping through the record)."""
    sub = game_command(
        "replay", "replay a record and show every position",
        f"  {PROG} replay {g} game.txt\n  {PROG} replay {g} game.txt --json\n\n"
        "With --json, one line per position (the initial one and one after each action):\n"
        '  {"ply": 0, "to_move": "...", "legal": [...], "terminal": false}\n'
        'A terminal line also has "winner" and "scores". An illegal action stops the replay\n'
        "with exit status 2 and one message on standard error.",
    )
    record_argument(sub, required=True)
    sub.add_argument("--json", action="store_true", help="one JSON object per position (the contract for scripts)")
    sub.add_argument("--positions", action="store_true",
                     help="print every position as text (rw2; ...), one a line; `moves --position` reads one back")
    sub.add_argument("--step", action="store_true",
                     help="step through the game position by position (n, p, first, last, a ply number, q)")
    sub.set_defaults(run=cmd_replay, step=False)

    sub = game_command(
        "view", "step through a recorded game, one position at a time (replay --step)",
        f"  {PROG} view {g} game.txt\n\n"
        "Shows the last position first; then n (or Enter) the next, p the previous, first, last,\n"
        "a ply number, q to leave.",
    )
    record_argument(sub, required=True)
    sub.set_defaults(run=cmd_replay, step=True, json=False, positions=False)


EXIT_USAGE = 2  # argparse's status for a usage error (docs/interface.md)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    """The parsed command line; argparse exits (SystemExit) for --help and usage errors.

    A command's arguments are parsed "intermixed", so that an optional RECORD may
    come after options (`perft GAME --depth 3 RECORD`); plain argparse would have
    matched it as absent before `--depth` and then reject it.
    """
    parser, commands = build_parser()
    enable_completion(parser)
    if not argv:  # `regelwerk` alone: what it can do, rather than only "required: COMMAND"
        sys.stderr.write(parser.format_help() + "\n")
        parser.exit(EXIT_USAGE, f"{PROG}: error: no COMMAND given (one of those above)\n")
    if argv and argv[0] in commands:
        args = commands[argv[0]].parse_intermixed_args(argv[1:])
        args.command = argv[0]
        return args
    return parser.parse_args(argv)


def _definition_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--option", metavar="NAME=VALUE", type=option_pair, action="append", default=[],
        help="set an option of the game (repeatable); `regelwerk list` shows them",
    )
    sub.add_argument("--variant", metavar="FILE", default=None, help="a variant file to apply to the game")


# ----------------------------------------------------------------------------- main


def main(argv: Optional[list[str]] = None) -> int:
    try:
        args = parse_arguments(sys.argv[1:] if argv is None else list(argv))
        status: int = args.run(args)
        sys.stdout.flush()  # (here, where a full disk is reported, rather than at exit)
        return status
    except SystemExit as exc:  # --help, --version, a usage error: argparse has printed it
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    except DefinitionError as exc:
        _tell(format_diagnostics(exc.diagnostics, exc.sources, color=use_color(sys.stderr)))
        return EXIT_ERROR
    except RecordError as exc:
        _tell(str(exc))
        return getattr(exc, "status", EXIT_ERROR)
    except CliError as exc:
        _tell(f"{PROG}: {visible(cut_long_words(str(exc)))}")
        return exc.status
    except RuleRuntimeError as exc:
        _tell(_rules_failed(exc))
        return EXIT_ERROR
    except KeyboardInterrupt:
        if isatty(sys.stdout):  # leave the shell's prompt on a line of its own
            try:
                sys.stdout.write("\n")
            except (OSError, ValueError):
                pass
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (`| head`): nothing to say
        _silence_stdout()
        return EXIT_ERROR
    except OSError as exc:  # what the system refused: a full disk, a file too large, ...
        _silence_stdout()
        _tell(_system_refused(exc))
        return EXIT_ERROR
    except Exception as exc:  # noqa: BLE001 - a bug must still end in one readable line
        if os.environ.get("REGELWERK_DEBUG"):
            raise
        _tell(f"{PROG}: internal error: {type(exc).__name__}: {_describe(exc)} "
              "(set REGELWERK_DEBUG=1 to see where; please report it)")
        return EXIT_INTERNAL


# What the system says when output cannot be written (rather than a file not found).
_WRITE_ERRORS = {errno.ENOSPC, errno.EFBIG, errno.EIO, errno.EROFS, getattr(errno, "EDQUOT", errno.ENOSPC)}


def _system_refused(exc: OSError) -> str:
    reason = exc.reason if isinstance(exc, FileRefused) else exc.strerror or str(exc)
    where = visible(cut_long_words(str(exc.filename))) if exc.filename is not None else None
    if exc.errno in _WRITE_ERRORS or (isinstance(exc, FileRefused) and where):
        return f"{PROG}: cannot write {where or 'the output'}: {reason}"
    return f"{PROG}: {where}: {reason}" if where else f"{PROG}: {reason}"


def _tell(message: str) -> None:
    """`message` on standard error, unless that cannot be written either."""
    try:
        print(message, file=sys.stderr)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _rules_failed(exc: RuleRuntimeError) -> str:
    """`FILE:LINE:COLUMN: error: ...` at the rule that failed while the game was played."""
    pos = exc.pos
    hint = "the rules failed while the game was played; `regelwerk lint GAME` looks for such errors"
    if pos is not None and pos.line:
        diagnostic = Diagnostic(pos.file, pos.line, pos.column, exc.message, hint=hint)
        return diagnostic.format()
    return f"{PROG}: error in the rules while playing: {visible(cut_long_words(str(exc)))}"


def _describe(exc: BaseException) -> str:
    """An exception's text, short, even when making it fails."""
    try:
        return visible(shorten(cut_long_words(str(exc)), 300))
    except Exception:  # noqa: BLE001 - the report of a bug must not fail in turn
        return "(no description)"


def _silence_stdout() -> None:
    """After the reader of a pipe went away (`| head`): keep the exit-time flush quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
