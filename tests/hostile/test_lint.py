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


def test_two_actions_with_one_notation_are_a_lint_error(capsys, base_game):
    base_game.edit("game.rules", "    action capture by man, chief:",
                   "    action stride by man, chief:\n        step ahead\n        onto empty: advance\n"
                   "    action capture by man, chief:")
    code, out, _ = run_cli(capsys, "lint", base_game, "--playouts", "2")
    assert code == 1 and "two different legal actions are both written" in out


def test_a_notation_clash_is_reported_at_the_notation_line(capsys, base_game):
    base_game.edit("game.rules", "    action capture by man, chief:",
                   "    action stride by man, chief:\n        step ahead\n        notation \"{from}-{to}\"\n"
                   "        onto empty: advance\n"
                   "    action capture by man, chief:")
    code, out, _ = run_cli(capsys, "lint", base_game, "--playouts", "2")
    line = line_of(base_game, "game.rules", 'notation "{from}-{to}"')
    assert code == 1 and f"game.rules:{line}:9: error: two different legal actions" in out


def test_a_score_rule_that_fails_on_a_game_cut_off_at_the_bound(capsys, base_game):
    # As a search judges a playout it cut off, lint computes the scores where it stops.
    rules = base_game.path / "game.rules"
    rules.write_text(rules.read_text() + "\nscore: 1 // (count(pieces) - count(pieces))\n")
    code, out, _ = run_cli(capsys, "lint", base_game, "--playouts", "1", "--max-plies", "2")
    assert code == 1 and "division by zero" in out
