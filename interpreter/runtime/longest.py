"""`play the longest turn[, then the highest|lowest EXPR]` (docs/format.md 3.4):
of a decision's legal actions, only those that begin the longest rest of the turn.

For a candidate a, L(a) is the largest number of actions that are not passes in a
way to play the rest of the turn beginning with a (a included): the rest is what
the turn sequence does — follow-ups, then the next decisions of the phase's
`turn:` — until the turn ends, the game ends or a chance event comes. The
candidates of the largest L are kept. A tie-break decides between turns that
cannot be played in full: where no follow-up can start, the turn's remaining
decisions are known when the rules are compiled (the *horizon*), and when some
way acts in every one of them, every candidate that does so is kept (a race with
two dice: both played, in either order); else the candidates of the largest L whose
ways reach the highest EXPR (lowest), asked where the way ends: after its last
action and its `after each action` rules, before `after each turn`.

The search plays candidates on copies of the position with the "trial" functions
of the cases (cases.py: the case, the `after each action` rules and the turn
sequence up to the end of the turn, which they report instead of playing it), and
lists the later decisions with their listers without this filter (theirs changes
no maximum). It is bounded (MAX_DEPTH actions deep, MAX_POSITIONS positions per
listing: a located error past them) and counts no rule coverage (trial plays are
not play).

With a horizon, a way that acts in every decision left is as long as any, so the
search of a candidate stops there; random playouts (`pick`) check only the
candidates they draw, as for `forbid result`: drawn one at a time in random
order, the first to reach the horizon is taken — still uniformly among the kept
ones. In the turn's last decision (a horizon of one) every candidate that is not
a pass is such a way: nothing is played.

What a search plays is kept until the next one (`TurnSearch.after`, by
candidate): the position each candidate reached and the listing of its next
decision. When a candidate is played, the next listing is of an equal position
(`listing`: a random playout's drawn candidate, every candidate in perft or the
AI's tree), and perft's last ply counts the actions of those positions instead
of playing the candidates again (`LongestTurn.reached`). `SHORTCUTS` off, nothing
is kept and every candidate is searched (the tests compare both).
"""
from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from .errors import RuleRuntimeError
from .pieces import CASE

if TYPE_CHECKING:
    from ..parsing.ast import Pos
    from .pieces import Code
    from .state import State

MAX_DEPTH = 64
MAX_POSITIONS = 100_000
# Whether searches keep what they played and skip the last decision's search (off:
# the tests' reference, every listing searched from scratch)
SHORTCUTS = True
_CASE_OF = itemgetter(CASE)
# (a way's length, its tie-break value): compared as tuples
Score = tuple[int, Any]
Lister = Callable[["State"], list["Code"]]
# trial(state, code) -> whether the turn ended (the case and its rules played, the
# turn's end not)
Trial = Callable[["State", "Code"], Optional[bool]]
# a listing kept by a search: (the position listed, by which lister, its actions)
Listed = tuple["State", Lister, list["Code"]]


class TurnSearch:
    """What every decision's longest-turn filter of one game shares: how to play a
    candidate on a copy and list what comes next."""

    def __init__(self, trials: list[list[Optional[Trial]]], listers: list[Optional[Lister]],
                 passes: frozenset[int], horizons: list[tuple[Optional[int], ...]],
                 counts: Optional[list[int]] = None):
        self.trials = trials  # [phase][case]
        self.listers = listers  # by decision: its actions before its own longest filter (None: chance)
        self.passes = passes  # the case ids of passes (they count 0)
        # [phase][step]: how many decisions the turn has from that step to its end or
        # the next chance event, when no follow-up can start (else None)
        self.horizons = horizons
        self.counts = counts  # the coverage counts, kept as they were around a search
        # What the last search played (not with coverage, which counts listings): by
        # candidate, the position it reached, its lister and its actions (`after`),
        # the latest such listing (`last`: a random playout keeps no `State.last`),
        # and the position searched with the same dict when every candidate was
        # (`searched`, for perft: see LongestTurn.reached).
        self.last: Optional[Listed] = None
        self.after: dict[Code, Listed] = {}
        self.searched: Optional[tuple[State, dict[Code, Listed]]] = None
        # by decision: its longest-turn filter, or None (set as they are made)
        self.filters: list[Optional[LongestTurn]] = [None] * len(listers)

    def listing(self, s: State, lister: Lister) -> list[Code]:
        """The actions of `s` as `lister` lists them: a listing of the last search
        when it was of a position equal to `s` (every field a lister reads)."""
        if SHORTCUTS:
            code = s.last
            if code is not None:
                listed = self.after.get(code)
                if listed is not None and _same(listed, s, lister):
                    return listed[2]
            last = self.last
            if last is not None and _same(last, s, lister):
                return last[2]
        return lister(s)


