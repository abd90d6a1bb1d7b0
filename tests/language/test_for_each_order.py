"""A statement `for each` over sites walks them in board order, whatever order a
written list or a union of regions names them in (docs/format.md 3.10); `validate`
warns where the order written differs, as a rule relying on it would silently do
something else."""
import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import write_definition

YAML = """\
game: order
title: Order
description: One pass recording the order of a walk.
rules: game.rules
players: [a]
board:
  grid: {files: 3, ranks: 1}
pieces:
  m: {symbol: M}
regions:
  left: {files: [a]}
  right: {files: [b, c]}
variables:
  seq: {type: int}
"""
RULES = """\
phase play:
    turn: go
decision go:
    action go:
        pass:
            for each x in WALK:
                seq = seq * 10 + (1 if x == a1 else 2 if x == b1 else 3)
            end game
"""


@pytest.mark.parametrize("walk, warned", [
    ("[c1, a1, b1]", "(a1, b1, c1), not in the order written here (c1, a1, b1)"),
    ("right + left", "(a1, b1, c1), not in the order written here (b1, c1, a1)"),
    ("[a1, c1]", None),
    ("left + right", None),
    ("[a1, b1, a1]", None),  # (a site named again adds nothing)
])
def test_a_walk_runs_in_board_order_and_another_order_written_is_warned_about(tmp_path, capsys, walk, warned):
    path = write_definition(tmp_path, YAML, RULES.replace("WALK", walk))
    game = load_game(path)
    end = game.apply(game.initial_state(), "pass")
    expected = {"[a1, c1]": 13, "[a1, b1, a1]": 12}.get(walk, 123)
    assert game.variables(end)["seq"] == expected
    assert main(["validate", path]) == 0
    err = capsys.readouterr().err
    if warned is None:
        assert "for each" not in err
    else:
        assert "game.rules:6:27: warning: 'for each' walks a set of sites in board order " + warned in err
        assert "write one 'for each' per part, in that order" in err
