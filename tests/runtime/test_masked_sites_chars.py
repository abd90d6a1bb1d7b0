"""A long MaskedSites keeps its sites as a string (`chars`, chr(site) each, in the
list's order) once a site is taken from it, so that `remove` finds a site's place
without comparing it with each site before it: every change keeps the string (or
forgets it), the list and the mask what a plain list would hold."""
import random

import pytest

from interpreter.runtime.helpers import undo_sites
from interpreter.runtime.state import LONG_LIST, masked


def _agrees(kept, plain) -> None:
    assert list(kept) == plain
    assert kept.chars is None or kept.chars == "".join(map(chr, plain))
    if kept.mask is not None:
        assert kept.mask == sum(1 << site for site in plain)


def test_every_change_keeps_the_string_the_list_and_the_mask():
    rng = random.Random(5)
    kept_strings = 0
    for _ in range(200):
        start = rng.sample(range(700), rng.randrange(0, 2 * LONG_LIST))
        kept, plain = masked(start), list(start)
        if rng.random() < 0.5:
            kept.mask = sum(1 << site for site in start)
        for _ in range(30):
            free = [site for site in range(700) if site not in plain]
            change = rng.choice(["append", "remove", "remove", "insert", "pop", "extend", "set", "del", "sort",
                                 "reverse", "copy"])
            if change == "append" or not plain and change not in ("extend", "copy"):
                site = rng.choice(free)
                kept.append(site)
                plain.append(site)
            elif change == "remove":
                site = rng.choice(plain)
                kept.remove(site)
                plain.remove(site)
            elif change == "insert":
                at, site = rng.randrange(len(plain) + 1), rng.choice(free)
                kept.insert(at, site)
                plain.insert(at, site)
            elif change == "pop":
                at = rng.randrange(len(plain))
                assert kept.pop(at) == plain.pop(at)
            elif change == "extend":
                more = rng.sample(free, 3)
                kept.extend(more)
                plain.extend(more)
            elif change == "set":
                at, site = rng.randrange(len(plain)), rng.choice(free)
                kept[at] = site
                plain[at] = site
            elif change == "del":
                at = rng.randrange(len(plain))
                del kept[at]
                del plain[at]
            elif change == "sort":
                kept.sort()
                plain.sort()
            elif change == "reverse":
                kept.reverse()
                plain.reverse()
            else:
                kept = kept.copy()
            _agrees(kept, plain)
            kept_strings += kept.chars is not None
    assert kept_strings > 300


def test_a_long_list_keeps_its_string_once_a_site_is_taken_and_a_short_one_does_not():
    long, short = masked(range(300, 300 + LONG_LIST)), masked(range(300, 300 + LONG_LIST - 1))
    for kept in (long, short):
        kept.remove(310)
        kept.append(900)
    assert long.chars == "".join(map(chr, long)) and short.chars is None
    copied = long.copy()
    copied.remove(900)
    assert copied.chars == "".join(map(chr, copied)) and long.chars == "".join(map(chr, long))


def test_remove_takes_the_site_out_where_it_stands_and_keeps_the_order():
    sites = [300, 7, 640, 12, 299] + list(range(1000, 1000 + LONG_LIST))
    kept = masked(sites)
    kept.remove(640)
    sites.remove(640)
    assert list(kept) == sites and kept.chars == "".join(map(chr, sites))
    assert kept.index(299) == 3 and kept.index(7) == 1
    with pytest.raises(ValueError):
        kept.remove(640)
    with pytest.raises(ValueError):
        kept.index(640)
    _agrees(kept, sites)


def test_an_undone_check_gives_the_string_back():
    sites = [5, 400, 9] + list(range(1000, 1000 + LONG_LIST))
    kept = masked(sites)
    kept.remove(1001)
    kept.append(1001)
    sites = list(kept)
    journal = [(kept, 400, 1)]
    kept.remove(400)
    kept.append(77)
    journal.append((kept, 77))
    undo_sites(journal)
    assert kept.chars is not None
    _agrees(kept, sites)
