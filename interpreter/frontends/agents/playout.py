"""Playouts of the MCTS player: fast, a little less random than random.

A playout plays a position to its end (or `limit` actions) on the fast layer
(`game.engine`, action codes) and says what the end was worth to each player.
It is random with three cheap exceptions, learnt while searching:

- **decisive moves**: a player who can win at once does. Trying every legal
  action each step would cost a position per action, so only actions of a *kind*
  that has ended a game with a win before are tried (at most `TRIES` a step);
- **captures first**: the actions so tried (in most games: captures) are
  preferred over the rest half of the time;
- **no suicide**: an action of a kind that has lost a game at once for the
  player who took it is looked at before it is played, and another is drawn
  when it would lose;
- **blocks** (where `Playout.passed` is set): where the other player has kinds
  that won, the action drawn is played on a copy and the other player's actions of
  those kinds tried there; where one wins by moving to an empty site (a goal
  reached, not a piece taken), an action landing on a site that winning move
  passes over or lands on is played instead, the first of RETRIES + 1 such
  actions after which no win at once is found (where none is, the action drawn). Without it a
  player whose opponent wins by reaching sites (a piece to the edge) loses nearly
  every playout, whatever the position: random moves do not stand in the way. A
  search stops looking where the looks do not pay (BLOCK_TRIAL, BLOCK_RATE).
- **a race run** (where `Playout.race` is set: the learnt evaluation reads each
  player's race): a piece moves by the nearer of two random actions, as in the
  games the evaluation was learnt from, so that its value at the cut-off judges a
  race both sides run rather than pieces walked back and forth at random.

The *kind* of an action is its rule case and its target site (see `move_kind`),
so "capturing on e5" is learnt once for every piece that may do it; a winning
kind is learnt for the player it won for (a pawn reaching a row wins for one
player only).
"""
from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, Callable, Optional

from interpreter.runtime.pieces import CASE, CHANCE, DESTINATION, ORIGIN, Code
from interpreter.runtime.results import EndingKind

from .evaluation import LEAST_SURE, MOST_CONFIDENT, chance
from .rewards import draw_rewards, outcome_rewards, score_rewards

if TYPE_CHECKING:
    from ...runtime.state import State
    from ...runtime.views import BoardView
    from ..protocol import FastLayer


TRIES = 6  # actions tried for a win at each step of a playout (at most)
PREFER_TRIED = 0.5  # how often a tried action (a capture, usually) is played
RETRIES = 2  # further draws when the drawn action would lose at once
# A search looks for blocks while they pay: after BLOCK_TRIAL looks, only while at
# least one look in BLOCK_RATE has played a block. Where no action can stand in the
# way of a win (a step onto the far row: nothing moves back to it) the looks cost a
# fifth of the search and never block; where blocks happen (a line of four, a king's
# run to the edge) about one look in 170 does.
BLOCK_TRIAL = 1024
BLOCK_RATE = 512
# A search's first BLIND_SAMPLES values of playouts cut off by the evaluation (its
# log-odds, not bounded by its cap) measure whether it sees anything here: where their spread, in
# log-odds, stays below BLIND_SHARE of the spread the evaluation gives the positions it
# learnt from (it gives every position a few random actions on about the same value:
# a game's opening before anything is taken), the rest of the search's playouts go on
# to the end instead, where the results differ.
BLIND_SAMPLES = 32
BLIND_SHARE = 0.2
# endings that an action caused (not the scores at the end), as `engine.ending` names them
ENDED_BY_RULE = (EndingKind.WIN.word, EndingKind.LOSE.word)


def move_kind(code: tuple[Any, ...]) -> tuple[Any, ...]:
    """What the tactics remember of an action: its rule case and its target site.

    A code of another engine, without those fields (the fakes of the tests), is a
    case of its own: learning still works, it only generalises less.
    """
    return (code[CASE], code[DESTINATION]) if len(code) > DESTINATION else (code, None)


