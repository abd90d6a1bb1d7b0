"""What the player finds out about a game before it searches, once per game.

Nothing about a particular game is built in: the player plays a few random games
(seeded, so the same on every run) and measures.

- **Whether material means something**: the share of actions that lower an
  opponent's material (material.py). Where none does (a game of filling
  columns, of blocking with arrows, a sowing game's seeds as counters) there is
  nothing to protect; where nearly every action does (flanked stones flipped,
  every move a capture) material swings back and forth and the balance after two
  turns says little. In between (most games of moving pieces, where captures are
  events)
  the look-ahead over material guards the root (safety.py).
- **Whether material is an asset**: where the random games that someone won end
  with the winner's material fallen behind the loser's (against the start) far
  more often than ahead — the game is won by losing pieces, or fewer pieces are
  easier to bring together into one group — keeping material
  is no guide, and the look-ahead stays off.
- **Whether an action is a move or a slot**: the share of a player's actions in
  a random game that repeat an action (the same code) the player has played
  before in that game. Where most do (a sowing game: six pits, each sown again and again,
  each time with other seeds), an action names a slot whose worth changes with
  the position, not a move that is about as good a little earlier or later:
  "all moves as first" credits it with every later play and misleads the
  search, so it chooses by UCT instead of GRAVE (amaf.py; `uses_amaf`).
- **Whether an action's mean result says something of it**: the share of all
  the actions a player was seen to play in the random games that the player
  plays in one game, on average (`coverage`). MAST (playout.py) prefers, in the
  playouts, actions with the better mean result over the simulated games so
  far; where a player plays a large share of all its actions in every game
  (a column game's cells 0.27, a flanking game's squares 0.50, a territory game's points 0.58), every
  action is in most simulated games and its mean is that of the games, not of
  the action: the preference is noise and only makes the playouts less varied.
  Where each game plays a small share (0.15 in a game of capturing steps, moves from one square to
  another in most games), an action's mean is its own, and the playouts prefer
  it (`uses_mast`; the player uses MAST only where, besides, no material and no
  learnt evaluation guide the playouts: mcts.py). Measured against MCTSBot: with
  MAST 28 of 40 (without 21 of 40) and 18–2–11 of 31 (without 29–1–10 of 40) in
  the two benchmark games it applies to (benchmarks/README.md).
"""
from __future__ import annotations

import random
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar

from ...analysis.material import Material, balance
from ...runtime.pieces import CHANCE
from .evaluation import Escape, Evaluation, learn_with_escape

if TYPE_CHECKING:
    from ...runtime.state import State
    from ..protocol import FrontendGame

PROBE_GAMES = 12  # random games played to measure a game (at most)
PROBE_ACTIONS = 3000  # actions they may take in all
PROBE_GAME_ACTIONS = 400  # actions of one of them (at most)
# Material guards the root when captures are events: this share of actions or
# fewer lowers an opponent's material (and some do).
MOST_CAPTURES = 0.5
# Material is a liability where at least LIABILITY_GAMES won probe games ended
# with the winner behind in it (against the start), and more than LIABILITY_RATIO
# times as many as ended with the winner ahead.
LIABILITY_GAMES = 5
LIABILITY_RATIO = 3
# AMAF guides the search unless more than this share of the players' actions
# repeat one they played before in the same game (a sowing game 0.72; every other
# game measured 0.51 or less: a pawn wandering at random in a race, 0.33 in a game
# of mills).
MOST_REPEATS = 0.6
# MAST guides the playouts where a player plays at most this share, on average, of
# all the actions it was seen to play in the probe games (0.15 and 0.27 in the two
# games above; benchmarks/README.md has every game's).
MOST_COVERAGE = 0.2


@dataclass(frozen=True)
class GameKnowledge:
    """What the probes found (see the module's doc)."""

    capture_rate: float  # the share of actions that lowered an opponent's material
    material: Optional[Material]  # the yardstick of the look-ahead, None where it says nothing
    # won probe games whose winner ended ahead in material (against the start), and behind
    winners_ahead: int = 0
    winners_behind: int = 0
    repeat_rate: float = 0.0  # the share of actions repeating one their player played before in the game
    # the share of all the actions a player was seen to play that it plays in one game
    coverage: float = 1.0

    @property
    def uses_amaf(self) -> bool:
        """Whether the search chooses by GRAVE (see the module's doc)."""
        return self.repeat_rate <= MOST_REPEATS

    @property
    def uses_mast(self) -> bool:
        """Whether the playouts prefer actions by their mean results (MAST; see the
        module's doc). MAST learns from the simulated games GRAVE keeps: only with it."""
        return self.uses_amaf and self.coverage <= MOST_COVERAGE


_KNOWN: "weakref.WeakKeyDictionary[FrontendGame, GameKnowledge]" = weakref.WeakKeyDictionary()
_EVALUATIONS: "weakref.WeakKeyDictionary[FrontendGame, Optional[Evaluation]]" = weakref.WeakKeyDictionary()
_ESCAPES: "weakref.WeakKeyDictionary[FrontendGame, Optional[Escape]]" = weakref.WeakKeyDictionary()


