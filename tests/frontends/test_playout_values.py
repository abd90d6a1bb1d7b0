"""MAST in the default player's playouts (playout.py): each action's mean result
over the simulated games so far, and a step that plays the better of two random
actions by it."""
from __future__ import annotations

import math
import random

from interpreter.frontends.agents.playout import Playout, Tactics
from interpreter.frontends.agents.search import Search

from .fakes import TicTacToe


def _playout(game: TicTacToe, seed: int = 0) -> Playout:
    playout = Playout(game.engine, random.Random(seed), Tactics(), 2, limit=50, score_weight=0.0)
    playout.moves = []
    playout.values = [{}, {}]
    return playout


def test_the_values_count_every_action_of_a_simulated_game_for_its_mover():
    game = TicTacToe()
    playout = _playout(game)
    playout.moves = [(1, "b"), (0, "c")]
    playout.learn_values([(0, "a")], (1.0, 0.0))
    playout.learn_values([(0, "a")], (0.0, 1.0))
    assert playout.values == [{"a": [1.0, 2], "c": [1.0, 2]}, {"b": [1.0, 2]}]


def test_a_step_plays_the_better_of_two_random_actions():
    # The centre is known to win for the first player, every other square to
    # lose: of two actions drawn, the known winner is kept; of two alike, and of
    # two never played (a draw each), the first drawn.
    game = TicTacToe()
    state = game.initial_state()
    legal = list(game.engine.legal(state))
    centre = legal[4]
    playout = _playout(game)
    values = {code: [0.0, 10] for code in legal}
    values[centre] = [10.0, 10]
    for code in legal:
        chosen = {playout.better_of_two(state, code, values) for _ in range(40)}
        # a corner gives way to the centre when the second draw is the centre, and
        # to nothing else (equal means keep the first)
        assert chosen == ({code} if code == centre else {code, centre})
    assert playout.better_of_two(state, legal[0], {}) == legal[0]


def test_a_search_keeps_values_only_with_mast_and_grave():
    game = TicTacToe()

    def search(grave: bool) -> Search:
        return Search(game.engine, random.Random(0), Tactics(), 2, exploration=1.0, rollout_limit=50,
                      score_weight=0.1, grave=grave, mast=True)

    assert search(grave=True).playout.values == [{}, {}]
    assert search(grave=False).playout.values is None
    with_values = search(grave=True)
    root = with_values.new_root(game.initial_state())
    for _ in range(30):
        with_values.iterate(root)
    first, second = with_values.playout.values
    assert sum(count for _, count in first.values()) >= 30  # the first player acts in every simulated game
    assert second


class _Sure:
    """An evaluation that says `value` of every position (a stand-in for evaluation.py's)."""

    def __init__(self, value: float) -> None:
        self.value = value

    def first_wins(self, state: object) -> float:
        return self.value

    def log_odds(self, state: object) -> float:
        return math.log(self.value / (1.0 - self.value))


def test_a_playout_cut_off_at_the_evaluations_cap_plays_on_to_the_end():
    # Cut after two actions: an evaluation at its cap (0.98) says nothing of how
    # sure, so the playout plays on (within `beyond_cap`) and backs up its own
    # end, a result of the game; an evaluation below the cap is backed up as it is.
    from interpreter.frontends.agents.evaluation import MOST_CONFIDENT

    game = TicTacToe()
    for value, plays_on in ((MOST_CONFIDENT, True), (1.0 - MOST_CONFIDENT, True), (0.7, False)):
        playout = Playout(game.engine, random.Random(3), Tactics(), 2, limit=2, score_weight=0.0)
        playout.evaluation = _Sure(value)
        playout.beyond_cap = 20
        reward = playout.run(game.engine.copy(game.initial_state()))
        assert playout.played_on == int(plays_on)
        if plays_on:
            assert reward in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5)) and playout.steps > 2
        else:
            assert reward == (0.7, 1.0 - 0.7) and playout.steps == 2


