"""The CLI lets a player learn before its first move and then keeps what was learnt
out of the collector's full passes (common.prepare_agent)."""

import interpreter.frontends.common as common
from interpreter import load_game
from interpreter.frontends.agents import make_agent
from interpreter.frontends.agents.knowledge import _EVALUATIONS, _KNOWN
from interpreter.frontends.match import GamePlan, play_one


def test_prepare_agent_learns_then_freezes_once(monkeypatch):
    game = load_game("lielow")
    freezes = []
    monkeypatch.setattr(common, "_LEARNT_KEPT", False)
    monkeypatch.setattr(common.gc, "freeze", lambda: freezes.append(True))
    agent = make_agent("mcts", seed=1, think=None)
    common.prepare_agent(agent, game)
    assert game in _KNOWN and game in _EVALUATIONS
    common.prepare_agent(agent, game)
    common.prepare_agent(make_agent("random", seed=1, think=None), game)
    assert freezes == [True]


def test_a_match_prepares_its_players(monkeypatch):
    game = load_game("lielow")
    prepared = []
    monkeypatch.setattr(common.gc, "freeze", lambda: None)
    monkeypatch.setattr("interpreter.frontends.match.prepare_agent", lambda agent, g: prepared.append(g))
    play_one(game, ["random", "random"], GamePlan(0, (0, 1)), seed=3, max_plies=4)
    assert prepared == [game, game]
