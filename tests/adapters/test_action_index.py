"""The fixed action space: an index per possible notation, one to one with the
legal actions of any position (interpreter/frontends/adapters/actions.py)."""
from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.frontends.adapters.actions import ActionIndex, LegalIndices
from interpreter.runtime.pieces import CHANCE
from tests.adapters.games import ALL, label, random_positions
from tests.helpers import GAMES, REPO


@pytest.mark.parametrize("case", ALL, ids=label)
def test_indices_are_one_to_one_with_the_legal_actions(case):
    path, options = case
    game = load_game(path, options=options)
    players, chance = ActionIndex(game), ActionIndex(game, chance=True)
    engine = game.engine
    seen = 0
    for state in random_positions(game, seed=len(path)):
        codes = engine.legal(state)
        space = chance if engine.to_move(state) == CHANCE else players
        indices = space.indices(codes)
        assert len(set(indices)) == len(codes), game.position_text(state)
        assert all(0 <= i < len(space) for i in indices)
        assert [space.notation(i) for i in indices] == [engine.notation(c) for c in codes]
        assert sorted(space.notation(i) for i in indices) == game.legal_notations(state)
        seen += 1
    assert seen > 10


def test_the_space_is_every_notation_of_every_case_once_in_a_fixed_order():
    connect_four = load_game(str(REPO / "docs" / "examples" / "connect_four"))
    # one drop case written "@{to}": one index per site, in the board's order
    assert connect_four.possible_notations() == tuple(f"@{f}{r}" for r in range(1, 7) for f in "abcdefg")
    lielow = load_game(str(GAMES / "lielow"))
    notations = lielow.possible_notations()
    # "{from}-{to}" and "{from}x{to}" over every pair of the 64 sites and "off";
    # the third case's "{from}-off" writes notations already listed
    assert len(notations) == 64 * 65 * 2 == len(set(notations))
    assert notations[:2] == ("a1-a1", "a1-b1") and "h8-off" in notations and notations[-1] == "h8xoff"
    assert lielow.possible_notations(chance=True) == ()


def test_chance_outcomes_have_a_space_of_their_own():
    royalfiz = load_game(str(GAMES / "royalfiz"), options={"players": 3})
    assert royalfiz.possible_notations(chance=True) == (
        "start:red", "start:blue", "start:green",
        "roll:1", "roll:2", "roll:3", "roll:4", "roll:5", "roll:6")
    assert not any(":" in n for n in royalfiz.possible_notations())


def test_a_code_outside_the_space_is_a_clear_error():
    game = load_game(str(GAMES / "lielow"))
    space = ActionIndex(game, chance=True)  # (lielow has no chance event: nothing is in it)
    code = game.engine.legal(game.initial_state())[0]
    with pytest.raises(LookupError, match="outside the fixed action space"):
        space.index(code)


def test_legal_indices_are_worked_out_as_they_are_read():
    game = load_game(str(GAMES / "lielow"))
    space = ActionIndex(game)
    codes = game.engine.legal(game.initial_state())
    view = LegalIndices(space, codes)
    third = view[2]
    assert len(view) == len(codes) and view._all is None  # one index read, not all
    assert view.code(third) is codes[2]
    assert list(view) == space.indices(codes) == view[:] and view.index(third) == 2
    last = list(view)[-1]
    assert view.code(last) is codes[-1] and last in view
    outside = next(i for i in range(len(space)) if i not in view)
    assert view.code(outside) is None