def _same(listed: Listed, s: State, lister: Lister) -> bool:
    """Whether `listed` is `lister`'s listing of a position equal to `s`."""
    t, listed_by, _ = listed
    if t is s:  # (perft counting a position the search reached: LongestTurn.reached)
        return listed_by is lister
    return (listed_by is lister and t.decision == s.decision and t.step == s.step and t.player == s.player
            and t.phase == s.phase and t.carry == s.carry and t.vars == s.vars and t.board == s.board
            and t.occ == s.occ)


class LongestTurn:
    """The filter of one decision: `__call__` lists its legal actions, `pick` draws
    one as a random playout does. It keeps nothing between calls (what one search
    counts is its `_Run`'s), so one game serves several threads as the engine does."""

    def __init__(self, search: TurnSearch, inner: Lister, pos: Pos,
                 tiebreak: Optional[Callable[[State, int], Any]] = None, highest: bool = True):
        self.search = search
        self.inner = inner  # the decision's actions before this filter
        self.pos = pos
        self.tiebreak = tiebreak
        self.highest = highest

    # ------------------------------------------------------------ listing
    def __call__(self, s: State) -> list[Code]:
        search = self.search
        search.searched = None
        codes = search.listing(s, self.inner)
        if len(codes) <= 1 or self._all_whole(s, codes):
            return codes
        with _Run(self) as run:
            kept = self._kept(s, codes, self._lengths(s, codes, run), run)
            # (a position at the start of a turn may be changed by `before each turn`
            # once it is listed: its candidates are played again)
            if not s.turn_start and search.counts is None:
                search.searched = (s, run.after)
        return kept

    def reached(self, s: State) -> Optional[dict[Code, int]]:
        """Right after `s` was listed (and not changed since): by candidate, how
        many legal actions the position it reaches has — as playing it would leave
        it, but for the ply, the last action and the legal actions — where the
        listing played it and the turn goes on with a decision (for perft's last
        ply, which adds them instead of playing the candidates); None when the
        listing searched nothing. 0 where that is not counted so: none (the
        phase's `if no action` decides) or a fault (the candidate is played
        again, to tell where it arose)."""
        search = self.search
        searched = search.searched
        if searched is None or searched[0] is not s:
            return None
        filters = search.filters
        passes = search.passes
        horizons = search.horizons
        counts = {}
        for code, (t, _, codes) in searched[1].items():
            # (the listing kept is the reached position's legal actions where its
            # decision has no longest-turn filter or the filter keeps them all:
            # `_all_whole` written out, once per candidate searched)
            turn = filters[t.decision]
            if turn is None or len(codes) <= 1 \
                    or horizons[t.phase][t.step] == 1 and passes.isdisjoint(map(_CASE_OF, codes)):
                counts[code] = len(codes)
                continue
            try:
                counts[code] = len(turn(t))
            except RuleRuntimeError:
                counts[code] = 0
        return counts

    def pick(self, s: State, rand: Callable[[], float]) -> Optional[Code]:
        """A legal action drawn uniformly (None: none is legal), checking no more
        candidates than needed where the turn's length is known: drawn one at a
        time in random order, the first that plays the whole turn is taken."""
        search = self.search
        search.searched = None
        codes = search.listing(s, self.inner)
        if len(codes) <= 1:
            return codes[0] if codes else None
        if self._all_whole(s, codes):
            return codes[int(rand() * len(codes))]
        horizon = self._horizon(s)
        with _Run(self) as run:
            if horizon is None:
                kept = self._kept(s, codes, self._lengths(s, codes, run), run)
                return kept[int(rand() * len(kept))]
            left = list(codes)
            tried: list[Code] = []
            lengths: list[int] = []
            while left:
                i = int(rand() * len(left))
                code = left[i]
                length = self._length(s, code, run)
                if length == horizon:
                    return code
                tried.append(code)
                lengths.append(length)
                left[i] = left[-1]
                left.pop()
            kept = self._kept(s, tried, lengths, run)
        return kept[int(rand() * len(kept))]

    # ------------------------------------------------------------ the search
    def _kept(self, s: State, codes: list[Code], lengths: list[int], run: _Run) -> list[Code]:
        """Of `codes` (their lengths given), those of the longest length, and among
        them those of the best tie-break value when it is asked."""
        longest = max(lengths)
        # (where every candidate is as long, the usual, the list itself: listings are
        # shared, never changed, as `TurnSearch.listing`'s)
        kept = codes if min(lengths) == longest else [code for code, length in zip(codes, lengths)
                                                       if length == longest]
        if self.tiebreak is None or len(kept) == 1:
            return kept
        if longest == self._horizon(s):
            return kept  # every kept way plays the whole turn
        values = [self._score(s, code, run)[1] for code in kept]
        best = max(values)
        return [code for code, value in zip(kept, values) if value == best]

    def _horizon(self, s: State) -> Optional[int]:
        return self.search.horizons[s.phase][s.step]

    def _all_whole(self, s: State, codes: list[Code]) -> bool:
        """Whether each of `codes` is a way that plays the whole turn at once: the
        turn's last decision (a horizon of one), no pass among them."""
        if not SHORTCUTS or self.search.horizons[s.phase][s.step] != 1:
            return False
        passes = self.search.passes
        for code in codes:
            if code[CASE] in passes:
                return False
        return True

    def _length(self, s: State, code: Code, run: _Run) -> int:
        """L of `code` in `s`: a search that stops at a way playing the whole turn."""
        return self._lengths(s, (code,), run)[0]

    def _lengths(self, s: State, codes: Sequence[Code], run: _Run) -> list[int]:
        """L of each of `codes` in `s` (the loop of every listing: what all
        candidates share looked up once, the count of positions played kept in a
        local while no deeper search runs)."""
        search = self.search
        horizon = self._horizon(s)
        passes = search.passes
        trials = search.trials[s.phase]
        listers = search.listers
        keep = search.counts is None and SHORTCUTS
        after = run.after
        rest = self._rest
        copy = s.copy
        lengths: list[int] = []
        append = lengths.append
        visited = run.visited
        for code in codes:
            count = 0 if code[0] in passes else 1  # (code[0]: its case)
            if horizon is not None and count >= horizon:
                append(count)  # (the last decision of the turn: the action is the way)
                continue
            visited += 1
            if visited > MAX_POSITIONS:
                self._too_many()
            t = copy(True)
            # (only a chance event's cases have no trial, and a chance event is no decision searched)
            if trials[code[0]](t, code) or t.result is not None:  # type: ignore[misc]
                append(count)
                continue
            need = None if horizon is None else horizon - count
            lister = listers[t.decision]
            if need != 1 or lister is None:
                run.visited = visited
                append(count + rest(t, 1, need, -1, run, code)[0])
                visited = run.visited
                continue
            # (the turn's last decision comes next: `_rest`'s first steps written out,
            # its loop asked only when every action listed is a pass)
            follow = lister(t)
            if keep:
                search.last = listed = (t, lister, follow)
                t.last = code
                after[code] = listed
            for later in follow:
                if later[0] not in passes:
                    append(count + 1)
                    break
            else:
                run.visited = visited
                append(count + self._ways(t, follow, 1, need, -1, run)[0])
                visited = run.visited
        run.visited = visited
        return lengths

    def _score(self, s: State, code: Code, run: _Run) -> Score:
        """(L, V) of `code` in `s`: every way looked at, V the best value of the longest."""
        t = s.copy(trial=True)
        count = 0 if code[CASE] in self.search.passes else 1
        if self._play(t, code, run):
            return count, self._value(t, s.player)
        length, value = self._rest(t, 1, None, s.player, run, code)
        return count + length, value

    def _rest(self, s: State, depth: int, need: Optional[int], player: int, run: _Run,
              first: Optional[Code] = None) -> Score:
        """The best (L, V) of the rest of the turn from `s` (a position within it;
        at depth 1, the candidate `first` played). With `need` (the number of
        decisions left) the search stops at a way that long, and with `player` -1
        it asks no value."""
        search = self.search
        lister = search.listers[s.decision]
        if lister is None:  # a chance event: what chance will do is no choice of the player's
            return 0, self._value(s, player)
        if depth > MAX_DEPTH:
            raise RuleRuntimeError(self.pos, f"'play the longest turn' looked more than {MAX_DEPTH} actions ahead")
        codes = lister(s)
        if depth == 1 and search.counts is None and SHORTCUTS:
            search.last = listed = (s, lister, codes)
            if first is not None:
                s.last = first  # (what `listing` looks it up by; a trial copy's own is stale)
                run.after[first] = listed
        return self._ways(s, codes, depth, need, player, run)

    def _ways(self, s: State, codes: list[Code], depth: int, need: Optional[int], player: int,
              run: _Run) -> Score:
        """`_rest` once `s` is listed (`codes`)."""
        search = self.search
        if not codes:
            return 0, self._value(s, player)
        best: Optional[Score] = None
        for code in codes:
            count = 0 if code[CASE] in search.passes else 1
            if need is not None and player < 0 and count >= need:
                return count, 0  # (a way as long as the turn: none is longer)
            t = s.copy(trial=True)
            if self._play(t, code, run):
                score: Score = (count, self._value(t, player))
            else:
                length, value = self._rest(t, depth + 1, None if need is None else need - count, player, run)
                score = (count + length, value)
            if best is None or score > best:
                best = score
                if need is not None and best[0] >= need:
                    break
        assert best is not None
        return best

    def _play(self, t: State, code: Code, run: _Run) -> bool:
        """Play `code` on the copy `t`: whether the way ends there (the turn or the game)."""
        run.visited += 1
        if run.visited > MAX_POSITIONS:
            self._too_many()
        trial = self.search.trials[t.phase][code[CASE]]
        assert trial is not None  # (only a chance event's cases have none)
        return bool(trial(t, code)) or t.result is not None

    def _too_many(self) -> None:
        raise RuleRuntimeError(self.pos, f"'play the longest turn' looked at more than {MAX_POSITIONS} "
                                         "positions in one listing")

    def _value(self, s: State, player: int) -> Any:
        if self.tiebreak is None or player < 0:
            return 0
        value = self.tiebreak(s, player)
        return value if self.highest else -value


class _Run:
    """One search: the positions it played (bounded, and kept by candidate), the
    coverage counts restored afterwards (trial plays are not play)."""

    def __init__(self, turn: LongestTurn):
        self.counts = turn.search.counts
        self.saved: Optional[list[int]] = None
        self.visited = 0
        # what this search played, by candidate (TurnSearch.after): its own dict, so
        # that a search in an other thread cannot mix its positions in
        self.after: dict[Code, Listed] = {}
        turn.search.after = self.after

    def __enter__(self) -> _Run:
        self.saved = self.counts[:] if self.counts is not None else None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.counts is not None and self.saved is not None:
            self.counts[:] = self.saved
