"""A setup entry whose owner does not fit the kind (compilation/model.py): said with
the way out — the other owner in the setup, or `owner: neutral` on the kind."""
import pytest

from interpreter import DefinitionError, load_game
from tests.helpers import write_definition

YAML = """\
game: piles
title: Piles
description: Counters on a board.
rules: game.rules
players:
  - {name: red}
  - {name: blue}
board:
  grid: {files: 4, ranks: 2}
pieces:
  counter: {symbol: C}
  rock: {symbol: R, owner: neutral}
setup:
  SETUP
"""

RULES = """\
phase play:
    turn: take

decision take:
    action take:
        select sites
        onto own: remove to
"""


@pytest.mark.parametrize("setup, message, hint", [
    ("neutral: {counter: [a1]}", "pieces of kind 'counter' are owned by a player",
     "set them up under a player, or give the kind 'owner: neutral' (format.md 2.7)"),
    ("red: {rock: [a1]}", "pieces of kind 'rock' are neutral", "set them up under 'neutral:'"),
])
def test_a_setup_owner_that_does_not_fit_the_kind(tmp_path, setup, message, hint):
    with pytest.raises(DefinitionError) as caught:
        load_game(write_definition(tmp_path, YAML.replace("SETUP", setup), RULES))
    (error,) = [d for d in caught.value.diagnostics if d.severity == "error"]
    assert (error.message, error.hint) == (message, hint)
