"""The built-in players on hand-built positions of the fake games."""
from __future__ import annotations

import collections
import dataclasses
import random
import time

import pytest

from interpreter.frontends.agents import (
    AGENT_KINDS,
    ClassicMCTSAgent,
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
# Both players: `mcts` (the default, on the fast layer; the fakes answer it through
# FakeEngine) and `mcts-classic` (plain UCT on Game objects).

BOTH = pytest.mark.parametrize("kind", [MCTSAgent, ClassicMCTSAgent], ids=["mcts", "classic"])


@BOTH
@pytest.mark.parametrize("to_move, winning", [("white", "@c3"), ("black", "@c2")])
def test_mcts_takes_a_win_in_one(kind, to_move, winning):
    game = TicTacToe()
    # White a3 b3, black a2 b2: whoever moves completes a row.
    state = game.position("WW./BB./...", to_move)
    agent = kind(iterations=300, seed=3)
    assert agent.choose(game, state).notation == winning
    assert agent.last_stats.choices[0][0] == winning


def test_the_classic_player_searches_its_whole_budget_even_for_a_win_in_one():
    game = TicTacToe()
    agent = ClassicMCTSAgent(iterations=300, seed=3)
    agent.choose(game, game.position("WW./BB./...", "white"))
    assert agent.last_stats.iterations == 300


def test_the_default_player_takes_a_win_in_one_without_searching():
    game = TicTacToe()
    agent = MCTSAgent(iterations=300, seed=3)
    agent.choose(game, game.position("WW./BB./...", "white"))
    assert (agent.last_stats.iterations, agent.last_stats.reason, agent.last_stats.verdict) == (0, "solved", "win")


@BOTH
def test_mcts_blocks_a_win_in_one(kind):
    game = TicTacToe()
    # Black threatens c3; White has no win of its own.
    state = game.position("BB./W../..W", "white")
    assert kind(iterations=2000, seed=1).choose(game, state).notation == "@c3"


def test_the_default_player_blocks_a_win_in_one_without_searching():
    game = TicTacToe()
    # Every move but c3 lets Black win at once: c3 is forced.
    agent = MCTSAgent(iterations=5, seed=1)
    assert agent.choose(game, game.position("BB./W../..W", "white")).notation == "@c3"
    assert (agent.last_stats.iterations, agent.last_stats.reason) == (0, "forced")


def test_the_default_player_knows_a_lost_position():
    game = TicTacToe()
    # Black threatens a3 and c1 at once: whatever White does, Black wins next.
    state = game.position("B../.B./B.W", "white")
    agent = MCTSAgent(iterations=400, seed=1)
    agent.choose(game, state)
    assert agent.last_stats.verdict == "loss"


@BOTH
def test_mcts_is_deterministic_given_its_seed(kind):
    game = TicTacToe()
    runs = []
    for _ in range(2):
        agents = {"white": kind(iterations=200, seed=7), "black": kind(iterations=200, seed=8)}
        runs.append(play(game, agents)[1])
    assert runs[0] == runs[1]

    race = CoinRace()
    runs = []
    for _ in range(2):
        agents = {p: kind(iterations=60, seed=i) for i, p in enumerate(race.players)}
        runs.append(play(race, agents)[1])
    assert runs[0] == runs[1]


@BOTH
def test_mcts_weighs_chance_outcomes_by_probability(kind):
    # "safe" wins on heads (90%), "risky" only on tails (10%). Treating the coin as a
    # decision of anyone would make both look like sure wins or sure losses.
    tree = move(
        "a",
        safe=chance(heads=(0.9, end("a")), tails=(0.1, end("b"))),
        risky=chance(heads=(0.9, end("b")), tails=(0.1, end("a"))),
    )
    game = TreeGame(("a", "b"), tree)
    agent = kind(iterations=600, seed=2)
    assert agent.choose(game, game.initial_state()).notation == "safe"
    values = {notation: value for notation, _, value in agent.last_stats.choices}
    assert values["safe"] == pytest.approx(0.9, abs=0.06)
    assert values["risky"] == pytest.approx(0.1, abs=0.15)


@BOTH
def test_mcts_expects_every_player_to_maximise_its_own_score(kind):
    # a chooses; then b or c decides who wins. Under x, b takes its own win; under
    # z, c does; under y, b cannot win either way, so a wins about half the time.
    tree = move(
        "a",
        x=move("b", bwin=end("b"), awin=end("a")),
        y=move("b", awin=end("a"), cwin=end("c")),
        z=move("c", cwin=end("c"), awin=end("a")),
    )
    game = TreeGame(("a", "b", "c"), tree)
    agent = kind(iterations=1500, seed=4)
    assert agent.choose(game, game.initial_state()).notation == "y"
    values = {notation: value for notation, _, value in agent.last_stats.choices}
    assert values["x"] < 0.2 and values["z"] < 0.2
    assert 0.3 < values["y"] < 0.7


def test_the_solver_proves_a_win_two_moves_deep():
    # a wins by force with "left" (both answers of b lose); after "right", b can
    # make it a draw. Nothing is decided in one move: the search must prove it.
    tree = move(
        "a",
        left=move("b", l1=move("a", w=end("a"), d=end(None)), l2=move("a", w=end("a"))),
        right=move("b", r1=move("a", d=end(None)), r2=move("a", w=end("a"))),
    )
    game = TreeGame(("a", "b"), tree)
    agent = MCTSAgent(iterations=500, seed=0)
    assert agent.choose(game, game.initial_state()).notation == "left"
    assert (agent.last_stats.verdict, agent.last_stats.reason) == ("win", "solved")
    assert agent.last_stats.iterations < 500


@BOTH
def test_mcts_for_a_player_other_than_the_first(kind):
    tree = move("c", lose=end("a"), win=end("c"), other=end("b"))
    game = TreeGame(("a", "b", "c"), tree)
    assert kind(iterations=50, seed=0).choose(game, game.initial_state()).notation == "win"


def test_mcts_computes_the_legal_actions_of_a_node_once():
    game = TicTacToe()
    calls = collections.Counter()

    class Counting(TicTacToe):
        def legal_actions(self, state):
            calls[state.cells] += 1
            return super().legal_actions(state)

    root = game.position("W../.B./...", "white")
    ClassicMCTSAgent(iterations=500, seed=0).choose(Counting(), root)
    assert calls[root.cells] == 1


@BOTH
def test_mcts_plays_a_three_player_game_with_chance_to_the_end(kind):
    game = CoinRace()
    agents = {p: kind(iterations=40, seed=i) for i, p in enumerate(game.players)}
    state, _ = play(game, agents)
    assert game.result(state) is not None
    # At a chance event the agent draws an outcome instead of searching.
    assert kind(iterations=10).choose(game, game.initial_state()).notation in ("coin:1", "coin:2")


@BOTH
def test_mcts_beats_random_players_more_often_than_chance(kind):
    game = CoinRace(max_turns=200)
    wins = 0
    for g in range(24):
        me = game.players[g % 3]
        agents = {p: RandomAgent(seed=100 + g * 3 + i) for i, p in enumerate(game.players)}
        agents[me] = kind(iterations=150, seed=g)
        # Chance events are drawn by an agent of their own, the same in every game.
        state = game.initial_state()
        dice = RandomAgent(seed=g)
        while not game.is_terminal(state):
            who = game.to_move(state)
            action = dice.choose(game, state) if who == "chance" else agents[who].choose(game, state)
            state = game.apply(state, action)
        wins += game.result(state).winner == me
    assert wins >= 12  # a random player wins about 8 of 24


@BOTH
def test_a_capped_playout_counts_as_a_draw(kind):
    game = CoinRace(max_turns=10_000)
    state = game.initial_state()
    for notation in ["coin:2", "home_red-t2", "coin:1", "home_blue-t1", "coin:1", "home_greenxt1", "coin:1"]:
        state = game.apply(state, notation)
    assert len(game.legal_actions(state)) == 2
    agent = kind(iterations=50, seed=0, rollout_limit=1 if kind is MCTSAgent else 0)
    action = agent.choose(game, state)
    assert action in game.legal_actions(state)
    assert all(value == pytest.approx(0.5) for _, _, value in agent.last_stats.choices)


@BOTH
def test_mcts_with_a_time_budget(kind):
    game = TicTacToe()
    agent = kind(seconds=0.05, seed=0)
    started = time.perf_counter()
    action = agent.choose(game, game.initial_state())
    assert time.perf_counter() - started < 1.0
    assert action in game.legal_actions(game.initial_state())
    assert agent.last_stats.iterations >= 1


@BOTH
def test_mcts_refuses_a_finished_game_and_bad_budgets(kind):
    game = TicTacToe()
    over = game.position("WWW/BB./...", "black")
    with pytest.raises(ValueError):
        kind(iterations=10).choose(game, over)
    with pytest.raises(ValueError):
        kind(iterations=0)
    with pytest.raises(ValueError):
        kind(seconds=-1)


@BOTH
def test_a_single_legal_action_needs_no_search(kind):
    game = TreeGame(("a", "b"), move("a", only=end("b"), ))
    agent = kind(iterations=10_000)
    assert agent.choose(game, game.initial_state()).notation == "only"
    assert agent.last_stats.iterations == 0


def test_the_default_player_reuses_its_tree_with_a_time_budget():
    game = TicTacToe()
    agent = MCTSAgent(seconds=0.3, seed=0)
    state = game.initial_state()
    state = game.apply(state, agent.choose(game, state))
    state = game.apply(state, "@b2" if "@b2" in game.legal_notations(state) else "@a1")
    agent.choose(game, state)
    assert agent.last_stats.reused > 0
    fresh = MCTSAgent(iterations=100, seed=0)  # an iteration budget starts afresh
    fresh.choose(game, game.initial_state())
    fresh.choose(game, game.apply(game.initial_state(), "@b2"))
    assert fresh.last_stats.reused == 0


# -- the registry --------------------------------------------------------------------------


def test_make_agent_parses_specs():
    assert isinstance(make_agent("random", seed=3), RandomAgent)
    assert make_agent("random", seed=3).seed == 3
    default = make_agent("mcts")
    assert isinstance(default, MCTSAgent) and default.iterations is None and default.seconds == 3.0
    assert [make_agent(f"mcts:{level}").seconds for level in ("easy", "normal", "hard")] == [0.5, 3.0, 10.0]
    assert make_agent("mcts", think="hard").seconds == 10.0
    assert make_agent("mcts", think="250ms").seconds == pytest.approx(0.25)
    assert make_agent("mcts:40", think="hard").iterations == 40  # the entry's own budget wins
    classic = make_agent("mcts-classic")
    assert isinstance(classic, ClassicMCTSAgent) and classic.iterations == 1000
    assert make_agent("mcts-classic:50").iterations == 50
    assert make_agent("mcts:2000").iterations == 2000
    timed = make_agent("MCTS:5s")
    assert timed.seconds == 5 and timed.iterations is None
    assert make_agent("mcts:500ms").seconds == pytest.approx(0.5)
    tuned = make_agent("mcts:iterations=10,c=0.5,rollout=30,seconds=2")
    assert (tuned.iterations, tuned.exploration, tuned.rollout_limit, tuned.seconds) == (10, 0.5, 30, 2)
    assert set(AGENT_KINDS) == {"random", "greedy", "mcts", "mcts-v1", "mcts-classic"}
    assert make_agent("mcts-v1:30").iterations == 30


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
    agent = ClassicMCTSAgent(iterations=300, seed=1, rollout_limit=6)
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

    agent = ClassicMCTSAgent(iterations=100, seed=1, rollout_limit=6)
    agent.choose(NoScore(), NoScore().initial_state())
    assert all(v == pytest.approx(0.5) for _, _, v in agent.last_stats.choices)


# -- the default player: when it stops, and what it proves -----------------------------------------


def test_actions_that_look_alike_end_the_search_early():
    # Twelve placements that all lead to the same draw: nothing is at stake.
    game = TreeGame(("a", "b"), move("a", **{f"@x{i}": move("b", wait=end(None)) for i in range(12)}))
    agent = MCTSAgent(iterations=5_000, seed=1)
    agent.choose(game, game.initial_state())
    assert agent.last_stats.reason == "alike"
    assert agent.last_stats.iterations <= 12 * 24 + 16  # each simulated 24 times, then the next look


def test_chance_alone_does_not_make_actions_look_alike():
    # Ten coin tosses: all worth the same, but a few dozen tosses each spread their
    # means wider than the band; only the budget (or "clear") ends this search.
    coin = chance(heads=(0.5, end("a")), tails=(0.5, end("b")))
    game = TreeGame(("a", "b"), move("a", **{f"x{i}": coin for i in range(10)}))
    agent = MCTSAgent(iterations=1_000, seed=3)
    agent.choose(game, game.initial_state())
    assert agent.last_stats.reason != "alike"


def test_a_clear_best_action_ends_the_search_early():
    # One action wins on heads and tails alike, the others lose on tails.
    safe = chance(heads=(0.5, end("a")), tails=(0.5, end("a")))
    risky = chance(heads=(0.5, end("a")), tails=(0.5, end("b")))
    game = TreeGame(("a", "b"), move("a", safe=safe, r1=risky, r2=risky))
    agent = MCTSAgent(iterations=5_000, seed=1)
    assert agent.choose(game, game.initial_state()).notation == "safe"
    assert agent.last_stats.reason in ("solved", "clear") and agent.last_stats.iterations < 5_000


# -- how long the default player's playouts go on ----------------------------------------------------


def test_playouts_go_on_until_most_random_games_would_have_ended():
    from interpreter import load_game
    from interpreter.frontends.agents.mcts import (
        DEFAULT_ROLLOUT_LIMIT,
        MAX_ROLLOUT_LIMIT,
        natural_rollout_limit,
    )

    # A race played at random takes about a thousand actions: a cut-off at 200
    # would make nearly every playout a draw that says nothing.
    race = load_game("royalfiz", {"players": "2"})
    assert natural_rollout_limit(race.engine, race.initial_state()) > 1500
    # Short games keep the floor; a game that never ends is cut at the ceiling.
    short = load_game("lielow")
    assert natural_rollout_limit(short.engine, short.initial_state()) == DEFAULT_ROLLOUT_LIMIT

    class NoScore(EndlessPoints):
        def current_scores(self, state):
            return None

    endless = NoScore()
    assert natural_rollout_limit(endless.engine, endless.engine.copy(endless.initial_state())) == MAX_ROLLOUT_LIMIT


def test_the_probes_leave_the_search_reproducible():
    from interpreter import load_game
    from interpreter.frontends.agents.mcts import natural_rollout_limit

    # The probes that measure the playouts' length draw from a generator of their
    # own: the search draws exactly what it draws with that limit given outright.
    game = load_game("morris")
    state = game.initial_state()
    measured = MCTSAgent(iterations=60, seed=4)
    given = MCTSAgent(iterations=60, seed=4, rollout_limit=natural_rollout_limit(game.engine, state))
    assert measured.choose(game, state) == given.choose(game, state)
    assert measured.rng.getstate() == given.rng.getstate()
    assert measured.last_stats.choices == given.last_stats.choices


def test_no_probes_where_the_evaluation_cuts_the_playouts(monkeypatch):
    from interpreter import load_game
    from interpreter.frontends.agents import mcts
    from interpreter.frontends.agents.knowledge import evaluation_of

    # Morris has no score rule and a learnt evaluation, which stops every playout
    # after a dozen actions: a measured limit (200 at least) would change nothing,
    # so none is measured, and the search is the one with that limit given. (Only
    # a search that finds the evaluation blind here measures one, for its playouts
    # to the end: that check is off, as the start of morris is near its threshold.)
    game = load_game("morris")
    state = game.initial_state()
    assert game.engine.scores(state) is None and evaluation_of(game) is not None
    unchecked = dataclasses.replace(mcts.CURRENT, blind_check=False)
    given = MCTSAgent(iterations=60, seed=4, rollout_limit=mcts.natural_rollout_limit(game.engine, state))
    given.methods = unchecked
    expected = given.choose(game, state)

    def probe(*_):
        raise AssertionError("probed")

    monkeypatch.setattr(mcts, "natural_rollout_limit", probe)
    skipped = MCTSAgent(iterations=60, seed=4)
    skipped.methods = unchecked
    assert skipped.choose(game, state) == expected
    assert skipped.last_stats.choices == given.last_stats.choices


def test_a_small_node_has_its_actions_tried_only_where_that_costs_less_than_a_playout():
    # Tic-tac-toe from the start: 9 actions. Before any playout the cost is unknown
    # and every action is tried; once playouts are known to make 5 positions, a
    # node of 9 actions is expanded as a stub list (no position made) and one of 4
    # still has its actions tried.
    from interpreter.frontends.agents.playout import Tactics
    from interpreter.frontends.agents.search import Search

    game = TicTacToe()
    search = Search(game.engine, random.Random(0), Tactics(), 2, exploration=1.0, rollout_limit=50,
                    score_weight=0.1, try_all=16)
    root = search.new_root(game.initial_state())
    assert all(child.materialised for child in search.expand(root))
    search.playout.runs, search.playout.steps = 2, 10
    root = search.new_root(game.initial_state())
    assert not any(child.materialised for child in search.expand(root))
    assert search.trying_all_pays(4) and search.trying_all_pays(5) and not search.trying_all_pays(6)


def _search_on_a_ticking_clock():
    """A search of tic-tac-toe from the start whose clock ticks once a look, and its root."""
    import itertools

    from interpreter.frontends.agents.playout import Tactics
    from interpreter.frontends.agents.search import Search

    game = TicTacToe()
    ticks = itertools.count()
    search = Search(game.engine, random.Random(0), Tactics(), 2, exploration=1.0, rollout_limit=50,
                    score_weight=0.1, clock=lambda: float(next(ticks)))
    return search, search.new_root(game.initial_state())


def test_the_roots_check_stops_making_positions_at_its_deadline():
    # A clock that ticks once a look: the check makes the root's first four
    # positions (looks at 0, 1, 2, 3), leaves the other five as stubs, and the
    # search makes them as it goes; the choice is among the positions made.
    from interpreter.frontends.agents.tree import best_child

    search, root = _search_on_a_ticking_clock()
    search.check_root(root, deadline=3.0)
    children = root.children
    assert children is not None
    assert [child.materialised for child in children] == [True] * 4 + [False] * 5
    assert root.proven is None
    for _ in range(40):
        search.iterate(root)
    assert all(child.materialised and child.visits for child in children)
    assert best_child(root).materialised


def test_the_roots_check_stops_making_answers_at_its_deadline():
    # The same clock: the nine actions are made (looks 0-8), then the first
    # action's answers until the deadline (looks 10-12: three of its eight), and
    # no other action's: where an answer's position is dear (Go's score rule asked
    # by the evaluation), one action's answers had taken a whole move's time.
    search, root = _search_on_a_ticking_clock()
    search.check_root(root, deadline=12.0)
    children = root.children
    assert children is not None and all(child.materialised for child in children)
    made = [sum(answer.materialised for answer in child.children or ()) for child in children]
    assert made == [3] + [0] * 8


def test_the_safety_check_looks_only_at_the_positions_the_roots_check_made():
    # Tablut's threat (test_tactical_positions): a check cut short after ten
    # positions leaves stubs, which the safety check neither looks at nor vetoes.
    import itertools

    from interpreter import load_game
    from interpreter.frontends.agents.knowledge import knowledge_of
    from interpreter.frontends.agents.playout import Tactics
    from interpreter.frontends.agents.safety import veto_material_losses
    from interpreter.frontends.agents.search import Search

    from .test_tactical_positions import TABLUT_THREAT

    game = load_game("tablut")
    material = knowledge_of(game).material
    assert material is not None
    ticks = itertools.count()
    search = Search(game.engine, random.Random(0), Tactics(), 2, exploration=1.0, rollout_limit=50,
                    score_weight=0.1, clock=lambda: float(next(ticks)))
    root = search.new_root(game.parse_position(TABLUT_THREAT))
    search.check_root(root, deadline=9.0)
    children = root.children
    assert children is not None
    stubs = [c for c in children if not c.materialised]
    assert len(stubs) == len(children) - 10
    veto_material_losses(game.engine, material, root, 2_000, deepest=1)
    assert any(c.checked for c in children)
    assert not any(c.checked or c.vetoed for c in stubs)
