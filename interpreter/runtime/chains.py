"""The groups of a board and their liberties, kept by the board's writes.

Where the rules ask whether a group (`group(X)`: the sites joined to X through
neighbours holding pieces of its owner) has an empty neighbour — liberties,
`exists(group(X), exists(neighbours(it), it is empty))` — the position keeps its
groups as records (`State.chains`, compilation/liberties.py), so that the question
is a lookup and not a search: each group's stones and its empty neighbours as
bitmasks of sites, under a head site that every stone of the group names.

The records are a cache of the board, exact where they are known: a site whose
`head` is -1 is empty or in a group not known yet, which is found by a search
(`liberties`) the first time it is asked about. The generated code tells the
records of every write at one site (`wrote`, compilation/board_keys.py): a piece
placed joins the known groups of its owner next to it and takes the site from the
other groups' liberties; a piece taken off (or one of another owner put in its
place) forgets its group — which may fall apart, and whose other stones a capture
usually takes next — and gives the site to the known groups next to it. Any other
change of the board forgets every record (`forget`).
"""
from __future__ import annotations

from typing import Optional, Sequence

from .pieces import OWNER, Board, Piece


class Chains:
    """The known groups of a board: per site the head of its group (-1: empty or
    unknown), per head the group's stones and empty neighbours (bitmasks by site)."""

    __slots__ = ("adjacent", "head", "stones", "libs")

    def __init__(self, adjacent: Sequence[Sequence[int]], size: int):
        # adjacent[site]: the site's neighbours (the table `group` and `neighbours` read)
        self.adjacent = adjacent
        # (one entry more: "no site", -1, whose head stays -1)
        self.head = [-1] * (size + 1)
        self.stones = [0] * (size + 1)
        self.libs = [0] * (size + 1)

    def copy(self) -> "Chains":
        new = Chains.__new__(Chains)
        new.adjacent = self.adjacent
        new.head = self.head[:]
        new.stones = self.stones[:]
        new.libs = self.libs[:]
        return new


def forget(chains: Chains) -> None:
    """After a change of the board the writes did not tell one site at a time."""
    chains.head = [-1] * len(chains.head)


def liberties(chains: Chains, board: Board, site: int) -> int:
    """The empty neighbours of the group on `site`, as a bitmask of sites (0 for
    an empty site or none)."""
    h = chains.head[site]
    if h >= 0:
        return chains.libs[h]
    if board[site] is None:
        return 0
    return _found(chains, board, site)


def _found(chains: Chains, board: Board, start: int) -> int:
    """The group on `start` searched and recorded under `start` (as `group` finds
    it); its liberties."""
    owner = board[start][OWNER]  # type: ignore[index]  # (occupied: see liberties)
    adjacent = chains.adjacent
    head = chains.head
    head[start] = start
    stones = 1 << start
    libs = 0
    found = [start]
    for site in found:  # (the loop goes on over the sites appended while it runs)
        for t in adjacent[site]:
            q = board[t]
            if q is None:
                libs |= 1 << t
            elif q[OWNER] == owner and head[t] != start:
                head[t] = start
                stones |= 1 << t
                found.append(t)
    chains.stones[start] = stones
    chains.libs[start] = libs
    return libs


def wrote(chains: Chains, board: Board, site: int, was: Optional[Piece]) -> None:
    """The board's `site` was written: it held `was`, it holds `board[site]` now."""
    now = board[site]
    if was is not None:
        if now is not None and now[OWNER] == was[OWNER]:
            return  # (the same owner: the groups are the same)
        _taken(chains, site, now is None)
        if now is None:
            return
    elif now is None:
        return
    # A piece placed: it joins the known groups of its owner next to it (the
    # largest keeps its head) and takes the site from the others' liberties.
    owner = now[OWNER]
    head = chains.head
    libs = chains.libs
    stones = chains.stones
    bit = 1 << site
    own_libs = 0
    joined: list[int] = []
    for t in chains.adjacent[site]:
        q = board[t]
        if q is None:
            own_libs |= 1 << t
            continue
        h = head[t]
        if q[OWNER] == owner:
            if h < 0:  # (a group not known: the new one is searched, the known ones joined too)
                _found(chains, board, site)
                _others_lose(chains, board, site, owner, bit)
                return
            if h not in joined:
                joined.append(h)
        elif h >= 0:
            libs[h] &= ~bit
    if not joined:
        head[site] = site
        stones[site] = bit
        libs[site] = own_libs
        return
    big = joined[0]
    if len(joined) > 1:
        for h in joined[1:]:
            if stones[h].bit_count() > stones[big].bit_count():
                big = h
        for h in joined:
            if h != big:
                m = stones[h]
                stones[big] |= m
                own_libs |= libs[h]
                while m:
                    low = m & -m
                    head[low.bit_length() - 1] = big
                    m ^= low
    head[site] = big
    stones[big] |= bit
    libs[big] = (libs[big] | own_libs) & ~bit


def _taken(chains: Chains, site: int, emptied: bool) -> None:
    head = chains.head
    h = head[site]
    if h >= 0:  # (the group may fall apart: forgotten, to be searched when asked about)
        m = chains.stones[h]
        while m:
            low = m & -m
            head[low.bit_length() - 1] = -1
            m ^= low
    if emptied:
        bit = 1 << site
        libs = chains.libs
        for t in chains.adjacent[site]:
            h = head[t]
            if h >= 0:
                libs[h] |= bit


def _others_lose(chains: Chains, board: Board, site: int, owner: int, bit: int) -> None:
    """The site taken from the liberties of the known groups of other owners next to it."""
    head = chains.head
    libs = chains.libs
    for t in chains.adjacent[site]:
        q = board[t]
        if q is not None and q[OWNER] != owner:
            h = head[t]
            if h >= 0:
                libs[h] &= ~bit
