"""A region rule's `within` part (docs/format.md 2.5): the sites at most N steps from
a site along the board's neighbours — a hexagon cut from a rhombus, a diamond, a
ring with `except`, a graph's node and its neighbours."""
import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import write_definition
from tests.language.test_region_only import _fails_at, _game, _sites_by_action

HEX_YAML = """\
game: hexhex
title: Hexhex
description: A hexagon of 61 cells cut from a 9×9 rhombus.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 9, ranks: 9, neighbours: [n, ne, e, s, sw, w]}
regions:
  cells: {within: {steps: 4, of: e5}}
pieces:
  stone: {symbol: S, description: A stone.}
"""
PLACE_ON = ("phase play:\n    turn: place\ndecision place:\n    action stone:\n        drop stone on {region}\n"
            "        notation \"{{to}}\"\n        onto empty: place\n")


def test_a_hexagon_on_a_rhombus_with_hexagonal_neighbours(tmp_path):
    game = load_game(write_definition(tmp_path, HEX_YAML, PLACE_ON.format(region="cells")))
    cells = set(game.legal_notations(game.initial_state()))
    assert len(cells) == 61  # 1 + 6 + 12 + 18 + 24
    # Its six corners four steps out (Havannah's base 5), and the rhombus's two
    # other corners, eight steps away (a9: four west and four north, no step does both).
    assert {"a1", "e1", "i5", "i9", "e9", "a5"} <= cells
    assert not {"a9", "i1", "b9", "a6", "f1", "i4"} & cells


def test_a_triangle_from_the_corner_no_step_leaves_diagonally(tmp_path):
    # From a5 no step goes se: every site is as many steps away as files east plus
    # ranks south, so four steps make the triangle a5-a1-e5 (Y's board of side 5).
    yaml = HEX_YAML.replace("files: 9, ranks: 9", "files: 5, ranks: 5").replace("of: e5", "of: a5")
    game = load_game(write_definition(tmp_path, yaml, PLACE_ON.format(region="cells")))
    assert sorted(game.legal_notations(game.initial_state())) == [
        "a1", "a2", "a3", "a4", "a5", "b2", "b3", "b4", "b5", "c3", "c4", "c5", "d4", "d5", "e5"]


def test_a_diamond_a_ring_and_the_site_alone(tmp_path):
    game = _game(tmp_path, "  lattice: {within: {steps: 2, of: c3}}\n"
                           "  corner: {within: {steps: 2, of: c3}, except: {within: {steps: 1, of: c3}}}\n"
                           "  nested: {within: {steps: 0, of: e5}, sites: [a1]}\n")
    assert _sites_by_action(game) == {
        "lattice": ["a3", "b2", "b3", "b4", "c1", "c2", "c3", "c4", "c5", "d2", "d3", "d4", "e3"],
        "corner": ["a3", "b2", "b4", "c1", "c5", "d2", "d4", "e3"],
        "nested": ["a1", "e5"]}


def test_steps_follow_a_graph_boards_edges(tmp_path):
    yaml = HEX_YAML.replace(
        "  grid: {files: 9, ranks: 9, neighbours: [n, ne, e, s, sw, w]}\n",
        "  graph:\n    sites: {hub: [0, 0], x: [1, 0], y: [0, 1], z: [0, 2], far: [0, 3]}\n"
        "    edges: [[hub, x], [hub, y], [y, z], [z, far]]\n",
    ).replace("{steps: 4, of: e5}", "{steps: 2, of: x}")
    game = load_game(write_definition(tmp_path, yaml, PLACE_ON.format(region="cells")))
    assert sorted(game.legal_notations(game.initial_state())) == ["hub", "x", "y"]


def test_a_graph_sites_misspelling_is_named_as_a_site_or_a_region(tmp_path, capsys):
    yaml = HEX_YAML.replace(
        "  grid: {files: 9, ranks: 9, neighbours: [n, ne, e, s, sw, w]}\n",
        "  graph:\n    sites: {hub: [0, 0], x: [1, 0], y: [0, 1]}\n    edges: [[hub, x], [hub, y]]\n",
    ).replace("{steps: 4, of: e5}", "{steps: 1, of: hbu}")
    write_definition(tmp_path, yaml, PLACE_ON.format(region="cells"))
    assert main(["validate", str(tmp_path)]) != 0
    err = capsys.readouterr().err
    assert "game.yaml:13:34:" in err and "unknown site or region 'hbu'" in err and "did you mean 'hub'?" in err


@pytest.mark.parametrize("regions,message,where", [
    ("  lattice: {within: {steps: 2, of: z9}}\n", "unknown site 'z9'", "game.yaml:14:"),
    ("  lattice: {within: {steps: -1, of: c3}}\n", "", "game.yaml:14:"),
    ("  lattice: {within: {of: c3}}\n", "steps", "game.yaml:14:"),
])
def test_within_errors(tmp_path, capsys, regions, message, where):
    _fails_at(tmp_path, capsys, regions, message, where)


def test_validate_accepts_it(tmp_path, capsys):
    write_definition(tmp_path, HEX_YAML, PLACE_ON.format(region="cells"))
    assert main(["validate", str(tmp_path)]) == 0


@pytest.mark.parametrize("regions, where", [
    ("  lattice: {}\n", "game.yaml:14:12:"),
    ("  lattice: {within: {steps: 1, of: {}}}\n", "game.yaml:14:36:"),
    ("  lattice: {all: true, except: {}}\n", "game.yaml:14:32:"),
])
def test_a_rule_with_no_part_is_warned_about(tmp_path, capsys, regions, where):
    # (it validates — the definition is not wrong — but chooses no site; [] says that)
    game = _game(tmp_path, regions + "  corner: [a1]\n  nested: [a2]\n")
    assert "lattice" not in _sites_by_action(game) or _sites_by_action(game)["lattice"] == sorted(
        f"{f}{r}" for f in "abcde" for r in "12345")
    assert main(["validate", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert f"{where} warning: a region rule with no part chooses no site" in err
    assert "a region with no site is written []" in err


def test_a_region_with_no_site_written_as_a_list_is_not_warned_about(tmp_path, capsys):
    _game(tmp_path, "  lattice: []\n  corner: [a1]\n  nested: [a2]\n")
    assert main(["validate", str(tmp_path)]) == 0
    assert "no part" not in capsys.readouterr().err
