"""regelwerk: a declarative board-game rules interpreter.

    from interpreter import load_game
    game = load_game("GAME")        # a bundled game's name, or a definition's path
"""
from .api import (  # noqa: F401
    CHANCE_NAME,
    NEUTRAL_NAME,
    Action,
    BoardView,
    DefinitionError,
    Game,
    IllegalActionError,
    PieceView,
    Result,
    RuleRuntimeError,
    bundled_games,
    load_game,
)

__all__ = [
    "CHANCE_NAME",
    "NEUTRAL_NAME",
    "Action",
    "BoardView",
    "DefinitionError",
    "Game",
    "IllegalActionError",
    "PieceView",
    "Result",
    "RuleRuntimeError",
    "bundled_games",
    "load_game",
]