class Tactics:
    """The kinds of action that have ended a game at once: with a win for the
    player who took it, or with a loss. Learnt from every game end the search sees.

    A winning kind is tried, by the player it won for, for as long as trying it
    pays: after TRIAL tries, only while at least one try in HIT_RATE has won (a
    kind that won once by chance, such as the last move before a blockade, soon
    stops costing time, and stays dropped). Only tries count: in a game that ends
    when a player is left without a move, every playout's last action wins without
    one. The kinds still worth trying are kept as sets of targets by case and
    player, so that finding them among the legal actions costs two look-ups an action.
    """

    TRIAL = 16
    HIT_RATE = 32

    def __init__(self, trying: bool = True) -> None:
        self.trying = trying  # False: no kind is ever tried (the losing kinds are still learnt)
        self.records: dict[Any, list[int]] = {}  # (player, kind) -> [tries, wins]
        # player -> case -> targets of the kinds still worth trying for that player
        self.live: dict[int, dict[Any, set[Any]]] = {}
        self.losing: set[Any] = set()  # kinds
        self._tests: dict[int, Callable[[Any], bool]] = {}  # player -> worth_trying(player)

    def learn(self, engine: FastLayer, state: State, code: tuple[Any, ...], mover: int) -> None:
        """`state` is over after `mover` played `code`: remember the kind of action."""
        ending = engine.ending(state)
        if ending is None or ending[0] not in ENDED_BY_RULE:
            return
        outcome = engine.outcome(state)
        assert outcome is not None, "an ended game has an outcome"
        winner = outcome[0]
        kind = move_kind(code)
        if winner == mover:
            # tried from its first win on; the win itself is not a try (`tried` counts)
            if self.trying and self.pays(self.records.setdefault((mover, kind), [0, 0])):
                self.live.setdefault(mover, {}).setdefault(kind[0], set()).add(kind[1])
        elif winner >= 0:
            self.losing.add(kind)

    def worth_trying(self, mover: int) -> Callable[[Any], bool]:
        """Whether an action is of a kind that has won for `mover` and still pays to
        try: a test of action codes (made once per player)."""
        test = self._tests.get(mover)
        if test is None:
            live = self.live.setdefault(mover, {})

            def test(code: Any) -> bool:
                # (move_kind, written out: this is asked of every legal action)
                if len(code) > DESTINATION:
                    targets = live.get(code[CASE])
                    return targets is not None and code[DESTINATION] in targets
                targets = live.get(code)
                return targets is not None and None in targets

            self._tests[mover] = test
        return test

    def has_won(self, player: int) -> Callable[[Any], bool]:
        """A test of action codes: whether the action's kind has won a game at once
        for `player` (whether or not it still pays to try; the kinds known now)."""
        kinds = {kind for who, kind in self.records if who == player}
        return lambda code: move_kind(code) in kinds

    def tried(self, code: tuple[Any, ...], mover: int, won: bool) -> None:
        """Count a try of `code`'s kind by `mover`; a kind that stopped paying is no longer tried."""
        kind = move_kind(code)
        record = self.records.setdefault((mover, kind), [0, 0])
        record[0] += 1
        record[1] += won
        if not self.pays(record):
            live = self.live.get(mover, {})
            targets = live.get(kind[0])
            if targets is not None:
                targets.discard(kind[1])
                if not targets:
                    del live[kind[0]]  # (no case left: the player's playouts list nothing to try)

    def pays(self, record: list[int]) -> bool:
        """Whether a kind with `record` ([tries, wins]) is still worth trying."""
        return record[0] < self.TRIAL or record[1] * self.HIT_RATE >= record[0]


