"""Named `forbid NAME:` blocks: restrictions that a variant can replace or remove by
name, on a 3x3 board whose b1 is a wall (a rook on a1, an enemy rook on c3)."""
import textwrap

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from interpreter.loading.show import effective_definition

GAME_YAML = """\
game: slider
title: Slider
description: Rooks slide; b1 is a wall.
rules: game.rules
players:
  - {name: white, forward: n}
  - {name: black, forward: s}
board:
  grid: {files: 3, ranks: 3}
regions:
  wall: [b1]
pieces:
  rook: {symbol: R, description: Slides along ranks and files.}
setup:
  white:
    rook: [a1]
  black:
    rook: [c3]
"""

GAME_RULES = """\
phase play:
    turn: move

decision move:
    action slide by rook:
        slide orthogonal
        onto empty: move
        onto enemy:
            remove target
            move
            win

forbid wall_rules:
    passing where site in wall
    landing where site in wall
"""


def write(folder, files: dict) -> None:
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text))


@pytest.fixture
def game_dir(tmp_path):
    write(tmp_path, {"game.yaml": GAME_YAML, "game.rules": GAME_RULES})
    return tmp_path


def white_moves(path) -> list:
    g = load_game(str(path))
    return g.legal_notations(g.initial_state())


def variant(folder, rules: str) -> str:
    write(folder, {
        "variant.yaml": "variant: v\nextends: game.yaml\nrules: variant.rules\n",
        "variant.rules": rules,
    })
    return str(folder / "variant.yaml")


def test_every_line_of_a_named_block_restricts(game_dir):
    # Neither onto b1 nor past it.
    assert white_moves(game_dir) == ["a1-a2", "a1-a3"]


def test_a_variant_removes_the_block_by_name(game_dir):
    assert white_moves(variant(game_dir, "remove forbid wall_rules\n")) == ["a1-a2", "a1-a3", "a1-b1", "a1-c1"]


def test_a_variant_replaces_the_block_by_name(game_dir):
    path = variant(game_dir, "forbid wall_rules:\n    landing where site in wall\n")
    # Passing b1 is allowed again, landing on it still not.
    assert white_moves(path) == ["a1-a2", "a1-a3", "a1-c1"]
    shown = effective_definition(load_game(path).definition)
    assert "variant.rules:1:1\nforbid wall_rules:\n    landing where site in wall\n" in shown
    assert "passing where site in wall" not in shown


def test_an_unnamed_forbid_in_a_variant_is_added(game_dir):
    path = variant(game_dir, "forbid landing where site in [a2]\n")
    assert white_moves(path) == ["a1-a3"]


def test_removing_a_block_that_does_not_exist_suggests_the_name(game_dir, capsys):
    path = variant(game_dir, "remove forbid wal_rules\n")
    assert main(["validate", path]) == 1
    err = capsys.readouterr().err
    assert "variant.rules:1:1: error: there is no forbid 'wal_rules' to remove" in err
    assert "did you mean 'wall_rules'?" in err


def test_a_block_name_is_shared_with_the_other_items(game_dir, capsys):
    (game_dir / "game.rules").write_text(GAME_RULES + "\nforbid move:\n    passing where site in wall\n")
    assert main(["validate", str(game_dir)]) == 1
    assert "game.rules:17:1: error: 'move' is already defined at" in capsys.readouterr().err


def test_a_misspelt_restriction_kind_is_pointed_out(game_dir, capsys):
    (game_dir / "game.rules").write_text(GAME_RULES + "forbid pasing where site in wall\n")
    assert main(["validate", str(game_dir)]) == 1
    err = capsys.readouterr().err
    assert 'game.rules:16:15: error: found "where", expected ":"' in err
    assert 'hint: did you mean "passing" instead of "pasing" (16:8)?' in err
