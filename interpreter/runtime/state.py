"""Positions and the scratch frame that compiled rules read and write.

A piece is a tuple `(owner, kind, stones, attr0, attr1, ...)`: owner is a player
index or -1 for a neutral piece, kind a kind index, stones the colours of a stack
(bottom first) or None in games without stacks. Pieces are never mutated: a
change builds a new tuple, so positions can share them freely.
"""
from __future__ import annotations

OWNER = 0
KIND = 1
STONES = 2
FIRST_ATTRIBUTE = 3

NO_SITE = -1
NO_PLAYER = -1


def put(s: "State", site: int, piece: tuple) -> None:
    """Place `piece` on an empty `site`, keeping the owner's site list."""
    s.board[site] = piece
    s.occ[piece[OWNER]].append(site)


def clear(s: "State", site: int) -> None:
    """Take whatever stands on `site` off the board."""
    piece = s.board[site]
    if piece is not None:
        s.board[site] = None
        s.occ[piece[OWNER]].remove(site)


def replace(s: "State", site: int, piece: tuple) -> None:
    """Put `piece` on `site` in place of what stands there (possibly of another owner)."""
    old = s.board[site]
    s.board[site] = piece
    if old is None:
        s.occ[piece[OWNER]].append(site)
    elif old[OWNER] != piece[OWNER]:
        s.occ[old[OWNER]].remove(site)
        s.occ[piece[OWNER]].append(site)


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
        new.legal = None
        new.ending = self.ending
        return new


class Frame:
    """Scratch registers for one evaluation of compiled rules.

    Compiled closures take a frame and read the names of the rules language from
    its slots, so that no dictionary lookup happens on the hot path.
    """

    __slots__ = (
        "s",  # the State being read or changed
        "b",  # s.board
        "o",  # s.occ
        "v",  # s.vars
        "p",  # the player deciding (index)
        "pc",  # the acting piece (tuple), kept up to date by effects
        "at",  # where the acting piece is now (site, -1 when gone)
        "frm",  # the site the action started from
        "to",  # the landing / chosen site, -1 for off-board
        "tg",  # the piece that stood on `to` before the action (or None)
        "js",  # the jumped-over site, -1 if none
        "jp",  # the jumped-over piece before the action (or None)
        "site",  # the site a `forbid` condition is asked about
        "out",  # the chance outcome value
        "loc",  # slots of `let`, `for each` and `it`
        "followup",  # decision index requested by `then`, or -1
    )

    def __init__(self, local_slots: int = 0):
        self.s = None
        self.b = None
        self.o = None
        self.v = None
        self.p = -1
        self.pc = None
        self.at = -1
        self.frm = -1
        self.to = -1
        self.tg = None
        self.js = -1
        self.jp = None
        self.site = -1
        self.out = None
        self.loc = [None] * local_slots
        self.followup = -1

    def bind(self, state: State) -> "Frame":
        self.s = state
        self.b = state.board
        self.o = state.occ
        self.v = state.vars
        self.p = state.player
        return self
