"""The built-in players on hand-built positions of the fake games."""
from __future__ import annotations

import collections
import random
import time

import pytest

from interpreter.frontends.agents import (
    AGENT_KINDS,
    MCTSAgent,
    RandomAgent,
    make_agent,
    normalised_rewards,
    sample_chance,
)
from interpreter.runtime.views import Result

from .fakes import CoinRace, EndlessPoints, TicTacToe, TreeGame, chance, end, move


def play(game, agents, state=None, limit=1000):
    """Play to the end; `agents` maps player -> agent, chance uses the first agent."""
    state = state or game.initial_state()
    chance_agent = next(iter(agents.values()))
    notations = []
    for _ in range(limit):
        who = game.to_move(state)
        if who is None:
            return state, notations
        agent = chance_agent if who == "chance" else agents[who]
        action = agent.choose(game, state)
        notations.append(action.notation)
        state = game.apply(state, action)
    raise AssertionError("game did not end")


# -- random agent --------------------------------------------------------------------------


def test_random_agent_picks_legal_actions_and_is_reproducible():
    game = CoinRace()
    runs = []
    for _ in range(2):
        agents = {p: RandomAgent(seed=i) for i, p in enumerate(game.players)}
        state, notations = play(game, agents)
        assert game.is_terminal(state)
        runs.append(notations)
    assert runs[0] == runs[1]
    other = play(game, {p: RandomAgent(seed=i + 10) for i, p in enumerate(game.players)})[1]
    assert other != runs[0]


def test_random_agent_does_not_depend_on_the_order_of_legal_actions():
    game = TicTacToe()

    class Reversed(TicTacToe):
        def legal_actions(self, state):
            return list(reversed(super().legal_actions(state)))

    state = game.initial_state()
    assert RandomAgent(seed=5).choose(game, state) == RandomAgent(seed=5).choose(Reversed(), state)


def test_chance_outcomes_are_drawn_by_their_probabilities():
    game = CoinRace()
    state = game.initial_state()
    rng = random.Random(1)
    counts = collections.Counter(sample_chance(game, state, rng).notation for _ in range(4000))
    assert counts.keys() == {"coin:1", "coin:2"}
    assert abs(counts["coin:1"] / 4000 - CoinRace.P_ONE) < 0.03
    agent_counts = collections.Counter(RandomAgent(seed=s).choose(game, state).notation for s in range(2000))
    assert abs(agent_counts["coin:1"] / 2000 - CoinRace.P_ONE) < 0.05


# -- rewards -------------------------------------------------------------------------------


def test_rewards_for_a_win_a_draw_and_points():
    players = ("a", "b", "c")
    assert normalised_rewards(players, Result("b", {"a": 0, "b": 1, "c": 0})) == (0.0, 1.0, 0.0)
    assert normalised_rewards(players, Result(None, {"a": 0, "b": 0, "c": 0})) == (0.5, 0.5, 0.5)
    assert normalised_rewards(players, None) == (0.5, 0.5, 0.5)
    # A points game: the winner gets most, a bigger margin a little more.
    close = normalised_rewards(("w", "b"), Result("w", {"w": 11, "b": 10}))
    wide = normalised_rewards(("w", "b"), Result("w", {"w": 30, "b": 2}))
    assert 0.9 < close[0] < wide[0] <= 1.0
    assert 0.0 <= wide[1] < close[1] < 0.1
    # A drawn points game is a draw whatever the points.
    assert normalised_rewards(("w", "b"), Result(None, {"w": 7, "b": 7})) == (0.5, 0.5)
    # Negative points still land in [0, 1].
    rewards = normalised_rewards(("w", "b"), Result("w", {"w": -1, "b": -5}))
    assert all(0.0 <= r <= 1.0 for r in rewards) and rewards[0] > rewards[1]
    assert normalised_rewards(("w", "b"), Result("w", {"w": 3, "b": 1}), score_weight=0) == (1.0, 0.0)


# -- MCTS ----------------------------------------------------------------------------------


@pytest.mark.parametrize("to_move, winning", [("white", "@c3"), ("black", "@c2")])
def test_mcts_takes_a_win_in_one(to_move, winning):
    game = TicTacToe()
    # White a3 b3, black a2 b2: whoever moves completes a row.
    state = game.position("WW./BB./...", to_move)
    agent = MCTSAgent(iterations=300, seed=3)
    assert agent.choose(game, state).notation == winning
    assert agent.last_stats.choices[0][0] == winning
    assert agent.last_stats.iterations == 300


