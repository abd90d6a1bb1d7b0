"""Drops a listing lets through without asking their `forbid result` check.

A drop's check answers before its case is played where the listed position's
answers of the `forbid result` parts (compilation/result_reuse.py) stay as they
were: the drop writes no site they read or tested (compilation/cases.py,
`_drop_answered_before`). Called per candidate, that answer costs a call, the
check's registers and the memo's lookups — most of a listing with many drops.
A check's *clearance* asks, once per listing, what the answer depends on that
is the same for every candidate of the case: every part found on the listed
position, none holding, no piece the drop puts one a part's loops visit. It
gives the bitmask of the sites a drop must not write and the table, by site
`to`, of the sites the case writes (compilation/clearances.py); a candidate
whose writes miss the mask is allowed without its check being called — what
the check would answer. The others are checked as before. A move's clearance
(compilation/cases.py, `_move_clearance_function`) is the same with its origin
and destination for places; a phase with moves' clearances is filtered in one
pass (`let_through`: its drops' candidates, if any, checked each).
"""
from __future__ import annotations

from bisect import bisect_left
from itertools import groupby, islice
from operator import itemgetter
from types import FunctionType
from typing import TYPE_CHECKING, Any, Callable, Iterable, NamedTuple, Optional, Sequence

from .pieces import CASE, DESTINATION, ORIGIN, Code
from .terms import moved_answer

if TYPE_CHECKING:
    from .state import State

# clearance(state, memo) -> (the sites a candidate must not write, as a bitmask;
# by site `to`, the bitmask of the sites the case writes there — for a move, whose
# places are its origin and destination, each site's bit), or None where every
# candidate of the case is checked (compilation/clearances.py); a move's may give
# two more: the sites its part's terms alone read and the terms' runs (let_through)
Clearance = Callable[[Any, Any], Optional[tuple[Any, ...]]]
# screen(state, run, blocked, places, memo, rejected, forbidden, ordered): for the
# candidates of `run` whose places meet `blocked`, the conjuncts their check asks
# before its case, then the check where they do not let the candidate through; what
# forbids appended to `rejected` and `forbidden` as `sift` does (compilation/clearances.py);
# `ordered`: the run is a list ascending by landing, one candidate a landing (`landed`)
Screen = Callable[[Any, Iterable[Code], int, Sequence[int], Any, list[int], list[Code], bool], None]


