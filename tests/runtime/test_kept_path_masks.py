"""A search's kept path tried as one bitmask in the listers, and the path kept
before it tried too (expr_connected.witnessed_loop with `failing`,
site_masks.failing, helpers.keep_path's `before`): a drop whose `where` asks
every player's way to its goal with the dropped site left out lists, over
random positions listed one after another (the kept paths carried from one to
the next), what a breadth-first search written here finds."""
from __future__ import annotations

import ast
import random
from collections import deque
from typing import Optional

from interpreter import load_game
from interpreter.runtime import helpers
from tests.helpers import drop_where, generated, helper_calls, stones_and_rocks, write_definition

GOALS = "regions:\n  goal:\n    per_player:\n      white: {ranks: [5]}\n      black: {ranks: [1]}\n"
WHERE = ("all(q in players, exists(connected(first(pieces of q), orthogonal, it is not rock and it != to), "
         "it in goal[q]))")
FILES = "abcde"


def _reaches(start: tuple[int, int], goal_rank: int, blocked: set[tuple[int, int]]) -> bool:
    seen, todo = {start}, deque([start])
    while todo:
        f, r = todo.popleft()
        if r == goal_rank:
            return True
        for g, s in ((f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)):
            if 0 <= g < 5 and 1 <= s <= 5 and (g, s) not in seen and (g, s) not in blocked:
                seen.add((g, s))
                todo.append((g, s))
    return False


def _expected(white: tuple[int, int], black: tuple[int, int], rocks: set[tuple[int, int]]) -> list[str]:
    out = []
    for f in range(5):
        for r in range(1, 6):
            if (f, r) in rocks or (f, r) in (white, black):
                continue
            blocked = rocks | {(f, r)}
            if _reaches(white, 5, blocked) and _reaches(black, 1, blocked):
                out.append(f"{FILES[f]}{r}")
    return sorted(out)


def test_the_ways_asked_with_a_site_left_out_as_a_search_finds_them(tmp_path):
    game = load_game(write_definition(tmp_path, stones_and_rocks(files=5, ranks=5, extra=GOALS), drop_where(WHERE)))
    # (the search keeps the path before it and the paths' bitmasks: the walks are masks)
    assert [len(call.args) for call in helper_calls(game, "h_keep_path", ": the legal actions")] == [6]
    # (and the search asks each site its bit against the failing mask: no board read in it)
    searches = list(generated(game, ast.While, ": the legal actions"))
    assert searches and not any(isinstance(node, ast.Name) and node.id == "b"
                                for loop in searches for node in ast.walk(loop))
    rng = random.Random(11)
    sites = [(f, r) for f in range(5) for r in range(1, 6)]
    checked = 0
    for _ in range(300):
        # (the stones mostly where they stood before, the rocks changing: kept paths reused and cut)
        white, black, *rest = rng.sample(sites, 2 + rng.randrange(0, 9))
        rocks = set(rest)
        pieces = {f"{FILES[f]}{r}": ("neutral", "rock") for f, r in rocks}
        pieces[f"{FILES[white[0]]}{white[1]}"] = ("white", "stone")
        pieces[f"{FILES[black[0]]}{black[1]}"] = ("black", "stone")
        for mover in ("white", "black"):
            state = game.make_state(pieces, to_move=mover)
            assert sorted(game.legal_notations(state)) == _expected(white, black, rocks), (pieces, mover)
            checked += 1
    assert checked == 600


def test_a_new_path_keeps_the_one_it_replaces_in_the_second_table():
    paths: list[Optional[tuple[int, ...]]] = [None] * 8
    before: list[Optional[tuple[int, ...]]] = [None] * 8

    def kept(path: tuple[int, ...]) -> None:
        marks = helpers.marks(8)
        marks[path[0]] = 1
        for a, b in zip(path, path[1:]):
            marks[b] = a + 2
        helpers.keep_path(paths, path[0], marks, path[-1], before)

    kept((0, 1, 2, 3))
    assert paths[0] == (0, 1, 2, 3) and before[0] is None  # (nothing kept before it)
    kept((0, 5, 2, 3))
    assert paths[0] == (0, 5, 2, 3) and before[0] == (0, 1, 2, 3)
    kept((0, 6, 7))
    assert paths[0] == (0, 6, 7) and before[0] == (0, 5, 2, 3)
    assert before[5] is None and before[6] is None  # (only the start's)


def test_the_bitmasks_kept_beside_the_paths_are_theirs():
    paths: list[Optional[tuple[int, ...]]] = [None] * 9
    before: list[Optional[tuple[int, ...]]] = [None] * 9
    masks, before_masks = [0] * 9, [0] * 9
    bits = tuple(1 << s for s in range(8)) + (0,)
    rng = random.Random(3)
    for _ in range(200):
        path = tuple(rng.sample(range(8), rng.randrange(1, 6)))
        marks = helpers.marks(9)
        marks[path[0]] = 1
        for a, b in zip(path, path[1:]):
            marks[b] = a + 2
        helpers.keep_path(paths, path[0], marks, path[-1], before, (masks, before_masks, bits))
        for table, by_start in ((paths, masks), (before, before_masks)):
            for site, kept in enumerate(table):
                if kept is not None:  # (a site's mask the rest of its path from the site)
                    assert site in kept, (site, kept)
                    assert by_start[site] == sum(bits[s] for s in kept[kept.index(site):]), (site, kept)