class Playout:
    """Plays positions out for one search (engine, generator and settings bound once)."""

    def __init__(self, engine: FastLayer, rng: random.Random, tactics: Tactics, n_players: int,
                 limit: int, score_weight: float) -> None:
        self.engine = engine
        self.rng = rng
        self.tactics = tactics
        self.n = n_players
        self.limit = limit
        self.score_weight = score_weight
        # (mover, code) of every action the playouts play, when someone listens (amaf.py)
        self.moves: Optional[list[tuple[int, Code]]] = None
        # judges a playout cut off after `limit` actions, when there is one (evaluation.py)
        self.evaluation: Any = None
        # actions a playout cut off where the evaluation is at its cap plays on (0: none)
        self.beyond_cap = 0
        self.played_on = 0  # playouts so played on
        # the values of the first playouts cut off below the cap, while the
        # evaluation's blindness is being measured (None: measured, or not to be)
        self.cut_values: Optional[list[float]] = None
        # a limit for playouts to the end, where the evaluation is found blind (None: not measured)
        self.blind_limit: Optional[Callable[[], int]] = None
        self.blind_spread = 0.0  # the log-odds spread below which the evaluation is blind here
        self.blind = False  # found blind: the playouts go on to the end
        # MAST: per player, action code -> [summed reward, count] over the simulated
        # games so far; where kept, a step plays the better of two random actions
        self.values: Optional[list[dict[Any, list[float]]]] = None
        # where the evaluation reads each player's race (evaluation.py, `Race`): its pieces
        # move as in the games it was learnt from, by the nearer of two random actions
        # (None: uniformly at random)
        self.race: Any = None
        self.runs = 0  # playouts run, and their steps in all (what a playout costs, in positions)
        self.steps = 0
        # the sites a move from one site to another passes over and lands on (`passed_sites`),
        # where the playouts block the other player's wins at once (None: they do not)
        self.passed: Optional[Callable[[int, int], frozenset[int]]] = None
        self.blocks = 0  # actions played to block a win at once
        self.block_looks = 0  # steps that looked for one

    def mean_steps(self) -> Optional[float]:
        """The mean number of positions a playout made so far (None before the first)."""
        return self.steps / self.runs if self.runs else None

    def run(self, state: State) -> tuple[float, ...]:
        """The reward vector of one playout from `state` (which it changes).

        Positions are listed only as far as the next draw needs (`engine.prepare`,
        `legal_matching`, `random_legal`): in a game with `forbid result` only the
        actions drawn or tried are checked, not every legal action."""
        engine = self.engine
        self.runs += 1
        state = self.play(state, self.limit)
        evaluation = self.evaluation
        if evaluation is not None and not engine.is_over(state):
            if self.cut_values is not None:
                # (measured before the cap: cut at the cap, the values near it would
                # look alike where the evaluation only says the game is decided)
                log_odds = evaluation.log_odds(state)
                self.measure_blindness(log_odds)
                first = chance(log_odds)
            else:
                first = evaluation.first_wins(state)
            if self.beyond_cap > 0 and not LEAST_SURE < first < MOST_CONFIDENT:
                # At its cap the evaluation says every such position is won alike
                # (it saturates where it was fitted on few): the playout goes on,
                # and its own end (or the evaluation further on) is backed up instead.
                self.played_on += 1
                state = self.play(state, self.beyond_cap)
                if not engine.is_over(state):
                    first = evaluation.first_wins(state)
                    return (first, 1.0 - first)
            else:
                return (first, 1.0 - first)
        return reward_where_stopped(engine, state, self.n, self.score_weight)

    def measure_blindness(self, log_odds: float) -> None:
        """Count `log_odds` (the evaluation's of a cut-off playout's end, not bounded
        by the cap) among the first BLIND_SAMPLES; at the last, where they spread
        less than `blind_spread`, stop cutting playouts: they go on to `blind_limit` actions."""
        values = self.cut_values
        assert values is not None and self.blind_limit is not None, "blindness is being measured"
        values.append(log_odds)
        if len(values) < BLIND_SAMPLES:
            return
        self.cut_values = None
        mean = sum(values) / len(values)
        spread = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
        if spread < self.blind_spread:
            self.blind = True
            self.evaluation = None
            self.limit = self.blind_limit()

    def play(self, state: State, actions: int) -> Any:
        """Play at most `actions` actions of a playout from `state`: the position
        reached (possibly a new object). An end reached is learnt by the tactics."""
        engine = self.engine
        learnable = None  # (code, mover): the action played last, when its end is to be learnt
        for _ in range(actions):
            if not engine.prepare(state):
                break
            self.steps += 1
            mover = engine.actor(state)
            if mover == CHANCE:
                engine.apply_in_place(state, draw_outcome(engine, state, self.rng), settle=False)
                learnable = None
                continue
            state, learnable = self.step(state, mover)
        if learnable is not None and engine.is_over(state):
            self.tactics.learn(engine, state, *learnable)
        return state

    def step(self, state: State, mover: int) -> tuple[Any, Optional[tuple[Any, ...]]]:
        """The position after `mover`'s action (possibly a new object), and the
        (code, mover) to learn from should the game be over there (None when the
        action was tried, and so learnt from, already)."""
        engine, rng, tactics = self.engine, self.rng, self.tactics
        if tactics.live.get(mover):
            tried, won = self.try_kinds(state, engine.legal_matching(state, tactics.worth_trying(mover)), mover)
            if won is not None:
                return won, None
            if tried and rng.random() < PREFER_TRIED:
                after, code = tried[int(rng.random() * len(tried))]
                if self.moves is not None:
                    self.moves.append((mover, code))
                return after, None
        code = engine.random_legal(state, rng)
        if code is None:  # (a `before each turn` that changed the position left nothing legal)
            return state, None
        values = self.values
        if values is not None:
            code = self.better_of_two(state, code, values[mover])
        race = self.race
        if race is not None:
            code = race.nearer_of_two(engine, state, rng, code, mover)
        if move_kind(code) in tactics.losing:
            return self.look_before_leaping(state, code, mover), None
        if self.passed is not None and self.n == 2 and tactics.live.get(1 - mover) and (
                self.block_looks < BLOCK_TRIAL or self.blocks * BLOCK_RATE >= self.block_looks):
            return self.block(state, code, mover)
        if self.moves is not None:
            self.moves.append((mover, code))
        engine.apply_in_place(state, code, settle=False)
        return state, (code, mover)

    def block(self, state: State, code: Any, mover: int) -> tuple[Any, Optional[tuple[Any, ...]]]:
        """`step`'s end where the other player has winning kinds: `code` played, or
        an action in the way of a win at once that `code` would leave the other player."""
        engine, passed = self.engine, self.passed
        assert passed is not None, "the playouts block"
        self.block_looks += 1
        after = engine.copy(state)
        engine.apply_in_place(after, code, settle=False)
        played = code
        threat = self.win_at_once(after, 1 - mover)
        # (a win by reaching a site, not by taking what stands there: a capture of a
        # king is not stood in the way of by landing on its path)
        if threat is not None and 0 <= threat[DESTINATION] < len(after.board) and \
                after.board[threat[DESTINATION]] is None:
            sites = passed(threat[ORIGIN], threat[DESTINATION])
            blockers = engine.legal_matching(state, lambda c: len(c) > DESTINATION and c[DESTINATION] in sites)
            # (the first of a few that leaves no win at once; where none does, `code` stands)
            for blocker in self.rng.sample(blockers, min(len(blockers), RETRIES + 1)):
                blocked = engine.copy(state)
                engine.apply_in_place(blocked, blocker, settle=False)
                if self.win_at_once(blocked, 1 - mover) is None:
                    self.blocks += 1
                    played, after = blocker, blocked
                    break
        if self.moves is not None:
            self.moves.append((mover, played))
        return after, (played, mover)

    def win_at_once(self, state: State, player: int) -> Optional[Any]:
        """An action of `player`'s winning kinds that wins at once in `state` (at
        most TRIES tried, on copies; not counted as tries), or None; also None where
        it is not `player`'s turn or the game is over."""
        engine = self.engine
        if not engine.prepare(state) or engine.actor(state) != player:
            return None
        candidates = engine.legal_matching(state, self.tactics.worth_trying(player))
        if len(candidates) > TRIES:
            candidates = self.rng.sample(candidates, TRIES)
        for code in candidates:
            if len(code) <= DESTINATION:
                continue
            after = engine.copy(state)
            engine.apply_in_place(after, code)
            outcome = engine.outcome(after)
            if outcome is not None and outcome[0] == player:
                return code
        return None

    def better_of_two(self, state: State, code: Any, values: dict[Any, list[float]]) -> Any:
        """`code` or a second random action, whichever has the better mean reward
        for the mover over the simulated games so far (an action never played
        counts as a draw): a tournament of two, drawing no more than two actions."""
        other = self.engine.random_legal(state, self.rng)
        if other is None or other == code:
            return code
        first, second = values.get(code), values.get(other)
        mean_first = first[0] / first[1] if first is not None else 0.5
        mean_second = second[0] / second[1] if second is not None else 0.5
        return other if mean_second > mean_first else code

    def learn_values(self, path_moves: list[tuple[int, Code]], reward: tuple[float, ...]) -> None:
        """Add a simulated game's reward to the MAST values of every action played in it."""
        tables = self.values
        assert tables is not None and self.moves is not None, "MAST values are kept"
        for moves in (path_moves, self.moves):
            for mover, code in moves:
                entry = tables[mover].get(code)
                if entry is None:
                    tables[mover][code] = [reward[mover], 1]
                else:
                    entry[0] += reward[mover]
                    entry[1] += 1

    def try_kinds(self, state: State, candidates: list[Any], mover: int) -> tuple[list[Any], Optional[Any]]:
        """Play `candidates` (legal actions of winning kinds) on copies: ((position,
        code) of those that go on, a position won by `mover` or None)."""
        engine = self.engine
        if len(candidates) > TRIES:
            candidates = self.rng.sample(candidates, TRIES)
        going_on = []
        for code in candidates:
            after = engine.copy(state)
            engine.apply_in_place(after, code)
            outcome = engine.outcome(after)
            self.tactics.tried(code, mover, outcome is not None and outcome[0] == mover)
            if outcome is None:
                going_on.append((after, code))
                continue
            self.tactics.learn(engine, after, code, mover)
            if outcome[0] == mover:
                if self.moves is not None:
                    self.moves.append((mover, code))
                return going_on, after
        return going_on, None

    def look_before_leaping(self, state: State, code: tuple[Any, ...], mover: int) -> Any:
        """Play `code`, or another random action when it would lose at once."""
        engine = self.engine
        for _ in range(RETRIES + 1):
            after = engine.copy(state)
            engine.apply_in_place(after, code)
            played = code
            outcome = engine.outcome(after)
            if outcome is None or outcome[0] in (mover, -1):
                break
            redrawn = engine.random_legal(state, self.rng)
            if redrawn is None:
                break
            code = redrawn
        if self.moves is not None:
            self.moves.append((mover, played))
        return after


