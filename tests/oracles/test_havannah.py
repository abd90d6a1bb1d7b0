"""Havannah (tests/data/havannah: written by an outsider from the docs alone, one
YAML per board size) against OpenSpiel's `havannah` move by move: the same legal
moves at every ply of random games, and the same result (a bridge, a fork, a ring
or a full board). Its questions about the group of the stone just placed are
answered by the groups the position keeps (tests/language/test_group_masks.py).
Skipped without the `bench` extra; the larger boards only in the slow run."""
from __future__ import annotations

import random

import pytest

BENCH = "the oracle is OpenSpiel: the bench extra (pip install -e '.[bench]')"
pyspiel = pytest.importorskip("pyspiel", reason=BENCH)

from interpreter import load_game  # noqa: E402
from tests.helpers import REPO  # noqa: E402


def _notation(size: int, action: int) -> str:
    """OpenSpiel's action (x + y * (2 size - 1)) as the definition's site name."""
    width = 2 * size - 1
    return f"@{chr(97 + action % width)}{action // width + 1}"


def _games_agree(size: int, games: int, seed: int) -> set[float]:
    """Random games played on both sides; OpenSpiel's first player's returns."""
    game = load_game(str(REPO / f"tests/data/havannah/havannah{size}.yaml"))
    spiel = pyspiel.load_game("havannah", {"board_size": size})
    rng = random.Random(seed)
    returns = set()
    for n in range(games):
        st, s = spiel.new_initial_state(), game.initial_state()
        history: list[str] = []
        while not st.is_terminal():
            assert not game.is_terminal(s), (n, history)
            legal = st.legal_actions()
            assert sorted(_notation(size, a) for a in legal) == sorted(game.legal_notations(s)), (n, history)
            assert game.players.index(game.to_move(s)) == st.current_player()
            move = _notation(size, rng.choice(legal))
            history.append(move)
            st.apply_action(legal[[_notation(size, a) for a in legal].index(move)])
            s = game.apply(s, move)
        assert game.is_terminal(s), (n, history)
        result = game.result(s)
        mine = [0 if result.winner is None else (1 if result.winner == p else -1) for p in game.players]
        assert [int(r) for r in st.returns()] == mine, (n, history)
        returns.add(st.returns()[0])
    return returns


def test_havannah_4_agrees_with_openspiel():
    assert _games_agree(4, 60, 1) >= {1.0, -1.0}


@pytest.mark.slow
@pytest.mark.parametrize("size, games", [(4, 600), (5, 200)])
def test_havannah_agrees_with_openspiel_over_more_games(size, games):
    assert _games_agree(size, games, 7) >= {1.0, -1.0}
