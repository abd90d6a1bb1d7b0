"""`regelwerk view GAME RECORD` (and `replay --step`): step through a recorded game.

The positions are those of the record replayed (an illegal action stops it as
`replay` does); then review.py shows them one at a time, starting with the last.
"""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from .common import last_move, replay_record, use_color
from .prompt import LineInput
from .review import Review

if TYPE_CHECKING:
    from ..api import Game
    from ..runtime.state import State


def step_through(game: Game, record: Any) -> int:
    """Replay `record` and let the person step through its positions."""
    from .render_text import render_text, terminal_size

    states: list[State] = []
    movers: list[str] = []

    def keep(ply: int, state: State) -> None:
        if ply:
            movers.append(game.to_move(states[-1]) or "")
        states.append(state)

    replay_record(game, record, keep)
    notations = record.notations
    plain = not use_color(sys.stdout)
    width, height = terminal_size(sys.stdout)

    def draw(state: State, ply: int) -> None:
        last = last_move(game, states[:ply + 1])
        sys.stdout.write(render_text(game, state, plain=plain, last_action=last, width=width, height=height))

    reader = LineInput(sys.stdin, sys.stdout)
    Review(states, notations, movers, draw, reader.read, print).run()
    return 0
