"""The constructs of docs/design/format-reach-3.md as the parser reads them: each
new syntax gives its typed node with the right fields, the syntax that was there
before gives the same tree as before, what is malformed is refused with a located
error, and the design's examples parse and its YAML follows the schema."""
from __future__ import annotations

import copy
import re
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from interpreter.loading.definition import load_definition
from interpreter.loading.files import _schema, schema_registry
from interpreter.parsing import ast
from interpreter.parsing.parser import AstBuildError, RulesSyntaxError, parse_rules
from interpreter.parsing.unparse import expression_text
from tests.docs.test_format_examples import _wrap
from tests.helpers import REPO

DESIGN = REPO / "docs" / "design" / "format-reach-3.md"
BASE = REPO / "tests" / "broken" / "_base"


def items(text: str) -> list:
    return parse_rules(text, "t.rules").items


def decision(body: str) -> ast.Decision:
    """The decision of `body` (its lines, indented as inside a decision)."""
    found = items("decision move:\n" + body)[0]
    assert isinstance(found, ast.Decision)
    return found


def action(body: str) -> ast.Action:
    """The action of `body` (its lines, indented as inside an action)."""
    return decision("    action a:\n" + body).actions[0]


def statements(body: str) -> list[ast.Stmt]:
    procedure = items("procedure p:\n" + body)[0]
    assert isinstance(procedure, ast.Procedure)
    return procedure.body


def expression(text: str) -> ast.Expr:
    define = items(f"define x = {text}\n")[0]
    assert isinstance(define, ast.Define)
    return define.expr


# ---------------------------------------------------------------- 1. board repetitions
def test_board_repetitions_is_an_expression_of_its_own():
    e = expression("board repetitions >= 2 and repetitions >= 3")
    assert isinstance(e, ast.And)
    assert isinstance(e.left, ast.Compare) and isinstance(e.left.left, ast.BoardRepetitions)
    assert e.right.left == ast.Name(e.right.left.pos, "repetitions")
    assert expression_text(e) == "board repetitions >= 2 and repetitions >= 3"


def test_board_alone_is_not_an_expression():
    with pytest.raises(RulesSyntaxError):
        expression("board >= 2")


# ---------------------------------------------------------------- 4. decimals
@pytest.mark.parametrize("text,value", [
    ("7.5", Fraction(15, 2)), ("0.25", Fraction(1, 4)), ("12.000001", Fraction(12000001, 1000000)),
])
def test_a_decimal_literal_is_exact(text, value):
    e = expression(text)
    assert isinstance(e, ast.DecimalNum) and e.value == value and e.text == text
    assert expression_text(e) == text


def test_a_negative_decimal_is_a_negation():
    e = expression("-7.5")
    assert isinstance(e, ast.Neg) and isinstance(e.operand, ast.DecimalNum)


def test_whole_numbers_and_attributes_read_as_before():
    e = expression("12 + a1.seeds")
    assert isinstance(e, ast.BinOp)
    assert e.left == ast.Num(e.left.pos, 12)
    assert isinstance(e.right, ast.Attr) and e.right.name == "seeds"


def test_a_decimal_has_at_most_six_places():
    with pytest.raises(AstBuildError, match="7 digits after the point: at most 6"):
        expression("0.1234567")


def test_a_point_without_digits_after_it_is_refused():
    with pytest.raises(RulesSyntaxError):
        expression("7.")


# ---------------------------------------------------------------- 5. a pass with statements
def test_a_pass_takes_statements_as_a_case():
    a = action("        pass:\n            passes += 1\n            notation \"p\"\n")
    assert a.pattern == ast.PassPattern(a.pattern.pos, only_if_stuck=False)
    (case,) = a.cases
    assert case.kind == "pass" and case.what == "" and case.label == "pass"
    assert case.notation == "p"
    assert [type(s) for s in case.body] == [ast.AssignStmt]


def test_a_forced_pass_takes_statements_on_its_line():
    a = action("        pass if no other action: lose\n")
    assert a.pattern.only_if_stuck
    assert [type(s) for s in a.cases[0].body] == [ast.LoseStmt]


def test_a_pass_without_statements_is_as_before():
    a = action("        pass\n        notation \"resign\"\n")
    assert isinstance(a.pattern, ast.PassPattern) and a.cases == [] and a.notation == "resign"


def test_a_pass_with_statements_is_its_only_pattern():
    with pytest.raises(AstBuildError, match="more than one movement pattern"):
        action("        pass: lose\n        pass\n")


# ---------------------------------------------------------------- 6. rotate and cycle
@pytest.mark.parametrize("word,clockwise", [("clockwise", True), ("anticlockwise", False)])
def test_rotate_names_its_set_and_direction(word, clockwise):
    (stmt,) = statements(f"    rotate quarter[player] {word}\n")
    assert isinstance(stmt, ast.RotateStmt) and stmt.clockwise is clockwise
    assert isinstance(stmt.region, ast.Index)


def test_rotate_needs_a_direction():
    with pytest.raises(RulesSyntaxError):
        statements("    rotate quarter\n")


