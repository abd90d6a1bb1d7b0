"""An `after each turn` test that is a `forbid result` part with the players'
roles swapped asks the part's answer for the opponent (cases.CaseWriter.
_turn_end_answer_shared, runtime/kept_answers.answer_for_opponent): the
outsiders' shogi counts its checks as without it, and its entry is the one the
next listing finds kept."""
from __future__ import annotations

import ast
import random
import shutil

from interpreter import load_game
from interpreter.compilation import cases, result_reuse
from interpreter.runtime import helpers, kept_answers
from tests.helpers import REPO

SHOGI = REPO / "benchmarks" / "outsiders" / "shogi"


def _code(text: str) -> tuple[list[ast.stmt], ast.expr]:
    *lines, last = ast.parse(text).body
    assert isinstance(last, ast.Expr)
    return lines, last.value


# (the part: whether the player's first piece stands on a site the opponent holds at 0)
PART = _code("t1 = h_first(o[p])\nt2 = b[k3[t1]] is not None and b[k3[t1]][0] == 1 - p\nt2")


def test_the_part_with_the_players_swapped_is_recognised():
    swapped = _code("t7 = h_first(o[1 - p])\nt9 = b[k3[t7]] is not None and b[k3[t7]][0] == p\nt9")
    assert result_reuse.asks_swapped(*swapped, *PART)
    assert result_reuse.asks_swapped(*_code("t7 = h_first(o[q])\nt9 = b[k3[t7]] is not None and b[k3[t7]][0] == p\nt9"),
                                     *PART)  # (the opponent written `q`)
    for other in (
        "t7 = h_first(o[p])\nt9 = b[k3[t7]] is not None and b[k3[t7]][0] == 1 - p\nt9",  # (the part itself)
        "t7 = h_first(o[1 - p])\nt9 = b[k3[t7]] is not None and b[k3[t7]][0] == p\nt7",  # (another value)
        "t7 = h_first(o[1 - p])\nt9 = b[k4[t7]] is not None and b[k4[t7]][0] == p\nt9",  # (another table)
        "t9 = b[k3[t7]] is not None and b[k3[t7]][0] == p\nt9",  # (t7 set before: not the part's)
    ):
        assert not result_reuse.asks_swapped(*_code(other), *PART), other


def test_shogi_counts_its_checks_as_without_it(tmp_path, monkeypatch):
    asked: list[bool] = []  # (by turn's end: whether the part answered)
    answer = kept_answers.answer_for_opponent

    def spy(*args):
        found = answer(*args)
        asked.append(found is not None)
        return found

    monkeypatch.setitem(helpers.NAMESPACE, "h_answer_for_opponent", spy)
    # (a copy: a game loaded before in this process keeps the helper it was given)
    copy = tmp_path / "shogi"
    shutil.copytree(SHOGI, copy)
    on = load_game(str(copy))
    monkeypatch.setattr(cases, "TURN_END_SHARED", False)
    off = load_game(str(SHOGI))
    monkeypatch.undo()
    assert "h_answer_for_opponent(" in on.rules.source and "h_answer_for_opponent(" not in off.rules.source
    checks_seen = 0
    for seed in range(3):
        rng = random.Random(seed)
        states = [game.engine.initial_state() for game in (on, off)]
        for _ in range(120):
            lists = [game.engine.legal(s) for game, s in zip((on, off), states)]
            assert lists[0] == lists[1]
            if not lists[0]:
                break
            code = rng.choice(lists[0])
            for game, s in zip((on, off), states):
                game.engine.apply_in_place(s, code)
            assert states[0].vars == states[1].vars and states[0].player == states[1].player
            checks_seen += any(states[0].vars[:2])
    assert checks_seen > 0  # (the counter moved: the test answered true)
    assert asked and all(asked)