class ClearedChecks(tuple):  # type: ignore[type-arg]
    """A phase's checks by case (as a plain row of them) with, by case, the
    check's clearance or None, its screen or None and whether its clearance is
    a move's (its places the code's origin and destination);
    `helpers.result_filter` lets the cleared candidates through. `distinct`
    holds the moves' clearances once each (cases finding the same answers
    share one), `which` by case the index of its own, or `len(distinct)` for
    none and for a drop's: where a phase has moves' clearances, `let_through`
    lets their candidates through and checks the others each (a drop's
    clearance is `sift`'s), so that drops with clearances of their own do not
    send a phase's moves to `sift`'s slower runs by case. `moved`, by case,
    whether a candidate meeting the mask only at sites its clearance's terms
    alone read may be let through by the runs (`moved_answer`, which moves
    the piece as it is): not a promotion's, sharing the plain moves'
    clearance (compilation/cases.py, `unmoved`)."""

    clearances: tuple[Optional[Clearance], ...]
    screens: tuple[Optional[Screen], ...]
    moves: tuple[bool, ...]
    distinct: tuple[Clearance, ...]
    which: tuple[int, ...]
    cleared: tuple[bool, ...]
    moved: tuple[bool, ...]
    row: tuple[Any, ...]
    last: tuple[Any, Any, Any]
    before: tuple[Any, Any, Any]
    dropping: tuple[bool, ...]
    drops: tuple[tuple[int, Clearance], ...]
    stretches: dict[tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...]]

    def __new__(cls, checks: Iterable[Any], clearances: Iterable[Optional[Clearance]],
                screens: Optional[Iterable[Optional[Screen]]] = None,
                moves: Optional[Iterable[bool]] = None, unmoved: Optional[Iterable[bool]] = None) -> ClearedChecks:
        row = super().__new__(cls, tuple(checks))
        row.clearances = tuple(clearances)
        row.screens = tuple(screens) if screens is not None else (None,) * len(row)
        row.moves = tuple(moves) if moves is not None else (False,) * len(row)
        row.moved = tuple(not u for u in unmoved) if unmoved is not None else (True,) * len(row)
        if len(row.clearances) != len(row) or len(row.screens) != len(row) or len(row.moves) != len(row) \
                or len(row.moved) != len(row):
            raise ValueError("one clearance (or None), one screen (or None) and two flags per check")
        row.row = tuple(map(_called, row))  # (a plain tuple: indexed faster)
        # (by case, whether it is a drop whose clearance `let_through` may ask — one without a screen:
        # a screen answers per candidate —, and those cases with their clearances)
        row.dropping = tuple(clearance is not None and not moving and screen is None
                             for clearance, moving, screen in zip(row.clearances, row.moves, row.screens))
        row.drops = tuple((case, clearance) for case, (clearance, dropping)
                          in enumerate(zip(row.clearances, row.dropping)) if dropping and clearance is not None)
        row.stretches = {}  # (sift_runs': by a lister's account of its list, the stretches it asks)
        # (the moves' clearances alone: a drop's candidates are checked each by `let_through`,
        # which reads a candidate's origin and destination in one table of sites' bits)
        moving_clearances = [c if moving else None for c, moving in zip(row.clearances, row.moves)]
        row.cleared = tuple(clearance is not None for clearance in moving_clearances)
        row.distinct = tuple(dict.fromkeys(c for c in moving_clearances if c is not None))
        row.which = tuple(row.distinct.index(c) if c is not None else len(row.distinct) for c in moving_clearances)
        # (let_through's last founds, what follows from them — `_how` —, its rows; with one clearance,
        # the answer it found, the player, `_asked_of_one`'s; `before`: the same of the founds before
        # those — perft's last ply lists a position, then its children, then its sibling: the
        # founds of the two players' listings come back in turn)
        row.last = row.before = (None, None, [])
        return row

    def __reduce__(self) -> tuple[Any, ...]:  # (copied as what it is, clearances and screens too)
        return (ClearedChecks, (tuple(self), self.clearances, self.screens, self.moves,
                                tuple(not moved for moved in self.moved)))


def _called(check: Any) -> Any:
    """What `let_through` calls for `check`: an object called through its
    class's `__call__` (runtime/kept_answers.KeptByMove) as that method bound
    to it — called per candidate, the bound method skips the type's call slot
    (about twice the cost of the call); anything else (a function, None) as
    it is. Bound when the row is made: the class's method then."""
    call = getattr(type(check), "__call__", None)
    return check.__call__ if isinstance(call, FunctionType) else check


# (a case whose clearance is not asked yet in this listing)
class ByClearance(NamedTuple):
    """`_how`'s answer where the clearances found give different tables: by
    clearance its mask and table ((-1, ()) for none), and by case its clearance."""

    masks: list[tuple[int, Sequence[int]]]
    which: tuple[int, ...]


_UNASKED: Any = object()
# (let_through asks a phase's drops' clearances beside its moves' where the list ends with a drop;
# off: every drop candidate is asked of its check)
DROPS_ASKED = True
_CASE_OF = itemgetter(CASE)
# (sift_runs' accounts kept by a phase's checks: bounded, emptied when full)
STRETCHES_KEPT = 256

# (by masks and table: the table and the rows `site_kinds` made; bounded, emptied when full)
_KINDS: dict[tuple[int, int, int, int], tuple[Sequence[int], tuple[tuple[int, ...], tuple[int, ...]]]] = {}
KINDS_KEPT = 4096
# What a site's bits tell of a candidate from or onto it (`site_kinds`): they meet the mask;
# they meet the part of it the terms alone do not read (a candidate meeting both: its check called).
MASKED, OUTSIDE = 1, 2


def site_kinds(table: Sequence[int], mask: int, outside: int,
               leaving: int = -1) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """By site, what `let_through` asks of a candidate from it and of one onto
    it, where `table` gives the sites' bits, `mask` those a candidate must
    miss, `outside` those of the mask the terms alone do not read and
    `leaving` those of them asked of an origin: MASKED where the bits meet
    the mask, | OUTSIDE where they meet `outside` (an origin's: `outside &
    leaving`). A candidate's two kinds ORed are its mask tests: without
    MASKED it is let through, MASKED alone sends it to the runs, else to
    its check — read from two rows instead of worked out as bitmasks:
    masks of more bits than a machine word ORed and ANDed are new numbers
    per candidate. A phase's masks come back listing after listing: each
    pair of rows made once, kept by its masks and table."""
    key = (mask, outside, leaving, id(table))
    kept = _KINDS.get(key)
    if kept is not None and kept[0] is table:
        return kept[1]
    if len(_KINDS) >= KINDS_KEPT:
        _KINDS.clear()
    leaving &= outside
    rows = (tuple([(MASKED if bits & mask else 0) | (OUTSIDE if bits & leaving else 0) for bits in table]),
            tuple([(MASKED if bits & mask else 0) | (OUTSIDE if bits & outside else 0) for bits in table]))
    _KINDS[key] = (table, rows)
    return rows


