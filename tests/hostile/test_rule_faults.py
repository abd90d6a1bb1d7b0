"""Rules that fail at run time: every command says so in one located message and
exits with 1 — never a traceback, never "internal error" (exit 70).

The score rule `1 // (count(pieces) - count(pieces))` divides by zero whenever it is
computed, i.e. when the game ends. Two games: in the first, White wins at once with
`a4-a5` (its only action; the fault comes while it is applied); in the second, White cannot
act at the start and `if no action: end game` computes the scores (the fault comes
while the position is settled, before any action).
"""
from __future__ import annotations

import pytest

from .conftest import GameCopy, assert_clean, run_cli

FAULTY_SCORE = "\nscore: 1 // (count(pieces) - count(pieces))\n"
NO_ACTION = "    turn: move\n    if no action:\n        end game\n"


def faulty_game(game: GameCopy, white: str, black: str) -> GameCopy:
    game.edit("game.rules", "    turn: move\n", NO_ACTION)
    rules = game.path / "game.rules"
    rules.write_text(rules.read_text() + FAULTY_SCORE)
    game.edit("game.yaml", "man: [a2, b2, c2, d2, e2]", f"man: [{white}]")
    game.edit("game.yaml", "man: [a4, b4, c4, d4, e4]", f"man: [{black}]")
    return game.edit("game.yaml", "initial: 2", "initial: 0")


COMMANDS = {
    "moves": ["moves", "{game}", "{record}"],
    "moves --json": ["moves", "{game}", "{record}", "--json"],
    "replay": ["replay", "{game}", "{record}"],
    "replay --json": ["replay", "{game}", "{record}", "--json"],
    "render": ["render", "{game}", "{record}", "--text"],
    "render --svg": ["render", "{game}", "{record}", "--svg", "-"],
    "perft": ["perft", "{game}", "--depth", "2"],
    "bench": ["bench", "{game}", "--playouts", "2"],
    "lint": ["lint", "{game}", "--playouts", "2"],
    "match": ["match", "{game}", "--players", "random", "--games", "2"],
    "match --jobs": ["match", "{game}", "--players", "random", "--games", "2", "--jobs", "2"],
    "play": ["play", "{game}", "--players", "random"],
}


def run_command(capsys, monkeypatch, tmp_path, name: str, game: GameCopy, record_text: str):
    record = tmp_path / "r.txt"
    record.write_text(record_text)
    monkeypatch.chdir(tmp_path)  # play writes its record here
    monkeypatch.setattr("sys.stdin", open(record))  # play: nothing to read from a person
    argv = [part.format(game=game, record=record) for part in COMMANDS[name]]
    return run_cli(capsys, *argv)


def expect_located_error(code: int, out: str, err: str, game: GameCopy) -> None:
    text = out + err  # lint reports on standard output
    assert_clean(code, text)
    line = 1 + (game.path / "game.rules").read_text().splitlines().index(FAULTY_SCORE.strip())
    assert f"fivefold/game.rules:{line}:" in text and "division by zero" in text, text


@pytest.mark.parametrize("name", COMMANDS)
def test_a_fault_while_applying_an_action(capsys, monkeypatch, tmp_path, base_game, name):
    game = faulty_game(base_game, white="a4", black="b4, c4")  # a4-a5 is the only action
    record = "" if name in ("perft", "bench", "lint", "match", "match --jobs", "play") else "a4-a5\n"
    code, out, err = run_command(capsys, monkeypatch, tmp_path, name, game, record)
    expect_located_error(code, out, err, game)


@pytest.mark.parametrize("name", COMMANDS)
def test_a_fault_in_if_no_action_at_the_start(capsys, monkeypatch, tmp_path, base_game, name):
    game = faulty_game(base_game, white="a5", black="b5, c5")
    code, out, err = run_command(capsys, monkeypatch, tmp_path, name, game, "")
    expect_located_error(code, out, err, game)