def knowledge_of(game: FrontendGame) -> GameKnowledge:
    """The knowledge of `game`, measured on first use and kept while the game lives."""
    return _kept(_KNOWN, game, measure)


def evaluation_of(game: FrontendGame) -> Optional[Evaluation]:
    """The evaluation learnt for `game` (evaluation.py), learnt on first use."""
    return _kept(_EVALUATIONS, game, _learn)


def escape_of(game: FrontendGame) -> Optional[Escape]:
    """The room of `game`'s goal pieces (evaluation.py, `Escape`), measured with its
    evaluation (the same random games) on first use."""
    evaluation_of(game)
    try:
        return _ESCAPES.get(game)
    except TypeError:  # a game object that cannot be weakly referenced
        return learn_with_escape(game)[1]


def _learn(game: FrontendGame) -> Optional[Evaluation]:
    """The evaluation of `game`; its `Escape` kept beside it."""
    evaluation, escape = learn_with_escape(game)
    try:
        _ESCAPES[game] = escape
    except TypeError:  # (as `_kept`: learnt again when asked)
        pass
    return evaluation


Kept = TypeVar("Kept")


def _kept(cache: "weakref.WeakKeyDictionary[FrontendGame, Kept]", game: FrontendGame,
          make: Callable[[FrontendGame], Kept]) -> Kept:
    try:
        if game in cache:
            return cache[game]
    except TypeError:  # a game object that cannot be weakly referenced
        return make(game)
    made = cache[game] = make(game)
    return made


def measure(game: FrontendGame) -> GameKnowledge:
    material = Material(game)
    engine = game.engine
    if not hasattr(engine, "pick_random"):  # (a game of the tests' own, without the fast layer's draws)
        return GameKnowledge(0.0, None)
    found = probe(engine, material if material.available else None, game.initial_state())
    if not material.available:
        return GameKnowledge(0.0, None, repeat_rate=found.repeat_rate, coverage=found.coverage)
    relevant = 0.0 < found.capture_rate <= MOST_CAPTURES
    liability = found.behind >= LIABILITY_GAMES and found.behind > LIABILITY_RATIO * found.ahead
    return GameKnowledge(found.capture_rate, material if relevant and not liability else None, found.ahead,
                         found.behind, found.repeat_rate, found.coverage)


@dataclass(frozen=True)
class Probe:
    """What the random games of `probe` found."""

    capture_rate: float  # the share of actions after which an opponent's material is lower
    ahead: int  # won games whose winner ended ahead in material against the start
    behind: int  # ... and behind
    repeat_rate: float  # the share of actions repeating one their player played before in the game
    coverage: float = 1.0  # the mean share of all the actions a player was seen to play that it plays in a game


def probe(engine: Any, material: Optional[Material], start: State) -> Probe:
    """Random games from `start` (material counted where `material` is given).
    (`engine`: the fast layer with `pick_random`, beyond what protocol.FastLayer names.)"""
    rng = random.Random(0)
    actions = captures = ahead = behind = repeats = 0
    games: list[set[tuple[int, Any]]] = []  # the (mover, code) of each game
    for _ in range(PROBE_GAMES):
        state = engine.copy(start)
        before = first = material.of(state) if material is not None else ()
        played: set[tuple[int, Any]] = set()
        games.append(played)
        for _ in range(PROBE_GAME_ACTIONS):
            mover = engine.to_move(state)
            if mover is None or actions >= PROBE_ACTIONS:
                break
            code = engine.pick_random(state, rng)
            engine.apply_in_place(state, code)
            after = material.of(state) if material is not None else ()
            if mover != CHANCE:
                actions += 1
                captures += any(after[i] < before[i] for i in range(len(after)) if i != mover)
                repeats += (mover, code) in played
                played.add((mover, code))
            before = after
        outcome = engine.outcome(state)
        if material is not None and outcome is not None and outcome[0] >= 0:
            gained = balance(before, outcome[0]) - balance(first, outcome[0])
            ahead += gained > 0
            behind += gained < 0
        if actions >= PROBE_ACTIONS:
            break
    share = 1.0 / actions if actions else 0.0
    return Probe(captures * share, ahead, behind, repeats * share, coverage(games))


def coverage(games: list[set[tuple[int, Any]]]) -> float:
    """The mean, over each game and player, of the share of all the actions the
    player played in `games` (sets of (player, code)) that it played in that game."""
    seen: dict[int, set[Any]] = {}
    for played in games:
        for mover, code in played:
            seen.setdefault(mover, set()).add(code)
    shares: list[float] = []
    for played in games:
        counts: dict[int, int] = {}
        for mover, _ in played:
            counts[mover] = counts.get(mover, 0) + 1
        shares.extend(count / len(seen[mover]) for mover, count in counts.items())
    return sum(shares) / len(shares) if shares else 1.0
