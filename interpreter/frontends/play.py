"""`regelwerk play`: one game in the terminal between people and built-in players.

People type notations (see prompt.py for commands and hints); the built-in players
come from `agents.make_agent`; chance events are drawn by the program or, with
`--chance ask`, typed in (a physical die). The record is rewritten after every
action, so nothing is lost when the session ends in any way, and
`--resume FILE` continues it. When the game ends, play_end.py offers review,
undo, a rematch or a new game.

Reproducibility: the random choices at ply p (a chance draw, or the search of a
built-in player) use a generator seeded from the text `SEED/WHO/p`. So the same
seed and the same entries give the same game, a resumed game continues exactly
as it would have without the break (for players with an iteration budget; a
time budget depends on the machine), and `undo` does not re-roll the dice.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, TextIO

from ..api import CHANCE_NAME, Action, Game
from ..validation.diagnostics import visible
from .agents import make_agent, sample_chance
from .agents.registry import split_players
from .common import EXIT_ILLEGAL, describe_result, isatty, last_move, prepare_agent, use_color
from .names import display_name
from .prompt import LineInput
from .record_game import picture_command, resume_command
from .records import RecordHeader, RecordLock, claim_record, write_record

if TYPE_CHECKING:
    from ..runtime.state import State


HUMAN = "human"
CHANCE_MODES = ("roll", "ask")
# A game between built-in players whose rules never end it must not run forever.
MAX_PLIES = 100_000
RECORDS_FOLDER = "games"  # under the per-user data folder


@dataclass
class Seat:
    player: str
    spec: str
    agent: Any = None  # None: a person at the keyboard


class PlayError(Exception):
    """Bad arguments for a game session (the CLI reports it and exits with `status`)."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


def make_seats(game: Game, players_text: str, seed: int, think: Optional[str] = None) -> list[Seat]:
    """One seat per player of `game` from `human,mcts:500,...`; the last spec fills the rest."""
    try:
        specs = split_players(players_text, list(game.players), display_name(game))
    except ValueError as exc:
        raise PlayError(str(exc)) from None
    specs += [specs[-1]] * (len(game.players) - len(specs))
    seats = []
    for index, (player, spec) in enumerate(zip(game.players, specs)):
        if spec.lower() == HUMAN:
            seats.append(Seat(player, HUMAN))
            continue
        try:
            agent = make_agent(spec, seed=seed + 1 + index, think=think)
        except ValueError as exc:
            raise PlayError(f"--players: {exc}") from None
        seats.append(Seat(player, spec, agent))
    return seats


def records_folder() -> Path:
    """Where games are recorded unless --record says otherwise: a folder of the
    user's data (`~/.local/share/regelwerk/games` on Linux, via platformdirs)."""
    from platformdirs import user_data_path

    return user_data_path("regelwerk") / RECORDS_FOLDER


def default_record_path(game_name: str, now: Optional[datetime] = None, folder: Optional[Path] = None) -> Path:
    """A new record's file: GAME-YYYYmmdd-HHMMSS.txt in `folder` (default: `records_folder()`)."""
    folder = records_folder() if folder is None else folder
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PlayError(f"cannot make the folder for records {folder}: {exc.strerror or exc}; "
                        "choose a file with --record FILE") from None
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    stem = game_name.replace("/", "-")
    path = folder / f"{stem}-{stamp}.txt"
    n = 2
    while path.exists():  # two games started in the same second
        path = folder / f"{stem}-{stamp}-{n}.txt"
        n += 1
    return path


def ply_seed(seed: int, who: str, ply: int) -> str:
    """The seed of the random choice `who` makes at `ply` (see the module's doc)."""
    return f"{seed}/{who}/{ply}"


