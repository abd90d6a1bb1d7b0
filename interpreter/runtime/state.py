"""Positions: what the generated rules read and change.

Pieces and action codes are laid out in runtime/pieces.py.
"""
from __future__ import annotations

from .pieces import FIRST_ATTRIBUTE, KIND, NO_PLAYER, NO_SITE, OWNER, STONES  # noqa: F401 - re-exported


class State:
    """One position. Treat as a value: `Game.apply` returns a new one."""

    __slots__ = (
        "board",  # list: site index -> piece tuple or None, plus a last entry that is always None (site -1)
        # per owner, the sites of its pieces (index -1, the last list: neutral pieces);
        # kept by every effect so that nothing has to scan the board for a player's pieces
        "occ",
        "vars",  # list of ints: variables, per-player variables and pools, flattened
        "phase",  # index of the current phase
        "decision",  # index of the decision (or chance event) to be taken now
        "step",  # position in the phase's turn sequence
        "player",  # whose turn it is (a chance event belongs to a player's turn)
        "carry",  # site of the piece a follow-up decision acts on, or -1
        "ply",  # actions applied so far
        "result",  # None while the game goes on, else (winner index or -1, scores tuple)
        "next_player",  # set by `next turn`: who plays the next turn, or -1
        "next_phase",  # set by `start phase`: the phase of the next turn, or -1
        "last",  # the action code that led here, or None
        "legal",  # cached legal action codes, or None
        "ending",  # (how, source position) of the rule that ended the game, or None
    )

    def _key(self) -> tuple:
        """What makes two positions the same: everything but caches, the order of
        the per-owner site lists (derived from the board) and the last action."""
        return (
            tuple(self.board), tuple(self.vars), self.phase, self.decision, self.step, self.player,
            self.carry, self.ply, self.result, self.next_player, self.next_phase,
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
        return new
