"""The warning that an action can never apply (validation/semantic.py): a kind
that no setup, drop, pool, promotion or `create` can put on the board. Every way
of making a piece counts, or the warning is wrong."""
import textwrap

import pytest

from interpreter import DefinitionError, load_game
from tests.helpers import write_definition

YAML = """\
game: makers
title: Makers
description: Pieces made during play.
rules: game.rules
players:
  - {name: red}
  - {name: blue}
board:
  grid: {files: 3, ranks: 2}
pieces:
  stone: {symbol: S, description: Set up.}
  gem: {symbol: G, description: Made during play only.}
setup:
  red: {stone: [a1]}
  blue: {stone: [c2]}
"""

WALK_BY_GEM = """\
    decision go:
        action walk by gem:
            step e
            onto empty: move
"""


def _warnings(tmp_path, rules: str) -> list[str]:
    game = load_game(write_definition(tmp_path, YAML, textwrap.dedent(rules) + textwrap.dedent(WALK_BY_GEM)))
    return [d.message for d in game.warnings]


@pytest.mark.parametrize("making", [
    "create gem at b1",
    "promote a1 to gem",
    "promote a1 to one of gem, stone",
])
def test_a_kind_made_during_play_can_act(tmp_path, making):
    rules = f"""\
        phase play:
            turn: make, go
        decision make:
            action make:
                select [a1]
                onto own: {making}
    """
    assert _warnings(tmp_path, rules) == []


def test_a_kind_nothing_makes_cannot(tmp_path):
    rules = """\
        phase play:
            turn: make, go
        chance make:
            outcomes 1 to 1
            create stone at b1
    """
    assert _warnings(tmp_path, rules) == [
        "action 'walk' can never apply: no gem is set up, dropped, created, promoted to or waiting in a pool"]


def test_a_variable_is_used_when_read_assigned_or_in_a_notation(tmp_path):
    """Only a variable the rules never name is warned about: one only assigned is
    shown in the drawings and is part of the position."""
    yaml = YAML + ("variables:\n  shown: {type: int}\n  read: {type: int}\n  counted: {type: int}\n"
                   "  forgotten: {type: int}\n")
    rules = """\
phase play:
    turn: go
decision go:
    action walk:
        where read == 0
        step e
        onto empty:
            move
            counted += 1
        notation "{from}{to}/{shown}"
"""
    game = load_game(write_definition(tmp_path, yaml, rules))
    assert [d.message for d in game.warnings] == ["variable 'forgotten' is never used in the rules"]


def test_what_an_item_rejected_for_its_name_uses_is_not_unused(tmp_path):
    # A decision named like the phase is an error; the procedure it calls is used
    # (by it), not a second slip to report.
    rules = """\
        phase play:
            turn: go
        decision play:
            action drop:
                select [a1]
                onto own: settle
        procedure settle:
            remove to
    """
    with pytest.raises(DefinitionError) as caught:
        load_game(write_definition(tmp_path, YAML, textwrap.dedent(rules) + textwrap.dedent(WALK_BY_GEM)))
    messages = [d.message for d in caught.value.diagnostics]
    assert any("'play' is already defined" in m for m in messages), messages
    assert not any("never used" in m for m in messages), messages


def test_a_region_the_setup_or_the_display_names_is_used(tmp_path):
    # format.md 2.14 fills a region from the setup ({region: NAME}); the display marks
    # regions by name: neither is unused, though the rules never name them. A region
    # named nowhere still is.
    yaml = YAML.replace("setup:\n  red: {stone: [a1]}\n", "setup:\n  red: {stone: {region: start}}\n") + (
        "regions:\n  start: [a1, b1]\n  marked: [c1]\n  idle: [c2]\n"
        "display:\n  regions:\n    marked: {title: Marked}\n")
    rules = """\
phase play:
    turn: go
decision go:
    action walk:
        step e
        onto empty: move
"""
    game = load_game(write_definition(tmp_path, yaml, rules))
    assert [d.message for d in game.warnings] == ["region 'idle' is never used in the rules"]
    assert [p.site for p in game.pieces(game.initial_state()) if p.owner == "red"] == ["a1", "b1"]
