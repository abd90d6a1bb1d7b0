"""`connected(X, COND)` and `connected(X, DIRS, COND)` (docs/format.md 3.12.2):
the sites reached from X through neighbours where COND holds — regions of empty
sites (territory), whether a path to a goal exists."""
import ast

import pytest

from interpreter import load_game
from interpreter.compilation import counted_reach
from interpreter.frontends.cli import main
from tests.helpers import drop_where, helper_calls, stones_and_rocks, write_definition

# 4 x 4, white stones on a1 and b2, black on c3, d3 and c4:
#   4  .  .  b  .
#   3  .  .  b  b
#   2  .  w  .  .
#   1  w  .  .  .
#      a  b  c  d
SETUP = "setup:\n  white:\n    stone: [a1, b2]\n  black:\n    stone: [c3, d3, c4]\n"
AREA = """\
define reaches(s, p) = exists(connected(s, it is empty), exists(neighbours(it), it.owner == p))
define area(p, q) = count(pieces of p) + count(s in sites, s is empty and reaches(s, p) and not reaches(s, q))
"""


def probe(tmp_path, rules: str, extra: str = SETUP, **size):
    return load_game(write_definition(tmp_path, stones_and_rocks(extra=extra, **size), rules))


def test_territory_counts_the_empty_regions_that_reach_one_colour(tmp_path):
    game = probe(tmp_path, AREA + drop_where("true") + "score: area(player, opponent)\n")
    # d4 is black's (it touches black stones only); the other two regions touch both.
    assert game.engine.scores(game.initial_state()) == (2, 4)


def test_a_path_through_empty_sites_to_a_region(tmp_path):
    # A drop is legal where an orthogonal path of empty sites leads to rank 4
    # (`to` itself counts as open).
    where = "exists(connected(to, orthogonal, it is empty or it == to), it in top)"
    game = probe(tmp_path, drop_where(where), extra=SETUP + "regions:\n  top: {ranks: [4]}\n")
    assert game.legal_notations(game.initial_state()) == ["a2", "a3", "a4", "b3", "b4", "d4"]


def test_directions_choose_the_neighbours(tmp_path):
    # White's stones a1 and b2 touch diagonally only.
    def legal(where: str) -> list:
        game = probe(tmp_path, drop_where(where))
        return game.legal_notations(game.initial_state())

    assert legal("count(connected(a1, orthogonal, it is own)) == 1")
    assert not legal("count(connected(a1, orthogonal, it is own)) == 2")
    assert legal("count(connected(a1, all, it is own)) == 2")


@pytest.mark.parametrize("start, count", [
    ("a1", 1),  # a1's orthogonal neighbours b1 and a2 are empty
    ("c3", 3),  # black's group
    ("b3", 0),  # a start that fails the condition starts nothing
    ("none", 0),
    ("[a1, b2]", 2),  # a set of sites: both white stones, though not joined
    ("pieces of black", 3),
])
def test_the_start_is_in_it_when_it_meets_the_condition(tmp_path, start, count):
    game = probe(tmp_path, drop_where(f"count(connected({start}, it is occupied)) == {count}"))
    assert len(game.legal_notations(game.initial_state())) == 11, start


def test_its_sites_come_in_board_order(tmp_path):
    # for each: the first site reached from d3 is c3 in board order, not d3.
    rules = drop_where("first(connected(d3, it is occupied)) == c3 and to == d4")
    assert probe(tmp_path, rules).legal_notations(probe(tmp_path, rules).initial_state()) == ["d4"]
    counted = drop_where("true", effects="place\nfor each s in connected(to, it is empty or it == to):\n"
                                         "    create stone at s")
    game = probe(tmp_path, counted)
    state = game.apply(game.initial_state(), "a2")
    # a1, b2, and the region of a2: a2 (`to`), a3, a4, b3, b4
    assert sorted(p.site for p in game.pieces(state) if p.owner == "white") == ["a1", "a2", "a3", "a4", "b2", "b3",
                                                                                "b4"]


def test_exists_stops_the_search_at_the_first_site_found(tmp_path):
    # The quantifier's test runs inside the search: no list is made, no sorting.
    game = probe(tmp_path, drop_where("exists(connected(to, it is empty), it in [a4])"))
    assert game.legal_notations(game.initial_state()) == ["a2", "a3", "a4", "b3", "b4"]
    assert not helper_calls(game, "sorted", ": the legal actions")


