"""True/false options (`type: flag`, or `values: [false, true]`): read from the YAML,
set with `--option NAME=true`, read by the rules as a condition, listed as written."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.frontends.cli import _list_entry, main
from interpreter.validation.diagnostics import DefinitionError

BASE = Path(__file__).resolve().parents[1] / "broken" / "_base"

# `entering` by its values, `strict` by its type; a capture resets the quiet count
# unless `strict`, a man may enter from the reserve only while `entering`.
OPTIONS = """options:
  entering:
    values: [false, true]
    default: true
    description: Whether men may enter from the reserve.
  strict:
    type: flag
    default: false
    description: Whether a capture leaves the quiet count alone.
"""


def _game(tmp_path: Path, options: str = OPTIONS, *edits: tuple[str, str]) -> Path:
    folder = tmp_path / "game"
    shutil.copytree(BASE, folder)
    yaml = folder / "game.yaml"
    yaml.write_text(yaml.read_text().replace("options:\n", options, 1))
    rules = folder / "game.rules"
    text = rules.read_text()
    for old, new in (("        where reserve[player] > 0\n", "        where reserve[player] > 0 and entering\n"),
                     ("    quiet = 0\n", "    if not strict:\n        quiet = 0\n"), *edits):
        assert old in text
        text = text.replace(old, new, 1)
    rules.write_text(text)
    return folder


def test_a_flag_option_decides_the_legal_actions(tmp_path):
    folder = _game(tmp_path)
    game = load_game(str(folder))
    assert game.options["entering"] is True and game.options["strict"] is False
    # White's five men step ahead, and five enter on the empty first rank.
    assert sorted(game.legal_notations(game.initial_state())) == sorted(
        ["a2-a3", "b2-b3", "c2-c3", "d2-d3", "e2-e3", "@a1", "@b1", "@c1", "@d1", "@e1"])
    for text in ("false", "False", " FALSE ", False):
        off = load_game(str(folder), {"entering": text})
        assert off.options["entering"] is False
        assert sorted(off.legal_notations(off.initial_state())) == ["a2-a3", "b2-b3", "c2-c3", "d2-d3", "e2-e3"]


def test_a_flag_option_compared_with_true_or_false(tmp_path):
    folder = _game(tmp_path, OPTIONS, ("and entering\n", "and entering == true\n"))
    assert len(load_game(str(folder), {"entering": "true"}).legal_notations(
        load_game(str(folder)).initial_state())) == 10
    off = load_game(str(folder), {"entering": "false"})
    assert len(off.legal_notations(off.initial_state())) == 5


def test_a_value_that_is_not_true_or_false(tmp_path, capsys):
    folder = _game(tmp_path)
    assert main(["validate", str(folder), "--option", "strict=yes please"]) == 1
    assert capsys.readouterr().err.splitlines()[0] == \
        "--option:1:1: error: option 'strict' is true or false, not 'yes please'"


def test_a_flag_option_compared_with_a_string(tmp_path, capsys):
    folder = _game(tmp_path, OPTIONS, ("and entering\n", "and entering == \"true\"\n"))
    assert main(["validate", str(folder)]) == 1
    err = capsys.readouterr().err
    first = err.splitlines()[0]
    assert first.endswith("game.rules:20:51: error: option 'entering' is true or false, never \"true\""), err
    assert "hint: a flag option is a condition: write 'entering' or 'not entering'" in err


def test_regelwerk_list_writes_true_and_false(tmp_path):
    game = load_game(str(_game(tmp_path)))
    entry = {"name": "fivefold", "title": "Fivefold", "players": ["white", "black"], "options": game.option_specs}
    lines = _list_entry(entry).splitlines()
    assert "    --option entering=true  (false|true)" in lines
    assert "    --option strict=false  (flag)" in lines


def test_a_variant_changes_a_flag_default(tmp_path):
    folder = _game(tmp_path)
    (folder / "closed.yaml").write_text("variant: closed\nextends: game.yaml\noptions:\n  entering: false\n")
    game = load_game(str(folder), variant=str(folder / "closed.yaml"))
    assert game.options["entering"] is False


@pytest.mark.parametrize("options,message,hint", [
    # What an outsider wrote first: now a flag option, but not mixed with other values.
    ("options:\n  swap: {values: [false, true, maybe], default: false}\n",
     "a true/false option takes only the values true and false", None),
    ("options:\n  swap: {type: bool, default: false}\n", "'bool' is not one of", "did you mean 'flag'?"),
    ("options:\n  swap: {values: [no, yes], default: false}\n", None, None),
    ("options:\n  swap: {values: [\"off\", \"on\"], default: true}\n",
     "option 'swap' takes a word, not true (a true/false option is 'type: flag')", None),
    ("options:\n  swap: {default: true}\n",
     "option 'swap' takes a whole number, not true (a true/false option is 'type: flag')", None),
])
def test_options_that_are_almost_flags(tmp_path, options, message, hint):
    folder = tmp_path / "game"
    shutil.copytree(BASE, folder)
    yaml = folder / "game.yaml"
    yaml.write_text(yaml.read_text().replace("options:\n", options, 1))
    if message is None:  # YAML 1.1 reads yes/no as true/false: a flag option
        assert load_game(str(folder)).options["swap"] is False
        return
    with pytest.raises(DefinitionError) as info:
        load_game(str(folder))
    first = info.value.diagnostics[0]
    assert message in first.message, first
    if hint is not None:
        assert first.hint == hint, first


@pytest.mark.parametrize("keys", [("false", "true"), ('"false"', '"true"')])
def test_a_flag_option_chooses_the_players_in_play(tmp_path, keys):
    # (YAML reads `true:` as a truth value and `"true":` as text: both name the flag's value)
    players = ("players:\n  - {name: white, color: \"#f2efe6\", forward: n}\n"
               "  - {name: black, color: \"#2e2e2e\", forward: s}\n")
    three = players + "  - {name: red, color: \"#d62728\", forward: s}\n"
    in_play = (f"in_play:\n  option: entering\n  choices:\n    {keys[0]}: [white, black]\n"
               f"    {keys[1]}: [white, black, red]\n")
    folder = _game(tmp_path)
    yaml = folder / "game.yaml"
    text = yaml.read_text()
    assert players in text
    for region in ("      black: {ranks: [1]}\n", "      black: {ranks: [5]}\n"):
        assert region in text
        text = text.replace(region, region + region.replace("black", "red"), 1)
    yaml.write_text(text.replace(players, three + in_play, 1))
    assert load_game(str(folder)).players == ("white", "black", "red")
    assert load_game(str(folder), {"entering": "false"}).players == ("white", "black")
