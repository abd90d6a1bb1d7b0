"""What the commands of the `regelwerk` CLI share: exit statuses, argument types,
loading a game with a record's header, replaying a record, terminal checks.

The command modules (cli, play_cmd, match, render_cmd, play, prompt) import from
here, never from each other's internals, so that imports point one way.
"""
from __future__ import annotations

import argparse
import gc
import os
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..api import CHANCE_NAME, DefinitionError, Game, IllegalActionError, load_game
from ..loading.files import read_as_path
from ..validation.diagnostics import Diagnostic, shorten
from .names import UnknownVariant, display_name, resolve_game
from .numbers import json_number, number_text
from .record_game import header_variant
from .records import Record, RecordActionError, RecordError, RecordHeader

if TYPE_CHECKING:
    from ..runtime.state import State

PROG = "regelwerk"
EXIT_ERROR = 1
EXIT_ILLEGAL = 2
EXIT_INTERRUPTED = 130
EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug in regelwerk, not in the user's input


class CliError(Exception):
    """A problem to report as `regelwerk: message` with exit status `status`."""

    def __init__(self, message: str, status: int = EXIT_ERROR):
        super().__init__(message)
        self.status = status


# ----------------------------------------------------------------------------- helpers


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version("regelwerk")
    except PackageNotFoundError:
        return "(source checkout, not installed)"


