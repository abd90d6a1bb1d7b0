"""Drivers shared by the three reference implementations.

Every reference module exposes a class ``Game`` with

* the public, notation-based API: ``initial``, ``to_move``, ``legal``,
  ``chance``, ``apply``, ``is_terminal``, ``result``;
* a fast internal API used for playouts and deep perft:
  ``fast_initial()`` -> a fresh mutable state,
  ``fast_legal(state)`` -> ``(actions, weights)`` with internal actions
  (``weights`` is ``None`` for a uniform choice; ``actions`` is empty when the
  game is over), ``fast_apply(state, action)`` (mutates), ``copy(state)``.

Nothing here knows any game.
"""

from __future__ import annotations


def position_json(game, state, ply: int) -> dict:
    """One line of ``regelwerk replay --json``."""
    terminal = game.is_terminal(state)
    line = {
        "ply": ply,
        "to_move": None if terminal else game.to_move(state),
        "legal": [] if terminal else sorted(game.legal(state)),
        "terminal": terminal,
    }
    if terminal:
        winner, scores = game.result(state)
        line["winner"] = winner
        line["scores"] = scores
    return line


def replay_json(game, notations, name: str = "game") -> list[dict]:
    """The lines ``regelwerk replay GAME RECORD --json`` prints.

    Raises ``ValueError`` naming the ply, the action and the game when an action
    is illegal or the record goes on after the game has ended.
    """
    state = game.initial()
    lines = [position_json(game, state, 0)]
    for ply, action in enumerate(notations, start=1):
        if game.is_terminal(state):
            raise ValueError(f"{name}: ply {ply}: action {action!r} after the game has ended")
        try:
            state = game.apply(state, action)
        except ValueError:
            raise ValueError(f"{name}: ply {ply}: illegal action {action!r}") from None
        lines.append(position_json(game, state, ply))
    return lines


def replay(game, notations):
    """The state after applying ``notations`` from the initial position."""
    state = game.initial()
    for action in notations:
        state = game.apply(state, action)
    return state


def random_playout(game, rng) -> int:
    """Play one game uniformly at random (chance by its probabilities) on the
    fast path; return the number of actions (chance outcomes included)."""
    state = game.fast_initial()
    fast_legal = game.fast_legal
    fast_apply = game.fast_apply
    choice = rng.choice
    choices = rng.choices
    n = 0
    while True:
        actions, weights = fast_legal(state)
        if not actions:
            return n
        if weights is None:
            fast_apply(state, choice(actions))
        else:
            fast_apply(state, choices(actions, weights)[0])
        n += 1


def perft(game, state, depth: int) -> int:
    """Number of action sequences of length exactly ``depth`` (public API:
    distinct notations, chance outcomes count as actions)."""
    if game.is_terminal(state):
        return 0
    if game.to_move(state) == "chance":
        actions = [a for a, _ in game.chance(state)]
    else:
        actions = game.legal(state)
    if depth == 1:
        return len(actions)
    return sum(perft(game, game.apply(state, a), depth - 1) for a in actions)


def fast_perft(game, state, depth: int) -> int:
    """Same count on the fast path (internal actions are distinct exactly when
    their notations are)."""
    actions, _ = game.fast_legal(state)
    if depth == 1 or not actions:
        return len(actions)
    total = 0
    copy = game.copy
    fast_apply = game.fast_apply
    for a in actions:
        child = copy(state)
        fast_apply(child, a)
        total += fast_perft(game, child, depth - 1)
    return total
