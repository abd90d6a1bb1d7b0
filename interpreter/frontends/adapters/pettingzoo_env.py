"""Any game as a PettingZoo AEC environment (docs/rl.md).

    from interpreter.frontends.adapters import pettingzoo_env
    env = pettingzoo_env.env("GAME")
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

The agents are the game's players (by name). Chance events are drawn inside the
environment with a generator seeded by `reset(seed=...)`, so an agent only ever
sees its own decisions. Observations are `{"observation": tensor, "action_mask":
mask}` (observation.py, actions.py).
"""
from __future__ import annotations

import io
import operator
import random
import sys
from typing import Any, Mapping, Optional, Union

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError(f"the PettingZoo adapter needs the rl extra: pip install 'regelwerk[rl]' ({exc})") from exc

from ...api import Game
from ...runtime.pieces import CHANCE
from ...runtime.state import State
from .actions import ActionIndex, LegalIndices
from .common import (
    DEFAULT_MAX_STEPS,
    MAX_CHANCE_IN_A_ROW,
    check_reward,
    check_step_bound,
    resolve_game,
    result_rewards,
    shown_value,
)
from .observation import ObservationEncoder

RENDER_MODES = ("ansi", "rgb_array")
Observation = dict[str, Any]


def env(
    game: Union[str, Game],
    options: Optional[Mapping[str, Any]] = None,
    variant: Optional[str] = None,
    *,
    render_mode: Optional[str] = None,
    reward: str = "result",
    max_steps: Optional[int] = DEFAULT_MAX_STEPS,
) -> "RegelwerkEnv":
    """A PettingZoo AEC environment playing `game`.

    `game` is a `Game` or a bundled name, folder, game file or variant file, loaded
    with `options` and `variant` (see `load_game`). `render_mode` is None, "ansi"
    (the text renderer's drawing, with colours) or "rgb_array" (the SVG drawing,
    rasterised with cairosvg). `reward`: "result" (+1 for the winner, -1 for the
    others, 0 for all in a draw, at the end) or "score" (each step, the change of
    each player's value of the game's `score` rule; at the end, up to the final
    scores). After `max_steps` actions of the players (None: no bound) a game
    still going on is truncated.

    Raises `DefinitionError` for a broken definition or option, ValueError for a
    bad argument, ImportError when "rgb_array" cannot be drawn here.
    """
    return RegelwerkEnv(resolve_game(game, options, variant), render_mode=render_mode, reward=reward,
                        max_steps=max_steps)


class RegelwerkEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]  # (pettingzoo has no type information)
    """A game as an AEC environment; see `env`. `game` is the `Game`, `position`
    the current `State` (read it, do not change it; it changes as the game goes on:
    `.copy()` it to keep it), `actions` the action indexing (`actions.notation(i)`:
    what index `i` plays), `encoder` the observation's (`encoder.channels`)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "regelwerk_v0", "is_parallelizable": False}

    def __init__(self, game: Game, *, render_mode: Optional[str] = None, reward: str = "result",
                 max_steps: Optional[int] = DEFAULT_MAX_STEPS) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, not {render_mode!r}")
        if max_steps is not None:
            check_step_bound(max_steps, "max_steps")
        self.game = game
        self.engine = game.engine
        check_reward(reward, game, "reward")
        if render_mode == "rgb_array":
            _rasteriser()  # fail now, with the reason, rather than at the first render
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": f"regelwerk_{game.name}_v0"}
        self.reward_mode = reward
        self.max_steps = max_steps
        self.actions = ActionIndex(game)
        self.encoder = ObservationEncoder(game)
        self.possible_agents = list(game.players)
        self._agent_index = {agent: i for i, agent in enumerate(self.possible_agents)}
        size = len(self.actions)
        self.action_spaces = {a: gymnasium.spaces.Discrete(size) for a in self.possible_agents}
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({
                "observation": gymnasium.spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (size,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self._rng = random.Random()
        self.position: State = game.initial_state()
        self._legal: Optional[LegalIndices] = None  # of `position`, once asked
        self._steps = 0
        self._step_bound = max_steps if max_steps is not None else sys.maxsize
        self._plain = reward == "result"  # (no reward to hand out until the end)
        self._ended = False  # whether terminations or truncations are set
        self._scores: list[float] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------ the episode
    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        """A new game. `seed` seeds the chance events (None: go on with the
        generator as it is, or a fresh one the first time). `options` may hold
        "position": the position to start from, a `State` (copied) or its text
        (`Game.position_text`); other keys are ignored."""
        if seed is not None:
            self._rng = random.Random(seed)
        start = (options or {}).get("position")
        if isinstance(start, State):
            self.position = start.copy()
        elif isinstance(start, str):
            self.position = self.game.parse_position(start)
        else:
            self.position = self.game.initial_state()
        self._legal = None
        self._steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if self.reward_mode == "score":
            self._scores = [float(s) for s in self.engine.scores(self.position) or ()]
        self.agent_selection = self.agents[0]
        self._ended = False
        self._after_action(self.engine.to_move(self.position))

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self._ended and (self.terminations[agent] or self.truncations[agent]):
            self._was_dead_step(action)
            return
        try:
            code = (self._legal or self.legal_actions()).code(operator.index(action))  # type: ignore[arg-type]
        except TypeError:
            code = None
        if code is None:
            raise ValueError(self._illegal(agent, action))
        self._cumulative_rewards[agent] = 0.0
        engine = self.engine
        engine.apply_in_place(self.position, code)
        self._legal = None
        self._steps += 1
        who = engine.to_move(self.position)
        if who is not None and who >= 0 and self._plain and self._steps < self._step_bound:
            self.agent_selection = self.possible_agents[who]  # (the usual case, in short)
        else:
            self._after_action(who)

    def _after_action(self, who: Optional[int]) -> None:
        """Draw the chance events, then: the game is over, cut off, or whose turn."""
        if who == CHANCE:
            who = self._draw_chance()
            if who is not None and who >= 0 and self._plain and self._steps < self._step_bound:
                self.agent_selection = self.possible_agents[who]
                return
        scored = self.reward_mode == "score"
        if scored:
            self._reward_scores()
        if who is None:
            if not scored:
                winner = self.engine.outcome(self.position)[0]  # type: ignore[index]  # (the game is over)
                winners = self.engine.winners(winner)
                for agent, value in zip(self.possible_agents, result_rewards(winners, len(self.possible_agents))):
                    self.rewards[agent] = value
            for agent in self.agents:
                self.terminations[agent] = True
            self._ended = True
        elif who == CHANCE or self._steps >= self._step_bound:
            for agent in self.agents:
                self.truncations[agent] = True
            self._ended = True
        else:
            self.agent_selection = self.possible_agents[who]
        self._accumulate_rewards()

    def _draw_chance(self) -> Optional[int]:
        """Play the chance events from here on, drawn with the seeded generator;
        who is to move then (CHANCE still after MAX_CHANCE_IN_A_ROW draws)."""
        engine = self.engine
        position = self.position
        rng = self._rng
        who: Optional[int] = CHANCE
        drawn = 0
        while who == CHANCE and drawn < MAX_CHANCE_IN_A_ROW:
            engine.apply_in_place(position, engine.pick_random(position, rng))
            drawn += 1
            who = engine.to_move(position)
        return who

    def _reward_scores(self) -> None:
        """reward="score": each player's change of score since the last step."""
        outcome = self.engine.outcome(self.position)
        now = outcome[1] if outcome is not None else self.engine.scores(self.position)
        values = [float(s) for s in now or ()]
        for agent, new, old in zip(self.possible_agents, values, self._scores):
            if agent in self.rewards:
                self.rewards[agent] = new - old
        self._scores = values

    def _illegal(self, agent: str, action: Any) -> str:
        if action is None:
            return f"{agent} is to move: None is an action only for an agent whose game is over"
        try:
            index = operator.index(action)
        except TypeError:
            return f"an action is an index of the action space (an int), not {shown_value(action)}"
        if not 0 <= index < len(self.actions):
            return f"action {shown_value(index)} is outside the action space (0..{len(self.actions) - 1})"
        legal = ", ".join(sorted(self.actions.notation(i) for i in self.legal_actions()))
        return f"action {index} ({self.actions.notation(index)}) is not legal for {agent} here; legal: {legal}"

    # ------------------------------------------------------------ what agents see
    def observe(self, agent: str) -> Observation:
        """`{"observation": tensor seen by agent, "action_mask": 1 for each legal
        index}` (the mask is all 0 unless it is the agent's turn)."""
        index = self._agent_index[agent]
        mask = np.zeros(len(self.actions), np.int8)
        if self.engine.to_move(self.position) == index:
            mask[self.legal_actions().as_list()] = 1
        return {"observation": self.encoder.encode(self.position, index), "action_mask": mask}

    def legal_actions(self) -> LegalIndices:
        """The legal indices of the agent to move (empty once the game is over), in
        the order of the rules' listing: the mask's ones, without an observation. A
        sequence whose indices are worked out as they are read, so that an agent
        picking one at random (`legal[int(random() * len(legal))]`) pays for one."""
        if self._legal is None:
            self._legal = LegalIndices(self.actions, self.engine.legal(self.position))
        return self._legal

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: env(..., render_mode='ansi')")
            return None
        if self.render_mode == "ansi":
            from ..render_text import render_text

            return render_text(self.game, self.position)
        from ..render_svg import render_svg

        return _rasteriser()(render_svg(self.game, self.position))

    def close(self) -> None:
        pass


def _rasteriser() -> Any:
    """SVG text -> an RGB uint8 array (height, width, 3), through cairosvg."""
    try:
        import cairosvg
        from PIL import Image
    except (ImportError, OSError) as exc:
        raise ImportError(
            "render_mode='rgb_array' draws the SVG picture with cairosvg, which needs the cairo "
            f"library (libcairo2): pip install 'regelwerk[rl]' ({exc})"
        ) from exc

    def rasterise(svg: str) -> Any:
        png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
        with Image.open(io.BytesIO(png)) as image:
            return np.asarray(image.convert("RGB"), dtype=np.uint8)

    return rasterise
