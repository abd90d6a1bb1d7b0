"""A bounded exhaustive look-ahead over material: what a move wins or gives away.

From the position after a move, the look-ahead searches every answer for a number
of whole *turns* (a turn being every action one player takes before another acts:
a placement and the removal that a mill allows, a move and its shot), then goes on
with *captures* only — actions after which the opponents' material is lower —, each
side free to stop capturing (quiescence, bounded by `captures` actions). It is
alpha-beta over the balance of one player (material.py): the others answer to
lower it (for two players: minimax). A finished game is worth WIN or -WIN (0 a
draw); a chance event is not looked behind (the balance there is its value).

An answer that cut a search off (a *killer*: the capture of a piece left
hanging) is tried first, before the other answers are made, wherever the same
player answers at the same depth again: the look-ahead over the root's actions
asks the same threat of each.

Its questions are asked with a window around the balance now: whether a move
loses material (its value is below), keeps it, or wins some (above). Every
position it makes counts against `node_limit` (and, given a `deadline`, the
clock is looked at); past it, `OutOfNodes` is raised and the caller knows nothing
more than it knew.
"""
from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence, TypeVar

from ..runtime.pieces import CHANCE
from .material import Material, balance

if TYPE_CHECKING:
    from ..runtime.pieces import Code
    from ..runtime.state import State

WIN = 1_000_000.0  # the value of a won game (lost: -WIN), far beyond any material
DRAW = 0.0
EPSILON = 1e-6  # below any difference of material (whole numbers, or sums of the kinds' values)
CLOCK_EVERY = 32  # positions between two looks at the clock
KILLERS = 2  # answers kept per player and depth that cut the search off (tried first)


class OutOfNodes(Exception):
    """The look-ahead made `node_limit` positions without an answer."""



# a value a search compares: a number, or numbers compared in turn
Value = TypeVar("Value", float, "tuple[float, float, float]")


def stand_pat(stand: Value, maximising: bool, alpha: Value, beta: Value) -> tuple[bool, Value, Value]:
    """A quiescence search's bound from the value of stopping here (`stand`): (whether
    it already cuts the window off, alpha, beta narrowed by it)."""
    if maximising:
        return stand >= beta, max(alpha, stand), beta
    return stand <= alpha, alpha, min(beta, stand)

