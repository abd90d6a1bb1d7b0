"""`regelwerk lint` of a variant: findings where the variant can fix them, and a
summary that tells how the games really ended."""
from __future__ import annotations

import os

import pytest

from interpreter import load_game
from interpreter.analysis.lint import lint, summary
from interpreter.frontends.cli import main
from tests.helpers import GAMES

# Lielow without leaving the board: a player whose pieces can no longer leap has no
# action, and phase `play` (in lielow.rules) has no `if no action`.
LEAP_ON_BOARD = """decision move:
    action leap:
        leap all distance piece.range
        onto empty:
            move
            piece.range += 1
        onto enemy:
            if target.king:
                win
            remove target
            move
            piece.range = 1
"""
PHASE = "phase play:\n    turn: move\n"


def line_of(path, text: str) -> int:
    return 1 + next(i for i, line in enumerate(path.read_text().splitlines()) if line.startswith(text))


@pytest.fixture
def variant(tmp_path, monkeypatch):
    """A variant of the bundled Lielow in tmp_path/variants, run from tmp_path."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "variants"
    folder.mkdir()

    def write(rules: str):
        (folder / "on-board.yaml").write_text("variant: on-board\nextends: lielow\nrules: on-board.rules\n")
        (folder / "on-board.rules").write_text(rules)
        return folder / "on-board.yaml"

    return write


def test_a_rule_of_the_extended_game_is_reported_in_the_variant(variant, capsys):
    variant(LEAP_ON_BOARD)
    assert main(["lint", "variants/on-board.yaml", "--playouts", "60"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    # Where the user can change it: the variant's rules (a `phase play:` there replaces it) ...
    assert lines[0].startswith("variants/on-board.rules:1:1: warning: the player to move had no legal action "
                               "in phase 'play'")
    # ... and where the rule is: phase `play` of the bundled game.
    base = GAMES / "lielow" / "lielow.rules"
    shown = os.path.relpath(base)  # as messages name files: relative when inside the working folder
    rule_at = f"{shown if not shown.startswith('..') else base}:{line_of(base, 'phase play:')}:1"
    assert lines[1] == (f"    the rule: {rule_at}, in the game the variant extends; "
                        "an item of the same name in variants/on-board.rules replaces it")
    stuck = int(lines[0].rpartition("[")[2].split()[0])
    assert lines[-1] == (f"{60 - stuck} of 60 random games of lielow/on-board ended normally; {stuck} by the "
                         "default (the player to move had no action and no rule said what then)")


def test_a_rule_the_variant_replaced_is_reported_where_the_variant_has_it(variant, capsys):
    path = variant(PHASE + "\n" + LEAP_ON_BOARD)
    report = lint(load_game(str(path)), playouts=60)
    finding = next(f for f in report.findings if "had no legal action" in f.message)
    assert (finding.pos.file, finding.pos.line, finding.rule_at) == ("variants/on-board.rules", 1, None)
    assert report.by_default == finding.count and report.by_rule + report.by_default == report.finished == 60


def test_the_summary_counts_each_way_a_game_ended():
    report = lint(load_game("lielow"), playouts=10, max_plies=3)
    assert (report.finished, report.cut_off, report.failed) == (0, 10, 0)
    assert summary(report, "lielow").startswith(
        "0 of 10 random games of lielow ended normally; 10 cut off unfinished (--max-plies)")
    report = lint(load_game("lielow"), playouts=10)
    assert summary(report, "lielow") == "10 of 10 random games of lielow ended normally; no problem found"
