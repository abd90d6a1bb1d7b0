"""A region rule's `only` part (docs/format.md 2.5): the sites of the other parts
that are also in `only`, before `except` — regions as intersections; and `union`,
the sites of several regions — unions of intersections."""
import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import stones_and_rocks, write_definition

RULES = ("phase play:\n    turn: place\ndecision place:\n"
         + "".join(f"    action {name}:\n        drop stone on {name}\n        notation \"{name}@{{to}}\"\n"
                   "        onto empty: place\n" for name in ("lattice", "corner", "nested")))


def _game(tmp_path, regions: str):
    yaml = stones_and_rocks(files=5, ranks=5, extra="regions:\n" + regions)
    return load_game(write_definition(tmp_path, yaml, RULES))


def _sites_by_action(game) -> dict[str, list[str]]:
    by_action: dict[str, list[str]] = {}
    for notation in game.legal_notations(game.initial_state()):
        name, site = notation.split("@")
        by_action.setdefault(name, []).append(site)
    return {name: sorted(sites) for name, sites in by_action.items()}


def test_only_intersects_the_other_parts(tmp_path):
    game = _game(tmp_path, "  lattice: {files: [b, d], only: {ranks: [2, 4]}}\n"
                           "  corner: {edge: true, only: [a1, c3, e5], except: [e5]}\n"
                           "  nested: {all: true, only: {files: [a, b, c], only: {ranks: [5]}}, except: [b5]}\n")
    assert _sites_by_action(game) == {
        "lattice": ["b2", "b4", "d2", "d4"], "corner": ["a1"], "nested": ["a5", "c5"]}


@pytest.mark.parametrize("regions,message,where", [
    ("  lattice: {only: {ranks: [2]}}\n", "'only' keeps the sites of the rule's other parts", "game.yaml:14:19:"),
    ("  lattice: {files: [b], only: [b2, z9]}\n", "unknown site 'z9'", "game.yaml:14:36:"),
])
def test_only_errors(tmp_path, capsys, regions, message, where):
    _fails_at(tmp_path, capsys, regions, message, where)


def _fails_at(tmp_path, capsys, regions: str, message: str, where: str) -> None:
    """Loading fails with `message`; `validate` says so at `where`."""
    regions += "  corner: [a1]\n  nested: [a2]\n"
    with pytest.raises(Exception) as caught:
        _game(tmp_path, regions)
    assert message in str(caught.value)
    assert main(["validate", str(tmp_path)]) == 1
    assert where in capsys.readouterr().err


def test_union_joins_regions_each_with_its_own_only_and_except(tmp_path):
    game = _game(tmp_path, "  lattice: {union: [{files: [a, c, e], only: {ranks: [2, 4]}},"
                           " {files: [b, d], only: {ranks: [1, 3, 5]}, except: [d5]}]}\n"
                           "  corner: {sites: [a1], union: [[e5], {edge: true, only: [c1]}], except: [e5]}\n"
                           "  nested: {union: [{union: [[b2]]}], only: [b2, b3]}\n")
    assert _sites_by_action(game) == {
        "lattice": ["a2", "a4", "b1", "b3", "b5", "c2", "c4", "d1", "d3", "e2", "e4"],
        "corner": ["a1", "c1"], "nested": ["b2"]}


@pytest.mark.parametrize("regions,message,where", [
    ("  lattice: {union: [[b2, z9]]}\n", "unknown site 'z9'", "game.yaml:14:"),
    ("  lattice: {union: []}\n", "", "game.yaml:14:"),
])
def test_union_errors(tmp_path, capsys, regions, message, where):
    _fails_at(tmp_path, capsys, regions, message, where)


def test_a_rank_or_file_the_grid_has_not_chooses_nothing_and_is_warned_about(tmp_path, capsys):
    game = _game(tmp_path, "  lattice: {union: [[b2], {files: [q]}]}\n"
                           "  corner: {ranks: [1, 6], only: [a1, a5]}\n  nested: [a2]\n")
    assert sorted(game.legal_notations(game.initial_state())) == ["corner@a1", "lattice@b2", "nested@a2"]
    assert main(["validate", str(tmp_path)]) == 0
    out = capsys.readouterr()
    text = out.out + out.err
    assert "game.yaml:14:36: warning: the board has no file q: it chooses no site" in text
    assert "its files are a to e" in text
    assert "game.yaml:15:23: warning: the board has no rank 6: it chooses no site" in text
