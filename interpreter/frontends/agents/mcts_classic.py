"""The first built-in player, plain UCT (`mcts-classic`): kept to measure the
default player (mcts.py) against. Its tree holds `Game` states and `Action`
objects; its random playouts run on the fast layer (`game.engine`), which makes
no difference to its choices' quality, only to their cost.

Monte-Carlo tree search (UCT) for any number of players, with chance events.

Every node keeps the summed rewards of *all* players (a vector), and a player
choosing at a node looks at its own component only ("max^n" UCT): each player
maximises its own score, which is right for 2 players and does not assume the
others gang up on the root player when there are more.

Chance events are not decisions: at a chance node the search draws an outcome by
its probability, so the visit counts below it follow the real distribution and the
averaged rewards are expectations.
"""
from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from interpreter.runtime.views import Action

from ...runtime.pieces import CHANCE, CHANCE_NAME
from .base import SeededAgent, chance_table, check_budget, sample_from_table, sorted_actions
from .mcts import SearchStats
from .playout import random_playout
from .rewards import draw_rewards, normalised_rewards

if TYPE_CHECKING:
    from ...runtime.state import State
    from ..protocol import FrontendGame


DEFAULT_ITERATIONS = 1000
DEFAULT_ROLLOUT_LIMIT = 400


class _Node:
    """One position in the search tree.

    `mover` is the index of the deciding player, `CHANCE` at a chance event
    or `_TERMINAL` when the game is over. Legal actions and chance tables are
    computed at most once per node: the rollout that first visits a node leaves
    them behind for the expansion that comes later.
    """

    __slots__ = (
        "state", "mover", "visits", "totals",
        "actions", "untried", "children",
        "chance", "outcome_children",
        "reward",
    )

    def __init__(self, state: State, mover: int, n_players: int) -> None:
        self.state = state
        self.mover = mover
        self.visits = 0
        self.totals = [0.0] * n_players
        self.actions: list[Action] | None = None  # decision nodes, sorted
        self.untried: list[int] | None = None  # indices into actions
        self.children: list[tuple[Action, _Node]] = []
        self.chance: tuple[list[Action], list[float]] | None = None  # chance nodes: outcomes, cumulative weights
        self.outcome_children: dict[str, _Node] = {}
        self.reward: tuple[float, ...] = ()  # terminal nodes: what the result is worth


_TERMINAL = -1  # the mover of a finished game's node: nobody


class ClassicMCTSAgent(SeededAgent):
    """UCT search with random playouts.

    Budget: `iterations` playouts, or `seconds` of thinking, or both (whichever
    runs out first); neither means DEFAULT_ITERATIONS. Only an iteration budget is
    reproducible: a time budget depends on the machine.

    `rollout_limit` caps the length of one random playout (a bounded loop even for
    games that may not end). A capped playout is judged by the game's `score` rule
    on the position it reached (`engine.scores`), normalised by
    `rewards.score_rewards`: the leader on points gets more than 0.5, level scores
    0.5 each. A game without a score rule counts a capped playout as a draw. `score_weight`
    is the part of a reward that comes from the points (see rewards.py).
    """

    name = "mcts-classic"

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        seed: int | None = 0,
        exploration: float = 1.4,
        rollout_limit: int = DEFAULT_ROLLOUT_LIMIT,
        score_weight: float = 0.1,
    ) -> None:
        super().__init__(seed)
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        check_budget(iterations, seconds, rollout_limit, 0)
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.score_weight = score_weight
        self.last_stats = SearchStats()

    def __repr__(self) -> str:
        return (
            f"ClassicMCTSAgent(iterations={self.iterations!r}, seconds={self.seconds!r}, "
            f"seed={self.seed!r}, exploration={self.exploration!r})"
        )

    # -- the search ---------------------------------------------------------------

    def choose(self, game: FrontendGame, state: State) -> Action:
        search = _Search(game, self)
        root = search.new_node(state)
        if root.mover == _TERMINAL:
            raise ValueError("no legal action: the game is over")
        if root.mover == CHANCE:
            outcomes, cumulative = search.ensure_outcomes(root)
            return sample_from_table(outcomes, cumulative, self.rng)
        actions = search.ensure_actions(root)
        if not actions:
            raise ValueError("no legal action in this position")
        if len(actions) == 1:  # nothing to think about
            self.last_stats = SearchStats(0, 0.0, [(actions[0].notation, 0, 0.0)])
            return actions[0]

        started = time.perf_counter()
        deadline = None if self.seconds is None else started + self.seconds
        limit = self.iterations
        done = 0
        while True:
            search.iterate(root)
            done += 1
            if limit is not None and done >= limit:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break

        me = root.mover
        ranked = sorted(
            root.children,
            key=lambda pair: (pair[1].visits, pair[1].totals[me] / max(pair[1].visits, 1)),
            reverse=True,
        )
        self.last_stats = SearchStats(
            iterations=done,
            seconds=time.perf_counter() - started,
            choices=[
                (action.notation, child.visits, child.totals[me] / max(child.visits, 1))
                for action, child in ranked
            ],
        )
        return ranked[0][0]


