"""`helpers.keep_path` with one table serving searches for several goals (a
search asked in a loop over the players, `all(p in players, exists(connected(
first(pieces of p), ...), it in goal[p]))`): the rest of one player's path does
not replace the path kept from the site where another's search starts, so that
each finds its own path kept; on hand-made marks."""
from __future__ import annotations

from typing import Optional

from interpreter.runtime import helpers


def _marks(path: tuple[int, ...], n: int) -> list[int]:
    """The marks a search from path[0] leaves along `path` (helpers.marks)."""
    marks = helpers.marks(n)
    marks[path[0]] = 1
    for before, site in zip(path, path[1:]):
        marks[site] = before + 2
    return marks


def _kept(paths: list[Optional[tuple[int, ...]]], path: tuple[int, ...]) -> None:
    helpers.keep_path(paths, path[0], _marks(path, len(paths)), path[-1])


def test_two_goals_on_one_line_keep_their_own_paths():
    # One player walks 0 → 4, the other 4 → 0, along the same sites.
    paths: list[Optional[tuple[int, ...]]] = [None] * 6
    _kept(paths, (0, 1, 2, 3, 4))
    assert paths[0] == (0, 1, 2, 3, 4) and paths[2] == (2, 3, 4) and paths[4] == (4,)
    _kept(paths, (4, 3, 2, 1, 0))
    assert paths[4] == (4, 3, 2, 1, 0)  # (its start: always its own)
    assert paths[0] == (0, 1, 2, 3, 4)  # (the other's start kept, not the rest (0,) of this path)
    assert paths[2] == (2, 3, 4)  # (a site on both: the path kept first stays)
    _kept(paths, (0, 1, 2, 3, 4))
    assert paths[4] == (4, 3, 2, 1, 0) and paths[0] == (0, 1, 2, 3, 4)


def test_a_new_path_to_the_same_end_replaces_the_rest():
    paths: list[Optional[tuple[int, ...]]] = [None] * 8
    _kept(paths, (0, 1, 2, 3))
    _kept(paths, (0, 5, 2, 3))  # (the same end, another way: as before, the rest is the new path's)
    assert paths[0] == (0, 5, 2, 3) and paths[5] == (5, 2, 3) and paths[2] == (2, 3)
    assert paths[1] == (1, 2, 3)  # (not on the new path: left)
    _kept(paths, (1, 6, 7))  # (from a site of the path, to another end: its start is its own)
    assert paths[1] == (1, 6, 7) and paths[6] == (6, 7)
