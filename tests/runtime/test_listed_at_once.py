"""A lister's loop that only appends, written as one list comprehension, and
perft's last ply counting a drop onto every empty site of a fixed set on the
board without listing it (compilation/listed_at_once.py, helpers.empty_counter,
Engine.perft): the same lists in the same order, the same counts."""
import ast
import random
from types import SimpleNamespace

import pytest

from interpreter import load_game
from interpreter.compilation import compiler, decisions, pyast
from interpreter.compilation.listed_at_once import listed_at_once
from interpreter.runtime.helpers import empty_counter
from tests.helpers import REPO, legal_codes_seen, placing, stones_and_rocks, write_definition

# Three in a row wins: a position's children may end the game (then they have no
# actions), and a full board is a draw (no action: settled as before).
ROW_OF_THREE = placing("""
    if exists(d in orthogonal, count(ray(to, d, it is own)) + count(ray(to, opposite(d), it is own)) >= 2):
        win
""")
# The same on a region of sites apart from each other (read one by one).
SCATTERED = ROW_OF_THREE.replace("drop stone on sites", "drop stone on scattered")
SCATTERED_YAML = "regions:\n  scattered: [a1, c1, d1, b2, d2, a3, c3, b4, c4, d4]\n"


def _comprehended(game) -> bool:
    return any(isinstance(node, ast.ListComp) for f in game.rules.module.body if isinstance(f, ast.FunctionDef)
               and "the legal actions" in str(game.rules.source_map.get(f.name, "")) for node in ast.walk(f))


@pytest.mark.parametrize("path", ["docs/examples/hex", "benchmarks/games/pentago", "games/royalfiz"])
def test_placements_list_as_without_the_pass(monkeypatch, path):
    game = load_game(str(REPO / path))
    assert _comprehended(game)
    seen = legal_codes_seen(game, range(3))
    monkeypatch.setattr(decisions, "listed_at_once", lambda body, value: body)
    plain = load_game(str(REPO / path))
    assert not _comprehended(plain)
    assert legal_codes_seen(plain, range(3)) == seen


def _perfts_along_a_game(game, depth: int, seed: int) -> list[list[int]]:
    engine, rng, out = game.engine, random.Random(seed), []
    s = engine.initial_state()
    while s.result is None:
        out.append(engine.perft(s, depth))
        legal = engine.legal(s)
        engine.apply_in_place(s, legal[int(rng.random() * len(legal))])
    return out


@pytest.mark.parametrize("yaml,rules", [(stones_and_rocks(), ROW_OF_THREE),
                                        (stones_and_rocks(extra=SCATTERED_YAML), SCATTERED)])
def test_perft_counts_as_when_its_last_ply_is_listed(tmp_path, monkeypatch, yaml, rules):
    path = write_definition(tmp_path, yaml, rules)
    game = load_game(path)
    assert game.engine.decisions[0].counted is not None
    counted = _perfts_along_a_game(game, 3, 5)
    if rules is ROW_OF_THREE:
        # (by hand: 16 empty sites, no row of three before a player's third stone)
        assert counted[0] == [16, 16 * 15, 16 * 15 * 14]
    monkeypatch.setattr(compiler.Compiler, "_counted", lambda self, legal, lister, namespace: None)
    listed = load_game(path)
    assert listed.engine.decisions[0].counted is None
    assert _perfts_along_a_game(listed, 3, 5) == counted


def test_children_that_end_the_game_count_nothing(tmp_path):
    game = load_game(write_definition(tmp_path, stones_and_rocks(files=3, ranks=3), ROW_OF_THREE))
    assert game.engine.decisions[0].counted is not None
    counts = game.engine.perft(game.initial_state(), 6)
    # (the first player's third stone may make a row: those children have no action)
    assert counts[:5] == [9, 9 * 8, 9 * 8 * 7, 9 * 8 * 7 * 6, 9 * 8 * 7 * 6 * 5]
    # (by hand: the first player's three stones on one of the 6 lines, in 3! orders,
    # the second's two on the 6 other sites in 6 × 5 ways — each of those games won
    # at ply 5 loses the 4 actions it would have had)
    assert counts[5] == 9 * 8 * 7 * 6 * 5 * 4 - 6 * (3 * 2) * (6 * 5) * 4


def test_a_lister_with_a_where_is_not_counted_as_the_empty_sites(tmp_path):
    rules = ROW_OF_THREE.replace("drop stone on sites", "drop stone on sites\n        where to != a1")
    game = load_game(write_definition(tmp_path, stones_and_rocks(), rules))
    # (but by its counter, which asks the `where`: compilation/counted_listing.py)
    counted = game.engine.decisions[0].counted
    assert counted is not None and "counted, not listed" in str(game.rules.source_map[counted.__name__])
    assert game.engine.perft(game.initial_state(), 2) == [15, 15 * 14]