def test_cycle_lists_its_sites_in_order():
    (stmt,) = statements("    cycle a1, neighbour(to, n), to\n")
    assert isinstance(stmt, ast.CycleStmt)
    assert [type(s) for s in stmt.sites] == [ast.Name, ast.Call, ast.Name]
    assert stmt.sites[0].id == "a1" and stmt.sites[2].id == "to"


def test_a_cycle_has_two_sites_at_least():
    with pytest.raises(RulesSyntaxError):
        statements("    cycle a1\n")


# ---------------------------------------------------------------- 7. one stone of a stack
def test_move_one_and_move_one_to():
    first, second, plain = statements("    move one\n    move one target to bar_x\n    move target to b2\n")
    assert first == ast.MoveStmt(first.pos, None, None, one=True)
    assert second.one and isinstance(second.what, ast.Name) and second.what.id == "target"
    assert second.dest.id == "bar_x"
    assert not plain.one and plain.what.id == "target"


def test_remove_one_and_return_one():
    remove, ret, plain = statements("    remove one piece\n    return one target to bar\n    return target to bar\n")
    assert isinstance(remove, ast.RemoveStmt) and remove.one and remove.what.id == "piece"
    assert isinstance(ret, ast.ReturnStmt) and ret.one and ret.pool == "bar"
    assert not plain.one


# ---------------------------------------------------------------- 8. longest turn, values
def test_play_the_longest_turn_alone():
    d = decision("    play the longest turn\n    action a:\n        pass\n")
    assert d.longest is not None and d.longest.tiebreak is None and d.longest.highest


@pytest.mark.parametrize("word,highest", [("highest", True), ("lowest", False)])
def test_play_the_longest_turn_with_a_tiebreak(word, highest):
    d = decision(f"    play the longest turn, then the {word} pips + 1\n    action a:\n        pass\n")
    assert d.longest.highest is highest
    assert expression_text(d.longest.tiebreak) == "pips + 1"


def test_one_longest_turn_per_decision():
    with pytest.raises(AstBuildError, match="more than one 'play the longest turn'"):
        decision("    play the longest turn\n    play the longest turn\n    action a:\n        pass\n")


def test_an_action_for_each_value():
    a = decision("    action checker by checker, from bar for each d in [die_hi, die_lo]:\n"
                 "        along course distance d\n        onto empty: move one\n").actions[0]
    assert [b.kind or b.pool for b in a.by] == ["checker", "bar"]
    assert a.each is not None and a.each.name == "d"
    assert isinstance(a.each.collection, ast.ListLit) and len(a.each.collection.items) == 2
    assert a.pattern.distance.low.id == "d"


def test_an_action_without_values_has_none():
    assert action("        step n\n        onto empty: move\n").each is None


# ---------------------------------------------------------------- 9. via and screens
def test_a_leap_via_its_leg():
    a = action("        leap (1, 2) via (0, 1)\n        onto empty: move\n")
    assert a.pattern == ast.OffsetLeapPattern(a.pattern.pos, [(1, 2)], True, [(0, 1)])


def test_an_exact_leap_via_several_sites():
    a = action("        leap exactly (2, 2), (-2, 2) via (1, 1), (-1, -1)\n        onto empty: move\n")
    assert a.pattern.offsets == [(2, 2), (-2, 2)] and not a.pattern.symmetric
    assert a.pattern.via == [(1, 1), (-1, -1)]


def test_a_leap_without_via_is_as_before():
    a = action("        leap (1, 2)\n        onto empty: move\n")
    assert a.pattern.via == []


def test_a_slide_over_one_piece():
    a = action("        slide orthogonal, diagonal over one piece\n        onto enemy: move\n")
    assert isinstance(a.pattern, ast.ScreenSlidePattern)
    assert [d.id for d in a.pattern.directions] == ["orthogonal", "diagonal"]


def test_a_plain_slide_is_as_before():
    a = action("        slide orthogonal\n        onto empty: move\n")
    assert isinstance(a.pattern, ast.StepPattern) and a.pattern.distance.unbounded


# ---------------------------------------------------------------- 10. cases in prefer
def test_prefer_names_actions_and_cases():
    d = decision("    prefer: onto enemy, en_passant, pawn_move over any, off board\n    action a:\n        pass\n")
    ((_, tier),) = d.prefer
    assert [type(item) for item in tier] == [ast.PreferCase, ast.Name, ast.PreferCase, ast.PreferCase]
    assert [item.text if isinstance(item, ast.PreferCase) else item.id for item in tier] == [
        "onto enemy", "en_passant", "pawn_move over any", "off board"]
    assert tier[2].action == "pawn_move" and (tier[2].kind, tier[2].what) == ("over", "any")
    assert tier[0].action is None


def test_prefer_of_action_names_is_as_before():
    d = decision("    prefer: man_jump, king_jump\n    prefer: step\n    action a:\n        pass\n")
    assert [[n.id for n in tier] for _, tier in d.prefer] == [["man_jump", "king_jump"], ["step"]]
    assert all(isinstance(n, ast.Name) for _, tier in d.prefer for n in tier)


