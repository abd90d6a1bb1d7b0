"""A long `if`/`elif` chain compiles whatever the caller's stack depth: it is one
level deep in the rules (an outsider's Chess960 writes its 960 starts as one chain)."""
import sys

from interpreter import load_game
from tests.helpers import placing, play, stones_and_rocks, winner, write_definition

BRANCHES = 1500


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


def test_a_chain_of_1500_branches_compiles_deep_in_the_stack_and_plays(tmp_path):
    path = write_definition(tmp_path, stones_and_rocks(), placing(_chain()))
    # (a caller half the recursion limit deep: the chain's compiler does not recurse per branch)
    game = _loaded_from_deep_in_the_stack(path, sys.getrecursionlimit() // 2)
    s = play(game, "a1", "d4", "a2", "d3")
    assert s.result is None
    s = play(game, "a3", state=s)
    assert winner(game, s) == "white"
