"""Playouts that leave alone an empty site the mover's own pieces surround, where that pays.

In some games a piece placed on an empty site all of whose neighbours (the board's
edges) hold the mover's own pieces throws away what the player had: in a game of
enclosure, the very space that keeps a group of pieces on the board. Random playouts
that do so at random are noise. Whether it is so in a game is measured, once per game,
on random games from the start: in a round, one game all random and, for each player,
one in which that player draws again (at most RETRIES times) whenever the action drawn
would land on such a site. Where every player's share of the wins is higher when it
avoids them, and the gain summed over the players is at least Z_MIN standard errors, the
playouts of the search avoid them for every player (playout.py). A game in whose random
games no action ever lands on such a site has no rule; the measure stops at MEASURE_SECONDS.
"""
from __future__ import annotations

import math
import random
import time
import weakref
from typing import TYPE_CHECKING, Any, Optional

from interpreter.runtime.pieces import CHANCE, DESTINATION, OWNER

from .playout import draw_outcome

if TYPE_CHECKING:
    from ...runtime.state import State
    from ..protocol import FastLayer, FrontendGame

RETRIES = 2  # further draws when the drawn action lands on such a site
MEASURE_SECONDS = 0.6  # processor time the measure may take, at most
ROUNDS = 100  # rounds of random games at most ...
MIN_ROUNDS = 40  # ... and at least, for a rule
PLIES = 1000  # actions of one random game at most
Z_MIN = 2.0


class Avoidance:
    """Which empty sites the mover's own pieces surround, by the board's edges."""

    def __init__(self, adjacent: list[tuple[int, ...]]) -> None:
        self.adjacent = adjacent

    def surrounded(self, state: State, code: Any, mover: int) -> bool:
        """Whether `code` lands on an empty site all of whose neighbours hold `mover`'s pieces."""
        if len(code) <= DESTINATION:
            return False
        site = code[DESTINATION]
        if not 0 <= site < len(self.adjacent):
            return False
        board = state.board
        if board[site] is not None:
            return False
        for n in self.adjacent[site]:
            piece = board[n]
            if piece is None or piece[OWNER] != mover:
                return False
        return True

    def replace(self, engine: FastLayer, state: State, code: Any, mover: int, rng: random.Random) -> Any:
        """`code`, or an action drawn again (at most RETRIES times) while it lands on such a site."""
        for _ in range(RETRIES):
            if not self.surrounded(state, code, mover):
                break
            code = engine.random_legal(state, rng) or code
        return code


_KEPT: "weakref.WeakKeyDictionary[FrontendGame, Optional[Avoidance]]" = weakref.WeakKeyDictionary()


def avoidance_of(game: FrontendGame) -> Optional[Avoidance]:
    """The rule for `game` when it pays there (measured on first use), else None."""
    try:
        if game in _KEPT:
            return _KEPT[game]
    except TypeError:  # a game object that cannot be weakly referenced
        return measure(game)
    made = _KEPT[game] = measure(game)
    return made


def adjacency(game: FrontendGame) -> list[tuple[int, ...]]:
    """Each site's neighbours by the board's edges (site indices in the board's order)."""
    board = game.board
    index = {name: i for i, name in enumerate(board.sites)}
    out: list[set[int]] = [set() for _ in board.sites]
    for a, b, one_way in board.edges:
        out[index[a]].add(index[b])
        if not one_way:
            out[index[b]].add(index[a])
    return [tuple(sorted(n)) for n in out]


def measure(game: FrontendGame, seed: int = 0) -> Optional[Avoidance]:
    """Play random games (see the module's doc) and keep the rule where it pays."""
    rule = Avoidance(adjacency(game))
    if not any(rule.adjacent):
        return None
    engine, rng, n = game.engine, random.Random(seed), len(game.players)
    start = game.initial_state()
    base = [0.0] * n  # each player's wins (a draw: half) in the all-random games
    avoiding = [0.0] * n  # ... in the games it avoided the sites in
    landed = rounds = 0
    started = time.process_time()
    while rounds < ROUNDS:
        winner, count = _random_game(engine, engine.copy(start), rng, rule, None)
        landed += count
        if rounds + 1 >= MIN_ROUNDS // 4 and not landed:
            return None
        _score(base, winner, n)
        for player in range(n):
            winner, _ = _random_game(engine, engine.copy(start), rng, rule, player)
            avoiding[player] += _score_of(winner, player, n)
        rounds += 1
        spent = time.process_time() - started
        if spent * MIN_ROUNDS > MEASURE_SECONDS * rounds:
            return None  # (MIN_ROUNDS would take longer than the measure may)
        if rounds == MIN_ROUNDS and min(avoiding[p] - base[p] for p in range(n)) <= 0:
            return None
    gains = [(avoiding[p] - base[p]) / rounds for p in range(n)]
    if min(gains) <= 0:
        return None
    variance = sum(r * (1 - r) for p in range(n) for r in (base[p] / rounds, avoiding[p] / rounds)) / rounds
    return rule if sum(gains) >= Z_MIN * math.sqrt(variance) else None


def _random_game(engine: FastLayer, state: State, rng: random.Random, rule: Avoidance,
                 avoider: Optional[int]) -> tuple[Optional[int], int]:
    """(winner, or -1 for a draw, None when unfinished; actions that landed on such sites)."""
    landed = 0
    for _ in range(PLIES):
        if not engine.prepare(state):
            outcome = engine.outcome(state)
            return (None if outcome is None else outcome[0]), landed
        mover = engine.actor(state)
        if mover == CHANCE:
            engine.apply_in_place(state, draw_outcome(engine, state, rng), settle=False)
            continue
        code = engine.random_legal(state, rng)
        if code is None:
            return None, landed
        if mover == avoider:
            code = rule.replace(engine, state, code, mover, rng)
        elif rule.surrounded(state, code, mover):
            landed += 1
        engine.apply_in_place(state, code, settle=False)
    return None, landed


def _score_of(winner: Optional[int], player: int, n: int) -> float:
    if winner is None or winner < 0:
        return 1.0 / n
    return 1.0 if winner == player else 0.0


def _score(scores: list[float], winner: Optional[int], n: int) -> None:
    for p in range(n):
        scores[p] += _score_of(winner, p, n)
