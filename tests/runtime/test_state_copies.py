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