# Copies of one drop for each of two regions (their notations apart) and a drop on
# the west file: the lister's three comprehensions over the empty sites of two sets.
COPIES_YAML = "regions:\n  low: [a1, b1]\n  high: [a4]\n  west: [a1, a2, a3, a4]\n"
COPIES = """phase play:
    turn: place
    if no action:
        draw

decision place:
    action marked for each r in [low, high]:
        drop stone on sites
        notation "{to}{r}"
        onto empty:
            place
            if exists(d in orthogonal, count(ray(to, d, it is own)) + count(ray(to, opposite(d), it is own)) >= 2):
                win
    action edge:
        drop stone on west
        notation "{to}!"
        onto empty:
            place
"""


def test_copies_of_a_drop_are_counted_as_the_empty_sites_of_each(tmp_path, monkeypatch):
    path = write_definition(tmp_path, stones_and_rocks(extra=COPIES_YAML), COPIES)
    game = load_game(path)
    counted = game.engine.decisions[0].counted
    # (by the empty sites of each set, not by a generated counter)
    assert counted is not None and counted.__name__ not in game.rules.source_map
    along = _perfts_along_a_game(game, 3, 11)
    # (by hand: 16 + 16 + 4 at the start; after a stone on x, 15 + 15 and the west
    # file's 4 less x if x is on it — 12 of the 36 first actions put one there)
    assert along[0][:2] == [36, 36 * 34 - 12]
    monkeypatch.setattr(compiler.Compiler, "_counted", lambda self, legal, lister, namespace: None)
    listed = load_game(path)
    assert listed.engine.decisions[0].counted is None
    assert _perfts_along_a_game(listed, 3, 11) == along


@pytest.mark.parametrize("sites", [tuple(range(16)), (3, 4, 5, 6), (0, 2, 5, 7, 8, 13, 15), (9,)])
def test_the_count_of_empty_sites(sites):
    count = empty_counter(sites, 16)
    rng = random.Random(7)
    for pieces in range(17):
        # (a position's pieces: the board and each owner's sites; few read from the
        # lists, many from the board)
        taken = rng.sample(range(16), pieces)
        board = [None] * 17
        occ = [[], [], []]
        for site in taken:
            owner = rng.randrange(3)
            board[site] = (owner if owner < 2 else -1, 0, 1)
            occ[owner].append(site)
        position = SimpleNamespace(board=board, occ=occ)
        assert count(position) == sum(board[site] is None for site in sites)


LOOP = """
out = []
for to in k1:
    tg = b[to]
    if tg is None:
        out.append(k2[to])
"""


def _body(text: str) -> list[ast.stmt]:
    return ast.parse(text).body


def _value(node):
    return (1, 2) if pyast.is_name(node, "k1") else None


@pytest.mark.parametrize("after,kept", [
    ("return out", False),
    # (the loop's variable, or its local, read after it: its last value is gone)
    ("x = to\nreturn out", True),
    ("x = tg\nreturn out", True),
    # (a later loop over a constant that sets them first: as before)
    ("for to in k1:\n    tg = b[to]\n    if tg is None:\n        out.append(k2[to])\nreturn out", False),
    # (a later loop that may not run: `tg` would be the first loop's)
    ("for to in s.empty:\n    x = tg\nreturn out", True),
])
def test_a_loop_whose_variables_are_read_after_it_is_kept(after, kept):
    body = _body(LOOP + after)
    rewritten = listed_at_once(body, _value)
    assert (rewritten is body) == kept
    if not kept:
        assert isinstance(rewritten[0], ast.Assign) and isinstance(rewritten[0].value, ast.ListComp)
        assert "b[to] is None" in ast.unparse(rewritten[0].value)


@pytest.mark.parametrize("body", [
    # (a test that calls: it may do anything)
    "out = []\nfor to in k1:\n    if h_free(to):\n        out.append(k2[to])\nreturn out",
    # (more than the append)
    "out = []\nfor to in k1:\n    if b[to] is None:\n        out.append(k2[to])\n        n += 1\nreturn out",
    # (an `else`)
    "out = []\nfor to in k1:\n    if b[to] is None:\n        out.append(k2[to])\n    else:\n        n += 1\nreturn out",
])
def test_loops_that_do_more_than_list_are_kept(body):
    tree = _body(body)
    assert listed_at_once(tree, _value) is tree


def test_actions_listed_before_are_kept():
    body = _body("out = [k3]\n" + LOOP.replace("out = []\n", "") + "return out")
    rewritten = listed_at_once(body, _value)
    assert isinstance(rewritten[1], ast.AugAssign) and isinstance(rewritten[1].value, ast.ListComp)
