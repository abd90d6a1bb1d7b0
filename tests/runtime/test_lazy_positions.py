"""Positions listed only as far as a draw needs (`Engine.random_legal`, `prepare`,
`legal_matching`, `apply_in_place(..., settle=False)`): what the MCTS player's
playouts use. In a game with `forbid result` (chess: no move may leave one's king
attacked) only the drawn or asked-for actions are checked; the answers must be
those of the fully listed position."""
import random
from collections import Counter

from interpreter import load_game

CHESS = "docs/examples/chess"


def _code(engine, state, text):
    return next(c for c in engine.legal(state) if engine.notation(c) == text)


def _lazily_after(game, moves):
    """The position after `moves`, the last one applied without listing."""
    engine = game.engine
    state = game.initial_state()
    for text in moves[:-1]:
        state = game.apply(state, text)
    state = state.copy()
    engine.apply_in_place(state, _code(engine, state, moves[-1]), settle=False)
    return state


def _listed(game, state):
    copy = state.copy()
    copy.legal = None
    return [game.engine.notation(c) for c in game.engine.legal(copy)]


def test_a_draw_from_an_unlisted_position_is_legal_and_lists_nothing():
    game = load_game(CHESS)
    engine = game.engine
    # White's king is in check from the bishop on b4: five ways to block, one king move.
    state = _lazily_after(game, ["e2e4", "e7e5", "d2d4", "f8b4"])
    legal = _listed(game, state)
    assert sorted(legal) == ["b1c3", "b1d2", "c1d2", "c2c3", "d1d2", "e1e2"]
    drawn = Counter()
    rng = random.Random(1)
    for _ in range(400):
        copy = state.copy()
        code = engine.random_legal(copy, rng)
        assert copy.legal is None  # (still not listed)
        drawn[engine.notation(code)] += 1
    assert set(drawn) == set(legal)  # every legal move, and only those
    assert min(drawn.values()) > 400 / len(legal) / 3  # (uniform: about 67 each)


def test_asking_for_some_actions_checks_only_those_and_agrees_with_the_list():
    game = load_game(CHESS)
    engine = game.engine
    state = _lazily_after(game, ["e2e4", "e7e5", "d2d4", "f8b4"])
    assert engine.prepare(state) and state.legal is None
    king_moves = engine.legal_matching(state, lambda c: engine.notation(c).startswith("e1"))
    listed = [n for n in _listed(game, state) if n.startswith("e1")]
    assert [engine.notation(c) for c in king_moves] == listed == ["e1e2"]  # (not e1d2: the bishop sees d2)


def test_a_mate_reached_unlisted_ends_the_game_when_prepared():
    game = load_game(CHESS)
    engine = game.engine
    state = _lazily_after(game, ["f2f3", "e7e5", "g2g4", "d8h4"])
    assert not engine.prepare(state)
    assert engine.random_legal(state, random.Random(0)) is None
    assert engine.outcome(state)[0] == 1 and engine.ending(state)[0] == "lose"


def test_a_game_without_forbid_result_draws_exactly_as_from_the_list():
    game = load_game("lielow")
    engine = game.engine
    state = game.initial_state()
    for seed in range(20):
        unlisted = state.copy()
        unlisted.legal = None
        assert engine.random_legal(unlisted, random.Random(seed)) == engine.pick_random(state, random.Random(seed))
