"""A kept path's walk in a recording noted by the path's bitmask
(compilation/result_reuse.py, `PATH_BITS`; runtime/helpers.path_bits and
failing_sites, or a function written for the test: result_reuse.failing_finder):
the same entries on random walls of a 4×4 wall game and the same legal actions
and perft for Quoridor as with it switched off; the helpers and the test's
function on hand-made paths and boards. The games are compiled with the paths'
bitmasks worked out by `h_path_bits` (expr_sets.PATH_BITS_KEPT off: else read
from the tables kept beside the paths, test_path_bits_kept.py)."""
from __future__ import annotations

import ast
import random
import shutil
from pathlib import Path

from interpreter import load_game
from interpreter.compilation import expr_sets, pyast, result_reuse
from interpreter.runtime import helpers
from tests.helpers import helper_calls, stones_and_rocks, write_definition
from tests.runtime.test_clearances import RULES
from tests.runtime.test_point_masks import QUORIDOR, _entry, _played_alike, _position, _sites, _tests
from tests.runtime.test_reach_reuse import EXTRA, FILES


def _walls(tmp_path: Path, on: bool, monkeypatch) -> object:
    monkeypatch.setattr(result_reuse, "PATH_BITS", on)
    monkeypatch.setattr(expr_sets, "PATH_BITS_KEPT", False)
    folder = tmp_path / f"walls-{on}"
    folder.mkdir()
    game = load_game(write_definition(folder, stones_and_rocks(extra=EXTRA), RULES))
    monkeypatch.undo()
    return game


def _kept_with(entry, game) -> dict[int, tuple[bool, ...]]:
    """By site tested: whether its tests give what they gave with each piece the
    game has there (none, the stone, a rock) — what the checks ask of the entry."""
    pieces = [None, game.engine.rules.initial_board[0]] + [
        piece for piece in game.engine.rules.initial_board if piece is not None and piece[0] == 2][:1]
    s = _position(game, "a2")
    pieces.append(s.board[4])
    return {site: tuple(all(bool(test(piece, 0, 1)) is held for test, held in entry[3][site]) for piece in pieces)
            for site in range(16) if entry[2] >> site & 1}


def test_the_walls_games_entries_are_those_of_the_walk(tmp_path, monkeypatch):
    on, off = _walls(tmp_path, True, monkeypatch), _walls(tmp_path, False, monkeypatch)
    assert helper_calls(on, "h_path_bits", "forbid result")
    assert not helper_calls(off, "h_path_bits", "forbid result")
    rng = random.Random(7)
    names = [f"{f}{r}" for f in FILES for r in range(1, 5) if f + str(r) != "a1"]
    for _ in range(150):
        # (a few rocks, often none on the way kept by the position before: the walk by bits)
        rocks = " ".join(rng.sample(names, rng.randrange(0, 5)))
        a, b = _entry(on, _position(on, rocks)), _entry(off, _position(off, rocks))
        assert (a[0], a[1], a[2], a[4]) == (b[0], b[1], b[2], b[4]), rocks
        assert _kept_with(a, on) == _kept_with(b, off) and _tests(a) == _tests(b), rocks
    # the way a1..a4 kept, then asked again with rocks off it and on it
    for rocks in ("b1 b2", "c3", "b1 b2 c3", "a3", "b1 b2"):
        a, b = _entry(on, _position(on, rocks)), _entry(off, _position(off, rocks))
        assert (a[0], _sites(a[1]), _sites(a[2]), a[4]) == (b[0], _sites(b[1]), _sites(b[2]), b[4]), rocks
        assert _kept_with(a, on) == _kept_with(b, off) and _tests(a) == _tests(b), rocks


def test_quoridor_is_the_same_with_the_walk_by_bits_off(tmp_path, monkeypatch):
    monkeypatch.setattr(expr_sets, "PATH_BITS_KEPT", False)
    on_folder = tmp_path / "quoridor-on"  # (a game loaded before keeps the code it was given)
    shutil.copytree(QUORIDOR, on_folder)
    on = load_game(str(on_folder))
    folder = tmp_path / "quoridor-off"
    shutil.copytree(QUORIDOR, folder)
    monkeypatch.setattr(result_reuse, "PATH_BITS", False)
    off = load_game(str(folder))
    monkeypatch.undo()
    assert helper_calls(on, "h_path_bits", "forbid result")
    assert not helper_calls(off, "h_path_bits", "forbid result")
    a, b, compared = _played_alike(on, off, random.Random(43), plies=90)
    assert compared > 4000
    assert on.engine.perft(a, 2) == off.engine.perft(b, 2)


