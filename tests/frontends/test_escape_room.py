"""The room of the pieces whose move to a site wins (evaluation.Escape) and the
choice that leaves it the least (safety.prefer_room), on a Tablut position
checked by hand (test_playout_blocks.ONE_LINE: the king on f7, its one free line
to a7)."""
from __future__ import annotations

import random

from benchmarks.catalog import GAMES
from interpreter import load_game
from interpreter.frontends.agents.evaluation import learn_with_escape
from interpreter.frontends.agents.playout import Tactics
from interpreter.frontends.agents.safety import prefer_room
from interpreter.frontends.agents.search import Search
from interpreter.frontends.agents.tree import loses_for

from .test_playout_blocks import ONE_LINE


def test_the_goal_pieces_are_the_kings_and_their_goals_the_edge():
    game = load_game("tablut")
    escape = learn_with_escape(game)[1]
    assert escape is not None
    attackers, defenders = escape.goals
    assert attackers is None  # (their wins take the king: sixteen soldiers, no piece of few)
    assert defenders is not None
    kinds, goals = defenders
    names = {game.board.sites[s] for s in goals}
    edge = {f"{f}{r}" for f in "abcdefghi" for r in "19"} | {f"{f}{r}" for f in "ai" for r in "123456789"}
    assert names <= edge and len(names) >= 24  # (the random games' escapes: the corners are never reached first)
    assert {"a7", "a6", "a8", "b9", "c9", "c1", "d1"} <= names


def test_the_kings_room_counted_by_hand():
    game = load_game("tablut")
    escape = learn_with_escape(game)[1]
    assert escape is not None
    state = game.parse_position(ONE_LINE)
    # one move: e7, d7, c7, b7, a7 (the edge); from d7: d1, a7; c7: c9, c1, a7; b7: b9, a7;
    # a7: a8, a6 — four forks, seven edge sites in two moves, one in one
    assert escape.room(state, game.players.index("defenders")) == (4, 7, 1)
    assert escape.room(state, game.players.index("attackers")) is None
    blocked = game.apply(state, "d9-d7")  # the king reaches e7 alone, from where no line is open
    assert escape.room(blocked, game.players.index("defenders")) == (0, 0, 0)


def test_among_actions_alike_the_choice_stands_in_the_kings_way():
    game = load_game("tablut")
    escape = learn_with_escape(game)[1]
    assert escape is not None
    search = Search(game.engine, random.Random(0), Tactics(), 2, exploration=1.0, rollout_limit=50, score_weight=0.1)
    root = search.new_root(game.parse_position(ONE_LINE))
    search.check_root(root)  # (every action that leaves a7 open is proven lost; none visited: all alike)
    me = root.mover
    assert root.children is not None and me is not None
    alive = [game.engine.notation(c.code) for c in root.children if not loses_for(c, me)]
    assert {"d9-d7", "e9-e7", "a5-a7"} <= set(alive)  # (a5-a7 blocks too, but leaves c7's fork)
    by_name = {game.engine.notation(c.code): c for c in root.children}
    # the search's choice a5-a7 (any of the alike would do): turned to a move onto the king's line
    chosen = prefer_room(lambda node: by_name["a5-a7"], escape)(root)
    assert game.engine.notation(chosen.code) in {"d9-d7", "e9-e7"}
    by_name["a5-a7"].gains = True  # (a capture whose gain survives every answer: material first)
    assert prefer_room(lambda node: by_name["a5-a7"], escape)(root) is by_name["a5-a7"]
    by_name["a5-a7"].gains = False
    # a child the playouts tell apart is not given up for room
    seen = by_name["a5-a7"]
    for child in root.children:  # (a5-a7 won every playout for the attackers, the others lost every one)
        child.visits, child.totals = 40, [40.0 if child is seen else 0.0, 0.0 if child is seen else 40.0]
    assert prefer_room(lambda node: seen, escape)(root) is seen


def test_no_room_is_measured_for_pieces_that_step_or_for_many():
    # Quoridor's pawn wins by reaching the far row, but steps (two sites of the
    # board, four in a jump: two lengths), walls between: slides do not measure it.
    # Lielow's and Breakthrough's wins are made by many pieces.
    for game in (GAMES["quoridor"].load(), GAMES["breakthrough"].load(), load_game("lielow")):
        assert learn_with_escape(game)[1] is None
