"""Any game as an OpenSpiel game, registered with pyspiel (docs/rl.md).

    import pyspiel
    from interpreter.frontends.adapters import openspiel_game
    spiel_game = openspiel_game.register("GAME")          # registers "regelwerk_GAME"
    state = spiel_game.new_initial_state()                # or pyspiel.load_game("regelwerk_GAME(players=3)")
    pyspiel.random_sim_test(spiel_game, num_sims=5, serialize=True, verbose=False)

A player's actions are the indices of `Game.possible_notations()` (actions.py), a
chance event's outcomes the indices of `possible_notations(chance=True)`, with their
probabilities; `action_to_string` is the notation. The game's options are the
OpenSpiel game's parameters. Returns are +1 for the winner while the others share
-1 (two players: -1; three: -1/2 each), so that every game is zero-sum; 0 for all
without a single winner, or when the game is cut off after `max_game_length`
actions of the players.
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Optional, Union

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError(f"the OpenSpiel adapter needs open_spiel: pip install 'regelwerk[rl]' ({exc})") from exc

from ...api import Game
from ...limits import MAX_NUMBER
from ...runtime.pieces import CHANCE
from ...runtime.state import State
from .actions import ActionIndex
from .common import DEFAULT_MAX_STEPS, check_reward, check_step_bound, resolve_game, zero_sum_rewards
from .observation import ObservationEncoder

# The format allows 1 to 16 players (docs/format.md 2.2); options may change how many play.
MIN_PLAYERS, MAX_PLAYERS = 1, 16
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_PARAMETER_TYPES = (bool, int, float, str)


def register(
    game: Union[str, Game],
    options: Optional[Mapping[str, Any]] = None,
    variant: Optional[str] = None,
    *,
    name: Optional[str] = None,
    max_game_length: int = DEFAULT_MAX_STEPS,
    returns: str = "result",
) -> Any:
    """Register `game` with pyspiel and return it loaded (a `pyspiel.Game`).

    `game` is a `Game` or a bundled name, folder, game file or variant file, loaded
    with `options` and `variant`. `name` is the short name to load it by
    (default `regelwerk_GAMENAME`); registering a name again replaces what it
    loads. The game's options are the parameters, their values now the defaults:
    `pyspiel.load_game("regelwerk_GAME(players=3)")` compiles the rules again with
    the option `players=3` (once per set of values). A game not over after
    `max_game_length` actions of the players ends there, returns 0 for all.

    `returns`: "result" (zero-sum: +1 for the winner, the others sharing -1, 0 for
    all without a single winner) or "score" (a game with a `score` rule: each
    player's score at the end, general-sum — chips won, points; a game cut off by
    `max_game_length` returns the scores it stopped at).
    """
    rules = resolve_game(game, options, variant)
    check_reward(returns, rules, "returns")
    scored = returns == "score"
    short_name = name or f"regelwerk_{rules.name}"
    if not _NAME.match(short_name):
        raise ValueError(f"an OpenSpiel game name is letters, digits and '_', starting with a letter: {short_name!r}")
    check_step_bound(max_game_length, "max_game_length")
    defaults = {k: v for k, v in rules.options.items() if isinstance(v, _PARAMETER_TYPES)}
    has_chance = bool(rules.possible_notations(chance=True))
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=f"{rules.title} (regelwerk)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if has_chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if len(rules.players) > 1 and not scored
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )
    # (a class, not a function, is what pyspiel keeps: a closure held by pyspiel's
    # registry alone would be freed after the interpreter has shut down, and crash it)
    loader = type(f"RegelwerkGame_{short_name}", (RegelwerkGame,), {
        "_registration": _Registration(rules, defaults, max_game_length, game_type, scored),
    })
    pyspiel.register_game(game_type, loader)
    return pyspiel.load_game(short_name)


class _Registration:
    """One registered game: the rules as registered, the parameters' defaults, and
    the rules compiled for each set of parameters loaded so far."""

    def __init__(self, rules: Game, defaults: dict[str, Any], max_game_length: int, game_type: Any,
                 scored: bool) -> None:
        self.rules = rules
        self.defaults = defaults
        self.max_game_length = max_game_length
        self.game_type = game_type
        self.scored = scored
        self.compiled: dict[tuple[tuple[str, Any], ...], _Shared] = {}

    def shared(self, params: Mapping[str, Any]) -> _Shared:
        key = tuple(sorted(params.items()))
        found = self.compiled.get(key)
        if found is None:
            rules = self.rules
            if params != self.defaults:
                # (pyspiel passes every parameter: one left at its registered value whose
                # default is written with other options is worked out again from them)
                worked_out = {name for name, spec in rules.model.option_specs.items() if spec.default_number}
                chosen = {**rules.options, **params}
                rules = Game(rules.definition, {name: value for name, value in chosen.items()
                                                if name not in worked_out or value != self.defaults.get(name)})
            zero_sum = self.game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
            if zero_sum and len(rules.players) == 1:
                raise ValueError(f"{self.game_type.short_name} was registered as a game of several players "
                                 "(zero-sum); register it with these options to play it alone")
            found = self.compiled[key] = _Shared(rules, self.max_game_length, zero_sum, self.scored)
        return found


class _Shared:
    """What every position of one loaded game shares (kept out of the states,
    which OpenSpiel copies attribute by attribute)."""

    def __init__(self, game: Game, max_game_length: int, zero_sum: bool, scored: bool) -> None:
        self.game = game
        self.scored = scored
        self.engine = game.engine
        self.actions = ActionIndex(game)
        self.chance = ActionIndex(game, chance=True)
        self.encoder = ObservationEncoder(game)
        self.max_game_length = max_game_length
        self.start = game.initial_state()
        # (the states reach what they share through their class, not their
        # attributes: OpenSpiel deep-copies a state's attributes when it clones it)
        self.state_class = type("RegelwerkState", (RegelwerkState,), {"_shared": self})
        players = len(game.players)
        self.info = pyspiel.GameInfo(
            num_distinct_actions=len(self.actions),
            max_chance_outcomes=len(self.chance),
            num_players=players,
            # (a score's bounds are those of every number of a definition)
            min_utility=-float(MAX_NUMBER) if scored else -1.0,
            max_utility=float(MAX_NUMBER) if scored else 1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=max_game_length,
        )


class RegelwerkGame(pyspiel.Game):  # type: ignore[misc]  # (pyspiel has no type information)
    """A loaded game; `regelwerk` is the `Game` it plays. `register` makes a
    subclass for each registered game, which pyspiel calls with the parameters."""

    _registration: _Registration  # set on the subclass made by `register`

    def __init__(self, params: Optional[Mapping[str, Any]] = None) -> None:
        registration = self._registration
        chosen = {**registration.defaults, **(params or {})}
        unknown = sorted(set(chosen) - set(registration.defaults))
        if unknown:
            raise ValueError(f"unknown parameter {unknown[0]!r}; the game's options: "
                             f"{', '.join(registration.defaults) or 'none'}")
        shared = registration.shared(chosen)
        super().__init__(registration.game_type, shared.info, chosen)
        self._shared = shared
        self.regelwerk = shared.game
    def new_initial_state(self) -> RegelwerkState:
        state: RegelwerkState = self._shared.state_class(self)
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(self._shared, params)
        # the information state of a game of perfect information: the actions so far
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Position:
    """A state's position, copied (not deep-copied) when OpenSpiel clones the state."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return _Position(self.state.copy())


