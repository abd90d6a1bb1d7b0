"""Playing one game and measuring it as it goes.

The measuring loop works on the fast layer (`game.engine`: action codes, one
state changed in place) and keeps per-ply figures in local counters, so that
measuring costs little more than playing. A game is a pure function of its
column and its seed: the players' and the chance events' generators are seeded
with `SEED/INDEX/...`, never with anything that depends on where it runs.

Only traced games (one in K, see `Tracing`) record what costs more: the scores
of every position, the position keys, and where each action lands (read from
the public `Action.to_site` of each code, learnt once per code).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Optional

from ...runtime.engine import CHANCE
from .trace import TraceSummary, position_key_function, summarise_trace

NO_SITE = -1
CUT_OFF = -1  # `GameStats.ending` of a game stopped at the ply bound
UNLOCATED = -2  # ... of a game that ended by no rule with a probe


@dataclass
class GameStats:
    """What one game measured (one number each; the report aggregates them)."""

    index: int
    plies: int  # actions played, chance outcomes included
    turns: int  # runs of consecutive actions by one player
    winner: int  # player index, -1 for none
    over: bool  # the game ended (else: cut off at the ply bound)
    ending: int  # index of the `ending` probe that ended it, CUT_OFF or UNLOCATED
    positions: int  # positions where a player (not chance) was to move
    choices: int  # legal actions summed over those positions
    decisions: int  # those positions with more than one legal action
    covered: Optional[int] = None  # traced games: board sites occupied at the start or landed on
    fired: tuple = ()  # (probe index, count) of the rules that fired in this game
    trace: Optional[TraceSummary] = None  # traced games: score and repetition figures


def game_seed(seed: int, index: int, who: str) -> str:
    """The seed text of game `index`'s generator `who` (`random`, `chance`, a player)."""
    return f"{seed}/{index}/{who}"


@dataclass(frozen=True)
class Tracing:
    """Which games are traced: every `every`-th, from game 0 (0: none). A traced
    game records, position by position, the scores, where each action lands
    (board coverage, the heat map) and, in the games that are a multiple of
    `keys_every`, the position keys (repetition; the keys of the public views
    are slow, see trace.py). The other games cost little more than playing."""

    every: int = 8
    keys_every: int = 8

    def scores(self, index: int) -> bool:
        return self.every > 0 and index % self.every == 0

    def keys(self, index: int) -> bool:
        return self.keys_every > 0 and index % self.keys_every == 0


NO_TRACE = Tracing(0, 0)


