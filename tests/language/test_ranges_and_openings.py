"""An action made once for each number of a range (`action take for each k in 1 to
max_take:`, docs/format.md 3.4) and a phase the game starts in (`start phase: NAME`,
3.3 and 4): a variant that adds a swap opening to Y."""
import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from interpreter.parsing import ast
from interpreter.parsing.parser import parse_rules
from tests.helpers import DATA, play, write_definition

NIM_YAML = """\
game: nim
title: Nim
description: Take 1 to max_take counters from the pile; who cannot take loses.
rules: game.rules
players:
  - {name: first}
  - {name: second}
board:
  grid: {files: 1, ranks: 1}
pieces:
  stone: {symbol: S}
variables:
  pile: {default: 7}
options:
  max_take: {type: int, default: 3, min: 0, max: 64}
"""
NIM_RULES = """\
phase play:
    turn: take
    if no action:
        lose

decision take:
    action take for each k in 1 to max_take:
        where k <= pile
        notation "take:{k}"
        pass:
            pile -= k
"""


# ---------------------------------------------------------------- parsing
def test_a_range_after_an_action_name_parses_to_its_two_ends():
    decision = parse_rules(NIM_RULES, "t.rules").items[1]
    assert isinstance(decision, ast.Decision)
    each = decision.actions[0].each
    assert each is not None and each.name == "k"
    assert each.collection == ast.Num(each.collection.pos, 1)
    assert isinstance(each.until, ast.Name) and each.until.id == "max_take"
    assert (each.until.pos.line, each.until.pos.column) == (7, 36)
    listed = parse_rules(NIM_RULES.replace("1 to max_take", "[1, 2]"), "t.rules").items[1]
    assert listed.actions[0].each.until is None and isinstance(listed.actions[0].each.collection, ast.ListLit)


def test_start_phase_is_an_item_of_its_own_and_not_the_statement():
    first, phase = parse_rules("start phase: opening\nphase opening:\n    turn: x\n"
                               "    after each turn:\n        start phase play\n", "t.rules").items
    assert isinstance(first, ast.StartPhase) and first.phase == "opening"
    assert (first.phase_pos.line, first.phase_pos.column) == (1, 14)
    assert isinstance(phase.after_turn[0], ast.StartPhaseStmt) and phase.after_turn[0].phase == "play"


# ---------------------------------------------------------------- the range of an action
@pytest.fixture()
def nim(tmp_path):
    return write_definition(tmp_path, NIM_YAML, NIM_RULES)


@pytest.mark.parametrize("max_take, listed", [
    (3, ["take:1", "take:2", "take:3"]),
    (5, ["take:1", "take:2", "take:3", "take:4", "take:5"]),
    (1, ["take:1"]),
])
def test_the_actions_follow_the_option(nim, max_take, listed):
    game = load_game(nim, options={"max_take": max_take})
    assert game.legal_notations(game.initial_state()) == listed
    state = play(game, "take:1", "take:1", "take:1", "take:1", "take:1")  # 2 left
    assert game.legal_notations(state) == listed[:2]


def test_the_range_is_the_list_written_out(nim, tmp_path):
    """The range compiles as the bracket list of its numbers: the same actions,
    positions and results all along a game."""
    listed = tmp_path / "listed"
    listed.mkdir()
    write_definition(listed, NIM_YAML, NIM_RULES.replace("1 to max_take", "[1, 2, 3]"))
    games = load_game(nim), load_game(str(listed))
    states = [g.initial_state() for g in games]
    for move in ["take:3", "take:1", "take:2", "take:1"]:
        assert games[0].legal_notations(states[0]) == games[1].legal_notations(states[1])
        states = [g.apply(s, move) for g, s in zip(games, states)]
    assert games[0].is_terminal(states[0]) and games[1].is_terminal(states[1])
    assert games[0].result(states[0]).winner == games[1].result(states[1]).winner == "second"


def test_an_option_below_the_start_leaves_the_action_out(nim):
    game = load_game(nim, options={"max_take": 0})
    state = game.initial_state()
    assert game.legal_notations(state) == [] and game.result(state).winner == "second"


