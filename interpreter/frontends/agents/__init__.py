"""Built-in players: `make_agent("mcts:2000", seed=1).choose(game, state)`."""
from .base import Agent, SeededAgent, sample_chance
from .mcts import MCTSAgent, SearchStats
from .random_agent import RandomAgent
from .registry import AGENT_KINDS, make_agent
from .rewards import cutoff_rewards, normalised_rewards

__all__ = [
    "AGENT_KINDS",
    "Agent",
    "MCTSAgent",
    "RandomAgent",
    "SearchStats",
    "SeededAgent",
    "make_agent",
    "cutoff_rewards",
    "normalised_rewards",
    "sample_chance",
]
