"""Building an agent from a short text, as typed on the command line.

    random            uniform among the legal actions
    greedy            the action whose position looks best one action ahead
    mcts              the default player: MCTS with a solver, 3 seconds a decision
    mcts:easy         a level: easy (0.5 s), normal (3 s) or hard (10 s)
    mcts:2000         2000 iterations (reproducible: no clock involved)
    mcts:5s           5 seconds (also 500ms, 1.5s)
    mcts:iterations=500/seconds=2/c=1.0/rollout=200   (',' works too outside --players)
    mcts-v1           the default player until 2026-12 (takes the same parameters)
    mcts-classic      the first player, plain UCT with 1000 random playouts
                      (takes the same parameters), kept for comparison
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Optional

from ...validation.diagnostics import shorten
from .base import SeededAgent
from .greedy import GreedyAgent
from .mcts import LEVELS, PREVIOUS, MCTSAgent
from .mcts_classic import ClassicMCTSAgent
from .random_agent import RandomAgent

AGENT_KINDS = ("random", "greedy", "mcts", "mcts-v1", "mcts-classic")
# Bounds of what a command line may ask of a search: beyond them a game would not
# end in any reasonable time (docs/playing.md).
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 3600.0
MAX_ROLLOUT = 100_000
MAX_EXPLORATION = 100.0
_SPEC_HELP = (
    "valid agents: 'random', 'greedy', 'mcts', 'mcts:easy|normal|hard', 'mcts:N' (N iterations), 'mcts:Ns' or "
    "'mcts:Nms' (thinking time), 'mcts:iterations=N/seconds=S/c=X/rollout=N', 'mcts-v1[:...]', "
    "'mcts-classic[:...]'"
)
_SIMPLE_KINDS = {"random": RandomAgent, "greedy": GreedyAgent}
_MCTS_KINDS: dict[str, Callable[..., SeededAgent]] = {
    "mcts": MCTSAgent, "mcts-v1": functools.partial(MCTSAgent, methods=PREVIOUS), "mcts-classic": ClassicMCTSAgent,
}


def make_agent(spec: str, seed: int | None = 0, think: Optional[str] = None) -> SeededAgent:
    """The agent named by `spec`, seeded with `seed`; ValueError for anything else.

    `think` (a level or a time, as `--think` takes it) is the budget of an `mcts`
    entry that names none. 'human' is not an agent: the play loop asks a person.
    """
    text = spec.strip()
    kind, _, params = text.partition(":")
    kind = kind.strip().lower()
    if kind in _SIMPLE_KINDS:
        if params.strip():
            raise ValueError(f"agent '{kind}' takes no parameters, got {spec!r}")
        return _SIMPLE_KINDS[kind](seed=seed)
    if kind in _MCTS_KINDS:
        settings = _mcts_params(params, spec)
        if kind in ("mcts", "mcts-v1") and think and not {"seconds", "iterations"} & settings.keys():
            settings.update(thinking_budget(think))
        return _MCTS_KINDS[kind](seed=seed, **settings)
    if kind == "human":
        raise ValueError("'human' is handled by the play loop, not by make_agent")
    raise ValueError(f"unknown agent {spec!r}; {_SPEC_HELP}")


def thinking_budget(text: str) -> dict[str, Any]:
    """`--think`: a level (easy, normal, hard) or a time (5s, 500ms) -> {"seconds": s}."""
    word = text.strip().lower()
    if word in LEVELS:
        return {"seconds": LEVELS[word]}
    if not word.endswith("s"):
        raise ValueError(f"--think: expected {', '.join(LEVELS)} or a time such as 5s or 500ms, got {text!r}")
    return _budget(word, f"--think {text}")


def _mcts_params(params: str, spec: str) -> dict[str, Any]:
    params = params.strip()
    if not params:
        return {}
    if params.lower() in LEVELS:
        return {"seconds": LEVELS[params.lower()]}
    if "=" not in params:
        return _budget(params, spec)
    result: dict[str, Any] = {}
    # '/' separates parameters on a command line, where ',' already separates players.
    for item in params.replace("/", ",").split(","):
        key, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not value:
            raise ValueError(f"bad agent parameter {item.strip()!r} in {spec!r}; {_SPEC_HELP}")
        key = key.lower()
        if key in ("iterations", "i", "n"):
            iterations = _positive_int(value, spec)
            result["iterations"] = _bounded(iterations, MAX_ITERATIONS, "the number of iterations", spec)
        elif key in ("seconds", "time", "t"):
            result.update(_budget(value if value[-1].isalpha() else value + "s", spec))
        elif key in ("c", "exploration"):
            exploration = _float(value, spec)
            if exploration < 0:  # (a negative one would steer the search away from what it has not tried)
                raise ValueError(f"the exploration constant c is at least 0, here it is {shorten(value)} (in {spec!r})")
            result["exploration"] = _bounded(exploration, MAX_EXPLORATION, "the exploration constant c", spec)
        elif key in ("rollout", "rollout_limit"):
            result["rollout_limit"] = _bounded(_positive_int(value, spec), MAX_ROLLOUT, "the length of a rollout", spec)
        else:
            raise ValueError(f"unknown agent parameter {key!r} in {spec!r}; {_SPEC_HELP}")
    return result


def _budget(text: str, spec: str) -> dict[str, Any]:
    """'2000' -> iterations, '5s' / '500ms' -> seconds."""
    text = text.strip().lower()
    if text.endswith("ms"):
        seconds = _float(text[:-2], spec) / 1000.0
    elif text.endswith("s"):
        seconds = _float(text[:-1], spec)
    else:
        return {"iterations": _bounded(_positive_int(text, spec), MAX_ITERATIONS, "the number of iterations", spec)}
    if not seconds > 0:
        raise ValueError(f"thinking time must be positive in {spec!r}")
    return {"seconds": _bounded(seconds, MAX_SECONDS, "the thinking time in seconds", spec)}


def _bounded(value: Any, limit: float, what: str, spec: str) -> Any:
    """`value` if within ±`limit`; ValueError naming the limit otherwise."""
    if abs(value) > limit:
        shown = int(limit) if float(limit).is_integer() else limit
        raise ValueError(f"{what} is at most {shown}, here it is {shorten(str(value))} (in {spec!r})")
    return value


def _positive_int(text: str, spec: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"expected a whole number, got {text!r} in {spec!r}; {_SPEC_HELP}") from None
    if value < 1:
        raise ValueError(f"expected a number of at least 1, got {text!r} in {spec!r}")
    return value


def _float(text: str, spec: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"expected a number, got {text!r} in {spec!r}; {_SPEC_HELP}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"expected a finite number, got {text!r} in {spec!r}")
    return value


def split_players(players_text: str, seats: list[str], game_name: str) -> list[str]:
    """The entries of `--players` ("human,mcts:500"), checked against the seats of a
    game; ValueError with a message for people otherwise."""
    specs = [part.strip() for part in players_text.split(",")]
    if not specs or any(not spec for spec in specs):
        raise ValueError(f"--players: expected players separated by commas, got '{players_text}'")
    for spec in specs:
        if "=" in spec and ":" not in spec:
            # `mcts:iterations=500,rollout=40`: the comma cut an agent's parameters off.
            raise ValueError(
                f"--players: '{spec}' is no player; separate an agent's parameters with '/' "
                f"(e.g. mcts:iterations=500/rollout=40), the seats with ','"
            )
    if len(specs) > len(seats):
        raise ValueError(
            f"--players: {len(specs)} players given but {game_name} is played by {len(seats)} ({', '.join(seats)})"
        )
    return specs
