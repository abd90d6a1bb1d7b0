"""The endgame search: a lead converted where few pieces are left.

With few pieces on the board and the mover ahead in material, the playouts say
"won whatever I do" (their random answers walk into captures), and the search's
choice among the root's actions is noise: the side ahead shuffles until a counter
of quiet actions draws the game (PROFILE-NOTES: ai-checkers1–ai-checkers5). What
converts such a lead is a plan of several actions: bring the pieces to the
others', then take. This module asks the compiled rules for it directly: an
iterative-deepening alpha-beta search over the root's actions the safety check let
through, its leaves valued by the learnt evaluation (or, without one, the balance
of material), and where that says nothing (every line keeps the material), by how
near the mover's pieces stand to the others' (`Distances`: the side behind runs
away, the side ahead closes in). Forced actions (a single legal one, or one after
which the mover acts again) and actions that change the material are looked at
one ply further, a bounded number of times, so that a line of captures is seen to
its end. Bounded by positions and by a deadline; nothing here names a game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

from .evaluation import board_steps
from .tree import loses_for

if TYPE_CHECKING:
    from ...analysis.material import Material
    from ...runtime.state import State
    from ...runtime.views import BoardView
    from ..protocol import FastLayer
    from .evaluation import Evaluation
    from .tree import Node

# Few pieces: at most this share of the pieces on the board at the start ...
FEW_PIECES_SHARE = 0.4
# ... and the mover ahead in material by at least this share of the others' (a
# fifth: five against four, four against three are endgames to force; a level game is not)
LEAD_SHARE = 0.2
EPSILON = 1e-9
DEEPEST = 12  # plies at most of the iterative deepening (before extensions)
EXTENSIONS = 6  # forced actions and material changes looked at beyond the depth, at most
WIN = 1e6  # a proven result's value, beyond any evaluation
# the evaluation's value is rounded to this many decimals before the distance breaks
# ties: two lines that keep the same material (the counter of quiet actions aside)
# are told apart by the distance, not by the evaluation's noise
DIGITS = 2


class OutOfBudget(Exception):
    """The endgame search ran out of positions or time."""


class Distances:
    """How far a player's pieces are from the other's (two players): the sum, over
    its pieces on the board, of the steps along the board's lines (evaluation.py,
    `board_steps`) to the nearest piece of the other player."""

    def __init__(self, view: BoardView) -> None:
        n = self.sites = len(view.sites)
        steps = board_steps(view)
        far = n + 1  # (no line leads there)
        self.steps = [[far if (d := steps(a, b)) is None else d for b in range(n)] for a in range(n)]

    def of(self, state: State, player: int) -> int:
        n = self.sites
        mine = [s for s in state.occ[player] if s < n]
        others = [s for s in state.occ[1 - player] if s < n]
        if not mine or not others:
            return 0
        steps = self.steps
        return sum(min(steps[a][b] for b in others) for a in mine)


def pieces_on_board(state: State, sites: int) -> int:
    """The pieces on the board's sites of the two players (`State.occ`'s lists past
    the players' are not theirs)."""
    return sum(1 for occupied in state.occ[:2] for s in occupied if s < sites)


@dataclass
class Endgame:
    """The endgame search of one game (see the module's doc)."""

    engine: FastLayer
    material: Material
    evaluation: Optional[Evaluation]
    distances: Distances
    start_pieces: int  # pieces on the board at the start
    depth: int = 0  # the depth the last search completed (for people watching)

    def applies(self, state: State, me: int) -> bool:
        """Whether `state` is an endgame the mover `me` is ahead in: few pieces left
        (FEW_PIECES_SHARE of the start's), two players, a lead of LEAD_SHARE."""
        if pieces_on_board(state, self.distances.sites) > FEW_PIECES_SHARE * self.start_pieces:
            return False
        now = self.material.of(state)
        if len(now) != 2:
            return False
        lead = now[me] - now[1 - me]
        return lead > EPSILON and lead >= LEAD_SHARE * now[1 - me]

    def choose(self, root: Node, me: int, node_limit: int, deadline: float,
               clock: Callable[[], float]) -> Optional[Node]:
        """The root's child the deepest search completed within `node_limit`
        positions and the `deadline` (a time of `clock`) values most, among those
        the safety check let through and not proven lost; None where there are fewer
        than two or not even depth one was completed."""
        children = root.children or []
        candidates = [c for c in children if c.state is not None and not c.vetoed and not loses_for(c, me)]
        if len(candidates) < 2:
            return None
        search = _AlphaBeta(self, me, node_limit, deadline, clock)
        self.depth = 0
        best: Optional[Node] = None
        order = list(candidates)
        for depth in range(1, DEEPEST + 1):
            try:
                scored = search.root(order, depth)
            except OutOfBudget:
                break
            # (the best first at the next depth: the cut-offs come sooner; ties keep the order)
            order = [c for _, _, c in sorted(scored, key=lambda entry: (-entry[0][0], -entry[0][1], entry[1]))]
            best = order[0]
            self.depth = depth
            if abs(scored_value(scored, best)[0]) >= WIN:
                break  # (a result proven: no deeper search changes it)
        return best

    def leaf(self, state: State, me: int) -> tuple[float, float]:
        """What a position the search does not look beyond is worth to `me`: the
        evaluation (or the balance of material), then nearness to the others' pieces."""
        evaluation = self.evaluation
        if evaluation is not None:
            odds = evaluation.log_odds(state)
            value = odds if me == 0 else -odds
        else:
            value = self.material.balance(state, me)
        return round(value, DIGITS), -float(self.distances.of(state, me))


