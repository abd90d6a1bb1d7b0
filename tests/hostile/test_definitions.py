"""Definitions that said ok, or pointed wrong: variants, in_play, show, YAML comments, tabs."""
from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.validation.diagnostics import DefinitionError
from interpreter.validation.yaml_source import load_yaml_text

from .conftest import assert_clean, run_cli


def overlay(game, rules: str):
    (game.path / "v.yaml").write_text("variant: v\nextends: game.yaml\nrules: v.rules\n")
    (game.path / "v.rules").write_text(rules)
    return game.path / "v.yaml"


def test_a_variant_removing_an_action_is_shown_without_it(capsys, base_game):
    code, out, err = run_cli(capsys, "show", overlay(base_game, "remove action move.capture\n"))
    assert code == 0, err
    shown = out[out.index("decision move:"):]
    assert "action step" in shown and "action enter" in shown and "action capture" not in shown
    assert "jump ahead" not in out


def test_an_overlay_item_next_to_a_near_namesake_is_a_warning(base_game):
    path = overlay(base_game, "procedure advanc:\n    move\n\ndecision move:\n    action stepp by man:\n"
                              "        step ahead\n        onto empty: advance\n")
    messages = [w.message for w in load_game(str(path)).warnings]
    assert "procedure 'advanc' is added next to 'advance', which it does not replace" in messages
    assert "action 'stepp' is added to decision 'move' next to 'step', which it does not replace" in messages


def test_an_overlay_with_new_names_far_from_the_old_is_quiet(base_game):
    path = overlay(base_game, "decision move:\n    action hop by man:\n        step ahead\n"
                              "        onto empty: advance\n")
    assert not [w for w in load_game(str(path)).warnings if "does not replace" in w.message]


def test_two_actions_named_alike_in_an_overlay(base_game):
    path = overlay(base_game, "decision move:\n    action hop by man:\n        step ahead\n"
                              "        onto empty: advance\n"
                              "    action hop by chief:\n        step ahead\n        onto empty: advance\n")
    with pytest.raises(DefinitionError) as caught:
        load_game(str(path))
    first = caught.value.diagnostics[0]
    assert (first.file.endswith("v.rules"), first.line) == (True, 5)
    assert first.message == "decision 'move' has a second action named 'hop' (the first is at line 2)"


def test_in_play_is_checked_for_every_value_not_only_the_chosen_one(base_game):
    base_game.edit("game.yaml", "options:\n", "in_play:\n  option: seats\n  choices:\n    \"2\": [white, black]\n"
                                             "    \"1\": [whtie]\n\noptions:\n  seats:\n    values: [1, 2, 3]\n"
                                             "    default: 2\n")
    with pytest.raises(DefinitionError) as caught:
        load_game(str(base_game))  # the default (2) is fine: the others are checked all the same
    messages = [d.message for d in caught.value.diagnostics]
    assert "no list of players for seats=3" in messages and "unknown player 'whtie'" in messages


def test_an_int_option_with_a_range_needs_each_value(base_game):
    base_game.edit("game.yaml", "options:\n", "in_play:\n  option: seats\n  choices:\n    \"2\": [white, black]\n\n"
                                             "options:\n  seats:\n    default: 2\n    min: 1\n    max: 2\n")
    with pytest.raises(DefinitionError, match="no list of players for seats=1"):
        load_game(str(base_game))


def test_an_unquoted_colour_in_block_style():
    document = load_yaml_text("players:\n  - name: white\n    color: #f2efe6\n", "g.yaml")
    [diagnostic] = document.diagnostics
    assert (diagnostic.line, diagnostic.column) == (3, 12)
    assert diagnostic.message.startswith("'#f2efe6' is read as a comment ('#' starts a comment in YAML)")
    assert diagnostic.hint == 'put the value in quotes: "#f2efe6"'


def test_an_empty_value_with_a_comment_is_still_fine():
    assert load_yaml_text("description: # to do\nx: 1\n").data == {"description": None, "x": 1}


def test_a_tab_in_the_rules_indentation_is_named(capsys, base_game):
    base_game.edit("game.rules", "    piece.steps += 1", " \tpiece.steps += 1")
    code, _, err = run_cli(capsys, "validate", base_game)
    assert code == 1 and "(a tab in the indentation counts as 8 columns)" in err
    assert "indent the rules with spaces only, no tabs" in err


# -- text that would drive a terminal ------------------------------------------------------------------


@pytest.mark.parametrize("title", ['"Five\\e[31mfold"', '"Five\\u202efold"', '"\\x07"'])
def test_control_characters_in_yaml_texts_are_refused(capsys, base_game, title):
    base_game.edit("game.yaml", "title: Fivefold", f"title: {title}")
    code, out, err = run_cli(capsys, "validate", base_game)
    assert code == 1 and "a text with the control character U+" in err
    assert "\x1b" not in out + err and "\u202e" not in out + err


