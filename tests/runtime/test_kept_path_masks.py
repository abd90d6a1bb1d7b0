"""A search's kept path tried as one bitmask in the listers, and the paths kept
before it tried too (expr_connected.witnessed_loop with `failing`,
site_masks.failing, helpers.keep_path's `before` and its pairs of tables of
paths kept earlier, expr_sets.PATHS_EARLIER): a drop whose `where` asks
every player's way to its goal with the dropped site left out lists, over
random positions listed one after another (the kept paths carried from one to
the next), what a breadth-first search written here finds."""
from __future__ import annotations

import ast
import random
import shutil
from collections import deque
from typing import Optional

import pytest

from interpreter import load_game
from interpreter.compilation import expr_sets
from interpreter.runtime import helpers
from tests.helpers import (
    REPO,
    assert_same_play,
    drop_where,
    generated,
    helper_calls,
    stones_and_rocks,
    write_definition,
)

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


@pytest.mark.parametrize("earlier", [0, 2])
def test_the_ways_asked_with_a_site_left_out_as_a_search_finds_them(tmp_path, monkeypatch, earlier):
    monkeypatch.setattr(expr_sets, "PATHS_EARLIER", earlier)
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


def _marked(path: tuple[int, ...], size: int) -> list[int]:
    marks = helpers.marks(size)
    marks[path[0]] = 1
    for a, b in zip(path, path[1:]):
        marks[b] = a + 2
    return marks


def test_the_paths_kept_earlier_move_back_a_pair_of_tables_each():
    size = 9
    bits = tuple(1 << s for s in range(8)) + (0,)
    paths: list[Optional[tuple[int, ...]]] = [None] * size
    before: list[Optional[tuple[int, ...]]] = [None] * size
    masks, before_masks = [0] * size, [0] * size
    third: list[Optional[tuple[int, ...]]] = [None] * size
    fourth: list[Optional[tuple[int, ...]]] = [None] * size
    third_masks, fourth_masks = [0] * size, [0] * size
    tables = (masks, before_masks, bits, third, third_masks, fourth, fourth_masks)
    kept = [(0, 1, 2, 3), (0, 5, 2, 3), (0, 6, 7), (0, 4), (0, 1, 7)]
    for path in kept:
        helpers.keep_path(paths, 0, _marked(path, size), path[-1], before, tables)
    # (the latest in `paths`, then `before`, the third, the fourth; the first kept dropped)
    assert (paths[0], before[0], third[0], fourth[0]) == ((0, 1, 7), (0, 4), (0, 6, 7), (0, 5, 2, 3))
    assert (masks[0], before_masks[0], third_masks[0], fourth_masks[0]) == (
        0b10000011, 0b10001, 0b11000001, 0b101101)
    # (only the start's paths move back: a site on a path holds its rest in `paths` alone)
    assert third[5] is None and fourth[6] is None and paths[7] == (0, 1, 7)


def test_a_listing_tries_the_paths_kept_earlier_only_as_many_as_asked(tmp_path, monkeypatch):
    definition = write_definition(tmp_path, stones_and_rocks(files=5, ranks=5, extra=GOALS), drop_where(WHERE))
    tables = []
    for earlier in (0, 1, 2):
        monkeypatch.setattr(expr_sets, "PATHS_EARLIER", earlier)
        game = load_game(definition)
        (call,) = helper_calls(game, "h_keep_path", ": the legal actions")
        tables.append(len(game.rules.constants[call.args[5].id]))
    assert tables == [3, 5, 7]


def test_the_fresh_quoridor_lists_and_counts_the_same_with_the_paths_kept_earlier_or_not(tmp_path, monkeypatch):
    folder = REPO / "benchmarks" / "outsiders" / "quoridor_fresh"
    for players in (2, 4):
        options = {"board_size": 5, "wall_count": 6, "players": players}
        on = load_game(str(folder), options)
        copy = tmp_path / f"off{players}"
        shutil.copytree(folder, copy)
        monkeypatch.setattr(expr_sets, "PATHS_EARLIER", 0)
        off = load_game(str(copy), options)
        monkeypatch.undo()
        assert_same_play(on.engine, off.engine, seed=5)
