"""How a game ends: the result a rule sets, and the scores.

Generated code ends a game with `h_end(state, how, player, ending)`: `how` says
which statement (an `EndingKind`, written as its number: `win`, `lose`, `draw`,
`end game`), `player` whom it names, and `ending` which statement of the rules it
was (an index into the endings table, for `Result.ending` and rule coverage). The
first ending counts.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import IntEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from .errors import RuleRuntimeError
from .helpers import NUMBER_LIMIT

if TYPE_CHECKING:
    from ..parsing.ast import Pos
    from .pieces import Outcome
    from .state import State

# The compiled `score:` rule: score(state, player index) -> number.
ScoreRule = Callable[["State", int], int]
# The result of a game ended while perft counts (`unscored_ends`): over, whoever won
# and the scores not worked out (nothing reads them: perft counts actions, and an
# ended game has none).
UNSCORED: Outcome = (-1, ())
# An outcome's winner for team t (of `Results.teams`) is TEAM_CODE - t.
TEAM_CODE = -2


class _Counting(threading.local):
    """Whether this thread is inside `unscored_ends` (per thread: a game serves
    several threads, as the engine does), and the endings that have ended a game
    scored there."""

    unscored = False
    scored: set[int] = set()


_COUNTING = _Counting()


@contextmanager
def unscored_ends() -> Iterator[None]:
    """While it lasts, a game that ends (without rule coverage) gets `UNSCORED` as its
    result, the score rule not asked, but for the first game each ending statement
    ends (a score rule that cannot be worked out, say dividing by zero, is still
    reported where it always fails): for `Engine.perft`, whose positions are its own
    copies, made to be counted and dropped. The scores of an ended game were most of
    perft's time where many games end (poker: a third)."""
    was, scored = _COUNTING.unscored, _COUNTING.scored
    _COUNTING.unscored, _COUNTING.scored = True, set()
    try:
        yield
    finally:
        _COUNTING.unscored, _COUNTING.scored = was, scored


def plain_number(value: Any) -> Any:
    """A score or option value as the API gives it: an exact decimal number
    (a `Fraction`) as an int when whole, else as the nearest float; anything
    else unchanged."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def _fractions_beyond_limit(values: tuple[Any, ...]) -> bool:
    """Whether a score (decimal scores first: Fractions) lies beyond ±NUMBER_LIMIT,
    a Fraction asked by its whole numerator and denominator (the denominator is
    positive): comparing a Fraction with a number costs microseconds, and the
    scores are asked at every game's end."""
    for x in values:
        if type(x) is Fraction:
            if abs(x.numerator) > NUMBER_LIMIT * x.denominator:
                return True
        elif x > NUMBER_LIMIT or x < -NUMBER_LIMIT:
            return True
    return False


def _or(scores: Optional[tuple[int, ...]], unscored: tuple[int, ...]) -> tuple[int, ...]:
    """The score rule's scores, or (a game without one) the scores an ending gives."""
    return unscored if scores is None else scores


class EndingKind(IntEnum):
    """How a game ended: the statement that ended it, or nobody able to act."""

    WIN = 0
    LOSE = 1
    DRAW = 2
    END_GAME = 3  # the scores decide
    NO_ACTION = 4  # the player to move had no legal action and the phase says nothing

    @property
    def word(self) -> str:
        """How results and messages name it: "win", "lose", "draw", "end game" or
        "no legal action" (`Ending.how`, `Engine.ending`)."""
        return _WORDS[self]


_WORDS = {
    EndingKind.WIN: "win", EndingKind.LOSE: "lose", EndingKind.DRAW: "draw", EndingKind.END_GAME: "end game",
    EndingKind.NO_ACTION: "no legal action",
}
# (the kinds as plain numbers for the end of every game: a member of the enum is
# looked up on its class at each reading, ten times the cost of a comparison)
_WIN, _LOSE, _DRAW = int(EndingKind.WIN), int(EndingKind.LOSE), int(EndingKind.DRAW)


