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
not depend on (a loop visits the anchors, each read: the same set). Pieces are
never changed in place (a write puts another), so two boards are compared by
identity, site by site; a piece equal but not the same counts as a difference
(the entry is made again).
"""
from __future__ import annotations

from itertools import compress
from operator import is_not
from typing import Any, Callable, Optional

# The anchor argument of a call whose entry is not kept (a part reading variables).
NOT_KEPT: Any = object()
# By (recording, player): (the board the entry was made on, a copy; the entry; the sites
# it read or point-tested).
_KEPT: dict[tuple[Callable[..., Any], int], tuple[list[Any], tuple[Any, ...], int]] = {}
# (bounded: emptied when full — a process may compile many games)
KEPT_MAX = 64
# the sites compared (a larger board — a graph can have more — keeps no entry)
_SITES = range(1 << 16)


def kept_entry(record: Callable[..., Any], s: Any,
               anchor: Optional[Callable[..., Any]]) -> Optional[tuple[Any, ...]]:
    """The entry `record` made last for the player to move of `s`, where the
    board it was made on differs from `s`'s only at sites it did not read or
    point-test, holding no anchor there before or now; else None."""
    last = _KEPT.get((record, s.player))
    if last is None:
        return None
    then, entry, needed = last
    board = s.board
    if len(board) != len(then) or len(board) > len(_SITES):
        return None
    p = s.player
    q = 1 - p
    for site in compress(_SITES, map(is_not, board, then)):
        if needed >> site & 1 or anchor is not None and (
                (piece := board[site]) is not None and anchor(site, piece, p, q)
                or (piece := then[site]) is not None and anchor(site, piece, p, q)):
            return None
    return entry


def keep_entry(record: Callable[..., Any], s: Any, entry: tuple[Any, ...]) -> None:
    """Keep `entry`, just made by `record` on `s`, for the listings after it."""
    if len(_KEPT) >= KEPT_MAX:
        _KEPT.clear()
    _KEPT[record, s.player] = (s.board[:], entry, entry[1] | entry[2] | entry[4])
