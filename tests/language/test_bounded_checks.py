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