def test_mcts_blocks_a_win_in_one():
    game = TicTacToe()
    # Black threatens c3; White has no win of its own.
    state = game.position("BB./W../..W", "white")
    assert MCTSAgent(iterations=2000, seed=1).choose(game, state).notation == "@c3"


def test_mcts_is_deterministic_given_its_seed():
    game = TicTacToe()
    runs = []
    for _ in range(2):
        agents = {"white": MCTSAgent(iterations=200, seed=7), "black": MCTSAgent(iterations=200, seed=8)}
        runs.append(play(game, agents)[1])
    assert runs[0] == runs[1]

    race = CoinRace()
    runs = []
    for _ in range(2):
        agents = {p: MCTSAgent(iterations=60, seed=i) for i, p in enumerate(race.players)}
        runs.append(play(race, agents)[1])
    assert runs[0] == runs[1]


def test_mcts_weighs_chance_outcomes_by_probability():
    # "safe" wins on heads (90%), "risky" only on tails (10%). Treating the coin as a
    # decision of anyone would make both look like sure wins or sure losses.
    tree = move(
        "a",
        safe=chance(heads=(0.9, end("a")), tails=(0.1, end("b"))),
        risky=chance(heads=(0.9, end("b")), tails=(0.1, end("a"))),
    )
    game = TreeGame(("a", "b"), tree)
    agent = MCTSAgent(iterations=600, seed=2)
    assert agent.choose(game, game.initial_state()).notation == "safe"
    values = {notation: value for notation, _, value in agent.last_stats.choices}
    assert values["safe"] == pytest.approx(0.9, abs=0.06)
    assert values["risky"] == pytest.approx(0.1, abs=0.15)


def test_mcts_expects_every_player_to_maximise_its_own_score():
    # a chooses; then b or c decides who wins. Under x, b takes its own win; under
    # z, c does; under y, b cannot win either way, so a wins about half the time.
    tree = move(
        "a",
        x=move("b", bwin=end("b"), awin=end("a")),
        y=move("b", awin=end("a"), cwin=end("c")),
        z=move("c", cwin=end("c"), awin=end("a")),
    )
    game = TreeGame(("a", "b", "c"), tree)
    agent = MCTSAgent(iterations=1500, seed=4)
    assert agent.choose(game, game.initial_state()).notation == "y"
    values = {notation: value for notation, _, value in agent.last_stats.choices}
    assert values["x"] < 0.2 and values["z"] < 0.2
    assert 0.3 < values["y"] < 0.7


def test_mcts_for_a_player_other_than_the_first():
    tree = move("c", lose=end("a"), win=end("c"), other=end("b"))
    game = TreeGame(("a", "b", "c"), tree)
    assert MCTSAgent(iterations=50, seed=0).choose(game, game.initial_state()).notation == "win"


def test_mcts_computes_the_legal_actions_of_a_node_once():
    game = TicTacToe()
    calls = collections.Counter()

    class Counting(TicTacToe):
        def legal_actions(self, state):
            calls[state.cells] += 1
            return super().legal_actions(state)

    root = game.position("W../.B./...", "white")
    MCTSAgent(iterations=500, seed=0).choose(Counting(), root)
    assert calls[root.cells] == 1


def test_mcts_plays_a_three_player_game_with_chance_to_the_end():
    game = CoinRace()
    agents = {p: MCTSAgent(iterations=40, seed=i) for i, p in enumerate(game.players)}
    state, _ = play(game, agents)
    assert game.result(state) is not None
    # At a chance event the agent draws an outcome instead of searching.
    assert MCTSAgent(iterations=10).choose(game, game.initial_state()).notation in ("coin:1", "coin:2")


def test_mcts_beats_random_players_more_often_than_chance():
    game = CoinRace(max_turns=200)
    wins = 0
    for g in range(24):
        me = game.players[g % 3]
        agents = {p: RandomAgent(seed=100 + g * 3 + i) for i, p in enumerate(game.players)}
        agents[me] = MCTSAgent(iterations=150, seed=g)
        # Chance events are drawn by an agent of their own, the same in every game.
        state = game.initial_state()
        dice = RandomAgent(seed=g)
        while not game.is_terminal(state):
            who = game.to_move(state)
            action = dice.choose(game, state) if who == "chance" else agents[who].choose(game, state)
            state = game.apply(state, action)
        wins += game.result(state).winner == me
    assert wins >= 12  # a random player wins about 8 of 24


