"""Values by player and site worked out once, when the rules are compiled, and
read from a table in the loops (compilation/tabulate.py): the tables hold what
the rules say (hand-checked on Kalah's places), and games play exactly as with
the pass switched off."""
import ast
import random

import pytest

from interpreter import load_game
from interpreter.compilation import compiler
from tests.helpers import REPO

TABLE_ORIGIN = "a loop's table"


def _tables(game) -> dict[str, object]:
    rules = game.rules
    return {name: rules.constants[name] for name, origin in rules.source_map.items()
            if TABLE_ORIGIN in str(origin)}


def test_the_older_kalah_reads_each_pits_place_from_a_table():
    # `place_of(q)`: the place of pit q in the round of the player to move, from
    # rays and rows (benchmarks/older/kalah): South's pits a1..f1 (sites 0..5)
    # are its places 0..5, North's f2..a2 (sites 11..6) its places 7..12; North
    # counts from f2.
    game = load_game(str(REPO / "benchmarks" / "older" / "kalah"))
    tables = _tables(game)
    places = ((0, 1, 2, 3, 4, 5, 12, 11, 10, 9, 8, 7), (7, 8, 9, 10, 11, 12, 5, 4, 3, 2, 1, 0))
    # (the loops' table, and the sown pit's place, `place_of(to)` with `to` the
    # action's site: one more entry, for none, -1, which `place_of` counts as
    # 7 for either player)
    assert sorted(tables.values(), key=lambda t: len(t[0])) == [places, tuple(row + (7,) for row in places)]
    (name,) = [name for name, table in tables.items() if table == places]
    (site_table,) = [name for name, table in tables.items() if table != places]
    reads = [node for node in ast.walk(game.rules.module) if isinstance(node, ast.Subscript)
             and _row_of(node.value, site_table)]
    assert reads and all(isinstance(r.slice, ast.Name) and r.slice.id == "to" for r in reads)
    # read for the sowing loop and for the capture's, by the player (the player's
    # row taken once before each loop: compilation/invariants.py)
    reads = [node for node in ast.walk(game.rules.module) if isinstance(node, ast.Subscript)
             and isinstance(node.value, ast.Name) and node.value.id == name]
    assert len(reads) == 2
    assert all(isinstance(r.slice, ast.Name) and r.slice.id == "p" for r in reads)


def _row_of(node, name: str) -> bool:
    """Whether `node` is `name[p]` (a table's row by the player)."""
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name \
        and isinstance(node.slice, ast.Name) and node.slice.id == "p"


def _playouts(path: str, seeds: range) -> list:
    game = load_game(path)
    engine = game.engine
    out = []
    for seed in seeds:
        s = engine.initial_state()
        engine.random_playout(s, random.Random(seed), 400)
        out.append((tuple(s.board), tuple(s.vars), s.result, s.ply))
    return out


@pytest.mark.parametrize("path", ["benchmarks/older/kalah", "benchmarks/games/quoridor"])
def test_games_play_as_with_the_pass_switched_off(path, monkeypatch):
    full = str(REPO / path)
    assert _tables(load_game(full)), "the pass made no table here"
    with_tables = _playouts(full, range(12))
    monkeypatch.setattr(compiler, "tabulate", lambda src, players, n_sites=0: None)
    assert not _tables(load_game(full))
    assert _playouts(full, range(12)) == with_tables


def test_a_table_by_site_alone_and_one_left_as_it_was(tmp_path):
    # `count(ray(q, e)) * 2 + 1` by site; `12 // count(ray(q, w))` fails on the a
    # file (no site west), so it is left as it was, asked only where the rules ask it.
    from tests.helpers import stones_and_rocks, write_definition
    rules = """\
        phase play:
            turn: place
        decision place:
            action stone:
                drop stone on sites
                notation "{to}"
                onto empty:
                    place
                    for each q in sites:
                        total += count(ray(q, e)) * 2 + 1
                        if count(ray(q, w)) > 0:
                            total += 12 // count(ray(q, w))
    """
    yaml = stones_and_rocks(extra="variables:\n  total: {type: int, description: A sum.}\n")
    game = load_game(write_definition(tmp_path, yaml, rules))
    tables = list(_tables(game).values())
    assert tuple(2 * (3 - site % 4) + 1 for site in range(16)) in tables
    # (the count west alone is a table too; the division by it stays in the loop)
    assert tuple(site % 4 for site in range(16)) in tables
    assert not any(table[1] == 12 for table in tables)
    s = game.apply(game.initial_state(), "a1")
    # 4 ranks of 7 + 5 + 3 + 1, and of 12 // 1 + 12 // 2 + 12 // 3 (files b, c, d)
    assert game.variables(s)["total"] == 4 * 16 + 4 * 22


def test_havannah_reads_the_sites_around_the_drop_from_a_table():
    # `neighbours(to) + to` (the outsider's Havannah, tests/data/havannah): the
    # drop's site and its neighbours, by site, in board order; a tuple, gone over
    # by the loop that asks each of them
    game = load_game(str(REPO / "tests/data/havannah/havannah4.yaml"))
    (table,) = [t for t in _tables(game).values() if len(t) == 37 + 1]
    assert table[0] == (0, 1, 4, 5)  # a1: b1, a2, b2
    assert table[10] == (4, 5, 9, 10, 11, 16, 17)  # b3: a2, b2, a3, c3, b4, c4
    assert table[-1] == ()  # (none)
