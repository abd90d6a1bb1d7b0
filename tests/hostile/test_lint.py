"""`regelwerk lint`: what it reads in the rules, what it finds in play, and that
neither costs more than the game does."""
from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.analysis.lint import lint
from interpreter.frontends.agents import RandomAgent, make_agent

from .conftest import GameCopy, run_cli

DICE = "\nchance roll:\n    outcomes 0 to 10000\n    quiet += 1\n"


def line_of(game: GameCopy, file: str, text: str) -> int:
    return 1 + next(i for i, line in enumerate((game.path / file).read_text().splitlines()) if text in line)


NO_MOVE = ("procedure advance:\n    move\n", "procedure advance:\n")
NO_FALLBACK = ("    turn: move\n", "    turn: move\n    if no action:\n        if quiet > 3:\n            draw\n")


@pytest.mark.parametrize("edit, anchor, message", [
    (NO_MOVE, "onto empty: advance", "error: action 'step', onto empty: the piece never moves"),
    (NO_FALLBACK, "if quiet > 3",
     "error: the 'if no action' block of phase 'play' does not end the game on every path"),
])
def test_what_lint_reads_in_the_rules(capsys, base_game, edit, anchor, message):
    base_game.edit("game.rules", *edit)
    code, out, _ = run_cli(capsys, "lint", base_game, "--playouts", "1")
    line = line_of(base_game, "game.rules", anchor)
    assert code == 1
    assert f"fivefold/game.rules:{line}:9: {message}" in out


def test_a_case_that_removes_or_hands_over_is_not_reported(base_game):
    # `take` removes the jumped piece and moves; `enter` is a drop, not a movement.
    report = lint(load_game(str(base_game)), playouts=2)
    assert report.ok, report.findings


def test_moving_done_by_an_after_rule_is_not_reported(base_game):
    base_game.edit("game.rules", *NO_MOVE)
    base_game.edit("game.rules", "decision move:\n", "decision move:\n    after each action:\n        move\n")
    findings = lint(load_game(str(base_game)), playouts=0).findings
    assert not [f for f in findings if "never moves" in f.message]


def test_an_if_no_action_that_always_ends_is_fine(base_game):
    base_game.edit("game.rules", "    turn: move\n",
                   "    turn: move\n    if no action:\n        if quiet > 3:\n            draw\n"
                   "        else:\n            lose\n")
    findings = lint(load_game(str(base_game)), playouts=0).findings
    assert not findings, findings


def test_runtime_error_in_play_is_reported_at_the_rule(capsys, base_game):
    base_game.edit("game.rules", "    quiet += 1\n", "    quiet += 1 // (quiet - quiet)\n")
    code, out, _ = run_cli(capsys, "lint", base_game, "--playouts", "3")
    line = line_of(base_game, "game.rules", "quiet += 1 //")
    assert code == 1 and f"game.rules:{line}:" in out and "division by zero" in out


def test_a_chance_event_of_10001_outcomes_is_not_rebuilt_for_every_draw(base_game):
    base_game.edit("game.rules", "    turn: move\n", "    turn: roll, move\n")
    rules = base_game.path / "game.rules"
    rules.write_text(rules.read_text() + DICE)
    game = load_game(str(base_game))
    calls = []
    notation = game.engine.notation
    game.engine.notation = lambda code: calls.append(code) or notation(code)
    report = lint(game, playouts=10)
    assert report.ok and report.finished == 10
    assert len(calls) < 10001 + 10 * 200  # the outcomes' notations are checked once, not per draw

    outcomes = game.chance_outcomes
    counted = []
    game.chance_outcomes = lambda state: counted.append(1) or outcomes(state)
    state = game.initial_state()
    agent = RandomAgent(seed=1)
    draws = {agent.choose(game, state).notation for _ in range(200)}
    assert len(counted) == 1 and len(draws) > 150  # one table for the event, many draws
    make_agent("mcts:20", seed=1).choose(game, game.apply(state, "roll:3"))
    assert len(counted) == 1


STRIDE = ("    action capture by man, chief:",
          "    action stride by man, chief:\n        step ahead\n{notation}        onto empty:\n"
          "            advance\n{more}"
          "    action capture by man, chief:")


def _stride(notation: str = "", more: str = "") -> tuple[str, str]:
    """An action `stride` listed after `step`, which it may hide where both step ahead."""
    return STRIDE[0], STRIDE[1].format(notation=notation, more=more)


