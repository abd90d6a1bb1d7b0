"""Whether a name a variant adds was meant to replace an existing one.

An overlay replaces what has the same name and adds what has a new one, so a
misspelt name adds a second item beside the one it was meant to replace. A new
name is taken for such a slip only when it is one typo from an existing name (a
letter added, dropped or changed, two neighbours swapped, or another case), and
the difference is not a number or a word of one or two letters: `diagonal_capture`
beside `pawn_capture`, `move_n` beside `move_s` and `leap3` beside `leap2` are
added on purpose; `steps` beside `step` most likely is not.
"""
from __future__ import annotations

from typing import Iterable, Optional

from ..spelling import one_typo_apart


def near_namesake(name: str, names: Iterable[str]) -> Optional[str]:
    """The existing name that `name` most likely misspells, or None."""
    names = sorted(n for n in names if isinstance(n, str))
    if name in names:
        return None
    for candidate in names:
        if _slip(name.casefold(), candidate.casefold()):
            return candidate
    return None


def _slip(new: str, old: str) -> bool:
    if new == old:
        return True  # only the case differs
    if not one_typo_apart(new, old):
        return False
    new_words, old_words = new.split("_"), old.split("_")
    if len(new_words) != len(old_words):
        return True  # an underscore added or dropped: `pawncapture`
    differing = [(a, b) for a, b in zip(new_words, old_words) if a != b]
    if len(differing) != 1:
        return True  # a swap across an underscore
    a, b = differing[0]
    if min(len(a), len(b)) < 3:
        return False  # a short word of its own: `move_n`, `move_s`
    return _without_digits(a) != _without_digits(b)  # `leap2`, `leap3`: numbered on purpose


def _without_digits(word: str) -> str:
    return "".join(c for c in word if not c.isdigit())
