"""Playouts that leave alone the empty sites the mover's own pieces surround
(surrounded.py): the test of an action, the redraw, and the measure that keeps the
rule only where random games say it pays."""
from __future__ import annotations

import random
from typing import Any

from benchmarks.catalog import GAMES
from interpreter.frontends.agents.surrounded import Avoidance, adjacency, measure


def _go_position(black: list[str], white: list[str]) -> tuple[Any, Any]:
    game = GAMES["go"].load()
    state = game.initial_state()
    for a, b in zip(black, white):
        state = game.apply(game.apply(state, a), b)
    return game, state


def test_an_empty_site_is_surrounded_when_each_neighbour_holds_the_movers_piece():
    # Black a2, b1, c2, b3: a1 (a corner) and b2 are surrounded; White h9, i8: i9
    game, state = _go_position(["a2", "b1", "c2", "b3"], ["h9", "i8", "e6", "f6"])
    rule = Avoidance(adjacency(game))
    code = {a.notation: a.code for a in game.legal_actions(state)}
    code["i9"] = (0, -1, game.board.sites.index("i9"))  # (not Black's to play: no liberty)
    assert game.engine.to_move(state) == 0
    assert rule.surrounded(state, code["a1"], 0) and rule.surrounded(state, code["b2"], 0)
    assert rule.surrounded(state, code["i9"], 1) and not rule.surrounded(state, code["i9"], 0)
    assert not rule.surrounded(state, code["a1"], 1)  # not White's
    # c1: b1 and c2 Black's, d1 empty; e5: an empty neighbour; a pass lands nowhere
    assert not rule.surrounded(state, code["c1"], 0) and not rule.surrounded(state, code["e5"], 0)
    assert not rule.surrounded(state, code["pass"], 0)
    # a site taken is not one to land on
    assert not rule.surrounded(state, (0, -1, game.board.sites.index("a2")), 0)


def test_an_action_landing_there_is_drawn_again():
    game, state = _go_position(["a2", "b1"], ["h8", "g9"])
    rule = Avoidance(adjacency(game))
    code = {a.notation: a.code for a in game.legal_actions(state)}
    rng = random.Random(0)
    redrawn = [rule.replace(game.engine, state, code["a1"], 0, rng) for _ in range(50)]
    assert sum(c == code["a1"] for c in redrawn) <= 2  # (a1 again twice in a row: 1 in 6561)
    assert rule.replace(game.engine, state, code["e5"], 0, rng) == code["e5"]


def test_the_rule_is_kept_where_random_games_say_it_pays():
    # in random Go games a player who fills its own enclosed points loses them
    assert measure(GAMES["go"].load()) is not None
    # a stone never lands among its own in Connect Four's random games; in Breakthrough
    # a step among one's own pieces gains nothing measured
    assert measure(GAMES["connect_four"].load()) is None
    assert measure(GAMES["breakthrough"].load()) is None
