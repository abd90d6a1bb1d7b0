"""`move` where an action may have no acting piece: a `select` chooses a site and
moves nothing (docs/format.md 2.x, `select SET`).

In a select's case a plain `move` is an error found by `validate` (it passed, and
every command that played the game then stopped with an internal error); in an
`after each action` block, which also runs after selects and passes, it moves
nothing when there is no acting piece.
"""
from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.validation.diagnostics import DefinitionError

from .conftest import GameCopy, assert_clean, run_cli
from .test_rule_faults import COMMANDS, run_command

SELECT = """    action pick:
        where quiet > 2
        select pieces of opponent
        onto enemy:
            {body}
    action enter:"""


def with_select(game: GameCopy, body: str) -> GameCopy:
    return game.edit("game.rules", "    action enter:", SELECT.format(body=body))


@pytest.mark.parametrize("body", ["move", "take", "if target is man:\n                move"])
def test_a_select_that_moves_the_acting_piece_is_refused_where_move_stands(base_game, body):
    with_select(base_game, body)
    with pytest.raises(DefinitionError) as caught:
        load_game(str(base_game))
    errors = [d for d in caught.value.diagnostics if "'move' moves the acting piece" in d.message]
    assert errors, caught.value.diagnostics
    rules = (base_game.path / "game.rules").read_text().splitlines()
    # at the 'move' itself: in the case, or in the procedure it calls
    assert rules[errors[0].line - 1][errors[0].column - 1:].startswith("move")
    assert errors[0].message.endswith("and action 'pick', onto enemy has none: a 'select' chooses a site and "
                                      "moves no piece")
    assert errors[0].hint == "to move the piece chosen, write 'move target to SITE'"


def test_moving_the_chosen_piece_by_name_is_fine(base_game):
    with_select(base_game, "move target to a3")
    game = load_game(str(base_game))
    state = game.initial_state()
    for action in ["b2-b3", "c4-c3", "e2-e3"]:
        state = game.apply(state, action)
    after = game.apply(state, "b3")  # black picks White's man on b3 and puts it on a3
    assert ("a3", "white") in {(p.site, p.owner) for p in game.pieces(after)}
    assert "b3" not in {p.site for p in game.pieces(after)}


@pytest.mark.parametrize("command", ["bench", "lint", "match", "play", "perft", "moves"])
def test_move_after_each_action_does_nothing_after_a_select(capsys, monkeypatch, tmp_path, base_game, command):
    with_select(base_game, "remove target")
    base_game.edit("game.rules", "        if quiet >= limit:\n            draw\n",
                   "        if quiet >= limit:\n            draw\n    after each action:\n        move\n")
    code, out, err = run_command(capsys, monkeypatch, tmp_path, command, base_game, "b2-b3 c4-c3 e2-e3 b3\n")
    assert_clean(code, out + err, 0)


def test_after_a_select_the_chosen_site_keeps_its_piece_and_nothing_moves(base_game):
    with_select(base_game, "quiet = 0")
    base_game.edit("game.rules", "        if quiet >= limit:\n            draw\n",
                   "        if quiet >= limit:\n            draw\n    after each action:\n        move\n")
    game = load_game(str(base_game))
    state = game.initial_state()
    for action in ["b2-b3", "c4-c3", "e2-e3"]:  # quiet reaches 3: the select is legal
        state = game.apply(state, action)
    assert "b3" in game.legal_notations(state)
    before = {(p.site, p.owner) for p in game.pieces(state)}
    after = game.apply(state, "b3")
    assert {(p.site, p.owner) for p in game.pieces(after)} == before
    assert game.variables(after)["quiet"] == 0 and game.to_move(after) == "white"


def test_every_command_reports_the_select_with_move_cleanly(capsys, monkeypatch, tmp_path, base_game):
    with_select(base_game, "move")
    for command in COMMANDS:
        code, out, err = run_command(capsys, monkeypatch, tmp_path, command, base_game, "a2-a3\n")
        assert_clean(code, out + err)
        assert "'move' moves the acting piece" in out + err, command


def test_validate_refuses_it(capsys, base_game):
    with_select(base_game, "move")
    code, _, err = run_cli(capsys, "validate", base_game)
    assert_clean(code, err)
