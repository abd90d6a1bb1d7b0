"""Playing one game and measuring it as it goes.

The measuring loop works on the fast layer (`game.engine`: action codes, one
state changed in place) and keeps per-ply figures in local counters, so that
measuring costs little more than playing. A game is a pure function of its
column and its seed: the players' and the chance events' generators are seeded
with `SEED/INDEX/...`, never with anything that depends on where it runs.

Most games are played by the engine's own playout loop (the one `regelwerk
bench` times): their length, result, ending and rule coverage are measured.
Counted games (one in K/4, see `Tracing`) are played here, ply by ply, for
their turns and choices; traced games (one in K) also record the scores of
every position, the position keys, and where each action lands (read from the
public `Action.to_site` of the position's last action, learnt once per code).
"""
from __future__ import annotations

import operator
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from ...runtime.pieces import CHANCE
from .trace import TraceSummary, position_key_function, summarise_trace

if TYPE_CHECKING:
    from ...api import Game
    from ...runtime.pieces import Code
    from ...runtime.state import State
    from ...runtime.views import Action

NO_SITE = -1
CUT_OFF = -1  # `GameStats.ending` of a game stopped at the ply bound
UNLOCATED = -2  # ... of a game that ended by no rule with a probe


@dataclass(slots=True)
class GameStats:
    """What one game measured (one number each; the report aggregates them)."""

    index: int
    plies: int  # actions played, chance outcomes included
    turns: Optional[int]  # traced games: runs of consecutive actions by one player
    winner: int  # player index, -1 for none (a team's code: `Engine.winners`)
    over: bool  # the game ended (else: cut off at the ply bound)
    ending: int  # index of the `ending` probe that ended it, CUT_OFF or UNLOCATED
    positions: Optional[int]  # traced games: positions where a player (not chance) was to move
    choices: Optional[int]  # traced games: legal actions summed over those positions
    decisions: Optional[int]  # traced games: those positions with more than one legal action
    covered: Optional[int] = None  # traced games: board sites occupied at the start or landed on
    fired: list[Any] = field(default_factory=list)  # (probe index, count) of the rules that fired in this game
    trace: Optional[TraceSummary] = None  # traced games: score and repetition figures
    winners: tuple[int, ...] = ()  # the players who won: the winner, or a winning team's players


def game_seed(seed: int, index: int, who: str) -> str:
    """The seed text of game `index`'s generator `who` (`chance`, a player)."""
    return f"{seed}/{index}/{who}"


# Random games are seeded by blocks: seeding a generator costs as much as a short
# game's measuring, so game i draws from the generator of its block (i // BLOCK),
# seeded `SEED/block/B`, after the games before it in the block. A block is a
# pure function of the game's number: the games stay the same however the work
# is cut, as long as runs of games start at a block (see tasks.py).
BLOCK = 16


def block_generator(seed: int, index: int) -> random.Random:
    """The generator of game `index`'s block, as at the block's first game."""
    return random.Random(f"{seed}/block/{index // BLOCK}")


@dataclass(frozen=True)
class Tracing:
    """How closely each game is watched, by its number (0 for a frequency: never).

    Every game: its result, length in plies, ending and rule coverage (it is
    played by the engine's own playout loop, as `regelwerk bench` times it).
    *Counted* games (one in `counts_every`, and the traced ones) are played ply
    by ply here: also their turns, decision moves and branching factor.
    *Traced* games (one in `every`) also record the scores of every position,
    where each action lands (board coverage, the heat map) and, one in
    `keys_every`, the position keys (repetition: the keys of the public views are
    slow, see trace.py)."""

    every: int = 16
    keys_every: int = 16
    counts_every: int = 4

    def scores(self, index: int) -> bool:
        return self.every > 0 and index % self.every == 0

    def keys(self, index: int) -> bool:
        return self.keys_every > 0 and index % self.keys_every == 0

    def counts(self, index: int) -> bool:
        return (self.counts_every > 0 and index % self.counts_every == 0) or self.scores(index)


NO_TRACE = Tracing(0, 0, 1)  # every game counted, none traced


