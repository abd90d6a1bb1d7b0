"""A region rule's `only` part (docs/format.md 2.5): the sites of the other parts
that are also in `only`, before `except` — regions as intersections."""
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


def test_only_intersects_the_other_parts(tmp_path):
    game = _game(tmp_path, "  lattice: {files: [b, d], only: {ranks: [2, 4]}}\n"
                           "  corner: {edge: true, only: [a1, c3, e5], except: [e5]}\n"
                           "  nested: {all: true, only: {files: [a, b, c], only: {ranks: [5]}}, except: [b5]}\n")
    by_action: dict[str, list[str]] = {}
    for notation in game.legal_notations(game.initial_state()):
        name, site = notation.split("@")
        by_action.setdefault(name, []).append(site)
    assert {k: sorted(v) for k, v in by_action.items()} == {
        "lattice": ["b2", "b4", "d2", "d4"], "corner": ["a1"], "nested": ["a5", "c5"]}


@pytest.mark.parametrize("regions,message,where", [
    ("  lattice: {only: {ranks: [2]}}\n", "'only' keeps the sites of the rule's other parts", "game.yaml:14:19:"),
    ("  lattice: {files: [b], only: [b2, z9]}\n", "unknown site 'z9'", "game.yaml:14:36:"),
])
def test_only_errors(tmp_path, capsys, regions, message, where):
    regions += "  corner: [a1]\n  nested: [a2]\n"
    with pytest.raises(Exception) as caught:
        _game(tmp_path, regions)
    assert message in str(caught.value)
    assert main(["validate", str(tmp_path)]) == 1
    assert where in capsys.readouterr().err
