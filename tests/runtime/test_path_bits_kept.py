"""Each kept path's bitmask kept beside it (helpers.keep_path's `bits_beside`,
expr_sets.PATH_BITS_KEPT): the paths kept as without it and each bitmask what
`path_bits` gives for its path, on hand-made searches; the recording and the
screens read the bitmasks by the path's start, no `h_path_bits` left; the
outsiders' Quoridor and the benchmark's list and count alike with it off."""
from __future__ import annotations

import ast
import random
import shutil
from pathlib import Path
from typing import Any, Optional

from interpreter import load_game
from interpreter.compilation import expr_sets
from interpreter.runtime import helpers
from tests.helpers import REPO, generated, helper_calls
from tests.runtime.test_point_masks import QUORIDOR, _played_alike

OUTSIDER = REPO / "benchmarks" / "outsiders" / "quoridor"
BITS = tuple(1 << site for site in range(9)) + (0,)


def _marks(*path: int) -> list[int]:
    """A search's marks (helpers.marks) that found `path`: its start 1, every
    other site the one before it plus two; 0 elsewhere."""
    marks = [0] * 10
    marks[path[0]] = 1
    for before, site in zip(path, path[1:]):
        marks[site] = before + 2
    return marks


def _kept(searches: list[tuple[int, ...]], rests: bool) -> tuple[list[Any], list[Any], list[int], list[int]]:
    paths: list[Optional[tuple[int, ...]]] = [None] * 10
    before: list[Optional[tuple[int, ...]]] = [None] * 10
    by_site, before_by_site = [0] * 10, [0] * 10
    for found in searches:
        helpers.keep_path(paths, found[0], _marks(*found), found[-1], before, None,
                          (by_site, before_by_site, BITS) if rests else None)
    return paths, before, by_site, before_by_site


def test_the_paths_are_kept_as_without_their_bitmasks_and_each_bitmask_is_its_paths():
    searches = [(0, 1, 2, 5), (3, 1, 6, 7), (0, 4, 8, 5), (2, 6, 7)]
    for count in range(1, len(searches) + 1):
        plain = _kept(searches[:count], False)
        paths, before, by_site, before_by_site = _kept(searches[:count], True)
        assert (paths, before) == plain[:2], count
        for table, bits in ((paths, by_site), (before, before_by_site)):
            for site, path in enumerate(table):
                assert bits[site] == (helpers.path_bits(path, BITS) if path is not None else 0), (count, site)
    paths, before, by_site, before_by_site = _kept(searches[:3], True)
    # (by hand: the second search from 0 kept 0 4 8 5 and moved 0 1 2 5 to the paths before;
    # site 1 keeps the rest of the first path, to 5, not the second search's, to 7)
    assert paths[0] == (0, 4, 8, 5) and by_site[0] == 0b100110001
    assert before[0] == (0, 1, 2, 5) and before_by_site[0] == 0b100111
    assert paths[1] == (1, 2, 5) and by_site[1] == 0b100110
    assert paths[6] == (6, 7) and by_site[6] == 0b11000000


def test_a_table_kept_without_bitmasks_is_read_through_path_bits():
    paths: list[Optional[tuple[int, ...]]] = [None, (1, 2, 5), None, (3, 7)]
    read = helpers.PathBitsOf(paths, BITS)
    assert [read[site] for site in range(4)] == [0, 0b100110, 0, 0b10001000]
    paths[0] = (0, 8)
    assert read[0] == 0b100000001  # (the table read as it is now)


def _quoridor(tmp_path: Path, folder: Path, on: bool, monkeypatch, **options: int) -> Any:
    monkeypatch.setattr(expr_sets, "PATH_BITS_KEPT", on)
    copy = tmp_path / f"{folder.name}-{on}"  # (a game loaded before keeps the code it was given)
    shutil.copytree(folder, copy)
    game = load_game(str(copy), options=options)
    monkeypatch.undo()
    return game


def _tables_read(game: Any) -> set[str]:
    """The names of the tables of bitmasks the keeping calls name (their last argument)."""
    return {name.id for call in helper_calls(game, "h_keep_path") if len(call.args) == 7
            and isinstance(call.args[6], ast.Tuple) for name in call.args[6].elts[:2] if isinstance(name, ast.Name)}


def test_the_outsiders_quoridor_reads_each_paths_bitmask_from_its_table_and_plays_alike(tmp_path, monkeypatch):
    on = _quoridor(tmp_path, OUTSIDER, True, monkeypatch, board_size=5)
    off = _quoridor(tmp_path, OUTSIDER, False, monkeypatch, board_size=5)
    assert not helper_calls(on, "h_path_bits") and helper_calls(off, "h_path_bits")
    tables = _tables_read(on)
    assert tables and not _tables_read(off)
    # (the recording reads them by subscript: a table of bitmasks read where a path's is asked)
    read = {node.value.id for node in generated(on, ast.Subscript) if isinstance(node.value, ast.Name)}
    assert tables & read
    # (the screens' tables of paths bound each with its table of bitmasks, none worked out)
    namespace = on.engine.decisions[0].legal.__globals__
    pairs = [pair for value in namespace.values() if isinstance(value, tuple) for pair in value
             if isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[1], (list, helpers.PathBitsOf))
             and isinstance(pair[0], list)]
    assert pairs and all(type(bits) is list for _, bits in pairs)
    a, b, compared = _played_alike(on, off, random.Random(11), plies=60, games=6)
    assert compared > 1500
    assert on.engine.perft(a, 2) == off.engine.perft(b, 2)
    start = on.engine.initial_state()
    assert on.engine.perft(start, 3) == off.engine.perft(off.engine.initial_state(), 3)


def test_the_benchmarks_quoridor_plays_alike_with_the_bitmasks_kept_off(tmp_path, monkeypatch):
    on = _quoridor(tmp_path, QUORIDOR, True, monkeypatch)
    off = _quoridor(tmp_path, QUORIDOR, False, monkeypatch)
    assert _tables_read(on) and not _tables_read(off)
    a, b, compared = _played_alike(on, off, random.Random(17), plies=80)
    assert compared > 3000
    assert on.engine.perft(a, 2) == off.engine.perft(b, 2)
