"""A name the YAML gives two things (validation/semantic.py, hidden_name_warnings):
in the rules' expressions one wins, so the other cannot be named there — said at the
declaration, and again where a direction was meant."""
import textwrap

import pytest

from interpreter import DefinitionError, load_game
from tests.helpers import write_definition

YAML = """\
game: lines
title: Lines
description: Stones in a row.
rules: game.rules
players:
  - {name: red}
  - {name: blue}
board:
  grid: {files: 4, ranks: 4}
pieces:
  stone: {symbol: S}
options:
  n: {min: 2, max: 4, default: 3, description: Stones in a row to win.}
"""

RULES = """\
phase play:
    turn: place

decision place:
    action stone:
        drop stone on sites
        onto empty:
            place
            if count(ray(to, e, it is own)) >= n - 1:
                win
"""


def test_an_option_named_as_a_direction_is_said_where_it_is_declared(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    assert [(d.line, d.column, d.message, d.hint) for d in game.warnings] == [
        (13, 3, "option 'n' has the name of a direction: in the rules' expressions 'n' is the option, "
                "and the direction cannot be named there", "give the option another name")]


def test_a_region_named_as_a_site_is_said(tmp_path):
    yaml = YAML.replace("options:\n  n: {min: 2, max: 4, default: 3, description: Stones in a row to win.}\n",
                        "regions:\n  a1: [a1, b1]\n")
    game = load_game(write_definition(tmp_path, yaml, RULES.replace("n - 1", "2").replace("sites", "a1")))
    assert [d.message for d in game.warnings] == [
        "region 'a1' has the name of a site: in the rules' expressions 'a1' is the region, "
        "and the site cannot be named there"]


def test_the_direction_meant_names_what_hides_it(tmp_path):
    rules = RULES.replace("count(ray(to, e, it is own))", "count(ray(to, n, it is own))")
    with pytest.raises(DefinitionError) as caught:
        load_game(write_definition(tmp_path, YAML, rules))
    (error,) = [d for d in caught.value.diagnostics if d.severity == "error"]
    assert (error.line, error.message) == (9, "the second argument of 'ray' must be a direction, found a number (3)")
    assert error.hint == ("'n' names a direction, but a variable, pool or option of that name hides it here: "
                          "give that another name")


def test_names_of_their_own_warn_of_nothing(tmp_path):
    yaml = YAML.replace("  n: {", "  length: {")
    game = load_game(write_definition(tmp_path, yaml, textwrap.dedent(RULES).replace("n - 1", "length - 1")))
    assert game.warnings == []
