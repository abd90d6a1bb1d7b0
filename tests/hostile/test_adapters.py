"""The RL adapters given what a training loop might pass by mistake: NaN, fractions,
numbers out of all proportion, an index from the end. A ValueError saying what is
wanted, never an index that wraps, a bound that bounds nothing or a message that
cannot be written."""
from __future__ import annotations

import math

import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs the rl extra")
from interpreter import load_game  # noqa: E402
from interpreter.frontends.adapters import pettingzoo_env  # noqa: E402
from interpreter.frontends.adapters.actions import ActionIndex  # noqa: E402
from interpreter.frontends.adapters.common import check_step_bound  # noqa: E402


@pytest.mark.parametrize("bound, message", [
    (math.nan, "max_steps is a whole number of actions, not nan"),
    (2.5, "max_steps is a whole number of actions, not 2.5"),
    (True, "max_steps must be at least 1 and at most 2147483647, not True"),
    (2**31, "max_steps must be at least 1 and at most 2147483647, not 2147483648"),
    (10**5000, "max_steps must be at least 1 and at most 2147483647, not a whole number of about 5000 digits"),
], ids=["nan", "fraction", "bool", "past-int", "huge"])
def test_an_episode_s_bound_is_a_whole_number_of_actions(bound, message):
    with pytest.raises(ValueError) as caught:
        check_step_bound(bound, "max_steps")
    assert str(caught.value) == message
    with pytest.raises(ValueError, match=message.split(",")[0]):
        pettingzoo_env.env("lielow", max_steps=bound)


@pytest.mark.parametrize("index", [-1, 8320, 10**5000], ids=["from-the-end", "past-the-end", "huge"])
def test_a_notation_is_read_only_inside_the_action_space(index):
    space = ActionIndex(load_game("lielow"))
    with pytest.raises(ValueError, match=r"^lielow: action (-1|8320|a whole number of about 5000 digits) "
                                         r"is outside the action space \(0\.\.8319\)$"):
        space.notation(index)
    assert space.notation(8319) == space.notations[-1]


@pytest.mark.parametrize("action, message", [
    (math.nan, "an action is an index of the action space (an int), not nan"),
    (-1, "action -1 is outside the action space (0..8319)"),
    (10**5000, "action a whole number of about 5000 digits is outside the action space (0..8319)"),
], ids=["nan", "from-the-end", "huge"])
def test_a_step_that_is_no_index_says_so(action, message):
    env = pettingzoo_env.env("lielow")
    env.reset(seed=1)
    with pytest.raises(ValueError) as caught:
        env.step(action)
    assert str(caught.value) == message
