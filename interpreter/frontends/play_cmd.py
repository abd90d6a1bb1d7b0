"""The `regelwerk play` command: arguments, `--resume`, the header of the record.

The game itself is played by `play.Session`; see docs/playing.md for the whole
behaviour.
"""
from __future__ import annotations

import random
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from ..api import Game, IllegalActionError
from ..spelling import counted
from ..validation.diagnostics import Diagnostic
from .names import display_name
from .play import CHANCE_MODES, PlayError, Session, default_record_path, make_seats
from .play_end import NextGame
from .prompt import LineInput
from .record_game import game_to_resume, header_identity
from .records import STDIN, Record, RecordError, RecordHeader, read_record


def play_command(args: Any, game: Game, resumed: Any=None) -> int:
    """Run `regelwerk play` with parsed arguments; PlayError for bad ones.

    `resumed` is the `Record` of `--resume`: its actions are replayed first (the
    caller checked them), and its header supplies what the command line leaves out.
    Games asked for at the end of one (rematch, swap, new) follow in the same session.
    """
    old = resumed.header if resumed is not None else RecordHeader()
    seed = args.seed if args.seed is not None else old.seed
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    players = args.players or old.players or "human,mcts"
    chance = args.chance or old.extra.get("chance") or "roll"
    if chance not in CHANCE_MODES:
        raise PlayError(f"--chance: expected one of {', '.join(CHANCE_MODES)}, got '{chance}'")
    seats = make_seats(game, players, seed, args.think)
    if args.record:
        path = Path(args.record)
    elif resumed is not None:
        path = Path(resumed.source)
    else:
        path = default_record_path(display_name(game))
    name, game_path, variant = header_identity(game, path)
    header = RecordHeader(
        game=name,
        path=game_path,
        options={**old.options, **dict(args.option or [])},
        variant=variant,
        players=",".join(seat.spec for seat in seats),
        seed=seed,
        date=old.date or datetime.now().isoformat(timespec="seconds"),
        extra={key: value for key, value in old.extra.items() if key != "chance"},
    )
    if chance != "roll":
        header.extra["chance"] = chance
    if resumed is not None:
        header.extra["resumed"] = datetime.now().isoformat(timespec="seconds")
    session = Session(
        game, seats, seed, path, header, LineInput(sys.stdin, sys.stdout), sys.stdout,
        chance=chance, stacks=bool(getattr(args, "stacks", False)),
        notations=resumed.notations if resumed is not None else None,
        lenient=bool(getattr(args, "lenient", False)), think=args.think,
    )
    if resumed is not None:
        session.say(f"resuming {resumed.source} after {counted(len(resumed.notations), 'action')}")
    return run_sessions(session)


def run_sessions(session: Session) -> int:
    """Play `session`, then every game asked for at the end of the one before."""
    while True:
        answer = session.run()
        if not isinstance(answer, NextGame):
            return answer or 0
        session = next_session(session, answer)


def next_session(previous: Session, wanted: NextGame) -> Session:
    """A new game after `previous`: the same game or `wanted.game`, the same players
    (moved one seat on for a swap), the next seed and a new record."""
    game = wanted.game or previous.game
    specs = [seat.spec for seat in previous.seats.values()]
    specs = specs[:len(game.players)] + [specs[-1]] * (len(game.players) - len(specs))
    if wanted.rotate:
        specs = specs[-1:] + specs[:-1]
    seed = previous.seed + 1
    seats = make_seats(game, ",".join(specs), seed, previous.think)
    record_path = default_record_path(display_name(game))
    name, game_path, variant = header_identity(game, record_path)
    options = previous.header.options if wanted.game is None else {}
    header = RecordHeader(game=name, path=game_path, options=options, variant=variant,
                          players=",".join(s.spec for s in seats), seed=seed,
                          date=datetime.now().isoformat(timespec="seconds"))
    chance = "ask" if previous.ask_chance else "roll"
    if previous.ask_chance:
        header.extra["chance"] = chance
    return Session(game, seats, seed, record_path, header, previous.reader,
                   previous.out, chance=chance, stacks=previous.show_stacks, lenient=previous.lenient,
                   think=previous.think)


class DamagedRecord(RecordError):
    """A record to resume that does not replay: exit status 2, as an illegal action."""

    status = 2


def run(args: Any) -> int:
    """`regelwerk play [GAME] [--resume FILE] ...`, parsed."""
    from .common import load

    resumed = None
    if args.resume:
        if args.resume == STDIN:
            raise PlayError("--resume needs a file: standard input is where the moves are typed")
        resumed = read_record(args.resume)
        if args.game is None:
            if not resumed.header.game and not resumed.header.path:
                raise PlayError(
                    f"{resumed.source} does not say which game it is (no '# game:' line); "
                    f"name it: regelwerk play GAME --resume {resumed.source}"
                )
            args.game = game_to_resume(resumed)
    elif args.game is None:
        raise PlayError("which game? regelwerk play GAME (or --resume FILE); `regelwerk list` shows the games")
    game = load(args, resumed)
    if resumed is not None:
        check_replays(game, resumed)
    return play_command(args, game, resumed)


