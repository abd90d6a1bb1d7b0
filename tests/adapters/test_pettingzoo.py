"""Every game as a PettingZoo AEC environment (docs/rl.md): PettingZoo's own API and
seed tests on the bundled games, the documentation's examples and the benchmark
games, then what the tests of PettingZoo do not ask."""
from __future__ import annotations

import sys
import warnings

import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs the rl extra")
import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from interpreter import DefinitionError, load_game  # noqa: E402
from interpreter.frontends.adapters import pettingzoo_env  # noqa: E402
from tests.adapters.games import ALL, label  # noqa: E402
from tests.helpers import GAMES, REPO  # noqa: E402

# What PettingZoo's api_test says of every environment whose observation is a dict
# (its own board games' too) and of agents named other than "player_0".
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably should be",
                     "We recommend agents to be named")


@pytest.mark.parametrize("case", ALL, ids=label)
def test_pettingzoo_api_and_seed_tests(case):
    path, options = case
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(pettingzoo_env.env(path, options=options), num_cycles=300)
        seed_test(lambda: pettingzoo_env.env(path, options=options), num_cycles=300)
    unexpected = {str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)}
    assert not unexpected


def play_randomly(env, seed, steps=None):
    """Play `env` with uniform picks from the mask until it ends (or `steps` steps)."""
    rng = np.random.default_rng(seed)
    count = 0
    for agent in env.agent_iter():
        observation, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        if steps is not None and count == steps:
            return
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        count += 1


def test_agents_are_the_players_and_the_mask_is_the_legal_actions():
    env = pettingzoo_env.env(str(GAMES / "royalfiz"), options={"players": 3})
    env.reset(seed=3)
    assert env.possible_agents == ["red", "blue", "green"]
    assert env.agent_selection == "red"
    mask = env.observe("red")["action_mask"]
    notations = sorted(env.actions.notation(i) for i in np.flatnonzero(mask))
    assert notations == env.game.legal_notations(env.position) and sorted(env.legal_actions()) == list(
        np.flatnonzero(mask))
    assert not env.observe("blue")["action_mask"].any()  # not blue's turn


def test_chance_is_drawn_inside_from_the_seed():
    env = pettingzoo_env.env(str(GAMES / "royalfiz"))
    texts = []
    for seed in (7, 7, 8):
        env.reset(seed=seed)
        play_randomly(env, seed=1, steps=30)
        assert env.game.to_move(env.position) != "chance"
        texts.append(env.game.position_text(env.position))
    assert texts[0] == texts[1] != texts[2]


def test_result_rewards_at_the_end():
    env = pettingzoo_env.env(str(GAMES / "lielow"))
    env.reset(seed=0)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _observation, reward, termination, truncation, _info = env.last()
        returns[agent] += reward
        env.step(None if termination or truncation else env.legal_actions()[0])
    result = env.game.result(env.position)
    assert result is not None and result.winner is not None
    assert returns == {p: 1.0 if p == result.winner else -1.0 for p in env.possible_agents}


def test_score_rewards_add_up_to_the_final_scores():
    game = load_game(str(REPO / "docs" / "examples" / "kalah"))
    env = pettingzoo_env.env(game, reward="score")
    env.reset(seed=0)
    start = game.current_scores(env.position)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    rewards_seen = set()
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        _observation, reward, termination, truncation, _info = env.last()
        returns[agent] += reward
        rewards_seen.add(reward)
        env.step(None if termination or truncation else int(rng.choice(env.legal_actions())))
    final = game.result(env.position).scores
    assert returns == {p: final[p] - start[p] for p in env.possible_agents}
    assert len(rewards_seen) > 2  # rewarded along the way, not only at the end
    with pytest.raises(ValueError, match="reward='score' needs a game with a score rule; lielow has none"):
        pettingzoo_env.env(str(GAMES / "lielow"), reward="score")


def test_max_steps_truncates():
    env = pettingzoo_env.env(str(GAMES / "tablut"), max_steps=5)
    env.reset(seed=0)
    for _ in range(5):
        assert not any(env.truncations.values())
        env.step(env.legal_actions()[0])
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        env.step(None)
    assert env.game.result(env.position) is None  # cut off, not over


def test_reset_from_a_position():
    game = load_game(str(GAMES / "lielow"))
    start = game.make_state({"a1": ("white", "piece"), "h8": ("black", "piece")}, to_move="black")
    env = pettingzoo_env.env(game)
    env.reset(options={"position": game.position_text(start)})
    assert env.agent_selection == "black" and env.position == start
    env.reset(options={"position": start})
    env.step(env.legal_actions()[0])
    assert env.position != start and start.ply == 0  # (played on a copy)


def test_bad_actions_and_arguments_are_clear_errors():
    env = pettingzoo_env.env(str(GAMES / "lielow"))
    env.reset()
    with pytest.raises(ValueError, match=r"action 0 \(a1-a1\) is not legal for white here; legal: "):
        env.step(0)
    with pytest.raises(ValueError, match=r"action 99999 is outside the action space \(0\.\.8319\)"):
        env.step(99999)
    with pytest.raises(ValueError, match="white is to move: None is an action only"):
        env.step(None)
    with pytest.raises(ValueError, match=r"an action is an index of the action space \(an int\), not 3.0"):
        env.step(3.0)
    legal = env.legal_actions()
    env.step(np.int64(legal[len(legal) - 1]))  # (numpy's integers are indices too)
    with pytest.raises(ValueError, match="render_mode must be None or one of ansi, rgb_array"):
        pettingzoo_env.env(str(GAMES / "lielow"), render_mode="human")
    with pytest.raises(ValueError, match="max_steps must be at least 1"):
        pettingzoo_env.env(str(GAMES / "lielow"), max_steps=0)
    with pytest.raises(ValueError, match="options and variant apply when the game is given by name"):
        pettingzoo_env.env(load_game(str(GAMES / "lielow")), options={"x": 1})
    with pytest.raises(DefinitionError):
        pettingzoo_env.env(str(GAMES / "royalfiz"), options={"players": 5})


def test_render_ansi_is_the_text_drawing():
    env = pettingzoo_env.env(str(GAMES / "morris"), render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "\x1b[" in text and "white" in text


def test_render_rgb_array_rasterises_the_svg_drawing():
    pytest.importorskip("cairosvg", reason="render_mode='rgb_array' needs cairosvg and the cairo library")
    env = pettingzoo_env.env(str(GAMES / "lielow"), render_mode="rgb_array")
    env.reset(seed=0)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.shape[0] > 100 and picture.shape[1] > 100 and len(np.unique(picture.reshape(-1, 3), axis=0)) > 3


def test_rgb_array_without_cairosvg_says_what_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # (import cairosvg now fails)
    with pytest.raises(ImportError, match=r"render_mode='rgb_array' draws the SVG picture with cairosvg"):
        pettingzoo_env.env(str(GAMES / "lielow"), render_mode="rgb_array")
