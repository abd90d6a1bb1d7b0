"""YAML 1.1 reads the plain words `on`, `off`, `yes`, `no` (and `true`, `false`, in any
case) as booleans. Every key of a definition is a name, so a key keeps the word as
written (`off:` declares a variable `off`); a value where a name is expected is
reported at its place with the advice to quote it. `y` and `n` stay words."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from interpreter.validation.yaml_source import load_yaml_text

BASE = Path(__file__).resolve().parent.parent / "broken" / "_base"


@pytest.mark.parametrize("word", ["on", "off", "yes", "no", "On", "OFF", "Yes", "true", "False"])
def test_a_word_read_as_a_boolean_is_kept_as_a_key(word):
    document = load_yaml_text(f"variables:\n  {word}: {{type: flag, default: off}}\n")
    assert document.data == {"variables": {word: {"type": "flag", "default": False}}}
    assert document.positions.key(("variables", word)) == (2, 3)


def test_quoted_and_other_keys_are_unchanged():
    document = load_yaml_text('"on": 1\ny: 2\nn: 3\n2: 4\n')
    assert document.data == {"on": 1, "y": 2, "n": 3, 2: 4}


def test_a_key_written_twice_as_a_word_and_quoted_is_a_duplicate():
    document = load_yaml_text('off: 1\n"off": 2\n')
    assert [d.message for d in document.diagnostics] == ["duplicate key 'off' (first defined at 1:1)"]


@pytest.fixture
def folder(tmp_path) -> Path:
    shutil.copytree(BASE, tmp_path / "fivefold")
    return tmp_path / "fivefold"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_names_yaml_would_read_as_booleans_declare_what_they_say(folder):
    edit(folder / "game.yaml", "  quiet:\n", "  off:\n    type: flag\n  quiet:\n")
    edit(folder / "game.yaml", "  centre: [c3]", "  centre: [c3]\n  on: [a1, e1]")
    edit(folder / "game.rules", "    after each turn:\n",
         "    after each turn:\n        off = exists(on, it is empty)\n")
    game = load_game(str(folder))
    assert list(game.definition.data["variables"]) == ["captures", "off", "quiet"]
    state = game.apply(game.initial_state(), "a2-a3")
    assert game.variables(state)["off"] is True


def test_a_value_read_as_a_boolean_where_a_name_is_expected_says_to_quote_it(folder, capsys):
    edit(folder / "game.yaml", "  - {name: black,", "  - {name: no,")
    assert main(["validate", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "game.yaml:11:12: error: players[1].name must be a string, found false" in err
    assert """hint: YAML reads the word 'no' as false: put it in quotes ("no") to mean the word""" in err


def test_a_number_where_a_text_is_expected_says_to_quote_it(folder, capsys):
    text = (folder / "game.yaml").read_text()
    title = next(line for line in text.splitlines() if line.startswith("title:"))
    edit(folder / "game.yaml", title, "title: 2048")
    assert main(["validate", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "error: title must be a string, found 2048" in err
    assert 'hint: YAML reads 2048 as a number: put it in quotes ("2048") to mean the text' in err
