"""Random playouts that draw one candidate at a time (compilation/draws.py): the
actions the draws give are the lister's, in its order, in every position of
random games of every bundled, example and benchmark game that has them."""
from __future__ import annotations

import ast
import random
from functools import lru_cache
from pathlib import Path

import pytest

from interpreter import load_game
from tests.helpers import REPO, checks_allow, drop_where, stones_and_rocks, write_definition

DEFINITIONS = sorted(
    str(folder)
    for parent in ("games", "docs/examples", "benchmarks/games")
    for folder in (REPO / parent).iterdir()
    if (folder / f"{folder.name}.yaml").exists()
)


@lru_cache(maxsize=None)
def engine_of(path: str):
    return load_game(path).engine


def drawn_actions(engine, s) -> list:
    """What the draws give in `s`, in the lister's order (each candidate drawn
    first in turn: a `rand` that picks the first of the pool); None when its
    decision has none."""
    decision = engine.decisions[s.decision]
    if decision.is_chance or decision.draws is None or decision.alike_keys is not None:
        return None
    draw, n = decision.draws
    if decision.draws_per_element:
        return element_drawn(decision, s)
    given = []
    for candidate in range(n):
        # the pool holds this candidate only: the draw says what it gives
        code = draw(s, [candidate], lambda: 0.0, False)
        if code is not None:
            given.append(code)
    checks = engine.rules.candidate_checks  # (`forbid result`, and the `where` asked of a drawn candidate)
    if checks:
        given = checks_allow(s, given, checks[s.phase])
    return given


class _Spent(Exception):
    """The scripted random numbers ran out: the draw's first try kept nothing."""


def element_drawn(decision, s) -> list:
    """What a draw over the player's pieces keeps at its first try, over every
    piece and every number of its keeping test (compilation/draws.py,
    write_element_draws): each listed action once — as likely as any other — in
    the lister's order."""
    n, bound = len(s.occ[s.player]), decision.draws_per_element
    given = []
    for piece in range(n):
        for kept in range(bound):
            numbers = iter([(piece + 0.5) / n, (kept + 0.5) / bound])

            def rand():
                for x in numbers:
                    return x
                raise _Spent

            try:
                code = decision.draws[0](s, [], rand, False)
            except _Spent:
                continue
            assert code is not None  # (None only when a piece gives more than the bound)
            given.append(code)
    order = {code: i for i, code in enumerate(decision.legal(s))}
    return sorted(given, key=lambda code: order.get(code, -1))


def _compared_positions(path: str, plies: int, games: int) -> int:
    engine = engine_of(path)
    if not any(d.draws for d in engine.decisions):
        return -1
    compared = 0
    rng = random.Random(7)
    for _ in range(games):
        s = engine.initial_state()
        for _ in range(plies):
            if engine.is_over(s):
                break
            given = drawn_actions(engine, s)
            if given:  # (none: the whole lister decides, see Engine._draw)
                assert given == list(engine.legal(s)), (path, s.ply)
                compared += 1
            engine.apply_in_place(s, engine.pick_random(s, rng))
    return compared


@pytest.mark.parametrize("path", DEFINITIONS, ids=lambda p: Path(p).name)
def test_draws_give_the_listed_actions(path):
    compared = _compared_positions(path, plies=80, games=3)
    assert compared != 0, "draws were written but no position used them"


def test_go_pentago_othello_and_connect_four_are_drawn_not_listed():
    drawn = {Path(path).name for path in DEFINITIONS
             if any(d.draws for d in engine_of(path).decisions)}
    assert {"go", "pentago", "connect_four", "reversi", "othello"} <= drawn
    # a drop from a pool (the action's guard: the pool is not empty)
    assert "morris" in drawn
    # a drop on a region of the player's (`homes[player]`-like: padded per player)
    assert "regibus" in drawn
    # moves of the pieces on the board are listed whole, but where each piece
    # gives a few (a piece drawn, then one of its actions: write_element_draws);
    # an amazon's queen moves, 35 at most on 10 x 10, are more than MAX_PER_ELEMENT
    assert not {"chess", "checkers", "amazons"} & drawn
    per_piece = {Path(path).name: max(d.draws_per_element for d in engine_of(path).decisions)
                 for path in DEFINITIONS if Path(path).name in drawn}
    # LOA: four lines, two ways each; Breakthrough: three steps; Clobber: four;
    # Lielow: a leap each way, or off the board; Tablut: a rook's slides on 9 x 9,
    # the sites of a square's rays summed (eight each way along its rank and file
    # at a corner, four each way from the centre): not its longest ray times four
    assert {name: per_piece[name] for name in ("lines_of_action", "breakthrough", "clobber", "lielow", "tablut")} \
        == {"lines_of_action": 8, "breakthrough": 3, "clobber": 4, "lielow": 9, "tablut": 16}


