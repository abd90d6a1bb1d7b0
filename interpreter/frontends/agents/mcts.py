"""The built-in MCTS player: UCT with a solver, tactics and a time budget.

For any number of players (each maximises its own reward) and chance events
(outcomes drawn by their probabilities), on the fast layer (`game.engine`).
What it adds to plain UCT (kept as `mcts-classic`, mcts_classic.py):

- **wins and losses in one**: before searching, every action of the root is
  played; a win is taken at once, and every answer of the next player is looked
  at, so that an action that lets the opponent win at once is never chosen while
  another is left (search.py, `check_root`);
- **MCTS-Solver**: results that are certain are proven and backed up (tree.py);
- **tactics in the playouts**: wins taken, captures preferred, suicides avoided
  (playout.py);
- **a cut-off evaluation**: a playout stopped after `rollout_limit` actions is
  judged by the game's `score` rule (rewards.py); in a game with a score rule
  playouts are cut short (SCORED_ROLLOUT_LIMIT), where the points say more than
  a long random game would. In a game without one a cut-off playout says nothing
  (it counts as a draw), so playouts go on until most random games from the
  position would have ended (`natural_rollout_limit`);
- **a time budget** (3 s by default) that it need not use up: a single legal
  action, or a single one that does not lose, is played at once; the search stops
  when the best action can no longer be overtaken, or when many actions look
  alike (every one simulated often enough, and all worth the same within
  ALIKE_BAND: nothing is at stake, as in placements that change no score);
- **tree reuse**: with a time budget, the part of the last search that follows the
  actions played since is kept. An iteration budget is reproducible (the same seed
  gives the same choice whatever came before), so each such search starts afresh.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

from interpreter.runtime.pieces import CHANCE
from interpreter.runtime.views import Action

from .base import SeededAgent, check_budget
from .playout import Tactics, draw_outcome
from .search import Search
from .tree import Node, best_child, find_descendant, loses_for

if TYPE_CHECKING:
    from ...runtime.state import State
    from ..protocol import FastLayer, FrontendGame


DEFAULT_SECONDS = 3.0
LEVELS = {"easy": 0.5, "normal": DEFAULT_SECONDS, "hard": 10.0}  # seconds per decision
DEFAULT_ROLLOUT_LIMIT = 200  # a playout's actions at least, in a game without a score rule
MAX_ROLLOUT_LIMIT = 5000  # ... and at most
SCORED_ROLLOUT_LIMIT = 60  # a playout's actions at most in a game with a score rule
PROBE_PLAYOUTS = 8  # random games that measure how long a game goes on from the root
LENGTH_FACTOR = 3  # the limit: this many times their mean length
CHECK_EVERY = 16  # iterations between two looks at the clock and the stopping rules
# "The actions look alike" when there are ALIKE_ACTIONS or more (placements, say;
# with few, "clear" decides), each has been simulated ALIKE_VISITS times, and
# their mean results differ by less than ALIKE_BAND. With wins and losses the
# noise of so few games alone spreads the means wider than that, so this holds
# only where the results hardly vary: where nothing is at stake.
ALIKE_ACTIONS = 10
ALIKE_VISITS = 24
ALIKE_BAND = 0.05


@dataclass
class SearchStats:
    """What the last search did, for people watching (`hint`, the line after a move)."""

    iterations: int = 0
    seconds: float = 0.0
    # (notation, visits, mean reward of the player who chose) per root action,
    # most visited first.
    choices: list[tuple[str, int, float]] = field(default_factory=list)
    # "win": the chosen action wins whatever the others do; "loss": every action
    # loses against the best answers; "" when nothing is certain.
    verdict: str = ""
    # why the search stopped: budget, only action, forced, solved, clear, alike
    reason: str = ""
    reused: int = 0  # simulated games kept from the previous search


class MCTSAgent(SeededAgent):
    """MCTS with a solver, playout tactics and a time budget (see the module's doc).

    Budget: `seconds` of thinking, or `iterations` playouts, or both (whichever
    runs out first); neither means DEFAULT_SECONDS.
    """

    name = "mcts"

    def __init__(self, iterations: Optional[int] = None, seconds: Optional[float] = None,
                 seed: Optional[int] = 0, exploration: float = 1.0,
                 rollout_limit: Optional[int] = None, score_weight: float = 0.1) -> None:
        super().__init__(seed)
        if iterations is None and seconds is None:
            seconds = DEFAULT_SECONDS
        check_budget(iterations, seconds, 1 if rollout_limit is None else rollout_limit, 1)
        self.seconds = seconds
        self.iterations = iterations
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.score_weight = score_weight
        self.last_stats = SearchStats()
        self._memory: Optional[tuple[Any, Tactics, Node]] = None  # (game, tactics, last root)

    def __repr__(self) -> str:
        return f"MCTSAgent(seconds={self.seconds!r}, iterations={self.iterations!r}, seed={self.seed!r})"

    @property
    def reproducible(self) -> bool:
        """Only an iteration budget gives the same choice on every machine."""
        return self.seconds is None

    def choose(self, game: FrontendGame, state: State) -> Action:
        engine = game.engine
        mover = engine.to_move(state)
        if mover is None:
            raise ValueError("no legal action: the game is over")
        if mover == CHANCE:
            return game.parse_action(state, engine.notation(draw_outcome(engine, state, self.rng)))
        started = time.perf_counter()
        search, root = self._start(game, state)
        reused = root.visits
        search.check_root(root)
        reason = _forced(root)
        iterations = 0
        if not reason:
            iterations, reason = self._think(search, root, started)
        best = best_child(root)
        self.last_stats = _stats(engine, root, best, iterations, time.perf_counter() - started, reason, reused)
        return game.parse_action(state, engine.notation(best.code))

    def _start(self, game: FrontendGame, state: State) -> tuple[Search, Node]:
        """The search and its root: the node of `state` in the last tree when there is one."""
        memory = self._memory
        tactics = memory[1] if memory is not None and memory[0] is game else Tactics()
        limit = self.rollout_limit
        if limit is None:
            scored = game.engine.scores(state) is not None
            limit = SCORED_ROLLOUT_LIMIT if scored else natural_rollout_limit(game.engine, state)
        search = Search(game.engine, self.rng, tactics, len(game.players), exploration=self.exploration,
                        rollout_limit=limit, score_weight=self.score_weight)
        root = None
        if memory is not None and memory[0] is game:
            root = find_descendant(memory[2], state)
        if root is None:
            root = search.new_root(state)
        self._memory = None if self.reproducible else (game, tactics, root)
        return search, root

    def _think(self, search: Search, root: Node, started: float) -> tuple[int, str]:
        """Iterate until the budget is spent or a stopping rule holds: (iterations, reason)."""
        done = 0
        while True:
            search.iterate(root)
            done += 1
            if done % CHECK_EVERY and done != self.iterations:
                continue
            used = self._used(done, started)
            if used >= 1.0:
                return done, "budget"
            reason = _settled(root, used, done)
            if reason:
                return done, reason

    def _used(self, done: int, started: float) -> float:
        """The part of the budget spent (the larger of the two when both are set)."""
        parts = []
        if self.iterations is not None:
            parts.append(done / self.iterations)
        if self.seconds is not None:
            parts.append((time.perf_counter() - started) / self.seconds)
        return max(parts)


def natural_rollout_limit(engine: FastLayer, state: State) -> int:
    """How long a playout from `state` may go on in a game without a score rule:
    LENGTH_FACTOR times the mean length of PROBE_PLAYOUTS random games from there,
    within DEFAULT_ROLLOUT_LIMIT and MAX_ROLLOUT_LIMIT, so that most playouts end
    with a result instead of a cut-off that says nothing (a race game played at
    random takes a thousand actions). The probes draw from a generator of their
    own: the search's draws stay what they were."""
    probe_rng = random.Random(0)
    total = 0
    for _ in range(PROBE_PLAYOUTS):
        total += engine.random_playout(engine.copy(state), probe_rng, MAX_ROLLOUT_LIMIT)
    return max(DEFAULT_ROLLOUT_LIMIT, min(MAX_ROLLOUT_LIMIT, LENGTH_FACTOR * total // PROBE_PLAYOUTS))


def _forced(root: Node) -> str:
    """Why there is nothing to think about at the root, or ""."""
    if root.proven is not None:
        return "solved"
    if len(root.children) == 1:
        return "only action"
    alive = [c for c in root.children if not loses_for(c, root.mover)]
    return "forced" if len(alive) == 1 else ""


def _settled(root: Node, used: float, done: int) -> str:
    """A reason to stop before the budget is spent, or ""."""
    me = root.mover
    if root.proven is not None:
        return "solved"
    ranked = sorted((c.visits for c in root.children if not loses_for(c, me)), reverse=True)
    if len(ranked) <= 1:
        return "forced"
    left = done * (1.0 - used) / max(used, 1e-9)
    if ranked[0] - ranked[1] > left:
        return "clear"
    return "alike" if _look_alike(root) else ""


def _look_alike(root: Node) -> bool:
    """Whether the root's many actions are all worth the same (see ALIKE_BAND)."""
    children = root.children
    if len(children) < ALIKE_ACTIONS or any(c.visits < ALIKE_VISITS for c in children):
        return False
    means = [c.mean(root.mover) for c in children if not loses_for(c, root.mover)]
    return bool(means) and max(means) - min(means) < ALIKE_BAND


def _stats(engine: FastLayer, root: Node, best: Node, iterations: int, seconds: float, reason: str,
           reused: int) -> SearchStats:
    me = root.mover
    shown = [c for c in root.children if c.materialised]
    shown.sort(key=lambda c: (c is not best, -c.visits, -c.mean(me)))
    verdict = "win" if best.proven == me else "loss" if loses_for(best, me) else ""
    return SearchStats(
        iterations=iterations, seconds=seconds, reason=reason, reused=reused, verdict=verdict,
        choices=[(engine.notation(c.code), c.visits, _value(c, me)) for c in shown],
    )


def _value(node: Node, me: int) -> float:
    """What `node` is worth to `me`: 1 or 0 when proven, else the mean reward."""
    if node.proven is not None:
        return 1.0 if node.proven == me else 0.0
    return node.mean(me)
