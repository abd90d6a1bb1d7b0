"""Tactical positions of any game, found by a bounded exhaustive search.

A position is *tactical* when the choice of one action matters at once: an action
wins the game, or some actions let an opponent win or lose material while others
do not, or some action wins material. Each legal action is valued with the
look-ahead over material (lookahead.py: the rest of the mover's turn, `turns`
whole turns of answers, then captures; material as material.py counts it), within
a window of one unit around the balance now, which tells apart:

- **win**: the action wins the game at once (`WIN`);
- **lost**: after it an opponent wins within the look-ahead (`-WIN`);
- **losing**: the balance after it is lower than now — material given away;
- **gaining**: the balance after it is higher — material won;
- otherwise it keeps the balance.

The kinds of position (`TacticalPosition.kinds`), from the positions of random
and self-play games of the game:

- `win`: some action wins at once, not every one;
- `avoid-loss`: some actions are lost, not every one;
- `avoid-material`: some actions give material away while another keeps it; a
  **threat** (`must-avoid`) when at least half of them do — the position asks for
  one of a few answers (parry, flee, block) — or when `avoid-loss` holds;
- `win-material`: some action gains material, not every one.

A player *solves* a position of a kind when its action does what the kind asks
(`solves`): wins; is not lost; is not losing; gains. The whole position is solved
when the action is in `good`: a win where there is one, else neither lost nor
losing (as far as another action is), and gaining if one such action is. It
*gives material away* when its action is losing while another is not.
"""
from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from ..runtime.pieces import CHANCE
from .lookahead import EPSILON, WIN, Lookahead, OutOfNodes, move_values
from .material import Material

if TYPE_CHECKING:
    from ..api import Game
    from ..runtime.state import State
    from ..runtime.views import Action

    Chooser = Callable[[Game, State], Action]  # (game, state) -> the action to play

TURNS = 1  # whole turns of answers searched after an action
NODE_LIMIT = 400_000  # positions the look-ahead may make for one position (else it is left out)
MUST_AVOID_SHARE = 0.5  # a threat: at least this share of the actions gives material away


@dataclass
class TacticalPosition:
    """A position and what each of its actions is worth (see the module's doc)."""

    position: str  # Game.position_text
    balance: float  # the mover's balance now
    values: dict[str, float]  # notation -> value for the mover (a bound beyond balance ± 1)
    source: str = ""  # where it was found: "random 3 ply 14"

    def wins(self) -> set[str]:
        return {n for n, v in self.values.items() if v >= WIN / 2}

    def lost(self) -> set[str]:
        return {n for n, v in self.values.items() if v <= -WIN / 2}

    def losing(self) -> set[str]:
        return {n for n, v in self.values.items() if v < self.balance - EPSILON}

    def gaining(self) -> set[str]:
        return {n for n, v in self.values.items() if v > self.balance + EPSILON}

    @property
    def kinds(self) -> list[str]:
        everything = set(self.values)
        out = []
        wins, lost, losing, gaining = self.wins(), self.lost(), self.losing(), self.gaining()
        if wins and wins != everything:
            out.append("win")
        if lost and lost != everything:
            out.append("avoid-loss")
        if losing and losing != everything:
            out.append("avoid-material")
        if gaining and gaining != everything:
            out.append("win-material")
        if ("avoid-loss" in out or ("avoid-material" in out and len(losing) >= MUST_AVOID_SHARE * len(everything))):
            out.append("must-avoid")
        return out

    def good(self) -> set[str]:
        """The actions that solve the position: a win where there is one; else the
        actions neither lost nor losing (as far as some are), gaining if any is."""
        wins = self.wins()
        if wins:
            return wins
        left = set(self.values)
        for worse in (self.lost(), self.losing()):
            if left - worse:
                left -= worse
        return (left & self.gaining()) or left

    def solves(self, kind: str, notation: str) -> bool:
        """Whether `notation` does what a position of `kind` asks ("all": `good`)."""
        if kind == "win":
            return notation in self.wins()
        if kind == "avoid-loss":
            return notation not in self.lost()
        if kind == "avoid-material":
            return notation not in self.losing()
        if kind == "must-avoid":
            return notation not in (self.losing() if "avoid-material" in self.kinds else self.lost())
        if kind == "win-material":
            return notation in self.gaining() or notation in self.wins()
        return notation in self.good()

    def gives_away(self, notation: str) -> bool:
        """Whether `notation` gives material (or the game) away while another action does not."""
        losing = self.losing()
        return notation in losing and losing != set(self.values)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TacticalPosition":
        return cls(data["position"], float(data["balance"]),
                   {str(k): float(v) for k, v in data["values"].items()}, str(data.get("source", "")))