def test_prefer_refuses_a_case_that_is_no_case():
    with pytest.raises(RulesSyntaxError):
        decision("    prefer: onto somewhere\n    action a:\n        pass\n")


# ---------------------------------------------------------------- 3. connected (a function)
def test_connected_is_a_call():
    e = expression("exists(connected(first(pieces of p), it is not wall), it in goal[p])")
    inner = e.args[0]
    assert isinstance(inner, ast.Call) and inner.fn == "connected" and len(inner.args) == 2


# ---------------------------------------------------------------- the design's examples
def _design_blocks(language: str) -> list[tuple[int, str]]:
    text = DESIGN.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(rf"^```{language}\n(.*?)^```", text, re.S | re.M):
        found.append((text.count("\n", 0, match.start()) + 1, match.group(1)))
    return found


@pytest.mark.parametrize("line,text", _design_blocks("rules"), ids=lambda v: str(v) if isinstance(v, int) else "")
def test_the_design_rules_examples_parse(line, text):
    for source in _wrap(text):
        parse_rules(source, f"format-reach-3.md:{line}")


@pytest.mark.parametrize("line,text", _design_blocks("yaml"), ids=lambda v: str(v) if isinstance(v, int) else "")
def test_the_design_yaml_examples_follow_the_schema(line, text):
    schema = copy.deepcopy(_schema("game.schema.json"))
    schema.pop("required", None)  # fragments: some top-level keys only
    errors = list(Draft202012Validator(schema, registry=schema_registry()).iter_errors(yaml.safe_load(text)))
    assert not errors, [e.message for e in errors]


def test_the_design_has_its_examples():
    assert len(_design_blocks("rules")) >= 15 and len(_design_blocks("yaml")) >= 3


# ---------------------------------------------------------------- schemas
def _game_errors(fragment: dict) -> list[str]:
    schema = copy.deepcopy(_schema("game.schema.json"))
    schema.pop("required", None)
    return [e.message for e in Draft202012Validator(schema, registry=schema_registry()).iter_errors(fragment)]


@pytest.mark.parametrize("variable", [
    {"type": "site"}, {"type": "site", "default": None}, {"type": "site", "default": "e4", "per_player": True},
    {"type": "int", "default": 3}, {"type": "flag", "default": True}, {"default": 0},
])
def test_variables_the_schema_takes(variable):
    assert _game_errors({"variables": {"v": variable}}) == []


@pytest.mark.parametrize("variable", [
    {"type": "site", "default": 3}, {"type": "site", "default": True},
    {"type": "int", "default": "e4 ^ 2"}, {"default": None}, {"type": "flag", "default": "yes"},
    {"type": "flag", "default": {"white": 1}},
])
def test_variables_the_schema_refuses(variable):
    assert _game_errors({"variables": {"v": variable}})


def test_decimal_options_and_stack_heights_follow_the_schema():
    assert _game_errors({"options": {"komi": {"type": "decimal", "default": 7.5, "min": 0, "max": 99.5}}}) == []
    assert _game_errors({"options": {"komi": {"values": [5.5, 6.5, 7.5], "default": 6.5}}}) == []
    assert _game_errors({"setup": {"white": {"checker": [{"site": "p1", "height": 2}]}}}) == []
    assert _game_errors({"setup": {"white": {"checker": {"sites": ["p1"], "height": 2}}}}) == []
    assert _game_errors({"setup": {"white": {"checker": [{"site": "p1", "height": 0}]}}})


# ---------------------------------------------------------------- helpers
def _extra(*lines: str) -> str:
    """A decision `extra` of the given lines (indented as written), for the base game."""
    return "decision extra:\n" + "".join(line + "\n" for line in lines)


# ---------------------------------------------------------------- variants keep them
def test_a_variant_keeps_the_longest_turn_and_drops_the_cases_of_a_removed_action(tmp_path: Path):
    (tmp_path / "game.yaml").write_text((BASE / "game.yaml").read_text())
    (tmp_path / "game.rules").write_text((BASE / "game.rules").read_text() + "\n" + _extra(
        "    prefer: a onto enemy, b, onto empty", "    play the longest turn",
        "    action a:", "        step n", "        onto enemy: move",
        "    action b:", "        step s", "        onto empty: move"))
    (tmp_path / "variant.yaml").write_text("variant: v\nextends: game.yaml\nrules: variant.rules\n")
    (tmp_path / "variant.rules").write_text(
        "remove action extra.a\n\n" + _extra("    action c:", "        step e", "        onto empty: move"))
    definition = load_definition(str(tmp_path / "variant.yaml"))
    extra = next(i for f in definition.rules for i in f.items if isinstance(i, ast.Decision) and i.name == "extra")
    assert extra.longest is not None
    assert [a.name for a in extra.actions] == ["b", "c"]
    ((_, tier),) = extra.prefer
    assert [item.text if isinstance(item, ast.PreferCase) else item.id for item in tier] == ["b", "onto empty"]
