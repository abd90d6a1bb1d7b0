"""One search of the MCTS player: the iterations over the tree and the root checks.

The agent (mcts.py) decides the budget and when to stop; this module does the
work on the fast layer (`game.engine`): materialising nodes, expanding them,
selecting, playing out and backing up (see tree.py for the solver).
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from interpreter.runtime.pieces import CHANCE

from .playout import Playout, Tactics
from .rewards import outcome_rewards
from .tree import TERMINAL, Node, back_up, is_decision, select_child, update_proven, win_vector

if TYPE_CHECKING:
    from ...runtime.state import State
    from ..protocol import FastLayer


EXPAND_TRIES = 8  # children of winning kinds tried for a win when a node is expanded
THREAT_BUDGET = 6000  # positions the root may look at to see every reply that wins at once


class Search:
    """The tree operations of one `choose` call."""

    def __init__(self, engine: FastLayer, rng: random.Random, tactics: Tactics, n_players: int, *,
                 exploration: float, rollout_limit: int, score_weight: float) -> None:
        self.engine = engine
        self.rng = rng
        self.tactics = tactics
        self.n = n_players
        self.exploration = exploration
        self.score_weight = score_weight
        self.playout = Playout(engine, rng, tactics, n_players, rollout_limit, score_weight)

    # -- nodes ---------------------------------------------------------------------------

    def new_root(self, state: State) -> Node:
        root = Node(None)
        self.set_position(root, self.engine.copy(state))
        return root

    def set_position(self, node: Node, state: State) -> None:
        node.state = state
        node.totals = [0.0] * self.n
        outcome = self.engine.outcome(state)
        if outcome is None:
            node.mover = self.engine.to_move(state)
            return
        node.mover = TERMINAL
        node.reward = outcome_rewards(outcome[0], outcome[1], self.score_weight)
        if outcome[0] >= 0:
            node.proven = outcome[0]

    def materialise(self, child: Node, parent: Node) -> None:
        """Give a stub its position: the parent's with the child's action played."""
        state = self.engine.copy(parent.state)
        self.engine.apply_in_place(state, child.code)
        self.set_position(child, state)
        if child.mover is TERMINAL and is_decision(parent):
            self.tactics.learn(self.engine, state, child.code, parent.mover)

    def expand(self, node: Node) -> None:
        """Create the children of `node` as stubs; at a decision, try those of
        winning kinds at once (a win found proves the node)."""
        engine = self.engine
        if node.mover == CHANCE:
            node.children, total = [], 0.0
            for code, probability in engine.chance_probabilities(node.state):
                total += probability
                node.children.append(Node(code))
                node.weights.append(total)
            return
        node.children = [Node(code) for code in engine.legal(node.state)]
        node.untried = node.children[:]
        self.rng.shuffle(node.untried)
        worth_trying = self.tactics.worth_trying
        candidates = [c for c in node.children if worth_trying(c.code)]
        if len(candidates) > EXPAND_TRIES:
            candidates = self.rng.sample(candidates, EXPAND_TRIES)
        self.try_children(node, candidates, count=True)

    def try_children(self, node: Node, children: list[Node], count: bool = False) -> None:
        """Materialise `children`; the first that wins for the mover proves `node`.
        With `count`, each is a try of its kind for the tactics."""
        for child in children:
            if not child.materialised:
                self.materialise(child, node)
            if count:
                self.tactics.tried(child.code, child.proven == node.mover)
            if child.proven == node.mover:
                node.proven = node.mover
                return

    # -- the root ------------------------------------------------------------------------

    def check_root(self, root: Node) -> None:
        """Look at every action of the root and, within THREAT_BUDGET positions, at
        every answer to each: wins in one prove the root, actions that allow the next
        player a win in one are proven lost (a chance event after the action is not
        looked behind)."""
        if root.children is None:
            self.expand(root)
        self.try_children(root, root.children)
        if root.proven is not None:
            return
        replies = [c for c in root.children if is_decision(c)]
        cost = sum(len(self.engine.legal(c.state)) for c in replies)
        for child in replies:
            if child.children is None:
                self.expand(child)
            if cost <= THREAT_BUDGET:
                self.try_children(child, child.children)
        update_proven(root)

    # -- one iteration -------------------------------------------------------------------

    def iterate(self, root: Node) -> tuple[float, ...]:
        """Select down the tree, expand a child, play it out, back up; the reward."""
        node, path = root, [root]
        while True:
            if node.proven is not None:
                reward = win_vector(node.proven, self.n)
                break
            if node.mover is TERMINAL:
                reward = node.reward
                break
            if node.children is None:
                self.expand(node)
                continue
            child = self.next_child(node)
            path.append(child)
            if not child.materialised:
                self.materialise(child, node)
                reward = self.evaluate(child)
                break
            if child.visits == 0:
                reward = self.evaluate(child)
                break
            node = child
        back_up(path, reward)
        return reward

    def next_child(self, node: Node) -> Node:
        if node.mover == CHANCE:
            x = self.rng.random() * node.weights[-1]
            for child, weight in zip(node.children, node.weights):
                if x < weight:
                    return child
            return node.children[-1]
        if node.untried:
            return node.untried.pop()
        return select_child(node, self.exploration)

    def evaluate(self, node: Node) -> tuple[float, ...]:
        """What a new node is worth: certain when proven or over, else one playout."""
        if node.proven is not None:
            return win_vector(node.proven, self.n)
        if node.mover is TERMINAL:
            return node.reward
        return self.playout.run(self.engine.copy(node.state))