def let_through(s: State, out: list[Code], checks: ClearedChecks, memo: Any) -> None:
    """Leave in `out` (in order) the candidates no `forbid result` forbids, where
    the phase has moves' clearances (`checks.distinct`; a drop's candidates are
    checked each, its clearance left to `sift`): each asked
    once, a candidate whose origin and destination miss its mask let through,
    the others asked of their check (as `sift` does, in one pass). A clearance
    of a part with terms the check asks again before the move (compilation/
    cases.py, `_terms_before`) gives also the sites those terms alone read
    and their runs (compilation/clearances.clearance_body, `vacating`): a
    candidate whose origin and destination meet the mask only there (from a
    site the terms alone read, onto one, or both) is let through where the
    runs that read either give what they gave with the move made
    (`terms.moved_holds`, written out: its answer kept by code) — the check's
    answer (its `_terms_before`), without its call."""
    # (a code's case, origin and destination as `code[0]`, `code[1]`, `code[2]`: CASE,
    # ORIGIN, DESTINATION as literals, read faster in these loops over every candidate)
    row = checks.row
    distinct = checks.distinct
    if len(distinct) == 1:
        clear = distinct[0](s, memo)
        if clear is None:
            out[:] = [code for code in out if (check := row[code[0]]) is None or not check(s, code, memo)]
            return
        cleared = checks.cleared
        player = s.player if len(clear) > 2 else None  # (a clearance without runs: the same for either)
        last = checks.last
        if last[0] is clear and last[1] == player:  # (the answer the last listing found: what follows as it did)
            from_row, onto_row, kept = last[2]
        else:
            before = checks.before
            checks.before = last
            if before[0] is clear and before[1] == player:  # (the one before it)
                checks.last = before
                from_row, onto_row, kept = before[2]
            else:
                from_row, onto_row, kept = what = _asked_of_one(clear, player)
                checks.last = (clear, player, what)
        if kept is None:
            out[:] = [code for code in out
                      if cleared[code[0]] and not (from_row[code[1]] | onto_row[code[2]]) & MASKED
                      or (check := row[code[0]]) is None or not check(s, code, memo)]
            return
        its_runs = clear[3]
        board = s.board
        assert player is not None
        opponent = 1 - player  # (as the checks' register `q`)
        known_of = kept.get  # (`moved_holds` written out, as below)
        moved = checks.moved
        out[:] = [code for code in out
                  if cleared[code[0]] and (
                      not (kind := from_row[code[1]] | onto_row[code[2]]) & MASKED
                      or kind == MASKED and moved[code[0]]
                      and (known[2] if (known := known_of(code)) is not None and known[0](board) == known[1]
                           else code[1] != code[2]
                           and moved_answer(its_runs, board, code[1], code[2], player, opponent, kept, code)))
                  or (check := row[code[0]]) is None or not check(s, code, memo)]
        return
    founds = [clearance(s, memo) for clearance in distinct]
    drops = checks.drops
    if drops and DROPS_ASKED and checks.dropping[out[-1][0]]:
        # (the drops' clearances asked once for the listing, their answers beside the moves' rows:
        # where a lister writes its drops after its moves, a list ending with one holds drops;
        # else each is checked, as one without a clearance)
        founds += [clearance(s, memo) for _, clearance in drops]
    last = checks.last
    if founds == last[0]:  # (as the last listing's: what follows from them as it did)
        how = last[1]
        rows = last[2]
    else:
        before = checks.before
        checks.before = last
        if founds == before[0]:  # (as the one before it)
            checks.last = before
            how = before[1]
            rows = before[2]
        else:
            how = _how(founds[:len(distinct)], checks.which)
            rows = []  # (by case, `site_kinds` of its masks: made when first asked, kept with `how`)
            checks.last = (founds, how, rows)
    if how is None:
        out[:] = [code for code in out if (check := row[code[0]]) is None or not check(s, code, memo)]
        return
    if isinstance(how, ByClearance):  # (the clearances found give different tables)
        masks, which = how
        out[:] = [code for code in out
                  if not ((case_mask := masks[which[code[CASE]]])[0] < 0
                          or (case_mask[1][code[ORIGIN]] | case_mask[1][code[DESTINATION]]) & case_mask[0])
                  or (check := row[code[CASE]]) is None or not check(s, code, memo)]
        return
    if len(how) == 2:  # (every clearance found gives the same table)
        table, by_case = how
        kinds_by_case = rows or _kinds_by_case(rows, table, by_case, by_case, None, drops, founds[len(distinct):])
        out[:] = [code for code in out
                  if not ((kinds := kinds_by_case[code[0]])[0][code[1]] | kinds[1][code[2]]) & MASKED
                  or (check := row[code[0]]) is None or not check(s, code, memo)]
        return
    if len(how) >= 5:  # (the same table and runs)
        table, by_case, alone, outside, runs = how[:5]
        kinds_by_case = rows or _kinds_by_case(rows, table, by_case, outside, how[5] if len(how) == 6 else None,
                                               drops, founds[len(distinct):])
        board = s.board
        player = s.player
        opponent = 1 - player
        # (`moved_holds` written out: its answer kept by code, given again while the sites it
        # read hold the same pieces; a move onto its origin is left to the check)
        kept = runs.moved_for(player, opponent)
        known_of = kept.get
        moved = checks.moved
        # (with `how[5]`, by case what of a move's origin is asked: as the one clearance's `leaving`)
        out[:] = [code for code in out
                  if not (kind := (kinds := kinds_by_case[code[0]])[0][code[1]] | kinds[1][code[2]]) & MASKED
                  or kind == MASKED and moved[code[0]]
                  and (known[2] if (known := known_of(code)) is not None and known[0](board) == known[1]
                       else code[1] != code[2]
                       and moved_answer(runs, board, code[1], code[2], player, opponent, kept, code))
                  or (check := row[code[0]]) is None or not check(s, code, memo)]
        return
    raise AssertionError(how)  # (`_how` gives none of the forms above)