def passed_sites(view: BoardView) -> Callable[[int, int], frozenset[int]]:
    """The sites a move from one site to another passes over and lands on: on a
    grid, where the two share a rank, a file or a diagonal, those between them and
    the destination; otherwise (a drop, a jump, a graph's board) the destination alone."""
    index = {name: i for i, name in enumerate(view.sites)}
    at = {(round(x), round(y)): index[name] for name, (x, y) in view.coords.items()} if view.kind == "grid" else {}
    where = {site: xy for xy, site in at.items()}
    found: dict[tuple[int, int], frozenset[int]] = {}

    def passed(origin: int, destination: int) -> frozenset[int]:
        sites = found.get((origin, destination))
        if sites is None:
            sites = frozenset((destination,))
            a, b = where.get(origin), where.get(destination)
            if a is not None and b is not None:
                dx, dy = b[0] - a[0], b[1] - a[1]
                steps = max(abs(dx), abs(dy))
                if steps > 1 and (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
                    ux, uy = dx // steps, dy // steps
                    line = [at.get((a[0] + k * ux, a[1] + k * uy)) for k in range(1, steps)]
                    sites = frozenset([s for s in line if s is not None] + [destination])
            found[origin, destination] = sites
        return sites

    return passed


def random_playout(engine: FastLayer, state: State, rng: random.Random, limit: int, n_players: int,
                   score_weight: float) -> tuple[float, ...]:
    """A uniformly random playout of `state` (which it changes): the classic player's."""
    for _ in range(limit):
        mover = engine.to_move(state)
        if mover is None:
            break
        if mover == CHANCE:
            code = draw_outcome(engine, state, rng)
        else:
            legal = engine.legal(state)
            code = legal[int(rng.random() * len(legal))]
        engine.apply_in_place(state, code)
    return reward_where_stopped(engine, state, n_players, score_weight)


def reward_where_stopped(engine: FastLayer, state: State, n_players: int, score_weight: float) -> tuple[float, ...]:
    """The reward vector of the position a playout stopped in: the result once the
    game is over; else (a playout cut off) the game's score rule when it has one
    (see `rewards.score_rewards`), or a draw."""
    outcome = engine.outcome(state)
    if outcome is not None:
        return outcome_rewards(engine.winners(outcome[0]), outcome[1], score_weight)
    scores = engine.scores(state)
    return draw_rewards(n_players) if scores is None else score_rewards(scores)


def draw_outcome(engine: FastLayer, state: State, rng: random.Random) -> tuple[Any, ...]:
    """A chance outcome drawn by its probability."""
    table = engine.chance_probabilities(state)
    x = rng.random()
    for code, probability in table:
        x -= probability
        if x < 0:
            return code
    return table[-1][0]
