"""Numbers with a fractional part (docs/format.md 3.12 and 2.12): exact decimal
literals and options of `type: decimal`, in scores and comparisons; never stored,
never where a whole number is needed — Go's komi of 7.5."""
import json
from fractions import Fraction

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from interpreter.runtime.errors import RuleRuntimeError
from interpreter.validation.diagnostics import DefinitionError
from tests.helpers import stones_and_rocks, write_definition

# A line of three sites filled in turn; the scores decide at the end.
OPTIONS = "options:\n  komi: {type: decimal, default: 0.5, min: 0, max: 10, description: Points White receives.}\n"
RULES = """\
    phase play:
        turn: place
        if no action:
            end game
    decision place:
        action stone:
            drop stone on sites
            notation "{to}"
            onto empty: place
    score: count(pieces of player) + (komi if player == black else 0)
"""


def komi_game(tmp_path, rules: str = RULES, options: dict | None = None, extra: str = OPTIONS):
    yaml = stones_and_rocks(files=3, ranks=1, extra=extra)
    return load_game(write_definition(tmp_path, yaml, rules), options=options)


def finished(game):
    state = game.initial_state()
    for site in ("a1", "b1", "c1"):
        state = game.apply(state, site)
    return state


def test_a_half_point_decides_exactly(tmp_path):
    game = komi_game(tmp_path)
    state = finished(game)  # white 2 stones, black 1 + 0.5
    assert game.engine.outcome(state) == (0, (2, Fraction(3, 2)))
    result = game.result(state)
    assert result.winner == "white" and result.scores == {"white": 2, "black": 1.5}
    assert type(result.scores["white"]) is int and type(result.scores["black"]) is float


@pytest.mark.parametrize("komi, winner", [("1", None), ("1.25", "black"), ("0.999999", "white")])
def test_the_option_is_read_exactly(tmp_path, komi, winner):
    game = komi_game(tmp_path, options={"komi": komi})
    assert game.result(finished(game)).winner == winner
    assert game.options["komi"] == (int(komi) if "." not in komi else float(komi))


def test_sums_are_exact(tmp_path):
    rules = RULES.replace("score: count(pieces of player) + (komi if player == black else 0)",
                          "score: (1 if 0.1 + 0.2 == 0.3 else 0) + 7.5 // 2 * 2 + -7 % 2.5 + abs(-0.25)")
    game = komi_game(tmp_path, rules)
    # 1 + 3 * 2 + 0.5 + 0.25 (the floor of a quotient is whole; -7 % 2.5 is -7 - 2.5 * -3)
    assert game.engine.scores(game.initial_state()) == (Fraction(31, 4), Fraction(31, 4))


def test_json_writes_scores_exactly(tmp_path, capsys):
    komi_game(tmp_path)
    record = tmp_path / "game.txt"
    record.write_text("a1\nb1\nc1\n")
    assert main(["replay", str(tmp_path), str(record), "--json"]) == 0
    last = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert last["scores"] == {"white": 2, "black": 1.5}
    assert '"black": 1.5' in json.dumps(last)


def test_text_and_positions_write_the_decimal_digits(tmp_path):
    game = komi_game(tmp_path, options={"komi": "0.25"})
    state = finished(game)
    text = game.position_text(state)
    assert "over white white:2,black:1.25" in text
    assert game.engine.outcome(game.parse_position(text)) == game.engine.outcome(state)


@pytest.mark.parametrize("value, message", [
    ("7.1234567", "option 'komi' takes a number with at most 6 digits after the point, such as 7.5, not '7.1234567'"),
    ("11", "option 'komi' must be at most 10, not 11"),
    ("half", "option 'komi' takes a number with at most 6 digits after the point, such as 7.5, not 'half'"),
])
def test_option_values_that_do_not_fit(tmp_path, value, message):
    from interpreter import DefinitionError

    with pytest.raises(DefinitionError) as caught:
        komi_game(tmp_path, options={"komi": value})
    assert message in str(caught.value)


