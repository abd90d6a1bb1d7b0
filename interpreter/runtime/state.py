"""Positions: what the generated rules read and change.

Pieces and action codes are laid out in runtime/pieces.py.
"""
from __future__ import annotations

from typing import Optional

from .pieces import FIRST_ATTRIBUTE, KIND, NO_PLAYER, NO_SITE, OWNER, STONES  # noqa: F401 - re-exported


class State:
    """One position. Treat as a value: `Game.apply` returns a new one, and two
    states with the same content are equal (`==`) and hash alike."""

    __slots__ = (
        "board", "occ", "vars", "phase", "decision", "step", "player", "carry", "ply", "result",
        "next_player", "next_phase", "last", "legal", "ending", "turn_start", "history",
    )

    # board[site]: the piece tuple or None, plus a last entry that is always None (site -1)
    board: list
    # occ[owner]: the sites of its pieces (index -1, the last list: neutral pieces); kept
    # by every effect so that nothing has to scan the board for a player's pieces
    occ: list
    vars: list  # ints: variables, per-player variables and pools, flattened
    phase: int  # index of the current phase
    decision: int  # index of the decision (or chance event) to be taken now
    step: int  # position in the phase's turn sequence
    player: int  # whose turn it is (a chance event belongs to a player's turn)
    carry: int  # site of the piece a follow-up decision acts on, or -1
    ply: int  # actions applied so far
    result: Optional[tuple]  # None while the game goes on, else (winner index or -1, scores tuple)
    next_player: int  # set by `next turn`: who plays the next turn, or -1
    next_phase: int  # set by `start phase`: the phase of the next turn, or -1
    last: Optional[tuple]  # the action code that led here, or None
    legal: Optional[list]  # the legal action codes once the position is settled, else None
    ending: Optional[int]  # the ending (an index of the rules' endings) that ended the game, or None
    turn_start: bool  # a turn starts here and its `before each turn` has not run yet
    history: tuple  # hashes of the positions at the start of earlier turns (for `repetitions`)

    def _key(self) -> tuple:
        """What makes two positions the same: everything but the legal actions (a
        cache), the order of the per-owner site lists (derived from the board) and
        the last action."""
        return (
            tuple(self.board), tuple(self.vars), self.phase, self.decision, self.step, self.player,
            self.carry, self.ply, self.result, self.next_player, self.next_phase, self.history,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def copy(self) -> "State":
        new = State.__new__(State)
        new.board = self.board[:]
        new.occ = [sites[:] for sites in self.occ]
        new.vars = self.vars[:]
        new.phase = self.phase
        new.decision = self.decision
        new.step = self.step
        new.player = self.player
        new.carry = self.carry
        new.ply = self.ply
        new.result = self.result
        new.next_player = self.next_player
        new.next_phase = self.next_phase
        new.last = self.last
        new.legal = self.legal
        new.ending = self.ending
        new.turn_start = self.turn_start
        new.history = self.history
        return new