def test_outside_lowered_code_the_condition_is_asked_of_every_site_first(tmp_path):
    # A `forbid landing` condition is one expression (no statements before it).
    rules = drop_where("true") + "forbid landing where count(connected(site, it is empty)) < 3\n"
    game = probe(tmp_path, rules)
    assert helper_calls(game, "h_flood")
    assert game.legal_notations(game.initial_state()) == ["a2", "a3", "a4", "b1", "b3", "b4", "c1", "c2", "d1",
                                                          "d2"]


def test_a_move_to_the_sites_a_flood_reaches_asks_only_those(tmp_path):
    # An ant's run: to any empty site reached through empty sites. The targets are
    # worked out by loops before them, which ask the sites the flood reaches only
    # (b2's region: the other seven empty sites around the black stones are not
    # asked), not by a helper given the condition of all sixteen sites first.
    rules = """\
phase play:
    turn: run
decision run:
    action run by stone:
        go to connected(from, it is empty or it == from) - [from]
        notation "{from}-{to}"
        onto empty: move
"""
    game = probe(tmp_path, rules)
    assert not helper_calls(game, "h_flood")
    moves = game.legal_notations(game.initial_state())
    # a1 and b2 share the region of every empty site: a2 a3 a4 b1 b3 b4 c1 c2 d1 d2 d4
    # is not in it (c4, d3 and c3 fence it off).
    reached = ["a2", "a3", "a4", "b1", "b3", "b4", "c1", "c2", "d1", "d2"]
    assert sorted(moves) == sorted([f"a1-{s}" for s in reached] + [f"b2-{s}" for s in reached])


def test_on_a_graph_board(tmp_path):
    yaml = stones_and_rocks().replace("  grid: {files: 4, ranks: 4}",
                                      "  graph:\n    sites: {p: null, q: null, r: null, s: null}\n"
                                      "    edges: [[p, q, r]]")
    game = load_game(write_definition(tmp_path, yaml, drop_where("count(connected(to, it is empty)) == 3")))
    assert game.legal_notations(game.initial_state()) == ["p", "q", "r"]


@pytest.mark.parametrize("where, message", [
    ("exists(connected(to))", "'connected' takes 2 or 3 argument(s), found 1"),
    ("exists(connected(1, it is empty))", "the first argument of 'connected' must be a site or a set of sites, "
                                          "found a number (1)"),
    ("exists(connected(to, 3, it is empty))", "the second argument of 'connected' must be directions, found a number"),
    ("exists(connected(to, players))", "expected a condition, found a set of players"),
])
def test_mistakes_are_located(tmp_path, capsys, where, message):
    write_definition(tmp_path, stones_and_rocks(), drop_where(where))
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"error: {message}" in err, err


def test_directions_need_a_grid(tmp_path, capsys):
    yaml = stones_and_rocks().replace("  grid: {files: 4, ranks: 4}",
                                      "  graph:\n    sites: {p: null, q: null}\n    edges: [[p, q]]")
    write_definition(tmp_path, yaml, drop_where("exists(connected(to, all, it is empty))"))
    assert main(["validate", str(tmp_path)]) == 1
    assert "'connected(site, directions, condition)' needs a grid board" in capsys.readouterr().err


def test_directions_of_each_player(tmp_path):
    # `forward`: north for white, south for black; from a1 white reaches a2 .. a4.
    yaml = stones_and_rocks(extra="").replace("  - {name: white}", "  - {name: white, forward: n}").replace(
        "  - {name: black}", "  - {name: black, forward: s}")
    rules = drop_where("count(connected(a1, forward, it is empty or it == a1)) == 4")
    game = load_game(write_definition(tmp_path, yaml, rules))
    assert len(game.legal_notations(game.initial_state())) == 16


# A path test asked again and again (`forbid result`: a stone must leave a1 a way
# to the top rank): the path found last is tried first and searched again only
# when the position touched it. The answers must be those of a fresh search.
WAY = """\
define open_way = exists(connected(a1, orthogonal, it is empty or it == a1), it in top)
forbid result where not open_way
"""


def _open_way(stones: set, files: str = "abcd", ranks: int = 4) -> bool:
    """A search of its own: from a1 through empty sites to the top rank."""
    seen, todo = {"a1"}, ["a1"]
    while todo:
        site = todo.pop()
        if site[1:] == str(ranks):
            return True
        f, r = files.index(site[0]), int(site[1:])
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= f + df < len(files) and 1 <= r + dr <= ranks:
                near = f"{files[f + df]}{r + dr}"
                if near not in seen and near not in stones:
                    seen.add(near)
                    todo.append(near)
    return False