def test_an_action_hidden_by_one_written_alike_that_does_something_else_is_a_warning(capsys, base_game):
    # Where both are legal the first listed (`step`) is kept (format.md, Unique notations).
    base_game.edit("game.rules", *_stride(more="            quiet = 0\n"))
    code, out, _ = run_cli(capsys, "lint", base_game, "--playouts", "2")
    assert code == 0 and "warning: two different legal actions are both written" in out
    assert "action 'stride' was never legal" in out  # (`step` hides it wherever it can go)


def test_an_action_written_alike_that_does_the_same_is_not_reported(capsys, base_game):
    # A travel and a step reaching the same site are one action (Regibus): nothing is lost.
    base_game.edit("game.rules", *_stride())
    code, out, _ = run_cli(capsys, "lint", base_game, "--playouts", "2")
    assert code == 0 and "both written" not in out


def test_a_notation_clash_is_reported_at_the_notation_line(capsys, base_game):
    base_game.edit("game.rules", *_stride(notation='        notation "{from}-{to}"\n', more="            quiet = 0\n"))
    code, out, _ = run_cli(capsys, "lint", base_game, "--playouts", "2")
    line = line_of(base_game, "game.rules", 'notation "{from}-{to}"')
    assert f"game.rules:{line}:9: warning: two different legal actions" in out


def test_two_legal_actions_written_alike_are_an_error(base_game):
    # Actions the rules leave side by side in a legal list under one notation (the
    # listers merge those they can tell apart; this is lint's net behind them).
    game = load_game(str(base_game))
    game.engine.notation = lambda code: "all-alike"
    report = lint(game, playouts=1)
    errors = [f for f in report.findings if f.severity == "error"]
    assert not report.ok and errors and all("both written 'all-alike'" in f.message for f in errors)
    assert "give one of them its own notation" in errors[0].message


def test_an_action_that_is_never_legal(capsys, base_game):
    # `onto own` where `onto empty` was meant: nothing is ever legal for it.
    base_game.edit("game.rules", "        drop man from reserve on home[player]\n        onto empty: place",
                   "        drop man from reserve on home[player]\n        onto own: place")
    code, out, _ = run_cli(capsys, "lint", base_game, "--playouts", "3")
    line = line_of(base_game, "game.rules", "onto own: place")
    assert f"game.rules:{line}:9: warning: action 'enter' was never legal in 3 random games" in out


def test_a_score_rule_that_fails_on_a_game_cut_off_at_the_bound(capsys, base_game):
    # As a search judges a playout it cut off, lint computes the scores where it stops.
    rules = base_game.path / "game.rules"
    rules.write_text(rules.read_text() + "\nscore: 1 // (count(pieces) - count(pieces))\n")
    code, out, _ = run_cli(capsys, "lint", base_game, "--playouts", "1", "--max-plies", "2")
    assert code == 1 and "division by zero" in out


# -- a move forgotten on some path: seen in play, and read in the rules where an `if` lacks its `else`

def test_a_capture_that_forgets_to_move_is_an_error_in_play(capsys, base_game):
    base_game.edit("game.rules", "procedure take:\n    remove jumped\n    move\n",
                   "procedure take:\n    remove jumped\n")
    code, out, _ = run_cli(capsys, "lint", base_game, "--playouts", "30")
    line = line_of(base_game, "game.rules", "over enemy: take")
    assert code == 1
    assert f"fivefold/game.rules:{line}:9: error: action 'capture', over enemy: in play the piece stayed on " in out


def test_a_take_without_a_fallback_is_reported(capsys, base_game):
    base_game.edit("game.rules", "        over enemy: take\n",
                   "        over enemy:\n            if jumped is man:\n                take\n")
    code, out, _ = run_cli(capsys, "lint", base_game, "--playouts", "30")
    line = line_of(base_game, "game.rules", "if jumped is man")
    assert code == 1
    assert f"game.rules:{line}:13: warning: action 'capture', over enemy: on some path through this 'if'" in out
    assert "in play the piece stayed on" in out  # a chief jumped: nothing happened