def check_replays(game: Game, record: Record) -> None:
    """DamagedRecord at the first action of `record` that cannot be played."""
    from .common import legal_hint

    state = game.initial_state()
    for index, action in enumerate(record.actions):
        ply = index + 1
        if game.is_terminal(state):
            message = f"ply {ply}: '{action.notation}' comes after the end of the game ({game.name})"
        else:
            try:
                state = game.apply(state, action.notation)
                continue
            except IllegalActionError:
                message = f"ply {ply}: '{action.notation}' is not a legal action of {game.name} here"
        hint = legal_hint(game, state, ply)
        if hint:
            hint += "; fix or delete this line and the rest, then resume"
        diagnostic = Diagnostic(record.source, action.line, action.column, message,
                                end_column=action.column + len(action.notation), hint=hint)
        raise DamagedRecord(diagnostic, record.text)


def help_texts(prog: str, g: str) -> tuple[str, str]:
    """The summary and the examples of `regelwerk play --help`."""
    return (
        "play in the terminal: people and built-in AI players",
        f"  {prog} play {g}                         you against the computer (MCTS, 3 s a move)\n"
        f"  {prog} play {g} --think hard            a stronger opponent (10 s a move)\n"
        f"  {prog} play {g} --players human,human   two people at one keyboard\n"
        f"  {prog} play {g} --players mcts:200,random --seed 3\n"
        f"  {prog} play {_a_variant(g)}   a bundled variant (regelwerk list shows them)\n"
        f"  {prog} play {g} --record mine.txt < moves.txt\n"
        f"  {prog} play --resume mine.txt              continue a saved game\n"
        f"  {prog} play {g} --chance ask          games with dice: roll a real die, type what it shows\n\n"
        "At your turn type an action as the game writes it (e.g. d2-d3, @c3), or:\n"
        "  SITE          the legal actions from that site and to it\n"
        "  moves, ?      the legal actions        hint      what the computer would play, and why\n"
        "  undo          take back your last entry\n"
        "  save [FILE]   save (to FILE from now)  stacks    show/hide the stack listing\n"
        "  board         draw the board again     help      the commands   quit   stop\n"
        "When the game is over: review (step through it), undo, rematch, swap (seats), new [GAME], quit.\n\n"
        "The game is saved as a record (with a header: game, options, players, seed, date)\n"
        "after every action, in your data folder unless --record FILE says where (the path\n"
        "is printed); --resume FILE continues it. When standard input is not a terminal, it\n"
        "is read as one entry per line ('#' comments and blank lines skipped), and a line\n"
        "that is not legal stops the game with exit status 2 (--lenient skips it instead).\n\n"
        "Random choices (chance, the AI's search) at each ply depend only on --seed, so a\n"
        "game replays, and resumes, exactly (with players of an iteration budget, mcts:N;\n"
        "a time budget depends on the machine); 'undo' does not re-roll the dice.",
    )


def _a_variant(g: str) -> str:
    """A bundled variant to show in the examples (GAME/VARIANT when there is none)."""
    from .names import all_names

    return next((name for name in all_names() if "/" in name), f"{g}/VARIANT")


def configure_parser(sub: Any, run_command: Any) -> None:
    """The arguments of `regelwerk play` (GAME, --option and --variant are already there)."""
    from .common import add_think_argument, int_argument

    sub.add_argument(
        "--players", metavar="LIST", default=None,
        help=(
            "who plays, in turn order, separated by commas: human, random, greedy (one action ahead), "
            "mcts (the default player, 3 s a decision), mcts:easy|normal|hard, mcts:N (N iterations), "
            "mcts:Ns (seconds), mcts-v1 (the previous default, same parameters), mcts-classic; the last one "
            "fills the remaining seats (default human,mcts; with --resume the record's players)"
        ),
    )
    add_think_argument(sub)
    sub.add_argument("--seed", type=int_argument, default=None, metavar="N",
                     help="seed of the AI players and chance (default: random; saved in the record)")
    sub.add_argument("--record", metavar="FILE", default=None,
                     help="where to save the game (default GAME-YYYYmmdd-HHMMSS.txt in your data folder, "
                          "e.g. ~/.local/share/regelwerk/games; with --resume, the resumed file)")
    sub.add_argument("--resume", metavar="FILE", default=None,
                     help="continue the game saved in FILE (game, options, variant, players and seed "
                          "from its header; GAME and the options given here take precedence)")
    sub.add_argument("--chance", choices=CHANCE_MODES, default=None,
                     help="roll: the program draws chance outcomes (default); ask: you type each outcome "
                          "(e.g. roll:4 or just 4), for a physical die")
    sub.add_argument("--stacks", action="store_true",
                     help="list every stack (bottom to top) under the board; the 'stacks' command toggles it")
    sub.add_argument("--lenient", action="store_true",
                     help="from a pipe or file, skip a line that is not legal (and say why) instead of stopping "
                          "with exit status 2")
    sub.set_defaults(run=run_command)
