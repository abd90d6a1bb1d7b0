"""Stepping through a game, position by position: `review` after a game ends,
and `regelwerk view GAME RECORD` (or `replay --step`) for a saved one.

    review ply 12 of 40> n          the next position (Enter does the same)
    review ply 13 of 40> p          the previous one
    review ply 12 of 40> 30         ply 30;  first, last: the ends
    review ply 30 of 40> q          leave
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

NEXT = ("", "n", "next", "+", "f", "forward")
PREVIOUS = ("p", "prev", "previous", "-", "b", "back")
FIRST = ("first", "start", "0")
LAST = ("last", "end")
LEAVE = ("q", "quit", "done", "exit", "leave")
WORDS = ("next", "prev", "first", "last", "quit", "help")

HELP = """\
  n, Enter    the next position        p     the previous one
  first       the start                last  the end
  NUMBER      the position after that many actions
  q           leave the review"""


class Review:
    """The positions of one game shown one at a time.

    `states[k]` is the position after k actions, `notations[k-1]` the action that
    led there and `movers[k-1]` who took it; `draw(state, last_notation)` draws a
    position; `read(prompt, candidates)` reads one entry (None at the end of input).
    """

    def __init__(self, states: Sequence[Any], notations: Sequence[str], movers: Sequence[str],
                 draw: Callable[[Any, int], None], read: Callable[..., Optional[str]],
                 say: Callable[[str], None]) -> None:
        self.states = states
        self.notations = notations
        self.movers = movers
        self.draw = draw
        self.read = read
        self.say = say
        self.last = len(states) - 1

    def run(self, start: Optional[int] = None) -> None:
        """Show positions until the person leaves (or the input ends)."""
        ply = self.last if start is None else max(0, min(start, self.last))
        self.show(ply)
        while True:
            text = self.read(f"review ply {ply} of {self.last}> ", list(WORDS))
            if text is None:
                return
            wanted = self.target(text.strip().lower(), ply)
            if wanted is None:
                return
            if wanted == ply:
                continue
            ply = wanted
            self.show(ply)

    def target(self, word: str, ply: int) -> Optional[int]:
        """The ply `word` asks for (the same one after a message), None to leave."""
        if word in LEAVE:
            return None
        if word in NEXT:
            return self._bounded(ply + 1, ply)
        if word in PREVIOUS:
            return self._bounded(ply - 1, ply)
        if word in FIRST:
            return 0
        if word in LAST:
            return self.last
        if word.isdigit():
            return self._bounded(int(word), ply)
        if word in ("help", "h", "?"):
            self.say(HELP)
        else:
            self.say(f"'{word}' means nothing here; n, p, first, last, a ply number or q (help: help)")
        return ply

    def _bounded(self, wanted: int, ply: int) -> int:
        if wanted < 0:
            self.say("this is the start of the game")
            return ply
        if wanted > self.last:
            self.say(f"this is the last position (ply {self.last})")
            return ply
        return wanted

    def show(self, ply: int) -> None:
        self.draw(self.states[ply], ply)
        if ply:
            self.say(f"ply {ply} of {self.last}: {self.movers[ply - 1]} played {self.notations[ply - 1]}")
        else:
            self.say(f"ply 0 of {self.last}: the start")