def test_a_kept_path_is_searched_again_once_the_position_touches_it(tmp_path):
    game = probe(tmp_path, WAY + drop_where("to != a1"), extra="regions:\n  top: {ranks: [4]}\n")
    assert helper_calls(game, "h_keep_path")
    state = game.initial_state()
    for site in ("a3", "b3", "c3"):
        state = game.apply(state, site)
    #   4  .  .  .  .
    #   3  w  b  w  .      the way from a1 leads through d2, d3 and d4
    #   2  .  .  .  .
    #   1  .  .  .  .
    assert game.legal_notations(state) == ["a2", "a4", "b1", "b2", "b4", "c1", "c2", "c4", "d1"]
    state = game.apply(state, "d1")
    # c2 closes it too now: a1 reaches d2 by b2, c2 only (c1 is shut in by d1)
    assert game.legal_notations(state) == ["a2", "a4", "b1", "b2", "b4", "c1", "c4"]


def test_kept_paths_answer_as_a_fresh_search_over_random_games(tmp_path):
    import random

    game = probe(tmp_path, WAY + drop_where("to != a1"), extra="regions:\n  top: {ranks: [4]}\n")
    sites = [f"{f}{r}" for f in "abcd" for r in range(1, 5) if f"{f}{r}" != "a1"]
    rng = random.Random(5)
    checked = 0
    for _ in range(30):
        state = game.initial_state()
        while True:
            stones = {p.site for p in game.pieces(state)}
            expected = sorted(s for s in sites if s not in stones and _open_way(stones | {s}))
            assert sorted(game.legal_notations(state)) == expected, stones
            checked += 1
            if not expected:
                break
            state = game.apply(state, rng.choice(expected))
    assert checked > 200


# Scores asking a question of each site's region (the flood's answer is noted for
# the region's sites: expr_sets.SetFamily._answered), against the same questions
# answered here from scratch, over random games on 5 x 5.
ALL_SITES = [f"{f}{r}" for f in "abcde" for r in range(1, 6)]


def _orthogonal(site: str) -> list:
    f, r = "abcde".index(site[0]), int(site[1:])
    return [f"{'abcde'[f + df]}{r + dr}" for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= f + df < 5 and 1 <= r + dr <= 5]


def _region(owners: dict, start: str, neighbours=_orthogonal) -> list:
    if start in owners:
        return []
    found, todo = {start}, [start]
    while todo:
        for near in neighbours(todo.pop()):
            if near not in found and near not in owners:
                found.add(near)
                todo.append(near)
    return sorted(found)


def _reaches(owners: dict, s: str, p: str) -> bool:
    return any(owners.get(n) == p for t in _region(owners, s) for n in _orthogonal(t))


def _north(site: str) -> list:
    return [f"{site[0]}{int(site[1:]) + 1}"] if int(site[1:]) < 5 else []


