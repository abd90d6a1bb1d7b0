"""One search of the MCTS player: the iterations over the tree and the root checks.

The agent (mcts.py) decides the budget and when to stop; this module does the
work on the fast layer (`game.engine`): materialising nodes, expanding them,
selecting, playing out and backing up (see tree.py for the solver).
"""
from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Callable, Optional

from interpreter.runtime.pieces import CHANCE, Code

from ...analysis.material import Material
from . import amaf
from .evaluation import Evaluation
from .playout import Playout, Tactics
from .rewards import outcome_rewards
from .safety import veto_material_losses
from .tree import (
    TERMINAL,
    Node,
    back_up,
    back_up_minimax,
    is_decision,
    select_child,
    update_proven,
    win_vector,
)

if TYPE_CHECKING:
    from ...runtime.state import State
    from ..protocol import FastLayer


EXPAND_TRIES = 8  # children of winning kinds tried for a win when a node is expanded
THREAT_BUDGET = 6000  # positions the root may look at to see every reply that wins at once


class Search:
    """The tree operations of one `choose` call."""

    def __init__(self, engine: FastLayer, rng: random.Random, tactics: Tactics, n_players: int, *,
                 exploration: float, rollout_limit: int, score_weight: float,
                 material: Optional[Material] = None, safety_nodes: int = 0, grave: bool = False,
                 grave_bias: float = amaf.BIAS,
                 evaluation: Optional[Evaluation] = None, minimax_weight: float = 0.0,
                 evaluated_rollout: int = 0, try_all: int = 0, mast: bool = False,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.engine = engine
        self.clock = clock  # what the deadlines of the root's checks are times of
        self.material = material  # the yardstick of the safety check (None: no check)
        self.safety_nodes = safety_nodes
        self.grave = grave  # choose by GRAVE (amaf.py) rather than UCT
        self.grave_bias = grave_bias  # ... with this BIAS in its beta
        # a node of at most this many actions has them all tried when it is expanded
        # (a win among them proves it; the solver does the rest)
        self.try_all = try_all
        # the learnt evaluation (evaluation.py): implicit minimax in the tree, playouts cut short
        self.evaluation = evaluation
        self.minimax_weight = minimax_weight if evaluation is not None else 0.0
        self.rng = rng
        self.tactics = tactics
        self.n = n_players
        self.exploration = exploration
        self.score_weight = score_weight
        self.playout = Playout(engine, rng, tactics, n_players, rollout_limit, score_weight)
        if evaluation is not None and evaluated_rollout > 0:
            self.playout.limit = min(rollout_limit, evaluated_rollout)
            self.playout.evaluation = evaluation
            self.playout.beyond_cap = max(0, rollout_limit - self.playout.limit)
        if grave:
            self.playout.moves = []
            if mast:
                self.playout.values = [{} for _ in range(n_players)]

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
            evaluation = self.evaluation
            if self.minimax_weight and evaluation is not None:  # (the weight is 0 without one)
                node.im = evaluation.first_wins(state)
            return
        node.mover = TERMINAL
        node.reward = reward = outcome_rewards(self.engine.winners(outcome[0]), outcome[1], self.score_weight)
        if outcome[0] >= 0:
            node.proven = outcome[0]
        if self.minimax_weight:
            node.im = reward[0]

    def materialise(self, child: Node, parent: Node) -> None:
        """Give a stub its position: the parent's with the child's action played."""
        parent_state, mover = parent.state, parent.mover
        assert parent_state is not None, "a parent has its position"
        state = self.engine.copy(parent_state)
        self.engine.apply_in_place(state, child.code)
        self.set_position(child, state)
        if child.mover is TERMINAL and mover is not TERMINAL and mover != CHANCE:  # (is_decision(parent))
            self.tactics.learn(self.engine, state, child.code, mover)

    def expand(self, node: Node) -> list[Node]:
        """Create the children of `node` as stubs; at a decision, try them all when
        they are few (`try_all`), else those of winning kinds (a win found proves
        the node). The children."""
        engine = self.engine
        state = node.state
        assert state is not None, "a node is expanded once it has its position"
        children: list[Node]
        if node.mover == CHANCE:
            node.children = children = []
            total = 0.0
            for code, probability in engine.chance_probabilities(state):
                total += probability
                children.append(Node(code))
                node.weights.append(total)
            return children
        # in random order: every choice among children the search cannot tell apart
        # (none visited yet at a root given no time, GRAVE's first visit where no
        # action has statistics, a tie of visits and means) falls on any of them, not
        # on the first listed — the corner of the board, say
        node.children = children = [Node(code) for code in engine.legal(state)]
        self.rng.shuffle(children)
        node.untried = children[:]
        if len(children) <= self.try_all and self.trying_all_pays(len(children)):
            self.try_children(node, children)
            return children
        mover = node.mover
        assert mover is not None, "a node expanded is not over"
        if not self.tactics.live.get(mover):
            return children
        worth_trying = self.tactics.worth_trying(mover)
        candidates = [c for c in children if worth_trying(c.code)]
        if len(candidates) > EXPAND_TRIES:
            candidates = self.rng.sample(candidates, EXPAND_TRIES)
        self.try_children(node, candidates, count=True)
        return children

    def trying_all_pays(self, count: int) -> bool:
        """Whether trying `count` children for a win costs less than a playout: a
        try makes a position, as a playout's step does. Where playouts are short
        (where every move captures, a few actions from the end; those cut off by the evaluation),
        a node's tries would cost more than the playouts that find the same wins,
        and the solver proves them from those; where playouts are long (races, a
        game's opening) the tries cost a fraction of one."""
        steps = self.playout.mean_steps()
        return steps is None or count <= steps

    def try_children(self, node: Node, children: list[Node], count: bool = False,
                     deadline: Optional[float] = None) -> None:
        """Materialise `children`; the first that wins for the mover proves `node`.
        With `count`, each is a try of its kind for the tactics. With a `deadline`
        (a time of `clock`), the tries stop there: the children left are stubs."""
        for child in children:
            if deadline is not None and self.clock() > deadline:
                return
            if not child.materialised:
                self.materialise(child, node)
            if count:
                assert node.mover is not None, "a node expanded is not over"
                self.tactics.tried(child.code, node.mover, child.proven == node.mover)
            if child.proven == node.mover:
                node.proven = node.mover
                return

    # -- the root ------------------------------------------------------------------------

    def check_root(self, root: Node, deadline: Optional[float] = None,
                   safety_deadline: Optional[float] = None, answers_deadline: Optional[float] = None) -> None:
        """Look at every action of the root and, within THREAT_BUDGET positions, at
        every answer to each: wins in one prove the root, actions that allow the next
        player a win in one are proven lost (a chance event after the action is not
        looked behind). Then the safety check (safety.py). With a `deadline` (a
        time of `clock`) the actions and answers stop there (where making a
        position is dear, the actions left are stubs for the search: the
        search's own iterations would otherwise be spent on the checks), the
        answers at `answers_deadline` where it is given, the safety check's deeper
        passes at `safety_deadline`. Before the answers' full pass, where the next
        player's actions of kinds that have won at once are known (`Tactics.has_won`),
        those alone are tried after every action: a few positions an action, so that
        the wins at once the search has seen are looked for after each action whatever
        the full pass has time for."""
        children = self.expand(root) if root.children is None else root.children
        self.try_children(root, children, deadline=deadline)
        if root.proven is not None:
            return
        replies = [c for c in children if is_decision(c)]
        cost = 0
        for reply in replies:
            assert reply.state is not None, "every child was tried"
            cost += len(self.engine.legal(reply.state))
        self._try_winning_kinds(replies, deadline)
        answers_deadline = deadline if answers_deadline is None else answers_deadline
        for child in replies:
            if answers_deadline is not None and self.clock() > answers_deadline:
                break
            if child.proven is not None:
                continue  # (an answer of a winning kind won: lost already)
            answers = child.children
            if answers is None:
                answers = self.expand(child)
            if cost <= THREAT_BUDGET:
                self.try_children(child, answers, deadline=answers_deadline)
        update_proven(root)
        if root.proven is None and self.material is not None and self.safety_nodes > 0:
            veto_material_losses(self.engine, self.material, root, self.safety_nodes, safety_deadline,
                                 first_deadline=deadline, clock=self.clock)

    def _try_winning_kinds(self, replies: list[Node], deadline: Optional[float]) -> None:
        """Try, after each of `replies` (made), the answers of the kinds that have won
        at once for the player to answer (`Tactics.has_won`), until the `deadline`."""
        winners = {who for who, _ in self.tactics.records}
        if not winners:
            return
        tests: dict[int, Callable[[Code], bool]] = {}  # (`has_won`, made once per player)
        for child in replies:
            if deadline is not None and self.clock() > deadline:
                return
            them = child.mover
            if them is None or them not in winners:
                continue
            answers = child.children
            if answers is None:
                answers = self.expand(child)
            if child.proven is None:
                has_won = tests.get(them)
                if has_won is None:
                    has_won = tests[them] = self.tactics.has_won(them)
                self.try_children(child, [a for a in answers if not a.materialised and has_won(a.code)])

    # -- one iteration -------------------------------------------------------------------

    def iterate(self, root: Node) -> tuple[float, ...]:
        """Select down the tree, expand a child, play it out, back up; the reward."""
        node, path = root, [root]
        while True:
            if node.proven is not None:
                reward = win_vector(node.proven, self.n)
                break
            final = node.reward  # (set exactly at a finished position: the node has its position)
            if final is not None:
                reward = final
                break
            children = node.children
            if children is None:
                self.expand(node)
                continue
            child = self.next_child(node, children, path)
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
        if self.minimax_weight:
            back_up_minimax(path)
        if self.grave:
            moves = self.playout.moves
            assert moves is not None, "a GRAVE search's playouts keep their moves"
            amaf.update(path, moves, reward)
            if self.playout.values is not None:
                self.playout.learn_values(tree_moves(path), reward)
            moves.clear()
        return reward

    def next_child(self, node: Node, children: list[Node], path: list[Node]) -> Node:
        """The child of `node` (expanded: `children`) to go down to."""
        if node.mover == CHANCE:
            x = self.rng.random() * node.weights[-1]
            for child, weight in zip(children, node.weights):
                if x < weight:
                    return child
            return children[-1]
        if self.grave:
            chosen = amaf.select(node, amaf.reference(path), self.minimax_weight, self.grave_bias)
            if chosen is not None:
                return chosen
        if node.untried:
            return node.untried.pop()
        return select_child(node, self.exploration, self.minimax_weight)

    def evaluate(self, node: Node) -> tuple[float, ...]:
        """What a new node is worth: certain when proven or over, else one playout."""
        if node.proven is not None:
            return win_vector(node.proven, self.n)
        final, state = node.reward, node.state
        if final is not None:  # (set exactly at a finished position)
            return final
        assert state is not None, "a node is evaluated once it has its position"
        return self.playout.run(self.engine.copy(state))


def tree_moves(path: list[Node]) -> list[tuple[int, Code]]:
    """(mover, code) of the actions chosen along `path` (chance outcomes left out)."""
    out = []
    for node, child in zip(path, path[1:]):
        mover = node.mover
        if mover is not TERMINAL and mover != CHANCE:
            out.append((mover, child.code))
    return out
