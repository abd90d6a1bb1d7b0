"""Helpers of the statements that move several pieces at once or one stone of a
stack: `rotate` and `cycle` (a permutation of sites), `move one`, `remove one`,
`return one` (docs/format.md 3.10). Generated code calls them as `h_<name>`.

Pieces are immutable tuples (runtime/pieces.py); every helper keeps the owners'
site lists (`occ`) in step with the board, as the statements written out do.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from .errors import RuleRuntimeError
from .pieces import FIRST_ATTRIBUTE, KIND, NO_SITE, OWNER, STONES, Board, Piece

if TYPE_CHECKING:
    from ..parsing.ast import Pos

# A permutation of sites: (the sites whose pieces move, where each goes).
Moves = tuple[tuple[int, ...], tuple[int, ...]]


# ---------------------------------------------------------------- permutations
def permute(board: Board, occ: list[list[int]], sources: tuple[int, ...], dests: tuple[int, ...]) -> None:
    """At once, what stands on sources[i] goes to dests[i] (the dests are the
    sources in another order); an empty site's emptiness moves too. A site whose
    owner changes leaves the old owner's list and joins the new owner's at its end;
    a site keeping its owner keeps its place in the list."""
    read = board.__getitem__
    pieces = list(map(read, sources))
    before = list(map(read, dests))
    if pieces == before:
        return  # (what stands on each site stands there again: an empty or uniform block)
    for site, piece, old in zip(dests, pieces, before):
        if piece is old:
            continue
        board[site] = piece
        if piece is None:
            occ[old[OWNER]].remove(site)  # type: ignore[index]  # (old is not piece: a piece)
        elif old is None:
            occ[piece[OWNER]].append(site)
        elif piece[OWNER] != old[OWNER]:
            occ[old[OWNER]].remove(site)
            occ[piece[OWNER]].append(site)


def followed(site: int, moves: Moves) -> int:
    """Where the piece that stood on `site` stands after the permutation."""
    sources, dests = moves
    for source, dest in zip(sources, dests):
        if source == site:
            return dest
    return site


def rotation_moves(files: int, sites: tuple[int, ...], clockwise: bool) -> Optional[Moves]:
    """The quarter turn of a square block of a grid `files` wide (None when the
    sites are not such a block). Clockwise as drawn with north up: with i, j the
    file and rank offsets in a k x k block, (i, j) goes to (j, k-1-i); anticlockwise
    to (k-1-j, i). Sites that stay (the centre of an odd block) are left out."""
    distinct = set(sites)
    if not distinct:
        return (), ()
    f0 = min(s % files for s in distinct)
    r0 = min(s // files for s in distinct)
    k = max(s % files for s in distinct) - f0 + 1
    if max(s // files for s in distinct) - r0 + 1 != k or len(distinct) != k * k:
        return None
    sources, dests = [], []
    for s in sorted(distinct):
        i, j = s % files - f0, s // files - r0
        ti, tj = (j, k - 1 - i) if clockwise else (k - 1 - j, i)
        dest = (r0 + tj) * files + f0 + ti
        if dest != s:
            sources.append(s)
            dests.append(dest)
    return tuple(sources), tuple(dests)


def rotation(files: int, sites: list[int], clockwise: bool, pos: Pos) -> Moves:
    """rotation_moves of a set worked out while playing (a located error when it is
    not a square block)."""
    moves = rotation_moves(files, tuple(sites), clockwise)
    if moves is None:
        raise RuleRuntimeError(pos, f"'rotate' needs a square block of sites; found {len(set(sites))} sites "
                                    "that are not one")
    return moves


def cycle_moves(sites: tuple[int, ...], pos: Pos) -> Moves:
    """`cycle A, B, C`: A's piece to B, B's to C, C's to A; sites that are none are
    left out, a site twice is a located error."""
    kept = tuple(s for s in sites if s != NO_SITE)
    if len(set(kept)) != len(kept):
        raise RuleRuntimeError(pos, "'cycle' names the same site twice")
    if len(kept) < 2:
        return (), ()
    return kept, kept[1:] + kept[:1]


# ---------------------------------------------------------------- single stones
def lift_one(board: Board, occ: list[list[int]], site: int) -> Optional[Piece]:
    """Take the top stone off the stack on `site` (its site is left empty when it
    was the last; the rest keeps its kind and attributes and belongs to the colour
    now on top). Returns the stack as it was, or None when the site is empty."""
    piece = board[site]
    if piece is None:
        return None
    stones = piece[STONES]
    if not stones or len(stones) == 1:
        board[site] = None
        occ[piece[OWNER]].remove(site)
        return piece
    rest = stones[:-1]
    top = rest[-1]
    board[site] = (top, piece[KIND], rest) + piece[FIRST_ATTRIBUTE:]
    if top != piece[OWNER]:
        occ[piece[OWNER]].remove(site)
        occ[top].append(site)
    return piece


def land_one(board: Board, occ: list[list[int]], site: int, colour: int, like: Piece) -> Piece:
    """A stone of `colour` arrives on `site`: on top of the stack there (which then
    belongs to that colour), or as a new piece of the kind and attributes of `like`
    (the stack it came from). Returns the piece now on `site`."""
    there = board[site]
    if there is None:
        new = (colour, like[KIND], (colour,)) + like[FIRST_ATTRIBUTE:]
        board[site] = new
        occ[colour].append(site)
        return new
    new = (colour, there[KIND], (there[STONES] or (there[OWNER],)) + (colour,)) + there[FIRST_ATTRIBUTE:]
    board[site] = new
    if there[OWNER] != colour:
        occ[there[OWNER]].remove(site)
        occ[colour].append(site)
    return new


def move_one(board: Board, occ: list[list[int]], source: int, dest: int) -> Optional[Piece]:
    """`move one X to Y`: X's top stone goes onto Y. Returns the piece now on Y, or
    None when nothing moved (X empty, Y none or X itself)."""
    if dest == NO_SITE or dest == source:
        return None
    piece = lift_one(board, occ, source)
    if piece is None:
        return None
    stones = piece[STONES]
    return land_one(board, occ, dest, stones[-1] if stones else piece[OWNER], piece)


def top_colour(piece: Piece) -> int:
    """The colour of a stack's top stone."""
    stones = piece[STONES]
    return stones[-1] if stones else piece[OWNER]  # type: ignore[no-any-return]
