"""A number stored is checked against the limit (±10^15) unless its shape keeps it
within (compilation/bounded_checks.py): numbers, their sums and products, `% c`,
`// c`, conditional expressions of such, tables of numbers."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_game
from tests.helpers import helper_calls, write_definition

YAML = """\
game: bounded
rules: game.rules
players: [white, black]
board:
  grid: {files: 3, ranks: 1}
variables:
  k: {type: int, default: 1000000000}
  v: {type: int}
pieces:
  stone: {symbol: S}
"""

RULES = """phase play:
    turn: roll, put

chance roll:
    outcomes 1 to 2
    v = VALUE

decision put:
    action stone:
        drop stone on sites
        onto empty: place
"""


def _game(tmp_path: Path, value: str) -> object:
    return load_game(write_definition(tmp_path, YAML, RULES.replace("VALUE", value)))


@pytest.mark.parametrize("value, expected", [
    ("(2 if k == 1 else 0) + (12 if outcome == 2 else 6) * 3", 36),
    ("k % 13 - 20", 1000000000 % 13 - 20),
    ("min(k % 7, 5) // 2 + max(k % 3, 1)", 2 + 1),
])
def test_a_value_within_the_limit_by_its_shape_is_not_checked(tmp_path: Path, value: str, expected: int) -> None:
    game = _game(tmp_path, value)
    assert helper_calls(game, "h_bounded", "chance 'roll'") == []
    after = game.apply(game.initial_state(), "roll:2")  # type: ignore[attr-defined]
    assert game.variables(after)["v"] == expected  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", ["k * k * 3", "k * k + k * k", "k // 13 * k", "outcome * 1000000000 * 1000000000"])
def test_a_value_that_may_pass_the_limit_is_checked_and_located(tmp_path: Path, value: str) -> None:
    game = _game(tmp_path, value)
    assert len(helper_calls(game, "h_bounded", "chance 'roll'")) == 1
    with pytest.raises(Exception) as fault:
        game.apply(game.initial_state(), "roll:2")  # type: ignore[attr-defined]
    assert "a number grew beyond" in str(fault.value) and "game.rules:6:" in str(fault.value)


LOOPS = """phase play:
    turn: roll, put

chance roll:
    outcomes 1 to 2
    for each a in 1 to 7:
        for each b in a + 1 to END:
            if a + b == 9 + outcome:
                v = b * 10 + a

decision put:
    action stone:
        drop stone on sites
        onto empty: place
"""


def test_a_loop_variable_over_fixed_ends_is_within_the_limit_and_so_are_the_inner_loops_rounds(tmp_path: Path) -> None:
    game = load_game(write_definition(tmp_path, YAML, LOOPS.replace("END", "8")))
    assert helper_calls(game, "h_bounded", "chance 'roll'") == []
    # (b runs from a + 1, 2 to 8, to 8: at most 7 rounds, never past the bound of 100000)
    assert helper_calls(game, "h_fail", "chance 'roll'") == []
    after = game.apply(game.initial_state(), "roll:2")  # type: ignore[attr-defined]
    assert game.variables(after)["v"] == 65  # type: ignore[attr-defined]  # (a + b == 11: 3 8, 4 7, 5 6 the last)


def test_the_inner_loops_rounds_are_checked_where_its_end_is_not_known(tmp_path: Path) -> None:
    game = load_game(write_definition(tmp_path, YAML, LOOPS.replace("END", "k")))
    assert len(helper_calls(game, "h_fail", "chance 'roll'")) == 1
    with pytest.raises(Exception) as fault:
        game.apply(game.initial_state(), "roll:2")  # type: ignore[attr-defined]
    assert "more than 100000" in str(fault.value)
