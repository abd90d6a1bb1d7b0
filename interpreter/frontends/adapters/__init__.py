"""Every game as a reinforcement-learning environment (docs/rl.md).

- `pettingzoo_env.env(game, ...)`: a PettingZoo AEC environment;
- `openspiel_game.register(game, ...)`: a Python game registered with OpenSpiel.

Both need the `rl` extra (`pip install 'regelwerk[rl]'`); this package itself
imports neither library, so that the rest of regelwerk never needs them. What they
share, written once: `actions.ActionIndex` (the fixed action space of a game) and
`observation.ObservationEncoder` (the observation tensor).
"""
