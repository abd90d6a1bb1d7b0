"""A region rule naming another region (`except: star`; compilation/model.py
_regions): the sites of the region named, built first where it comes later, and
clear errors for a name that is no region, a region made of itself and a region
that differs per player."""
import pytest

from interpreter import DefinitionError, load_game
from tests.helpers import write_definition

YAML = """\
game: shapes
title: Shapes
description: Regions made of regions.
rules: game.rules
players:
  - {name: red}
  - {name: blue}
board:
  grid: {files: 3, ranks: 3}
pieces:
  stone: {symbol: S}
regions:
REGIONS"""

RULES = """\
phase play:
    turn: place

decision place:
    action stone:
        drop stone on cells
        onto empty:
            place
"""


def _load(tmp_path, regions: str):
    return load_game(write_definition(tmp_path, YAML.replace("REGIONS", regions), RULES))


def _errors(tmp_path, regions: str) -> list[tuple[int, int, str]]:
    with pytest.raises(DefinitionError) as caught:
        _load(tmp_path, regions)
    return [(d.line, d.column, d.message) for d in caught.value.diagnostics if d.severity == "error"]


def test_a_rule_names_a_region_declared_later(tmp_path):
    game = _load(tmp_path, "  cells: {all: true, except: corners, union: [middle]}\n"
                           "  corners: [a1, c1, a3, c3]\n"
                           "  middle: {ranks: [2], only: {union: [corners, [b2]]}}\n")
    assert sorted(game.board.regions["cells"]) == ["a2", "b1", "b2", "b3", "c2"]
    assert sorted(game.board.regions["middle"]) == ["b2"]
    # Named by another region's rule, `corners` and `middle` are used.
    assert [d.message for d in game.warnings] == []


def test_a_region_named_alone_is_the_same_sites(tmp_path):
    game = _load(tmp_path, "  cells: playable\n  playable: {ranks: [1]}\n")
    assert sorted(game.board.regions["cells"]) == ["a1", "b1", "c1"]


def test_a_name_that_is_no_region(tmp_path):
    assert _errors(tmp_path, "  cells: {all: true, except: corner}\n  corners: [a1]\n") == [
        (13, 30, "unknown region 'corner'")]


def test_a_region_made_of_itself(tmp_path):
    (error,) = _errors(tmp_path, "  cells: {all: true, except: rim}\n  rim: {edge: true, except: {union: [cells]}}\n")
    assert error[2] == "region 'cells' is made of itself: cells -> rim -> cells"


def test_a_region_that_differs_per_player_cannot_be_named(tmp_path):
    regions = "  cells: {all: true, except: home}\n  home: {per_player: {red: [a1], blue: [c3]}}\n"
    (error,) = _errors(tmp_path, regions)
    assert error[2] == "region 'home' differs per player: a rule can name only a region shared by all players"