def test_a_playout_draws_only_legal_actions(tmp_path):
    # A drop on empty sites of a region with a condition: draws skip the sites
    # that give nothing, and the playout ends as the lister says.
    path = write_definition(tmp_path, stones_and_rocks(), drop_where("not exists(neighbours(to), it is stone)"))
    game = load_game(path)
    engine = game.engine
    assert engine.decisions[0].draws is not None
    for seed in range(20):
        s = engine.initial_state()
        trace = engine.initial_state()
        played = engine.random_playout(s, random.Random(seed), 1000)
        assert played == s.ply
        assert engine.is_over(s) == (engine.legal(s) == [])
        # replay the same draws checking each action against the whole list
        rng = random.Random(seed)
        while not engine.is_over(trace) and trace.ply < played:
            draw, n = engine.decisions[trace.decision].draws
            code = engine._draw(trace, (draw, n, list(range(n))), rng.random, None)
            assert code in engine.legal(trace)
            engine.apply_in_place(trace, code)


def test_a_playout_lists_a_decision_whose_last_listing_gave_few_actions():
    # A draw over the pieces keeps a try's action with chance k/M: where the last
    # listing of the decision gave fewer than LIST_BELOW_PER_BOUND·M actions the
    # playout lists the next position instead, and draws again after a listing of
    # as many (Engine.random_playout). Clobber's stones thin out: both happen.
    from interpreter.runtime.engine import LIST_BELOW_PER_BOUND

    engine = load_game(str(REPO / "benchmarks" / "games" / "clobber")).engine
    few = LIST_BELOW_PER_BOUND * engine.decisions[0].draws_per_element
    assert few > 0
    tables = list(engine._playout_tables)
    listers, draws = tables[1], tables[8]
    events: list[tuple[str, int]] = []

    def listed(s):
        legal = listers[0](s)
        events.append(("list", len(legal)))
        return legal

    def drawn(s, pool, rand, cut):
        events.append(("draw", 0))
        return draws[0][0](s, pool, rand, cut)

    tables[1] = [listed]
    tables[8] = [(drawn, *draws[0][1:])]
    engine._playout_tables = tuple(tables)
    start = engine.initial_state()
    for seed in range(30):
        s = engine.copy(start)
        played = engine.random_playout(s, random.Random(seed), 1000)
        assert engine.is_over(s) and played == s.ply
    followed = {(kind, count < few, after) for (kind, count), (after, _) in zip(events, events[1:]) if kind == "list"}
    # (a listing at a playout's end is followed by the next playout's first draw)
    assert ("list", True, "list") in followed and ("list", False, "draw") in followed
    assert ("list", False, "list") not in followed


def test_the_longest_turn_is_picked_not_drawn(tmp_path):
    # The drops alone would be drawn (drops on fixed sites); with `play the longest
    # turn` only the drops that a second drop can follow are legal, so a playout
    # picks through the filter (DecisionInfo.pick) and draws nothing there.
    # a1 | rock | c1 d1 | rock | f1 g1: after a1 no empty site touches a stone.
    rules = """\
        phase play:
            turn: place, follow
        decision place:
            play the longest turn
            action stone:
                drop stone on sites
                notation "{to}"
                onto empty:
                    place
        decision follow:
            action stone:
                drop stone on sites
                where exists(neighbours(to), it is stone)
                notation "+{to}"
                onto empty:
                    place
            action stuck:
                pass if no other action
        """
    yaml = stones_and_rocks(files=7, ranks=1, extra="setup:\n  neutral: {rock: [b1, e1]}\n")
    game = load_game(write_definition(tmp_path, yaml, rules))
    engine = game.engine
    place, follow = engine.decisions[0], engine.decisions[1]
    assert place.pick is not None and place.draws is None and place.candidates is None
    assert follow.pick is None and follow.draws is not None
    assert sorted(game.legal_notations(game.initial_state())) == ["c1", "d1", "f1", "g1"]
    for seed in range(20):
        # The same draws up to the second turn's drop, which the third ply picks.
        before = engine.initial_state()
        engine.random_playout(before, random.Random(seed), 2)
        after = engine.initial_state()
        engine.random_playout(after, random.Random(seed), 3)
        assert after.ply == 3 and before.ply == 2
        kept = {engine.notation(code) for code in engine.legal(before)}
        assert "a1" not in kept
        assert engine.notation(after.last) in kept


def test_a_draw_keeps_the_pool_whole_unless_told_to_cut_it():
    # Random playouts pass one pool to every draw (no copy per ply): a draw leaves
    # it all the candidates in another order. The engine's check path cuts off
    # what was drawn, so that a forbidden action is not drawn again.
    engine = engine_of(str(Path(__file__).resolve().parents[2] / "benchmarks" / "games" / "go"))
    s = engine.initial_state()
    engine.random_playout(s, random.Random(4), 30)
    draw, n = engine.decisions[s.decision].draws
    rng = random.Random(5)
    pool = list(range(n))
    for _ in range(20):
        assert draw(s, pool, rng.random, False) in engine.legal(s)
        assert sorted(pool) == list(range(n))
    pool = list(range(n))
    seen = []
    while (code := draw(s, pool, rng.random, True)) is not None:
        assert code in engine.legal(s) and code not in seen
        seen.append(code)
        assert len(pool) == n - len(set(pool) ^ set(range(n)))
    assert sorted(seen) == sorted(engine.legal(s))


