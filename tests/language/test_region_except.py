"""A region rule's `except` part (docs/format.md 2.5) is a region itself — a list of
sites or a rule with its own parts, `only` and `except` — taken out after `only`."""
import pytest

from interpreter.frontends.cli import main
from tests.language.test_region_only import _fails_at, _game, _sites_by_action


def test_except_takes_out_a_rule_as_well_as_a_list(tmp_path):
    game = _game(tmp_path, "  lattice: {all: true, except: {edge: true}}\n"
                           "  corner: {ranks: [1], except: {files: [b, c, d], except: [c1]}}\n"
                           "  nested: {files: [a], except: {union: [[a1], {ranks: [5]}]}}\n")
    assert _sites_by_action(game) == {
        "lattice": ["b2", "b3", "b4", "c2", "c3", "c4", "d2", "d3", "d4"],
        "corner": ["a1", "c1", "e1"], "nested": ["a2", "a3", "a4"]}


@pytest.mark.parametrize("regions,message,where", [
    ("  lattice: {except: {edge: true}}\n", "'except' takes sites out of the rule's other parts", "game.yaml:14:21:"),
    ("  lattice: {all: true, except: {files: [b], only: [z9]}}\n", "unknown site 'z9'", "game.yaml:14:"),
])
def test_except_errors(tmp_path, capsys, regions, message, where):
    _fails_at(tmp_path, capsys, regions, message, where)


def test_a_file_the_grid_has_not_in_except_is_warned_about(tmp_path, capsys):
    _game(tmp_path, "  lattice: {all: true, except: {files: [q]}}\n  corner: [a1]\n  nested: [a2]\n")
    assert main(["validate", str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert "game.yaml:14:41: warning: the board has no file q: it chooses no site" in out.out + out.err