@dataclass(frozen=True, slots=True)
class Results:
    """Ends games of one compiled definition; made once the rules are compiled.

    `endings[i]` is (how, source position) of the i-th statement that can end the
    game; `score` the compiled `score:` rule, `score(state, player) -> number`, or
    None; `counts` the rule coverage counts (None: not counted), `probes[i]` the
    index in them of `endings[i]`'s probe."""

    n: int  # the number of players
    endings: tuple[tuple[EndingKind, Pos], ...]
    score: Optional[ScoreRule] = None
    counts: Optional[list[int]] = None
    probes: tuple[int, ...] = ()
    # Whether the score takes a table (a third argument) where its calls for the
    # players of one position share what they found (compilation/expr_sets.py)
    score_notes: bool = False
    # The teams of two or more players in play (`teams:`), as player indices
    teams: tuple[tuple[int, ...], ...] = ()
    # (worked out from `teams`: each player's side — its team, or itself alone — and
    # that side's winner code; an ended game of a team game reads them)
    side_of: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False, default=())
    code_of_side: tuple[int, ...] = field(init=False, repr=False, compare=False, default=())
    # (each player's opponents: the players outside its side)
    outside_of: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False, default=())
    # The score of every player at once, `all_scores(state) -> tuple`, where the
    # compiler wrote it (compilation/all_scores.py): one call, not one per player
    all_scores: Optional[Callable[["State"], tuple[int, ...]]] = None

    def __post_init__(self) -> None:
        sides = self.sides()
        side_of = tuple(next(members for members in sides if i in members) for i in range(self.n))
        object.__setattr__(self, "side_of", side_of)
        object.__setattr__(self, "code_of_side", tuple(self.code_of(side) for side in side_of))
        object.__setattr__(self, "outside_of", tuple(tuple(i for i in range(self.n) if i not in side)
                                                     for side in side_of))

    def scores(self, s: State) -> tuple[int, ...]:
        """The score rule for every player, on this position (callers make sure the
        rules have one)."""
        # (self.score is not None here: every caller tests it first)
        if self.all_scores is not None:
            values = self.all_scores(s)
        elif self.score_notes:
            notes: dict[tuple[int, ...], list[Any]] = {}
            values = tuple(self.score(s, i, notes) for i in range(self.n))  # type: ignore[misc,call-arg]
        else:
            score = self.score
            values = tuple([score(s, i) for i in range(self.n)])  # type: ignore[misc]
        if values:
            # (the least and greatest asked: a game's end is a good part of a short
            # playout; decimal scores by their integers, see _fractions_beyond_limit)
            first: object = values[0]
            if _fractions_beyond_limit(values) if type(first) is Fraction \
                    else max(values) > NUMBER_LIMIT or min(values) < -NUMBER_LIMIT:
                raise RuleRuntimeError(None, f"a score grew beyond {NUMBER_LIMIT:.0e}")
        return values

    def end(self, s: State, how: int, player: int, ending: int) -> None:
        """End the game (unless it is over already): `how` is an EndingKind's number
        (WIN, LOSE, DRAW or END_GAME: the scores decide), `player` whom a win or loss names, `ending`
        the index of the statement (generated code calls this as `h_end`)."""
        if s.result is not None:
            return
        if _COUNTING.unscored and self.counts is None:
            first_ends = _COUNTING.scored
            if ending in first_ends:
                s.result = UNSCORED
                s.ending = ending
                return
            first_ends.add(ending)
        scores = self.scores(s) if self.score is not None else None
        if self.teams:
            s.result = self._sides_outcome(how, player, scores)
        else:
            s.result = self._players_outcome(how, player, scores)
        s.ending = ending
        if self.counts is not None:
            self.counts[self.probes[ending]] += 1

    def _players_outcome(self, how: int, player: int, scores: Optional[tuple[int, ...]]) -> Outcome:
        n = self.n
        if how == _WIN:
            return player, _or(scores, tuple(int(i == player) for i in range(n)))
        if how == _LOSE:
            winner = (1 - player) if n == 2 and player >= 0 else -1
            return winner, _or(scores, tuple(int(i != player) for i in range(n)))
        if how == _DRAW:
            return -1, _or(scores, (0,) * n)
        scores = _or(scores, (0,) * n)
        best = max(scores)
        # (counted and found in C, the best itself known by identity: one comparison
        # fewer, and each of decimal scores costs microseconds)
        return (scores.index(best) if scores.count(best) == 1 else -1), scores

    def _sides_outcome(self, how: int, player: int, scores: Optional[tuple[int, ...]]) -> Outcome:
        """As `_players_outcome`, a team winning or losing as one: a win of a member
        is the team's, a loss leaves the other side the winner when only one is left,
        and `end game` goes to the side holding every highest score."""
        n = self.n
        named = 0 <= player < n
        side = self.side_of[player] if named else ()
        if how == _WIN:
            return (self.code_of_side[player] if named else -1), _or(scores, tuple(int(i in side) for i in range(n)))
        if how == _LOSE:
            others = {self.code_of_side[i] for i in range(n) if i not in side}
            winner = others.pop() if len(others) == 1 and named else -1
            return winner, _or(scores, tuple(int(i not in side) for i in range(n)))
        if how == _DRAW:
            return -1, _or(scores, (0,) * n)
        scores = _or(scores, (0,) * n)
        best = max(scores)
        first = scores.index(best)
        # (the first to hold it wins for its side unless an opponent holds it too)
        for i in self.outside_of[first]:
            if scores[i] == best:
                return -1, scores
        return self.code_of_side[first], scores

    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Who wins and loses together: each team, and each player in none alone."""
        teamed = {i for members in self.teams for i in members}
        return self.teams + tuple((i,) for i in range(self.n) if i not in teamed)

    def code_of(self, side: tuple[int, ...]) -> int:
        """An outcome's winner for a side: the player's index for a side of one, else
        `TEAM_CODE - t` for team t (below -1, so that code reading a single winner sees
        none); -1 for nobody."""
        if not side:
            return -1
        if len(side) == 1:
            return side[0]
        return TEAM_CODE - self.teams.index(side)

    def winners(self, code: int) -> tuple[int, ...]:
        """The players an outcome's winner code names: one, a team, or none (-1)."""
        if code >= 0:
            return (code,)
        if code <= TEAM_CODE:
            return self.teams[TEAM_CODE - code]
        return ()

    def describe(self, ending: int) -> tuple[EndingKind, Pos]:
        """(how, source position) of an ending index."""
        return self.endings[ending]