def _asked_of_one(clear: tuple[Any, ...], player: Any) -> tuple[tuple[int, ...], tuple[int, ...], Any]:
    """What `let_through` asks of the candidates where a phase has one move
    clearance and it found `clear` for `player`: `site_kinds`' rows (for an
    origin, for a destination) and, where it gives the terms' runs, the
    answers `moved_holds` kept for the players (else None). The same for the
    same `clear`: kept across listings (`ClearedChecks.last`), as a clearance
    gives again the object it gave while its entries are the same."""
    mask, bits = clear[0], clear[1]
    if len(clear) == 2:
        return (*site_kinds(bits, mask, mask), None)
    # (the mask but for the sites the terms alone read; the sites outside the terms' only where
    # a settled point test there gives otherwise with a mover of the player's there — `clear[4]`,
    # where given — asked of a candidate's destination alone: its origin, emptied, leaves those
    # tests as they were; compilation/clearances.py)
    from_row, onto_row = site_kinds(bits, mask, mask ^ clear[2], ~clear[4] if len(clear) > 4 else -1)
    return from_row, onto_row, clear[3].moved_for(player, 1 - player)


def _kinds_by_case(rows: list[tuple[tuple[int, ...], tuple[int, ...]]], table: Sequence[int],
                   by_case: Sequence[int], outside: Sequence[int],
                   leaving: Optional[Sequence[int]] = None, drops: Sequence[tuple[int, Clearance]] = (),
                   dropped: Sequence[Optional[tuple[Any, ...]]] = ()) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """`site_kinds` of each case's masks, kept in `rows` (`ClearedChecks.last`'s);
    a drop case's whose clearance found `dropped` (by `drops`, in their order;
    none where they were not asked) as `sift` reads it: a candidate landing
    where the case writes a site of the mask is checked (MASKED | OUTSIDE, never
    MASKED alone: not the runs'), the others let through — its origin not asked."""
    rows[:] = [site_kinds(table, mask, outside[case], -1 if leaving is None else leaving[case])
               for case, mask in enumerate(by_case)]
    for (case, _), found in zip(drops, dropped):
        if found is not None:
            blocked, places = found[0], found[1]
            rows[case] = (_unasked_origins(len(places)), site_kinds(places, blocked, blocked)[1])
    return rows


