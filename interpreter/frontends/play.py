"""`regelwerk play`: one game in the terminal between people and built-in players.

People type notations (see prompt.py for commands and hints); the built-in players
come from `agents.make_agent`; chance events are drawn by the program or, with
`--chance ask`, typed in (a physical die). The record is rewritten after every
action, so nothing is lost when the session ends in any way, and
`--resume FILE` continues it.

Reproducibility: the random choices at ply p (a chance draw, or the search of a
built-in player) use a generator seeded from the text `SEED/WHO/p`. So the same
seed and the same entries give the same game, a resumed game continues exactly
as it would have without the break, and `undo` does not re-roll the dice.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Optional, TextIO

from ..api import Game
from .agents import make_agent, sample_chance
from .agents.registry import split_players
from .common import use_color, describe_result, isatty
from .prompt import (
    COMMANDS,
    LineInput,
    describe_outcomes,
    describe_site,
    find_site,
    help_text,
    list_actions,
    not_legal_message,
    outcome_from_text,
    read_command,
)
from .record_game import resume_command
from .records import RecordHeader, claim_record, write_record

HUMAN = "human"
CHANCE = "chance"
CHANCE_MODES = ("roll", "ask")
# A game between built-in players whose rules never end it must not run forever.
MAX_PLIES = 100_000


@dataclass
class Seat:
    player: str
    spec: str
    agent: Any = None  # None: a person at the keyboard


class PlayError(Exception):
    """Bad arguments for a game session (the CLI reports it and exits with 1)."""


def make_seats(game: Game, players_text: str, seed: int) -> list[Seat]:
    """One seat per player of `game` from `human,mcts:500,...`; the last spec fills the rest."""
    try:
        specs = split_players(players_text, list(game.players), game.name)
    except ValueError as exc:
        raise PlayError(str(exc)) from None
    specs += [specs[-1]] * (len(game.players) - len(specs))
    seats = []
    for index, (player, spec) in enumerate(zip(game.players, specs)):
        if spec.lower() == HUMAN:
            seats.append(Seat(player, HUMAN))
            continue
        try:
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


def ply_seed(seed: int, who: str, ply: int) -> str:
    """The seed of the random choice `who` makes at `ply` (see the module's doc)."""
    return f"{seed}/{who}/{ply}"


class Session:
    """One game: the positions so far, the seats, and the record on disk."""

    def __init__(self, game: Game, seats: list[Seat], seed: int, record_path: Path, header: RecordHeader,
                 reader: LineInput, out: TextIO, *, chance: str = "roll", stacks: bool = False,
                 notations: Optional[list[str]] = None):
        self.game = game
        self.seats = {seat.player: seat for seat in seats}
        self.seed = seed
        self.record_path = record_path
        self.header = header
        self.reader = reader
        self.out = out
        self.ask_chance = chance == "ask"
        self.show_stacks = stacks
        self.colour = use_color(out)
        self.lock = None  # the lock of the record being written (records.RecordLock)
        self.states = [game.initial_state()]
        self.notations: list[str] = []
        self.movers: list[str] = []  # who took each action
        for notation in notations or ():
            self._advance(notation)

    # -- output ---------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def draw(self) -> None:
        try:
            from .render_text import render_text
        except ImportError:  # no renderer: the moves alone still tell the game
            return
        self.out.write(render_text(self.game, self.state, plain=not self.colour, stacks=self.show_stacks,
                                   last_action=self._last_move()))
        self.out.flush()

    def _last_move(self):
        """The last action that was not chance, so a roll keeps the move before it lit."""
        for index in range(len(self.notations) - 1, -1, -1):
            if self.movers[index] != CHANCE:
                return self.game.last_action(self.states[index + 1])
        return None

    def save(self) -> None:
        try:
            # One writer per record: a second `play` on the same file must not
            # overwrite this one's game (nor this one its).
            self.lock = claim_record(self.record_path, self.lock)
            write_record(str(self.record_path), self.notations, self.header)
        except OSError as exc:
            raise PlayError(f"cannot write the record {self.record_path}: {exc.strerror or exc}") from None

    # -- the game -------------------------------------------------------------------

    @property
    def state(self):
        return self.states[-1]

    def asks(self, player: str) -> bool:
        """Whether the person at the keyboard decides for `player` (or the chance event)."""
        if player == CHANCE:
            return self.ask_chance
        return self.seats[player].agent is None

    def run(self) -> int:
        game = self.game
        who = ", ".join(f"{seat.player} = {seat.spec}" for seat in self.seats.values())
        chance = "; chance typed in (--chance ask)" if self.ask_chance else ""
        self.say(f"{game.title}: {who}; seed {self.seed}{chance}")
        try:
            self.save()
            self.say(f"the game is recorded in {self.record_path}")
            if any(self.asks(p) for p in (*self.seats, CHANCE)):
                self.say("type an action to play it, a site for the actions from it, 'help' for more")
            self.draw()
            return self._loop()
        except KeyboardInterrupt:
            self.say(f"\ninterrupted; the game is saved in {self.record_path}")
            raise
        finally:
            if self.lock is not None:
                self.lock.release()

    def _loop(self) -> int:
        game = self.game
        while not game.is_terminal(self.state):
            if len(self.notations) >= MAX_PLIES:
                self.say(f"stopped after {MAX_PLIES} actions without an end")
                return 1
            player = game.to_move(self.state)
            if player != CHANCE and not game.legal_actions(self.state):
                self.say(f"{player} has no legal action, yet the game is not over (see `regelwerk lint`)")
                return 1
            if self.asks(player):
                action = self.ask(player)
                if action is None:
                    self.say(f"game stopped; it is saved in {self.record_path}")
                    self.say(f"continue it with: {resume_command(self.header, self.record_path)}")
                    return 0
                if action == "":  # undone or redrawn: ask again in the position now
                    continue
            elif player == CHANCE:
                rng = random.Random(ply_seed(self.seed, CHANCE, len(self.notations)))
                action = sample_chance(game, self.state, rng).notation
            else:
                action = self.think(self.seats[player])
            self.play(player, action)
        self.say(describe_result(game, self.state))
        self.say(f"the game is saved in {self.record_path}")
        return 0

    def _advance(self, notation: str) -> None:
        player = self.game.to_move(self.state)
        self.states.append(self.game.apply(self.state, notation))
        self.notations.append(notation)
        self.movers.append(player)

    def play(self, player: str, notation: str) -> None:
        self._advance(notation)
        self.save()
        self.say(f"{len(self.notations)}. {player}: {notation}{self._search_note(player)}")
        if self._draw_after(player):
            self.draw()

    def _search_note(self, player: str) -> str:
        """On a terminal, what the search of a built-in player saw (not in transcripts:
        the time differs from run to run)."""
        seat = self.seats.get(player)
        stats = getattr(seat.agent, "last_stats", None) if seat is not None else None
        if not self.colour or stats is None or not stats.iterations or not stats.choices:
            return ""
        value = stats.choices[0][2]  # the mean reward of the chosen move: ~ its chance to win
        return f"   ({stats.iterations} playouts in {stats.seconds:.1f} s, value {value:.2f})"

    def _draw_after(self, player: str) -> bool:
        """Once per turn is enough: a roll the program makes comes at once, so the
        board is drawn after it (with the move before it still lit); an outcome typed
        in was entered looking at the board drawn just before."""
        if player == CHANCE:
            return not self.ask_chance
        return self.game.to_move(self.state) != CHANCE or self.ask_chance

    def think(self, seat: Seat) -> str:
        # The search at this ply depends only on the seed, the player and the ply.
        seat.agent.rng.seed(ply_seed(self.seed, seat.player, len(self.notations)))
        if not isatty(self.out):
            return seat.agent.choose(self.game, self.state).notation
        from rich.console import Console

        with Console(file=self.out).status(f"{seat.player} ({seat.spec}) is thinking ..."):
            return seat.agent.choose(self.game, self.state).notation

    # -- the person at the keyboard ------------------------------------------------------

    def prompt(self, player: str) -> str:
        return f"{player} [{self.game.decision(self.state)}]> "

    def ask(self, player: str) -> Optional[str]:
        """A legal notation from the person; "" after undo; None to stop."""
        chance = player == CHANCE
        while True:
            text = self.reader.read(self.prompt(player), self.completions(chance))
            if text is None:
                return None
            if not text:
                continue
            if chance:
                outcome = outcome_from_text(self.game, self.state, text)
                if outcome is not None:
                    return outcome.notation
            elif text in self.game.legal_notations(self.state):  # the game's notation wins over commands
                return text
            command = read_command(text)
            if command is not None:
                answer = self.command(command, chance)
                if answer is _STOP:
                    return None
                if answer is not None:
                    return answer
                continue
            site = find_site(self.game, text)
            if site is not None and not chance:
                self.say(describe_site(self.game, self.state, site))
                continue
            if chance:
                self.say(f"'{text}' is not an outcome here; " + describe_outcomes(self.game, self.state))
                self.reader.discard()
                continue
            try:
                return self.game.parse_action(self.state, text).notation
            except ValueError:  # IllegalActionError
                self.say(not_legal_message(self.game, self.state, text))
                self.reader.discard()

    def completions(self, chance: bool) -> list[str]:
        """What Tab may complete at the prompt: notations, sites, commands."""
        if chance:
            words = [a.notation for a, _ in self.game.chance_outcomes(self.state)]
        else:
            words = self.game.legal_notations(self.state) + list(self.game.board.sites)
        return words + list(COMMANDS)

    def command(self, command, chance: bool) -> Optional[str]:
        """Carry out a command: a notation to play, "" to ask again in the position now,
        _STOP to end the session, or None to go on asking."""
        name = command.name
        if name == "quit":
            return _STOP
        if name == "help":
            self.say(help_text(self.game, self.state, chance))
        elif name == "moves":
            if chance:
                self.say(describe_outcomes(self.game, self.state))
            else:
                self.say(list_actions(self.game, self.state))
        elif name == "undo":
            if self.undo():
                return ""
        elif name == "save":
            self.save_as(command.argument)
        elif name == "stacks":
            self.show_stacks = not self.show_stacks
            has_stacks = any(p.height > 1 for p in self.game.pieces(self.state))
            state = "on" if self.show_stacks else "off"
            self.say(f"stack listing {state}" + ("" if has_stacks else " (no stack of two or more on the board now)"))
            if self.show_stacks and has_stacks:
                self.draw()
        elif name == "board":
            self.draw()
        elif name == "random":
            if chance:
                rng = random.Random(ply_seed(self.seed, CHANCE, len(self.notations)))
                return sample_chance(self.game, self.state, rng).notation
            self.say("'random' draws a chance outcome; here it is your decision")
        return None

    def save_as(self, argument: str) -> None:
        if argument:
            previous, self.record_path = self.record_path, Path(argument).expanduser()
            try:
                self.save()
            except PlayError as exc:  # a mistyped folder must not end the game
                self.record_path = previous
                self.say(f"{exc}; the game is still recorded in {previous}")
                return
            self.say(f"saved; the game is recorded in {self.record_path} from now on")
        else:
            self.save()
            self.say(f"saved in {self.record_path}")

    def undo(self) -> bool:
        """Back to the previous entry made at this keyboard (taking back the replies after it)."""
        for index in range(len(self.notations) - 1, -1, -1):
            if self.asks(self.movers[index]):
                del self.states[index + 1:]
                del self.notations[index:]
                del self.movers[index:]
                self.save()
                self.say(f"back to ply {index}")
                self.draw()
                return True
        self.say("nothing to undo")
        return False


_STOP = object()  # what `Session.command` answers for quit
