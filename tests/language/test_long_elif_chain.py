"""A long `if`/`elif` chain compiles whatever the caller's stack depth: it is one
level deep in the rules (an outsider's Chess960 writes its 960 starts as one chain);
where the compiler runs out of frames it compiles again in a thread with a deep
stack (pipeline.py), and past that it is an error of the definition, not a traceback."""
import sys

import pytest

from interpreter import DefinitionError, load_game
from tests.helpers import placing, play, stones_and_rocks, winner, write_definition

BRANCHES = 400


def _chain() -> str:
    # (every branch but the last can never hold on a 4x4 board: the third stone wins)
    lines = ["if count(pieces of player) == 100000:", "    win"]
    for k in range(1, BRANCHES - 1):
        lines += [f"elif count(pieces of player) == {100000 + k}:", "    win"]
    lines += ["elif count(pieces of player) == 3:", "    win"]
    return "\n".join(lines)


def _loaded_from_deep_in_the_stack(path: str, depth: int):
    if depth:
        return _loaded_from_deep_in_the_stack(path, depth - 1)
    return load_game(path)


def test_a_long_chain_compiles_deep_in_the_stack_and_plays(tmp_path):
    limit = sys.getrecursionlimit()
    path = write_definition(tmp_path, stones_and_rocks(), placing(_chain()))
    # (a caller 900 frames deep, the chain 400 branches: beyond Python's own limit of 1000)
    game = _loaded_from_deep_in_the_stack(path, 900 - len(_frames()))
    assert sys.getrecursionlimit() == limit  # (given back as it was)
    s = play(game, "@a1", "@d4", "@a2", "@d3")
    assert s.result is None
    s = play(game, "@a3", state=s)
    assert winner(game, s) == "white"


def test_a_chain_beyond_the_compilers_depth_is_an_error_of_the_definition(tmp_path, monkeypatch):
    import interpreter.pipeline as pipeline

    limit = sys.getrecursionlimit()
    monkeypatch.setattr(pipeline, "DEEP_RECURSION_LIMIT", 1000)
    path = write_definition(tmp_path, stones_and_rocks(), placing(_chain()))
    with pytest.raises(DefinitionError, match="nested"):
        load_game(path)
    assert sys.getrecursionlimit() == limit


def _frames() -> list:
    frames = []
    frame = sys._getframe()
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    return frames


def test_without_a_deep_thread_the_chain_too_deep_is_an_error_of_the_definition(tmp_path, monkeypatch):
    import threading

    def no_thread_of_that_stack(size=None):
        if size:
            raise ValueError("size not valid")
        return 0

    monkeypatch.setattr(threading, "stack_size", no_thread_of_that_stack)
    path = write_definition(tmp_path, stones_and_rocks(), placing(_chain()))
    limit = sys.getrecursionlimit()
    with pytest.raises(DefinitionError, match="nested"):
        _loaded_from_deep_in_the_stack(path, 900 - len(_frames()))
    assert sys.getrecursionlimit() == limit