def test_a_capped_playout_counts_as_a_draw():
    game = CoinRace(max_turns=10_000)
    state = game.initial_state()
    for notation in ["coin:2", "home_red-t2", "coin:1", "home_blue-t1", "coin:1", "home_greenxt1", "coin:1"]:
        state = game.apply(state, notation)
    assert len(game.legal_actions(state)) == 2
    agent = MCTSAgent(iterations=50, seed=0, rollout_limit=0)
    action = agent.choose(game, state)
    assert action in game.legal_actions(state)
    assert all(value == pytest.approx(0.5) for _, _, value in agent.last_stats.choices)


def test_mcts_with_a_time_budget():
    game = TicTacToe()
    agent = MCTSAgent(seconds=0.05, seed=0)
    started = time.perf_counter()
    action = agent.choose(game, game.initial_state())
    assert time.perf_counter() - started < 1.0
    assert action in game.legal_actions(game.initial_state())
    assert agent.last_stats.iterations >= 1


def test_mcts_refuses_a_finished_game_and_bad_budgets():
    game = TicTacToe()
    over = game.position("WWW/BB./...", "black")
    with pytest.raises(ValueError):
        MCTSAgent(iterations=10).choose(game, over)
    with pytest.raises(ValueError):
        MCTSAgent(iterations=0)
    with pytest.raises(ValueError):
        MCTSAgent(seconds=-1)


def test_a_single_legal_action_needs_no_search():
    game = TreeGame(("a", "b"), move("a", only=end("a")))
    agent = MCTSAgent(iterations=10_000)
    assert agent.choose(game, game.initial_state()).notation == "only"
    assert game.applied == 0


# -- the registry --------------------------------------------------------------------------


def test_make_agent_parses_specs():
    assert isinstance(make_agent("random", seed=3), RandomAgent)
    assert make_agent("random", seed=3).seed == 3
    default = make_agent("mcts")
    assert isinstance(default, MCTSAgent) and default.iterations and default.seconds is None
    assert make_agent("mcts:2000").iterations == 2000
    timed = make_agent("MCTS:5s")
    assert timed.seconds == 5 and timed.iterations is None
    assert make_agent("mcts:500ms").seconds == pytest.approx(0.5)
    tuned = make_agent("mcts:iterations=10,c=0.5,rollout=30,seconds=2")
    assert (tuned.iterations, tuned.exploration, tuned.rollout_limit, tuned.seconds) == (10, 0.5, 30, 2)
    assert set(AGENT_KINDS) == {"random", "mcts"}


@pytest.mark.parametrize("spec", ["alphazero", "", "mcts:lots", "mcts:0", "mcts:-3s", "random:5", "mcts:x=1"])
def test_make_agent_rejects_unknown_specs_clearly(spec):
    with pytest.raises(ValueError) as error:
        make_agent(spec)
    message = str(error.value)
    assert repr(spec) in message or "at least" in message or "positive" in message


def test_make_agent_lists_the_valid_kinds():
    with pytest.raises(ValueError, match="random.*mcts"):
        make_agent("minimax")
    with pytest.raises(ValueError, match="play loop"):
        make_agent("human")


# -- cut-off playouts are judged by the score rule --------------------------------------------


def test_a_cut_off_playout_counts_the_points():
    from interpreter.frontends.agents import cutoff_rewards

    game = EndlessPoints()
    agent = MCTSAgent(iterations=300, seed=1, rollout_limit=6)
    assert agent.choose(game, game.initial_state()).notation == "gain"
    value = dict((n, v) for n, _, v in agent.last_stats.choices)
    assert value["gain"] > 0.5 > value["wait"]
    assert cutoff_rewards(("a", "b"), {"a": 13, "b": 6}) == pytest.approx((13 / 19, 6 / 19))
    assert cutoff_rewards(("a", "b", "c"), {"a": 3, "b": 3, "c": 0}) == (0.5, 0.5, 0.0)
    assert cutoff_rewards(("a", "b"), {"a": 0, "b": 0}) == (0.5, 0.5)
    assert cutoff_rewards(("a", "b"), {"a": -2, "b": 1}) == (0.0, 1.0)


def test_without_a_score_rule_a_cut_off_playout_is_a_draw():
    class NoScore(EndlessPoints):
        def current_scores(self, state):
            return None

    agent = MCTSAgent(iterations=100, seed=1, rollout_limit=6)
    agent.choose(NoScore(), NoScore().initial_state())
    assert all(v == pytest.approx(0.5) for _, _, v in agent.last_stats.choices)