class _Alternating:
    """An evaluation that says 0.2 and 0.8 in turn: one that tells positions apart."""

    def __init__(self) -> None:
        self.calls = 0

    def first_wins(self, state: object) -> float:
        self.calls += 1
        return 0.2 if self.calls % 2 else 0.8

    def log_odds(self, state: object) -> float:
        value = self.first_wins(state)
        return math.log(value / (1.0 - value))


def test_a_search_whose_cut_off_values_hardly_differ_plays_on_to_the_end():
    # The first BLIND_SAMPLES playouts cut off below the cap measure the
    # evaluation: one value for every position (blind) turns the cut-off off, and
    # the playouts after go on to `blind_limit` actions and end the game; values
    # that differ keep it.
    from interpreter.frontends.agents.playout import BLIND_SAMPLES

    game = TicTacToe()
    for evaluation, blind in ((_Sure(0.7), True), (_Alternating(), False)):
        playout = Playout(game.engine, random.Random(3), Tactics(), 2, limit=2, score_weight=0.0)
        playout.evaluation = evaluation
        playout.cut_values = []
        playout.blind_limit = lambda: 20
        playout.blind_spread = 0.5  # (the two values of `_Alternating` are 2.8 apart in log-odds)
        for _ in range(BLIND_SAMPLES):
            first, second = playout.run(game.engine.copy(game.initial_state()))
            assert first in (0.7, 0.2, 0.8) and abs(first + second - 1.0) < 1e-9
        assert playout.blind == blind and playout.cut_values is None
        steps = playout.steps
        reward = playout.run(game.engine.copy(game.initial_state()))
        if blind:
            assert playout.evaluation is None and playout.limit == 20
            assert reward in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5)) and playout.steps - steps >= 5
        else:
            assert playout.limit == 2 and playout.steps - steps == 2


class _BeyondTheCap:
    """An evaluation whose log-odds are 3 and 6 in turn: both sure of the first
    player's win, the second beyond the cap (`MOST_CONFIDENT`, 3.9 in log-odds)."""

    def __init__(self) -> None:
        self.calls = 0

    def log_odds(self, state: object) -> float:
        self.calls += 1
        return 3.0 if self.calls % 2 else 6.0

    def first_wins(self, state: object) -> float:
        from interpreter.frontends.agents.evaluation import chance

        return chance(self.log_odds(state))


def test_blindness_is_measured_on_the_log_odds_beyond_the_cap():
    # Values at the cap are played on (`beyond_cap`); measured only below it, the
    # cut-off values were all 3.0 here and the evaluation was found blind where it
    # tells positions apart by 3 in log-odds (morris: a tactic missed in a won
    # position). Measured unbounded, they differ: the cut-off is kept.
    from interpreter.frontends.agents.playout import BLIND_SAMPLES

    game = TicTacToe()
    playout = Playout(game.engine, random.Random(3), Tactics(), 2, limit=2, score_weight=0.0)
    playout.evaluation = _BeyondTheCap()
    playout.beyond_cap = 20
    playout.cut_values = []
    playout.blind_limit = lambda: 20
    playout.blind_spread = 0.5
    for _ in range(BLIND_SAMPLES):
        playout.run(game.engine.copy(game.initial_state()))
    assert playout.cut_values is None and not playout.blind
    assert playout.played_on == BLIND_SAMPLES // 2  # (the values at the cap were still played on)


def test_the_blindness_threshold_is_a_share_of_the_evaluations_own_spread():
    # Morris's evaluation tells the positions of its learning games apart by a
    # log-odds spread of about 3, Go's (stone counts, early) by about 1.6: the
    # threshold below which a search finds it blind is that share of each.
    from interpreter import load_game
    from interpreter.frontends.agents.knowledge import evaluation_of
    from interpreter.frontends.agents.mcts import MCTSAgent
    from interpreter.frontends.agents.playout import BLIND_SHARE

    game = load_game("morris")
    evaluation = evaluation_of(game)
    assert evaluation is not None and 2.0 < evaluation.spread < 4.0
    search, _ = MCTSAgent(iterations=10, seed=1)._start(game, game.initial_state())
    assert search.playout.blind_spread == BLIND_SHARE * evaluation.spread
