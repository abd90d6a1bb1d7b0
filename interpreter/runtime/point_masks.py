"""The listed position's answer of a `forbid result` part whose point tests are
noted as bitmasks.

A part's recording (compilation/result_reuse.py) notes each point test it asks
as a tuple (site, test, what it gave, ...), which `helpers.parent_answer` sorts
into the bitmasks of the sites tested and unsettled. A search asks one test of
every site it visits (`it is not wall`): a tuple per site, then a loop over
them, for what two bitmasks say — where the test held and where it did not.
A test that reads the piece's owner and kind alone, gives on an empty site a
value known from the recording's start, and is asked of a named site is noted
so: (test, the sites where it held, where it did not, what it gives on an empty
site). Its sites count as tested (those not read), unsettled where it gave
otherwise than on an empty site; what it gave at a site is told by its bit.
The entry is the one `helpers.parent_answer` makes, so every check reads it as
before.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from .errors import RuleRuntimeError
from .kept_answers import NOT_KEPT, keep_entry, kept_entry

if TYPE_CHECKING:
    from .state import State

# (site, test, what it gave, whether it reads the owner and kind alone, what it gives on an empty site)
TestNote = tuple[int, Callable[..., Any], Any, bool, Any]
# (test, bitmask of the sites where it held, of those where it did not, what it gives on an empty site)
MaskedTest = tuple[Callable[..., Any], int, int, Any]
# (answer, read, tested, tests by site, unsettled): as helpers.ParentEntry
Entry = tuple[Any, int, int, Any, int]


def parent_answer_masked(memo: dict[int, Optional[Entry]], slot: int,
                         record: Callable[[State], tuple[Any, int, list[TestNote], Sequence[MaskedTest]]],
                         s: State, anchor: Any = NOT_KEPT, lists: Sequence[int] = (),
                         lone: bool = False) -> Optional[Entry]:
    """`helpers.parent_answer` for a recording that also returns tests noted as
    bitmasks (the module's docstring); kept as it keeps its entry."""
    if anchor is not NOT_KEPT:
        kept = kept_entry(record, s, anchor, lists)
        if kept is not None:
            memo[slot] = kept
            return kept
    try:
        answer, read, notes, masked = record(s)
    except (RuleRuntimeError, ArithmeticError, LookupError, TypeError, ValueError):
        return None
    # (a search's recording notes its sites as masks alone: most listings have no tuple noted)
    tested, unsettled = noted_masks(notes, read) if notes else (0, 0)
    unread = ~read
    for _, held_at, failed_at, emptied in masked:
        tested |= (held_at | failed_at) & unread
        unsettled |= (failed_at if emptied else held_at) & unread
    entry = memo[slot] = (answer, read, tested, MaskedTests(notes, masked, read), unsettled)
    if anchor is not NOT_KEPT:
        keep_entry(record, s, entry, anchor, lists, lone)
    return entry


def noted_masks(notes: Sequence[TestNote], read: int) -> tuple[int, int]:
    """The bitmasks of the sites the noted point tests tested and of those where
    one is unsettled (would give otherwise on an empty site, or reads more of the
    piece than its owner and kind)."""
    tested = unsettled = 0
    for site, _, held, plain, emptied in notes:
        # (site -1, never written, holds nothing to test; a site also read is asked
        # again wherever it is written, whatever its tests)
        if site >= 0 and not read >> site & 1:
            bit = 1 << site
            tested |= bit
            if not plain or (not emptied) is not (not held):
                unsettled |= bit
    return tested, unsettled


class MaskedTests(dict):  # type: ignore[type-arg]  # (helpers.PointTests)
    """The point tests of the entry by site, (test, whether it held) each, made
    for a site when it is first looked up: most listings look up none."""

    __slots__ = ("notes", "masked", "read", "noted")

    def __init__(self, notes: Sequence[TestNote], masked: Sequence[MaskedTest], read: int):
        # (empty as made: dict's own __init__ not called, it would add nothing)
        self.notes = notes
        self.masked = masked
        self.read = read
        self.noted: Optional[dict[int, list[tuple[Callable[..., Any], bool]]]] = None

    def __missing__(self, site: int) -> list[tuple[Callable[..., Any], bool]]:
        if self.read >> site & 1:
            raise KeyError(site)
        noted = self.noted
        if noted is None:  # (the notes sorted by site once)
            noted = self.noted = {}
            for at, test, held, _, _ in self.notes:
                noted.setdefault(at, []).append((test, not not held))
        tests = list(noted.get(site, ()))
        for test, held_at, failed_at, _ in self.masked:
            if held_at >> site & 1:
                tests.append((test, True))
            if failed_at >> site & 1:
                tests.append((test, False))
        if not tests:
            raise KeyError(site)
        dict.__setitem__(self, site, tests)
        return tests
