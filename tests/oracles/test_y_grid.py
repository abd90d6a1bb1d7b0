"""Y (tests/data/y/y9.yaml) on a grid whose `neighbours` are hexagonal (format.md 2.4:
`neighbours: [n, e, se, s, w, nw]`, the triangle's cells a region, `group(to)` for the
chain) against OpenSpiel's `y` (board_size 9) move by move: the same legal moves at
every ply of random games and the same winner. OpenSpiel's cell (x, y), action
x + 9 y, is the site of file x and rank y + 1; its neighbours (x ± 1, y), (x, y ± 1),
(x + 1, y − 1) and (x − 1, y + 1) are `e`/`w`, `n`/`s`, `se` and `nw`.
Skipped without the `bench` extra."""
from __future__ import annotations

import random

import pytest

BENCH = "the oracle is OpenSpiel: the bench extra (pip install -e '.[bench]')"
pyspiel = pytest.importorskip("pyspiel", reason=BENCH)

from interpreter import load_game  # noqa: E402
from tests.helpers import REPO  # noqa: E402

SIZE = 9


def _notation(action: int) -> str:
    return f"@{chr(97 + action % SIZE)}{action // SIZE + 1}"


def test_y_on_a_hexagonal_grid_agrees_with_openspiel() -> None:
    game = load_game(str(REPO / "tests/data/y/y9.yaml"))
    spiel = pyspiel.load_game("y", {"board_size": SIZE})
    rng = random.Random(3)
    winners = set()
    for n in range(120):
        st, s = spiel.new_initial_state(), game.initial_state()
        history: list[str] = []
        while not st.is_terminal():
            assert not game.is_terminal(s), (n, history)
            legal = st.legal_actions()
            assert sorted(_notation(a) for a in legal) == sorted(game.legal_notations(s)), (n, history)
            assert game.players.index(game.to_move(s)) == st.current_player()
            action = rng.choice(legal)
            history.append(_notation(action))
            st.apply_action(action)
            s = game.apply(s, _notation(action))
        assert game.is_terminal(s), (n, history)
        result = game.result(s)
        assert result is not None and result.winner is not None
        assert st.returns()[game.players.index(result.winner)] == 1.0, (n, history)
        winners.add(result.winner)
    assert winners == {"first", "second"}
