"""The warning for a `let` whose value is lost (validation/lost_locals.py): a local
rebound in a nested block and read after it, or a running total in a loop. A
nested `let` that hides a local on purpose, read only inside its block, is fine."""
import textwrap

import pytest

from interpreter import load_game
from tests.helpers import write_definition

YAML = """\
game: counting
title: Counting
description: Stones, counted.
rules: game.rules
players:
  - {name: red}
  - {name: blue}
board:
  grid: {files: 3, ranks: 2}
pieces:
  stone: {symbol: S, description: A stone.}
setup:
  red: {stone: [a1]}
  blue: {stone: [c2]}
"""

RULES = """\
phase play:
    turn: go
    after each turn:
{block}
decision go:
    action walk:
        step e
        onto empty: move
"""


def _warnings(tmp_path, block: str) -> list[str]:
    rules = RULES.format(block=textwrap.indent(textwrap.dedent(block), " " * 8))
    game = load_game(write_definition(tmp_path, YAML, rules))
    return [d.message for d in game.warnings]


def test_a_running_total_in_a_loop_is_lost(tmp_path):
    messages = _warnings(tmp_path, """\
        let n = 0
        for each s in sites:
            if s is own:
                let n = n + 1
    """)
    assert messages == ["'let n' here makes a new local that ends with its block, hiding the 'n' of line 4: "
                        "in every round of the loop it starts again from the value of line 4"]


def test_a_value_set_in_an_if_and_read_after_it_is_lost(tmp_path):
    messages = _warnings(tmp_path, """\
        let far = false
        if count(pieces of player) > 1:
            let far = true
        if far:
            draw
    """)
    assert messages == ["'let far' here makes a new local that ends with its block, hiding the 'far' of line 4: "
                        "the 'far' read at line 7 still has the value of line 4"]


@pytest.mark.parametrize("block", [
    # hidden on purpose, read only inside the nested block
    """\
    let n = 1
    if n > 0:
        let n = 2
        if n == 2:
            draw
    """,
    # rebound at its own level: a later `let` replaces it (format.md)
    """\
    let n = 1
    let n = n + 1
    if n == 2:
        draw
    """,
    # bound again at the outer level before it is read
    """\
    let n = 1
    if n > 0:
        let n = 2
    let n = 3
    if n == 3:
        draw
    """,
    # a loop's own name hides the local inside the loop
    """\
    let s = 0
    for each s in sites:
        let s = s
    """,
])
def test_a_local_hidden_on_purpose_is_not_warned_of(tmp_path, block):
    assert _warnings(tmp_path, block) == []