_NO_ORIGINS: dict[int, tuple[int, ...]] = {}


def _unasked_origins(size: int) -> tuple[int, ...]:
    """A row by site of nothing asked of a candidate's origin (a drop's: -1 reads its last)."""
    row = _NO_ORIGINS.get(size)
    if row is None:
        row = _NO_ORIGINS[size] = (0,) * size
    return row


def _how(founds: list[Optional[tuple[Any, ...]]], which: tuple[int, ...]) -> Optional[tuple[Any, ...]]:
    """What `let_through` asks of the candidates, given what a phase's
    clearances found (`founds`, by distinct clearance) and which is each case's
    (`which`): None where every candidate is checked; (the table, by case its
    mask) where every clearance found gives the same table; (the table, by case
    its mask, the sites any clearance's terms alone read, by case its mask but
    for those, the runs) where those give the same runs too — and, where a
    clearance gives sites outside its terms' only for a mover landing there, by
    case the sites' bits asked of a move's origin (all but those); else a
    `ByClearance` (by clearance its mask and table, with (-1, ()) for none, `which`). The same for the same
    founds: kept across listings (`ClearedChecks.last`)."""
    founds = founds + [None]  # (for the cases without a clearance, and those whose clearance gave none)
    table: Optional[Sequence[int]] = None
    alike = True  # (whether every clearance found gives the same table: the sites' bits)
    runs: Any = None  # (the runs the clearances giving them give, or False where they differ)
    for found in founds:
        if found is None:
            continue
        if table is None:
            table = found[1]
        elif found[1] is not table:
            alike = False
        if len(found) > 2:
            if runs is None:
                runs = found[3]
            elif found[3] is not runs:
                runs = False
    if table is None:
        return None
    if not alike:
        return ByClearance([(-1, ()) if found is None else found[:2] for found in founds], which)
    # (each case's mask, -1 where every candidate is checked)
    found_masks = [-1 if found is None else found[0] for found in founds]
    by_case = list(map(found_masks.__getitem__, which))
    if not runs:
        return (table, by_case)
    # (by clearance, the sites its terms alone read, or none)
    alone_by = [0 if found is None or len(found) < 3 else found[2] for found in founds]
    alone = 0  # (any of them: most candidates checked touch none)
    for sites in alone_by:
        alone |= sites
    # (by case, its mask but for the sites its terms alone read)
    outside = list(map([mask ^ sites for mask, sites in zip(found_masks, alone_by)].__getitem__, which))
    # (by clearance, the sites outside its terms' only for a mover landing there: compilation/
    # clearances.clearance_body's fifth item; where one gives any, by case what of an origin is asked)
    landing_by = [0 if found is None or len(found) < 5 else found[4] for found in founds]
    if any(landing_by):
        return (table, by_case, alone, outside, runs, list(map([~sites for sites in landing_by].__getitem__, which)))
    return (table, by_case, alone, outside, runs)


def sift(s: State, out: list[Code], checks: ClearedChecks, memo: Any) -> list[int]:
    """Leave in `out` (in order) the candidates no `forbid result` forbids, and
    return what the checks returned for the others (a line's probe plus one, or
    True): cleared ones let through, the rest asked of their check with the
    listing's `memo`. Few are forbidden: the list is not copied, those are
    removed from it at the end."""
    found: list[Any] = [_UNASKED] * len(checks)  # (by case: its clearance's answer, asked at its first candidate)
    rejected: list[int] = []
    forbidden: list[Code] = []
    for case, run in groupby(out, _CASE_OF):  # (a lister writes a case's candidates one after the other)
        if checks[case] is not None:
            _sift_run(s, case, run, checks, found, memo, rejected, forbidden)
    # (a code listed twice is asked twice, alike: each of its copies is forbidden,
    # so removing the first equal one each time leaves the others in order)
    for code in forbidden:
        out.remove(code)
    return rejected


