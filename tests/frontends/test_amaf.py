"""GRAVE's AMAF counts (agents/amaf.py): kept per player, read for the node's mover."""
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
