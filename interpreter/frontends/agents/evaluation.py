"""An evaluation of positions learnt per game from random games.

For a game of two players, the player fits how likely the first player is to
win from what a position holds — each player's pieces of each kind on the board
(and stones, in a game of stacks), its pieces in each pool, the points of the
game's score rule, who is to move — to the results of random games: least
squares on the positions of a few hundred random games from the start, then a
logistic curve over that sum, so that the value reads as a chance of winning
(`Evaluation.first_wins`). It is what a random playout from the position would
find on average, known at once and without a playout's noise, which is what
lets the search cut its playouts short (playout.py) and back up values by
minimax in the tree (tree.py).

A game's variables (a counter of quiet moves that a draw rule reads, say) are
read in a second fit: over the first fit's sum s and the products s·v of s with
each variable v — how much the lead counts depends on the variables, so that
being ahead can count for less as a counter nears the value where the game is
drawn, which no weight of a sum could say. A variable is read where, alone, it
explains more of the held-out results than the first fit; the second fit is
kept where it does so too.

It is learnt only where it says something: a quarter of the random games is
held out, and the fit is kept when it explains at least MIN_R2 of the variance
of their results. Where the counts never change (a game whose pieces are never
taken, where every position has the same pieces for both), the fit is tried
again with each player's reach (`Reach`): the empty sites its pieces get to in
fewer moves along the board's lines than the other player's — in a game of
blocking, the room each side has left. Where that explains too little as well,
there is no evaluation and playouts go to the end.

Where the first fit explains too little and every player won the random games by
moving to a few sites (GOAL_SHARE of the board's at most: a race's goal, not the
last disc of a row that falls anywhere), the fit is tried again with each player's
race (`Race`): the steps its pieces need to reach those sites by the moves the
random games made. A race played at random is a random walk, won by whoever the
dice favour a thousand actions later, whatever the position (in a bundled dice race
the held-out R² of the race features on uniformly random games is 0.00); so the games
of this try move each piece by the nearer of two random actions, and the fit says who
wins a race that both sides run (R² 0.08 there, where uniformly random ones give
none). A game whose far rows are every piece's goal tries it too, and there the race
may explain too little: no evaluation, as before.
Learning is seeded and takes a fraction of a second, so it is done on first use
in each process, the same every time.
"""
from __future__ import annotations

import dataclasses
import heapq
import math
import operator
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from ...runtime.pieces import CHANCE, DESTINATION, ORIGIN
from ...runtime.results import EndingKind

if TYPE_CHECKING:
    from ...runtime.state import State
    from ...runtime.views import BoardView
    from ..protocol import FrontendGame

LEARN_GAMES = 300  # random games played to learn (at most)
LEARN_ACTIONS = 20_000  # their actions in all (at most)
# the random actions of the try with the reach (at most), times the board's sites: a
# search of the board for each position, its cost grows with the board (10,000 on 10x10)
REACH_WORK = 1_000_000
LEARN_GAME_ACTIONS = 1000  # one game's actions (at most; unfinished: a draw)
# the try with the race (`Race`): random actions in all and in one game (at most), every
# so many positions' features kept (a race's random games are long)
RACE_ACTIONS = 100_000
RACE_GAME_ACTIONS = 5000
RACE_EVERY = 8
GOAL_SHARE = 0.125  # a race's goals: at most this share of the board's sites, for each player
# the try with the goal pieces' room (`Escape`): a player's wins all made by moving pieces of
# kinds of which it has at most so many at the start
FEW_GOAL_PIECES = 2
SLIDING = 3  # ... and whose moves went so many lengths along a line at least (pieces that slide)
HOLD_OUT = 4  # every fourth game checks the fit
MIN_R2 = 0.05  # the share of the held-out results' variance the fit must explain
RIDGE = 1e-3  # keeps the least squares solvable when features move together
CALIBRATION_STEPS = 25  # Newton steps of the logistic curve
MOST_CONFIDENT = 0.98  # no evaluation claims a result surer than this
LEAST_SURE = 1.0 - MOST_CONFIDENT  # ... either way
# a variable that the players reset is a counter drawing the game at its largest value
# where at least this share of the positions at that value were of drawn games
# (a count of quiet actions drawing at 40: 33 of 36 positions at 39; in the rest a capture,
# compulsory there, came instead)
DRAWN_AT_LIMIT = 0.75
MOST_VARIABLES = 8  # the game's variables read by the second fit (at most: the first that help)