REGION_SCORES = [
    # (score rule, its value for player p (opponent q) from the owners by site)
    ("area(player, opponent)", lambda o, p, q: sum(1 for s in ALL_SITES if o.get(s) == p) + sum(
        1 for s in ALL_SITES if s not in o and _reaches(o, s, p) and not _reaches(o, s, q))),
    # count: the empty sites in regions of three sites or more
    ("count(s in sites, count(connected(s, it is empty), true) >= 3)",
     lambda o, p, q: sum(1 for s in ALL_SITES if len(_region(o, s)) >= 3)),
    # all: the empty sites whose region's every site touches the player's stones
    ("count(s in sites, s is empty and all(connected(s, it is empty), exists(neighbours(it), it.owner == player)))",
     lambda o, p, q: sum(1 for s in ALL_SITES if s not in o and all(
         any(o.get(n) == p for n in _orthogonal(t)) for t in _region(o, s)))),
    # a question of the start (not the same for the sites of one region)
    ("count(s in sites, exists(connected(s, it is empty), it != s and not (it in neighbours(s))))",
     lambda o, p, q: sum(1 for s in ALL_SITES if any(t != s and t not in _orthogonal(s) for t in _region(o, s)))),
    # a flood one way (north only: the sites it finds do not reach what the start reaches)
    ("count(s in sites, exists(connected(s, n, it is empty), exists(neighbours(it), it.owner == player)))",
     lambda o, p, q: sum(1 for s in ALL_SITES if any(o.get(n) == p for t in _region(o, s, _north)
                                                     for n in _orthogonal(t)))),
    ("count(s in sites, count(connected(s, n, it is empty), true) >= 3)",
     lambda o, p, q: sum(1 for s in ALL_SITES if len(_region(o, s, _north)) >= 3)),
    # the same flood asked of the player and of one colour (shared by the players' calls
    # only where the colour asked is the same)
    ("count(s in sites, s is empty and reaches(s, player) and not reaches(s, white))",
     lambda o, p, q: sum(1 for s in ALL_SITES if s not in o and _reaches(o, s, p) and not _reaches(o, s, "white"))),
    ("count(s in sites, s is empty and reaches(s, opponent)) * 100 + count(s in sites, s is empty and "
     "reaches(s, player) and not reaches(s, black))",
     lambda o, p, q: 100 * sum(1 for s in ALL_SITES if s not in o and _reaches(o, s, q)) + sum(
         1 for s in ALL_SITES if s not in o and _reaches(o, s, p) and not _reaches(o, s, "black"))),
    # a flood reading the player elsewhere than in a comparison (the key is its value)
    ("count(s in sites, exists(connected(s, it is empty), count(pieces of player) > 3))",
     lambda o, p, q: sum(1 for s in ALL_SITES if s not in o) if sum(1 for v in o.values() if v == p) > 3 else 0),
]


@pytest.mark.parametrize("score, expected", REGION_SCORES)
def test_region_questions_over_random_games(tmp_path, score, expected):
    import random

    defines = AREA if "area(" in score or "reaches(" in score else ""
    game = probe(tmp_path, defines + drop_where("true") + f"score: {score}\n", extra="", files=5, ranks=5)
    rng = random.Random(3)
    for _ in range(12):
        state = game.initial_state()
        for _ in range(rng.randrange(1, 24)):
            owners = {p.site: p.owner for p in game.pieces(state)}
            assert game.engine.scores(state) == tuple(expected(owners, p, q) for p, q in (
                ("white", "black"), ("black", "white"))), (score, owners)
            state = game.apply(state, rng.choice(game.legal_notations(state)))


def test_a_region_is_flooded_once_for_all_its_sites(tmp_path, monkeypatch):
    # (the area counted as masks where it can be: counted_reach.py; the floods region by region otherwise)
    assert not helper_calls(probe(tmp_path, AREA + drop_where("true") + "score: area(player, opponent)\n"),
                            "h_region_note")
    monkeypatch.setattr(counted_reach, "ENABLED", False)
    game = probe(tmp_path, AREA + drop_where("true") + "score: area(player, opponent)\n")
    assert len(helper_calls(game, "h_region_note")) == 2  # (reaches(s, p), reaches(s, q))
    one_way = probe(tmp_path, drop_where("true") + "score: count(s in sites, exists(connected(s, n, "
                                                   "it is empty), exists(neighbours(it), it.owner == player)))\n")
    assert not helper_calls(one_way, "h_region_note")


def test_the_players_calls_of_the_score_share_the_regions_answers(tmp_path, monkeypatch):
    # reaches(s, p) and reaches(s, q) are one flood asked of two values: the first
    # player's call floods each region for both, the second's reads them (where the
    # count is not made of masks: counted_reach.py)
    monkeypatch.setattr(counted_reach, "ENABLED", False)
    game = probe(tmp_path, AREA + drop_where("true") + "score: area(player, opponent)\n")
    shared = helper_calls(game, "h_shared_notes")
    assert len(shared) == 2 and {ast.unparse(call.args[1]) for call in shared} == {"(0, p)", "(0, q)"}
    # a flood that reads another name than the player keeps its answers for the
    # call alone (here each player of a loop around)
    alone = probe(tmp_path, AREA + drop_where("true") + "score: count(c in players, count(s in sites, "
                                                        "reaches(s, c)))\n")
    assert helper_calls(alone, "h_region_note") and not helper_calls(alone, "h_shared_notes")
    # a flood reading no player: one key for both calls
    sizes = probe(tmp_path, drop_where("true") + "score: count(s in sites, count(connected(s, it is empty), "
                                                 "true) >= 3)\n")
    assert [ast.unparse(call.args[1]) for call in helper_calls(sizes, "h_shared_notes")] == ["(0,)"]
