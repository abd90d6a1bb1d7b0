"""The Python API given what a stranger (or a slip) might pass: a clear error of its
documented kind, never an AttributeError from inside."""
from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.api import IllegalActionError
from interpreter.validation.diagnostics import DefinitionError
from interpreter.validation.files import FileRefused, read_bounded


def test_a_nul_in_a_file_name_is_refused_as_no_file():
    with pytest.raises(FileRefused, match="no file's name holds a NUL character"):
        read_bounded("game\x00.yaml", 10)


def test_a_variant_named_with_a_nul_is_a_definition_error(base_game):
    with pytest.raises(DefinitionError) as caught:
        load_game(str(base_game), variant="v\x00.yaml")
    assert "cannot read v?.yaml: no file's name holds a NUL character" in caught.value.diagnostics[0].message


@pytest.mark.parametrize("action", [7, -1, None, 10**100])
def test_apply_of_what_is_no_action_says_so(action):
    game = load_game("lielow")
    with pytest.raises(TypeError, match="an action is an Action of the position or its notation, not "):
        game.apply(game.initial_state(), action)


def test_a_long_notation_is_shown_cut():
    game = load_game("lielow")
    with pytest.raises(IllegalActionError) as caught:
        game.apply(game.initial_state(), "a" * 1_000_000)
    assert len(str(caught.value)) < 300 and str(caught.value).endswith("…' is not legal here in lielow")
    assert caught.value.notation == "a" * 1_000_000
