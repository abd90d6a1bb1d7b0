"""A neighbour loop counting over a short row of a table by the site and the
neighbour (the sites beside a step, expr_sets._common_neighbours) carries those
rows, padded with -1, and the count is written out (compilation/paired_rows.py).
The same moves as the count asked of each neighbour, on random positions of a
small hexagonal board whose rim has rows of one site (the padding); a condition
that holds on an empty site keeps its loop (the padding would count)."""
import ast
import random

from interpreter import load_game
from tests.helpers import generated, stones_and_rocks, write_definition

YAML = stones_and_rocks(files=5, ranks=5, neighbours="[n, ne, e, s, sw, w]")
# A stone runs round the others, through gaps with `beside` sites beside them
# (its own site counting as empty).
RULES = """\
define gap(a, b) = count(c in neighbours(a), {beside}) == {times}
phase play:
    turn: move
decision move:
    action run by stone:
        go to connected(from, it == from or it is empty, each step a to b where gap(a, b)) - [from]
        onto empty: move
"""
# The sites beside asked by the table (the neighbours test first) or of each
# neighbour (another test first).
OCCUPIED = ("c in neighbours(b) and c is occupied and c != from", "c is occupied and c in neighbours(b) and c != from")
EMPTY = ("c in neighbours(b) and c is empty", "c is empty and c in neighbours(b)")


def _game(tmp_path, name: str, beside: str, times: int):
    folder = tmp_path / name
    folder.mkdir()
    return load_game(write_definition(folder, YAML, RULES.format(beside=beside, times=times)))


def _paired_loops(game) -> list[ast.For]:
    return [loop for loop in generated(game, ast.For) if isinstance(loop.target, ast.Tuple)]


def _same_moves(games, seed: int) -> int:
    """Actions listed on random positions of the 5×5 board, the same by every game of
    `games` (each a way of compiling one rule); how many were compared."""
    rng, listed = random.Random(seed), 0
    cells = [f"{f}{r}" for f in "abcde" for r in "12345"]
    for _ in range(60):
        chosen = rng.sample(cells, rng.randint(2, 12))
        placed = {cell: ("neutral", "rock") if owner == "neutral" else (owner, "stone")
                  for cell, owner in ((cell, rng.choice(["white", "black", "neutral"])) for cell in chosen)}
        for player in ("white", "black"):
            moves = [g.legal_notations(g.make_state(placed, to_move=player)) for g in games]
            assert all(listed_here == moves[0] for listed_here in moves), placed
            listed += len(moves[0])
    return listed


def test_a_count_asking_for_a_piece_is_written_out(tmp_path):
    table, asked = _game(tmp_path, "table", OCCUPIED[0], 1), _game(tmp_path, "asked", OCCUPIED[1], 1)
    # (the flood's neighbour loop carries the two sites beside each step: three names)
    assert [len(loop.target.elts) for loop in _paired_loops(table)] == [3]
    assert not _paired_loops(asked)
    assert _same_moves((table, asked), 26) > 100


def test_a_count_of_empty_sites_keeps_its_loop(tmp_path):
    table, asked = _game(tmp_path, "table", EMPTY[0], 1), _game(tmp_path, "asked", EMPTY[1], 1)
    assert not _paired_loops(table)
    assert _same_moves((table, asked), 27) > 100


def test_a_hand_checked_run(tmp_path):
    game = _game(tmp_path, "table", OCCUPIED[0], 1)
    # A stone on the corner a1, a rock on b1 (neighbours n, ne, e, s, sw, w). From a1
    # to a2 the only site beside is b2 (a row of one, padded): empty, no gap. To b2
    # beside a2 and b1; on to c2 beside c3 and b1; to c1 beside d2 and b1; c1 to d1
    # has only d2 beside (empty); b2 to b3 beside a3 and c3 (empty).
    state = game.make_state({"a1": ("white", "stone"), "b1": ("neutral", "rock")}, to_move="white")
    assert game.legal_notations(state) == ["a1-b2", "a1-c1", "a1-c2"]
