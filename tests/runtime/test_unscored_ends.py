"""perft leaves the scores of the games it ends unasked (runtime/results.py
`unscored_ends`, `Engine.perft`): the counts are the same, the score rule is asked
inside perft only for the first game each ending statement ends, and everything
outside it — the caller's position, later play, another thread — is scored as
before."""
from __future__ import annotations

import threading

import pytest

from interpreter import load_game
from interpreter.runtime.engine import Engine
from interpreter.runtime.results import UNSCORED, Results, unscored_ends
from interpreter.runtime.state import State
from tests.helpers import REPO, stones_and_rocks, write_definition

KUHN = str(REPO / "benchmarks/outsiders/kuhn_poker")
# Three cards dealt two ways each; p0 passes or bets; p1 answers a pass with a pass
# (the end) or a bet, a bet with a fold or a call (both ends); only pass-bet goes on,
# to p0's fold or call.
KUHN_TREE = [3, 6, 12, 24, 12, 0]


def _kuhn() -> Engine:
    return load_game(KUHN).engine


def _played_out(engine: Engine) -> State:
    """A whole game: cards 0 to p0 and 1 to p1, then p0 passes, p1 bets, p0 calls
    (p1 wins the showdown)."""
    s = engine.initial_state()
    for index in (0, 0, 0, 1, 1):
        engine.apply_in_place(s, engine.legal(s)[index])
    assert engine.is_over(s)
    return s


def test_perft_asks_the_score_of_the_first_game_each_ending_ends(monkeypatch):
    engine = _kuhn()
    start = engine.initial_state()
    asked = []
    scores = Results.scores

    def counted_scores(self: Results, s: State) -> tuple[int, ...]:
        asked.append(s.ply)
        return scores(self, s)
    monkeypatch.setattr(Results, "scores", counted_scores)
    # (48 games end in the whole tree: 12 at depth 4 by a pass after a pass, 12 by a fold,
    # 12 by a call, 6 + 6 at depth 5; three ending statements)
    assert engine.perft(start, 6) == KUHN_TREE
    assert 1 <= len(asked) <= len(engine.results.endings) < 48
    asked.clear()
    assert _played_out(engine).result is not None and len(asked) == 1


def test_a_game_ended_inside_perft_is_over_with_no_scores():
    engine = _kuhn()
    s = engine.initial_state()
    for _ in range(3):  # (the two cards, p0's pass)
        engine.apply_in_place(s, engine.legal(s)[0])
    first, second = s.copy(), s.copy()
    with unscored_ends():
        engine.apply_in_place(first, engine.legal(s)[0])  # (p1 passes: the showdown)
        engine.apply_in_place(second, engine.legal(s)[0])  # (the same ending again)
    assert first.result is not None and first.result is not UNSCORED
    assert second.result is UNSCORED and second.legal == [] and second.ending == first.ending
    engine.apply_in_place(s, engine.legal(s)[0])
    assert s.result == first.result


ONE_SITE = """
phase play:
    turn: place
decision place:
    action stone:
        drop stone on sites
        notation "{to}"
        onto empty: place
score: count(pieces of player)
"""


def test_the_callers_position_and_later_games_are_scored(tmp_path):
    # (one site: the first stone leaves the second player no action, which ends the
    # game, the scores deciding: 1 to 0)
    engine = load_game(write_definition(tmp_path, stones_and_rocks(files=1, ranks=1), ONE_SITE)).engine
    start = engine.initial_state()
    assert engine.perft(start, 2) == [1, 0]
    s = start.copy()
    engine.apply_in_place(s, engine.legal(s)[0], False)
    assert s.result is None  # (not settled: perft settles it, as the caller's)
    assert engine.perft(s, 2) == [0, 0]
    assert s.result == (0, (1, 0))
    kuhn = _kuhn()
    assert kuhn.perft(kuhn.initial_state(), 6) == KUHN_TREE
    assert _played_out(kuhn).result == (1, (-2, 2))


def test_the_switch_is_restored_after_a_failure_and_kept_per_thread():
    engine = _kuhn()
    scored = _played_out(engine).result
    with pytest.raises(ZeroDivisionError):
        with unscored_ends():
            assert _played_out(engine).result == scored  # (the first game its ending ends)
            assert _played_out(engine).result is UNSCORED
            1 // 0
    assert _played_out(engine).result == scored
    elsewhere = []
    with unscored_ends():
        thread = threading.Thread(target=lambda: elsewhere.append(_played_out(engine).result))
        thread.start()
        thread.join()
    assert elsewhere == [scored]