Rows = list[list[float]]  # positions' features
Results = list[float]  # their games' results for the first player
Values = list[list[int]]  # their variables


class Reach:
    """Each player's reach: the empty sites that its pieces get to in fewer moves
    than the other player's, a move going any distance along one of the board's
    lines (a grid's files, ranks and diagonals; a graph's edges) over empty sites."""

    def __init__(self, view: BoardView) -> None:
        self.sites = len(view.sites)
        self.lines = board_lines(view, GRID_DIRECTIONS)

    def of(self, state: State) -> list[float]:
        """(the first player's reach, the second's)."""
        board = state.board
        n = self.sites
        nearest = [self._moves(board, [s for s in sites if s < n]) for sites in state.occ[:2]]
        first = second = 0
        for a, b in zip(*nearest):
            if a < b:
                first += 1
            elif b < a:
                second += 1
        return [first, second]

    def _moves(self, board: Sequence[object], seeds: list[int]) -> list[int]:
        """The moves from `seeds` to each empty site (n + 1 where none reaches; the occupied too)."""
        n = self.sites
        lines = self.lines
        moves = [n + 1] * n
        frontier = seeds
        done = 0
        while frontier:  # (each site is reached once: at most n rounds)
            done += 1
            reached = []
            for site in frontier:
                for line in lines[site]:
                    for t in line:
                        if board[t] is not None:
                            break
                        found = moves[t]
                        if found > done:
                            moves[t] = done
                            reached.append(t)
                        elif found < done:  # (reached before: what lies beyond it on the line too)
                            break
            frontier = reached
        return moves


GRID_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
Lines = tuple[tuple[tuple[int, ...], ...], ...]  # per site, its lines: the sites along each, nearest first


def board_lines(view: BoardView, directions: Sequence[tuple[int, int]]) -> Lines:
    """Each site's lines: on a grid, the sites in each of `directions` to the
    board's end, nearest first; on a graph, each edge (its way) a line of one site."""
    index = {name: i for i, name in enumerate(view.sites)}
    lines: list[list[tuple[int, ...]]] = [[] for _ in view.sites]
    if view.kind == "grid":
        at = {(round(x), round(y)): index[name] for name, (x, y) in view.coords.items()}
        for (x, y), site in at.items():
            for dx, dy in directions:
                line = []
                step = 1
                while (x + step * dx, y + step * dy) in at:  # (bounded by the board)
                    line.append(at[x + step * dx, y + step * dy])
                    step += 1
                if line:
                    lines[site].append(tuple(line))
    else:
        for a, b, one_way in view.edges:
            lines[index[a]].append((index[b],))
            if not one_way:
                lines[index[b]].append((index[a],))
    return tuple(tuple(site_lines) for site_lines in lines)


def slide_lengths(view: BoardView, moves: set[tuple[int, int]]) -> int:
    """How many lengths the moves (origin, destination) along a grid's lines went
    (0 off a grid): a piece that slides goes one step, two, three...; a pawn that
    steps (and jumps) goes one or two lengths."""
    if view.kind != "grid":
        return 0
    at = [view.coords[name] for name in view.sites]
    lengths = set()
    for a, b in moves:
        dx, dy = round(at[b][0] - at[a][0]), round(at[b][1] - at[a][1])
        if dx == 0 or dy == 0 or abs(dx) == abs(dy):
            lengths.add(max(abs(dx), abs(dy)))
    return len(lengths)


