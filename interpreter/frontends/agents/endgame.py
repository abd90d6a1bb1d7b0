"""The endgame search: a lead converted where few pieces are left.

With few pieces on the board and the mover ahead in material, the playouts say
"won whatever I do" (their random answers walk into captures), and the search's
choice among the root's actions is noise: the side ahead shuffles until a counter
of quiet actions draws the game (PROFILE-NOTES, issue 28). What
converts such a lead is a plan of several actions: bring the pieces to the
others', then take. This module asks the compiled rules for it directly: an
iterative-deepening alpha-beta search over the root's actions the safety check let
through, its leaves valued by the learnt evaluation (or, without one, the balance
of material), and where that says nothing (every line keeps the material), by how
near the mover's pieces stand to the others' (`Journeys`: the side behind runs
away, the side ahead closes in). Forced actions (a single legal one, or one after
which the mover acts again) and actions that change the material are looked at
one ply further, a bounded number of times, so that a line of captures is seen to
its end. Bounded by positions and by a deadline; nothing here names a game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

from ...analysis.lookahead import stand_pat
from .tree import loses_for

if TYPE_CHECKING:
    from ...analysis.material import Material
    from ...runtime.state import State
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
# a position's worth to the side searching: (the balance of material or a proven
# result, the evaluation rounded, nearness), compared in that order (`Endgame.leaf`)
Value = tuple[float, float, float]


class OutOfBudget(Exception):
    """The endgame search ran out of positions or time."""


class Journeys:
    """How far a player's pieces are from the other's (two players): the sum, over
    its pieces on the board, of the square (the farthest brought in first: a piece
    already near that steps back and forth gains nothing) of the fewest of its own actions that take the piece,
    alone on the board, to the site of the nearest piece of the other player — as
    the rules move it, its kind changing on the way (a man crowned then goes back as
    a king); FAR for one that no such actions take there. Each piece's actions are
    the rules' own, asked of a position holding that piece alone (`make_state`), once
    per owner, kind and site: a man that cannot step back counts its way round by
    the crowning row, where a king's steps on the board (an earlier sum, PROFILE-NOTES) kept it
    from moving at all."""

    def __init__(self, game: Any, sites: int) -> None:
        self.game, self.engine, self.sites = game, game.engine, sites
        self.names = list(game.board.sites)[:sites]
        self.kinds = list(game.kinds)
        self.players = list(game.players)
        self.far = sites + 1
        self._moves: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
        self._tables: dict[tuple[int, int, int], list[int]] = {}

    def of(self, state: State, player: int, reach: Optional[int] = None) -> int:
        """The sum of squares; with `reach` (the player's own actions left before a
        counter draws the game), the pieces' ways are spent from it nearest first, and
        a piece whose way the actions still left do not cover counts as if it stood
        just beyond `reach`, wherever it stands: a piece that cannot come in time is
        left where it stands, and the actions left go to those that can (a man walked
        to the crowning row while the counter runs out converts nothing:
        PROFILE-NOTES, issue 28). Where none can, every piece counts its way."""
        n, board = self.sites, state.board
        others = [s for s in state.occ[1 - player] if s < n]
        if not others:
            return 0
        ways = [min(self.table(player, board[site][1], site)[b] for b in others)  # type: ignore[index]
                for site in state.occ[player] if site < n]
        if reach is None or min(ways) > reach:
            return sum(steps * steps for steps in ways)
        # (the nearest first, each spending its way from the actions left: one piece
        # moves per action, so two that could each come in time may not both)
        total, left = 0, reach
        for steps in sorted(ways):
            if steps <= left:
                left -= steps
                total += steps * steps
            else:
                total += (reach + 1) * (reach + 1)
        return total

    def table(self, owner: int, kind: int, site: int) -> list[int]:
        """The fewest actions from (`kind`, `site`) to each site, FAR where none lead."""
        key = (owner, kind, site)
        found = self._tables.get(key)
        if found is None:
            found = [self.far] * self.sites
            found[site] = 0
            seen = {(kind, site)}
            frontier = [(kind, site)]
            done = 0
            while frontier:  # (each (kind, site) is reached once)
                done += 1
                reached = []
                for k, s in frontier:
                    for step in self.moves(owner, k, s):
                        if step not in seen:
                            seen.add(step)
                            reached.append(step)
                            if found[step[1]] > done:
                                found[step[1]] = done
                frontier = reached
            self._tables[key] = found
        return found

    def moves(self, owner: int, kind: int, site: int) -> list[tuple[int, int]]:
        """(kind, site) of the piece after each of its actions, alone on the board."""
        key = (owner, kind, site)
        found = self._moves.get(key)
        if found is None:
            found = []
            player = self.players[owner]
            try:
                state = self.game.make_state({self.names[site]: (player, self.kinds[kind])}, to_move=player)
            except (ValueError, RuntimeError):  # (a kind that cannot stand there, rules that fail alone)
                state = None
            engine = self.engine
            if state is not None and engine.to_move(state) == owner:
                for code in engine.legal(state):
                    child = engine.copy(state)
                    engine.apply_in_place(child, code)
                    mine = [s for s in child.occ[owner] if s < self.sites]
                    if len(mine) == 1:
                        found.append((child.board[mine[0]][1], mine[0]))
            self._moves[key] = found
        return found


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
    distances: Journeys
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
        # (the search's preference first: among the lines alike to the end of the
        # search, the choice is the one whose pieces stand nearest the other's now —
        # a step put off is a step the counter of quiet actions counts — then the
        # one the search visited most)
        order = sorted(candidates, key=lambda c: -c.visits)
        now = {id(c): self.distances.of(c.state, me, self.reach(c.state))  # type: ignore[arg-type]
               for c in order}
        for depth in range(1, DEEPEST + 1):
            try:
                scored = search.root(order, depth)
            except OutOfBudget:
                break
            # (the best first at the next depth: the cut-offs come sooner; ties keep the order)
            order = [c for _, _, c in sorted(scored, key=lambda entry: (-entry[0][0], -entry[0][1], -entry[0][2],
                                                                         now[id(entry[2])], entry[1]))]
            best = order[0]
            self.depth = depth
            if abs(scored_value(scored, best)[0]) >= WIN:
                break  # (a result proven: no deeper search changes it)
        return best

    def leaf(self, state: State, me: int) -> Value:
        """What a position the search does not look beyond is worth to `me`: the
        balance of material, then the evaluation, then nearness to the others' pieces.
        The balance comes first because the evaluation's fade (its horizons) values a
        lead by the counter's range left, and a capture resets the counter whoever
        makes it: a piece given away to the others' capture looked better than the lead
        kept, and was offered again a few plies on at every move, never played, while
        the counter ran out (PROFILE-NOTES, issue 28). An exchange keeps the balance
        and is told apart by the evaluation."""
        balance = round(self.material.balance(state, me), DIGITS)
        evaluation = self.evaluation
        if evaluation is None:
            return balance, 0.0, -float(self.distances.of(state, me, self.reach(state)))
        odds = evaluation.log_odds(state)
        value = odds if me == 0 else -odds
        return balance, round(value, DIGITS), -float(self.distances.of(state, me, self.reach(state)))

    def reach(self, state: State) -> Optional[int]:
        """The actions of one player left in `state` before the nearest of the
        counters that draw the game (the evaluation's horizons) reaches its limit:
        the counter counts the actions of both players, half of them the mover's.
        None where there is no such counter."""
        if self.evaluation is None or not self.evaluation.horizons:
            return None
        left = min(end - state.vars[variable] for variable, end in self.evaluation.horizons)
        return max(0, int(left + 1) // 2)


def scored_value(scored: list[tuple[Value, int, Node]], child: Node) -> Value:
    return next(value for value, _, c in scored if c is child)


class _AlphaBeta:
    """One endgame search's alpha-beta over `Value`s for `me`."""

    def __init__(self, endgame: Endgame, me: int, node_limit: int, deadline: float,
                 clock: Callable[[], float]) -> None:
        self.endgame, self.engine, self.me = endgame, endgame.engine, me
        self.left, self.deadline, self.clock = node_limit, deadline, clock

    def root(self, children: list[Node], depth: int) -> list[tuple[Value, int, Node]]:
        alpha = (-WIN * 2, 0.0, 0.0)
        scored = []
        for order, child in enumerate(children):
            assert child.state is not None
            value = self.value(child.state, depth - 1, EXTENSIONS, alpha, (WIN * 2, 0.0, 0.0), self.me)
            scored.append((value, order, child))
            # (just below the best so far: a child as good is valued exactly, not cut
            # off at the bound, so that ties are ties and the root's tiebreak is sound)
            alpha = max(alpha, (value[0], value[1], value[2] - 0.5))
        return scored

    def value(self, state: State, depth: int, extensions: int, alpha: Value, beta: Value,
              mover_before: Any) -> Value:
        self.left -= 1
        if self.left < 0 or (self.left % 64 == 0 and self.clock() > self.deadline):
            raise OutOfBudget
        engine, me, endgame = self.engine, self.me, self.endgame
        outcome = engine.outcome(state)
        if outcome is not None:
            winner = outcome[0]
            # (a sooner win counts for more, a later loss for less: the plies left)
            return (0.0 if winner < 0 else (WIN + depth) if winner == me else -(WIN + depth)), 0.0, 0.0
        mover = engine.to_move(state)
        if mover not in (0, 1):
            return endgame.leaf(state, me)  # (chance: not searched)
        codes = engine.legal(state)
        maximising = mover == me
        children = None
        stand: Optional[Value] = None  # (a quiet position's own value: the mover may decline)
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
                    cut, alpha, beta = stand_pat(stand, maximising, alpha, beta)
                    if cut:
                        return stand
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
    sites = len(game.board.sites)
    return Endgame(game.engine, material, evaluation, Journeys(game, sites),
                   pieces_on_board(game.initial_state(), sites))
