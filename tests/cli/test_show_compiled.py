"""`regelwerk show GAME --compiled`: the generated code, each function and constant
with the decision, case, phase or rule it comes from and that rule's line."""
from __future__ import annotations

import ast
import re

from interpreter import load_game
from interpreter.frontends import cli
from tests.helpers import write_definition

YAML = """\
game: pushers
title: Pushers
description: Men step forward; a man reaching the far row wins.
rules: game.rules
players:
  - {name: white, forward: n}
  - {name: black, forward: s}
board:
  grid: {files: 3, ranks: 3}
pieces:
  man: {symbol: M, description: A man.}
variables:
  steps: {type: int, default: 0}
setup:
  white: {man: [a1, b1]}
  black: {man: [c3]}
"""

RULES = """\
phase play:
    turn: move
    after each turn:
        steps += 1
decision move:
    action advance by man:
        step forward
        onto empty:
            move
            if to in [a3, b3, c3, a1, b1, c1] and to != from:
                win
"""


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_every_function_and_constant_is_listed_with_the_rule_it_comes_from(capsys, tmp_path):
    path = write_definition(tmp_path, YAML, RULES)
    code, out, _ = run(capsys, "show", path, "--compiled")
    assert code == 0 and out.startswith("# pushers: the generated code")
    rules = load_game(path).rules
    functions = [f.name for f in rules.module.body]
    for name in functions:
        assert f"\ndef {name}(" in out
        assert str(rules.source_map[name]) in out
    # each function is introduced by the line saying what it does and where from
    assert f"# {functions[0]}: decision 'move': the legal actions (game.rules:5)\ndef {functions[0]}(s):" \
        in out.replace(str(tmp_path) + "/", "")
    assert re.search(r"# f\d+: action 'advance', onto empty, in phase 'play' \(\S*game.rules:8\)\ndef f\d+\(s, code\):",
                     out)
    assert re.search(r"# t\d+: phase 'play': the end of a turn \(\S*game.rules:1\)\ndef t\d+\(s\):", out)
    # every constant, with its value shortened, and where it comes from
    assert rules.constants and set(rules.constants) <= set(rules.source_map)
    for name in rules.constants:
        assert f"\n# {name} = " in out
    # the listing is the code that runs: every function compiles as listed
    listed = out.split("# ---------------------------------------------------------------- functions\n")[1]
    assert [f.name for f in ast.parse(listed).body] == functions


def test_the_code_follows_the_options_and_the_variant(capsys):
    code, four, _ = run(capsys, "show", "royalfiz", "--compiled")
    code, two, _ = run(capsys, "show", "royalfiz", "--compiled", "--option", "players=2")
    assert code == 0 and four != two
    code, out, err = run(capsys, "show", "royalfiz", "--option", "players=2")
    assert code != 0 and "--compiled" in err
    code, out, _ = run(capsys, "show", "regibus/whole-capture", "--compiled")
    assert code == 0 and "regibus/whole-capture: the generated code" in out


def test_a_broken_definition_is_a_diagnostic_not_a_traceback(capsys, tmp_path):
    path = write_definition(tmp_path, YAML, RULES.replace("step forward", "step forwrd"))
    code, out, err = run(capsys, "show", path, "--compiled")
    assert code == 1 and "game.rules:7" in err and "unknown direction 'forwrd'" in err