class Measurer:
    """Plays and measures games of one compiled game (one column, one process)."""

    def __init__(self, game, max_plies: int):
        self.game = game
        self.engine = game.engine
        self.max_plies = max_plies
        self.site_index = {name: i for i, name in enumerate(game.board.sites)}
        self.start = self.engine.initial_state()
        self.initial_sites = frozenset(self.site_index[p.site] for p in game.pieces(self.start)
                                       if p.site in self.site_index)
        self.destinations: dict = {}
        self.chance_tables: dict = {}
        self.heat = [0] * len(self.site_index)  # landings per site, summed over the games played here
        self.coverage = game.coverage
        probes = self.coverage.probes if self.coverage is not None else ()
        self.ending_probes = frozenset(i for i, p in enumerate(probes) if p.kind == "ending")
        self.position_key = position_key_function(game)

    # -- helpers of the loop ------------------------------------------------------------------

    def landing(self, state, code) -> int:
        """The site index where `code`, legal in `state`, lands (NO_SITE: none),
        learnt from the public `Action`s of the first position it is seen in."""
        site = self.destinations.get(code)
        if site is None:
            index = self.site_index
            for action in self.game.legal_actions(state):
                self.destinations[action.code] = index.get(action.to_site, NO_SITE)
            site = self.destinations[code]
        return site

    def chance_pick(self, state, legal: list, rand: Callable) -> tuple:
        """An outcome of the chance event at `state`, drawn by its probabilities."""
        # A chance event's outcomes are the same wherever it happens: known by
        # its first outcome and their number, its table is computed once.
        key = (legal[0], len(legal))
        table = self.chance_tables.get(key)
        if table is None:
            pairs = self.engine.chance_probabilities(state)
            probabilities = [p for _, p in pairs]
            uniform = max(probabilities) - min(probabilities) < 1e-12
            cumulative, total = [], 0.0
            for p in probabilities:
                total += p
                cumulative.append(total)
            table = self.chance_tables[key] = ([c for c, _ in pairs], None if uniform else cumulative)
        codes, cumulative = table
        if cumulative is None:
            return codes[int(rand() * len(codes))]
        x = rand() * cumulative[-1]
        for code, bound in zip(codes, cumulative):
            if x < bound:
                return code
        return codes[-1]

    def fired_since(self, before: Optional[list]) -> tuple:
        """(probe index, count) of every probe that fired since the snapshot `before`."""
        if before is None:
            return ()
        return tuple((i, now - then) for i, (now, then) in enumerate(zip(self.coverage.counts, before)) if now != then)

    def ending_of(self, fired: tuple, over: bool) -> int:
        """The `ending` probe that ended the game (CUT_OFF, UNLOCATED otherwise)."""
        if not over:
            return CUT_OFF
        endings = self.ending_probes
        return next((i for i, _ in fired if i in endings), UNLOCATED)

    # -- one game ------------------------------------------------------------------------------

    def play(self, seed: int, index: int, trace: Tracing = NO_TRACE, agents: Optional[dict] = None) -> GameStats:
        """Play game `index` (uniformly at random, or by `agents`: player index ->
        agent) and measure it; `trace` says whether it is traced (see Tracing)."""
        engine = self.engine
        legal_of, apply, to_move, game = engine.legal, engine.apply_in_place, engine.to_move, self.game
        rand = random.Random(game_seed(seed, index, "random")).random
        chance_rand = rand if agents is None else random.Random(game_seed(seed, index, "chance")).random
        before = self.coverage.snapshot() if self.coverage is not None else None
        recorder = _Recorder(self, trace.keys(index)) if trace.scores(index) else None
        state = engine.copy(self.start)
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
                code = legal[int(rand() * n)] if agents is None else agents[who].choose(game, state).code
            if recorder is not None:
                recorder.record(state, code)
            apply(state, code)
            plies += 1
        return self._finish(state, index, before, recorder, (plies, turns, plies - chances, choices, decisions))

    def _finish(self, state, index: int, before, recorder, counts: tuple) -> GameStats:
        over = self.engine.is_over(state)
        winner = self.engine.outcome(state)[0] if over else -1
        plies, turns, positions, choices, decisions = counts
        fired = self.fired_since(before)
        stats = GameStats(index, plies, turns, winner, over, self.ending_of(fired, over),
                          positions, choices, decisions, fired=fired)
        if recorder is not None:
            recorder.record(state, None)
            stats.covered = len(recorder.seen)
            stats.trace = summarise_trace(recorder.scores, recorder.keys, winner)
        return stats


class _Recorder:
    """What a traced game records position by position: the scores, the position
    keys (when `keys`), and where each action lands (the measurer's heat map)."""

    def __init__(self, measurer: Measurer, keys: bool):
        self.measurer = measurer
        self.scores_of = measurer.engine.scores
        self.key_of = measurer.position_key if keys else None
        self.scores: list = []
        self.keys: Optional[list] = [] if keys else None
        self.seen = set(measurer.initial_sites)

    def record(self, state, code) -> None:
        """The position `state`, before `code` is played on it (None: the end)."""
        self.scores.append(self.scores_of(state))
        if self.key_of is not None:
            self.keys.append(self.key_of(state))
        if code is not None:
            site = self.measurer.landing(state, code)
            if site != NO_SITE:
                self.measurer.heat[site] += 1
                self.seen.add(site)
