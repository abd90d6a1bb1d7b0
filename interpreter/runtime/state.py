"""Positions: what the generated rules read and change.

Pieces and action codes are laid out in runtime/pieces.py.
"""
from __future__ import annotations

import sys
from typing import Iterable, Optional, Sequence, SupportsIndex

from .pieces import Board, Code, Outcome

# (the list's own methods, read once: on Python 3.11 `list.append` looks the
# method up on the type at every call of the kept lists' hot `append`/`remove`)
_list_append = list.append
_list_remove = list.remove
_list_delete = list.__delitem__
_list_index = list.index
_list_copy = list.copy
_new_object = object.__new__


# A list of this many sites or more keeps them as a string (MaskedSites.chars) once a
# site is taken from it; below, the list's own comparisons cost less than keeping the
# string (callgrind: ~135 instructions a site compared, ~5,000 a removal by the string).
LONG_LIST = 48


class MaskedSites(list[int]):
    """A list of distinct sites that also keeps their bitmask (bit `site` set for
    each), once someone has computed it: the neutral pieces' sites, whose mask
    tells the walks what blocks them. The neutral pieces seldom move, so the mask
    is kept with the position instead of being made again for each listing.

    `mask` is None until set; `append` and `remove` keep it right, every other
    change forgets it.

    `chars`, None until a site is taken from a list of LONG_LIST sites or more, is
    then the list as a string, `chr(site)` for each site in its order, kept by
    `append` and `remove` (every other change forgets it): `remove` finds a site's
    place with `str.find` (a search of machine words) where `list.remove` would
    compare it with each site before it as Python numbers — 1–3 µs a card taken from
    a list of a hundred neutral cards, where the pieces that move are mostly the last
    ones moved, at its end. A string is never changed in place, so the copies of a
    position share it as it is."""

    __slots__ = ("mask", "chars")
    mask: Optional[int]
    chars: Optional[str]
    # (no __init__: positions are copied often, and list's own is faster; whoever
    # makes one sets `mask` and `chars`, see `masked` and `State.copy`)

    def copy(self) -> "MaskedSites":
        new = MaskedSites(self)
        new.mask = self.mask
        new.chars = self.chars
        return new

    def append(self, site: int) -> None:
        _list_append(self, site)
        chars = self.chars
        if chars is not None:
            self.chars = chars + chr(site)
        mask = self.mask
        if mask is not None:
            self.mask = mask | 1 << site

    def remove(self, site: int) -> None:
        chars = self.chars
        if chars is None:
            if len(self) < LONG_LIST:
                _list_remove(self, site)
                mask = self.mask
                if mask is not None:
                    self.mask = mask & ~(1 << site)
                return
            chars = sites_chars(self)
        char = chr(site)
        at = chars.find(char)
        if at < 0:  # (not there: list's own error)
            _list_remove(self, site)
            self._changed()
            return
        _list_delete(self, at)
        self.chars = chars.replace(char, "", 1)
        mask = self.mask
        if mask is not None:
            self.mask = mask & ~(1 << site)

    def index(self, site: int, start: SupportsIndex = 0, stop: SupportsIndex = sys.maxsize) -> int:
        chars = self.chars
        if chars is not None:
            at = chars.find(chr(site), start, stop)
            if at >= 0:
                return at
        return _list_index(self, site, start, stop)  # (not there: list's own error)

    def _changed(self) -> None:
        """After a change other than `append` and `remove` (seldom made): the mask
        and the string are made again when next asked."""
        self.mask = None
        self.chars = None

    def insert(self, index: SupportsIndex, site: int) -> None:
        list.insert(self, index, site)
        self._changed()

    def extend(self, sites: Iterable[int]) -> None:
        list.extend(self, sites)
        self._changed()

    def pop(self, index: SupportsIndex = -1) -> int:
        site = list.pop(self, index)
        self._changed()
        return site

    def clear(self) -> None:
        list.clear(self)
        self._changed()

    def sort(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        list.sort(self, *args, **kwargs)
        self.chars = None

    def reverse(self) -> None:
        list.reverse(self)
        self.chars = None

    def __setitem__(self, index, value) -> None:  # type: ignore[no-untyped-def]
        list.__setitem__(self, index, value)
        self._changed()

    def __delitem__(self, index) -> None:  # type: ignore[no-untyped-def]
        list.__delitem__(self, index)
        self._changed()

    def __iadd__(self, sites: Iterable[int]) -> "MaskedSites":  # type: ignore[override, misc]
        self.extend(sites)
        return self

    def __imul__(self, times: SupportsIndex) -> "MaskedSites":
        list.__imul__(self, times)
        self._changed()
        return self


def sites_chars(sites: Iterable[int]) -> str:
    """`MaskedSites.chars` of a list of sites."""
    return "".join(map(chr, sites))


def masked(sites: Iterable[int] = ()) -> MaskedSites:
    """A MaskedSites holding `sites`, its mask and string not made yet."""
    new = MaskedSites(sites)
    new.mask = None
    new.chars = None
    return new


def empty_occupancy(players: int, masked_players: bool = False) -> list[list[int]]:
    """`State.occ` of an empty board: a list of sites per player, then the neutral
    pieces' (a `MaskedSites`). With `masked_players` the players' lists are
    `MaskedSites` too: where the rules' conditions read the masks of owners
    (compilation/prefilters.py), they are kept with the position instead of being
    made again for each listing."""
    if masked_players:
        return [masked() for _ in range(players + 1)]
    return [[] for _ in range(players)] + [masked()]


class State:
    """One position. Treat as a value: `Game.apply` returns a new one, and two
    states with the same content are equal (`==`) and hash alike."""

    __slots__ = (
        "board", "occ", "vars", "phase", "decision", "step", "player", "carry", "ply", "result",
        "next_player", "next_phase", "last", "legal", "ending", "turn_start", "history", "history_shared",
        "boards", "board_firsts", "boards_shared", "board_counted", "board_key",
        "empty", "chains",
    )

    # board[site]: the piece tuple or None, plus a last entry that is always None (site -1)
    board: Board
    # occ[owner]: the sites of its pieces (index -1, the last list: neutral pieces, a
    # MaskedSites); kept by every effect so that nothing has to scan the board for a
    # player's pieces
    occ: list[list[int]]
    vars: list[int]  # ints: variables, per-player variables and pools, flattened
    phase: int  # index of the current phase
    decision: int  # index of the decision (or chance event) to be taken now
    step: int  # position in the phase's turn sequence
    player: int  # whose turn it is (a chance event belongs to a player's turn)
    carry: int  # site of the piece a follow-up decision acts on, or -1
    ply: int  # actions applied so far
    result: Optional[Outcome]  # None while the game goes on, else (winner code: index, -1 or a team's below -1; scores)
    next_player: int  # set by `next turn`: who plays the next turn, or -1
    next_phase: int  # set by `start phase`: the phase of the next turn, or -1
    last: Optional[Code]  # the action code that led here, or None
    # the legal action codes once the position is settled (a chance event's: the
    # event's tuple of outcome codes), else None
    legal: Optional[Sequence[Code]]
    ending: Optional[int]  # the ending (an index of the rules' endings) that ended the game, or None
    turn_start: bool  # a turn starts here and its `before each turn` has not run yet
    # how often each position occurred at the start of a turn (by its key's hash), for
    # `repetitions`; shared between copies until one of them changes it
    history: dict[int, int]
    history_shared: bool
    # how often each board alone occurred at the start of a turn, for `board
    # repetitions`: by its key (`board_key`), or by the board itself (a tuple) for a
    # board whose key an other board had first — `board_firsts` holds the first board
    # counted under each key, so that no two boards are ever counted as one. Both
    # shared like `history`. `board_counted`: how often the board of the turn
    # starting here has started a turn, once it is counted (it is counted before
    # the turn's actions are listed, since `forbid result` may read it), until the
    # turn's `before each turn` has run; else 0
    boards: dict[object, int]
    board_firsts: dict[int, Board]
    boards_shared: bool
    board_counted: int
    # where boards or positions are counted (`board repetitions`, `repetitions`), the
    # key of the board as it stands (helpers.board_key),
    # kept by every write of the generated code (compilation/board_keys.py); else 0
    board_key: int
    # where a playout draws drops from them (compilation/draws.py), the sites holding
    # nothing, in no particular order, kept by every write of the generated code
    # like the key; else None
    empty: Optional[list[int]]
    # where the rules ask whether groups have liberties, the groups known and their
    # liberties (runtime/chains.py), kept by every write like the key; None: none
    # known (as in every other game)
    chains: Optional[list[int]]

    def _key(self) -> tuple[object, ...]:
        """What makes two positions the same: everything but the legal actions (a
        cache), the order of the per-owner site lists (derived from the board) and
        the last action."""
        return (
            tuple(self.board), tuple(self.vars), self.phase, self.decision, self.step, self.player,
            self.carry, self.ply, self.result, self.next_player, self.next_phase,
            tuple(sorted(self.history.items())), frozenset(self.boards.items()),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def copy(self, trial: bool = False) -> "State":
        """An independent copy (the position's lists copied; the history is shared
        until one of the two counts a position). A `trial` copy, to try an action on
        and drop before this position changes again (a `forbid result` check),
        leaves this position free to count in its history without copying it."""
        new = _new_object(State)
        new.board = self.board[:]
        occ = self.occ
        # (MaskedSites.copy, written out: a method call would cost a third of the copy;
        # the players' lists by their number, as a list comprehension would cost a fifth
        # of the copy, and a position may be copied a million times in a perft)
        neutral = occ[-1]
        copied = MaskedSites(neutral)
        copied.mask = neutral.mask  # type: ignore[attr-defined]  # (the last list is a MaskedSites)
        copied.chars = neutral.chars  # type: ignore[attr-defined]
        lists = len(occ)
        if lists == 3 and type(occ[0]) is not MaskedSites:  # (two players, the usual)
            new.occ = [occ[0][:], occ[1][:], copied]
        elif type(occ[0]) is MaskedSites and lists > 1:  # (the players' lists keep masks too)
            new.occ = []
            for sites in occ[:-1]:
                kept = MaskedSites(sites)
                kept.mask = sites.mask  # type: ignore[attr-defined]
                kept.chars = sites.chars  # type: ignore[attr-defined]
                new.occ.append(kept)
            new.occ.append(copied)
        elif lists == 2:  # (one player)
            new.occ = [occ[0][:], copied]
        elif lists == 4:  # (three players)
            new.occ = [occ[0][:], occ[1][:], occ[2][:], copied]
        else:
            new.occ = [*map(_list_copy, occ[:-1]), copied]
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
        new.history_shared = True
        new.boards = self.boards
        new.board_firsts = self.board_firsts
        new.boards_shared = True
        new.board_counted = self.board_counted
        new.board_key = self.board_key
        empty = self.empty
        new.empty = empty[:] if empty is not None else None
        # (runtime/chains.py: the groups known here stay known in the copy, which the
        # writes keep from here on; searching them again at each child cost perft of a
        # full board a third of its time, copying 3N+3 entries a fraction of a copy)
        chains = self.chains
        new.chains = chains[:] if chains is not None else None
        if not trial:
            self.history_shared = True
            self.boards_shared = True
        return new

    def count_position(self, key: int) -> int:
        """Count one more occurrence of the position with this key; how often now."""
        if self.history_shared:
            self.history = dict(self.history)
            self.history_shared = False
        n = self.history.get(key, 0) + 1
        self.history[key] = n
        return n

    def _board_entry(self) -> object:
        """The entry of `boards` that counts the board as it stands: its key, unless
        an other board was counted first under that key (then the board itself)."""
        key = self.board_key
        first = self.board_firsts.get(key)
        if first is None or first == self.board:
            return key
        return tuple(self.board)

    def board_count(self) -> int:
        """How many turns so far started with the board as it stands."""
        return self.boards.get(self._board_entry(), 0)

    def count_board(self) -> None:
        """Count one more turn started with the board as it stands (`board repetitions`)."""
        if self.boards_shared:
            self.boards = dict(self.boards)
            self.board_firsts = dict(self.board_firsts)
            self.boards_shared = False
        key = self.board_key
        first = self.board_firsts.get(key)
        if first is None:  # (a board never counted: the first under its key)
            self.board_firsts[key] = self.board[:]
            self.board_counted = self.boards[key] = 1
            return
        entry = key if first == self.board else tuple(self.board)
        n = self.board_counted = self.boards.get(entry, 0) + 1
        self.boards[entry] = n


def position_marks(s: State) -> tuple[object, ...]:
    """What the listing of a position's actions reads and `before each turn` may
    change: the board (its pieces are never changed in place, so a copy of the
    list compares by identity at C speed), the variables and pools, and the turn's
    fields. Equal marks before and after the block mean the actions listed before
    it still hold — a write that did not run, or one that put back what stood
    there, lists nothing again (the site lists, the key and the chains follow the
    board)."""
    return (s.board[:], s.vars[:], s.phase, s.decision, s.step, s.player, s.carry, s.next_player, s.next_phase)


def variable_marks(s: State) -> object:
    """`position_marks` where all a `before each turn` may write is variables."""
    return s.vars[:]