def test_control_characters_in_the_rules_are_refused(capsys, base_game):
    base_game.edit("game.rules", "        onto empty: advance",
                   '        onto empty:\n            notation "{from}\x1b[2J{to}"\n            advance')
    code, _, err = run_cli(capsys, "validate", base_game)
    assert code == 1 and "game.rules:15:29: error: control character U+001B in the rules" in err and "\x1b" not in err


def test_control_characters_in_a_record_are_refused_and_not_echoed(capsys, tmp_path):
    path = tmp_path / "r.txt"
    path.write_text("a2-a3\n\x1b[2Jzz\n")
    code, _, err = run_cli(capsys, "replay", "lielow", path)
    assert code == 1 and f"{path}:2:1: error: control character U+001B: a record is plain text" in err
    assert "\x1b" not in err


def test_a_yaml_key_longer_than_yaml_reads():
    document = load_yaml_text("regions:\n  " + "c" * 2000 + ": [c3]\n", "g.yaml")
    [diagnostic] = document.diagnostics
    assert (diagnostic.line, diagnostic.column) == (2, 3)
    assert diagnostic.message.startswith("a key of more than 1024 characters") and len(diagnostic.message) < 120


def test_a_list_naming_the_rules_file_thousands_of_times(capsys, base_game):
    base_game.edit("game.yaml", "rules: game.rules", "rules: [" + ", ".join(["game.rules"] * 5000) + "]")
    code, _, err = run_cli(capsys, "validate", base_game)
    assert code == 1 and "game.yaml:7:8: error: rules must have at most 32 items, found 5000" in err
    base_game.edit("game.yaml", "rules: [" + ", ".join(["game.rules"] * 5000) + "]", "rules: [game.rules, game.rules]")
    code, _, err = run_cli(capsys, "validate", base_game)
    assert code == 1 and "game.yaml:7:8: error: rules must not contain duplicates" in err


def test_rules_that_expand_to_too_much_code_are_refused_at_a_line(monkeypatch, tmp_path):
    # Each define is compiled where it is used: defines of defines grow the code
    # exponentially with the text; past a bound on the generated syntax tree's
    # nodes the rules are refused with a diagnostic, not built until memory runs out.
    from interpreter.compilation import source
    from tests.helpers import drop_where, stones_and_rocks, write_definition

    defines = "define a0 = count(pieces, it is stone)\n" + "".join(
        f"define a{i} = a{i - 1} + a{i - 1}\n" for i in range(1, 9))
    path = write_definition(tmp_path, stones_and_rocks(), drop_where("a8 > 3", before=defines))
    load_game(path)  # (256 counts: within the bound)
    monkeypatch.setattr(source, "MAX_CODE_NODES", 2000)
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    (diagnostic,) = info.value.diagnostics
    assert "the rules expand to too much code" in diagnostic.message and diagnostic.line == 1


GRAPH_GAME = """game: graphy
title: Graphy
rules: game.rules
players:
  - {name: white, color: "#ffffff"}
  - {name: black, color: "#000000"}
board:
  graph:
    sites:
      a: [0, 0]
      NAME: [1, 0]
      c: [2, 0]
    edges:
      - [a, NAME, c]
pieces:
  stone: {symbol: S}
setup:
  white:
    stone: [a]
  black:
    stone: [c]
"""
GRAPH_RULES = "phase play:\n    turn: move\n\ndecision move:\n    action go by stone:\n        walk 1 steps\n" \
              "        onto empty: move\n"


@pytest.mark.parametrize("written, name", [('"b b"', "b b"), ('"b#1"', "b#1"), ('""', ""), ('"b\\tc"', "b\tc")])
def test_a_graph_site_name_a_record_could_not_hold_is_refused(capsys, tmp_path, written, name):
    (tmp_path / "game.yaml").write_text(GRAPH_GAME.replace("NAME", written))
    (tmp_path / "game.rules").write_text(GRAPH_RULES)
    code, _, err = run_cli(capsys, "validate", tmp_path)
    assert code == 1
    assert err.splitlines()[0].endswith(f"game.yaml:11:7: error: field name {name!r} in board.graph.sites must match "
                                        "the pattern ^[^\\s#]+$"), err
    assert "hint: A site's name: no spaces and no '#'" in err


def test_graph_site_names_with_other_signs_are_recorded_and_replayed(capsys, tmp_path):
    (tmp_path / "game.yaml").write_text(GRAPH_GAME.replace("NAME", '"b-1:é"'))
    (tmp_path / "game.rules").write_text(GRAPH_RULES)
    code, out, _ = run_cli(capsys, "moves", tmp_path)
    assert code == 0 and out == "a-b-1:é\n"
    (tmp_path / "r.txt").write_text(out)
    code, out, err = run_cli(capsys, "replay", tmp_path, tmp_path / "r.txt", "--json")
    assert code == 0, err


