"""A site at a grid offset (docs/format.md 2.4, 3.12): `neighbour(X, (dx, dy))` in
expressions, and offsets among a grid's `neighbours` (a board whose sites are linked
a knight's move apart) for `neighbours()`, `group` and `connected`."""
import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import drop_where, write_definition
from tests.language.test_grid_neighbours import _yaml

KNIGHT = "[[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]]"


def _legal(tmp_path, where: str, neighbours: str = "", setup: str = "", yaml: str = "") -> list[str]:
    game = load_game(write_definition(tmp_path, yaml or _yaml(neighbours, setup), drop_where(where)))
    return sorted(game.legal_notations(game.initial_state()))


@pytest.mark.parametrize("where,expected", [
    ("neighbour(to, (1, 2)) == c3", ["b1"]),
    ("neighbour(to, (-2, 1)) == a2", ["c1"]),
    # none off the board, as `neighbour(X, d)` at the edge: (-1, -2) needs a file to the left and two ranks below
    ("neighbour(to, (-1, -2)) == none", ["a1", "a2", "a3", "b1", "b2", "c1", "c2"]),
    ("neighbour(to, (3, 0)) == none", ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]),
    # a neighbour of a neighbour; an offset of one step is that direction
    ("neighbour(neighbour(to, (1, 0)), (1, 2)) == c3", ["a1"]),
    ("neighbour(to, (0, 1)) == neighbour(to, n)", ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]),
])
def test_the_site_at_an_offset(tmp_path, where, expected):
    assert _legal(tmp_path, where) == expected


def test_an_offset_is_the_same_for_every_player(tmp_path):
    # Black's forward is south: the offset is still files east and ranks north.
    yaml = _yaml().replace("{name: black}", "{name: black, forward: s}")
    game = load_game(write_definition(tmp_path, yaml, drop_where(
        "neighbour(to, (1, 2)) == c3 or neighbour(to, (1, -2)) == c1")))
    start = game.initial_state()
    assert game.legal_notations(start) == ["b1", "b3"]
    state = game.apply(start, game.legal_actions(start)[0])  # white on b1
    assert game.legal_notations(state) == ["b3"]


def test_neighbours_a_knights_move_apart(tmp_path):
    assert _legal(tmp_path, "to in neighbours(a1)", KNIGHT) == ["b3", "c2"]
    (tmp_path / "mixed").mkdir()
    assert _legal(tmp_path / "mixed", "to in neighbours(a1)", "[n, s, [1, 2], [-1, -2]]") == ["a2", "b3"]


@pytest.mark.parametrize("neighbours,count", [(KNIGHT, 3), ("", 4)])
def test_groups_and_floods_follow_the_offsets(tmp_path, neighbours, count):
    # a1-b3 and b3-c1 are a knight's move apart, b1 and d1 a knight's move from no stone;
    # the orthogonal grid joins a1-b1-c1-d1
    yaml = _yaml(neighbours, "setup:\n  white: {stone: [a1, b1, b3, c1, d1]}\n").replace(
        "files: 3, ranks: 3", "files: 4, ranks: 4")
    where = f"count(group(a1)) == {count} and count(connected(a1, it is own)) == {count}"
    assert _legal(tmp_path, where, yaml=yaml) == ["a2", "a3", "a4", "b2", "b4", "c2", "c3", "c4", "d2", "d3", "d4"]


@pytest.mark.parametrize("where,message", [
    ("neighbour(to, (0, 0)) == c3", "game.rules:6:29: error: the offset (0, 0) is the site itself, not a neighbour"),
    ("neighbour(to, (x, 2)) == c3", "game.rules:6:30: error: an offset is two whole numbers written out"),
    ("neighbour(to, (1 + 1, 2)) == c3", "game.rules:6:30: error: an offset is two whole numbers written out"),
    ("(1, 2) == c3", "game.rules:6:15: error: an offset (1, 2) is written only as the second argument of "
                     "'neighbour': neighbour(X, (1, 2))"),
    # A wrong count of numbers, or the wrong brackets: the accepted forms are named.
    ("neighbour(to, (1, 2, 3)) == c3", "game.rules:6:36: error: an offset has two numbers (dx, dy), not 3"),
    ("neighbour(to, (1)) == c3", "game.rules:6:30: error: the second argument of 'neighbour' must be a direction, "
                                 "found a number (1)"),
    ("neighbour(to, [1, 2]) == c3", "game.rules:6:29: error: an offset is written in parentheses: "
                                    "neighbour(X, (1, 2))"),
    ("neighbour(to, [1, 2, 3]) == c3", "game.rules:6:29: error: an offset has two numbers (dx, dy), not 3"),
])
def test_a_bad_offset_in_the_rules(tmp_path, capsys, where, message):
    write_definition(tmp_path, _yaml(), drop_where(where))
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    if "has two numbers" in message or "(1)" in message:
        assert "hint: an offset is two whole numbers, (dx, dy)" in err and "neighbour(X, n)" in err


@pytest.mark.parametrize("pattern,message", [
    ("leap (1, 2, 3)", "game.rules:5:14: error: an offset has two numbers (dx, dy), not 3"),
    ("leap (1)", "game.rules:5:14: error: an offset has two numbers (dx, dy), not 1"),
    ("leap exactly (1, 2) via (0, 1, 1)", "game.rules:5:33: error: an offset has two numbers (dx, dy), not 3"),
    ("leap (n, 2)", 'game.rules:5:15: error: found "n", expected one of: a number, "-"'),
])
def test_a_leap_offset_of_the_wrong_count(tmp_path, capsys, pattern, message):
    rules = (f"phase play:\n    turn: move\ndecision move:\n    action go by stone:\n        {pattern}\n"
             "        onto empty: advance\n")
    write_definition(tmp_path, _yaml(setup="setup:\n  white:\n    stone: [a1]\n"), rules)
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert message in err and "leap (1, 2), (2, 1)" in err, err


def test_an_offset_needs_a_grid(tmp_path, capsys):
    yaml = _yaml().replace("  grid: {files: 3, ranks: 3}\n",
                           "  graph:\n    sites: {a: [0, 0], b: [1, 2]}\n    edges: [[a, b]]\n")
    write_definition(tmp_path, yaml, drop_where("neighbour(to, (1, 2)) == b"))
    assert main(["validate", str(tmp_path)]) == 1
    assert "'neighbour(site, direction)' needs a grid board" in capsys.readouterr().err


@pytest.mark.parametrize("neighbours,message", [
    ("[[0, 0]]", "game.yaml:9:43: error: a neighbour at the offset [0, 0] is the site itself"),
    ("[n, s, [1, 2]]", "game.yaml:9:49: error: a neighbour at the offset [1, 2] needs its opposite, [-1, -2]"),
    ("[[1, 0], [-1, 0]]", "game.yaml:9:43: error: the offset [1, 0] is the direction e"),
    ("[[1, x], [-1, -2]]", "game.yaml:9:47: error: board.grid.neighbours[0][1] must be an integer"),
    ("[[1, 2, 3], [-1, -2]]", "game.yaml:9:43: error: board.grid.neighbours[0] must have at most 2 items"),
])
def test_a_bad_offset_among_the_neighbours(tmp_path, capsys, neighbours, message):
    write_definition(tmp_path, _yaml(neighbours), drop_where("true"))
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert message in err
    if "items" in message:  # (a wrong count: the schema's description of an offset is the hint)
        assert "hint: [files east, ranks north]: the site there is a neighbour" in err
