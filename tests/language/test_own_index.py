"""A count as masks over a table's row read by a site X (the neighbours of X, the
sites beside the edge from X to Y) leaves out a conjunct `it != X` when no row
holds the site it is read by (compilation/site_masks.py, _without_own_index): the
same moves, no mask of every site but X made."""
import ast

from interpreter import load_game
from interpreter.compilation.site_masks import _never_holds
from tests.helpers import generated, stones_and_rocks, write_definition
from tests.language.test_paired_rows import _same_moves

YAML = stones_and_rocks(files=5, ranks=5, neighbours="[n, ne, e, s, sw, w]")
# A stone steps through a gap with one piece beside it, `{site}` not counted.
RULES = """\
phase play:
    turn: move
decision move:
    action step by stone:
        step hex
        where count(c in neighbours(from), {condition}) == 1
        onto empty: move
"""
DIRECTIONS = "directions:\n  hex: [n, ne, e, s, sw, w]\n"


def _game(tmp_path, name: str, site: str, condition: str = "c in neighbours(to) and c is occupied and c != {site}"):
    folder = tmp_path / name
    folder.mkdir()
    return load_game(write_definition(folder, YAML + DIRECTIONS, RULES.format(condition=condition.format(site=site))))


def _xors(game) -> int:
    return sum(isinstance(node.op, ast.BitXor) for node in generated(game, ast.BinOp))


def test_a_site_the_rows_never_hold_is_not_asked(tmp_path):
    by_from, by_to, other = (_game(tmp_path, name, site) for name, site in
                             (("from", "from"), ("to", "to"), ("other", "c3")))
    assert _xors(by_from) == 0 and _xors(by_to) == 0
    assert _xors(other) > 0  # (c3 is no index of the table: asked as before)
    # (the neighbours of `from` asked one by one, `c != from` asked of each)
    asked = _game(tmp_path, "asked", "from", "c is occupied and c != {site} and c in neighbours(to)")
    assert _same_moves((by_from, by_to, asked), 5) > 100


def test_a_row_holding_its_own_site_keeps_the_test():
    # (by site: 0's row holds 1, 1's holds 0; the last row is site -1's)
    assert _never_holds(((1,), (0,), ()), 1, 1)
    assert not _never_holds(((1,), (1,), ()), 1, 1)
    assert not _never_holds(((1,), (0,), (-1,)), 1, 1)
    # (by two sites: the rows beside each pair)
    table = (((), (2,), ()), ((2,), (), ()), ((), (), ()))
    assert _never_holds(table, 1, 2) and _never_holds(table, 2, 2)
    assert not _never_holds((((), (1,), ()), ((), (), ()), ((), (), ())), 2, 2)
    assert not _never_holds((((0,), (), ()), ((), (), ()), ((), (), ())), 1, 2)