@pytest.mark.parametrize("spelling, line_col, message", [
    ("1 to pile", "7:36", "an end of 'for each k in A to B' after an action's name is fixed when the rules "
                          "are compiled"),
    ("1 to 65", "7:31", "an action is made for at most 64 values, 'k in 1 to 65' is 65 numbers"),
    ("max_take to max_take + 64", "7:31", "'k in 3 to 67' is 65 numbers"),
    ("3 to 1", "7:31", "action 'take' is made for no value: 1 is below 3"),
    ("1 to true", "7:36", "'for each k in A to B' after an action's name needs whole numbers A and B, "
                          "found a condition"),
    ("1 to max_tkae", "7:36", "unknown name 'max_tkae'"),
])
def test_a_range_that_cannot_be_fixed_is_refused_at_its_place(tmp_path, capsys, spelling, line_col, message):
    write_definition(tmp_path, NIM_YAML, NIM_RULES.replace("1 to max_take", spelling))
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"game.rules:{line_col}: error: " in err and message in err, err
    assert "Traceback" not in err


# ---------------------------------------------------------------- an opening phase
SWAP = DATA / "y" / "variants" / "swap.yaml"


def test_the_variant_starts_in_its_opening_and_offers_the_swap_once():
    game = load_game(str(SWAP))
    state = game.initial_state()
    assert game.phase(state) == "opening" and game.to_move(state) == "first"
    assert len(game.legal_notations(state)) == 45 and "swap" not in game.legal_notations(state)
    state = game.apply(state, "@e3")
    assert game.to_move(state) == "second" and game.legal_notations(state)[-1] == "swap"
    swapped = game.apply(state, "swap")
    assert [(p.site, p.owner) for p in game.pieces(swapped)] == [("e3", "second")]
    assert game.phase(swapped) == "play" and game.to_move(swapped) == "first"
    assert "swap" not in game.legal_notations(swapped) and len(game.legal_notations(swapped)) == 44
    placed = game.apply(state, "@a1")
    assert game.phase(placed) == "play" and game.to_move(placed) == "first"
    assert sorted((p.site, p.owner) for p in game.pieces(placed)) == [("a1", "second"), ("e3", "first")]


def test_without_the_variant_the_game_starts_in_play_as_before():
    game = load_game(str(DATA / "y" / "y9.yaml"))
    state = game.apply(game.initial_state(), "@e3")
    assert game.phase(state) == "play" and "swap" not in game.legal_notations(state)
    assert len(game.legal_notations(state)) == 44


def _variant(tmp_path, overlay: str, extends: str = "y9.yaml") -> str:
    """A variant in `tmp_path` (v.yaml, v.rules) of a copy of Y or of its swap variant."""
    for name in ("y9.yaml", "y.rules"):
        (tmp_path / name).write_text((DATA / "y" / name).read_text())
    (tmp_path / "swap.yaml").write_text(SWAP.read_text().replace("../y9.yaml", "y9.yaml"))
    (tmp_path / "swap.rules").write_text(SWAP.with_suffix(".rules").read_text())
    (tmp_path / "v.yaml").write_text(f"variant: v\nextends: {extends}\nrules: v.rules\n")
    (tmp_path / "v.rules").write_text(overlay)
    return str(tmp_path / "v.yaml")


def test_an_overlay_start_phase_replaces_the_games(tmp_path):
    game = load_game(_variant(tmp_path, "start phase: play\n", extends="swap.yaml"))
    assert game.phase(game.initial_state()) == "play"
    swap = load_game(str(tmp_path / "swap.yaml"))
    assert swap.phase(swap.initial_state()) == "opening"


def test_a_start_phase_that_names_no_phase_is_an_error(tmp_path, capsys):
    overlay = "start phase: opneing\nphase opening:\n    turn: place\n    after each turn:\n        start phase play\n"
    assert main(["validate", _variant(tmp_path, overlay)]) == 1
    err = capsys.readouterr().err
    assert "v.rules:1:14: error: 'start phase' names no phase 'opneing'" in err, err
    assert "did you mean 'opening'?" in err and "Traceback" not in err


def test_two_start_phases_in_one_game_are_an_error(tmp_path, capsys):
    rules = "start phase: play\n" + NIM_RULES + "start phase: play\n"
    write_definition(tmp_path, NIM_YAML, rules)
    assert main(["validate", str(tmp_path)]) == 1
    assert "game.rules:13:1: error: a second 'start phase'" in capsys.readouterr().err


def test_two_start_phases_in_one_overlay_are_an_error(tmp_path, capsys):
    assert main(["validate", _variant(tmp_path, "start phase: play\nstart phase: play\n")]) == 1
    assert "v.rules:2:1: error: a second 'start phase' (the first is at " in capsys.readouterr().err
