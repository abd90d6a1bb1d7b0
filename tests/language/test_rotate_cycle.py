"""`rotate SET clockwise|anticlockwise` and `cycle A, B, C` (docs/format.md 3.10,
"Moving and placing") on hand-built positions: where each piece goes, the owners'
site lists kept in step, the acting piece followed, and the errors."""
import textwrap

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from interpreter.runtime.errors import RuleRuntimeError

YAML = """\
game: probe
title: Probe
description: A board to turn parts of.
rules: game.rules
players:
  - {{name: white}}
  - {{name: black}}
board:
  {board}
regions:
  corner: [a1, b1, c1, a2, b2, c2, a3, b3, c3]
  row: [a1, b1, c1]
pieces:
  man: {{symbol: M}}
  king: {{symbol: K}}
setup:
{setup}
"""
GRID = "grid: {files: 4, ranks: 4}"


def make(tmp_path, rules: str, setup: str, board: str = GRID):
    (tmp_path / "game.yaml").write_text(YAML.format(board=board, setup=textwrap.indent(setup, "  ")))
    (tmp_path / "game.rules").write_text(textwrap.dedent(rules))
    return load_game(str(tmp_path))


def pieces(game, state) -> dict[str, str]:
    """site -> 'owner kind' of every piece, and the owners' lists agree with the board."""
    kinds = {kind.index: name for name, kind in game.model.kinds.items()}
    found = {}
    for site, piece in enumerate(state.board[:-1]):
        if piece is not None:
            found[game.rules.site_names[site]] = f"{game.rules.players[piece[0]]} {kinds[piece[1]]}"
    for owner, sites in enumerate(state.occ[:-1]):
        assert sorted(sites) == sorted(s for s, p in enumerate(state.board[:-1]) if p is not None and p[0] == owner)
    return found


def turn(statement: str) -> str:
    return f"""\
        phase play:
            turn: move
        decision move:
            action turn:
                drop man on [d4]
                notation "t"
                onto empty:
                    {statement}
        """


def board_after(tmp_path, statement: str, setup: str, board: str = GRID) -> dict[str, str]:
    game = make(tmp_path, turn(statement), setup, board)
    state = game.apply(game.initial_state(), "t")
    return {site: who for site, who in pieces(game, state).items() if site != "d4"}


SETUP = "white:\n  man: [a3, c3]\n  king: [b2]\nblack:\n  man: [a1]\n"


@pytest.mark.parametrize("clockwise,expected", [
    # a3 (NW) -> c3 (NE), c3 (NE) -> c1 (SE), a1 (SW) -> a3 (NW); the centre stays
    ("clockwise", {"c3": "white man", "c1": "white man", "a3": "black man", "b2": "white king"}),
    # a3 (NW) -> a1 (SW), c3 (NE) -> a3 (NW), a1 (SW) -> c1 (SE)
    ("anticlockwise", {"a1": "white man", "a3": "white man", "c1": "black man", "b2": "white king"}),
])
def test_rotate_a_square_block(tmp_path, clockwise, expected):
    assert board_after(tmp_path, f"rotate corner {clockwise}", SETUP) == expected


def test_four_quarter_turns_give_the_board_back(tmp_path):
    four = "\n                    ".join(["rotate corner clockwise"] * 4)
    game = make(tmp_path, turn(four), SETUP)
    start = game.initial_state()
    after = game.apply(start, "t")
    assert {s: p for s, p in pieces(game, after).items() if s != "d4"} == pieces(game, start)


def test_rotate_a_block_worked_out_while_playing(tmp_path):
    expected = {"c3": "white man", "c1": "white man", "a3": "black man", "b2": "white king"}
    assert board_after(tmp_path, "rotate (corner if count(pieces) > 0 else row) clockwise", SETUP) == expected


def test_a_block_worked_out_while_playing_that_is_not_square_is_a_located_error(tmp_path):
    game = make(tmp_path, turn("rotate (row if count(pieces) > 0 else corner) clockwise"), SETUP)
    with pytest.raises(RuleRuntimeError, match="game.rules:8:13: .rotate. needs a square block of sites; found 3"):
        game.apply(game.initial_state(), "t")


def test_cycle_moves_every_piece_one_place_on_at_once(tmp_path):
    # a3 -> c3, c3 -> a1, a1 -> a3; an empty site's emptiness moves too (b1 -> c1 ...)
    assert board_after(tmp_path, "cycle a3, c3, a1", SETUP) == {"c3": "white man", "a1": "white man", "a3": "black man",
                                                                "b2": "white king"}
    assert board_after(tmp_path, "cycle b1, a1", SETUP) == {"b1": "black man", "a3": "white man", "c3": "white man",
                                                            "b2": "white king"}


def test_cycle_of_sites_worked_out_while_playing_leaves_none_out(tmp_path):
    # neighbour(a1, s) is beyond the edge (none, left out); the black man's site
    # is a1: a3 -> a1, a1 -> a3
    assert board_after(tmp_path, "cycle a3, neighbour(a1, s), first(pieces of black)", SETUP) == {
        "a1": "white man", "c3": "white man", "a3": "black man", "b2": "white king",
    }


def test_the_acting_piece_is_followed(tmp_path):
    # The man moved by the action stands in the block: `piece` follows it.
    rules = """\
        phase play:
            turn: move
        decision move:
            action step by man:
                step n
                onto empty:
                    move
                    rotate corner clockwise
                    piece.owner = black
        """
    game = make(tmp_path, rules, "white:\n  man: [a1]\n")
    state = game.apply(game.initial_state(), "a1-a2")
    # a2 (i=0, j=1) -> (1, 2): b3; the piece changed sides there
    assert pieces(game, state) == {"b3": "black man"}


@pytest.mark.parametrize("statement,message", [
    ("rotate row clockwise", "'rotate' needs a square block of sites: 'row' has 3 sites in 3 files and 1 rank"),
    ("cycle a1, b1, a1", "'cycle' names site 'a1' twice"),
    ("rotate a1 clockwise", "'rotate' needs a set of sites (a square block), found a site"),
])
def test_errors_are_located(tmp_path, capsys, statement, message):
    (tmp_path / "game.yaml").write_text(YAML.format(board=GRID, setup="  white:\n    man: [a1]\n"))
    (tmp_path / "game.rules").write_text(textwrap.dedent(turn(statement)))
    assert main(["validate", str(tmp_path)]) == 1
    assert message in capsys.readouterr().err


def test_rotate_needs_a_grid(tmp_path, capsys):
    board = "graph:\n    sites: {a1: [0, 0], b1: [1, 0], c1: [2, 0], a2: [0, 1], b2: [1, 1], c2: [2, 1], a3: [0, 2], " \
            "b3: [1, 2], c3: [2, 2], d4: [3, 3]}\n    edges: [[a1, b1]]"
    (tmp_path / "game.yaml").write_text(YAML.format(board=board, setup="  white:\n    man: [a1]\n"))
    (tmp_path / "game.rules").write_text(textwrap.dedent(turn("rotate corner clockwise")))
    assert main(["validate", str(tmp_path)]) == 1
    assert "'rotate' needs a grid" in capsys.readouterr().err
