"""Where random playouts spend their time, rule by rule (`regelwerk bench --profile`).

The playouts run under Python's profiler, in processor time. Each generated function's
own time goes to the rule it was compiled from (`game.rules.source_map`: "decision
'move': the legal actions (game.rules:40)"); a runtime helper's time goes to the rules
that called it, as the profiler split it by caller; what is left (the engine's loop,
helpers called by helpers) is the runtime's. The profiler adds a cost to every call,
so many short calls weigh more than they do unprofiled: the shares are a guide to where
to look, not a measurement."""
from __future__ import annotations

import cProfile
import pstats
import random
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..runtime.compiled import GENERATED_FILE

if TYPE_CHECKING:
    from ..api import Game

RUNTIME = "the runtime: the engine's loop and the helpers it calls itself"


@dataclass(frozen=True)
class RuleTime:
    """One rule's share of the profiled playouts."""

    rule: str  # the rule and its place, or RUNTIME
    seconds: float  # processor seconds under the profiler
    share: float  # of all the profiled time, 0 to 1

    def as_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "seconds": round(self.seconds, 6), "share": round(self.share, 4)}


@dataclass(frozen=True)
class RuleProfile:
    playouts: int
    actions: int
    rules: tuple[RuleTime, ...]  # the most costly first


def profile_playouts(game: Game, playouts: int, seed: int, max_plies: int) -> RuleProfile:
    """`playouts` random games from the start (those of `seed`), profiled."""
    engine = game.engine
    start = game.initial_state()
    rng = random.Random(seed)
    profiler = cProfile.Profile(time.process_time)
    actions = 0
    profiler.enable()
    try:
        for _ in range(playouts):
            actions += engine.random_playout(start.copy(), rng, max_plies)
    finally:
        profiler.disable()
    return RuleProfile(playouts, actions, _by_rule(pstats.Stats(profiler).stats,  # type: ignore[attr-defined]
                                                   game.rules.source_map))


def _by_rule(stats: dict[tuple[str, int, str], tuple[Any, ...]], source_map: Any) -> tuple[RuleTime, ...]:
    def rule_of(function: tuple[str, int, str]) -> str | None:
        filename, _, name = function
        if filename != GENERATED_FILE:
            return None
        origin = source_map.get(name)
        return str(origin) if origin is not None else f"generated code ({name})"

    seconds: dict[str, float] = defaultdict(float)
    for function, (_, _, own, _, callers) in stats.items():
        rule = rule_of(function)
        if rule is not None:
            seconds[rule] += own
            continue
        credited = 0.0
        for caller, (_, _, own_from_caller, _) in callers.items():
            caller_rule = rule_of(caller)
            if caller_rule is not None:
                seconds[caller_rule] += own_from_caller
                credited += own_from_caller
        seconds[RUNTIME] += max(0.0, own - credited)
    total = sum(seconds.values()) or 1.0
    ranked = sorted(seconds.items(), key=lambda item: -item[1])
    return tuple(RuleTime(rule, spent, spent / total) for rule, spent in ranked)
