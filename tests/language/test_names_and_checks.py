"""Names the language keeps for itself, and the checks that catch a rule that
compiles but could not mean what its author meant: each gives a located error
(the first line `regelwerk validate` prints)."""
import re
import shutil
from pathlib import Path

import pytest
from lark.exceptions import LarkError
from lark.lexer import PatternStr

from interpreter.compilation.names import EXPRESSION_WORDS, STATEMENT_WORDS
from interpreter.frontends.cli import main
from interpreter.parsing.parser import rules_parser

BASE = Path(__file__).resolve().parents[1] / "broken" / "_base"


def first_diagnostic(tmp_path, capsys, rules_edit=None, yaml_edit=None, append_rules: str = "") -> str:
    """Validate a copy of the corpus base game with one edit; the first line printed."""
    for name in ("game.yaml", "game.rules"):
        shutil.copy(BASE / name, tmp_path / name)
    for name, edit in (("game.rules", rules_edit), ("game.yaml", yaml_edit)):
        if edit:
            text = (tmp_path / name).read_text()
            old, new = edit
            assert old in text, old
            (tmp_path / name).write_text(text.replace(old, new, 1))
    if append_rules:
        with open(tmp_path / "game.rules", "a") as rules:
            rules.write("\n" + append_rules)
    status = main(["validate", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 1, err
    return err.splitlines()[0].split("game.", 1)[1]


def test_the_grammar_has_no_conflict():
    assert rules_parser().options.strict


def test_a_procedure_cannot_take_a_statement_word(tmp_path, capsys):
    line = first_diagnostic(tmp_path, capsys, append_rules="procedure draw:\n    quiet = 0\n")
    assert line.startswith("rules:")
    assert "'draw' starts a statement of the rules language: a procedure named so could never be called" in line


def _grammar_words() -> list[str]:
    return sorted({t.pattern.value for t in rules_parser().terminals
                   if isinstance(t.pattern, PatternStr) and re.fullmatch(r"[a-z_]\w*", t.pattern.value)})


def _parses(text: str) -> bool:
    try:
        rules_parser().parse(text)
    except LarkError:
        return False
    return True


def test_the_reserved_words_are_the_grammar_s():
    """A word the grammar reads as itself at the start of a statement (a procedure
    called, a variable assigned), or anywhere in an expression, is in the lists
    that refuse it as a name; a word of the lists is one the grammar keeps."""
    words = _grammar_words()
    at_statement_start = {w for w in words if not all(_parses(f"procedure p:\n    {s}\n")
                                                      for s in (w, f"{w} += 1", f"{w}[player] = 1"))}
    in_expressions = {w for w in words if not all(_parses(f"define x = {e}\n")
                                                  for e in (f"{w} + 1", f"1 + {w}", f"f({w})", f"[{w}]"))}
    assert in_expressions <= EXPRESSION_WORDS
    assert at_statement_start <= STATEMENT_WORDS | EXPRESSION_WORDS
    assert STATEMENT_WORDS - at_statement_start == {"elif", "else"}
    # ... which are read as themselves after an `if` block.
    for word in ("elif", "else"):
        assert not _parses(f"procedure p:\n    if true:\n        win\n    {word} += 1\n")


@pytest.mark.parametrize("yaml_edit", [
    ("  quiet:\n    type: int", "  start:\n    type: int\n  quiet:\n    type: int"),
    ("  reserve:\n    initial: 2", "  repeat:\n    initial: 1\n  reserve:\n    initial: 2"),
])
def test_a_variable_or_pool_named_like_a_statement_word_can_be_read(tmp_path, capsys, yaml_edit):
    # (definitions doing so validated before the words were checked: they keep working)
    word = yaml_edit[1].split(":")[0].strip()
    read = word if word == "start" else f"{word}[player]"  # (a pool holds a count per player)
    shutil.copy(BASE / "game.yaml", tmp_path / "game.yaml")
    rules = (BASE / "game.rules").read_text().replace("    quiet = 0\n", f"    quiet = {read} + 0\n", 1)
    (tmp_path / "game.rules").write_text(rules)
    (tmp_path / "game.yaml").write_text((BASE / "game.yaml").read_text().replace(*yaml_edit, 1))
    assert main(["validate", str(tmp_path)]) == 0, capsys.readouterr().err


def test_an_assignment_to_a_statement_word_says_so(tmp_path, capsys):
    yaml = ("  quiet:\n    type: int", "  start:\n    type: int\n  quiet:\n    type: int")
    shutil.copy(BASE / "game.yaml", tmp_path / "game.yaml")
    rules = (BASE / "game.rules").read_text().replace("    quiet = 0\n", "    start += 1\n", 1)
    (tmp_path / "game.rules").write_text(rules)
    (tmp_path / "game.yaml").write_text((BASE / "game.yaml").read_text().replace(*yaml, 1))
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert 'game.rules:38:11: error: found "+=", expected "phase"' in err
    assert ('hint: "start" at the start of a statement is a word of the rules language, not a name: '
            "a variable or pool named so can be read but not assigned (format.md 3.1)") in err


def test_the_words_read_after_a_block_are_the_ones_format_md_lists():
    """format.md 3.1 lists the words that the first statement after a block's end
    reads as words: those the grammar takes so there, besides the reserved ones."""
    after_block = {w for w in _grammar_words() if w not in STATEMENT_WORDS | EXPRESSION_WORDS
                   and not _parses(f"procedure p:\n    if true:\n        win\n    {w} += 1\n")}
    text = (Path(__file__).resolve().parents[2] / "docs" / "format.md").read_text()
    listed = text.split("named like one of them:", 1)[1].split(".", 1)[0]
    assert set(re.findall(r"`(\w+)`", listed)) == after_block


def test_a_keyword_after_a_block_where_a_name_was_meant_says_so(tmp_path, capsys):
    # `score` is a name at a statement's start, but not right after a block's end.
    yaml = ("  quiet:\n    type: int", "  score:\n    type: int\n  quiet:\n    type: int")
    shutil.copy(BASE / "game.yaml", tmp_path / "game.yaml")
    (tmp_path / "game.yaml").write_text((BASE / "game.yaml").read_text().replace(*yaml, 1))
    rules = (BASE / "game.rules").read_text()
    (tmp_path / "game.rules").write_text(rules.replace("    quiet = 0\n", "    score += 1\n", 1))
    assert main(["validate", str(tmp_path)]) == 0
    capsys.readouterr()
    (tmp_path / "game.rules").write_text(
        rules.replace("    quiet = 0\n", "    if quiet > 0:\n        quiet = 0\n    score += 1\n", 1))
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert 'game.rules:40:5: error: found "score"' in err
    assert ('hint: after the end of an indented block "score" is read as a word of the rules language, '
            "not as a name (format.md 3.1): a variable or pool named so needs another name") in err


def test_a_define_cannot_take_an_expression_word(tmp_path, capsys):
    line = first_diagnostic(tmp_path, capsys, rules_edit=("define in_goal", "define none"))
    assert line == "rules:3:1: error: 'none' is a word of the rules language (in expressions it always means itself)"


def test_a_let_cannot_take_an_expression_word(tmp_path, capsys):
    line = first_diagnostic(tmp_path, capsys, rules_edit=("    quiet = 0\n", "    let true = 3\n"))
    assert "'true' is a word of the rules language" in line


def test_a_region_cannot_take_an_expression_word(tmp_path, capsys):
    line = first_diagnostic(tmp_path, capsys, yaml_edit=("  centre: [c3]", "  not: [c3]"))
    assert line.startswith("yaml:")
    assert "'not' is a word of the rules language" in line and "cannot name a region" in line


def test_a_procedure_is_not_a_condition(tmp_path, capsys):
    line = first_diagnostic(tmp_path, capsys, rules_edit=("    if in_goal:\n        win\n\nprocedure take",
                                                          "    if take:\n        win\n\nprocedure take"))
    assert "'take' is a procedure (statements to run), not a value" in line


def test_a_name_declared_twice_is_the_first_error(tmp_path, capsys):
    # `move` is a decision; a phase of the same name makes `turn: move` ambiguous.
    line = first_diagnostic(tmp_path, capsys, append_rules="phase move:\n    turn: move\n")
    assert "'move' is already defined at" in line


def test_plus_equals_on_a_flag_variable(tmp_path, capsys):
    yaml = ("  quiet:\n    type: int", "  lucky:\n    type: flag\n  quiet:\n    type: int")
    line = first_diagnostic(tmp_path, capsys, yaml_edit=yaml, rules_edit=("    quiet = 0\n", "    lucky += 1\n"))
    assert "'+=' needs a number variable; this one is a flag (true or false)" in line


@pytest.mark.parametrize("written,meant", [("False", "false"), ("True", "true"), ("None", "none")])
def test_capitalised_constants_are_pointed_out(tmp_path, capsys, written, meant):
    line = first_diagnostic(tmp_path, capsys, rules_edit=("    piece.moved = true", f"    piece.moved = {written}"))
    assert f"unknown name '{written}'" in line and f"did you mean '{meant}'?" in first_hint(tmp_path, capsys, written)


def first_hint(tmp_path, capsys, written) -> str:
    main(["validate", str(tmp_path)])
    return capsys.readouterr().err


def test_a_misspelt_site_is_suggested(tmp_path, capsys):
    line = first_diagnostic(tmp_path, capsys, rules_edit=("if to in centre and", "if to == c0 and"))
    assert "unknown name 'c0'" in line
    main(["validate", str(tmp_path)])
    assert "did you mean 'c1'?" in capsys.readouterr().err


def test_a_number_too_long_to_read(tmp_path, capsys):
    line = first_diagnostic(tmp_path, capsys, rules_edit=("quiet += 1", "quiet += " + "9" * 5000))
    assert "a number of 5000 digits: numbers in the rules have at most 16" in line


def test_a_number_too_large(tmp_path, capsys):
    line = first_diagnostic(tmp_path, capsys, rules_edit=("quiet += 1", "quiet += 9999999999999999"))
    assert "numbers in the rules are at most 1e+15 in size" in line


def test_an_action_that_moves_like_another_with_its_notation_is_a_warning(tmp_path, capsys):
    for name in ("game.yaml", "game.rules"):
        shutil.copy(BASE / name, tmp_path / name)
    rules = (tmp_path / "game.rules").read_text()
    # a variant's author meant to replace `step` and misspelt it
    rules = rules.replace("    action capture by man, chief:",
                          "    action steps by man, chief:\n        step ahead\n        onto empty: advance\n"
                          "    action capture by man, chief:")
    (tmp_path / "game.rules").write_text(rules)
    assert main(["validate", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert ("game.rules:15:5: warning: action 'steps' moves like action 'step' (line 12) and writes the same "
            "notation: only 'step' is listed, so 'steps' never acts") in err


# Actions alike that still act (format.md 3.8: the first is kept position by
# position, among the actions legal there): one lands on empty sites, the other on
# enemies, with one notation; or `forbid result` rejects the first where the
# second's effects pass.
SPLIT_BY_CASE = """\
    action step_empty by man, chief:
        step ahead
        notation "{from}{to}"
        onto empty: advance
    action step_enemy by man, chief:
        step ahead
        notation "{from}{to}"
        onto enemy: advance
"""
JUDGED_BY_RESULT = """\
    action step by man, chief:
        step ahead
        onto empty: advance
    action step_counted by man, chief:
        step ahead
        onto empty:
            captures[player] += 1
            advance
"""
COUNTED = "forbid result where captures[player] == 0\n"


def _alike(tmp_path, actions: str, forbid: str = ""):
    from interpreter import load_game

    for name in ("game.yaml", "game.rules"):
        shutil.copy(BASE / name, tmp_path / name)
    rules = (tmp_path / "game.rules").read_text()
    start, end = rules.index("    action step by man, chief:"), rules.index("    action capture by man, chief:")
    (tmp_path / "game.rules").write_text(rules[:start] + actions + rules[end:] + forbid)
    game = load_game(str(tmp_path))
    return game, game.make_state({"a2": ("white", "man"), "a3": ("black", "man"), "e2": ("white", "man")})


def test_actions_alike_that_land_on_different_things_both_act(tmp_path):
    game, state = _alike(tmp_path, SPLIT_BY_CASE)
    assert {"a2a3", "e2e3", "e2d2"} <= set(game.legal_notations(state))  # a capture by the second action


def test_the_second_of_actions_alike_acts_where_forbid_result_rejects_the_first(tmp_path):
    game, state = _alike(tmp_path, JUDGED_BY_RESULT, COUNTED)
    assert "e2-e3" in game.legal_notations(state)


@pytest.mark.parametrize("actions, forbid", [(SPLIT_BY_CASE, ""), (JUDGED_BY_RESULT, COUNTED)], ids=["cases", "result"])
def test_actions_alike_that_both_act_are_not_warned_about(tmp_path, actions, forbid):
    game, _ = _alike(tmp_path, actions, forbid)
    assert not [w for w in game.warnings if "never acts" in w.message]


def test_actions_alike_with_their_own_notations_are_fine(tmp_path, capsys):
    for name in ("game.yaml", "game.rules"):
        shutil.copy(BASE / name, tmp_path / name)
    rules = (tmp_path / "game.rules").read_text()
    rules = rules.replace("    action capture by man, chief:",
                          "    action steps by man, chief:\n        step ahead\n        notation \"{from}>{to}\"\n"
                          "        onto empty: advance\n    action capture by man, chief:")
    (tmp_path / "game.rules").write_text(rules)
    assert main(["validate", str(tmp_path)]) == 0
    assert "moves like" not in capsys.readouterr().err


def test_playouts_draw_the_alike_action_forbid_result_allows(tmp_path):
    # A playout checks only the candidates it draws: of two alike, the first
    # allowed is the legal one, and each legal action is drawn.
    import random

    game, state = _alike(tmp_path, JUDGED_BY_RESULT, COUNTED)
    engine = game.engine
    legal = set(engine.legal(state))
    rng = random.Random(5)
    drawn = set()
    for _ in range(300):
        unsettled = engine.copy(state)
        unsettled.legal = None  # (as after apply_in_place(..., settle=False))
        drawn.add(engine.random_legal(unsettled, rng))
    assert drawn == legal and len(legal) == len({engine.notation(code) for code in legal})


def test_a_kind_is_not_a_value(tmp_path, capsys):
    line = first_diagnostic(tmp_path, capsys, rules_edit=("    quiet = 0\n", "    quiet = man\n"))
    assert "'man' is a piece kind, not a value" in line
