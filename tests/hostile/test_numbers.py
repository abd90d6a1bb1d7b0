"""Numbers: bounded in definitions and on the command line, and never a crash when
the rules make one too long to write."""
from __future__ import annotations

import json

import pytest

from interpreter import RuleRuntimeError, load_game
from interpreter.frontends.numbers import json_number, number_text
from interpreter.validation.yaml_source import load_yaml_text

from .conftest import assert_clean, run_cli


@pytest.mark.parametrize("text", [
    "0x" + "f" * 4000,  # validate said ok, show and render crashed
    "9" * 5000,  # beyond Python's digit limit for int()
    "1" + ":59" * 100_000,  # a sexagesimal integer: minutes to convert
    "1000000001", "-1000000001", "1.0e+400", ".nan", "-.inf", "0b" + "1" * 40,
])
def test_numbers_out_of_bounds_in_yaml_are_located(text):
    document = load_yaml_text(f"pools:\n  reserve:\n    initial: {text}\n", "g.yaml")
    [diagnostic] = document.diagnostics
    assert (diagnostic.line, diagnostic.column) == (3, 14)
    assert "is out of bounds: numbers in a definition lie between -1000000000 and 1000000000" in diagnostic.message
    assert len(diagnostic.message) < 200


def test_numbers_within_bounds_and_big_keys():
    assert load_yaml_text("a: 1000000000\nb: -1000000000\nc: 1.5\n").data == {"a": 10**9, "b": -10**9, "c": 1.5}
    [diagnostic] = load_yaml_text("99999999999: x\n").diagnostics
    assert "out of bounds" in diagnostic.message


@pytest.mark.parametrize("command", [["validate"], ["show"], ["render"], ["moves"]])
def test_a_hex_integer_in_the_yaml_is_an_error_for_every_command(capsys, base_game, command):
    base_game.edit("game.yaml", "initial: 2", "initial: 0x" + "f" * 4000)
    code, _, err = run_cli(capsys, *command, base_game)
    assert_clean(code, err)
    assert f"{base_game}/game.yaml:" in err and "out of bounds" in err


@pytest.mark.parametrize("value, message", [
    ("9" * 5000, "must lie between -1000000000 and 1000000000"),  # (a whole number, past Python's 4300 digits)
    ("9" * 50, "must lie between -1000000000 and 1000000000"),
])
def test_huge_option_values_on_the_command_line(capsys, base_game, value, message):
    code, _, err = run_cli(capsys, "moves", base_game, "--option", f"limit={value}")
    assert_clean(code, err)
    assert message in err and len(err) < 400


def test_number_text_short_forms():
    assert number_text(10**5000) == "1.000e5000"
    assert number_text(-3 * 10**40) == "-3.000e40"
    assert [number_text(v) for v in (12, 2.0, None, True, 10**29)] == ["12", "2", "-", "true", str(10**29)]
    assert json_number(10**5000) == "1.000e5000" and json_number(7) == 7
    json.dumps({"score": json_number(10**5000)})


GROWING = """
phase play:
    turn: move
    after each turn:
        quiet = quiet * quiet + 2
"""


def test_a_variable_that_grows_without_bound(capsys, base_game, tmp_path):
    """The rules bound what they store (±10^15): the commands say where it overflowed.
    (The front ends would show a longer number short: test_number_text_short_forms.)"""
    rules = base_game.path / "game.rules"
    text = rules.read_text()
    start, end = text.index("phase play:"), text.index("decision move:")
    text = text[:start] + GROWING.lstrip() + "\n" + text[end:]
    # No early end, and quiet grows whatever happens.
    rules.write_text(text.replace("    if in_goal:\n        win\n", "").replace("    quiet = 0\n", ""))
    game = load_game(str(base_game))
    state, notations = game.initial_state(), []
    with pytest.raises(RuleRuntimeError):
        for _ in range(20):  # quiet squares each turn: past 10^15 in a few turns
            notations.append(game.legal_notations(state)[0])
            state = game.apply(state, notations[-1])
    record = tmp_path / "r.txt"
    record.write_text(" ".join(notations) + "\n")
    line = 1 + text[:text.index("quiet = quiet * quiet")].count("\n")
    for command in (["render", "--text"], ["render", "--svg", "-"], ["replay"], ["replay", "--json"], ["moves"]):
        code, out, err = run_cli(capsys, command[0], base_game, record, *command[1:])
        assert_clean(code, err)
        assert f"game.rules:{line}:9: error: a number grew beyond" in err


def test_numbers_the_compiler_folds_past_what_it_writes_are_no_crash(tmp_path):
    # Constant parts are computed when the rules are compiled: products of numbers
    # of the rules (each within 10^15) may pass what the generated code writes as
    # a literal; such a number is a constant bound by name instead.
    from tests.helpers import drop_where, stones_and_rocks, write_definition

    huge = "1000000000000000 * 1000000000000000 * 1000000000000000"
    rules = drop_where(f"count(pieces, true) * {huge} < {huge} * 2")
    game = load_game(write_definition(tmp_path, stones_and_rocks(), rules))
    state = game.make_state({"a1": ("white", "stone")}, to_move="white")
    assert len(game.legal_notations(state)) == 15
    state = game.make_state({"a1": ("white", "stone"), "a2": ("white", "stone")}, to_move="white")
    assert game.legal_notations(state) == []


# -- fixed counts past the limits, found by validate (not by the first game that gets there)

@pytest.mark.parametrize("statement, message", [
    ("repeat 1000000 times:\n        quiet += 0", "'repeat' 1000000 times is more than the 100000 allowed"),
    ("repeat limit * 10000 times:\n        quiet += 0", "'repeat' 200000 times is more than the 100000 allowed"),
    ("repeat -(-100001) times:\n        quiet += 0", "'repeat' 100001 times is more than the 100000 allowed"),
    ("for each s in along(lane, to, 100001):\n        quiet += 0",
     "'along' 100001 sites is more than the 100000 allowed"),
])
def test_fixed_counts_past_the_limits_are_refused_by_validate(capsys, base_game, statement, message):
    base_game.edit("game.yaml", "regions:\n", "tracks:\n  lane: [a1, b1, c1, d1, e1]\n\nregions:\n")
    base_game.edit("game.rules", "procedure advance:\n    move\n", f"procedure advance:\n    move\n    {statement}\n")
    code, _, err = run_cli(capsys, "validate", base_game)
    assert code == 1, err
    assert "game.rules:26:" in err.splitlines()[0] and message in err.splitlines()[0], err


def test_a_walk_longer_than_the_limit_is_refused_by_validate(capsys, base_game):
    base_game.edit("game.rules", "        step ahead\n", "        walk 501 steps\n")
    code, _, err = run_cli(capsys, "validate", base_game)
    assert code == 1
    assert err.splitlines()[0].endswith("game.rules:13:14: error: a walk of 501 steps is longer than the 500 allowed")


def test_counts_at_the_limits_and_counts_play_decides_pass(base_game):
    base_game.edit("game.rules", "procedure advance:\n    move\n",
                   "procedure advance:\n    move\n    repeat 100000 - 100000 times:\n        quiet += 0\n"
                   "    repeat quiet * 1000000 times:\n        quiet += 0\n")
    load_game(str(base_game))
