"""Every game as an OpenSpiel game (docs/rl.md): OpenSpiel's random simulation test
and its MCTS bot on the bundled games, the documentation's examples and the
benchmark games, then the parts of the game OpenSpiel's test does not look at."""
from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the rl extra (open_spiel)")
import numpy as np  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

from interpreter import load_game  # noqa: E402
from interpreter.frontends.adapters import openspiel_game  # noqa: E402
from interpreter.frontends.adapters.observation import ObservationEncoder  # noqa: E402
from tests.adapters.games import ALL, BUNDLED, label  # noqa: E402
from tests.helpers import GAMES, REPO, placing, stones_and_rocks, write_definition  # noqa: E402


def registered(case, **kwargs):
    path, options = case
    name = "regelwerk_test_" + label(case).replace("/", "_").replace("-", "_").replace("=", "_")
    return openspiel_game.register(path, options=options, name=name, **kwargs)


@pytest.mark.parametrize("case", ALL, ids=label)
def test_random_simulation(case):
    pyspiel.random_sim_test(registered(case), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("case", BUNDLED, ids=label)
def test_mcts_bot_plays(case):
    game = registered(case)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=6,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(1))
    rng = np.random.RandomState(2)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 6:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(outcomes, p=probabilities))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 6


def test_the_game_speaks_regelwerk():
    game = openspiel_game.register(str(GAMES / "royalfiz"), name="regelwerk_test_royalfiz_speaks")
    rules = game.regelwerk
    assert game.num_players() == 4 and game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert [(state.action_to_string(pyspiel.PlayerId.CHANCE, a), p) for a, p in state.chance_outcomes()] == [
        (action.notation, p) for action, p in rules.chance_outcomes(state.position)]
    state.apply_action(state.string_to_action("start:blue"))
    state.apply_action(state.string_to_action("roll:6"))
    assert state.current_player() == 1  # blue
    notations = sorted(state.action_to_string(1, a) for a in state.legal_actions())
    assert notations == rules.legal_notations(state.position)
    assert str(state) == rules.position_text(state.position)
    assert state.information_state_string(0) == state.history_str()
    encoder = ObservationEncoder(rules)
    np.testing.assert_array_equal(np.asarray(state.observation_tensor(2)), encoder.encode(state.position, 2).ravel())
    assert game.observation_tensor_shape() == list(encoder.shape)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.position != clone.position and state.history() != clone.history()


def test_options_are_parameters():
    openspiel_game.register(str(GAMES / "royalfiz"), name="regelwerk_test_royalfiz_parameters")
    three = pyspiel.load_game("regelwerk_test_royalfiz_parameters(players=3)")
    assert three.num_players() == 3 and three.regelwerk.players == ("red", "blue", "green")
    assert three.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM and three.utility_sum() == 0.0
    assert three.get_parameters() == {"players": 3, "max_turns": 1000}
    with pytest.raises(Exception, match="Unknown parameter 'colour'"):
        pyspiel.load_game("regelwerk_test_royalfiz_parameters(colour=3)")
    with pytest.raises(Exception, match="players"):  # the definition's own diagnostic
        pyspiel.load_game("regelwerk_test_royalfiz_parameters(players=5)")


def test_a_default_written_with_options_follows_the_parameters(tmp_path):
    yaml = stones_and_rocks(files=5, ranks=5, extra=(
        "options:\n  side: {values: [3, 4, 5], default: 4}\n"
        "  walls: {type: int, default: side * side // 2, min: 1, max: 20}\n"
        "pools:\n  stock: {initial: walls, description: Stones left.}\n"))
    openspiel_game.register(write_definition(tmp_path, yaml, placing("")), name="regelwerk_test_worked_out")
    assert pyspiel.load_game("regelwerk_test_worked_out").regelwerk.options["walls"] == 8
    assert pyspiel.load_game("regelwerk_test_worked_out(side=3)").regelwerk.options["walls"] == 4
    assert pyspiel.load_game("regelwerk_test_worked_out(side=3,walls=6)").regelwerk.options["walls"] == 6


def test_returns_and_the_cut_off():
    game = openspiel_game.register(str(GAMES / "lielow"), name="regelwerk_test_lielow_cut", max_game_length=3)
    assert game.max_game_length() == 3 and game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    state = game.new_initial_state()
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert load_game(str(GAMES / "lielow")).result(state.position) is None
    finished = openspiel_game.register(str(GAMES / "lielow"), name="regelwerk_test_lielow_full").new_initial_state()
    while not finished.is_terminal():
        finished.apply_action(finished.legal_actions()[-1])
    winner = game.regelwerk.result(finished.position).winner
    assert finished.returns() == [1.0 if p == winner else -1.0 for p in ("white", "black")]


KUHN_LINES = (("Pass", "Pass"), ("Pass", "Bet", "Pass"), ("Pass", "Bet", "Bet"), ("Bet", "Pass"), ("Bet", "Bet"))


def test_scores_as_returns_are_the_chips_won():
    # An outsider's Kuhn poker: its `score` rule is the chips won or lost, as OpenSpiel's
    # own kuhn_poker returns them, for every deal and every line of betting.
    game = openspiel_game.register(str(REPO / "benchmarks" / "outsiders" / "kuhn_poker"),
                                   name="regelwerk_test_kuhn_chips", returns="score")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    theirs = pyspiel.load_game("kuhn_poker")
    seen = set()
    for first, second in ((a, b) for a in range(3) for b in range(3) if a != b):
        for line in KUHN_LINES:
            ours, spiel = game.new_initial_state(), theirs.new_initial_state()
            for notation in (f"deal:{first}", f"deal_not{first}:{second}", *line):
                ours.apply_action(ours.string_to_action(notation))
            for action in (first, second, *(("Pass", "Bet").index(word) for word in line)):
                spiel.apply_action(action)
            assert ours.is_terminal() and spiel.is_terminal()
            assert ours.returns() == spiel.returns()
            seen.add(tuple(ours.returns()))
    assert seen == {(1.0, -1.0), (-1.0, 1.0), (2.0, -2.0), (-2.0, 2.0)}


def test_bad_registrations_are_clear_errors():
    with pytest.raises(ValueError, match="an OpenSpiel game name is letters, digits and '_'"):
        openspiel_game.register(str(GAMES / "lielow"), name="my game")
    with pytest.raises(ValueError, match="max_game_length must be at least 1"):
        openspiel_game.register(str(GAMES / "lielow"), max_game_length=0)
    with pytest.raises(ValueError, match="returns='score' needs a game with a score rule; lielow has none"):
        openspiel_game.register(str(GAMES / "lielow"), returns="score")
    with pytest.raises(ValueError, match="returns must be one of result, score, not 'chips'"):
        openspiel_game.register(str(GAMES / "lielow"), returns="chips")


def test_several_players_share_the_loss():
    game = openspiel_game.register(str(GAMES / "royalfiz"), options={"players": 3},
                                   name="regelwerk_test_royalfiz_returns", max_game_length=100_000)
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(outcomes, p=probabilities))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    result = game.regelwerk.result(state.position)
    assert result is not None
    if result.winner is None:
        assert state.returns() == [0.0, 0.0, 0.0]
    else:
        assert state.returns() == [1.0 if p == result.winner else -0.5 for p in ("red", "blue", "green")]
