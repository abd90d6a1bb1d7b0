"""The built-in MCTS player: UCT with a solver, tactics and a time budget.

For any number of players (each maximises its own reward) and chance events
(outcomes drawn by their probabilities), on the fast layer (`game.engine`).
What it adds to plain UCT (kept as `mcts-classic`, mcts_classic.py):

- **wins and losses in one**: before searching, every action of the root is
  played; a win is taken at once, and every answer of the next player is looked
  at, so that an action that lets the opponent win at once is never chosen while
  another is left (search.py, `check_root`); after the search, the choice is
  looked at for a forced win of the next player two moves deep, trying for wins
  at once only the kinds of action that have won (safety.py, `allows_forced_win`),
  and, once such a win at once has been found in the game, for a net three of its
  moves deep (safety.py, `allows_net`);
- **material won**: a capture that keeps its gain against every answer is played
  where the search cannot tell the choice from it (safety.py, `prefer_gains`);
- **room denied**: where the next player wins by moving one of a few sliding pieces
  to a site (a king escaping), the action that leaves it the least room is played
  where the search cannot tell the choice from it (safety.py, `prefer_room`);
- **MCTS-Solver**: results that are certain are proven and backed up (tree.py);
- **tactics in the playouts**: wins taken, captures preferred, suicides avoided,
  the opponent's wins at once blocked (playout.py); where nothing else guides them and the game's statistics allow
  (knowledge.py), actions with the better mean result preferred (MAST); where the
  learnt evaluation reads each player's race, pieces moved by the nearer of two
  random actions, as in the games it was learnt from;
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
from typing import TYPE_CHECKING, Any, Callable, Optional

from interpreter.runtime.pieces import CHANCE, DESTINATION, ORIGIN
from interpreter.runtime.views import Action

from .amaf import BIAS as GRAVE_BIAS
from .base import SeededAgent, check_budget
from .endgame import Endgame, endgame_of
from .evaluation import race_of
from .knowledge import escape_of, evaluation_of, knowledge_of
from .playout import BLIND_SHARE, Tactics, draw_outcome, passed_sites
from .safety import VERIFY_NODES, allows_forced_win, allows_net, prefer_gains, prefer_room, verify_choice
from .search import Search
from .tree import Node, best_child, find_descendant, loses_for

if TYPE_CHECKING:
    from ...runtime.pieces import Code
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


@dataclass(frozen=True)
class Methods:
    """Which of the player's methods are on: the default player has them all; the
    previous default (`mcts-v1`) none of those added since."""

    safety: bool = True  # the root's look-ahead over material (safety.py)
    # with the safety check: material won where the search cannot tell the choice
    # from a capture (safety.py, `prefer_gains`)
    gains: bool = True
    grave: bool = True  # choose in the tree by GRAVE (amaf.py)
    # GRAVE's BIAS (amaf.py): beta = m / (m + n + bias * m * n) weighs a child's AMAF mean against its own mean;
    # the larger, the fewer visits n before its own mean takes over
    grave_bias: float = GRAVE_BIAS
    # the evaluation learnt per game (evaluation.py), where there is one: this share
    # of a value in the tree is implicit minimax, playouts stop after so many actions
    evaluation: bool = True
    minimax_weight: float = 0.3
    evaluated_rollout: int = 12
    # the evaluation's blindness measured in each search (playout.py, BLIND_SHARE):
    # where its cut-off values hardly differ, the playouts go on to the end
    blind_check: bool = True
    try_all: int = 16  # a new node with at most so many actions tries them all for a win
    # playouts prefer actions with good mean results (MAST; with GRAVE only), where
    # the game's statistics say an action's mean is its own (knowledge.py, `uses_mast`)
    # and nothing else guides the playouts (`_start`); `mast_always` everywhere GRAVE is used
    mast: bool = True
    mast_always: bool = False
    # the playouts (and new nodes) try actions of kinds that have won at once for a
    # win in one (playout.py, `Tactics`); off, no kind is ever tried
    win_tries: bool = True
    # playouts stand in the way of the other player's wins at once (playout.py, `Playout.block`)
    block: bool = True
    # the check for a forced win after the choice (`_avoid_forced_loss`) tries for wins at
    # once only the kinds of action that have won (`Tactics.has_won`): ten times the answers in its time
    forced_kinds: bool = True
    # where the evaluation reads each player's race (evaluation.py, `Race`), the playouts
    # move the pieces as the games it was learnt from did: by the nearer of two random
    # actions. Uniformly random moves walk the pieces back and forth, and the
    # evaluation at the cut-off would judge that drift rather than the position.
    race_playouts: bool = True
    # where a variable makes the evaluation's lead fade (a counter of quiet actions that
    # draws the game at a limit), its values shrink toward a draw as the variable nears
    # the largest value the random games saw (evaluation.py, `Evaluation.with_horizons`):
    # a capture that resets the counter is worth more the nearer the draw, and a lead is
    # pressed rather than shuffled until the counter draws it
    horizons: bool = True
    # where the next player wins by moving one of a few pieces to a site (a king that
    # escapes to the edge), the choice among the children the playouts cannot tell apart
    # leaves that piece the least room (safety.py, `prefer_room`; evaluation.py, `Escape`)
    room: bool = True
    # with a time budget, think on when the choice is clear: the tree is kept for
    # the next decision, where the time spent now pays
    think_on: bool = True
    # once a win at once of the others has been found in this game (`_winners`), the
    # choice the two-deep look lets through is looked at for a net NET_MOVES of their
    # moves deep (safety.py, `allows_net`), trying for wins at once the kinds that have won
    net: bool = True
    # where few pieces are left, the mover is ahead in material and a counter of quiet
    # actions draws the game (the evaluation's horizons), the choice is an alpha-beta
    # search's over the compiled rules, the pieces brought to the other's where the
    # material says nothing (endgame.py): a plan the playouts do not supply
    endgame: bool = True


CURRENT = Methods()
PREVIOUS = Methods(safety=False, gains=False, grave=False, evaluation=False, try_all=0, mast=False, think_on=False,
                   block=False, forced_kinds=False, race_playouts=False, horizons=False, room=False,
                   net=False, endgame=False)
# Shares of a time budget the checks at the root may take (about): the answers
# that win at once (where a check is asked of every answer, each costs the most), and the safety check's
# passes deeper than one turn.
ROOT_SHARE = 0.5
# ... of which the answers' full pass (every answer to each action made, for a win at
# once: in a game of sliding pieces, 80 actions of 80 answers) may take this share;
# the answers of kinds that have won are tried after every action first (search.py)
ANSWERS_SHARE = 0.15
DEEPER_SAFETY_SHARE = 0.15
SAFETY_NODES = 5_000  # positions the safety check may make, and ...
SAFETY_NODES_PER_SECOND = 4_000  # ... as many more per second of budget, or ...
SAFETY_NODES_PER_ITERATION = 4  # ... per simulation of an iteration budget, ...
SMALL_BUDGET_NODES = 50  # ... but at most so many per simulation (mcts:20 is a toy: so is its check)
FORCED_SHARE = 0.05  # the end of a time budget kept to look for a forced win of the others after the choice ...
# ... or twice what the last look took (it vetoed choices or ran out: a threat lasts
# several moves, each needing more candidates looked at), up to this share, once a
# look of this game has found the others a win at once (`_winners`) or where the
# others win by a goal piece's escape (evaluation.py `Escape`: stopped over several
# moves, before any win at once is in reach): where neither holds (a game won by
# territory, not by a move), the look finds nothing in whatever time it is given,
# and a share grown to a quarter of the budget halved the search's iterations
# (PROFILE-NOTES: ai-go19, and lead30 for the escape)
FORCED_SHARE_MOST = 0.4
FORCED_CANDIDATES = 32  # choices at most looked at for one (within the deadline) ...
FORCED_FULL = 3  # ... the first so many trying every action for a win at once (the rest: the kinds that won)
FORCED_NODES = 10_000  # positions at most for each
NET_MOVES = 3  # the others' moves the look for a net goes (`allows_net`) ...
NET_NODES = 20_000  # ... and its positions at most for a candidate (a safe one: ~5,000 with 40 actions a position)
# ... and the next player's first moves it looks at: the candidate's answers the search
# visited most (a net's first move is the answer the search finds good for them), a
# fraction of the look's cost where every answer is looked at (~50 ms of a 0.25 s move)
NET_ANSWERS = 8
THREAT_WINS = 4  # after a veto, the latest wins at once found whose lines the next candidate is chosen on
ENDGAME_SHARE = 0.5  # the share of a time budget the endgame search takes, where it applies (endgame.py)
ENDGAME_NODES = 20_000  # positions at most it makes (an iteration budget's bound: reproducible)
VERIFY_SHARE = 0.1  # the end of a time budget kept to look at the choice, where the safety check ran short
# The root's checks (wins in one, the safety check, the look at the choice) measure
# their shares of the budget in the processor time of this process: on a loaded
# machine a share of wall-clock time buys a fraction of the positions, and a piece
# would be given away for the load's sake. Their positions are bounded (SAFETY_NODES
# ...), so a move takes longer than its budget under load by a bounded amount.
CHECK_CLOCK = time.process_time


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
    # notation -> "win" or "loss" for the root's actions whose result is proven
    proven: dict[str, str] = field(default_factory=dict)
    unsafe: list[str] = field(default_factory=list)  # actions the safety check left out


class MCTSAgent(SeededAgent):
    """MCTS with a solver, playout tactics and a time budget (see the module's doc).

    Budget: `seconds` of thinking, or `iterations` playouts, or both (whichever
    runs out first); neither means DEFAULT_SECONDS.
    """

    name = "mcts"

    def __init__(self, iterations: Optional[int] = None, seconds: Optional[float] = None,
                 seed: Optional[int] = 0, exploration: float = 1.0,
                 rollout_limit: Optional[int] = None, score_weight: float = 0.1,
                 methods: Methods = CURRENT, clock: Callable[[], float] = time.perf_counter) -> None:
        super().__init__(seed)
        # what a time budget is measured on: the wall clock, or the process's own time
        # (time.process_time) where matches on a shared machine must not depend on its load
        self.clock = clock
        self.methods = methods
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
        self._passed: Optional[tuple[Any, Callable[[int, int], frozenset[int]]]] = None  # (game, `passed_sites`)
        # the look for a forced win after the choice: its share of the next move's time
        # (FORCED_SHARE_MOST), and the wins at once it found, by the player who chose
        self._forced_game: Optional[FrontendGame] = None
        self._forced_share = FORCED_SHARE
        self._winners: dict[int, list[Any]] = {}
        self._netting = 0.0  # the time of CHECK_CLOCK the last decision's looks for a net took
        self._endgame: Optional[tuple[Any, Endgame]] = None  # (game, its endgame search)

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
        # what it learns once per game and process (knowledge.py) is learnt before the
        # clock runs; from there on everything counts: the search and the look at the
        # choice end by the budget's end counted from `started` (the search one mean
        # iteration early, _think), however long the root's checks took
        self.prepare(game)
        if self.reproducible or self._forced_game is not game:
            # (an iteration budget's choice depends on the position alone)
            self._forced_game, self._forced_share, self._winners = game, FORCED_SHARE, {}
        started, end = self.clock(), CHECK_CLOCK()  # (`end`: the budget's end, in the checks' clock)
        search, root = self._start(game, state)
        # (the root's checks have their shares of the budget after `_start`)
        checks_started = CHECK_CLOCK()
        reused = root.visits
        seconds = self.seconds
        if seconds is not None:
            end += seconds
        if seconds is not None and self.methods.safety:
            search.check_root(root, checks_started + ROOT_SHARE * seconds,
                              checks_started + DEEPER_SAFETY_SHARE * seconds,
                              checks_started + ANSWERS_SHARE * seconds)
        else:
            search.check_root(root)
        children = root.children
        assert children is not None, "check_root expands the root"
        reason = _forced(root, children)
        iterations = 0
        # where the safety check ran short, the choice is looked at after the search,
        # within the budget (safety.py, verify_choice): `verified` is its yardstick then
        verified = search.material if search.safety_nodes > 0 and root.proven is None else None
        share = 1.0 - VERIFY_SHARE if verified is not None and any(not c.checked for c in children) else 1.0
        forced = self.methods.safety and root.proven is None
        forced_share = self._forced_share if seconds is not None else FORCED_SHARE
        if forced:
            share -= forced_share
        endgame = self._endgame_of(game, search) if root.proven is None else None
        if endgame is not None and not endgame.applies(state, mover):
            endgame = None
        if endgame is not None:
            share -= ENDGAME_SHARE
        if not reason:
            iterations, reason = self._think(search, root, started, share)
        choose = prefer_gains(best_child) if self.methods.gains else best_child
        # (two players: the room measured is the one opponent's)
        escape = escape_of(game) if self.methods.room and len(game.players) == 2 else None
        if escape is not None:
            choose = prefer_room(choose, escape)
        if verified is not None:
            # (its deadline leaves the forced look its share)
            best = verify_choice(engine, verified, root, choose, min(VERIFY_NODES, search.safety_nodes),
                                 None if seconds is None else end - (forced_share * seconds if forced else 0.0),
                                 CHECK_CLOCK)
        else:
            best = choose(root)
        if endgame is not None and best.proven != mover:
            # (its deadline leaves the forced look its share)
            ends = float("inf") if seconds is None else end - (forced_share * seconds if forced else 0.0)
            planned = endgame.choose(root, mover, ENDGAME_NODES, ends, CHECK_CLOCK)
            best = planned or best
        if forced:
            may_win = search.tactics.has_won if self.methods.forced_kinds else None
            looked = CHECK_CLOCK()
            best = self._avoid_forced_loss(engine, root, best, choose, None if seconds is None else end, may_win,
                                           self._passed_sites(game))
            # (a goal piece's escape is a threat of several moves before any win at once is found)
            threatened = self._winners.get(mover) or (escape is not None and escape.against(mover))
            if seconds is not None and self.methods.forced_kinds and threatened:
                # (the looks for a net not counted: they take what the two-deep looks leave
                # of the share; grown for them, it took a tenth of the search's time at every move)
                used = (CHECK_CLOCK() - looked - self._netting) / seconds
                self._forced_share = min(FORCED_SHARE_MOST, max(FORCED_SHARE, 2 * used))
        self.last_stats = _stats(engine, root, best, iterations, self.clock() - started, reason, reused)
        return game.parse_action(state, engine.notation(best.code))

    def _avoid_forced_loss(self, engine: FastLayer, root: Node, best: Node, choose: Callable[[Node], Node],
                           deadline: Optional[float],
                           may_win: Optional[Callable[[int], Callable[[Any], bool]]] = None,
                           passed: Optional[Callable[[int, int], frozenset[int]]] = None) -> Node:
        """`best`, unless the next player then has a forced win two moves deep
        (safety.py, `allows_forced_win`): that action is vetoed (not proven lost:
        where every other action loses at once, it is the one to play) and the next
        choice is looked at, FORCED_CANDIDATES at most (FORCED_FULL without
        `may_win`), until the `deadline` (a time of CHECK_CLOCK). With `may_win`
        (`Tactics.has_won`), each is looked at first trying for wins at once only the
        kinds of action that have won (a fraction of the positions: a fork of a piece
        with two open lines to its goal is found in the time), then, where that finds
        none, trying every action, for the first FORCED_FULL candidates (a win of a
        kind the simulated games never saw: a piece taken where it just moved).
        Once wins at once of the next player are known in this game (`_winners`), a
        candidate the two-deep look lets through is looked at for a net NET_MOVES of
        its moves deep (`allows_net`, the same kinds); one caught so is vetoed as well,
        but is played rather than a candidate lost two moves deep or proven lost
        (the longer loss: the opponent may miss it)."""
        me = root.mover
        assert me is not None, "the root of a game going on"
        # (the wins at once found, per player, kept for the next candidates and moves:
        # with `may_win`, only the first FORCED_FULL candidates try every action)
        winners = self._winners.setdefault(me, []) if may_win is not None else None
        threats: list[Code] = []  # the answers found to force a win, latest first
        lost: set[int] = set()  # (ids of) the candidates vetoed here
        netted: set[int] = set()  # ... of them, those vetoed for a net deeper than two moves
        deeper: Optional[Node] = None  # the first of those
        killers: dict[tuple[bool, int], list[Code]] = {}  # the net's look's, kept across the candidates
        self._netting = 0.0
        for number in range(FORCED_CANDIDATES if may_win is not None else FORCED_FULL):
            if best.proven is not None or id(best) in lost or not best.materialised or best.state is None:
                break  # (vetoed here: every action left is, the forced loss may be the longest)
            forced = may_win is not None and allows_forced_win(engine, best, me, FORCED_NODES, deadline,
                                                               CHECK_CLOCK, may_win, winners, threats)
            if not forced and (may_win is None or number < FORCED_FULL):
                forced = allows_forced_win(engine, best, me, FORCED_NODES, deadline, CHECK_CLOCK,
                                           winners=winners, threats=threats)
            if not forced and may_win is not None and winners and self.methods.net:
                netting = CHECK_CLOCK()
                forced = allows_net(engine, best, me, NET_MOVES, NET_NODES, may_win, winners, deadline, CHECK_CLOCK,
                                    killers, _searched_answers(best, NET_ANSWERS))
                self._netting += CHECK_CLOCK() - netting
                if forced:
                    # (a longer loss than the two-deep look's: the one to play if every other is lost)
                    netted.add(id(best))
                    deeper = deeper or best
            if not forced:
                break
            best.vetoed = True
            lost.add(id(best))
            if id(best) in netted:
                # (the sites of the two-deep look's threats say nothing of a net: the search's next choice)
                best = choose(root)
                continue
            threat = threats[:1] + (winners or [])[:THREAT_WINS]
            best = _stands_in_the_way(root, threat, passed, lost, True) or choose(root)
            if best.vetoed:  # (no candidate the safety check let through is left)
                best = _stands_in_the_way(root, threat, passed, lost, False) or best
        if deeper is not None and (id(best) in lost and id(best) not in netted or loses_for(best, me)):
            return deeper
        return best

    def prepare(self, game: FrontendGame) -> None:
        """Learn what the search needs of `game` (once per game and process: cached;
        a second or two). `choose` calls it before its clock runs; a front end may call
        it earlier, e.g. to keep what was learnt out of the collector's passes."""
        methods = self.methods
        if methods.safety or methods.grave:
            knowledge_of(game)
        if methods.evaluation:
            evaluation_of(game)
        if methods.room:
            escape_of(game)

    def _endgame_of(self, game: FrontendGame, search: Search) -> Optional[Endgame]:
        """The endgame search of `game` (kept), where the method is on, material
        means something in it, and a counter draws the game as a lead fades (the
        evaluation's horizons, `Evaluation.with_horizons`): there a lead must be
        converted in time, by a plan; where nothing draws a won position the playouts
        convert it in their own time. Else None."""
        evaluation = search.evaluation
        if (not self.methods.endgame or search.material is None or len(game.players) != 2
                or evaluation is None or not evaluation.horizons):
            return None
        if self._endgame is None or self._endgame[0] is not game:
            self._endgame = (game, endgame_of(game, search.material, search.evaluation))
        return self._endgame[1]

    def _passed_sites(self, game: FrontendGame) -> Callable[[int, int], frozenset[int]]:
        """`passed_sites` of `game`'s board (kept: its table fills as it is asked)."""
        if self._passed is None or self._passed[0] is not game:
            self._passed = (game, passed_sites(game.board))
        return self._passed[1]

    def _start(self, game: FrontendGame, state: State) -> tuple[Search, Node]:
        """The search and its root: the node of `state` in the last tree when there is one."""
        memory = self._memory
        tactics = memory[1] if memory is not None and memory[0] is game else Tactics(self.methods.win_tries)
        methods = self.methods
        known = knowledge_of(game) if methods.safety or methods.grave else None
        material = known.material if known is not None and methods.safety else None
        # (GRAVE only where an action is a move rather than a slot: knowledge.py)
        grave = known is not None and methods.grave and known.uses_amaf
        evaluation = evaluation_of(game) if methods.evaluation else None
        if evaluation is not None and methods.horizons:
            evaluation = evaluation.with_horizons()
        limit = self.rollout_limit
        if limit is None:
            scored = game.engine.scores(state) is not None
            if scored:
                limit = SCORED_ROLLOUT_LIMIT
            elif evaluation is not None and 0 < methods.evaluated_rollout <= DEFAULT_ROLLOUT_LIMIT:
                # the evaluation cuts every playout shorter than any natural limit:
                # the probes that measure one (a few hundredths of a second a
                # move) would change nothing
                limit = DEFAULT_ROLLOUT_LIMIT
            else:
                limit = natural_rollout_limit(game.engine, state)
        # MAST where the game's statistics call for it (knowledge.py) and the playouts
        # are all the search knows: no material guiding them (captures first, the
        # safety check) and no evaluation cutting them after a dozen actions
        mast = grave and methods.mast and (methods.mast_always or (
            known is not None and known.uses_mast and material is None and evaluation is None))
        search = Search(game.engine, self.rng, tactics, len(game.players), exploration=self.exploration,
                        rollout_limit=limit, score_weight=self.score_weight, material=material,
                        safety_nodes=self._safety_nodes(), grave=grave, grave_bias=methods.grave_bias,
                        evaluation=evaluation,
                        minimax_weight=methods.minimax_weight, evaluated_rollout=methods.evaluated_rollout,
                        try_all=methods.try_all, mast=mast, clock=CHECK_CLOCK)
        if search.playout.evaluation is not None and methods.race_playouts:
            search.playout.race = race_of(search.playout.evaluation)
        if methods.block:
            search.playout.passed = self._passed_sites(game)
        if search.playout.evaluation is not None and methods.blind_check:
            # (the limit of playouts to the end, asked only where the evaluation is found blind)
            engine = game.engine
            search.playout.blind_limit = lambda: natural_rollout_limit(engine, state)
            search.playout.cut_values = []
            search.playout.blind_spread = BLIND_SHARE * search.playout.evaluation.spread
        root = None
        if memory is not None and memory[0] is game:
            root = find_descendant(memory[2], state)
        if root is None:
            root = search.new_root(state)
        self._memory = None if self.reproducible else (game, tactics, root)
        return search, root

    def _safety_nodes(self) -> int:
        """How many positions the safety check may make: a share of the budget
        (counted in positions, not time, so that `mcts:N` stays reproducible)."""
        if self.iterations is not None:
            by_iterations = min(SAFETY_NODES + self.iterations * SAFETY_NODES_PER_ITERATION,
                                self.iterations * SMALL_BUDGET_NODES)
            if self.seconds is None:
                return by_iterations
            return min(by_iterations, SAFETY_NODES + int(self.seconds * SAFETY_NODES_PER_SECOND))
        return SAFETY_NODES + int((self.seconds or DEFAULT_SECONDS) * SAFETY_NODES_PER_SECOND)

    def _think(self, search: Search, root: Node, started: float, share: float = 1.0) -> tuple[int, str]:
        """Iterate until the budget (`share` of its time) is spent or a stopping
        rule holds: (iterations, reason)."""
        done = 0
        seconds = None if self.seconds is None else share * self.seconds
        deadline = None if seconds is None else started + seconds
        watch = deadline is not None and self.methods.think_on
        begun = self.clock()
        while True:
            search.iterate(root)
            done += 1
            if watch:
                # the clock at every iteration (with `forbid result` one may take
                # milliseconds, a long playout tens of them): the search stops
                # where one more iteration, as long as their mean so far, would end
                # past the deadline, so that a move keeps to its budget on average
                now = self.clock()
                if deadline is not None and now + (now - begun) / done > deadline:
                    return done, "budget"
            if done % CHECK_EVERY and done != self.iterations:
                continue
            used = self._used(done, started, seconds)
            if used >= 1.0:
                return done, "budget"
            reason = _settled(root, used, done)
            if reason and not (reason == "clear" and self.methods.think_on and not self.reproducible):
                return done, reason

    def _used(self, done: int, started: float, seconds: Optional[float]) -> float:
        """The part of the budget spent (the larger of the two when both are set)."""
        parts = []
        if self.iterations is not None:
            parts.append(done / self.iterations)
        if seconds is not None:
            parts.append((self.clock() - started) / seconds)
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


def _searched_answers(node: Node, most: int) -> Optional[list[Code]]:
    """The actions of `node`'s `most` most visited children, most visited first; None
    where the search has not expanded it (every answer is then looked at)."""
    children = node.children
    if not children:
        return None
    ranked = sorted(children, key=lambda c: -c.visits)
    return [c.code for c in ranked[:most] if c.code is not None]


def _stands_in_the_way(root: Node, threats: list[Code], passed: Optional[Callable[[int, int], frozenset[int]]],
                       lost: set[int], allowed: bool) -> Optional[Node]:
    """The root's child, not lost nor in `lost` (ids), that lands on a site one of
    `threats` passes over or lands on (`passed`; without it, its destination): after a
    veto, the forcing answer and the wins it prepared; an action in their way may stop
    the threat, where the search's next choice, in a game whose playouts all end
    alike, is as good as drawn at random. `allowed`: only those the safety check let
    through; else those it vetoed for material too (once no other is left: a piece
    given away is better than the game). The search's preference among them (most
    visited, best mean); None where there is no such child."""
    me, children = root.mover, root.children
    assert me is not None and children is not None, "the root of a game going on, expanded"
    sites: set[int] = set()
    for code in threats:
        if len(code) > DESTINATION and code[DESTINATION] >= 0:
            sites |= passed(code[ORIGIN], code[DESTINATION]) if passed is not None else {code[DESTINATION]}
    blocking = [c for c in children if c.materialised and id(c) not in lost and not loses_for(c, me)
                and (not allowed or not c.vetoed)
                and c.code is not None and len(c.code) > DESTINATION and c.code[DESTINATION] in sites]
    return max(blocking, key=lambda c: (not c.vetoed, c.visits, c.mean(me))) if blocking else None


def _forced(root: Node, children: list[Node]) -> str:
    """Why there is nothing to think about at the root (expanded: `children`), or ""."""
    if root.proven is not None:
        return "solved"
    if len(children) == 1:
        return "only action"
    me = root.mover
    assert me is not None, "the root of a game going on"
    alive = [c for c in children if not loses_for(c, me)]
    return "forced" if len(alive) == 1 else ""


def _settled(root: Node, used: float, done: int) -> str:
    """A reason to stop before the budget is spent, or ""."""
    me, children = root.mover, root.children
    assert me is not None and children is not None, "the root of a game going on, expanded"
    if root.proven is not None:
        return "solved"
    ranked = sorted((c.visits for c in children if not loses_for(c, me)), reverse=True)
    if len(ranked) <= 1:
        return "forced"
    left = done * (1.0 - used) / max(used, 1e-9)
    if ranked[0] - ranked[1] > left:
        return "clear"
    return "alike" if _look_alike(root) else ""


def _look_alike(root: Node) -> bool:
    """Whether the root's many actions are all worth the same (see ALIKE_BAND)."""
    me, children = root.mover, root.children
    assert me is not None and children is not None, "the root of a game going on, expanded"
    if len(children) < ALIKE_ACTIONS or any(c.visits < ALIKE_VISITS for c in children):
        return False
    means = [c.mean(me) for c in children if not loses_for(c, me)]
    return bool(means) and max(means) - min(means) < ALIKE_BAND


def _stats(engine: FastLayer, root: Node, best: Node, iterations: int, seconds: float, reason: str,
           reused: int) -> SearchStats:
    me, children = root.mover, root.children
    assert me is not None and children is not None, "the root of a game going on, expanded"
    shown = [c for c in children if c.materialised]
    shown.sort(key=lambda c: (c is not best, -c.visits, -c.mean(me)))
    verdict = "win" if best.proven == me else "loss" if loses_for(best, me) else ""
    proven = {engine.notation(c.code): "win" if c.proven == me else "loss" for c in shown if c.proven is not None}
    return SearchStats(
        iterations=iterations, seconds=seconds, reason=reason, reused=reused, verdict=verdict,
        choices=[(engine.notation(c.code), c.visits, _value(c, me)) for c in shown], proven=proven,
        unsafe=sorted(engine.notation(c.code) for c in children if c.vetoed and c is not best),
    )


def _value(node: Node, me: int) -> float:
    """What `node` is worth to `me`: 1 or 0 when proven, else the mean reward."""
    if node.proven is not None:
        return 1.0 if node.proven == me else 0.0
    return node.mean(me)
