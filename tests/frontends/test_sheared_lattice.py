"""A graph board drawn on a lattice (format.md 2.16, `text: auto`): file letters on the
margins only when each column of the drawing is one file. On a sheared (hexagonal)
drawing a letter over a column would name a site of one row only (Y's `e3` drawn under
the `f` of the top row), so the letters are left off and the rows keep their numbers."""
from __future__ import annotations

from pathlib import Path

from interpreter import load_game
from interpreter.frontends.render_text import render_text
from tests.helpers import write_definition

RULES = """\
phase play:
    turn: place
decision place:
    action stone:
        drop stone on sites
        onto empty: place
"""


def _drawing(tmp_path: Path, sites: str, edges: str) -> list[str]:
    yaml = ("game: lattice\nrules: game.rules\nplayers: [first, second]\nboard:\n  graph:\n"
            f"    sites: {{{sites}}}\n    edges: [{edges}]\npieces:\n  stone: {{symbol: O}}\n")
    game = load_game(write_definition(tmp_path, yaml, RULES))
    state = game.apply(game.initial_state(), "@b2")
    return render_text(game, state, plain=True).splitlines()


def test_a_sheared_drawing_has_no_file_letters(tmp_path: Path) -> None:
    # Y with 3 cells a side, rows shifted half a cell as OpenSpiel draws it
    lines = _drawing(tmp_path, "a1: [0, 0], b1: [1, 0], c1: [2, 0], a2: [0.5, -1], b2: [1.5, -1], a3: [1, -2]",
                     "[a1, b1, c1], [a2, b2], [a1, a2, b1, b2, c1], [a2, a3, b2]")
    board = [line for line in lines if line[:1] in ("1", "2", "3")]
    assert [line[0] for line in board] == ["1", "2", "3"]
    assert "O" in board[1] and "O" not in board[0] + board[2]
    assert not any(line.split() and all(len(w) == 1 and w in "abc" for w in line.split()) for line in lines)


def test_straight_columns_keep_their_letters(tmp_path: Path) -> None:
    lines = _drawing(tmp_path, "a1: [0, 0], b1: [1, 0], a2: [0, 1], b2: [1, 1]", "[a1, b1, b2, a2, a1]")
    letters = [line for line in lines if line.split() == ["a", "b"]]
    assert len(letters) == 2
    row = next(line for line in lines if line.startswith("2"))
    assert row.index("O") >= letters[0].index("b") - 1