def option_pair(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got '{shorten(text)}'")
    return name.strip(), value.strip()


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{shorten(text)}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got '{shorten(text)}'")
    return value


def positive_int_up_to(limit: int) -> Callable[[str], int]:
    """An argument type: a whole number from 1 to `limit` (a bound that says how far
    a command goes, rather than letting a typo run for days)."""

    def parse(text: str) -> int:
        value = positive_int(text)
        if value > limit:
            raise argparse.ArgumentTypeError(f"expected a number of at most {limit}, got '{shorten(text)}'")
        return value

    parse.__name__ = "whole number"  # what argparse says when it is not one
    return parse


def seconds_up_to(limit: float) -> Callable[[str], float]:
    """An argument type: a number of seconds from 0 to `limit`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number of seconds, got '{shorten(text)}'") from None
        if not 0 <= value <= limit:  # (also refuses nan)
            raise argparse.ArgumentTypeError(f"expected a number of seconds from 0 to {limit:g}, got '{shorten(text)}'")
        return value

    parse.__name__ = "number of seconds"
    return parse


# The bounds of the commands' counts (docs/format.md, "Limits and safety").
MAX_DEPTH = 30
MAX_PLAYOUTS = 1_000_000
MAX_PLIES = 1_000_000


def int_argument(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{shorten(text)}'") from None


def think_argument(text: str) -> str:
    """`--think`: a level (easy, normal, hard) or a time (5s, 500ms), checked."""
    from .agents import thinking_budget

    try:
        thinking_budget(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--think: ")) from None
    return text


def add_think_argument(sub: argparse.ArgumentParser) -> None:
    """The `--think` option of the commands that run built-in players."""
    sub.add_argument(
        "--think", type=think_argument, default=None, metavar="LEVEL|TIME",
        help="how long an 'mcts' player without a budget of its own thinks per decision: easy (0.5 s), "
             "normal (3 s, the default), hard (10 s), or a time such as 5s or 800ms",
    )


def is_path(name: str) -> bool:
    return os.sep in name or "/" in name or name.endswith((".yaml", ".yml")) or read_as_path(name)


def load(args: argparse.Namespace, record: Optional[Record] = None) -> Game:
    """The game of a command: GAME (a bundled game or variant, `GAME/VARIANT`, or a
    path), --option and --variant, on top of the record's header.

    Options and the variant in a record's header apply unless the command line
    sets them too, so a record replays as it was played.
    """
    header = record.header if record is not None else RecordHeader()
    wanted = args.game
    if header.game and "/" in header.game and header.game.partition("/")[0] == wanted and not args.variant:
        wanted = header.game  # a record of a bundled variant, replayed by its game's name
    # Checked before loading too: the header's options are likely wrong for another
    # game, and "this record is of another game" is the message that helps.
    if record is not None and header.game and not is_path(wanted) and header.game != wanted:
        raise _header_mismatch(record, wanted)
    typed = dict(args.option or [])
    from_header = {name: value for name, value in header.options.items() if name not in typed}
    variant = args.variant or header_variant(record)
    try:
        game = load_game(resolve_game(wanted), {**from_header, **typed}, variant)
    except UnknownVariant as exc:
        raise CliError(str(exc)) from None
    except DefinitionError as exc:
        raise _blame_header(exc, record, from_header) from None
    if record is not None and header.game and header.game not in (game.name, display_name(game)):
        raise _header_mismatch(record, display_name(game))
    return game


def _blame_header(exc: DefinitionError, record: Optional[Record], from_header: dict[str, Any]) -> DefinitionError:
    """Option errors that come from the record's header, pointed at its lines.

    The API reports a bad option at `--option:1:1`; when the option was not typed
    but read from the record, the record's line is where to look.
    """
    if record is None:
        return exc
    moved = []
    for diagnostic in exc.diagnostics:
        name = next((n for n in from_header if f"'{n}'" in diagnostic.message), None)
        if diagnostic.file != "--option" or name is None:
            return exc
        line, column = record.header.positions[f"option:{name}"]
        moved.append(Diagnostic(record.source, line, column, diagnostic.message, hint=diagnostic.hint))
    return DefinitionError(moved, {record.source: record.text}) if moved else exc


def _header_mismatch(record: Record, name: str) -> RecordError:
    line, column = record.header.positions.get("game", (1, 1))
    message = f"this is a record of '{record.header.game}', not of '{name}'"
    return RecordError(Diagnostic(record.source, line, column, message), record.text)


def replay_record(game: Game, record: Optional[Record], on_state: Optional[Callable[..., Any]] = None) -> Any:
    """The position after the record; `on_state(ply, state)` sees every position on the way.

    An illegal action, or one after the end, is a `RecordActionError` (exit status 2):
    `FILE:LINE:COLUMN: error: GAME: ply N: action 'X' ...`, on one line, with the
    legal actions as the hint.
    """
    state = game.initial_state()
    if on_state is not None:
        on_state(0, state)
    if record is None:
        return state
    for index, action in enumerate(record.actions):
        if game.is_terminal(state):
            raise record_action_error(game, record, index, state, "comes after the end of the game")
        try:
            state = game.apply(state, action.notation)
        except IllegalActionError:
            raise record_action_error(game, record, index, state, "is not legal here") from None
        if on_state is not None:
            on_state(index + 1, state)
    return state


def record_action_error(game: Game, record: Record, index: int, state: State, what: str) -> RecordActionError:
    """The error for action `index` of `record`, which cannot be played in `state`."""
    action = record.actions[index]
    ply = index + 1
    message = f"{display_name(game)}: ply {ply}: action '{action.notation}' {what}"
    diagnostic = Diagnostic(record.source, action.line, action.column, message,
                            end_column=action.column + len(action.notation), hint=legal_hint(game, state, ply))
    return RecordActionError(diagnostic, record.text)


def legal_hint(game: Game, state: State, ply: int, shown: int = 12) -> Optional[str]:
    """'legal at ply N: a b c ...' (the first `shown`), or None when nothing is legal."""
    legal = [] if game.is_terminal(state) else game.legal_notations(state)
    if not legal:
        return None
    more = " ..." if len(legal) > shown else ""
    return f"legal at ply {ply}: {' '.join(legal[:shown])}{more}"


def position_json(game: Game, state: State, ply: int) -> dict[str, Any]:
    """One line of `replay --json`: keys in the contract's order."""
    terminal = game.is_terminal(state)
    line: dict[str, Any] = {
        "ply": ply,
        "to_move": game.to_move(state),
        "legal": game.legal_notations(state),
        "terminal": terminal,
    }
    result = game.result(state)
    if terminal and result is not None:
        line["winner"] = result.winner
        if len(result.winners) > 1:  # a team (`teams:`)
            line["winners"] = list(result.winners)
        line["scores"] = {player: json_number(score) for player, score in result.scores.items()}
    return line


def last_move(game: Game, states: list[Any]) -> Any:
    """The action to highlight after `states` (the positions of a game so far): the
    last one that was not a chance outcome, so that a roll keeps the move before it lit."""
    for index in range(len(states) - 1, 0, -1):
        if game.to_move(states[index - 1]) != CHANCE_NAME:
            return game.last_action(states[index])
    return None


def describe_result(game: Game, state: State) -> str:
    result = game.result(state)
    assert result is not None  # (asked of a finished game)
    scores = ", ".join(f"{p} {number_text(s)}" for p, s in result.scores.items())
    head = f"{result.winner} wins" if result.winner is not None else "no winner"
    if len(result.winners) > 1:
        head = f"{result.winner} ({' and '.join(result.winners)}) win"
    return f"game over: {head} ({scores})"




def use_color(stream: Any) -> bool:
    return isatty(stream) and not os.environ.get("NO_COLOR")


def isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # replaced or closed streams
        return False


_LEARNT_KEPT = False


def prepare_agent(agent: Any, game: Game) -> None:
    """Let `agent` learn what it learns of `game` once per process (`prepare`, where it
    has one), then, the first time, keep everything loaded and learnt out of the
    collector's full passes: they scan the whole heap (the compiled game, its caches,
    the learnt evaluation), 0.1-0.15 s of processor time that falls into some move and
    runs it past its time (benchmarks/PROFILE-NOTES.md, section ai-time)."""
    global _LEARNT_KEPT
    prepare = getattr(agent, "prepare", None)
    if prepare is not None:
        prepare(game)
    if not _LEARNT_KEPT:
        _LEARNT_KEPT = True
        gc.collect()
        gc.freeze()