def classify(game: Game, state: State, turns: int = TURNS, node_limit: int = NODE_LIMIT,
             source: str = "") -> Optional[TacticalPosition]:
    """The position `state` with its actions valued, or None when it is not tactical
    (or not a decision, or too big for `node_limit`)."""
    engine = game.engine
    mover = engine.to_move(state)
    if mover is None or mover == CHANCE:
        return None
    material = Material(game)
    if not material.available:
        return None
    look = Lookahead(engine, material, mover, node_limit=node_limit)
    try:
        values = move_values(look, state, turns)
    except OutOfNodes:
        return None
    found = TacticalPosition(game.position_text(state), look.balance(state),
                             {engine.notation(code): value for code, value in values}, source)
    return found if found.kinds else None


def game_positions(game: Game, seed: int, games: int, chooser: Optional[Chooser] = None,
                   every: int = 1, max_plies: int = 400) -> Iterator[tuple[str, State]]:
    """(source, position) of `games` games: random ones, or played by `chooser`
    (game, state) -> Action; every `every`-th position, decisions only."""
    engine = game.engine
    rng = random.Random(seed)
    for number in range(games):
        state = game.initial_state()
        for ply in range(max_plies):
            mover = engine.to_move(state)
            if mover is None:
                break
            if mover != CHANCE and ply % every == 0:
                yield f"{'self-play' if chooser else 'random'} {seed}/{number} ply {ply}", state
            if mover == CHANCE or chooser is None:
                code = engine.pick_random(state, rng)
                state = engine.copy(state)
                engine.apply_in_place(state, code)
            else:
                state = game.apply(state, chooser(game, state))


@dataclass
class TacticalSet:
    """The tactical positions of one game."""

    game: str
    positions: list[TacticalPosition] = field(default_factory=list)

    def of_kind(self, kind: str) -> list[TacticalPosition]:
        return [p for p in self.positions if kind in p.kinds]


def generate(game: Game, count: int, seed: int = 1, chooser: Optional[Chooser] = None,
             turns: int = TURNS, every: int = 3, games_per_source: int = 400) -> TacticalSet:
    """Up to `count` tactical positions, half from random games, half from games
    played by `chooser` (all from random games without one); no position twice."""
    found = TacticalSet(game.name)
    seen: set[str] = set()
    sources = [None, chooser] if chooser is not None else [None]
    share = [count - count // len(sources) * (len(sources) - 1)] + [count // len(sources)] * (len(sources) - 1)
    for who, wanted in zip(sources, share):
        taken = 0
        for source, state in game_positions(game, seed, games_per_source, who, every):
            if taken >= wanted:
                break
            text = game.position_text(state)
            if text in seen:
                continue
            seen.add(text)
            position = classify(game, state, turns, source=source)
            if position is not None:
                found.positions.append(position)
                taken += 1
    return found


@dataclass
class SolveReport:
    """How a player did on a tactical set: per kind, positions and solved ones."""

    positions: dict[str, int] = field(default_factory=dict)
    solved: dict[str, int] = field(default_factory=dict)
    gave_away: list[str] = field(default_factory=list)  # "position text: action"
    missed: list[str] = field(default_factory=list)

    def share(self, kind: str) -> float:
        return self.solved.get(kind, 0) / self.positions[kind] if self.positions.get(kind) else 1.0


def solve(game: Game, tactical: TacticalSet, choose: Callable[[Game, State], str],
          progress: Optional[Callable[[int, TacticalPosition, str], None]] = None) -> SolveReport:
    """Ask `choose(game, state)` -> notation for every position of the set."""
    report = SolveReport()
    for number, position in enumerate(tactical.positions):
        state = game.parse_position(position.position)
        chosen = choose(game, state)
        for kind in position.kinds + ["all"]:
            report.positions[kind] = report.positions.get(kind, 0) + 1
            report.solved[kind] = report.solved.get(kind, 0) + position.solves(kind, chosen)
        if position.gives_away(chosen):
            report.gave_away.append(f"{position.position}: {chosen}")
        if not position.solves("all", chosen):
            report.missed.append(f"{position.position}: {chosen} (good: {' '.join(sorted(position.good()))})")
        if progress is not None:
            progress(number, position, chosen)
    return report