class Measurer:
    """Plays and measures games of one compiled game (one column, one process)."""

    def __init__(self, game: Game, max_plies: int) -> None:
        self.game = game
        self.engine = game.engine
        self.max_plies = max_plies
        self.site_index = {name: i for i, name in enumerate(game.board.sites)}
        self.start = self.engine.initial_state()
        self.initial_sites = frozenset(self.site_index[p.site] for p in game.pieces(self.start)
                                       if p.site in self.site_index)
        self.destinations: dict[Code, int] = {}  # an action's code -> the site where it lands
        # (first outcome, number of outcomes) -> (the codes, their running probabilities or None: uniform)
        self.chance_tables: dict[tuple[Code, int], tuple[list[Code], Optional[list[float]]]] = {}
        self.heat = [0] * len(self.site_index)  # landings per site, summed over the games played here
        self.coverage = game.coverage
        probes = self.coverage.probes if self.coverage is not None else ()
        self.ending_probes = frozenset(i for i, p in enumerate(probes) if p.kind == "ending")
        self.position_key = position_key_function(game)
        self.playout = getattr(self.engine, "random_playout", None)  # (state, rng, max plies) -> plies

    # -- helpers of the loop ------------------------------------------------------------------

    def learn_landing(self, state_after: Any) -> int:
        """The site index where the action that led to `state_after` landed
        (NO_SITE: none), from its public `Action`; remembered by its code."""
        action = self.game.last_action(state_after)
        assert action is not None  # (asked after an action)
        site = NO_SITE if action.to_site is None else self.site_index.get(action.to_site, NO_SITE)
        self.destinations[action.code] = site
        return site

    def chance_pick(self, state: State, legal: Sequence[Code], rand: Callable[[], float]) -> Code:
        """An outcome of the chance event at `state`, drawn by its probabilities."""
        if self.game.is_drawn_from_set(state):  # (each of the set's members as likely)
            return legal[int(rand() * len(legal))]
        # A chance event's outcomes are the same wherever it happens: known by
        # its first outcome and their number, its table is computed once.
        key = (legal[0], len(legal))
        table = self.chance_tables.get(key)
        if table is None:
            pairs = self.engine.chance_probabilities(state)
            probabilities = [p for _, p in pairs]
            uniform = max(probabilities) - min(probabilities) < 1e-12
            running: list[float] = []
            total = 0.0
            for p in probabilities:
                total += p
                running.append(total)
            table = self.chance_tables[key] = ([c for c, _ in pairs], None if uniform else running)
        codes, cumulative = table
        if cumulative is None:
            return codes[int(rand() * len(codes))]
        x = rand() * cumulative[-1]
        for code, bound in zip(codes, cumulative):
            if x < bound:
                return code
        return codes[-1]

    def agent_choice(self, agent: Any, state: State) -> Code:
        """The code of the action `agent` chooses at `state`. Its search plays
        thousands of simulated games on the same rules: the rule coverage counts
        are put back as they were, so that only the game played is counted."""
        counts = self.coverage.counts if self.coverage is not None else None
        saved = counts[:] if counts is not None else None
        try:
            action: Action = agent.choose(self.game, state)
            return action.code
        finally:
            if counts is not None and saved is not None:
                counts[:] = saved

    def fired_since(self, before: Optional[list[int]]) -> list[tuple[int, int]]:
        """(probe index, count) of every probe that fired since the snapshot `before`."""
        if before is None or self.coverage is None:
            return []
        return [(i, d) for i, d in enumerate(map(operator.sub, self.coverage.counts, before)) if d]

    def ending_of(self, fired: list[tuple[int, int]], over: bool) -> int:
        """The `ending` probe that ended the game (CUT_OFF, UNLOCATED otherwise)."""
        if not over:
            return CUT_OFF
        endings = self.ending_probes
        for probe, _ in fired:
            if probe in endings:
                return probe
        return UNLOCATED

    # -- one game ------------------------------------------------------------------------------

    def play(self, seed: int, index: int, trace: Tracing = NO_TRACE, agents: Optional[dict[int, Any]] = None,
             rng: Optional[random.Random] = None) -> GameStats:
        """Play game `index` and measure it: uniformly at random, drawing from
        `rng` (see `block_generator`), or by `agents` (player index -> agent;
        chance then draws from a generator of the game's own). `trace` says
        whether the game is traced (see Tracing)."""
        engine = self.engine
        legal_of, to_move = engine.legal, engine.to_move
        apply: Callable[[State, Code], None] = engine.apply_in_place
        generator = rng or block_generator(seed, index)
        rand = generator.random  # unused by agents
        chance_rand = rand if agents is None else random.Random(game_seed(seed, index, "chance")).random
        before = self.coverage.snapshot() if self.coverage is not None else None
        # A fresh start rather than a copy: its actions are listed again, so that the
        # rules that fire there (forbids, prefer) count in every game.
        state = engine.initial_state() if self.coverage is not None else engine.copy(self.start)
        if not trace.counts(index) and agents is None and self.playout is not None:
            # Not counted: played by the engine's own loop, as fast as `regelwerk bench`.
            plies = self.playout(state, generator, self.max_plies)
            return self._finish(state, index, before, None, (plies, None, None, None, None))
        recorder = _Recorder(self, trace.keys(index)) if trace.scores(index) else None
        if recorder is not None:
            apply = recorder.apply  # records the position, then plays (no test on every ply)
        plies = turns = chances = choices = decisions = 0
        last = None
        bound, chance = self.max_plies, CHANCE  # locals: read on every ply
        while plies < bound:
            who = to_move(state)
            if who is None:
                break
            legal = legal_of(state)
            if who == chance:
                chances += 1
                code = self.chance_pick(state, legal, chance_rand)
            else:
                n = len(legal)
                choices += n
                if n > 1:
                    decisions += 1
                if who != last:
                    turns += 1
                    last = who
                code = legal[int(rand() * n)] if agents is None else self.agent_choice(agents[who], state)
            apply(state, code)
            plies += 1
        return self._finish(state, index, before, recorder, (plies, turns, plies - chances, choices, decisions))

    def _finish(self, state: State, index: int, before: Any, recorder: Any, counts: tuple[Any, ...]) -> GameStats:
        outcome = self.engine.outcome(state)  # None: cut off
        over = outcome is not None
        winner = outcome[0] if outcome is not None else -1
        plies, turns, positions, choices, decisions = counts
        fired = self.fired_since(before)
        stats = GameStats(index, plies, turns, winner, over, self.ending_of(fired, over),
                          positions, choices, decisions, fired=fired, winners=self.engine.winners(winner))
        if recorder is not None:
            recorder.record(state)
            stats.covered = len(recorder.seen)
            stats.trace = summarise_trace(recorder.scores, recorder.keys, winner)
        return stats


class _Recorder:
    """What a traced game records position by position: the scores, the position
    keys (when `keys`), and where each action lands (the measurer's heat map)."""

    def __init__(self, measurer: Measurer, keys: bool):
        self.learn_landing = measurer.learn_landing
        self.apply_in_place = measurer.engine.apply_in_place
        self.destinations = measurer.destinations
        self.heat = measurer.heat
        self.scores_of = measurer.engine.scores
        self.key_of = measurer.position_key if keys else None
        self.scores: list[Any] = []
        self.keys: Optional[list[Any]] = [] if keys else None  # None: keys not recorded
        self.seen = set(measurer.initial_sites)

    def apply(self, state: State, code: Code) -> None:
        """Record the position `state`, play `code` on it, note where it landed."""
        self.record(state)
        self.apply_in_place(state, code)
        site = self.destinations.get(code)
        if site is None:
            site = self.learn_landing(state)
        if site != NO_SITE:
            self.heat[site] += 1
            self.seen.add(site)

    def record(self, state: State) -> None:
        """The position `state` (its scores, its key)."""
        self.scores.append(self.scores_of(state))
        if self.key_of is not None and self.keys is not None:
            self.keys.append(self.key_of(state))
