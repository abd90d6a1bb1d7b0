"""The endgame search (endgame.py): where few pieces are left and the mover is ahead,
an alpha-beta search over the rules brings the pieces to the other's and takes."""
from __future__ import annotations

from benchmarks.catalog import GAMES
from interpreter.frontends.agents import make_agent
from interpreter.frontends.agents.endgame import Journeys


def _checkers():
    return GAMES["checkers"].load()


def test_a_pieces_way_is_counted_in_its_own_actions_its_kind_changing_on_the_way():
    game = _checkers()
    journeys = Journeys(game, len(game.board.sites))
    state = game.make_state({"a5": ("white", "man"), "a1": ("black", "king")}, to_move="white")
    # the white man steps forward only: a5-b6-a7-b8 (crowned), then back as a king
    # b8-a7-b6-a5-b4-a3-b2-a1: ten actions, squared (a king's steps on the board say 4)
    assert journeys.of(state, 0) == 100
    # the black king goes straight: a1-b2-a3-b4-a5
    assert journeys.of(state, 1) == 16


def _far_ahead(game, more: str = ""):
    # White (to move) has kings on c3, e3 and g3 against Black's king on c7, far from
    # any piece that could take one: no action gives or wins material.
    return game.parse_position("rw2; game checkers; ply 80; phase play; turn white move 0; board c3=white.king "
                               "e3=white.king g3=white.king " + more + "c7=black.king; variables quiet=20")


def test_the_search_applies_where_few_pieces_are_left_and_the_mover_is_ahead():
    game = _checkers()
    agent = make_agent("mcts:200", seed=1)
    agent.prepare(game)
    search, _ = agent._start(game, game.initial_state())  # type: ignore[attr-defined]
    endgame = agent._endgame_of(game, search)  # type: ignore[attr-defined]
    assert endgame is not None  # (checkers: a counter of quiet actions draws it)
    assert endgame.start_pieces == 24
    assert not endgame.applies(game.initial_state(), 0)  # (24 pieces, level)
    assert endgame.applies(_far_ahead(game), 0)  # three against one
    assert not endgame.applies(_far_ahead(game), 1)  # (Black is behind)
    one_each = game.parse_position("rw2; game checkers; ply 80; phase play; turn white move 0; "
                                   "board c3=white.king c7=black.king; variables quiet=20")
    assert not endgame.applies(one_each, 0)
    # ten pieces of 24 are more than FEW_PIECES_SHARE's 9.6
    crowded = _far_ahead(game, "a1=white.man c1=white.man e1=white.man g1=white.man a7=black.man e7=black.man ")
    assert not endgame.applies(crowded, 0)


def test_the_side_ahead_brings_its_pieces_nearer_the_others():
    game = _checkers()
    agent = make_agent("mcts:200", seed=1)
    agent.prepare(game)
    state = _far_ahead(game)
    search, root = agent._start(game, state)  # type: ignore[attr-defined]
    search.check_root(root)
    endgame = agent._endgame_of(game, search)  # type: ignore[attr-defined]
    chosen = endgame.choose(root, 0, 3_000, float("inf"), lambda: 0.0)
    # c3, e3, g3 are 4, 4 and 4 king's actions from c7 (sum of squares 48); a step of
    # one toward it makes 41, one away 57 or more
    assert endgame.distances.of(state, 0) == 48
    assert endgame.distances.of(chosen.state, 0) == 41
    assert endgame.depth >= 2


def test_within_the_actions_left_a_piece_too_far_to_come_counts_the_same_wherever_it_stands():
    game = _checkers()
    journeys = Journeys(game, len(game.board.sites))
    near = {"c3": ("white", "king"), "a1": ("black", "king")}
    state = game.make_state({**near, "a5": ("white", "man")}, to_move="white")
    stepped = game.make_state({**near, "b6": ("white", "man")}, to_move="white")
    # the king is 2 actions from a1 (c3-b2-a1), the man 10 (round by the crowning row)
    assert journeys.of(state, 0) == 4 + 100
    # with 3 actions left, the man counts as 4 away, and a step of his changes nothing
    assert journeys.of(state, 0, reach=3) == 4 + 16
    assert journeys.of(stepped, 0, reach=3) == 4 + 16
    assert journeys.of(stepped, 0) < journeys.of(state, 0)
    # where no piece can come in time, every piece counts its whole way
    assert journeys.of(state, 0, reach=1) == 4 + 100


def test_the_actions_left_are_the_movers_half_of_the_counters_range_left():
    game = _checkers()
    agent = make_agent("mcts:200", seed=1)
    agent.prepare(game)
    search, _ = agent._start(game, game.initial_state())  # type: ignore[attr-defined]
    endgame = agent._endgame_of(game, search)  # type: ignore[attr-defined]
    # the draw after 40 quiet actions: at 20 counted, 20 actions are left, 10 of them White's
    assert endgame.reach(_far_ahead(game)) == 10


def test_the_actions_left_are_shared_by_the_pieces_nearest_first():
    game = _checkers()
    journeys = Journeys(game, len(game.board.sites))
    state = game.make_state({"c3": ("white", "king"), "c1": ("white", "king"), "a1": ("black", "king")},
                            to_move="white")
    # each king is 2 actions from a1 (c3-b2-a1, c1-b2-a1): 4 actions bring both, 3 one
    assert journeys.of(state, 0) == 4 + 4
    assert journeys.of(state, 0, reach=4) == 4 + 4
    assert journeys.of(state, 0, reach=3) == 4 + 16


def test_a_piece_given_to_reset_the_counter_is_worth_less_than_the_lead_kept():
    game = _checkers()
    agent = make_agent("mcts:200", seed=1)
    agent.prepare(game)
    search, _ = agent._start(game, game.initial_state())  # type: ignore[attr-defined]
    endgame = agent._endgame_of(game, search)  # type: ignore[attr-defined]
    # two kings and a man against a king, 21 quiet actions counted (a match's game,
    # White to move) ...
    kept = game.parse_position("rw2; game checkers; ply 110; phase play; turn white move 0; board c7=white.king "
                               "c3=white.king h2=white.man b8=black.king; variables quiet=21")
    # ... and after the king on c7 was given to b8's jump (the counter reset): the
    # evaluation's fade values this one higher, the lead's balance does not
    given = game.parse_position("rw2; game checkers; ply 112; phase play; turn white move 0; board "
                                "c3=white.king h2=white.man d6=black.king; variables quiet=0")
    odds = endgame.evaluation.log_odds
    assert odds(given) > odds(kept)
    assert endgame.leaf(given, 0) < endgame.leaf(kept, 0)
    # an exchange keeps the balance: the evaluation and nearness tell it apart
    assert endgame.leaf(kept, 0)[0] == endgame.material.balance(kept, 0) == 2.0
