"""GRAVE's AMAF counts (agents/amaf.py): kept per player, read for the node's mover."""
import dataclasses

from interpreter.frontends.agents import amaf
from interpreter.frontends.agents.tree import Node


def decision(code, mover: int, visits: int = 0) -> Node:
    node = Node(code)
    node.mover, node.visits, node.totals = mover, visits, [0.0, 0.0]
    return node


def test_each_player_s_actions_are_counted_with_that_player_s_reward():
    # player 0 moves at the root, player 1 at its child; both may play on point 7
    root, child = decision(None, 0, visits=60), decision(3, 1)
    amaf.update([root, child], [(1, 7), (0, 5), (1, 7)], (0.0, 1.0))
    assert root.amaf == {0: {3: [0.0, 1], 5: [0.0, 1]}, 1: {7: [1.0, 1]}}
    assert child.amaf == {0: {5: [0.0, 1]}, 1: {7: [1.0, 1]}}


def test_a_node_reads_its_own_mover_s_counts_in_an_ancestor_s_table():
    # the root (player 0, enough visits to be the reference) has seen point 7 win
    # for player 1 and lose for player 0, point 8 the other way round
    root, child = decision(None, 0, visits=60), decision(3, 1, visits=2)
    for _ in range(10):
        amaf.update([root], [(1, 7)], (0.0, 1.0))
        amaf.update([root], [(1, 8), (0, 8)], (1.0, 0.0))
        amaf.update([root], [(0, 7)], (0.0, 1.0))
    child.children = [decision(8, 0), decision(7, 0)]
    assert amaf.reference([root, child]) is root
    # player 1 at the child: point 7 won for it, so it goes there first
    chosen = amaf.select(child, root)
    assert chosen is not None and chosen.code == 7


def test_a_larger_bias_lets_the_children_s_own_means_decide():
    # both children visited 100 times: code 7 won 60 % of its own games but 20 % of
    # its 1,000 AMAF ones, code 8 the other way round (40 %, 80 %)
    root = decision(None, 0, visits=200)
    seven, eight = decision(7, 1, visits=100), decision(8, 1, visits=100)
    seven.totals, eight.totals = [60.0, 40.0], [40.0, 60.0]
    root.children = [seven, eight]
    root.amaf = {0: {7: [200.0, 1000], 8: [800.0, 1000]}}
    # BIAS 1e-5: beta = 1000 / (1100 + 1) = 0.91, the AMAF means decide
    assert amaf.select(root, root) is eight
    # bias 0.1: beta = 1000 / (1100 + 10000) = 0.09, the children's own means decide
    assert amaf.select(root, root, bias=0.1) is seven


def test_the_bias_a_match_gives_reaches_the_search():
    from benchmarks.catalog import GAMES
    from benchmarks.strength.__main__ import parse_methods
    from interpreter.frontends.agents import MCTSAgent
    from interpreter.frontends.agents.mcts import CURRENT

    game = GAMES["connect_four"].load()
    search, _ = MCTSAgent(iterations=50, seed=1)._start(game, game.initial_state())
    assert search.grave and search.grave_bias == amaf.BIAS
    methods = dataclasses.replace(CURRENT, **parse_methods("grave_bias=0.01"))
    search, _ = MCTSAgent(iterations=50, seed=1, methods=methods)._start(game, game.initial_state())
    assert search.grave and search.grave_bias == 0.01
