"""Hints for the usual slips in a rules file, on the base game of the broken-definition
corpus with one line changed."""
import shutil
from pathlib import Path

import pytest

from interpreter.frontends.cli import main

BASE = Path(__file__).resolve().parents[1] / "broken" / "_base"


@pytest.mark.parametrize("old,new,first,hint", [
    # An effect written straight under the action, without a case.
    ("        onto empty: advance\n", "        advance\n",
     'game.rules:14:9: error: found "advance"',
     "hint: what an action does goes in a case under it: 'onto empty:', 'onto enemy:', 'over enemy:', 'off board:'"),
    ("        step ahead\n        onto empty: advance\n", "        step ahead\n        move\n",
     'game.rules:14:9: error: found "move"',
     "hint: what an action does goes in a case under it: 'onto empty:', 'onto enemy:', 'over enemy:', 'off board:'"),
    # A condition on the pattern's line.
    ("        jump ahead\n", "        jump ahead where capture == \"jump\"\n",
     'game.rules:17:20: error: found "where"',
     "hint: 'where' cannot stand here; in an action, a 'where' condition has a line of its own"),
    # A misspelt keyword read as a name: the error shows only at the next word.
    ("define in_goal = to in goal[player]\n",
     "define in_goal = to in goal[player]\nforbid landng where site in centre\n",
     'game.rules:4:15: error: found "where", expected ":"',
     'hint: did you mean "landing" instead of "landng" (4:8)?'),
])
def test_hint(tmp_path, capsys, old, new, first, hint):
    shutil.copytree(BASE, tmp_path / "game")
    rules = tmp_path / "game" / "game.rules"
    text = rules.read_text()
    assert old in text
    rules.write_text(text.replace(old, new, 1))
    assert main(["validate", str(tmp_path / "game")]) == 1
    err = capsys.readouterr().err
    assert first in err.splitlines()[0], err
    assert hint in err, err


def test_a_site_joined_to_a_set_and_no_error_after_it(tmp_path, capsys):
    # `X + ray(...)` with X a site: the set needs a list, [X]. The `let` that failed
    # is reported once: its uses below are not "unknown names" on top of it.
    shutil.copytree(BASE, tmp_path / "game")
    rules = tmp_path / "game" / "game.rules"
    text = rules.read_text()
    old = "procedure take:\n    remove jumped\n"
    assert old in text
    rules.write_text(text.replace(old, old + "    let passed = jumped + ray(jumped, n)\n"
                                         "    if count(passed) > 1:\n        quiet = 0\n", 1))
    assert main(["validate", str(tmp_path / "game")]) == 1
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if ": error: " in line]
    assert len(lines) == 1 and lines[0].endswith(
        "game.rules:36:18: error: the left side of '+' is a site, and '+' joins sets of sites"), err
    assert "hint: a list makes a set of it: [X] + ... (format.md 3.12.1)" in err
