"""Cases in `prefer` (docs/format.md 3.4): `prefer: onto enemy` stands for that case
of every action, `a onto enemy` for one action's; an action whose cases fall into
several tiers is offered in each with only those cases."""
import textwrap

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main

YAML = """\
game: probe
title: Probe
description: A board to prefer on.
rules: game.rules
players:
  - {name: white, forward: n}
  - {name: black, forward: s}
board:
  grid: {files: 5, ranks: 5}
pieces:
  man: {symbol: M}
  king: {symbol: K}
setup:
"""
ACTIONS = """\
    action man_move by man:
        step forward
        onto empty: move
        onto enemy: move
    action king_move by king:
        step all
        onto empty: move
        onto enemy: move
    action hop by man:
        jump forward
        over enemy:
            remove jumped
            move
        over own: move
"""


def moves(tmp_path, prefer: str, setup: str) -> list[str]:
    (tmp_path / "game.yaml").write_text(YAML + textwrap.indent(setup, "  "))
    (tmp_path / "game.rules").write_text(f"phase play:\n    turn: move\ndecision move:\n    {prefer}\n" + ACTIONS)
    game = load_game(str(tmp_path))
    return sorted(game.legal_notations(game.initial_state()))


def test_a_case_of_every_action_is_preferred(tmp_path):
    # a1's man can take on a2 and c1's king on d2: only those.
    setup = "white: {man: [a1], king: [c1]}\nblack: {man: [a2, d2]}\n"
    assert moves(tmp_path, "prefer: onto enemy", setup) == ["a1xa2", "c1xd2"]
    # Nothing to take: every move, quiet ones of both actions included.
    setup = "white: {man: [a1], king: [c1]}\nblack: {man: [e5]}\n"
    assert moves(tmp_path, "prefer: onto enemy", setup) == ["a1-a2", "c1-b1", "c1-b2", "c1-c2", "c1-d1", "c1-d2"]


def test_a_case_of_one_action(tmp_path):
    setup = "white: {man: [a1], king: [c1]}\nblack: {man: [a2, d2]}\n"
    assert moves(tmp_path, "prefer: king_move onto enemy", setup) == ["c1xd2"]
    setup = "white: {man: [a1], king: [c1]}\nblack: {man: [a2, e5]}\n"
    assert moves(tmp_path, "prefer: king_move onto enemy", setup) == [
        "a1xa2", "a1xa3", "c1-b1", "c1-b2", "c1-c2", "c1-d1", "c1-d2"]


def test_cases_and_actions_on_one_line_and_over_cases(tmp_path):
    # Jumping an enemy (b3 over b4) and the king's captures are one tier; jumping
    # one's own man is not preferred.
    setup = "white: {man: [b3, d3], king: [a1]}\nblack: {man: [b4, b2]}\n"
    assert moves(tmp_path, "prefer: hop over enemy, king_move onto enemy", setup) == ["a1xb2", "b3xb5"]
    setup = "white: {man: [b3, b4], king: [a1]}\nblack: {man: [e5]}\n"
    assert "b3xb5" in moves(tmp_path, "prefer: hop over enemy, king_move onto enemy", setup)


@pytest.mark.parametrize("prefer,message", [
    ("prefer: off board", "game.rules:4:13: error: decision 'move' has no case 'off board'"),
    ("prefer: hop onto enemy", "game.rules:4:13: error: action 'hop' has no case 'onto enemy'"),
    ("prefer: hopp onto enemy", "game.rules:4:13: error: decision 'move' has no action 'hopp'"),
    ("prefer: onto enemy, man_move onto enemy", "error: 'man_move onto enemy' is already preferred at"),
    ("prefer: man_move, man_move onto empty", "error: 'man_move onto empty' is already preferred at"),
])
def test_errors(tmp_path, capsys, prefer, message):
    (tmp_path / "game.yaml").write_text(YAML + "  white: {man: [a1]}\n")
    (tmp_path / "game.rules").write_text(f"phase play:\n    turn: move\ndecision move:\n    {prefer}\n" + ACTIONS)
    assert main(["validate", str(tmp_path)]) == 1
    assert message in capsys.readouterr().err


def test_prefer_naming_actions_writes_the_code_it_wrote(tmp_path):
    """A line of actions' names keeps each action whole (its plan, as before cases
    could be named): the listing is the one of two actions in two tiers."""
    setup = "white: {man: [a1], king: [c1]}\nblack: {man: [a2, d2]}\n"
    assert moves(tmp_path, "prefer: king_move", setup) == ["c1-b1", "c1-b2", "c1-c2", "c1-d1", "c1xd2"]
