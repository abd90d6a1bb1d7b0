"""`before each turn` that may write (docs/format.md 3.3): the actions listed before it
are listed again only when it changed the position — a write that does not run (an
outsider's Oware kept a dead `elif moves < 0: moves = 0` and paid ~30 % of its playouts
for it) lists nothing again, a write that runs lists the new actions."""
import random

import pytest

from interpreter import load_game
from interpreter.analysis.perft import perft
from interpreter.runtime.engine import Engine
from tests.helpers import stones_and_rocks, write_definition

YAML = stones_and_rocks(files=3, ranks=2, extra="variables:\n  turns: {}\n  bonus: {}\n")
RULES = """\
phase play:
    turn: place
    before each turn:
        BEFORE
    after each turn:
        turns += 1
    if no action:
        draw

decision place:
    action stone:
        drop stone on sites
        onto empty: place
    action extra:
        drop rock on sites
        where bonus == 1
        notation "rock{to}"
        onto empty:
            place
            bonus = 0
"""
DEAD = "if turns < 0:\n            turns = 0"
LIVE = "if turns == 2:\n            bonus = 1"


def _counting(monkeypatch) -> list[int]:
    calls = [0]
    listed_again = Engine._listed_again

    def counted(self, s):
        calls[0] += 1
        return listed_again(self, s)

    monkeypatch.setattr(Engine, "_listed_again", counted)
    return calls


def test_a_write_that_does_not_run_lists_nothing_again(tmp_path, monkeypatch):
    game = load_game(write_definition(tmp_path, YAML, RULES.replace("BEFORE", DEAD)))
    calls = _counting(monkeypatch)
    # 6 cells, then 5, ... (no `extra`: bonus stays 0)
    assert perft(game, game.initial_state(), 4) == [6, 30, 120, 360]
    state = game.initial_state()
    game.engine.random_playout(state, random.Random(3), 100)
    assert calls[0] == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_write_that_runs_lists_the_actions_it_makes_legal(tmp_path, monkeypatch, seed):
    game = load_game(write_definition(tmp_path, YAML, RULES.replace("BEFORE", LIVE)))
    calls = _counting(monkeypatch)
    state = game.initial_state()
    for _ in range(2):
        state = game.apply(state, game.legal_notations(state)[0])
    # the third turn: bonus set before it, so a rock may go on each of the 4 empty cells too
    notations = game.legal_notations(state)
    assert len(notations) == 8 and calls[0] == 1
    playout = game.initial_state()
    game.engine.random_playout(playout, random.Random(seed), 100)
    assert game.engine.is_over(playout) and calls[0] == 2
    assert perft(game, game.initial_state(), 3) == [6, 30, 120 + 120]


def test_a_block_writing_only_variables_is_told_by_them(tmp_path):
    from interpreter.runtime.state import position_marks, variable_marks
    game = load_game(write_definition(tmp_path, YAML, RULES.replace("BEFORE", DEAD)))
    assert game.engine._marks == [variable_marks]
    board = RULES.replace("BEFORE", "if turns == 2 and c2 is empty:\n            create rock at c2")
    game = load_game(write_definition(tmp_path, YAML, board))
    assert game.engine._marks == [position_marks]
    state = game.initial_state()
    for _ in range(2):
        state = game.apply(state, game.legal_notations(state)[0])
    # the rock put on c2 before the third turn: c2 no longer listed
    assert sorted(game.legal_notations(state)) == ["@b1", "@b2", "@c1"]