def directions_moved(view: BoardView, moves: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The grid directions (of GRID_DIRECTIONS) along which the moves (origin,
    destination) went, each as far as it went: the lines pieces slide on."""
    if view.kind != "grid":
        return []
    at = [view.coords[name] for name in view.sites]
    found = set()
    for a, b in moves:
        dx, dy = round(at[b][0] - at[a][0]), round(at[b][1] - at[a][1])
        steps = max(abs(dx), abs(dy))
        if steps and (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
            found.add((dx // steps, dy // steps))
    return [d for d in GRID_DIRECTIONS if d in found]


class Escape:
    """How free the pieces are whose move to a site wins the game: for each
    player whose wins in the random games were all made by moving a piece of
    kinds it has at most FEW_GOAL_PIECES of (a king that escapes to the edge,
    not a soldier among many that closes a ring), the goal sites (where those
    wins landed) that such a piece reaches in one move and in two, and its
    forks — the sites one move away from which two goal sites or more are one
    move away. A move goes any distance along the lines the random
    games moved on, over empty sites (what the rules forbid besides is not
    asked: a measure, not the legal moves); only pieces that slide (SLIDING) are
    measured so, on a grid."""

    def __init__(self, view: BoardView, seen: Seen, pieces_at_start: Sequence[list[int]]) -> None:
        self.sites = len(view.sites)
        # per player: (the kinds whose moves won, the sites they won on), or None
        self.goals: list[Optional[tuple[frozenset[int], frozenset[int]]]] = []
        moved: set[tuple[int, int]] = set()
        for player, (kinds, goals) in enumerate(zip(seen.winning_kinds, seen.goals)):
            few = kinds and -1 not in kinds and sum(pieces_at_start[player][kind] for kind in kinds) <= FEW_GOAL_PIECES
            moves = {move for kind in kinds for move in seen.kind_moves.get(kind, ())} if few else set()
            # (a piece that steps — a pawn behind walls — is not measured by slides)
            if few and goals and slide_lengths(view, moves) >= SLIDING:
                self.goals.append((frozenset(kinds), frozenset(goals)))
                moved |= moves
            else:
                self.goals.append(None)
        self.lines = board_lines(view, directions_moved(view, moved))

    def any(self) -> bool:
        return any(goal is not None for goal in self.goals)

    def against(self, player: int) -> bool:
        """Whether another player than `player` wins by a goal piece's escape."""
        return any(goal is not None for other, goal in enumerate(self.goals) if other != player)

    def room(self, state: State, player: int) -> Optional[tuple[int, int, int]]:
        """`player`'s goal pieces' room, the freest piece's: (its forks, the goal sites it
        reaches in two moves, in one); None where the player has no goal pieces."""
        goal = self.goals[player] if player < len(self.goals) else None
        if goal is None:
            return None
        kinds, goals = goal
        board = state.board
        n = self.sites
        best = (0, 0, 0)
        for site in state.occ[player]:
            piece = board[site] if site < n else None
            if piece is not None and piece[1] in kinds:
                best = max(best, self._room(board, site, goals))
        return best

    def _room(self, board: Sequence[object], site: int, goals: frozenset[int]) -> tuple[int, int, int]:
        first = self._slides(board, site, site)
        two: set[int] = set()
        forks = 0
        for middle in first:  # (at most the board's sites, each with its lines: bounded)
            reached = [t for t in self._slides(board, middle, site) if t in goals]
            two.update(reached)
            forks += len(reached) >= 2
        return forks, len(two), sum(1 for t in first if t in goals)

    def _slides(self, board: Sequence[object], site: int, left: int) -> list[int]:
        """The empty sites a slide from `site` reaches (`left`, the piece's own site, counted empty)."""
        out = []
        for line in self.lines[site]:
            for t in line:
                if board[t] is not None and t != left:
                    break
                out.append(t)
        return out


class Race:
    """Each player's race to the sites where it has won: the steps (along the
    board's lines) that each of its pieces needs at least to reach one by the
    moves the random games made — a move its steps along the lines (a roll's
    walk), one that leaves them (a jump) as many as the longest that does not —
    the nearest piece's and all its pieces' (a piece off the board counts as
    farther than any on it)."""

    def __init__(self, view: BoardView, moves: set[tuple[int, int]], goals: Sequence[set[int]],
                 pieces: Sequence[int]) -> None:
        sites = self.sites = len(view.sites)
        self.pieces = tuple(pieces)
        steps = board_steps(view)
        costs = {move: steps(*move) for move in moves}
        longest = max((c for c in costs.values() if c is not None), default=1)
        into: list[list[tuple[int, int]]] = [[] for _ in range(sites)]
        for (a, b), cost in costs.items():
            into[b].append((a, longest if cost is None else cost))
        self.moves: list[list[int]] = []
        self.far: list[int] = []  # per player: the steps of a piece off the board
        for targets in goals:
            steps_to = [-1] * sites
            queue = [(0, t) for t in sorted(targets)]
            while queue:  # (Dijkstra: each site is settled once)
                done, site = heapq.heappop(queue)
                if steps_to[site] >= 0:
                    continue
                steps_to[site] = done
                for before, cost in into[site]:
                    if steps_to[before] < 0:
                        heapq.heappush(queue, (done + cost, before))
            far = max(steps_to) + 1
            self.far.append(far)
            self.moves.append([far if m < 0 else m for m in steps_to])

    def nearer_of_two(self, engine: Any, state: State, rng: random.Random, code: Any, mover: int) -> Any:
        """`code` or a second random action, whichever moves a piece nearer to `mover`'s goals."""
        other = engine.random_legal(state, rng)
        if other is None or min(len(code), len(other)) <= DESTINATION or min(code[ORIGIN], other[ORIGIN]) < 0:
            return code
        moves_to = self.moves[mover]
        n = self.sites
        gain = moves_to[code[DESTINATION]] - moves_to[code[ORIGIN]] if code[ORIGIN] < n else 0
        gain_other = moves_to[other[DESTINATION]] - moves_to[other[ORIGIN]] if other[ORIGIN] < n else 0
        return other if gain_other < gain else code

    def of(self, state: State) -> list[float]:
        """(the first player's nearest piece, all its pieces, then the second's)."""
        n = self.sites
        x: list[float] = []
        for player, (moves_to, far) in enumerate(zip(self.moves, self.far)):
            on_board = [moves_to[s] for s in state.occ[player] if s < n]
            x.append(min(on_board, default=far))
            x.append(sum(on_board) + far * max(0, self.pieces[player] - len(on_board)))
        return x


def board_steps(view: BoardView) -> Callable[[int, int], Optional[int]]:
    """The steps from one site to another along the board's lines (a grid's: a
    king's steps; a graph's: its edges, one-way edges their way), None where none lead."""
    index = {name: i for i, name in enumerate(view.sites)}
    if view.kind == "grid":
        at = [view.coords[name] for name in view.sites]
        return lambda a, b: round(max(abs(at[a][0] - at[b][0]), abs(at[a][1] - at[b][1])))
    near: list[list[int]] = [[] for _ in view.sites]
    for x, y, one_way in view.edges:
        near[index[x]].append(index[y])
        if not one_way:
            near[index[y]].append(index[x])
    found: dict[int, list[Optional[int]]] = {}

    def steps(a: int, b: int) -> Optional[int]:
        table = found.get(a)
        if table is None:
            table = found[a] = [None] * len(near)
            table[a] = 0
            frontier = [a]
            done = 0
            while frontier:  # (each site is reached once)
                done += 1
                reached = []
                for site in frontier:
                    for t in near[site]:
                        if table[t] is None:
                            table[t] = done
                            reached.append(t)
                frontier = reached
        return table[b]

    return steps


class Features:
    """What the evaluation reads from a position, as a list of numbers."""

    def __init__(self, game: FrontendGame, reach: Optional[Reach | Race] = None) -> None:
        self.game = game
        # (Any: it reads `piece_counts`, beyond what protocol.FastLayer names)
        self.engine: Any = game.engine
        self.players = tuple(game.players)
        start = game.initial_state()
        self.pools = list(game.pools(start))
        self.scored = self.engine.scores(start) is not None
        self.reach = reach

    def of(self, state: State) -> list[float]:
        engine = self.engine
        x: list[float] = []
        for row in engine.piece_counts(state):
            x.extend(row)
        if self.pools:
            pools = self.game.pools(state)
            for name in self.pools:
                counts = pools[name]
                x.extend(counts.get(p, 0) for p in self.players)
        if self.scored:
            x.extend(engine.scores(state))
        x.append(1.0 if engine.actor(state) == 0 else 0.0)
        if self.reach is not None:
            x.extend(self.reach.of(state))
        return x


@dataclass(frozen=True)
class Evaluation:
    """A learnt evaluation: P(first player wins) = logistic(scale * w.(x - mean) + bias)."""

    features: Features
    used: tuple[int, ...]  # the features that vary (the others are left out)
    mean: tuple[float, ...]
    weights: tuple[float, ...]
    scale: float
    bias: float
    r2: float  # how much of the held-out results it explains
    # the second fit (see the module's doc), where kept: the variables read (indices
    # of `State.vars`) and the weights of (s, then s·v for each) about their means
    variables: tuple[int, ...] = ()
    second_mean: tuple[float, ...] = ()
    second_weights: tuple[float, ...] = ()
    # the standard deviation of its log-odds over the positions it learnt from:
    # how far apart it tells positions of the game (the playouts' blindness is
    # measured against it, playout.py)
    spread: float = 0.0
    # (index in `State.vars`, largest value) of the second fit's variables that are
    # counters drawing the game at a limit (`draw_limits`)
    draw_limits: tuple[tuple[int, int], ...] = ()
    # where set (`with_horizons`): (index in `State.vars`, value) of the variables whose
    # rise makes a lead count for less, and the value at which it counts for nothing
    horizons: tuple[tuple[int, float], ...] = ()

    def with_horizons(self) -> Evaluation:
        """This evaluation, its log-odds shrunk toward a draw as each variable that
        makes a lead fade (a second-fit weight of s·v of the other sign than s's) and
        draws the game at a limit (`draw_limits`) nears that limit: the lead is worth
        the more the more of the counter's range is left to convert it in. The second
        fit's own fade is learnt from random games, which seldom come near that value,
        and says a lead at its end still counts for a third; a search that believes
        so shuffles a won position into the draw. Itself where no variable fades."""
        if not self.draw_limits:
            return self
        lead = self.second_weights[0]
        weights = dict(zip(self.variables, self.second_weights[1:]))
        horizons = tuple((variable, float(most + 1)) for variable, most in self.draw_limits
                         if weights[variable] * lead < 0)
        return dataclasses.replace(self, horizons=horizons) if horizons else self

    def first_wins(self, state: State) -> float:
        """The chance that the first player wins from `state` (within the bounds
        of MOST_CONFIDENT)."""
        return chance(self.log_odds(state))

    def log_odds(self, state: State) -> float:
        """The log-odds of the first player's win from `state`, not bounded: where
        the chances of two positions are both at the cap, these still differ."""
        x = self.features.of(state)
        linear = 0.0
        for i, m, w in zip(self.used, self.mean, self.weights):
            linear += w * (x[i] - m)
        if self.variables:
            linear = sum(w * (v - m) for v, m, w in
                         zip(second_row(linear, state.vars, self.variables), self.second_mean, self.second_weights))
        log_odds = self.scale * linear + self.bias
        for variable, end in self.horizons:
            log_odds *= max(0.0, 1.0 - state.vars[variable] / end)
        return log_odds


def race_of(evaluation: Evaluation) -> Optional[Race]:
    """The players' race that `evaluation` reads, where it reads one."""
    reach = evaluation.features.reach
    return reach if isinstance(reach, Race) else None


def chance(log_odds: float) -> float:
    """The chance of the log-odds `log_odds`, within the bounds of MOST_CONFIDENT."""
    if log_odds > 30.0:
        return MOST_CONFIDENT
    if log_odds < -30.0:
        return 1.0 - MOST_CONFIDENT
    p = 1.0 / (1.0 + math.exp(-log_odds))
    return min(MOST_CONFIDENT, max(1.0 - MOST_CONFIDENT, p))


def learn(game: FrontendGame) -> Optional[Evaluation]:
    """The evaluation of a two-player game, or None where it explains too little."""
    return learn_with_escape(game)[0]


def learn_with_escape(game: FrontendGame) -> tuple[Optional[Evaluation], Optional[Escape]]:
    """`learn`'s evaluation, and the room of the pieces whose move to a site wins
    (`Escape`) as the same random games show them (None where no player wins by
    moving one of a few pieces that slide)."""
    if len(game.players) != 2 or not hasattr(game.engine, "piece_counts"):
        return None, None
    features = Features(game)
    sites = len(game.board.sites)
    seen = Seen(sites, len(game.players))
    data = random_game_data(game, features, seen=seen)
    escape = Escape(game.board, seen, game.engine.piece_counts(game.initial_state()))
    return _learn_from(game, features, seen, data), escape if escape.any() else None


def _learn_from(game: FrontendGame, features: Features, seen: Seen,
                data: tuple[Rows, Results, Rows, Results, Values, Values]) -> Optional[Evaluation]:
    """The evaluation from the first random games' `data`, else from those of the race or the reach."""
    sites = len(game.board.sites)
    learnt = fit(features, data, seen.fell)
    if learnt is None and seen.racing():
        race = Race(game.board, seen.moves, seen.goals, pieces(game))
        features = Features(game, race)
        race_seen = Seen(sites, len(game.players))
        learnt = fit(features, random_game_data(game, features, RACE_ACTIONS, RACE_GAME_ACTIONS, RACE_EVERY,
                                                    seen=race_seen, race=race), race_seen.fell)
        if learnt is not None:
            return learnt
        features = Features(game)
    rows = data[0]
    # (the counts, pools and scores never changed: the last column, who is to move, alone varies)
    if learnt is None and sites and rows and all(len({row[i] for row in rows}) == 1 for i in range(len(rows[0]) - 1)):
        features = Features(game, Reach(game.board))
        reach_seen = Seen(sites, len(game.players))
        learnt = fit(features, random_game_data(game, features, REACH_WORK // sites, seen=reach_seen),
                     reach_seen.fell)
    return learnt


def fit(features: Features, data: tuple[Rows, Results, Rows, Results, Values, Values],
        fell: frozenset[int] | set[int] = frozenset()) -> Optional[Evaluation]:
    """The evaluation that reads `features`, from their values in random games
    (`random_game_data`; `fell`: the variables that fell within one, `Seen.fell`),
    or None where it explains too little."""
    train_x, train_y, test_x, test_y, train_v, test_v = data
    if len(train_x) < 50 or len(test_x) < 20:
        return None
    used = [i for i in range(len(train_x[0])) if len({row[i] for row in train_x}) > 1]
    if not used:
        return None
    train = [[row[i] for i in used] for row in train_x]
    test = [[row[i] for i in used] for row in test_x]
    mean = [sum(col) / len(train) for col in zip(*train)]
    weights = ridge(train, train_y, mean)
    average = sum(train_y) / len(train_y)
    r2 = explained([linear(row, mean, weights) for row in test], test_y, average)
    if r2 < MIN_R2:
        return None
    sums = [linear(row, mean, weights) for row in train]
    sums_test = [linear(row, mean, weights) for row in test]
    varying = [j for j in range(len(train_v[0])) if len({v[j] for v in train_v}) > 1] if train_v else []
    # each variable alone first (a site's index, say, read as a number explains nothing), then those that helped
    helping = [j for j in varying
               if second_fit(sums, train_y, train_v, sums_test, test_y, test_v, (j,), average)[0] > r2]
    variables = tuple(helping[:MOST_VARIABLES])
    second: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    if variables:
        r2_second, second_mean, second_weights = second_fit(sums, train_y, train_v, sums_test, test_y, test_v,
                                                            variables, average)
        if r2_second > r2:
            r2, second = r2_second, (tuple(second_mean), tuple(second_weights))
            sums = [linear(second_row(s, v, variables), second_mean, second_weights) for s, v in zip(sums, train_v)]
        else:
            variables = ()
    scale, bias = calibrate(sums, train_y)
    centre = sum(sums) / len(sums)
    spread = abs(scale) * math.sqrt(sum((s - centre) ** 2 for s in sums) / len(sums))
    return Evaluation(features, tuple(used), tuple(mean), tuple(weights), scale, bias, r2, variables, *second,
                      spread=spread, draw_limits=draw_limits(variables, fell, train_v + test_v, train_y + test_y))


def draw_limits(variables: Sequence[int], fell: frozenset[int] | set[int], values: Values,
                results: Results) -> tuple[tuple[int, int], ...]:
    """(variable, its largest value) of those of `variables` that are counters drawing the
    game at a limit, as the random games showed them: the variable fell within a game (the
    players reset it: a counter of quiet actions, not a clock of turns played), and of the
    positions where it had its largest value, DRAWN_AT_LIMIT at least were of drawn games."""
    limits = []
    for j in variables:
        if j not in fell:
            continue
        most = max(v[j] for v in values)
        at_most = [y for v, y in zip(values, results) if v[j] == most]
        if most > 0 and sum(1 for y in at_most if y == 0.5) >= DRAWN_AT_LIMIT * len(at_most):
            limits.append((j, most))
    return tuple(limits)


def second_fit(sums: list[float], ys: Results, values: Values, sums_test: list[float], ys_test: Results,
               values_test: Values, variables: tuple[int, ...],
               average: float) -> tuple[float, list[float], list[float]]:
    """The second fit over `variables`: (the share of the held-out results it explains, its means, its weights)."""
    rows = [second_row(s, v, variables) for s, v in zip(sums, values)]
    mean = [sum(col) / len(rows) for col in zip(*rows)]
    weights = ridge(rows, ys, mean)
    tests = [second_row(s, v, variables) for s, v in zip(sums_test, values_test)]
    return explained([linear(row, mean, weights) for row in tests], ys_test, average), mean, weights


def second_row(first: float, values: Sequence[int], variables: Sequence[int]) -> list[float]:
    """The second fit's features: the first fit's sum, then its product with each variable."""
    row = [first]
    for j in variables:
        row.append(first * values[j])
    return row


def explained(predicted: Sequence[float], ys: Sequence[float], average: float) -> float:
    """The share of the variance of `ys` (about `average`) that `predicted` (centred) explains."""
    total = sum((y - average) ** 2 for y in ys)
    error = sum((y - average - p) ** 2 for y, p in zip(ys, predicted))
    return 1.0 - error / total if total > 0 else 0.0


def pieces(game: FrontendGame) -> list[int]:
    """Each player's pieces at the start, on the board and in pools."""
    start = game.initial_state()
    n = len(game.board.sites)
    pools = game.pools(start)
    return [sum(1 for s in start.occ[i] if s < n) + sum(counts.get(name, 0) for counts in pools.values())
            for i, name in enumerate(game.players)]


class Seen:
    """What the random games showed of the board (for `Race`): the moves made
    (origin, destination) and, per player, the sites of the moves that won it a game."""

    def __init__(self, sites: int, players: int) -> None:
        self.sites = sites
        self.moves: set[tuple[int, int]] = set()
        self.goals: list[set[int]] = [set() for _ in range(players)]
        self.winning_kinds: list[set[int]] = [set() for _ in range(players)]  # the kinds of the pieces moved there
        self.kind_moves: dict[int, set[tuple[int, int]]] = {}  # the moves made, by the kind of the piece moved
        self.fell: set[int] = set()  # the variables (indices of `State.vars`) whose value fell within a game

    def racing(self) -> bool:
        """Whether every player has won by moving to one of a few sites (GOAL_SHARE of the board's at most)."""
        return all(0 < len(goals) <= self.sites * GOAL_SHARE for goals in self.goals)


def random_game_data(game: FrontendGame, features: Features, most_actions: int = LEARN_ACTIONS,
                     game_actions: int = LEARN_GAME_ACTIONS, every: int = 1, seen: Optional[Seen] = None,
                     race: Optional[Race] = None) -> tuple[Rows, Results, Rows, Results, Values, Values]:
    """(features, result for the first player) of the positions of random games
    (every `every`-th), split into those to learn from and those held out; then
    the positions' variables (`State.vars`), likewise. What the games show of
    the board is kept in `seen`, when given. With a `race`, each move of a piece
    is the one of two random actions that brings it nearer its player's goals."""
    engine = game.engine
    n = len(game.board.sites)
    rng = random.Random(0)
    sets: tuple[Rows, Results, Rows, Results, Values, Values] = ([], [], [], [], [], [])
    actions = 0
    for number in range(LEARN_GAMES):
        if actions >= most_actions:
            break
        state = game.initial_state()
        rows: Rows = []
        values: Values = []
        last: Optional[tuple[int, Any, Any]] = None  # (mover, code, the piece moved) of the last decision
        # (drawn as the playouts draw: a position is listed only as far as the draw needs)
        for step in range(game_actions):
            if not engine.prepare(state):
                break
            code = engine.random_legal(state, rng)
            if code is None:
                break
            mover = engine.actor(state)
            if race is not None and mover >= 0:
                code = race.nearer_of_two(engine, state, rng, code, mover)
            if mover != CHANCE:
                if step % every == 0:
                    rows.append(features.of(state))
                    now = list(getattr(state, "vars", ()))
                    if seen is not None and values:
                        seen.fell.update(j for j, (before, v) in enumerate(zip(values[-1], now))
                                         if isinstance(v, int) and v < before)
                    values.append(now)
                if seen is not None:
                    moved = state.board[code[ORIGIN]] if len(code) > DESTINATION and 0 <= code[ORIGIN] < n else None
                    last = (mover, code, moved)
                    if moved is not None and 0 <= code[DESTINATION] < n:
                        seen.moves.add((code[ORIGIN], code[DESTINATION]))
                        seen.kind_moves.setdefault(moved[1], set()).add((code[ORIGIN], code[DESTINATION]))
            engine.apply_in_place(state, code, settle=False)
            actions += 1
        outcome = engine.outcome(state)
        if seen is not None and outcome is not None and last is not None and outcome[0] == last[0] >= 0:
            ending = engine.ending(state)
            if ending is not None and ending[0] == EndingKind.WIN.word and len(last[1]) > DESTINATION:
                if 0 <= last[1][DESTINATION] < n:
                    seen.goals[last[0]].add(last[1][DESTINATION])
                    if last[2] is not None:
                        seen.winning_kinds[last[0]].add(last[2][1])
                    else:  # (a drop: no piece of the board's made the win)
                        seen.winning_kinds[last[0]].add(-1)
        result = 0.5 if outcome is None or outcome[0] < 0 else 1.0 if outcome[0] == 0 else 0.0
        held = number % HOLD_OUT == HOLD_OUT - 1
        xs, ys, vs = (sets[2], sets[3], sets[5]) if held else (sets[0], sets[1], sets[4])
        xs.extend(rows)
        ys.extend([result] * len(rows))
        vs.extend(values)
    return sets


def linear(row: Sequence[float], mean: Sequence[float], weights: Sequence[float]) -> float:
    return sum(w * (x - m) for x, m, w in zip(row, mean, weights))


def ridge(rows: list[list[float]], ys: list[float], mean: list[float]) -> list[float]:
    """Least squares weights of the centred features for the centred results."""
    d = len(mean)
    average = sum(ys) / len(ys)
    # (by columns: each product a sum over one map, not a loop of Python steps per position)
    columns = [[x - m for x in column] for column, m in zip(zip(*rows), mean)]
    targets = [y - average for y in ys]
    rhs = [sum(map(operator.mul, column, targets)) for column in columns]
    gram = [[0.0] * d for _ in range(d)]
    for i, ci in enumerate(columns):
        gram_i = gram[i]
        for j in range(i, d):
            gram_i[j] = gram[j][i] = sum(map(operator.mul, ci, columns[j]))
        gram_i[i] += RIDGE * (gram_i[i] + 1.0)
    return solve(gram, rhs)


def solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrix is small and regular)."""
    n = len(rhs)
    a = [row[:] + [b] for row, b in zip(matrix, rhs)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-12:
            continue
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        if abs(a[r][r]) < 1e-12:
            continue
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def calibrate(scores: list[float], ys: list[float]) -> tuple[float, float]:
    """(scale, bias) of the logistic curve through (score, result), by Newton's method."""
    a, b = 4.0, 0.0
    for _ in range(CALIBRATION_STEPS):
        ga = gb = haa = hab = hbb = 0.0
        for s, y in zip(scores, ys):
            z = a * s + b
            p = 1.0 / (1.0 + math.exp(-z)) if z > -30 else 0.0
            r = p - y
            w = p * (1.0 - p) + 1e-9
            ga += r * s
            gb += r
            haa += w * s * s
            hab += w * s
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) < 1e-6 and abs(db) < 1e-6:
            break
    return a, b
