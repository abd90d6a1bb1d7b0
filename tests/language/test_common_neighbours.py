"""count/exists over `neighbours(A)` whose condition first asks that the element
neighbours B: read from a table of the sites both neighbour (expr_sets
SetFamily._common_neighbours), in the order of A's neighbours. The same moves as
the condition asked of each of A's neighbours (the conjuncts the other way
round), on random positions; the table on a hand-checked grid."""
import ast
import random

from interpreter import load_game
from tests.helpers import generated, stones_and_rocks, write_definition

# A stone goes where the sites beside it and an anchor (their common
# neighbours, on a grid: at two steps) hold one piece, or where one of them is
# an enemy's; `from` counts as empty.
RULES = """\
define beside(x) = count(c in neighbours(to), {count})
define enemy_beside(x) = exists(c in neighbours(to), {exists})
phase play:
    turn: move
decision move:
    action go by stone:
        go to sites
        where beside(c3) == 1 or beside(from) == 2 or enemy_beside(b4)
        onto empty: move
"""
# The sites beside asked by the table (the neighbours test first) or of each
# neighbour (another test first).
TABLE = ("c in neighbours(x) and c is occupied and c != from", "c in neighbours(x) and c.owner == opponent")
ASKED = ("c is occupied and c in neighbours(x) and c != from", "c.owner == opponent and c in neighbours(x)")


def _game(tmp_path, name: str, conditions: tuple[str, str]):
    folder = tmp_path / name
    folder.mkdir()
    rules = RULES.format(count=conditions[0], exists=conditions[1])
    return load_game(write_definition(folder, stones_and_rocks(files=5, ranks=5), rules))


def test_the_same_moves_as_each_neighbour_asked(tmp_path):
    table, asked = _game(tmp_path, "table", TABLE), _game(tmp_path, "asked", ASKED)
    # (the table's loops: `for c in T[to][x]`, a row by two sites; the other's over `T[to]`)
    by_two = [[loop for loop in generated(game, ast.For) if isinstance(loop.iter, ast.Subscript)
               and isinstance(loop.iter.value, ast.Subscript)] for game in (table, asked)]
    assert by_two[0] and not by_two[1]
    rng, listed_any = random.Random(11), 0
    squares = [f"{f}{r}" for f in "abcde" for r in "12345"]
    for _ in range(40):
        chosen = rng.sample(squares, rng.randint(3, 14))
        placed = {sq: ("neutral", "rock") if owner == "neutral" else (owner, "stone")
                  for sq, owner in ((sq, rng.choice(["white", "black", "neutral"])) for sq in chosen)}
        for player in ("white", "black"):
            moves = [g.legal_notations(g.make_state(placed, to_move=player)) for g in (table, asked)]
            assert moves[0] == moves[1], placed
            listed_any += len(moves[0])
    assert listed_any > 100