def test_fractional_values_make_a_decimal_option(tmp_path):
    extra = "options:\n  komi: {values: [5.5, 6.5, 7.5], default: 6.5}\n"
    game = komi_game(tmp_path, extra=extra, options={"komi": "7.5"})
    assert game.engine.outcome(finished(game))[1] == (2, Fraction(17, 2))
    assert game.option_specs["komi"]["values"] == [5.5, 6.5, 7.5]


@pytest.mark.parametrize("old, new, message", [
    ("    decision place:\n", "    decision place:\n        action walk by stone:\n            step e distance komi\n"
                            "            onto empty: move\n",
     "a whole number is needed here (a distance); this is a decimal number"),
    ("onto empty: place", "onto empty:\n                place\n                repeat 1.0 times:\n"
                          "                    place", "a whole number is needed here (the times of 'repeat')"),
    ("onto empty: place", "onto empty:\n                place\n                turns = komi * 2",
     "variables hold whole numbers; this value may have a fractional part (komi * 2)"),
    ("onto empty: place", "onto empty:\n                place\n                turns += 0.5",
     "variables hold whole numbers; this value may have a fractional part (0.5)"),
    ("onto empty: place", "onto empty:\n                place\n                to.weight = 1.5",
     "attributes hold whole numbers; this value may have a fractional part (1.5)"),
    ("notation \"{to}\"", "where ahead(row, to, 0.5) != none\n            notation \"{to}\"",
     "a whole number is needed here (the third argument of 'ahead'); this is a decimal number"),
    ("score: count(pieces of player)", "score: 1.1234567 + count(pieces of player)",
     "a number with 7 digits after the point: at most 6"),
])
def test_a_decimal_where_a_whole_number_is_needed(tmp_path, capsys, old, new, message):
    extra = OPTIONS + "variables:\n  turns: {}\nattributes:\n  weight: {type: int}\ntracks:\n  row: [a1, b1, c1]\n"
    rules = RULES.replace(old, new)
    write_definition(tmp_path, stones_and_rocks(files=3, ranks=1, extra=extra), rules)
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"error: {message}" in err, err


def test_a_quotient_is_exact(tmp_path):
    rules = RULES.replace("score: count(pieces of player) + (komi if player == black else 0)",
                          "score: count(pieces of player) / 3 + (1 if 1 / 3 + 1 / 3 + 1 / 3 == 1 else 0) + 7 // 2 / 4")
    game = komi_game(tmp_path, rules)
    state = finished(game)  # white 2 stones, black 1: 2/3 + 1 + 3/4, 1/3 + 1 + 3/4
    assert game.engine.outcome(state) == (0, (Fraction(29, 12), Fraction(25, 12)))
    text = game.position_text(state)
    assert "over white white:29/12,black:25/12" in text
    assert game.engine.outcome(game.parse_position(text)) == game.engine.outcome(state)
    assert game.result(state).scores == {"white": 29 / 12, "black": 25 / 12}


def test_a_quotient_by_a_variable_and_by_zero(tmp_path):
    extra = OPTIONS + "variables:\n  shares: {}\n"
    rules = RULES.replace("score: count(pieces of player) + (komi if player == black else 0)",
                          "score: 6 / shares")
    game = komi_game(tmp_path, rules, extra=extra)
    with pytest.raises(RuleRuntimeError, match=r"game\.rules:10:8: division by zero"):
        game.engine.scores(game.initial_state())


def test_a_quotient_by_zero_written_is_refused(tmp_path):
    rules = RULES.replace("score: count(pieces of player) + (komi if player == black else 0)",
                          "score: count(pieces of player) / 0")
    with pytest.raises(DefinitionError, match=r"game\.rules:10:34: error: division by zero"):
        komi_game(tmp_path, rules)


def test_a_quotient_is_not_stored(tmp_path):
    extra = OPTIONS + "variables:\n  share: {}\n"
    rules = RULES.replace("onto empty: place", "onto empty:\n                place\n                share = 3 / 3")
    with pytest.raises(DefinitionError, match="variables hold whole numbers; this value may have a fractional part"):
        komi_game(tmp_path, rules, extra=extra)