def test_a_broken_item_after_many_costs_no_more_than_reading_them_again(monkeypatch):
    """Each item of a file with a syntax error is parsed again on its own; padded to
    keep its line numbers, only where it fails (padding every item cost the square of
    the file: a 1 MB rules file took minutes)."""
    from interpreter.parsing import parser

    text = "".join(f"define q{i} = {i}\n" for i in range(3000)) + "define q\n"
    parsed = []
    parse = parser.parse_rules
    monkeypatch.setattr(parser, "parse_rules", lambda source, file="<rules>": parsed.append(len(source)) or
                        parse(source, file))
    rules, errors = parser.parse_rules_collecting(text, "game.rules")
    assert rules is None and [(e.lark_error.line, e.lark_error.column) for e in errors] == [(3001, 9)]
    assert sum(parsed) < 3 * len(text)


def test_the_broken_items_reported_are_bounded():
    from interpreter.parsing import parser

    text = "".join(f"define q{i} =\n" for i in range(parser.MAX_ITEM_ERRORS + 10))
    _, errors = parser.parse_rules_collecting(text, "game.rules")
    assert len(errors) == parser.MAX_ITEM_ERRORS
    assert [e.lark_error.line for e in errors] == list(range(1, parser.MAX_ITEM_ERRORS + 1))


@pytest.mark.parametrize("file, old, new, first_line", [
    ("game.yaml", "man: [a2, b2, c2, d2, e2]", "man: [a2, b2, \u04412, d2, e2]",
     "game.yaml:72:19: error: unknown site '\u04412' ('\u0441' is U+0441 CYRILLIC SMALL LETTER ES)"),
    ("game.yaml", "  centre: [c3]", "  \u0441entre: [c3]",
     "game.yaml:25:3: error: field name '\u0441entre' in regions must match the pattern ^[A-Za-z_][A-Za-z0-9_]*$ "
     "('\u0441' is U+0441 CYRILLIC SMALL LETTER ES)"),
    ("game.rules", "if to in centre and", "if to in \u0441entre and",
     'game.rules:29:14: error: unexpected character "\u0441", expected one of: a name, a number, a string, "(", '
     '"-", "[", end of line (\'\u0441\' is U+0441 CYRILLIC SMALL LETTER ES)'),
])
def test_a_letter_that_looks_latin_is_named_in_the_message(capsys, base_game, file, old, new, first_line):
    # (a Cyrillic 'с' among Latin letters: "unknown site 'с2'" reads as nonsense)
    base_game.edit(file, old, new)
    code, _, err = run_cli(capsys, "validate", base_game)
    assert_clean(code, err)
    assert err.splitlines()[0] == f"{base_game}/{first_line}"


def test_a_letter_of_another_script_is_named_once():
    from interpreter.validation.diagnostics import Diagnostic

    named = Diagnostic("g.yaml", 1, 1, "unknown site '\u03b23'")
    again = Diagnostic("g.yaml", 1, 1, named.message)  # (as `validate` makes one at another size)
    assert again.message == named.message == "unknown site '\u03b23' ('\u03b2' is U+03B2 GREEK SMALL LETTER BETA)"
    assert Diagnostic("g.yaml", 1, 1, "unknown site '\u00fc3'").message == "unknown site '\u00fc3'"


def test_a_rules_file_of_too_many_lines_is_refused_before_it_is_parsed(capsys, monkeypatch, base_game):
    # (a megabyte of `q=0` lines, 125,000 statements: 18 s in Lark before the expansion bound refused them)
    from interpreter.parsing import parser

    monkeypatch.setattr(parser, "MAX_RULES_LINES", 50)
    rules = base_game.path / "game.rules"
    text = rules.read_text(encoding="utf-8") + "\nprocedure tiny:\n" + "    quiet = 0\n" * 40
    rules.write_text(text, encoding="utf-8")
    code_lines = [n for n, line in enumerate(text.split("\n"), 1) if line.strip() and not line.lstrip().startswith("#")]
    code, _, err = run_cli(capsys, "validate", base_game)
    assert_clean(code, err)
    assert err.splitlines()[0] == (f"{base_game}/game.rules:{code_lines[50]}:1: error: rules file has more than 50 "
                                   "lines of rules (comments and blank lines aside)")


@pytest.mark.parametrize("limit, first_line", [
    ("1000000000", "game.rules:43:1: error: the outcome range 1 to 1000000000 is too large: 1000000000 outcomes, "
                   "at most 10001"),
    ("10001", None),
])
def test_a_die_of_as_many_sides_as_an_option_says_is_bounded(capsys, base_game, limit, first_line):
    base_game.edit("game.rules", "procedure advance:\n    move\n", "procedure advance:\n    move\n    then roll\n")
    rules = base_game.path / "game.rules"
    rules.write_text(rules.read_text(encoding="utf-8") + "\nchance roll:\n    outcomes 1 to limit\n    quiet += 0\n",
                     encoding="utf-8")
    code, _, err = run_cli(capsys, "moves", base_game, "--option", f"limit={limit}")
    if first_line is None:
        assert code == 0, err
    else:
        assert_clean(code, err)
        assert err.splitlines()[0] == f"{base_game}/{first_line}"
