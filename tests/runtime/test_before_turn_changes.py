"""`before each turn` that changes the position without ending the game: the
turn's actions are listed again after it (they were listed first for its `no
legal action`), on every path that starts a turn — a position settled, a random
playout's drawn action, the random action of an unsettled position
(runtime/engine.py)."""
from random import Random

import pytest

from interpreter import load_game
from tests.helpers import write_definition

YAML = """\
game: crowded
title: Crowded
description: A stone appears at e5 when white's first stone is not there.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 5, ranks: 5}
pieces:
  man: {symbol: M}
"""
RULES = """\
phase play:
    turn: put
    before each turn:
        if count(pieces) == 1 and e5 is empty:
            create man at e5
    if no action:
        draw

decision put:
    action p:
        drop man on [a1, e5]
        onto empty: place
"""
# the same, with a `forbid result` (its actions drawn one at a time, unsettled)
CHECKED = RULES + "\nforbid result where count(pieces) > 2\n"


def _game(tmp_path, rules: str = RULES):
    return load_game(write_definition(tmp_path, YAML, rules))


@pytest.mark.parametrize("rules", [RULES, CHECKED])
def test_actions_are_listed_again_after_before_each_turn_changes_the_position(tmp_path, rules):
    game = _game(tmp_path, rules)
    after = game.apply(game.initial_state(), "@a1")
    # black's turn: the stone created at e5 leaves no empty site to drop on
    assert [p.site for p in game.pieces(after)] == ["a1", "e5"]
    assert game.legal_notations(after) == []
    assert game.is_terminal(after) and game.result(after).winner is None
    # white on e5 first: nothing is created, black drops on a1
    assert game.legal_notations(game.apply(game.initial_state(), "@e5")) == ["@a1"]


@pytest.mark.parametrize("rules", [RULES, CHECKED])
def test_random_playouts_and_random_actions_see_the_change(tmp_path, rules):
    game = _game(tmp_path, rules)
    engine = game.engine
    seen = set()
    for seed in range(24):
        s = engine.initial_state()
        played = engine.random_playout(s, Random(seed), 100)
        seen.add(played)
        # white on a1 ends it (nothing left for black); a second action only after white on e5
        stones = sorted((p.site, p.owner) for p in game.pieces(s))
        assert s.result is not None and stones == ([("a1", "white"), ("e5", "black")] if played == 1
                                                    else [("a1", "black"), ("e5", "white")])
    assert seen == {1, 2}
    for seed in range(8):
        s = engine.initial_state()
        engine.apply_in_place(s, engine.legal(s)[0], settle=False)  # white on a1, unsettled
        assert engine.random_legal(s, Random(seed)) is None and engine.is_over(s)


def test_a_before_each_turn_that_only_decides_keeps_its_listing(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert _game(tmp_path / "a").engine.phases[0].before_turn_changes
    deciding = _game(tmp_path / "b", RULES.replace(
        "        if count(pieces) == 1 and e5 is empty:\n            create man at e5\n",
        "        if count(pieces) == 2:\n            let n = 2\n            draw\n"))
    assert not deciding.engine.phases[0].before_turn_changes