class Session:
    """One game: the positions so far, the seats, and the record on disk."""

    def __init__(self, game: Game, seats: list[Seat], seed: int, record_path: Path, header: RecordHeader,
                 reader: LineInput, out: TextIO, *, chance: str = "roll", stacks: bool = False,
                 notations: Optional[list[str]] = None, lenient: bool = False, think: Optional[str] = None):
        self.game = game
        self.seats = {seat.player: seat for seat in seats}
        self.seed = seed
        self.record_path = record_path
        self.header = header
        self.reader = reader
        self.out = out
        self.ask_chance = chance == "ask"
        self.show_stacks = stacks
        self.lenient = lenient
        self.think = think
        self.colour = use_color(out)
        self.lock: Optional[RecordLock] = None  # the lock of the record being written
        self.states = [game.initial_state()]
        self.notations: list[str] = []
        self.movers: list[str] = []  # who took each action
        for notation in notations or ():
            self._advance(notation)

    # -- output ---------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def draw(self, state: Optional[State] = None, ply: Optional[int] = None) -> None:
        """Draw `state` (default: the position now) with the last move lit."""
        try:
            from .render_text import render_text, terminal_size
        except ImportError:  # no renderer: the moves alone still tell the game
            return
        ply = len(self.notations) if ply is None else ply
        state = self.state if state is None else state
        width, height = terminal_size(self.out)
        last = last_move(self.game, self.states[:ply + 1])
        self.out.write(render_text(self.game, state, plain=not self.colour, stacks=self.show_stacks,
                                   last_action=last, width=width, height=height))
        self.out.flush()

    def picture_hint(self) -> str:
        """For a graph board listed by region in the terminal: the command that draws
        the position with every connection ('' for other boards)."""
        try:
            from .render_text import lists_sites, terminal_size
        except ImportError:
            return ""
        if not lists_sites(self.game, self.state, *terminal_size(self.out)):
            return ""
        return f"the board as a picture, every connection drawn: {picture_command(self.header, self.record_path)}"

    def save(self) -> None:
        try:
            # One writer per record: a second `play` on the same file must not
            # overwrite this one's game (nor this one its).
            self.lock = claim_record(self.record_path, self.lock)
            write_record(str(self.record_path), self.notations, self.header)
        except OSError as exc:
            raise PlayError(f"cannot write the record {self.record_path}: {exc.strerror or exc}") from None

    def refuse(self, message: str) -> None:
        """An entry that cannot be taken: one line at a keyboard (or with --lenient);
        from a pipe or file, the end of the session with exit status 2, as a record
        with an illegal action would be."""
        if self.reader.interactive or self.lenient:
            self.say(visible(message))  # (it may quote what was typed or piped in)
            self.reader.discard()
            return
        raise PlayError(f"ply {len(self.notations) + 1}: {message} (the game is saved in {self.record_path}; "
                        "--lenient skips such lines)", EXIT_ILLEGAL)

    # -- the game -------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def name(self) -> str:
        return display_name(self.game)

    def asks(self, player: str) -> bool:
        """Whether the person at the keyboard decides for `player` (or the chance event)."""
        if player == CHANCE_NAME:
            return self.ask_chance
        return self.seats[player].agent is None

    def run(self) -> Any:
        """Play the game; the exit status, or a `play_end.NextGame` to start."""
        from .play_end import game_over

        game = self.game
        who = ", ".join(f"{seat.player} = {seat.spec}" for seat in self.seats.values())
        chance = "; chance typed in (--chance ask)" if self.ask_chance else ""
        self.say(f"{game.title}: {who}; seed {self.seed}{chance}")
        try:
            self.save()
            self.say(f"the game is recorded in {self.record_path}")
            picture = self.picture_hint()
            if picture:
                self.say(picture)
            if any(self.asks(p) for p in (*self.seats, CHANCE_NAME)):
                self.say("type an action to play it, a site for the actions from it, 'hint' for advice, "
                         "'help' for more")
            self.draw()
            while True:
                status = self._loop()
                if status is not None:
                    return status
                answer = game_over(self)
                if answer is not None:
                    return answer
        except KeyboardInterrupt:
            self.say(f"\ninterrupted; the game is saved in {self.record_path}")
            if not self.game.is_terminal(self.state):
                self.say(f"continue it with: {resume_command(self.header, self.record_path)}")
            raise
        finally:
            if self.lock is not None:
                self.lock.release()

    def _loop(self) -> Optional[int]:
        """Play until the game is over (None) or the session stops (its exit status)."""
        game = self.game
        while not game.is_terminal(self.state):
            if len(self.notations) >= MAX_PLIES:
                self.say(f"stopped after {MAX_PLIES} actions without an end")
                return 1
            player = game.to_move(self.state)
            assert player is not None  # (the game goes on)
            if player != CHANCE_NAME and not game.legal_actions(self.state):
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
            elif player == CHANCE_NAME:
                action = self.draw_chance()
            else:
                action = self.think_for(self.seats[player])
            self.play(player, action)
        return None

    def _advance(self, notation: str) -> None:
        player = self.game.to_move(self.state)
        assert player is not None  # (the game goes on)
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
        from .advice import search_note

        seat = self.seats.get(player)
        stats = getattr(seat.agent, "last_stats", None) if seat is not None else None
        note = search_note(stats) if self.colour else ""
        return f"   {note}" if note else ""

    def _draw_after(self, player: str) -> bool:
        """Once per turn is enough: a roll the program makes comes at once, so the
        board is drawn after it (with the move before it still lit); an outcome typed
        in was entered looking at the board drawn just before."""
        if player == CHANCE_NAME:
            return not self.ask_chance
        return self.game.to_move(self.state) != CHANCE_NAME or self.ask_chance

    def draw_chance(self) -> str:
        """The program's draw of the chance event now (seeded by the seed and the ply)."""
        rng = random.Random(ply_seed(self.seed, CHANCE_NAME, len(self.notations)))
        return sample_chance(self.game, self.state, rng).notation

    def think_for(self, seat: Seat) -> str:
        action: Action = self.search(seat.agent, seat.player, f"{seat.player} ({seat.spec}) is thinking ...")
        return action.notation

    def search(self, agent: Any, who: str, status: str) -> Any:
        """The agent's choice here; its search at this ply depends only on the seed,
        `who` and the ply. A spinner shows on a terminal."""
        agent.rng.seed(ply_seed(self.seed, who, len(self.notations)))
        if not isatty(self.out):
            prepare_agent(agent, self.game)
            return agent.choose(self.game, self.state)
        from rich.console import Console

        with Console(file=self.out).status(status):
            prepare_agent(agent, self.game)
            return agent.choose(self.game, self.state)

    # -- the person at the keyboard ------------------------------------------------------

    def ask(self, player: str) -> Optional[str]:
        """A legal notation from the person; "" after undo; None to stop."""
        from .play_input import ask

        return ask(self, player)

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

    def result_lines(self) -> list[str]:
        """The end of the game: who won, the scores, and the rule that ended it."""
        lines = [describe_result(self.game, self.state)]
        result = self.game.result(self.state)
        ending = result.ending if result is not None else None
        if ending is not None:
            rule = ending.text or ending.how
            lines.append(f"the rule that ended it: {rule} ({ending.file}:{ending.line})")
        return lines