def scored_value(scored: list[tuple[tuple[float, float], int, Node]], child: Node) -> tuple[float, float]:
    return next(value for value, _, c in scored if c is child)


class _AlphaBeta:
    """One endgame search's alpha-beta over (value, nearness) pairs for `me`."""

    def __init__(self, endgame: Endgame, me: int, node_limit: int, deadline: float,
                 clock: Callable[[], float]) -> None:
        self.endgame, self.engine, self.me = endgame, endgame.engine, me
        self.left, self.deadline, self.clock = node_limit, deadline, clock

    def root(self, children: list[Node], depth: int) -> list[tuple[tuple[float, float], int, Node]]:
        alpha = (-WIN * 2, 0.0)
        scored = []
        for order, child in enumerate(children):
            assert child.state is not None
            value = self.value(child.state, depth - 1, EXTENSIONS, alpha, (WIN * 2, 0.0), self.me)
            scored.append((value, order, child))
            alpha = max(alpha, value)
        return scored

    def value(self, state: State, depth: int, extensions: int, alpha: tuple[float, float],
              beta: tuple[float, float], mover_before: Any) -> tuple[float, float]:
        self.left -= 1
        if self.left < 0 or (self.left % 64 == 0 and self.clock() > self.deadline):
            raise OutOfBudget
        engine, me, endgame = self.engine, self.me, self.endgame
        outcome = engine.outcome(state)
        if outcome is not None:
            winner = outcome[0]
            # (a sooner win counts for more, a later loss for less: the plies left)
            return (0.0 if winner < 0 else (WIN + depth) if winner == me else -(WIN + depth)), 0.0
        mover = engine.to_move(state)
        if mover not in (0, 1):
            return endgame.leaf(state, me)  # (chance: not searched)
        codes = engine.legal(state)
        maximising = mover == me
        children = None
        stand: Optional[tuple[float, float]] = None  # (a quiet position's own value: the mover may decline)
        if depth <= 0:
            if extensions <= 0:
                return endgame.leaf(state, me)
            extensions -= 1
            # (a forced action: the only one, or the same mover again (a capture's next
            # jump), is looked at further; else the actions that change the material,
            # against the position's own value unless every action does (a capture compelled))
            if len(codes) > 1 and mover != mover_before:
                material = endgame.material
                now = material.of(state)
                children = []
                for code in codes:
                    child = engine.copy(state)
                    engine.apply_in_place(child, code)
                    if material.of(child) != now:
                        children.append(child)
                if not children:
                    return endgame.leaf(state, me)
                if len(children) < len(codes):
                    stand = endgame.leaf(state, me)
                    if maximising:
                        if stand >= beta:
                            return stand
                        alpha = max(alpha, stand)
                    else:
                        if stand <= alpha:
                            return stand
                        beta = min(beta, stand)
        best = stand
        for child in children if children is not None else _made(engine, state, codes):
            value = self.value(child, depth - 1, extensions, alpha, beta, mover)
            if maximising:
                if best is None or value > best:
                    best = value
                alpha = max(alpha, value)
            else:
                if best is None or value < best:
                    best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        assert best is not None, "a game going on has a legal action"
        return best


def _made(engine: FastLayer, state: State, codes: Any) -> Any:
    """The positions after each of `codes` from `state`, made one by one."""
    for code in codes:
        child = engine.copy(state)
        engine.apply_in_place(child, code)
        yield child


def endgame_of(game: Any, material: Material, evaluation: Optional[Evaluation]) -> Endgame:
    """The endgame search of `game` (its board's steps measured once)."""
    distances = Distances(game.board)
    return Endgame(game.engine, material, evaluation, distances,
                   pieces_on_board(game.initial_state(), distances.sites))
