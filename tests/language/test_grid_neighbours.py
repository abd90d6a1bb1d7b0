"""A grid's `neighbours` (docs/format.md 2.4): the directions in which a site's
neighbours lie, for `neighbours()`, `walk`, `group` and `connected` — a hexagonal
board is a grid with six of the eight."""
import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import drop_where, write_definition

HEX = "[n, ne, e, s, sw, w]"


def _yaml(neighbours: str = "", setup: str = "") -> str:
    chosen = f", neighbours: {neighbours}" if neighbours else ""
    return ("game: probe\ntitle: Probe\ndescription: A board to try one construct on.\nrules: game.rules\n"
            f"players:\n  - {{name: white}}\n  - {{name: black}}\nboard:\n  grid: {{files: 3, ranks: 3{chosen}}}\n"
            "pieces:\n  stone: {symbol: S, description: A stone.}\n" + setup)


def _legal(tmp_path, neighbours: str, where: str, setup: str = "") -> list[str]:
    game = load_game(write_definition(tmp_path, _yaml(neighbours, setup), drop_where(where)))
    return sorted(game.legal_notations(game.initial_state()))


@pytest.mark.parametrize("neighbours,expected", [
    ("", ["a2", "b1", "b3", "c2"]),
    ("orthogonal", ["a2", "b1", "b3", "c2"]),
    (HEX, ["a1", "a2", "b1", "b3", "c2", "c3"]),
    ("diagonal", ["a1", "a3", "c1", "c3"]),
    ("all", ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]),
])
def test_the_neighbours_of_the_middle_site(tmp_path, neighbours, expected):
    assert _legal(tmp_path, neighbours, "to in neighbours(b2)") == expected


def test_groups_join_along_the_chosen_directions(tmp_path):
    setup = "setup:\n  white: {stone: [a1, b2, c3]}\n"
    # a1-b2-c3 is a chain on the hexagonal grid (sw and ne), three single stones on the orthogonal one
    assert _legal(tmp_path, HEX, "count(group(b2)) == 3", setup) == ["a2", "a3", "b1", "b3", "c1", "c2"]
    (tmp_path / "orthogonal").mkdir()
    assert _legal(tmp_path / "orthogonal", "", "count(group(b2)) == 3", setup) == []


def test_the_drawing_joins_neighbours_once(tmp_path):
    game = load_game(write_definition(tmp_path, _yaml(HEX), drop_where("true")))
    edges = set(game.board.edges)
    assert ("a1", "b2", False) in edges and ("b2", "a1", False) not in edges
    assert ("a2", "b1", False) not in edges and ("b1", "a2", False) not in edges  # se/nw: not neighbours
    assert len(edges) == 6 + 6 + 4  # ranks' steps, files' steps, the ne diagonals


def test_neighbours_go_both_ways(tmp_path, capsys):
    write_definition(tmp_path, _yaml("[n, e, w]"), drop_where("true"))
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "game.yaml:9:" in err and "a neighbour to the n needs its opposite, s" in err and "add s" in err


def test_an_unknown_direction_is_an_error_at_its_place(tmp_path, capsys):
    write_definition(tmp_path, _yaml("[n, up]"), drop_where("true"))
    assert main(["validate", str(tmp_path)]) == 1
    assert "game.yaml:9:" in capsys.readouterr().err