@pytest.mark.parametrize("body", [
    "if jumped is man:\n                take\n            else:\n                remove jumped\n                move",
    "if jumped is chief:\n                win\n            else:\n                take",
    "take\n            if jumped is man:\n                quiet = 0",
])
def test_every_path_moving_or_ending_is_not_reported(base_game, body):
    base_game.edit("game.rules", "        over enemy: take\n", f"        over enemy:\n            {body}\n")
    findings = lint(load_game(str(base_game)), playouts=30).findings
    assert not [f for f in findings if "stayed on" in f.message or "some path" in f.message], findings


def test_a_move_made_by_an_after_rule_is_not_reported_in_play(base_game):
    base_game.edit("game.rules", "procedure advance:\n    move\n", "procedure advance:\n")
    base_game.edit("game.rules", "decision move:\n", "decision move:\n    after each action:\n        move\n")
    findings = lint(load_game(str(base_game)), playouts=20).findings
    assert not [f for f in findings if "stayed on" in f.message], findings


@pytest.mark.parametrize("name", ["lielow", "regibus", "royalfiz", "tablut", "morris"])
def test_the_bundled_games_move_their_pieces(name):
    findings = lint(load_game(name), playouts=10).findings
    assert not [f for f in findings if "stayed on" in f.message or "some path" in f.message], findings


SOWING_YAML = """\
game: sowing
title: Sowing
description: Empty one of your pits into the store; the game ends when all are empty.
rules: game.rules
players: [south, north]
board:
  grid: {files: 3, ranks: 2}
pieces:
  pit: {symbol: o, owner: neutral}
attributes:
  seeds: {type: int, default: 0}
regions:
  pits:
    per_player:
      south: [a1, b1, c1]
      north: [a2, b2, c2]
variables:
  store: {per_player: true}
setup:
  neutral:
    pit: {sites: [a1, b1, c1, a2, b2, c2], seeds: 2}
"""
SOWING = """\
phase play:
    turn: sow
    if no action:
        end game
decision sow:
    action take:
        select pits[player]
        where to.seeds > 0
        onto empty:
            store[player] += to.seeds
            to.seeds = 0
score: store[player]
"""


@pytest.mark.parametrize("selected", ["pits[player]", "pieces"])
def test_an_action_never_legal_is_told_what_its_sites_held(tmp_path, selected):
    # Every pit holds a neutral piece: `onto empty` never matches; lint says what
    # the selected sites held and which case would match them.
    from tests.helpers import write_definition

    rules = SOWING.replace("select pits[player]", f"select {selected}")
    report = lint(load_game(write_definition(tmp_path, SOWING_YAML, rules)), playouts=2)
    never = [f.message for f in report.findings if "was never legal" in f.message]
    assert len(never) == 1 and never[0].endswith(
        "; where its decision came up, the sites it selects held neutral pieces, never what its cases ask "
        "(onto empty): did you mean 'onto neutral'?"), never
    fixed = lint(load_game(write_definition(tmp_path, SOWING_YAML, rules.replace("onto empty", "onto neutral"))),
                 playouts=2)
    assert not [f for f in fixed.findings if "was never legal" in f.message]


TWICE_YAML = """game: twice
rules: twice.rules
players: [white, black]
board:
  grid: {files: 3, ranks: 3}
pieces:
  man: {symbol: M}
setup:
  white: {man: [a1]}
  black: {man: [c3]}
"""
TWICE_RULES = """phase play:
    turn: move

decision move:
    action step:
        go to LANDINGS
        onto empty:
            move
"""


@pytest.mark.parametrize("landings, twice", [
    ("[neighbour(from, n), neighbour(from, n)]", True),  # a1-a2 listed twice
    ("[neighbour(from, n)] + [neighbour(from, n)]", False),  # a union: each site once
])
def test_one_action_listed_twice_is_a_warning(tmp_path, landings, twice):
    (tmp_path / "twice.yaml").write_text(TWICE_YAML)
    (tmp_path / "twice.rules").write_text(TWICE_RULES.replace("LANDINGS", landings))
    game = load_game(str(tmp_path / "twice.yaml"))
    assert game.legal_notations(game.initial_state()) == (["a1-a2", "a1-a2"] if twice else ["a1-a2"])
    found = [f for f in lint(game, playouts=2).findings if "listed twice" in f.message]
    if twice:
        assert len(found) == 1 and found[0].severity == "warning" and found[0].pos.line == 7
        assert "the legal action 'a1-a2' (action 'step', onto empty) is listed twice" in found[0].message
    else:
        assert not found
