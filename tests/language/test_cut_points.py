"""`count(connected(S, C and it != X))` in a lister's `where`: the region of S
where C holds is searched once per listing for its cut points
(helpers.cut_structure) and every count after reads how many sites X's removal
leaves with S (helpers.count_without). Checked against a flood on random
graphs, and in a game against the same rules spelled so that the count floods
(`count(..., true)`) on random positions."""
import random

from interpreter import load_game
from interpreter.runtime.helpers import count_without, cut_structure
from tests.helpers import helper_calls, stones_and_rocks, write_definition


def _flood(adjacent, inside, seed) -> int:
    if seed not in inside:
        return 0
    found, todo = {seed}, [seed]
    while todo:
        for t in adjacent[todo.pop()]:
            if t in inside and t not in found:
                found.add(t)
                todo.append(t)
    return len(found)


def test_the_count_without_a_site_is_the_floods_on_random_graphs():
    rng = random.Random(7)
    for _ in range(60):
        n = rng.randint(1, 14)
        edges = {(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.25}
        adjacent = tuple(tuple(sorted({b for a2, b in edges if a2 == a} | {a2 for a2, b in edges if b == a}))
                         for a in range(n))
        region = {s for s in range(n) if rng.random() < 0.7}
        table: dict = {}
        for seed in range(n):
            if seed not in table:
                found = [seed] if seed in region else []
                for s in found:  # (the flood's order: the search is rooted at the seed)
                    found.extend(t for t in adjacent[s] if t in region and t not in found)
                cut_structure(adjacent, found, table)
            for without in [-1, *range(n)]:
                assert count_without(table.get(seed), seed, without) == \
                    _flood(adjacent, region - {without}, seed), (adjacent, region, seed, without)


# A piece may step where the others stay in one group (a neighbour's group
# without it is all the others) and, besides, be counted from c3.
RULES = """\
define neighbour_piece = first(pieces where it != from and it in neighbours(from))
define others = count(connected(neighbour_piece, it is occupied and it != from){tail})
define from_c3 = count(connected(c3, it is occupied and it != from){tail})
phase play:
    turn: move
decision move:
    action step by stone:
        where others == count(pieces) - 1
        walk 1 steps, each step a to b where b is empty
        onto empty: move
    action far by stone:
        where from_c3 >= 4 and from_c3 < 7
        walk 2 steps, each step a to b where b is empty
        notation "{{from}}~{{to}}"
        onto empty: move
"""


def test_the_same_moves_as_the_flood_on_random_positions(tmp_path):
    games = []
    for name, tail in (("cuts", ""), ("flood", ", true")):
        rules = RULES.format(tail=tail)
        folder = tmp_path / name
        folder.mkdir()
        games.append(load_game(write_definition(folder, stones_and_rocks(files=5, ranks=5), rules)))
    cuts, flood = games
    assert helper_calls(cuts, "h_count_without") and not helper_calls(flood, "h_count_without")
    rng, kinds = random.Random(3), set()
    squares = [f"{f}{r}" for f in "abcde" for r in "12345"]
    for _ in range(40):
        chosen = rng.sample(squares, rng.randint(6, 18))
        placed = {sq: (rng.choice(["white", "black", "neutral"]), "stone") for sq in chosen}
        placed = {sq: ("neutral", "rock") if owner == "neutral" else (owner, kind)
                  for sq, (owner, kind) in placed.items()}
        for player in ("white", "black"):
            listed = [g.legal_notations(g.make_state(placed, to_move=player)) for g in games]
            assert listed[0] == listed[1], placed
            kinds |= {"~" in n for n in listed[0]}
    assert kinds == {True, False}  # (both actions listed somewhere)
