"""MaskedSites: the neutral pieces' sites with their bitmask kept alongside. The
mask must never disagree with the sites, whatever changes the list."""
import copy
import pickle
import random

import pytest

from interpreter import load_game
from interpreter.runtime.state import MaskedSites, masked


def _mask_of(sites) -> int:
    return sum(1 << t for t in sites)


def _known(sites: MaskedSites) -> MaskedSites:
    sites.mask = _mask_of(sites)
    return sites


def test_append_and_remove_keep_the_mask():
    sites = _known(masked([3, 70]))
    sites.append(5)
    assert sites.mask == _mask_of([3, 70, 5])
    sites.remove(70)
    assert sites.mask == _mask_of([3, 5])
    assert sites == [3, 5]


def test_a_mask_not_yet_made_stays_unmade():
    sites = masked([1])
    sites.append(2)
    sites.remove(1)
    assert sites.mask is None and sites == [2]


@pytest.mark.parametrize("change", [
    lambda s: s.insert(0, 9),
    lambda s: s.extend([9, 10]),
    lambda s: s.pop(),
    lambda s: s.clear(),
    lambda s: s.__setitem__(0, 9),
    lambda s: s.__delitem__(0),
    lambda s: s.__setitem__(slice(0, 1), [9, 10]),
    lambda s: s.__iadd__([9]),
    lambda s: s.__imul__(1),
])
def test_every_other_change_forgets_the_mask(change):
    sites = _known(masked([3, 4]))
    change(sites)
    assert sites.mask is None


def test_random_changes_never_leave_a_wrong_mask():
    rng = random.Random(3)
    sites = _known(masked())
    for _ in range(2000):
        free = [t for t in range(100) if t not in sites]
        op = rng.randrange(4)
        if op == 0 and free:
            sites.append(rng.choice(free))
        elif op == 1 and sites:
            sites.remove(rng.choice(sites))
        elif op == 2 and sites:
            sites.pop(rng.randrange(len(sites)))
        else:
            sites.mask = _mask_of(sites) if sites.mask is None else sites.mask
        assert sites.mask is None or sites.mask == _mask_of(sites)


def test_copies_are_independent_and_keep_the_mask():
    sites = _known(masked([3, 4]))
    for twin in (sites.copy(), copy.copy(sites), copy.deepcopy(sites), pickle.loads(pickle.dumps(sites))):
        assert type(twin) is MaskedSites and twin == [3, 4] and twin.mask == sites.mask
        twin.append(8)
        assert sites == [3, 4] and sites.mask == _mask_of([3, 4])


def test_positions_keep_neutral_sites_masked_through_copies_and_pickling():
    game = load_game("royalfiz")
    state = game.initial_state()
    assert state.occ[-1].mask is None
    for _ in range(2):  # who starts, the first roll: then the moves are listed
        state = game.apply(state, game.legal_notations(state)[0])
    neutral = state.occ[-1]
    assert type(neutral) is MaskedSites and neutral.mask == _mask_of(neutral)
    for twin in (state.copy(), pickle.loads(pickle.dumps(state))):
        assert type(twin.occ[-1]) is MaskedSites and twin.occ[-1] is not neutral
        assert twin.occ[-1].mask == neutral.mask


def test_first_reads_the_lowest_bit_of_a_kept_mask():
    from interpreter.runtime.helpers import first
    rng = random.Random(5)
    for _ in range(200):
        sites = masked(rng.sample(range(100), rng.randrange(0, 6)))
        unmade = first(sites)
        assert unmade == (min(sites) if sites else -1)
        _known(sites)
        assert first(sites) == unmade
