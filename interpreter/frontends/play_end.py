"""The end of a game in `regelwerk play`: the result, the rule that ended it, and
what may follow — review the game, undo the last move and play on, a rematch
(same seats, or swapped), a new game, or quit.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Union

from .review import Review

if TYPE_CHECKING:
    from ..api import Game


WORDS = ("review", "undo", "rematch", "swap", "new", "board", "save", "help", "quit")
HELP = """\
  review        step through the game (n, p, first, last, a ply number; q to come back)
  undo          take back your last move (and the replies to it) and play on
  rematch       the same game again, everyone in the same seat
  swap          the same game again with the seats swapped (rotated by one)
  new [GAME]    a new game, of GAME (a game or GAME/VARIANT) or of this one
  board         draw the final position again
  save [FILE]   save the record (to FILE)
  quit          leave (end of input does the same)"""


@dataclass(frozen=True)
class NextGame:
    """A new game asked for at the end of one."""

    game: Optional[Game] = None  # a loaded Game; None: the same game, with the same options
    name: Optional[str] = None  # what the person typed for it
    rotate: bool = False  # the players move one seat on (two players: they swap)


def game_over(session: Any) -> Union[int, NextGame, None]:
    """Show the result and take commands: the exit status, a NextGame, or None when
    `undo` went back into the game."""
    for line in session.result_lines():
        session.say(line)
    session.say(f"the game is saved in {session.record_path}")
    if not session.reader.interactive and not any(session.asks(p) for p in session.seats):
        return 0  # programs only, no keyboard: nobody to ask
    if session.reader.interactive:
        session.say("next: review, undo, rematch, swap, new [GAME] or quit ('help' explains)")
    while True:
        text = session.reader.read("game over> ", list(WORDS), split=False)
        if text is None:
            return 0
        word, _, rest = text.strip().partition(" ")
        answer = _command(session, word.lower(), rest.strip(), text)
        if answer is not _AGAIN:
            chosen: Union[int, NextGame, None] = answer
            return chosen


_AGAIN = object()


def _command(session: Any, word: str, rest: str, text: str) -> Any:
    if word in ("quit", "q", "exit"):
        return 0
    if word in ("rematch", "again"):
        return NextGame()
    if word in ("swap", "switch"):
        return NextGame(rotate=True)
    if word == "new":
        return new_game(session, rest) if rest else NextGame()
    if word in ("undo", "u"):
        return None if session.undo() else _AGAIN
    if word in ("review", "r"):
        review(session)
    elif word in ("board", "b"):
        session.draw()
    elif word == "save":
        session.save_as(rest)
    elif word in ("help", "h", "?"):
        session.say(HELP)
    elif text.strip():
        session.refuse(f"the game is over; '{text.strip()}' is not a command here "
                       "(review, undo, rematch, swap, new, quit)")
    return _AGAIN


def new_game(session: Any, name: str) -> Any:
    """NextGame for `new GAME`, or (after saying why not) _AGAIN."""
    from ..api import DefinitionError, load_game
    from .names import UnknownVariant, resolve_game

    try:
        return NextGame(game=load_game(resolve_game(name)), name=name)
    except (DefinitionError, UnknownVariant) as exc:
        session.say(f"cannot start {name}: {str(exc).splitlines()[0]}")
        return _AGAIN


def review(session: Any) -> None:
    """Step through the game just played, from its last position."""
    def read(prompt: str, candidates: list[Any]) -> Optional[str]:
        text: Optional[str] = session.reader.read(prompt, candidates, split=False)
        return text

    Review(session.states, session.notations, session.movers, session.draw, read, session.say).run()
