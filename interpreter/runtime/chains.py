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
records of every write at one site (`wrote`, compilation/board_keys.py; `wrote_stones`
where the rules never ask liberties): a piece
placed joins the known groups of its owner next to it and takes the site from the
other groups' liberties; a piece taken off (or one of another owner put in its
place) forgets its group — which may fall apart, and whose other stones a capture
usually takes next — and gives the site to the known groups next to it. Any other
change of the board forgets every record (`forget`).

The records are one flat list (`State.chains`): for N entries of the board (its
sites and "no site", -1), `chains[site]` is the head of the site's group (-1:
empty or unknown), `chains[N + head]` the group's stones and `chains[2 * N +
head]` its liberties. None stands for no group known: a new position starts so,
the writes leave it so, and the first question makes the list. A copy (perft's
and a search's children, `Game.apply`) takes the records of the position it
copies, which its writes keep from there: its listing asks about the groups its
parent's listing found (searching them again in each child was a third of perft
on a full board). A playout played in place keeps its records from one ply to
the next. The neighbours' table is the generated code's constant, given to each
call.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from .pieces import OWNER, Board, Piece

if TYPE_CHECKING:
    from .state import State

# The records of a board's groups (see above).
Chains = list[int]
Adjacent = Sequence[Sequence[int]]


def forget(s: State) -> None:
    """After a change of the board the writes did not tell one site at a time."""
    s.chains = None


# Each site's bit (`1 << site`) and what stays of a mask the site leaves (`~bit`),
# by site, for every board whose records were made (`records`): the upkeep reads
# them from these tables instead of making them (a shift past the small integers
# makes a new integer at each call).
_BITS: list[int] = []
_OTHERS: list[int] = []


def records(n: int) -> Chains:
    """The records of a board of `n` entries where no group is known yet."""
    if len(_BITS) < n:
        _BITS.extend(1 << site for site in range(len(_BITS), n))
        _OTHERS.extend(~bit for bit in _BITS[len(_OTHERS):])
    return [-1] * n + [0] * (n + n)


def liberties(s: State, board: Board, adjacent: Adjacent, site: int) -> int:
    """The empty neighbours of the group on `site`, as a bitmask of sites (0 for
    an empty site or none)."""
    if board[site] is None:  # (none too: the board's last entry)
        return 0
    chains = s.chains
    if chains is None:  # (nothing known yet)
        n = len(board)
        chains = s.chains = records(n)
    h = chains[site]
    if h >= 0:
        return chains[2 * len(board) + h]
    return _found(chains, board, adjacent, site)


def stones(s: State, board: Board, adjacent: Adjacent, site: int) -> int:
    """The sites of the group on `site` (`group(site)`), as a bitmask of sites (0
    for an empty site or none): read from the records, searched and recorded when
    not known. Where no records are kept (a new position, or a copy of one),
    searched without making them: making them cost perft more than its few
    questions saved. A playout makes them first (engine.random_playout) and asks
    them from ply to ply; a copy takes its position's."""
    if board[site] is None:  # (none too: the board's last entry)
        return 0
    chains = s.chains
    if chains is None:  # (nothing known yet)
        return searched(board, adjacent, site)
    h = chains[site]
    if h < 0:
        _found(chains, board, adjacent, site)
        h = site
    return chains[len(board) + h]


def alone(s: State, board: Board, site: int) -> bool:
    """Whether the records know the piece on `site` as a group of its own (then
    `group(site)` is `[site]` without a search: a capture's usual group)."""
    chains = s.chains
    if chains is None:
        return False
    h = chains[site]
    return h >= 0 and chains[len(board) + h] == _BITS[site]


def _found(chains: Chains, board: Board, adjacent: Adjacent, start: int) -> int:
    """The group on `start` searched and recorded under `start` (as `group` finds
    it); its liberties."""
    owner = board[start][OWNER]  # type: ignore[index]  # (occupied: see liberties)
    chains[start] = start
    bits = _BITS
    stones = bits[start]
    libs = 0
    found = [start]
    for site in found:  # (the loop goes on over the sites appended while it runs)
        for t in adjacent[site]:
            q = board[t]
            if q is None:
                libs |= bits[t]
            elif q[OWNER] == owner and chains[t] != start:
                chains[t] = start
                stones |= bits[t]
                found.append(t)
    n = len(board)
    chains[n + start] = stones
    chains[2 * n + start] = libs
    return libs


def wrote(s: State, board: Board, adjacent: Adjacent, site: int, was: Optional[Piece]) -> None:
    """The board's `site` was written: it held `was`, it holds `board[site]` now."""
    chains = s.chains
    if chains is None:  # (nothing known, nothing to change)
        return
    now = board[site]
    n = len(board)
    if was is not None:
        if now is None:
            cleared(s, board, adjacent, site)
            return
        if now[OWNER] == was[OWNER]:
            return  # (the same owner: the groups are the same)
        if chains[site] >= 0:
            _forgotten(chains, n, site)
    elif now is None:
        return
    # A piece placed (the usual write, kept in this one call): it joins the known
    # groups of its owner next to it (the largest keeps its head) and takes the
    # site from the others' liberties.
    owner = now[OWNER]
    libs = n + n
    bits = _BITS
    bit = bits[site]
    kept = _OTHERS[site]
    own_libs = 0
    big = -1  # (the first group joined; any others in `joined`)
    joined: Optional[list[int]] = None
    for t in adjacent[site]:
        q = board[t]
        if q is None:
            own_libs |= bits[t]
            continue
        h = chains[t]
        if q[OWNER] == owner:
            if h < 0:  # (a group not known: the new one is searched, the known ones joined too)
                _found(chains, board, adjacent, site)
                _others_lose(chains, board, adjacent, site, owner)
                return
            if big < 0:
                big = h
            elif h != big:
                if joined is None:
                    joined = [big, h]
                elif h not in joined:
                    joined.append(h)
        elif h >= 0:
            chains[libs + h] &= kept
    if big < 0:
        chains[site] = site
        chains[n + site] = bit
        chains[libs + site] = own_libs
        return
    if joined is not None:
        for h in joined:
            own_libs |= chains[libs + h]
        big = _joined(chains, n, big, joined)
    chains[site] = big
    chains[n + big] |= bit
    chains[libs + big] = (chains[libs + big] | own_libs) & kept


def cleared(s: State, board: Board, adjacent: Adjacent, site: int) -> None:
    """`wrote` of a write that took the piece on `site` off, leaving it empty (the
    generated code knows it: a capture's `remove`): its group forgotten, the site
    given to the known groups next to it as a liberty."""
    chains = s.chains
    if chains is None:  # (nothing known, nothing to change)
        return
    n = len(board)
    if chains[site] >= 0:  # (a group's other stones taken next find it forgotten)
        _forgotten(chains, n, site)
    bit = _BITS[site]
    libs = n + n
    for t in adjacent[site]:
        h = chains[t]
        if h >= 0:
            chains[libs + h] |= bit


def cleared_stones(s: State, board: Board, adjacent: Adjacent, site: int) -> None:
    """`cleared` where only the groups' stones are kept (`wrote_stones`)."""
    chains = s.chains
    if chains is not None and chains[site] >= 0:
        _forgotten(chains, len(board), site)


def wrote_stones(s: State, board: Board, adjacent: Adjacent, site: int, was: Optional[Piece]) -> None:
    """`wrote` where the rules never ask a group's liberties, only its stones
    (`group(X)` as a bitmask, `stones`): the groups are kept as `wrote` keeps
    them, their liberties are not (what `_found` records of them goes stale,
    unread). Half the upkeep of a placement was the liberties'."""
    chains = s.chains
    if chains is None:  # (nothing known, nothing to change)
        return
    now = board[site]
    n = len(board)
    if was is not None:
        if now is not None and now[OWNER] == was[OWNER]:
            return  # (the same owner: the groups are the same)
        if chains[site] >= 0:
            _forgotten(chains, n, site)
        if now is None:
            return
    elif now is None:
        return
    owner = now[OWNER]
    big = -1  # (the first group joined; any others in `joined`)
    joined: Optional[list[int]] = None
    for t in adjacent[site]:
        q = board[t]
        if q is not None and q[OWNER] == owner:
            h = chains[t]
            if h < 0:  # (a group not known: the new one is searched, the known ones joined too)
                _found(chains, board, adjacent, site)
                return
            if big < 0:
                big = h
            elif h != big:
                if joined is None:
                    joined = [big, h]
                elif h not in joined:
                    joined.append(h)
    bit = _BITS[site]
    if big < 0:
        chains[site] = site
        chains[n + site] = bit
        return
    if joined is not None:
        big = _joined(chains, n, big, joined)
    chains[site] = big
    chains[n + big] |= bit


def _joined(chains: Chains, n: int, big: int, joined: list[int]) -> int:
    """The known groups `joined` (`big` one of them) made one under the head of
    the largest, which it returns (their liberties left as they were). Each
    group's size is counted once (the largest's was counted again at each
    comparison)."""
    size = -1
    for h in joined:
        count = chains[n + h].bit_count()
        if count > size:
            big, size = h, count
    for h in joined:
        if h != big:
            m = chains[n + h]
            chains[n + big] |= m
            while m:
                low = m & -m
                chains[low.bit_length() - 1] = big
                m ^= low
    return big


def _forgotten(chains: Chains, n: int, site: int) -> None:
    """The known group on `site` forgotten (it may fall apart: searched again when
    asked about)."""
    m = chains[n + chains[site]]
    while m:
        low = m & -m
        chains[low.bit_length() - 1] = -1
        m ^= low


def _others_lose(chains: Chains, board: Board, adjacent: Adjacent, site: int, owner: int) -> None:
    """The site taken from the liberties of the known groups of other owners next to it."""
    libs = 2 * len(board)
    kept = _OTHERS[site]
    for t in adjacent[site]:
        q = board[t]
        if q is not None and q[OWNER] != owner:
            h = chains[t]
            if h >= 0:
                chains[libs + h] &= kept


def searched(board: Board, adjacent: Adjacent, site: int) -> int:
    """The sites of the group on `site` as a bitmask, searched (as `group` finds
    them), no records made."""
    p = board[site]
    if p is None:
        return 0
    owner = p[OWNER]
    stones = 1 << site
    found = [site]
    for at in found:  # (the loop goes on over the sites appended while it runs)
        for t in adjacent[at]:
            q = board[t]
            if q is not None and q[OWNER] == owner and not stones >> t & 1:
                stones |= 1 << t
                found.append(t)
    return stones
