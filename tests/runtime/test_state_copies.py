"""Copies of a position share its history of positions until one of them counts;
a trial copy (made to check one action and dropped) leaves the position free to
count without copying its history."""
from interpreter import load_game


def _playing():
    game = load_game("docs/examples/chess")  # (keeps a history: threefold repetition)
    state = game.apply(game.initial_state(), "e2e4")
    state.history = dict(state.history)
    state.history_shared = False
    return state


def test_a_copy_and_the_original_each_keep_their_own_counts():
    state = _playing()
    before = dict(state.history)
    copy = state.copy()
    state.count_position(12345)
    assert state.history[12345] == 1
    assert copy.history == before  # not changed by the original's count
    copy.count_position(12345)
    assert copy.history[12345] == 1 and state.history[12345] == 1


def test_a_trial_copy_does_not_make_the_original_copy_its_history():
    state = _playing()
    history = state.history
    trial = state.copy(trial=True)
    assert trial.history is history and trial.history_shared
    state.count_position(12345)
    assert state.history is history  # counted in place
    trial.count_position(6789)  # (a trial copy that counted would copy first)
    assert 6789 not in state.history


def test_every_owners_site_list_is_copied_apart():
    # (one, two, three and five lists of players' sites, plain and masked: the copy
    # writes each number of players its own way)
    from interpreter.runtime.state import MaskedSites, State, empty_occupancy

    for players in (1, 2, 3, 5):
        for masked_players in (False, True):
            state = State.__new__(State)
            for field in State.__slots__:
                setattr(state, field, None)
            state.board, state.vars = [None], []
            state.occ = empty_occupancy(players, masked_players)
            for owner, sites in enumerate(state.occ):
                sites.append(owner)
            copy = state.copy()
            assert copy.occ == state.occ and len(copy.occ) == players + 1
            assert [type(sites) for sites in copy.occ] == [type(sites) for sites in state.occ]
            assert type(copy.occ[-1]) is MaskedSites
            for sites in copy.occ:
                sites.append(99)
            assert all(99 not in sites for sites in state.occ)