SLIDES_YAML = """\
game: probe
title: Probe
description: Tiles that slide as far as they go, in one of four directions.
rules: game.rules
players: [solo]
board:
  grid: {files: 3, ranks: 3}
pieces:
  tile: {symbol: T, owner: neutral}
setup:
  neutral:
    tile: [a1, b2]
"""
SLIDE = """\
    action DIR_name:
        where exists(pieces, neighbour(it, DIR) is empty)
        pass:
            for each t in pieces:
                if neighbour(t, DIR) is empty:
                    move t to neighbour(t, DIR)
        notation "DIR"
"""


def test_a_where_of_an_action_offered_once_is_asked_when_it_is_drawn(tmp_path):
    # Each action's `where` asks nothing of a candidate: the lister works them all
    # out first; the draw works out one when it draws its action (draws._lazy).
    rules = "phase play:\n    turn: slide\n    if no action:\n        end game\ndecision slide:\n"
    rules += "".join(SLIDE.replace("DIR", direction) for direction in ("n", "e", "s", "w"))
    game = load_game(write_definition(tmp_path, SLIDES_YAML, rules))
    engine = game.engine
    draw, n = engine.decisions[0].draws
    assert n == 4
    function = next(f for f in game.rules.module.body if getattr(f, "name", None) == draw.__name__)
    before_the_draws = function.body[:next(i for i, stmt in enumerate(function.body) if isinstance(stmt, ast.While))]
    assert not [stmt for stmt in before_the_draws if isinstance(stmt, ast.For)]
    rng = random.Random(3)
    s = engine.initial_state()
    for _ in range(60):
        assert drawn_actions(engine, s) == list(engine.legal(s))
        engine.apply_in_place(s, engine.pick_random(s, rng))


def test_a_playout_drops_the_taken_sites_of_a_region_from_its_pool_for_good():
    # Y on a grid (a drop on the region `cells`, nothing ever emptied): a playout's
    # pool loses the taken sites its draws find (None for `cut`: sites stay
    # taken), never a candidate that gives an action, and the draws stay uniform
    # over the legal actions (a chi-square over 20,000 draws in one position).
    engine = engine_of(str(REPO / "tests" / "data" / "y"))
    assert engine.rules.sites_stay_taken
    assert not engine_of(str(REPO / "benchmarks" / "games" / "go")).rules.sites_stay_taken
    s = engine.initial_state()
    engine.random_playout(s, random.Random(3), 25)
    assert not engine.is_over(s)
    decision = engine.decisions[s.decision]
    assert not decision.draws_from_empty
    draw, n = decision.draws
    legal = list(engine.legal(s))
    counts = dict.fromkeys(legal, 0)
    rng = random.Random(11)
    pool = list(range(n))
    kept = set(pool)
    for _ in range(20_000):
        code = draw(s, pool, rng.random, None)
        counts[code] += 1
        assert set(pool) <= kept and len(set(pool)) == len(pool)
        kept = set(pool)
    # what left the pool gives no action; what gives one is all still there
    assert len(pool) < n
    assert sorted(code for c in range(n) if (code := draw(s, [c], lambda: 0.0, False)) is not None) \
        == sorted(code for c in pool if (code := draw(s, [c], lambda: 0.0, False)) is not None) == sorted(legal)
    expected = 20_000 / len(legal)
    chi2 = sum((seen - expected) ** 2 / expected for seen in counts.values())
    assert len(legal) == 20 and chi2 < 43.8  # (chi-square, 19 degrees of freedom, p = 0.001)
    # given False (sites may be emptied), the pool keeps every candidate
    pool = list(range(n))
    for _ in range(50):
        draw(s, pool, rng.random, False)
        assert sorted(pool) == list(range(n))


@pytest.mark.parametrize("effects, stays", [
    ("place", True),
    ("place\nfor each r in neighbours(to):\n    if r is rock:\n        remove r", False),
])
def test_sites_stay_taken_where_no_rule_empties_one(tmp_path, effects, stays):
    yaml = stones_and_rocks(extra="setup:\n  neutral: {rock: [b2]}\n")
    game = load_game(write_definition(tmp_path, yaml, drop_where("true", effects)))
    assert game.engine.rules.sites_stay_taken is stays
    for seed in range(5):
        s = game.engine.initial_state()
        game.engine.random_playout(s, random.Random(seed), 100)
        assert game.engine.is_over(s)