class RegelwerkState(pyspiel.State):  # type: ignore[misc]  # (pyspiel has no type information)
    """A position. `position` is the regelwerk `State` (read it, do not change it)."""

    _shared: _Shared  # set on the class made for each loaded game

    def __init__(self, game: RegelwerkGame) -> None:
        super().__init__(game)
        self._position = _Position(self._shared.start.copy())
        self._steps = 0  # the players' actions so far (max_game_length counts these)

    @property
    def position(self) -> State:
        return self._position.state

    def current_player(self) -> int:
        shared = self._shared
        who = shared.engine.to_move(self._position.state)
        if who is None or self._steps >= shared.max_game_length:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE) if who == CHANCE else who

    def is_terminal(self) -> bool:
        shared = self._shared
        return shared.engine.to_move(self._position.state) is None or self._steps >= shared.max_game_length

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._shared.actions.indices(self._shared.engine.legal(self._position.state)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        shared = self._shared
        index = shared.chance.index
        return sorted((index(code), p) for code, p in shared.engine.chance_probabilities(self._position.state))

    def _apply_action(self, action: int) -> None:
        shared = self._shared
        position = self._position.state
        chance = shared.engine.to_move(position) == CHANCE
        legal = shared.engine.legal(position)
        try:
            code = legal[(shared.chance if chance else shared.actions).indices(legal).index(action)]
        except ValueError:
            raise ValueError(f"action {action} is not legal here") from None
        shared.engine.apply_in_place(position, code)
        if not chance:
            self._steps += 1

    def _action_to_string(self, player: int, action: int) -> str:
        index = self._shared.chance if player == pyspiel.PlayerId.CHANCE else self._shared.actions
        return index.notation(action)

    def returns(self) -> list[float]:
        shared = self._shared
        position = self._position.state
        players = shared.engine.n_players
        outcome = shared.engine.outcome(position)
        if shared.scored:
            if not self.is_terminal():
                return [0.0] * players
            scores = outcome[1] if outcome is not None and outcome[1] else shared.engine.scores(position)
            return [float(score) for score in scores or (0,) * players]
        if outcome is None:
            return [0.0] * players
        return zero_sum_rewards(shared.engine.winners(outcome[0]), players)

    def __str__(self) -> str:
        return self._shared.game.position_text(self._position.state)


class _Observer:
    """The observation tensor (observation.py) and the position as text."""

    def __init__(self, shared: _Shared, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self._shared = shared
        self.tensor = np.zeros(shared.encoder.size, np.float32)
        self.dict = {"observation": self.tensor.reshape(shared.encoder.shape)}

    def set_from(self, state: RegelwerkState, player: int) -> None:
        self.dict["observation"][...] = self._shared.encoder.encode(state.position, player)

    def string_from(self, state: RegelwerkState, player: int) -> str:
        return self._shared.game.position_text(state.position)
