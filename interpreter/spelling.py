"""Spelling help for names: the nearest known name to a misspelt one; and a count
with its noun ("1 player", "2 players").

A leaf module: every stage (parsing, compilation, validation, loading, the CLI)
says "did you mean" the same way, with `did_you_mean`, and counts things with
`counted`.
"""
from __future__ import annotations

import difflib
from typing import Any, Iterable

# A misspelling is worth a suggestion when it shares most of its letters with a known
# name. difflib's default cutoff (0.6) also pairs unrelated words ("size"/"sites",
# "setup"/"step"), so ask for 0.7, and accept any single typo (one letter added,
# dropped, changed, or two swapped) in names of three letters or more.
_SUGGEST_CUTOFF = 0.7


def one_typo_apart(a: str, b: str) -> bool:
    """Whether `a` becomes `b` by one letter added, dropped or changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diffs) == 1:
            return True
        return (len(diffs) == 2 and diffs[1] == diffs[0] + 1
                and a[diffs[0]] == b[diffs[1]] and a[diffs[1]] == b[diffs[0]])
    shorter, longer = (a, b) if len(a) < len(b) else (b, a)
    return any(longer[:i] + longer[i + 1:] == shorter for i in range(len(longer)))


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """The known name nearest to a misspelled `name` (case-insensitive), or None.

    Returns the candidate in its own spelling. A name that is itself a candidate
    gets no suggestion; one that differs only by case gets the right spelling.
    """
    if not isinstance(name, str):
        return None
    by_folded: dict[str, str] = {}
    for candidate in candidates:
        if isinstance(candidate, str):
            by_folded.setdefault(candidate.casefold(), candidate)
    if name in by_folded.values():
        return None
    folded = name.casefold()
    if folded in by_folded:
        return by_folded[folded]
    best_score, best = 0.0, None
    # Sorted, so that ties go to the alphabetically first name whatever the input order.
    for candidate in sorted(by_folded):
        score = difflib.SequenceMatcher(None, folded, candidate).ratio()
        close = score >= _SUGGEST_CUTOFF or (
            min(len(folded), len(candidate)) >= 3 and one_typo_apart(folded, candidate))
        if close and score > best_score:
            best_score, best = score, by_folded[candidate]
    return best


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """`"did you mean 'x'?"` for the nearest known name, or None."""
    best = suggest(name, candidates)
    return f"did you mean {best!r}?" if best is not None else None


def counted(number: Any, noun: str, plural: str | None = None) -> str:
    """`"1 player"`, `"2 players"`, `"0 players"`: the number with its noun, in the
    plural (`noun + "s"` unless given) unless the number is 1."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
