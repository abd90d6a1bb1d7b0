"""`exists(connected(X, C), it in GOAL)` is true without a search where X meets C
and fewer sites fail C than the least cut between a site and GOAL
(compilation/cut_pretest.py): the cut worked out on small tables, and random games
of a ring rule (a flood around the placed stone's group, as Havannah asks) equal to
the same definition compiled without the early answer."""
import ast

from interpreter import load_game
from interpreter.compilation import cut_pretest, expr_sets
from tests.helpers import generated, placing, play, random_games_seen, stones_and_rocks, write_definition


def _grid(files, ranks, offsets):
    rows = tuple(tuple(x + dx + (y + dy) * files for dx, dy in offsets if 0 <= x + dx < files and 0 <= y + dy < ranks)
                 for y in range(ranks) for x in range(files))
    return rows + ((),)


HEX = [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)]
ORTHOGONAL = [(0, 1), (1, 0), (0, -1), (-1, 0)]


def _edge(files, ranks):
    return frozenset(s for s in range(files * ranks) if s % files in (0, files - 1) or s // files in (0, ranks - 1))


def test_the_least_cut_between_a_site_and_the_goal():
    assert cut_pretest.least_cut(_grid(5, 5, ORTHOGONAL), _edge(5, 5)) == 4
    assert cut_pretest.least_cut(_grid(6, 5, HEX), _edge(6, 5)) == 6
    # (a goal of one site is cut off by filling it; of a side, by a corner's neighbours)
    assert cut_pretest.least_cut(_grid(4, 4, ORTHOGONAL), frozenset([0])) == 1
    assert cut_pretest.least_cut(_grid(4, 4, ORTHOGONAL), frozenset([0, 1, 2, 3])) == 2
    path = ((1,), (0, 2), (1,), ())
    assert cut_pretest.least_cut(path, frozenset([2])) == 1
    # (a site with no way to the goal, or no site outside it: no early answer)
    assert cut_pretest.least_cut(((1,), (0,), (), ()), frozenset([0])) == 0
    assert cut_pretest.least_cut(path, frozenset([0, 1, 2])) == 0
    # (one way only, 0 -> 1 -> 2: towards the goal, each has a way; away from it, none)
    assert cut_pretest.least_cut(((1,), (2,), (), ()), frozenset([2])) == 1
    assert cut_pretest.least_cut(((1,), (2,), (), ()), frozenset([0])) == 0


RING_RULES = placing("""\
                let g = group(to)
                if exists(n in neighbours(to), not exists(connected(n, RING), it in rim)):
                    win
                elif exists(g, it in top) and exists(g, it in bottom):
                    lose
""")
REGIONS = """\
regions:
  rim: {edge: true}
  top: {ranks: [5]}
  bottom: {ranks: [1]}
"""


def ring_game(tmp_path, ring="it == n or it not in g", neighbours="[n, ne, e, s, sw, w]"):
    """A placing game on a 6x5 grid whose stones win by a ring (a neighbour of the
    stone placed that `connected(n, RING)` cannot lead to the rim) and lose by a
    group joining top and bottom (test_masked_reach asks other RINGs of it)."""
    yaml = stones_and_rocks(files=6, ranks=5, extra=REGIONS).replace(
        "grid: {files: 6, ranks: 5}", f"grid: {{files: 6, ranks: 5, neighbours: {neighbours}}}")
    return write_definition(tmp_path, yaml, RING_RULES.replace("RING", ring))


def test_a_ring_of_six_stones_wins_and_five_do_not(tmp_path):
    game = load_game(ring_game(tmp_path))
    # white around c3 (c4 d4 d3 c2 b2 b3: a group of six, as many as the cut),
    # black's stones apart on the rim
    moves = ["@c4", "@a1", "@d4", "@f1", "@d3", "@a5", "@c2", "@f5", "@b2", "@e1"]
    before = play(game, *moves)
    assert not game.is_terminal(before)
    after = game.apply(before, "@b3")
    assert game.is_terminal(after) and game.result(after).winner == "white"
    # (the sixth stone elsewhere: a group of five, answered without a search)
    elsewhere = game.apply(before, "@e3")
    assert not game.is_terminal(elsewhere)


def test_a_ring_found_with_and_without_the_early_answer(tmp_path, monkeypatch):
    path = ring_game(tmp_path)
    game = load_game(path)
    # (the early answer: the group's population against the hexagonal grid's cut,
    # 6, asked once before the loop over the stone's neighbours it decides)
    assert any("bit_count() >= 6" in line for line in _source(game))
    with monkeypatch.context() as patched:
        patched.setattr(expr_sets, "decided_before", lambda *args: None)
        in_loop = load_game(path)
    # (not hoisted: asked for each neighbour inside the loop)
    assert any("bit_count() < 6" in line for line in _source(in_loop))
    assert not any("bit_count() >= 6" in line for line in _source(in_loop))
    with monkeypatch.context() as patched:
        patched.setattr(expr_sets, "early_answer", lambda *args: None)
        patched.setattr(expr_sets, "reach_answer", lambda *args: None)  # (the search, not masks)
        searched = load_game(path)
    assert not any("bit_count()" in line for line in _source(searched))
    # (the flood answered from the rim's side grown as bitmasks, compilation/masked_reach.py;
    # `searched` floods site by site)
    assert not _marks(game) and not _marks(in_loop) and _marks(searched)
    seeds = range(30)
    games = random_games_seen(game, seeds)
    assert games == random_games_seen(searched, seeds)
    assert games == random_games_seen(in_loop, seeds)
    # (rings closed, won by the player who closed them, and chains across, lost by theirs)
    last_won = {(len(seen) % 2 == 1) == (winner == "white") for seen, winner, _ in games if winner}
    assert last_won == {True, False}


def _source(game):
    return [ast.unparse(node) for node in generated(game, ast.Compare)]


def _marks(game):
    return any(node.func.id == "h_marks" for node in generated(game, ast.Call) if isinstance(node.func, ast.Name))
