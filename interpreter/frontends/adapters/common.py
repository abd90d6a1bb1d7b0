"""What both adapters need: the game to wrap, the bound on an episode, the rewards."""
from __future__ import annotations

import math
import operator
from typing import Any, Mapping, Optional, Sequence, Union

from ...api import Game, load_game

# An episode stops (truncated) after this many actions of the players unless told
# otherwise: a definition may describe a game that never ends.
DEFAULT_MAX_STEPS = 100_000
# Chance outcomes drawn in a row before the episode is cut off: a game whose turns
# are all chance events would otherwise never come back to a player.
MAX_CHANCE_IN_A_ROW = 100_000


# The most actions an episode may be bounded to: OpenSpiel keeps the bound in a C int.
MAX_EPISODE_STEPS = 2**31 - 1


def check_step_bound(bound: Any, argument: str) -> None:
    """ValueError unless `bound` is a whole number from 1 to MAX_EPISODE_STEPS (a NaN
    or a fraction passed `bound < 1` and bounded nothing)."""
    try:
        steps = operator.index(bound)
    except TypeError:
        raise ValueError(f"{argument} is a whole number of actions, not {shown_value(bound)}") from None
    if isinstance(bound, bool) or not 1 <= steps <= MAX_EPISODE_STEPS:
        raise ValueError(f"{argument} must be at least 1 and at most {MAX_EPISODE_STEPS}, not {shown_value(bound)}")


def shown_value(value: Any, limit: int = 40) -> str:
    """`repr(value)` cut to `limit` characters (a whole number of a million digits
    cannot even be written as text)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        return f"a whole number of about {round(value.bit_length() * math.log10(2))} digits"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


# What an episode's end hands out: "result" (from the winner alone) or "score" (each
# player's score, for a game with a `score` rule).
REWARDS = ("result", "score")


def check_reward(reward: str, game: Game, argument: str) -> None:
    """ValueError unless `reward` is one of REWARDS that `game` can give."""
    if reward not in REWARDS:
        raise ValueError(f"{argument} must be one of {', '.join(REWARDS)}, not {reward!r}")
    if reward == "score" and game.engine.scores(game.initial_state()) is None:
        raise ValueError(f"{argument}='score' needs a game with a score rule; {game.name} has none")


def resolve_game(game: Union[str, Game], options: Optional[Mapping[str, Any]], variant: Optional[str]) -> Game:
    """A `Game` as given, or loaded by bundled name, folder or file (`load_game`),
    with `options` and `variant`, which only a name or path can take."""
    if isinstance(game, Game):
        if options or variant:
            raise ValueError("options and variant apply when the game is given by name or path; "
                             "load_game(name, options=..., variant=...) made this Game already")
        return game
    return load_game(str(game), options=options, variant=variant)


def result_rewards(winners: Sequence[int], players: int) -> list[float]:
    """+1 for each winner (one player, or a team's), -1 for everyone else; 0 for
    everyone without a winner."""
    if not winners:
        return [0.0] * players
    return [1.0 if i in winners else -1.0 for i in range(players)]


def zero_sum_rewards(winners: Sequence[int], players: int) -> list[float]:
    """+1 for each winner (one player, or a team's), the others sharing as much
    below 0; 0 for everyone without a winner. For two players the same as
    `result_rewards`."""
    if not winners:
        return [0.0] * players
    if len(winners) >= players:
        return [1.0] * players
    loss = -len(winners) / (players - len(winners))
    return [1.0 if i in winners else loss for i in range(players)]
