"""The path kept before the last, tried where the last fails, by a search keeping
its path outside a listing (expr_connected.witnessed_loop with `before`,
expr_sets.PATH_BEFORE): the outsiders' Quoridor at size 5, whose `forbid result`
checks ask both pawns' searches for every wall meeting a path kept by the listing.
The same legal actions and perft as with it off, and fewer searches run."""
from __future__ import annotations

import ast
import random
import shutil
from pathlib import Path
from typing import Any, Callable, Optional

from interpreter import load_game
from interpreter.compilation import expr_sets
from interpreter.runtime import helpers
from tests.helpers import REPO, helper_calls
from tests.runtime.test_point_masks import _played_alike

OUTSIDER = REPO / "benchmarks" / "outsiders" / "quoridor"
CHECK = "whether 'forbid result' forbids it"


def _quoridor(tmp_path: Path, on: bool, monkeypatch, marks: Optional[Callable[[int], list[int]]] = None) -> Any:
    monkeypatch.setattr(expr_sets, "PATH_BEFORE", on)
    if marks is not None:
        monkeypatch.setitem(helpers.NAMESPACE, "h_marks", marks)
    folder = tmp_path / f"quoridor-{on}"  # (a game loaded before keeps the helpers it was given)
    shutil.copytree(OUTSIDER, folder)
    game = load_game(str(folder), options={"board_size": 5})
    monkeypatch.undo()
    return game


def _keeping_before(game: Any) -> bool:
    """Whether a check's search keeps the path before the last (`h_keep_path`'s fifth
    argument, the table of those paths; None where it keeps none but the paths' bitmasks)."""
    return any(len(call.args) >= 5 and isinstance(call.args[4], ast.Name)
               for call in helper_calls(game, "h_keep_path", CHECK))


def test_the_checks_try_the_path_before_and_list_the_same(tmp_path, monkeypatch):
    on, off = _quoridor(tmp_path, True, monkeypatch), _quoridor(tmp_path, False, monkeypatch)
    assert _keeping_before(on) and not _keeping_before(off)
    a, b, compared = _played_alike(on, off, random.Random(5), plies=60, games=8)
    assert compared > 1800
    assert on.engine.perft(a, 2) == off.engine.perft(b, 2)


def test_fewer_searches_run(tmp_path, monkeypatch):
    # Each search that is not answered by a kept path makes its marks once.
    searches = {True: 0, False: 0}
    for on in (True, False):
        def marks(n: int, on: bool = on) -> list[int]:
            searches[on] += 1
            return helpers.marks(n)
        game = _quoridor(tmp_path, on, monkeypatch, marks)
        assert game.engine.perft(game.engine.initial_state(), 3) == [35, 1109, 31540]
    # (measured: 921 searches on, 1,974 off)
    assert 0 < searches[True] < 0.75 * searches[False], searches