def test_a_paths_bits_are_kept_with_the_path():
    bits = tuple(1 << i for i in range(8)) + (0,)
    path = (1, 2, 5)
    assert helpers.path_bits(path, bits) == 0b100110
    assert helpers.path_bits(path, bits) == 0b100110  # (kept)
    other = tuple(1 << (i + 1) for i in range(8)) + (0,)
    assert helpers.path_bits(path, other) == 0b1001100  # (other bits: made again)
    assert helpers.path_bits([3, -1], bits) == 0b1000  # (a list: never kept)
    assert helpers.path_bits((), bits) == 0


def _small_board():
    """A board of six sites: a piece of player 0 on site 1, two of kind 3 of player 2 on
    sites 3 and 4 (the board, the occupancy lists, each site's bit)."""
    board: list = [None] * 6
    board[1] = (0, 0)
    board[3] = (2, 3)
    board[4] = (2, 3)
    return board, [[1], [], [3, 4]], tuple(1 << i for i in range(6)) + (0,)


def test_the_sites_where_a_test_fails():
    board, occupied, bits = _small_board()

    def not_kind_3(piece, p, q):
        return not (piece or (-1, -1))[1] == 3

    assert helpers.failing_sites(occupied, board, not_kind_3, 0, 1, bits) == 0b11000
    assert helpers.failing_sites(occupied, board, lambda pc, p, q: pc[0] == p, 2, 0, bits) == 0b10
    # (the sites where it holds, for a walk passing where it does not)
    assert helpers.failing_sites(occupied, board, not_kind_3, 0, 1, bits, False) == 0b10


def test_quoridor_finds_the_failing_sites_once_a_recording(tmp_path, monkeypatch):
    # A recording whose search kept a new path is recorded again reading that path: the
    # sites where the kept paths' test fails are the board's, found once for both runs.
    calls = []

    def counted(*args):
        calls.append(1)
        return helpers.failing_sites(*args)

    monkeypatch.setitem(helpers.NAMESPACE, "h_failing_sites", counted)
    monkeypatch.setattr(result_reuse, "FAILING_INLINE", False)  # (the helper called, to be counted)
    copy = tmp_path / "quoridor"  # (a game loaded before keeps the helper it was given)
    shutil.copytree(QUORIDOR, copy)
    game = load_game(str(copy))
    engine = game.engine
    assert engine.perft(engine.initial_state(), 3) == [131, 16677, 2062264]
    # (16,809 listings, a recording each at most; 19,263 calls when the second run asked again)
    assert 0 < len(calls) <= 1 + 131 + 16677


def _finder(test: str, gives: bool):
    """The function `result_reuse.failing_finder` writes for the point test `test`."""
    body = result_reuse.failing_finder(ast.parse(test, mode="eval").body, gives, ast.Name("bits", ast.Load()),
                                       lambda prefix, names=iter(range(9)): f"{prefix}{next(names)}")
    module = ast.fix_missing_locations(ast.Module([pyast.function("finder", result_reuse.FINDER_PARAMS, body)], []))
    namespace = {"k0": (-1, -1), "bits": tuple(1 << i for i in range(6)) + (0,)}
    exec(compile(module, "<finder>", "exec"), namespace)  # noqa: S102 - the tree made above
    return namespace["finder"]


def test_the_finder_written_for_a_test_gives_the_helpers_sites():
    board, occupied, bits = _small_board()
    for test, p, q in (("not (pc or k0)[1] == 3", 0, 1), ("pc[0] == p", 2, 0), ("pc[0] == p", 0, 1)):
        expected = [helpers.failing_sites(occupied, board, eval(f"lambda pc, p, q: {test}", {"k0": (-1, -1)}),  # noqa: S307
                                          p, q, bits, gives) for gives in (True, False)]
        assert [_finder(test, gives)(occupied, board, p, q) for gives in (True, False)] == expected, test
    # (as the helper's test above: hand-checked)
    assert _finder("not (pc or k0)[1] == 3", True)(occupied, board, 0, 1) == 0b11000
    assert _finder("not (pc or k0)[1] == 3", False)(occupied, board, 0, 1) == 0b10
    assert _finder("pc[0] == p", True)(occupied, board, 2, 0) == 0b10


def test_quoridor_is_the_same_with_the_tests_function_called_a_piece(tmp_path, monkeypatch):
    on = load_game(str(QUORIDOR))
    folder = tmp_path / "quoridor-helper"
    shutil.copytree(QUORIDOR, folder)
    monkeypatch.setattr(result_reuse, "FAILING_INLINE", False)
    off = load_game(str(folder))
    monkeypatch.undo()
    assert not helper_calls(on, "h_failing_sites") and helper_calls(off, "h_failing_sites", "forbid result")
    a, b, compared = _played_alike(on, off, random.Random(44), plies=90)
    assert compared > 4000
    assert on.engine.perft(a, 2) == off.engine.perft(b, 2)
