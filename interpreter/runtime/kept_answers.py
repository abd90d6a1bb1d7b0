"""The listed position's answer of a `forbid result` part kept across listings.

A listing asks each part its checks reuse once, on the listed position
(helpers.parent_answer and its kin: the answer, the sites read, the point
tests asked — compilation/result_reuse.py). The positions listed one after the
other are often alike: the children of one position, each counted at perft's
last ply, differ from one another by one move of the side that is not to move,
and a part about the mover's king reads nothing that move wrote. So the last
entry made by each recording for each player is kept with the board it was made
on, and given again to a listing of a board that differs from that one only at
sites the entry neither read nor point-tested nor holds an anchor at (a piece
one of the part's loops over a site list would visit, before or now: the
anchor function the check's `h_answer_kept` is given).

Only the calls given the anchor argument keep (compilation/result_reuse.py,
`Plan.kept_argument`): not a part reading a variable, nor one whose search
keeps its path (that path is kept across listings already, and reading it
costs less than comparing the boards).

Why that is exact: a recording reads the position only through the board, the
site lists of its anchors' loops and the players (result_reuse._reads_allowed).
Where the boards are the same at every site it read, every point test it asked
of a site gives there what it gave, and the anchors are the same pieces at the
same sites, the recording asked on the new board takes the path it took and
gives the same entry — the order of a site list aside, which the answer does
not depend on (a loop visits the anchors, each read: the same set). The sites
read, tested or holding an anchor then are compared in one step, as tuples of
their pieces (`==`: a piece is a value, never changed in place — two equal
pieces give every read the same, as two states with the same content are
equal); an anchor now stands at one of the sites of its loop's player (the
anchor function asks the piece's owner first), so the sites of those lists
alone (`lists`: Plan.anchor_lists) are asked where their piece is not the one
that stood there — and not even those where a list holds the sites and pieces it
held when last looked at (kept with the entry, and again after each look finding
no anchor: the same pieces at the same sites give the anchor function the same).

Where the anchors are of a kind no player has two of (`lone`: each loop's test
asks first for such a kind — compilation/lone_pieces.lone_anchors), a list on
which the entry's recording found its one anchor is not looked at again: that
anchor's site is compared (its piece the same: still there), and no other
piece of the list's player is of its kind. A list on which none was found is
looked at as before (the kind may stand there in another position of the
game: one of another game started since, say).
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable, Optional, Sequence

# The anchor argument of a call whose entry is not kept (a part reading variables).
NOT_KEPT: Any = object()
# The site lists the part's loops walk, as the call names them after its anchor
# function (compilation/result_reuse.Plan.anchor_lists): the player's, the
# opponent's, else a player's number.
MINE = -1
THEIRS = -2
# By (recording, player): (the board the entry was made on, a copy; the entry; what
# gives the pieces at the sites compared; those pieces; the sites compared: those it
# read, point-tested or left unsettled, and those holding an anchor; by site list the
# anchors are looked for on, its sites then, a copy, what gives their pieces and those —
# or None where no list is looked at again: each held its one lone anchor).
_KEPT: dict[tuple[Callable[..., Any], int],
            tuple[list[Any], tuple[Any, ...], Callable[[Any], Any], Any, int,
                  Optional[list[tuple[list[int], Callable[[Any], Any], Any]]]]] = {}
# (bounded: emptied when full — a process may compile many games)
KEPT_MAX = 64


def _nothing(board: Any) -> tuple[()]:
    return ()


def _lists(s: Any, lists: Sequence[int]) -> list[list[int]]:
    """The site lists `lists` names (MINE, THEIRS, a player's number) of `s`."""
    p = s.player
    return [s.occ[p if code == MINE else 1 - p if code == THEIRS else code] for code in lists]


def kept_entry(record: Callable[..., Any], s: Any,
               anchor: Optional[Callable[..., Any]], lists: Sequence[int] = ()) -> Optional[tuple[Any, ...]]:
    """The entry `record` made last for the player to move of `s`, where the
    board it was made on differs from `s`'s only at sites it did not read or
    point-test, holding no anchor there before or now; else None. The sites
    compared (those, and those that held an anchor) in one step; the anchors
    now looked for on the sites of `lists` alone (an anchor is a piece of
    the player whose list the loop walks: result_reuse.Plan.anchor)."""
    p = s.player
    last = _KEPT.get((record, p))
    if last is None:
        return None
    then, entry, pieces, were, compared, listed = last
    board = s.board
    if len(board) != len(then) or pieces(board) != were:
        return None
    if anchor is not None:
        if not lists:
            return None  # (an anchor with no list to look for it on: nothing is known)
        if listed is None:
            return entry  # (each list's one anchor, of a lone kind, at a site compared: no other)
        q = 1 - p
        occ = s.occ
        for i, code in enumerate(lists):  # (as `_lists` names them)
            sites = occ[p if code == MINE else q if code == THEIRS else code]
            sites_then, on, held = listed[i]
            if sites == sites_then and on(board) == held:
                continue  # (the same sites, holding the same pieces as when last looked at: no anchor)
            for site in sites:
                if (piece := board[site]) is not then[site] and not compared >> site & 1 \
                        and anchor(site, piece, p, q):
                    return None
            # (none is: the next listing with these sites and pieces needs not look)
            on = itemgetter(*sites) if sites else _nothing
            listed[i] = (sites[:], on, on(board))
    return entry


def keep_entry(record: Callable[..., Any], s: Any, entry: tuple[Any, ...],
               anchor: Optional[Callable[..., Any]] = None, lists: Sequence[int] = (),
               lone: bool = False) -> None:
    """Keep `entry`, just made by `record` on `s` (the part's `anchor` and
    `lists` as `kept_entry` is given them), for the listings after it. With
    `lone` (the anchors are of a kind no player has two of), where each list
    holds one anchor, the lists are not looked at again (the module's
    docstring)."""
    if len(_KEPT) >= KEPT_MAX:
        _KEPT.clear()
    board = s.board
    p = s.player
    q = 1 - p
    compared = entry[1] | entry[2] | entry[4]
    listed: Optional[list[tuple[list[int], Callable[[Any], Any], Any]]] = []
    if anchor is not None:
        each_one = lone  # (whether every list held exactly one anchor)
        for sites in _lists(s, lists):
            found = 0
            for site in sites:
                if anchor(site, board[site], p, q):
                    compared |= 1 << site
                    found += 1
            each_one = each_one and found == 1
            on: Callable[[Any], Any] = itemgetter(*sites) if sites else _nothing
            listed.append((sites[:], on, on(board)))  # type: ignore[union-attr]  # (a list until here)
        if each_one:
            listed = None
    # (by mask, `pieces_at`'s: the listings of a subtree keep entries that read the same sites, and a
    # walk over every site, shifting a number of more bits than a machine word, cost ~10 µs)
    on_board = compared & (1 << len(board)) - 1
    pieces = pieces_at(on_board) if on_board else _nothing
    _KEPT[record, p] = (board[:], entry, pieces, pieces(board), compared, listed)


# (the answers a KeptByMove keeps for a player: bounded, emptied when full)
MOVES_KEPT = 1 << 15
# (the answers a KeptByMove keeps for one code: those of the boards about the king it last met)
ANSWERS_KEPT = 4
# By the sites' bits a noting check gave: what gives the pieces at those sites (bounded, emptied when full)
_GETTERS: dict[int, Callable[[Any], Any]] = {}
GETTERS_KEPT = 4096


def pieces_at(sites: int) -> Callable[[Any], Any]:
    """What gives a board's pieces at `sites` (a bitmask, not 0): kept by mask
    — a king's test from one landing reads the same sites while the lines
    about it are blocked alike."""
    getter = _GETTERS.get(sites)
    if getter is None:
        if len(_GETTERS) >= GETTERS_KEPT:
            _GETTERS.clear()
        at = []
        rest = sites
        while rest:
            low = rest & -rest
            rest ^= low
            at.append(low.bit_length() - 1)
        getter = _GETTERS[sites] = itemgetter(*at)
    return getter


class KeptByMove:
    """A move's `forbid result` check whose answer, where the mover is the
    player's piece of the lone kind `kind`, follows from the action's code,
    the player and the pieces at the sites the check reads (compilation/
    lone_pieces.read_through_board: its parts' loops go over the mover's site
    alone, the board is read by subscripts alone, variables only set): that
    answer is kept by code with a getter over those sites and their pieces,
    and given again while they hold the same. The other kept answers are the
    listed position's; this one is a candidate's, asked again listing after
    listing (a king's steps, each a whole attack test from its landing, while
    the pieces about it stay). ANSWERS_KEPT answers are kept a code, the
    last met asked first: an opponent's move onto or off a site the king's
    test reads makes one listing miss, and its siblings, listing the boards
    about the king met before (perft's next subtree: the opponent's same
    moves after another move of the player's), would miss again. Only a
    listing's (given its memo): a playout
    asks the check of the action it picks, seldom of a position that comes
    back. On a miss the check is asked as `noting`
    (lone_pieces.noting_reads: the same code, memo None — its own reads, not a
    kept entry's —, giving also the bits of the sites it read: the origin among
    them, read first); -1 for the sites where it read a site list (a move of
    two pieces whose parts' loops did not find the mover: lone_pieces.
    mover_list_kept), whose answer is not kept."""
    __slots__ = ("check", "kind", "noting", "kept")

    def __init__(self, check: Callable[..., Any], kind: int, noting: Callable[..., tuple[Any, int]]) -> None:
        self.check = check
        self.kind = kind
        self.noting = noting
        # by player, by code: (what gives the pieces at the sites read, those, the answer), the last
        # given first (ANSWERS_KEPT a code)
        self.kept: dict[int, dict[Any, list[tuple[Callable[[Any], Any], Any, Any]]]] = {}

    @property
    def __name__(self) -> str:
        """The check's name (tools find its generated function by it)."""
        return self.check.__name__

    def __call__(self, s: Any, code: Any, memo: Any = None) -> Any:
        if memo is None:  # (not a listing's: a playout's pick, whose positions seldom come back — a miss
            return self.check(s, code)  # costs about two checks)
        board = s.board
        p = s.player
        # (the mover is asked of a code kept for none: a kept answer's sites hold the origin, whose
        # piece, the same as when noted, was the player's of the lone kind)
        kept = self.kept.get(p)
        known = kept.get(code) if kept is not None else None
        if known is not None:
            last = known[0]
            getter = last[0]
            pieces = getter(board)
            if pieces == last[1]:
                return last[2]
            for i in range(1, len(known)):
                entry = known[i]
                # (answers kept with the same sites share their getter, `pieces_at`'s: asked once)
                if entry[0] is not getter:
                    getter = entry[0]
                    pieces = getter(board)
                if pieces == entry[1]:
                    # (asked first from now on: the listings about this board are the next ones)
                    del known[i]
                    known.insert(0, entry)
                    return entry[2]
        mover = board[code[1]]
        if mover is None or mover[0] != p or mover[1] != self.kind:
            return self.check(s, code, memo)
        answer, sites = self.noting(s, code)
        if sites < 0:  # (read through a site list: lone_pieces.noting_reads' `guarded`)
            return answer
        if kept is None:
            kept = self.kept[p] = {}
        if known is None:
            if len(kept) >= MOVES_KEPT:
                kept.clear()
            known = kept[code] = []
        pieces = pieces_at(sites | 1 << code[1])  # (the origin among them whatever the check read)
        known.insert(0, (pieces, pieces(board), answer))
        del known[ANSWERS_KEPT:]
        return answer


def answer_for_opponent(s: Any, opponent: int, find: Callable[..., Optional[tuple[Any, ...]]],
                        record: Callable[..., Any], *kept: Any) -> Any:
    """The answer of a `forbid result` part on `s` for `opponent` to move (the
    opponent of the player whose turn ends, in a game of two players), or None
    where it cannot be found (the part fails there): what the `after each turn`
    test that is the part with the players' roles swapped gives
    (compilation/result_reuse.asks_swapped) — the next listing's question, on
    the same board. `find` (the part's helper finding a listed position's
    answer) is asked with the player to move set to `opponent` and put back
    after, so that the entry is the one kept for the opponent's next listing
    (and found kept where the board differs from the last one only where the
    part did not look)."""
    player = s.player
    s.player = opponent
    try:
        entry = find({}, 0, record, s, *kept)
    finally:
        s.player = player
    return None if entry is None else entry[0]
