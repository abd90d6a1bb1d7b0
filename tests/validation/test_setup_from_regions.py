"""A setup entry may put a piece on every site of a region (docs/format.md 2.14):
`{region: NAME}` (a per-player region: the owner's sites), or a region written in
place (`{region: {ranks: [2]}}`, a list of sites), with attribute values for all."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main

BASE = Path(__file__).resolve().parent.parent / "broken" / "_base"
SETUP = """setup:
  white:
    man: [a2, b2, c2, d2, e2]
  black:
    man: [a4, b4, c4, d4, e4]"""


@pytest.fixture
def folder(tmp_path) -> Path:
    shutil.copytree(BASE, tmp_path / "fivefold")
    return tmp_path / "fivefold"


def with_setup(folder: Path, setup: str) -> Path:
    path = folder / "game.yaml"
    text = path.read_text()
    assert SETUP in text
    path.write_text(text.replace(SETUP, setup))
    return folder


def placed(game) -> list[tuple]:
    return [(p.site, p.owner, p.kind, p.attributes["moved"]) for p in game.pieces(game.initial_state())]


def test_pieces_on_every_site_of_regions(folder):
    game = load_game(str(with_setup(folder, """setup:
  white:
    man: {region: {ranks: [2]}, moved: true}
    chief: {region: home}
  black:
    man: {region: {ranks: [4], except: [c4]}}
    chief: {region: [c5], sites: [e5]}""")))
    assert sorted(placed(game)) == sorted(
        [(f"{f}2", "white", "man", True) for f in "abcde"] + [(f"{f}1", "white", "chief", False) for f in "abcde"]
        + [(f"{f}4", "black", "man", False) for f in "abde"]
        + [("c5", "black", "chief", False), ("e5", "black", "chief", False)])


def test_the_same_as_the_sites_listed(folder):
    listed = placed(load_game(str(folder)))
    game = load_game(str(with_setup(folder, """setup:
  white:
    man: {region: {ranks: [2]}}
  black:
    man: {region: {ranks: [4]}}""")))
    assert placed(game) == listed


def test_an_attribute_named_region_is_still_an_attribute(folder):
    path = folder / "game.yaml"
    path.write_text(path.read_text().replace("  moved:\n", "  region:\n    type: int\n  moved:\n", 1))
    game = load_game(str(with_setup(folder, SETUP.replace("[a2, b2, c2, d2, e2]", "{sites: [a2], region: 4}"))))
    assert [(p.site, p.attributes["region"]) for p in game.pieces(game.initial_state()) if p.owner == "white"] \
        == [("a2", 4)]


@pytest.mark.parametrize("setup, expected", [
    ("  white:\n    man: {region: hoem}", "game.yaml:72:19: error: unknown region 'hoem'"),
    ("  neutral:\n    man: {region: home}", "game.yaml:72:19: error: region 'home' differs per player"),
    ("  white:\n    man: {region: {ranks: [1]}}\n    chief: [c1]",
     "game.yaml:73:13: error: site 'c1' is given two pieces in the setup"),
    # (a region's sites given twice: one error at the region, naming a few of them)
    ("  white:\n    man: {region: {ranks: [1]}}\n    chief: {region: {ranks: [1]}}",
     "game.yaml:73:21: error: sites 'a1', 'b1', 'c1', 'd1' and 1 more are given two pieces in the setup"),
    ("  white:\n    man: {region: {ranks: [1], only: [a1, b1, c1]}}\n    chief: {region: {ranks: [1]}}",
     "game.yaml:73:21: error: sites 'a1', 'b1' and 'c1' are given two pieces in the setup"),
    ("  white:\n    man: {region: [a1, z9]}", "game.yaml:72:24: error: unknown site 'z9'"),
])
def test_mistakes_are_located(folder, capsys, setup, expected):
    with_setup(folder, "setup:\n" + setup)
    assert main(["validate", str(folder)]) == 1
    assert expected in capsys.readouterr().err
