"""The search tree of the MCTS player: nodes, UCT selection and the solver.

A node is one position. Its children are created all at once, as stubs holding
only the action code, when the node is expanded; a stub gets its position when
the search first goes there ("materialised"). Rewards are vectors, one component
per player, and each player chooses by its own component (max^n).

MCTS-Solver: a node whose result is certain ("proven") carries the index of the
player who wins it. A terminal position with a winner is proven; a decision is
proven for its mover as soon as one child is, and for another player once every
child is proven for that same player; a chance event once every outcome is. The
search never again plays out a proven node, avoids children that lose for the
mover, and backs up the proven result instead of a guess.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Optional

from interpreter.runtime.pieces import CHANCE

if TYPE_CHECKING:
    from ...runtime.state import State


TERMINAL = None  # the mover of a finished position


class Node:
    """One position of the search (see the module's doc)."""

    __slots__ = ("code", "state", "mover", "visits", "totals", "children", "untried", "proven",
                 "reward", "weights", "vetoed", "checked", "gains", "amaf", "im")

    def __init__(self, code: Any) -> None:
        self.code = code  # the action that leads here from the parent (None at the root)
        self.state: Optional[State] = None  # None: a stub, not yet materialised
        self.mover: Optional[int] = TERMINAL  # player index, CHANCE, or TERMINAL
        self.visits = 0
        self.totals: list[float] = []
        self.children: Optional[list[Node]] = None  # None: not expanded yet
        self.untried: list[Node] = []  # children not visited yet (decision nodes)
        self.proven: Optional[int] = None  # the winner when the result is certain
        self.reward: Optional[tuple[float, ...]] = None  # terminal positions: what the result is worth
        self.weights: list[float] = []  # chance nodes: cumulative probabilities of the children
        self.vetoed = False  # a root action the safety check rules out (safety.py)
        self.checked = False  # a root action the safety check has looked at (one turn of answers)
        self.gains = False  # a root action the safety check found to win material (safety.py)
        # player -> code -> [the player's summed reward, count] (amaf.py)
        self.amaf: Optional[dict[int, dict[Any, list[float]]]] = None
        # implicit minimax: the evaluation backed up by minimax, for the first player
        # (two-player games with an evaluation; None elsewhere)
        self.im: Optional[float] = None

    def mean(self, player: int) -> float:
        """The average reward of `player` over the visits (0.5 before any)."""
        return self.totals[player] / self.visits if self.visits else 0.5

    @property
    def materialised(self) -> bool:
        return self.state is not None


def is_decision(node: Node) -> bool:
    return node.mover is not TERMINAL and node.mover != CHANCE


def win_vector(winner: int, n_players: int) -> tuple[float, ...]:
    """The reward of a proven node: everything to the winner."""
    return tuple(1.0 if i == winner else 0.0 for i in range(n_players))


def loses_for(child: Node, mover: int) -> bool:
    """Whether `child` is proven to be won by someone other than `mover`."""
    return child.proven is not None and child.proven != mover


def select_child(node: Node, exploration: float, minimax_weight: float = 0.0) -> Node:
    """The child with the best upper confidence bound for the mover, leaving out
    children proven lost for the mover or vetoed (unless nothing else is left).
    With `minimax_weight`, that share of a child's value is its implicit minimax
    value (`back_up_minimax`)."""
    me, children = node.mover, node.children
    assert me is not None and children is not None, "a decision node, expanded"
    scale = exploration * math.sqrt(math.log(node.visits or 1))
    best, best_value = None, -math.inf
    for child in children:
        if (child.proven is not None and child.proven != me) or child.vetoed:
            continue
        value = child.totals[me] / child.visits + scale / math.sqrt(child.visits)
        if minimax_weight:
            im = child.im
            if im is not None:
                value += minimax_weight * (minimax_value(im, me) - child.totals[me] / child.visits)
        if value > best_value:
            best, best_value = child, value
    if best is None:  # every child loses or is vetoed
        alive = [c for c in children if not loses_for(c, me)]
        if alive:
            return select_among(alive, me, scale)
        best = max(children, key=lambda c: c.visits)  # the longest resistance is as good as any
    return best


def select_among(children: list[Node], me: int, scale: float) -> Node:
    """The child with the best upper confidence bound (unvisited ones first)."""
    fresh = [c for c in children if not c.visits]
    if fresh:
        return fresh[0]
    return max(children, key=lambda c: c.totals[me] / c.visits + scale / math.sqrt(c.visits))


def update_proven(node: Node) -> bool:
    """Prove `node` from its children if they allow it; True when it is proven now."""
    if node.proven is not None:
        return True
    children = node.children
    if not children:
        return False
    if is_decision(node) and any(c.proven == node.mover for c in children):
        node.proven = node.mover
        return True
    # Every child proven for one player (stubs not yet visited are not proven).
    winners = {c.proven for c in children}
    if len(winners) == 1 and None not in winners:
        node.proven = winners.pop()
        return True
    return False


def back_up(path: list[Node], reward: tuple[Any, ...]) -> None:
    """Add the reward to every node of the path, then prove what can be proven from
    the bottom up (a parent can only change when its child has)."""
    n = len(reward)
    for node in path:
        node.visits += 1
        totals = node.totals
        for i in range(n):
            totals[i] += reward[i]
    for node in reversed(path):
        if not update_proven(node):
            break


def minimax_value(im: float, player: int) -> float:
    """An implicit minimax value `im` (a node's, for the first player) for `player` (of two)."""
    return im if player == 0 else 1.0 - im


def back_up_minimax(path: list[Node]) -> None:
    """Give each node of the path, from the bottom up, the minimax of its
    materialised children's values: the best for the mover at a decision, the
    average weighted by the probabilities at a chance event."""
    for node in reversed(path):
        if node.proven is not None:
            node.im = 1.0 if node.proven == 0 else 0.0
            continue
        children = node.children
        if not children or node.mover is TERMINAL:
            continue
        if node.mover == CHANCE:
            total = weight = 0.0
            previous = 0.0
            for child, cumulative in zip(children, node.weights):
                if child.im is not None:
                    total += (cumulative - previous) * child.im
                    weight += cumulative - previous
                previous = cumulative
            if weight > 0.0:
                node.im = total / weight
            continue
        values = [c.im for c in children if c.im is not None]
        if values:
            node.im = max(values) if node.mover == 0 else min(values)


def best_child(root: Node) -> Node:
    """The move to play: a proven win; else the most visited child that is neither
    proven lost nor vetoed (ties by mean reward); failing that, one not proven lost;
    if every child loses, the most visited."""
    me, expanded = root.mover, root.children
    assert me is not None and expanded is not None, "a decision node, expanded"
    children = [c for c in expanded if c.materialised]
    wins = [c for c in children if c.proven == me]
    if wins:
        return max(wins, key=lambda c: c.visits)
    alive = [c for c in children if not loses_for(c, me)]
    alive = [c for c in alive if not c.vetoed] or alive or children
    return max(alive, key=lambda c: (c.visits, c.mean(me)))


def find_descendant(root: Node, state: State, most: int = 4) -> Optional[Node]:
    """The materialised node of `state` below `root` (tree reuse), when it is at most
    `most` actions further (positions are compared at that depth only)."""
    assert root.state is not None, "a root has its position"
    depth = state.ply - root.state.ply
    if not 0 <= depth <= most:
        return None
    layer = [root]
    for _ in range(depth):
        layer = [c for node in layer for c in node.children or () if c.materialised]
    return next((node for node in layer if node.state == state), None)
