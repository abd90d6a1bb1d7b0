"""Games between a regelwerk player and OpenSpiel's `MCTSBot` (random rollouts) on
the benchmark games, at the same time per move.

The game is followed on both sides (`oracle.Match`: every position is compared, so
a game that the two implementations play differently stops with `Disagreement`);
the regelwerk player chooses on regelwerk's state, the bot on OpenSpiel's, and the
adapter (`benchmarks/adapters.py`) names each move on both sides.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..catalog import BenchmarkGame
from ..oracle import Match

# OpenSpiel's own example (open_spiel/python/examples/mcts.py) plays with these.
SPIEL_UCT_C = 2.0
SPIEL_ROLLOUTS = 1


def spiel_bot(spiel_game, seconds: float, seed: int, clock=time.perf_counter):
    """OpenSpiel's `MCTSBot` with random rollouts and MCTS-Solver (its defaults),
    searching `seconds` per move (of `clock`) instead of a number of simulations."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    class TimedMCTSBot(mcts.MCTSBot):
        """`MCTSBot` whose search stops when its time is up. The loop of
        `mcts_search` ends once the root has an outcome: the tree policy gives it
        one when the clock has run out (after at least one simulation), and the
        move is then chosen from the children as always."""

        deadline = 0.0
        step_seconds = seconds  # (a move of several OpenSpiel actions shares its time: spiel_move)

        def mcts_search(self, state):
            self.deadline = clock() + self.step_seconds
            return super().mcts_search(state)

        def _apply_tree_policy(self, root, state):
            if root.explore_count > 0 and clock() >= self.deadline and root.outcome is None:
                root.outcome = [0.0] * spiel_game.num_players()
            return super()._apply_tree_policy(root, state)

    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=SPIEL_ROLLOUTS, random_state=rng)
    return TimedMCTSBot(spiel_game, SPIEL_UCT_C, max_simulations=10**9, evaluator=evaluator, solve=True,
                        random_state=rng)


@dataclass
class SpielGame:
    """One finished game: the regelwerk player's result and the game's length."""

    index: int
    regel_seat: int  # the regelwerk player's index among the players
    winner: int  # regelwerk's index of the winner, -1 for a draw
    plies: int
    seconds: dict  # side -> thinking time spent
    capped: bool = False  # stopped at the move cap (`max_plies`) unfinished: counted a draw
    moves: tuple[str, ...] = ()  # the game's moves, chance's included, as the oracle names them

    @property
    def score(self) -> float:
        return 1.0 if self.winner == self.regel_seat else 0.5 if self.winner < 0 else 0.0


def spiel_move(match: Match, bot, seconds: float) -> str:
    """The bot's next move, as its key: one or more OpenSpiel actions (Amazons:
    the choice of an amazon, then its move) chosen one at a time by the bot, the
    move's `seconds` shared by them (as the regelwerk player's by its decisions)."""
    moves = match.spiel_moves()
    bot.step_seconds = seconds / max((len(move) for move in moves.values()), default=1)
    before = match.spiel_state.clone()
    probe = match.spiel_state.clone()
    chosen: list[int] = []
    while True:
        chosen.append(bot.step(probe))
        probe.apply_action(chosen[-1])
        found = [key for key, move in moves.items() if move == tuple(chosen)]
        if found:
            return found[0]
        if not any(move[:len(chosen)] == tuple(chosen) for move in moves.values()):
            raise RuntimeError(f"the bot played {chosen}, which starts no move of {before}")


MAX_TURN_DECISIONS = 16  # regelwerk decisions of one OpenSpiel move (Pentago, backgammon: 2)


def regel_move(game, agent, state, moves: dict[str, tuple], seconds: float) -> str:
    """The regelwerk player's next move, as its key. `moves` are regelwerk's legal
    moves by key, each the action codes that make it (`Match.regel_moves`): one,
    or several where OpenSpiel plays as one action what regelwerk plays as several
    decisions (Pentago's marble and quarter turn, backgammon's two checkers). Each
    decision is chosen in turn until the codes chosen make a move; the move's
    `seconds` are shared by its decisions (the longest move's number of them), as
    the bot's by its actions (`spiel_move`)."""
    agent.seconds = seconds / max((len(codes) for codes in moves.values()), default=1)
    chosen: tuple = ()
    for _ in range(MAX_TURN_DECISIONS):
        action = agent.choose(game, state)
        chosen += (action.code,)
        found = [key for key, codes in moves.items() if codes == chosen]
        if found:
            return found[0]
        if not any(codes[:len(chosen)] == chosen for codes in moves.values()):
            break
        state = game.apply(state, action)
    notations = " ".join(game.engine.notation(code) for code in chosen)
    raise RuntimeError(f"the regelwerk player's decisions {notations!r} make no move of {sorted(moves)[:5]}...")


def chance_move(match: Match, rng: random.Random) -> str:
    """A chance event's outcome (backgammon's roll), drawn by OpenSpiel's
    probabilities, as its key: neither player chooses it."""
    state = match.spiel_state
    outcomes = state.chance_outcomes()
    action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return match.bench.adapter.spiel_key(match.tracker, state, (action,))


def play_game(bench: BenchmarkGame, game, spiel_game, agent_factory, seconds: float, index: int,
              seed: int, max_plies: int = 2000, clock=time.perf_counter) -> SpielGame:
    """Game `index`: the regelwerk player (`agent_factory(seed)`) takes the first
    seat in even games, the second in odd ones; both think `seconds` a move, of
    `clock` (the regelwerk player is given it by the factory). A game still going
    after `max_plies` moves (chance events included) is a draw, marked `capped`:
    every benchmark game has a draw rule of its own well below the default."""
    regel_seat = index % 2
    agent = agent_factory(random.Random(f"{seed}/{index}/regelwerk").getrandbits(62))
    dice = random.Random(f"{seed}/{index}/chance")
    bot = spiel_bot(spiel_game, seconds, random.Random(f"{seed}/{index}/openspiel").getrandbits(31), clock)
    match = Match.start(bench, game, spiel_game)
    spent = {"regelwerk": 0.0, "openspiel": 0.0}
    while len(match.history) < max_plies:
        moves = match.check_position()
        if moves is None:
            break
        started = clock()
        if match.spiel_state.is_chance_node():
            key = chance_move(match, dice)
        elif game.engine.to_move(match.state) == regel_seat:
            key = regel_move(game, agent, match.state, match.regel_moves(), seconds)
            spent["regelwerk"] += clock() - started
        else:
            key = spiel_move(match, bot, seconds)
            spent["openspiel"] += clock() - started
        match.play(key, moves[key], match.regel_moves()[key])
    outcome = game.engine.outcome(match.state)
    winner = outcome[0] if outcome is not None else -1
    return SpielGame(index, regel_seat, winner, len(match.history), spent, capped=outcome is None,
                     moves=tuple(match.history))