def sift_runs(s: State, out: list[Code], checks: ClearedChecks, memo: Any,
              runs: tuple[tuple[int, ...], ...], ends: Sequence[int], ordered: tuple[int, ...] = ()) -> list[int]:
    """`sift` told by the lister where each case's candidates stand
    (compilation/listed_runs.py): by stretch of `out`, the cases it may hold
    (`runs`), each but the last ending where `ends` says. A stretch none of
    whose cases has a check is passed over, its candidates not looked at; a
    stretch of one case is that case's run, handed on whole (a slice); the
    others are grouped by case as `sift` groups the list. The same candidates
    are asked in the same order. `ordered`: the stretches (of one case) whose
    candidates stand in ascending order of landing, one a landing — a screen
    may look its landings up (`landed`)."""
    asked = checks.stretches.get(runs)
    if asked is None:
        asked = checks.stretches[runs] = _stretches_asked(checks, runs)
    found: list[Any] = [_UNASKED] * len(checks)
    rejected: list[int] = []
    forbidden: list[Code] = []
    last = len(ends)
    for index, case in asked:
        start = ends[index - 1] if index else 0
        end = ends[index] if index < last else len(out)
        if start == end:
            continue
        if case >= 0:
            _sift_run(s, case, out[start:end], checks, found, memo, rejected, forbidden, index in ordered)
            continue
        for case, run in groupby(islice(out, start, end), _CASE_OF):
            if checks[case] is not None:
                _sift_run(s, case, run, checks, found, memo, rejected, forbidden)
    for code in forbidden:
        out.remove(code)
    return rejected


# A screen looks up at most this many landings in an ordered run by bisection
# (`landed`); more, and it tests each candidate's landing.
LANDED_AT_MOST = 8
_LANDING = itemgetter(DESTINATION)


def landed(run: Sequence[Code], mask: int, ordered: bool) -> Sequence[Code]:
    """The candidates of `run` whose landing's bit (the bit `site` of a site) is
    in `mask`, in the run's order, where the run is `ordered` (ascending by
    landing, one candidate a landing: compilation/listed_runs.py) and the mask
    has few bits: each landing looked up by bisection, the others not looked at;
    else `run` itself. The caller asks each candidate given its landing's bit
    as before: what this leaves out are candidates that test fails for."""
    if not ordered or mask.bit_count() > LANDED_AT_MOST:
        return run
    found = []
    low, end = 0, len(run)
    while mask:
        bit = mask & -mask
        mask ^= bit
        site = bit.bit_length() - 1
        low = bisect_left(run, site, low, end, key=_LANDING)
        if low == end:
            break
        if run[low][DESTINATION] == site:
            found.append(run[low])
    return found


def _stretches_asked(checks: ClearedChecks, runs: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...]:
    """The stretches `sift_runs` asks of a lister's account `runs`: (index, its
    one case, or -1 where it holds several), those with a case that has a check."""
    if len(checks.stretches) >= STRETCHES_KEPT:
        checks.stretches.clear()
    return tuple((index, cases[0] if len(cases) == 1 else -1) for index, cases in enumerate(runs)
                 if any(checks[case] is not None for case in cases))


def _sift_run(s: State, case: int, run: Iterable[Code], checks: ClearedChecks, found: list[Any], memo: Any,
              rejected: list[int], forbidden: list[Code], ordered: bool = False) -> None:
    """The work of `sift` and `sift_runs` on one run of a case that has a
    check: its candidates the clearance lets through passed over, the others
    asked of the screen or the check, those it forbids appended to `forbidden`
    and what it answered to `rejected`. `ordered`: the run is a list in
    ascending order of landing, one candidate a landing (told the screen)."""
    check = checks[case]
    clear = found[case]
    if clear is _UNASKED:
        clearance = checks.clearances[case]
        clear = found[case] = clearance(s, memo) if clearance is not None else None
    if clear is None:
        for code in run:
            line = check(s, code, memo)
            if line:
                rejected.append(line)
                forbidden.append(code)
        return
    blocked, places = clear[0], clear[1]  # (a move's may give more: let_through's)
    at = DESTINATION
    if checks.moves[case]:  # (a move's: `places` the sites' bits, its places its origin and destination)
        for code in run:
            if blocked & (places[code[ORIGIN]] | places[code[at]]):
                line = check(s, code, memo)
                if line:
                    rejected.append(line)
                    forbidden.append(code)
        return
    screen = checks.screens[case]
    if screen is not None:
        screen(s, run, blocked, places, memo, rejected, forbidden, ordered)
        return
    for code in run:
        if blocked & places[code[at]]:
            line = check(s, code, memo)
            if line:
                rejected.append(line)
                forbidden.append(code)
