"""MaskedSites keeps its sites as a string (`chars`, chr(site) each, in the list's
order) so that `remove` finds a site's place without comparing it with each site
before it: every change keeps the string, the list and the mask what a plain list
would hold."""
import random

import pytest

from interpreter.runtime.helpers import undo_sites
from interpreter.runtime.state import masked


def _agrees(kept, plain) -> None:
    assert list(kept) == plain
    assert kept.chars == "".join(map(chr, plain))
    if kept.mask is not None:
        assert kept.mask == sum(1 << site for site in plain)


def test_every_change_keeps_the_string_the_list_and_the_mask():
    rng = random.Random(5)
    for _ in range(200):
        start = rng.sample(range(700), rng.randrange(0, 40))
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


def test_remove_takes_the_site_out_where_it_stands_and_keeps_the_order():
    kept = masked([300, 7, 640, 12, 299])
    kept.remove(640)
    assert list(kept) == [300, 7, 12, 299] and kept.chars == "".join(map(chr, [300, 7, 12, 299]))
    assert kept.index(299) == 3 and kept.index(7) == 1
    with pytest.raises(ValueError):
        kept.remove(640)
    with pytest.raises(ValueError):
        kept.index(640)
    _agrees(kept, [300, 7, 12, 299])


def test_an_undone_check_gives_the_string_back():
    kept = masked([5, 400, 9])
    journal = [(kept, 400, 1)]
    kept.remove(400)
    kept.append(77)
    journal.append((kept, 77))
    undo_sites(journal)
    _agrees(kept, [5, 400, 9])
