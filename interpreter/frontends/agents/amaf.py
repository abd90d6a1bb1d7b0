"""GRAVE: what an action was worth wherever it was played, to choose among new ones.

"All moves as first" (AMAF, RAVE): a simulated game that passes through a node
and in which the node's mover later plays action `a` — in the tree or in the
playout — says something about playing `a` at the node at once, since the same
action (the same piece from the same square to the same square, the same drop)
is often about as good a few moves earlier or later. Each node keeps, for each
player and each action that player played below it, the player's summed reward
and the count. GRAVE (Cazenave 2015) reads them from the closest node of the
path — the node itself or an ancestor — that has been visited at least REF
times, since a young node's own counts say little: the counts of the node's
mover there, whoever moved at that node (the same action code may be either
player's: a placement on a point; an ancestor where the other player moved knows
the mover's actions only from what was played below it). An action is worth

    (1 - beta) * its mean reward + beta * its AMAF mean,
    beta = m / (m + n + bias * m * n)

(n its visits, m its AMAF count), plus a small exploration term; an action never
visited is worth its AMAF mean, or is tried first when nothing is known of it.
So among thirty actions the search tries first those that have done well
elsewhere in the tree, rather than each in turn.
"""
from __future__ import annotations

import math
from typing import Optional

from ...runtime.pieces import CHANCE, Code
from .tree import TERMINAL, Node, minimax_value

REF = 50  # visits after which a node's own AMAF counts are used
BIAS = 1e-5
EXPLORATION = 0.2  # the exploration constant next to the AMAF values
UNKNOWN = 2.0  # the worth of an action nothing is known of: tried first


def reference(path: list[Node]) -> Node:
    """The node of `path` (from the root) whose AMAF counts to use: the deepest
    with REF visits, else the root."""
    for node in reversed(path):
        if node.visits >= REF and node.amaf is not None:
            return node
    return path[0]


def select(node: Node, ref: Node, minimax_weight: float = 0.0, bias: float = BIAS) -> Optional[Node]:
    """The child to go to by GRAVE, leaving out children lost for the mover or
    vetoed; None when nothing else is left. With `minimax_weight`, that share of a
    visited child's mean is its implicit minimax value (tree.py). `bias`: the BIAS
    of beta (a larger one lets a child's own mean take over after fewer visits)."""
    me, children = node.mover, node.children
    # (a decision node, expanded: select is called on nothing else)
    assert me is not None and children is not None
    table = (ref.amaf or {}).get(me) or {}
    log_visits = math.log(node.visits or 1)
    best, best_value = None, -math.inf
    for child in children:
        if (child.proven is not None and child.proven != me) or child.vetoed:
            continue
        entry = table.get(child.code)
        n = child.visits
        if n == 0:
            value = UNKNOWN if entry is None else entry[0] / entry[1] + EXPLORATION * math.sqrt(log_visits)
        else:
            mean = child.totals[me] / n
            if minimax_weight:
                im = child.im
                if im is not None:
                    mean += minimax_weight * (minimax_value(im, me) - mean)
            if entry is not None:
                m = entry[1]
                beta = m / (m + n + bias * m * n)
                mean = (1.0 - beta) * mean + beta * entry[0] / m
            value = mean + EXPLORATION * math.sqrt(log_visits / n)
        if value > best_value:
            best, best_value = child, value
    return best


def update(path: list[Node], playout_moves: list[tuple[int, Code]], reward: tuple[float, ...]) -> None:
    """Add the simulated game to the AMAF counts of the path's decision nodes: at
    each, every action each player played below it (the first time only), with
    that player's reward."""
    played: dict[int, set[Code]] = {}
    for player, code in playout_moves:
        played.setdefault(player, set()).add(code)
    for i in range(len(path) - 1, -1, -1):
        node = path[i]
        mover = node.mover
        if mover is TERMINAL or mover == CHANCE:
            continue
        if i + 1 < len(path):
            played.setdefault(mover, set()).add(path[i + 1].code)
        tables = node.amaf
        if tables is None:
            tables = node.amaf = {}
        for player, codes in played.items():
            table = tables.get(player)
            if table is None:
                table = tables[player] = {}
            gain = reward[player]
            for code in codes:
                entry = table.get(code)
                if entry is None:
                    table[code] = [gain, 1]
                else:
                    entry[0] += gain
                    entry[1] += 1
