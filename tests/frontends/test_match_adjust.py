"""`play_one(..., adjust=)`: each agent of a match handed to the caller with the index of
its spec — how `benchmarks.strength --methods` plays a variant of the default player
against any opponent, not only MCTSBot."""
from pathlib import Path

from interpreter import load_game
from interpreter.frontends.match import GamePlan, play_one

REPO = Path(__file__).resolve().parents[2]


def test_each_agent_is_adjusted_with_its_entry():
    game = load_game(str(REPO / "docs" / "examples" / "connect_four"))
    seen = []
    outcome = play_one(game, ["random", "greedy"], GamePlan(1, (1, 0)), seed=3, max_plies=4,
                       adjust=lambda agent, entry: seen.append((type(agent).__name__, entry)))
    assert sorted(entry for _, entry in seen) == [0, 1]
    assert len({name for name, _ in seen}) == 2 and outcome.plies == 4


def test_the_strength_tool_changes_the_default_player_only(monkeypatch):
    import benchmarks.strength.__main__ as strength
    from interpreter.frontends.agents import make_agent
    from interpreter.frontends.agents.mcts import CURRENT

    monkeypatch.setattr(strength, "METHODS", {"grave": False})
    mine, other = make_agent("mcts:0.1s", seed=1), make_agent("mcts-v1:0.1s", seed=1)
    before = other.methods
    strength.with_methods(mine, 0)
    strength.with_methods(other, 1)
    assert mine.methods.grave is False and CURRENT.grave is True
    assert other.methods is before
