"""The warning that two sites of a graph board are drawn at the same place
(validation/semantic.py): one hides the other in every drawing."""
from interpreter.frontends.cli import main
from tests.helpers import write_definition

RULES = """\
phase play:
    turn: place

decision place:
    action stone:
        drop stone on sites
        onto empty: place
"""


def _yaml(sites: str) -> str:
    return ("game: ring\ntitle: Ring\ndescription: A graph board.\nrules: game.rules\n"
            "players:\n  - {name: red}\n  - {name: blue}\n"
            f"board:\n  graph:\n    sites:\n{sites}    edges: [[p, q], [q, r]]\n"
            "pieces:\n  stone: {symbol: S, description: A stone.}\n")


def test_two_sites_at_one_place_are_warned_about(tmp_path, capsys):
    write_definition(tmp_path, _yaml("      p: [0, 0]\n      q: [1, 0]\n      r: [1.0, 0]\n"), RULES)
    assert main(["validate", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    # (at r's line: the second of the two)
    assert "game.yaml:13:10: warning: sites 'q' and 'r' are drawn at the same place [1.0, 0]" in err
    assert "give each site its own [x, y]" in err


def test_sites_apart_or_not_drawn_are_not_warned_about(tmp_path, capsys):
    write_definition(tmp_path, _yaml("      p: [0, 0]\n      q: null\n      r: null\n"), RULES)
    assert main(["validate", str(tmp_path)]) == 0
    assert "drawn at the same place" not in capsys.readouterr().err