class _Search:
    """The tree operations for one `choose` call (game and settings bound once)."""

    def __init__(self, game: FrontendGame, agent: ClassicMCTSAgent) -> None:
        self.game = game
        self.rng = agent.rng
        self.c = agent.exploration
        self.rollout_limit = agent.rollout_limit
        self.score_weight = agent.score_weight
        self.players = tuple(game.players)
        self.n = len(self.players)
        self.index = {p: i for i, p in enumerate(self.players)}

    # -- nodes --------------------------------------------------------------------

    def new_node(self, state: State) -> _Node:
        who = self.game.to_move(state)
        if who is None:
            node = _Node(state, _TERMINAL, self.n)
            node.reward = self.terminal_reward(state)
        elif who == CHANCE_NAME:
            node = _Node(state, CHANCE, self.n)
        else:
            node = _Node(state, self.index[who], self.n)
        return node

    def ensure_actions(self, node: _Node) -> list[Action]:
        if node.actions is None:
            node.actions = sorted_actions(self.game.legal_actions(node.state))
            node.untried = list(range(len(node.actions)))
        return node.actions

    def ensure_outcomes(self, node: _Node) -> tuple[list[Action], list[float]]:
        """The chance event's outcomes and their cumulative weights."""
        table = node.chance
        if table is None:
            node.chance = table = chance_table(self.game, node.state)
        return table

    def terminal_reward(self, state: State) -> tuple[float, ...]:
        return normalised_rewards(self.players, self.game.result(state), self.score_weight)

    # -- one iteration: select, expand, play out, back up ------------------------------

    def iterate(self, root: _Node) -> None:
        node = root
        path = [root]
        while True:
            mover = node.mover
            if mover == _TERMINAL:
                reward = node.reward
                break
            if mover == CHANCE:
                outcomes, cumulative = self.ensure_outcomes(node)
                if not outcomes:  # a broken chance event: nothing to learn here
                    reward = draw_rewards(self.n)
                    break
                outcome = sample_from_table(outcomes, cumulative, self.rng)
                child = node.outcome_children.get(outcome.notation)
                if child is None:
                    child = self.new_node(self.game.apply(node.state, outcome))
                    node.outcome_children[outcome.notation] = child
                    path.append(child)
                    reward = self.rollout(child)
                    break
                node = child
                path.append(node)
                continue
            actions = self.ensure_actions(node)
            untried = node.untried
            if untried:
                # Expand a random untried action: swap-pop keeps this O(1).
                pick = self.rng.randrange(len(untried))
                untried[pick], untried[-1] = untried[-1], untried[pick]
                action = actions[untried.pop()]
                child = self.new_node(self.game.apply(node.state, action))
                node.children.append((action, child))
                path.append(child)
                reward = self.rollout(child)
                break
            if not node.children:  # no legal action although not over: call it a draw
                reward = draw_rewards(self.n)
                break
            node = self.select(node)
            path.append(node)

        n = self.n
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for i in range(n):
                totals[i] += reward[i]

    def select(self, node: _Node) -> _Node:
        """The child with the best upper confidence bound for the player to move."""
        me = node.mover
        scale = self.c * math.sqrt(math.log(node.visits))
        best = None
        best_value = -math.inf
        for _, child in node.children:
            visits = child.visits
            value = child.totals[me] / visits + scale / math.sqrt(visits)
            if value > best_value:
                best, best_value = child, value
        assert best is not None, "select is called on a node with children, all visited"
        return best

    def rollout(self, node: _Node) -> tuple[float, ...]:
        """Random playout from a new node; the node keeps what it computed."""
        if node.mover == _TERMINAL:
            return node.reward
        game, rng = self.game, self.rng
        # The first step uses the node's own (cached) actions or chance table.
        if node.mover == CHANCE:
            outcomes, cumulative = self.ensure_outcomes(node)
            if not outcomes:
                return draw_rewards(self.n)
            state = game.apply(node.state, sample_from_table(outcomes, cumulative, rng))
        else:
            actions = self.ensure_actions(node)
            if not actions:
                return draw_rewards(self.n)
            state = game.apply(node.state, actions[rng.randrange(len(actions))])

        # The rest runs on the fast layer: the same uniform choices, without Action objects.
        return random_playout(game.engine, game.engine.copy(state), rng, self.rollout_limit, self.n,
                              self.score_weight)
