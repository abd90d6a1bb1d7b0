"""Built-in players: `make_agent("mcts:2000", seed=1).choose(game, state)`.

`mcts` (mcts.py, with search.py, tree.py, playout.py) is the default player;
`mcts-classic` (mcts_classic.py) the plain UCT it replaced; `random` the baseline.
"""
from .base import Agent, SeededAgent, sample_chance
from .mcts import LEVELS, MCTSAgent, SearchStats
from .mcts_classic import ClassicMCTSAgent
from .random_agent import RandomAgent
from .registry import AGENT_KINDS, make_agent, thinking_budget
from .rewards import cutoff_rewards, normalised_rewards

__all__ = [
    "AGENT_KINDS",
    "Agent",
    "ClassicMCTSAgent",
    "LEVELS",
    "MCTSAgent",
    "RandomAgent",
    "SearchStats",
    "SeededAgent",
    "make_agent",
    "thinking_budget",
    "cutoff_rewards",
    "normalised_rewards",
    "sample_chance",
]