class Lookahead:
    """Bounded searches over material for the player `me` (see the module's doc)."""

    def __init__(self, engine: Any, material: Material, me: int, node_limit: int = 100_000,
                 captures: int = 4, deadline: Optional[float] = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.engine = engine
        self.material = material
        self.me = me
        self.node_limit = node_limit
        self.captures = captures
        self.deadline = deadline  # a time of `clock` past which it stops too (OutOfNodes)
        self.clock = clock
        self.nodes = 0
        # id(position) -> (position, its material): a position is asked several times
        # (to order, to stand, to compare); the entry keeps it alive, so ids stay apart
        self._materials: dict[int, tuple[State, list[float]]] = {}
        # (mover, turns) -> the last actions that cut a search off there, latest first:
        # the answer that refutes one move (it takes the piece left hanging) mostly
        # refutes the next, and tried first it spares making every other answer
        self.killers: dict[tuple[int, int], list[Code]] = {}

    # -- values ----------------------------------------------------------------------------

    def balance(self, state: State) -> float:
        return balance(self.material_of(state), self.me)

    def material_of(self, state: State) -> list[float]:
        known = self._materials.get(id(state))
        if known is None:
            known = self._materials[id(state)] = (state, self.material.of(state))
        return known[1]

    def terminal(self, state: State) -> Optional[float]:
        """The value of a finished game, or None while it goes on."""
        outcome = self.engine.outcome(state)
        if outcome is None:
            return None
        winner = outcome[0]
        return DRAW if winner < 0 else WIN if winner == self.me else -WIN

    def value(self, state: State, turns: int, alpha: float = -math.inf, beta: float = math.inf,
              after: Optional[list[State]] = None) -> float:
        """The value of `state` for `me` with `turns` whole turns searched, then
        captures (fail-soft alpha-beta: beyond the window, a bound). `after` may
        give the positions after each of `state`'s actions, made already (settled)."""
        done = self.terminal(state)
        if done is not None:
            return done
        mover = self.engine.to_move(state)
        if mover == CHANCE:
            return self.balance(state)
        if turns <= 0:
            return self.quiesce(state, mover, self.captures, alpha, beta)
        maximising = mover == self.me
        best = -math.inf if maximising else math.inf
        key = (mover, turns)
        for child in self.answers(state, mover, key) if after is None else self.ordered(after, mover):
            same = self.engine.to_move(child) == mover
            v = self.value(child, turns if same else turns - 1, alpha, beta)
            if maximising:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                self.remember(key, child.last)
                break
        return best

    def answers(self, state: State, mover: int, key: tuple[int, int]) -> Iterator[State]:
        """The positions after each legal action of `state`: the killers of `key`
        that are legal first, then the others made and ordered (`children`)."""
        killers = self.killers.get(key)
        tried: list[Code] = []
        if killers:
            legal = self.engine.legal(state)
            for code in killers:
                if code in legal:
                    tried.append(code)
                    yield self.child(state, code)
        yield from self.children(state, mover, tried)

    def remember(self, key: tuple[int, int], code: Optional[Code]) -> None:
        """`code` cut a search off at `key`: a killer, tried first next time."""
        if code is None:
            return
        killers = self.killers.setdefault(key, [])
        if code in killers:
            killers.remove(code)
        killers.insert(0, code)
        del killers[KILLERS:]

    def quiesce(self, state: State, mover: int, left: int, alpha: float, beta: float) -> float:
        """Captures only, either side free to stop (its balance now is a bound)."""
        stand = self.balance(state)
        if left <= 0:
            return stand
        maximising = mover == self.me
        cut, alpha, beta = stand_pat(stand, maximising, alpha, beta)
        if cut:
            return stand
        best = stand
        engine = self.engine
        before = balance(self.material_of(state), mover)
        for child, gain, same in self.captures_of(state, mover, before):
            done = self.terminal(child)
            if done is not None:
                v = done
            else:
                nxt = engine.to_move(child)
                if nxt == CHANCE:
                    v = self.balance(child)
                else:
                    v = self.quiesce(child, nxt, left - 1, alpha, beta)
            if maximising:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    # -- positions -------------------------------------------------------------------------

    def child(self, state: State, code: Code, settle: bool = True) -> State:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise OutOfNodes()
        if self.deadline is not None and not self.nodes % CLOCK_EVERY and self.clock() > self.deadline:
            raise OutOfNodes()
        after: State = self.engine.copy(state)
        self.engine.apply_in_place(after, code, settle=settle)
        return after

    def children(self, state: State, mover: int, leave_out: Sequence[Code] = ()) -> list[State]:
        """The positions after each legal action (but those of `leave_out`), best for
        `mover` first: wins, then by material (captures before quiet moves: cut-offs
        come sooner)."""
        codes = self.engine.legal(state)
        if leave_out:
            codes = [code for code in codes if code not in leave_out]
        return self.ordered([self.child(state, code) for code in codes], mover)

    def ordered(self, positions: list[State], mover: int) -> list[State]:
        """`positions` (settled), those best for `mover` first: wins, then by material."""
        engine = self.engine
        scored: list[tuple[int, float, int, State]] = []
        for after in positions:
            outcome = engine.outcome(after)
            first = 0 if outcome is not None and outcome[0] == mover else 1
            scored.append((first, -balance(self.material_of(after), mover), len(scored), after))
        scored.sort()
        return [entry[-1] for entry in scored]

    def captures_of(self, state: State, mover: int, before: float) -> list[tuple[State, float, bool]]:
        """(position, gain, the same player acts again) for each action of `mover`
        that raises its balance, or after which it acts again (a turn of several
        actions: the capture may come at its end), best first."""
        engine = self.engine
        found: list[tuple[float, int, State, bool]] = []
        for code in engine.legal(state):
            after = self.child(state, code, settle=False)
            gain = balance(self.material_of(after), mover) - before
            same = engine.actor(after) == mover
            if gain > EPSILON or same:
                found.append((-gain, len(found), after, same))
        found.sort()
        return [(after, -g, same) for g, _, after, same in found]


def move_values(lookahead: Lookahead, state: State, turns: int, window: float = 1.0) -> list[tuple[Code, float]]:
    """(code, value) for every legal action of `state`: the value for the mover
    after the action, the rest of its turn and `turns` further whole turns (then
    captures), searched within `window` of the balance now (beyond it the value is
    a bound, which tells loss and gain apart)."""
    engine = lookahead.engine
    now = lookahead.balance(state)
    me = engine.to_move(state)
    out = []
    for code in list(engine.legal(state)):
        after = lookahead.child(state, code)
        same = engine.to_move(after) == me
        # (the rest of the mover's own turn comes free: `turns` counts the others' turns on)
        v = lookahead.value(after, turns + 1 if same else turns, now - window, now + window)
        out.append((code, v))
    return out
