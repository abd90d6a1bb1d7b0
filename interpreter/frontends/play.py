"""`regelwerk play`: one game in the terminal between people and built-in players.

People type notations; the built-in players come from `agents.make_agent`; chance
events are drawn from the seeded generator, so the seed and the people's moves
decide the whole game. The record is rewritten after every action, so nothing is
lost when the session ends in any way.
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Optional, TextIO

from ..api import Game, IllegalActionError
from .agents import make_agent, sample_chance
from .cli import describe_result, isatty
from .records import RecordHeader, write_record

HUMAN = "human"
CHANCE = "chance"
# A game between built-in players whose rules never end it must not run forever.
MAX_PLIES = 100_000
_QUIT = ("quit", "exit", "q")
_LIST = ("?", "moves", "legal")
_HELP = ("help", "h")
_UNDO = ("undo", "u")


@dataclass
class Seat:
    player: str
    spec: str
    agent: Any = None  # None: a person at the keyboard


class PlayError(Exception):
    """Bad arguments for a game session (the CLI reports it and exits with 1)."""


def make_seats(game: Game, players_text: str, seed: int) -> list[Seat]:
    """One seat per player of `game` from `human,mcts:500,...`; the last spec fills the rest."""
    specs = [part.strip() for part in players_text.split(",")]
    if not specs or any(not spec for spec in specs):
        raise PlayError(f"--players: expected names separated by commas, got '{players_text}'")
    if len(specs) > len(game.players):
        raise PlayError(
            f"--players: {len(specs)} players given but {game.name} is played by "
            f"{len(game.players)} ({', '.join(game.players)})"
        )
    specs += [specs[-1]] * (len(game.players) - len(specs))
    seats = []
    for index, (player, spec) in enumerate(zip(game.players, specs)):
        if spec.lower() == HUMAN:
            seats.append(Seat(player, HUMAN))
            continue
        try:
            # Each seat draws from its own stream: changing one player leaves the others' games alike.
            agent = make_agent(spec, seed=seed + 1 + index)
        except ValueError as exc:
            raise PlayError(f"--players: {exc}") from None
        seats.append(Seat(player, spec, agent))
    return seats


def default_record_path(game_name: str, now: Optional[datetime] = None, folder: Path = Path(".")) -> Path:
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    path = folder / f"{game_name}-{stamp}.txt"
    n = 2
    while path.exists():  # two games started in the same second
        path = folder / f"{game_name}-{stamp}-{n}.txt"
        n += 1
    return path


class LineInput:
    """What people type: `input()` on a terminal, otherwise one action per line of the stream."""

    def __init__(self, stream: TextIO, out: TextIO):
        self.stream = stream
        self.out = out
        self.interactive = isatty(stream)

    def read(self, prompt: str) -> Optional[str]:
        """The next entry (stripped), or None at the end of the input."""
        if self.interactive:
            try:
                return input(prompt).strip()
            except EOFError:
                self.out.write("\n")
                return None
        while True:
            line = self.stream.readline()
            if not line:
                return None
            text = line.split("#", 1)[0].strip()
            if text:
                # Echo it, so that a transcript of a piped game reads like a played one.
                self.out.write(f"{prompt}{text}\n")
                return text


class Session:
    def __init__(self, game: Game, seats: list[Seat], seed: int, record_path: Path, header: RecordHeader,
                 reader: LineInput, out: TextIO):
        self.game = game
        self.seats = {seat.player: seat for seat in seats}
        self.chance_rng = random.Random(seed)
        self.record_path = record_path
        self.header = header
        self.reader = reader
        self.out = out
        self.states = [game.initial_state()]
        self.notations: list[str] = []

    # -- output ---------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def draw(self) -> None:
        try:
            from .render_text import render_text
        except ImportError:  # no renderer: the moves alone still tell the game
            return
        plain = not isatty(self.out)
        self.out.write(render_text(self.game, self.state, plain=plain))
        self.out.flush()

    def save(self) -> None:
        try:
            write_record(str(self.record_path), self.notations, self.header)
        except OSError as exc:
            raise PlayError(f"cannot write the record {self.record_path}: {exc.strerror or exc}") from None

    # -- the game -------------------------------------------------------------------

    def run(self) -> int:
        game = self.game
        who = ", ".join(f"{seat.player} = {seat.spec}" for seat in self.seats.values())
        self.say(f"{game.title}: {who}; seed {self.header.seed}")
        self.save()
        self.say(f"the game is recorded in {self.record_path}")
        if HUMAN in (seat.spec for seat in self.seats.values()):
            self.say("type an action to play it, '?' for the legal actions, 'help' for more")
        self.draw()
        while not game.is_terminal(self.state):
            if len(self.notations) >= MAX_PLIES:
                self.say(f"stopped after {MAX_PLIES} actions without an end")
                return 1
            player = game.to_move(self.state)
            if player == CHANCE:
                action = sample_chance(game, self.state, self.chance_rng).notation
            elif self.seats[player].agent is None:
                action = self.ask(player)
                if action is None:
                    self.say(f"game stopped; it is saved in {self.record_path}")
                    return 0
                if action == "":  # undone: ask again in the earlier position
                    continue
            else:
                action = self.think(self.seats[player])
            self.play(player, action)
        self.say(describe_result(game, self.state))
        self.say(f"the game is saved in {self.record_path}")
        return 0

    @property
    def state(self):
        return self.states[-1]

    def play(self, player: str, notation: str) -> None:
        self.states.append(self.game.apply(self.state, notation))
        self.notations.append(notation)
        self.save()
        self.say(f"{len(self.notations)}. {player}: {notation}")
        self.draw()

    def think(self, seat: Seat) -> str:
        if not isatty(self.out):
            return seat.agent.choose(self.game, self.state).notation
        from rich.console import Console

        with Console(file=self.out).status(f"{seat.player} ({seat.spec}) is thinking ..."):
            return seat.agent.choose(self.game, self.state).notation

    def ask(self, player: str) -> Optional[str]:
        """A legal notation from the person; "" after a command; None to stop."""
        while True:
            text = self.reader.read(f"{player}> ")
            if text is None:
                return None
            # A game's own notation wins over a command of the same spelling.
            if text in self.game.legal_notations(self.state):
                return text
            command = text.lower()
            if command in _QUIT:
                return None
            if command in _HELP:
                self.say(_HELP_TEXT)
            elif command in _LIST:
                self.say("legal: " + " ".join(self.game.legal_notations(self.state)))
            elif command in _UNDO:
                if self.undo():
                    return ""
            elif text:
                try:
                    return self.game.parse_action(self.state, text).notation
                except IllegalActionError:
                    self.say(self.not_legal(text))

    def not_legal(self, text: str) -> str:
        legal = self.game.legal_notations(self.state)
        # The actions that start like the entry (same piece, usually) are the likely intent.
        near = [n for n in legal if n.lower().startswith(text.lower()[:2])] if len(text) >= 2 else []
        hint = f"; it could be: {' '.join(near[:12])}" if near else "; type ? for the legal actions"
        return f"'{text}' is not legal here{hint}"

    def undo(self) -> bool:
        """Back to this person's previous decision (taking back the replies after it)."""
        for index in range(len(self.notations) - 1, -1, -1):
            player = self.game.to_move(self.states[index])
            if player != CHANCE and self.seats[player].agent is None:
                del self.states[index + 1:]
                del self.notations[index:]
                self.save()
                self.say(f"back to ply {index}")
                self.draw()
                return True
        self.say("nothing to undo")
        return False


_HELP_TEXT = """\
  NOTATION   play that action (as listed by '?')
  ?          list the legal actions
  undo       take back your last action (and the replies to it)
  quit       stop; the game so far stays in the record"""


def play_command(args, game: Game) -> int:
    """Run `regelwerk play` with parsed arguments; PlayError for bad ones."""
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    seats = make_seats(game, args.players, seed)
    path = Path(args.record) if args.record else default_record_path(game.name)
    header = RecordHeader(
        game=game.name,
        options=dict(args.option or []),
        variant=args.variant,
        players=",".join(seat.spec for seat in seats),
        seed=seed,
        date=datetime.now().isoformat(timespec="seconds"),
    )
    session = Session(game, seats, seed, path, header, LineInput(sys.stdin, sys.stdout), sys.stdout)
    return session.run()
