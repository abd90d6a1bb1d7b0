"""The terms of a `forbid result` part asked again alone (compilation/result_terms.py).

A part with terms records its answer, the sites it read outside its terms,
the point tests it asked (in its terms too) and a fourth item: (the sites its
terms read, the runs of its terms: (the sites the run read, the term's
function, the inputs it ran on, the outputs it gave)). The listed position's
entry (runtime/helpers.parent_answer) then keeps the point tests of every site
no read outside the terms reads, its second item is every site read (the terms'
too, as for any part) and its sixth (the sites read outside the terms, the runs).
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable, Iterable, Optional, Sequence

from .errors import RuleRuntimeError
from .kept_answers import NOT_KEPT, keep_entry, kept_entry
from .pieces import Board
from .point_masks import MaskedTests, noted_masks

# One run of a term: (sites read, function, inputs, outputs).
TermRun = tuple[int, Callable[..., tuple[Any, ...]], Sequence[Any], tuple[Any, ...]]
# (the sites read outside the terms, the runs)
Terms = tuple[int, list[TermRun]]
# A move's answer kept (Runs.moved): what gives the pieces at the sites it read, those, the answer.
Moved = tuple[Callable[[Board], Any], Any, bool]


class Runs(list[TermRun]):
    """The runs of an entry's terms that read a site (its `entry[5][1]`), in
    their order, with `at`: by site, the runs that read it (in that order) —
    what `moved_holds` asks of a move, without walking the others — and
    `moved`: by players (p, q), by move asked (its code, or its site and
    destination), what `moved_holds` answered: what gives the pieces at the
    sites that answer read, those pieces and the answer (`Moved`)."""
    __slots__ = ("at", "moved", "placed")

    def __init__(self, runs: Iterable[TermRun]) -> None:
        super().__init__(runs)
        at: dict[int, list[TermRun]] = {}
        for run in self:
            sites = run[0]
            while sites:
                low = sites & -sites
                sites ^= low
                at.setdefault(low.bit_length() - 1, []).append(run)
        self.at = at
        self.moved: dict[tuple[int, int], dict[Any, Moved]] = {}
        self.placed: dict[tuple[int, Any, int], bool] = {}

    def moved_for(self, p: int, q: int) -> dict[Any, Moved]:
        """The answers `moved_holds` kept for the players `p`, `q`."""
        kept = self.moved.get((p, q))
        if kept is None:
            kept = self.moved[p, q] = {}
        return kept


class _Reading(list):  # type: ignore[type-arg]
    """A board that notes the index of every read (`b[E]`: the one way a term
    reads the board, result_reuse._reads_allowed)."""
    __slots__ = ("read",)
    read: list[int]

    def __getitem__(self, index: Any) -> Any:
        self.read.append(index)
        return list.__getitem__(self, index)


def _nothing(board: Board) -> tuple[()]:
    return ()


def parent_answer_terms(parent_answer: Callable[..., Optional[tuple[Any, ...]]], memo: dict[int, Any], slot: int,
                        record: Callable[[Any], tuple[Any, ...]],
                        s: Any, anchor: Any = NOT_KEPT, lists: Sequence[int] = (),
                        lone: bool = False) -> Optional[tuple[Any, ...]]:
    """`parent_answer` (runtime/helpers.py, or `parent_answer_masked` where the
    recording also notes settled point tests as bitmasks) of a part with terms, kept in
    `memo` under `slot`: its point tests kept for the sites read by terms alone
    too (a written one, its tests holding, needs no term asked again that did
    not read it), the sites the terms read added to those read, and (the sites
    read outside the terms, the runs) as a sixth item; kept as `parent_answer`
    keeps its entry."""
    if anchor is not NOT_KEPT:
        kept = kept_entry(record, s, anchor, lists)
        if kept is not None:
            memo[slot] = kept
            return kept
    found: list[tuple[int, list[TermRun]]] = []

    def recorded(position: Any) -> tuple[Any, ...]:
        *answer, terms = record(position)
        found.append(terms)
        return tuple(answer)

    entry = parent_answer(memo, slot, recorded, s)
    if entry is None:
        return None
    term_reads, runs = found[0]
    outside = entry[1]
    # (a run that read no site — its point tests stand for its reads — is never asked again)
    entry = memo[slot] = (entry[0], outside | term_reads, *entry[2:5], (outside, Runs(filter(_READ_SOME, runs))))
    if anchor is not NOT_KEPT:
        keep_entry(record, s, entry, anchor, lists, lone)
    return entry


def parent_answer_terms_masked(memo: dict[int, Any], slot: int, record: Callable[[Any], tuple[Any, ...]],
                               s: Any, anchor: Any = NOT_KEPT, lists: Sequence[int] = (),
                               lone: bool = False) -> Optional[tuple[Any, ...]]:
    """`parent_answer_terms` for a recording that also notes settled point
    tests as bitmasks (runtime/point_masks.py): the same entry as
    `parent_answer_masked` would make, the terms' reads and runs added as
    `parent_answer_terms` adds them, in one call; kept as `parent_answer` keeps
    its entry."""
    if anchor is not NOT_KEPT:
        kept = kept_entry(record, s, anchor, lists)
        if kept is not None:
            memo[slot] = kept
            return kept
    try:
        answer, read, notes, masked, (term_reads, runs) = record(s)
    except (RuleRuntimeError, ArithmeticError, LookupError, TypeError, ValueError):
        return None
    tested, unsettled = noted_masks(notes, read) if notes else (0, 0)
    for _, held_at, failed_at, emptied in masked:
        tested |= held_at | failed_at
        unsettled |= failed_at if emptied else held_at
    unread = ~read
    # (a run that read no site — its point tests stand for its reads — is never asked again)
    entry = memo[slot] = (answer, read | term_reads, tested & unread, MaskedTests(notes, masked, read),
                          unsettled & unread, (read, Runs(filter(_READ_SOME, runs))))
    if anchor is not NOT_KEPT:
        keep_entry(record, s, entry, anchor, lists, lone)
    return entry


# (a term's run: whether it read a site)
_READ_SOME = itemgetter(0)


def terms_hold(entry: tuple[Any, ...], board: Board, written: int, p: int, q: int) -> bool:
    """Whether the sites `written` (a bitmask) leave the listed position's
    answer `entry` as it was: none was read outside the part's terms, every
    point test asked of one gives what it gave on `board` as it is now, and
    every run of a term that read one gives the outputs it gave
    (compilation/result_terms.py). The first is asked by the caller (a test of
    `entry[5][0]`, inline). A term failing now says no: the part asked again
    fails alike. A site now empty whose tests are settled (not in `entry[4]`:
    each reads the owner and kind alone and gave what it gives on an empty
    site) keeps them without asking."""
    tested = written & entry[2]
    if tested:
        tests = entry[3]
        unsettled = entry[4]
        while tested:
            low = tested & -tested
            tested ^= low
            piece = board[site := low.bit_length() - 1]
            if piece is None and not unsettled & low:
                continue
            for test, held in tests[site]:
                if (not not test(piece, p, q)) is not held:
                    return False
    for run in entry[5][1]:
        if run[0] & written:
            try:
                if run[1](board, p, q, *run[2]) != run[3]:
                    return False
            except Exception:  # (asked again whole, the part meets it there)
                return False
    return True


# (the answers `terms_hold_placed` keeps on one entry's runs: bounded, emptied when full)
PLACED_KEPT = 4096


def terms_hold_placed(entry: tuple[Any, ...], board: Board, written: int, p: int, q: int) -> bool:
    """`terms_hold` of a drop writing one site (`written`, its bit), asked on
    the listed position whose answer is `entry` with the drop's piece put
    there (compilation/cases.py, `_drop_terms_before`). Kept on the entry's
    runs by site, piece and player where the runs asked read no site the entry
    did not read but the written one: while a listing is given that entry
    (kept across listings, runtime/kept_answers.py) the sites it read hold
    the same pieces, so the same piece put at the same site gives the point
    tests and the runs what they gave — perft's last ply lists the siblings
    of one position, whose king's lines are alike, each asking every drop on
    them again."""
    runs = entry[5][1]
    site = written.bit_length() - 1
    key = (site, board[site], p)
    placed: dict[tuple[int, Any, int], bool] = runs.placed
    known = placed.get(key)
    if known is not None:
        return known
    noted = _Reading(board)  # (what the runs read)
    noted.read = []
    held = terms_hold(entry, noted, written, p, q)
    size = len(board)
    reads = 0
    for index in noted.read:
        reads |= 1 << index % size  # (a negative index reads from the end, as the board does)
    if not reads & ~(entry[1] | written):
        if len(placed) >= PLACED_KEPT:
            placed.clear()
        placed[key] = held
    return held


def moved_holds(runs: Runs, board: Board, site: int, to: int, p: int, q: int) -> bool:
    """Whether the runs of terms (an entry's `entry[5][1]`) that read `site`
    or `to` give the outputs they gave with the piece at `site` moved to `to`:
    what `terms_hold` answers of that move where neither place is read outside
    the terms, unsettled, or (`to`, with one of the player's pieces) a failing
    tested one — the runs reading neither place give what they gave, the point
    tests at both what they gave (runtime/clearances.let_through). The runs
    asked are found by site (`Runs.at`): those reading `site`, then those
    reading `to` alone. No move (`to` its origin) is left to the check.

    The answer is kept in `runs.moved` by move with the sites the runs read
    on the board the move leaves (but its two places) and the moving piece,
    and given again while those hold the same pieces: the runs, functions of
    their inputs, the players and the sites they read alone, read the same
    there and answer the same (the same first run failing, or none) — the
    listings after this one (perft's last ply: the children of one position)
    mostly ask the same moves of the same kept entry."""
    if site == to:  # (no move: the check asks)
        return False
    kept = runs.moved_for(p, q)
    known = kept.get(key := (site, to))
    if known is not None and known[0](board) == known[1]:
        return known[2]
    return moved_answer(runs, board, site, to, p, q, kept, key)


def moved_answer(runs: Runs, board: Board, site: int, to: int, p: int, q: int,
                 kept: dict[Any, Moved], key: Any) -> bool:
    """`moved_holds` asked of the runs, its answer kept in `kept` (`runs.moved_for(p, q)`)
    under `key` (the move's code, or its site and destination: the answer is
    theirs). `to` is not `site`."""
    at = runs.at
    at_site = at.get(site, ())
    at_to = at.get(to, ())
    if not (at_site or at_to):
        kept[key] = (_nothing, (), True)
        return True
    after = _Reading(board)  # (the board the move leaves, noting what the runs read)
    after.read = []
    after[to] = board[site]
    after[site] = None
    held = True
    try:
        for run in at_site:
            if run[1](after, p, q, *run[2]) != run[3]:
                held = False
                break
        else:
            for run in at_to:
                if not run[0] >> site & 1 and run[1](after, p, q, *run[2]) != run[3]:
                    held = False
                    break
    except Exception:  # (the check asks it again, as terms_hold does; not kept)
        return False
    # (the moving piece and what the runs read, as read: on this board the same but at
    # `site` and `to` — the first compared, the second once more than needed)
    pieces = itemgetter(site, *after.read)
    kept[key] = (pieces, pieces(board), held)
    return held
