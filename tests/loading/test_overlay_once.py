"""What a variant's rules overlay may say once (docs/format.md 4): a second `score:`,
a second item of one kind and name, a second change of one item, an item both given
whole and changed, ... is an error at the second, not the later silently winning;
and `remove start phase` undoes the game's `start phase: NAME`."""
import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.language.test_ranges_and_openings import _variant

PHASE = "phase play:\n    turn: place\n"
CHANGE = "change phase play:\n    turn: place\n"


@pytest.mark.parametrize("overlay, line_col, message", [
    ("score: 1\nscore: 2\n", "2:1", "a second 'score' in this overlay (the first is at "),
    (PHASE + PHASE, "3:1", "a second phase 'play' in this overlay (the first is at "),
    ("define a = 1\ndefine a = 2\n", "2:1", "a second define 'a' in this overlay"),
    ("decision place:\n    action stone:\n        drop stone on cells\n        onto empty: place\n" * 2, "5:1",
     "a second decision 'place' in this overlay"),
    (CHANGE + CHANGE, "3:1", "a second 'change phase play' (the first is at "),
    (PHASE + CHANGE, "3:1", "phase 'play' is given whole at "),
    (CHANGE + PHASE, "3:1", "phase 'play' is changed at "),
    ("remove score x\nremove score x\n", "2:1", "a second 'remove score x'"),
    ("score: 1\nremove score x\n", "2:1", "'remove score x' removes what this overlay gives at "),
    ("remove score x\n", "1:1", "there is no 'score' to remove"),
    ("remove start phase\n", "1:1", "there is no 'start phase' to remove"),
    ("remove start play\n", "1:1", "write 'remove start phase' (nothing after it)"),
])
def test_said_twice_in_one_overlay_is_an_error_at_the_second(tmp_path, capsys, overlay, line_col, message):
    assert main(["validate", _variant(tmp_path, overlay)]) == 1
    err = capsys.readouterr().err
    assert f"v.rules:{line_col}: error: {message}" in err, err
    assert "Traceback" not in err


def test_removed_then_given_again_replaces_it(tmp_path, capsys):
    """`remove` first, then the item: a replacement, not a mistake."""
    assert main(["validate", _variant(tmp_path, "remove phase play\n" + PHASE)]) == 0, capsys.readouterr().err


def test_remove_start_phase_starts_the_game_in_its_first_phase(tmp_path):
    """The swap variant's opening is declared after `play`: without its `start
    phase`, the game starts in `play` and never offers the swap."""
    game = load_game(_variant(tmp_path, "remove start phase\n", extends="swap.yaml"))
    state = game.initial_state()
    assert game.phase(state) == "play"
    assert "swap" not in game.legal_notations(game.apply(state, "@e3"))


def test_removing_the_start_phase_with_its_phase(tmp_path, capsys):
    overlay = "remove phase opening\nremove decision open\nremove start phase\n"
    assert main(["validate", _variant(tmp_path, overlay, extends="swap.yaml")]) == 0, capsys.readouterr().err


def test_removing_the_phase_the_game_starts_in_says_how_to_undo_the_start(tmp_path, capsys):
    assert main(["validate", _variant(tmp_path, "remove phase opening\n", extends="swap.yaml")]) == 1
    err = capsys.readouterr().err
    assert "v.rules:1:1: error: phase 'opening' is the one the game starts in ('start phase: opening' at " in err
    assert "hint: add 'remove start phase' to this overlay (the game then starts in its first phase, 'play')" in err
    assert "names no phase" not in err and "Traceback" not in err, err


def test_once_in_all_the_overlay_files_of_one_variant(tmp_path, capsys):
    path = _variant(tmp_path, "score: 1\n")
    (tmp_path / "w.rules").write_text("define a = 1\nscore: 2\n")
    (tmp_path / "v.yaml").write_text("variant: v\nextends: y9.yaml\nrules: [v.rules, w.rules]\n")
    assert main(["validate", path]) == 1
    err = capsys.readouterr().err
    assert "w.rules:2:1: error: a second 'score' in this overlay (the first is at " in err and "v.rules:1:1" in err, err
