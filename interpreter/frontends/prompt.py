"""What a person types during `regelwerk play`: entries, commands, site queries, hints.

Everything here is generic: site names come from `game.board.sites`, actions
from `game.legal_actions`, chance outcomes from `game.chance_outcomes`, and the
from/to sites of an action from `Action.from_site` / `Action.to_site`.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, TextIO

from ..limits import MAX_NOTATION_CHARS
from ..validation.diagnostics import shorten, visible
from .common import isatty

if TYPE_CHECKING:
    from ..api import Game
    from ..runtime.state import State


# Command words (a legal notation of the same spelling always wins over them).
QUIT = ("quit", "exit", "q")
MOVES = ("moves", "?", "legal")
HELP = ("help", "h")
UNDO = ("undo", "u")
SAVE = "save"
STACKS = "stacks"
BOARD = ("board", "b")
RANDOM = ("random",)  # at an asked chance event: let the program draw
HINT = ("hint",)
COMMANDS = ("quit", "moves", "help", "undo", "save", "stacks", "board", "hint", "random")

MAX_SHOWN = 12


@dataclass(frozen=True)
class Command:
    """A command word typed at the prompt, with its argument (`save FILE`)."""

    name: str
    argument: str = ""


def read_command(text: str) -> Optional[Command]:
    """The command in `text`, or None when it is no command."""
    word, _, rest = text.strip().partition(" ")
    word, rest = word.lower(), rest.strip()
    if word in QUIT and not rest:
        return Command("quit")
    if word in MOVES and not rest:
        return Command("moves")
    if word in HELP and not rest:
        return Command("help")
    if word in UNDO and not rest:
        return Command("undo")
    if word in BOARD and not rest:
        return Command("board")
    if word == STACKS and not rest:
        return Command("stacks")
    if word in RANDOM and not rest:
        return Command("random")
    if word in HINT and not rest:
        return Command("hint")
    if word == SAVE:
        return Command("save", rest)
    return None


# The most of one line piped in that is kept: a record's bound (records.MAX_RECORD_BYTES).
MAX_LINE_CHARS = 4 * 1024 * 1024


class LineInput:
    """What people type: `input()` on a terminal, otherwise one entry per line of the stream.

    From a pipe or file, `#` starts a comment and blank lines are skipped, so a
    record can be fed back in; each entry is echoed after the prompt, so that a
    transcript of a piped game reads like a played one. A line of several
    notations (`d2-d3 e7-e6`, as in a record) is taken as that many entries.
    On a terminal, line editing, history and Tab completion (of the candidates
    given to `read`) come from `readline` where Python has it.
    """

    def __init__(self, stream: TextIO, out: TextIO):
        self.stream = stream
        self.out = out
        self.interactive = isatty(stream)
        self.pending: list[str] = []
        self.candidates: list[str] = []
        if self.interactive:
            self._set_up_completion()

    def read(self, prompt: str, candidates: Optional[list[str]] = None, split: bool = True) -> Optional[str]:
        """The next entry (stripped), or None at the end of the input. With `split`,
        a line of several notations is taken as that many entries."""
        self.candidates = sorted(candidates or [])
        if self.pending:
            text = self.pending.pop(0)
            self._echo(prompt, text)
            return text
        line = self._read_line(prompt)
        if line is None:
            return None
        text = line
        words = text.split()
        if split and len(words) > 1 and read_command(text) is None:
            self.pending = words[1:]
            return words[0]
        return text

    def discard(self) -> None:
        """Forget the rest of a line of several entries (after one was refused)."""
        if self.pending:
            shown = shorten(" ".join(self.pending[:MAX_NOTATION_CHARS]), MAX_NOTATION_CHARS)
            self.out.write(f"(not taken: {visible(shown)})\n")
        self.pending = []

    def _echo(self, prompt: str, text: str) -> None:
        """`text` after the prompt, cut past the longest notation (a megabyte piped in
        as one line was written back whole), its control characters shown as '?'."""
        self.out.write(f"{prompt}{visible(shorten(text, MAX_NOTATION_CHARS))}\n")

    def _read_line(self, prompt: str) -> Optional[str]:
        if self.interactive:
            self.out.flush()
            try:
                return input(prompt).strip()
            except EOFError:
                self.out.write("\n")
                return None
        while True:
            line = self._bounded_line()
            if not line:
                return None
            text = line.split("#", 1)[0].strip()
            if text:
                self._echo(prompt, text)
                return text

    def _bounded_line(self) -> str:
        """The next line of the stream, its first MAX_LINE_CHARS characters: a stream
        without a line break (`/dev/zero`, a pipe that never ends one) is read in
        bounded pieces, not into memory whole."""
        line = self.stream.readline(MAX_LINE_CHARS)
        if len(line) == MAX_LINE_CHARS and not line.endswith("\n"):
            while (rest := self.stream.readline(MAX_LINE_CHARS)) and not rest.endswith("\n"):
                pass
        return line

    def _set_up_completion(self) -> None:
        try:
            import readline
        except ImportError:  # not on every platform: typing works without it
            return

        def complete(prefix: str, index: int) -> Optional[str]:
            matches = [c for c in self.candidates if c.startswith(prefix)]
            return matches[index] if index < len(matches) else None

        readline.set_completer(complete)
        readline.set_completer_delims(" \t\n")
        readline.parse_and_bind("tab: complete")


# -- sites -------------------------------------------------------------------------------------


def find_site(game: Game, text: str) -> Optional[str]:
    """The board site named `text` (case-insensitive), or None."""
    wanted = text.strip().lower()
    for site in game.board.sites:
        if site.lower() == wanted:
            return site
    return None


def first_site_in(game: Game, text: str) -> tuple[Optional[str], int]:
    """The first site name that occurs in `text` (the longest at the earliest place)
    and where it starts; (None, -1) when there is none."""
    lowered = text.lower()
    names = sorted(game.board.sites, key=len, reverse=True)
    for start in range(len(lowered)):
        for site in names:
            if lowered.startswith(site.lower(), start):
                return site, start
    return None, -1


def site_actions(game: Game, state: State, site: str) -> tuple[list[str], list[str]]:
    """The legal notations that leave `site` and those that arrive there, sorted."""
    leaving, arriving = [], []
    for action in game.legal_actions(state):
        if action.from_site == site:
            leaving.append(action.notation)
        elif action.to_site == site:
            arriving.append(action.notation)
    return sorted(leaving), sorted(arriving)


def describe_site(game: Game, state: State, site: str) -> str:
    """The answer to a site typed at the prompt: what may leave it and what may reach it."""
    leaving, arriving = site_actions(game, state, site)
    if not leaving and not arriving:
        return f"no legal action from or to {site}"
    lines = []
    if leaving:
        lines.append(f"from {site}: " + " ".join(leaving))
    if arriving:
        lines.append(f"to {site}: " + " ".join(arriving))
    return "\n".join(lines)


# -- illegal entries ---------------------------------------------------------------------------


def not_legal_message(game: Game, state: State, text: str) -> str:
    """One short line: the entry is not legal, and what was probably meant."""
    if len(text) > MAX_NOTATION_CHARS:  # (no notation is that long: nothing to look for in it, site by site)
        return f"'{shorten(text)}' is no action: {len(text)} characters, a notation has at most {MAX_NOTATION_CHARS}"
    return f"'{text}' is not legal here; {hint(game, state, text)}"


def hint(game: Game, state: State, text: str) -> str:
    legal = game.legal_notations(state)
    site, start = first_site_in(game, text)
    if site is not None:
        # The first site named is usually the piece meant (`d2-d5`) or, after a
        # prefix (`@d5`), the place meant: what may go from or to it now.
        leaving, arriving = site_actions(game, state, site)
        if leaving and (start == 0 or not arriving):
            return f"from {site}: {_some(leaving)}"
        if arriving:
            return f"to {site}: {_some(arriving)}"
        if start > 0:
            return f"nothing can go to {site} now; {_closest(game, state, text, legal)}"
        owner = next((p.owner for p in game.pieces(state) if p.site == site), False)
        if owner is False:
            return f"there is no piece on {site}; {_closest(game, state, text, legal)}"
        if owner is not None and owner != game.to_move(state):
            return f"the piece on {site} is {owner}'s; {_closest(game, state, text, legal)}"
        return f"nothing can move from {site} now; {_closest(game, state, text, legal)}"
    return _closest(game, state, text, legal)


def _closest(game: Game, state: State, text: str, legal: list[str]) -> str:
    close = difflib.get_close_matches(text, legal, n=MAX_SHOWN, cutoff=0.6)
    if close:
        return f"did you mean: {' '.join(close)}"
    if text.isalpha():
        command = difflib.get_close_matches(text.lower(), COMMANDS, n=1, cutoff=0.6)
        if command:
            return f"did you mean the command '{command[0]}'?"
    if len(legal) <= MAX_SHOWN:
        return "legal: " + " ".join(legal)
    return f"type 'moves' for the {len(legal)} legal actions, a site for the actions from it, 'help' for more"


def list_actions(game: Game, state: State) -> str:
    """The legal actions; many of them one line per site they leave from."""
    actions = sorted(game.legal_actions(state), key=lambda a: a.notation)
    if len(actions) <= MAX_SHOWN:
        return "legal: " + " ".join(a.notation for a in actions)
    groups: dict[str, list[str]] = {}
    for action in actions:
        groups.setdefault(action.from_site or "", []).append(action.notation)
    lines = [f"{len(actions)} legal actions:"]
    for site, notations in groups.items():
        lines.append(f"  {site + ': ' if site else ''}{' '.join(notations)}")
    return "\n".join(lines)


def _some(notations: list[str]) -> str:
    shown = " ".join(notations[:MAX_SHOWN])
    return shown + (f" ... ({len(notations)} in all)" if len(notations) > MAX_SHOWN else "")


# -- chance entered by hand ---------------------------------------------------------------------


def outcome_from_text(game: Game, state: State, text: str) -> Any:
    """The chance outcome meant by `text`: its notation (`roll:4`) or, when that is
    unambiguous, the part after the colon (`4`, `red`). None when nothing fits."""
    outcomes = [action for action, _ in game.chance_outcomes(state)]
    wanted = text.strip().lower()
    for action in outcomes:
        if action.notation.lower() == wanted:
            return action
    short = [a for a in outcomes if a.notation.rpartition(":")[2].lower() == wanted]
    return short[0] if len(short) == 1 else None


def describe_outcomes(game: Game, state: State) -> str:
    """`roll:1 .. roll:6` with their probabilities, and the short forms accepted."""
    outcomes = sorted(game.chance_outcomes(state), key=lambda pair: _natural(pair[0].notation))
    parts = [f"{a.notation} ({_percent(p)})" for a, p in outcomes]
    shorts = [a.notation.rpartition(":")[2] for a, _ in outcomes]
    text = "outcomes: " + " ".join(parts)
    if all(":" in a.notation for a, _ in outcomes) and len(set(s.lower() for s in shorts)) == len(shorts):
        text += f"\n(or just {' '.join(shorts)}; 'random' lets the program draw)"
    else:
        text += "\n('random' lets the program draw)"
    return text


def _percent(probability: float) -> str:
    value = 100.0 * float(probability)
    return f"{value:.0f}%" if abs(value - round(value)) < 0.05 else f"{value:.1f}%"


def _natural(text: str) -> tuple[Any, ...]:
    """Sort key that puts roll:2 before roll:10."""
    head, _, tail = text.rpartition(":")
    return (head, int(tail)) if tail.isdigit() else (head, float("inf"), tail)


HELP_TEXT = """\
  NOTATION      play that action, as the game writes it (e.g. {example})
  SITE          the legal actions from that site and to it (e.g. {site})
  moves, ?      list the legal actions
  hint          what the computer would play here, and why
  undo          take back your last entry (and the replies to it)
  save [FILE]   save the record now; with FILE, record the game there from now on
  stacks        show or hide the list of stacks under the board
  board         draw the board again
  help          this text
  quit          stop; the game so far stays in the record (continue it with --resume)"""

CHANCE_HELP_TEXT = """\
  OUTCOME       the outcome you rolled or drew, as the game writes it ({example}),
                or just the part after the colon when that is unambiguous
  random        let the program draw the outcome
  moves, ?      list the outcomes and their probabilities
  undo, save [FILE], stacks, board, help, quit   as at a move"""


def help_text(game: Game, state: State, chance: bool) -> str:
    if chance:
        outcomes = [a.notation for a, _ in game.chance_outcomes(state)]
        return CHANCE_HELP_TEXT.format(example=min(outcomes, key=_natural) if outcomes else "roll:4")
    legal = game.legal_notations(state)
    example = legal[0] if legal else "a1-a2"
    site = next((a.from_site or a.to_site for a in game.legal_actions(state) if a.from_site or a.to_site), None)
    return HELP_TEXT.format(example=example, site=site or game.board.sites[0])
