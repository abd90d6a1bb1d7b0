"""Numbers written with options (docs/format.md 2.4, 2.5, 2.10, 2.11): a grid of
`2 * side - 1` files and ranks, `within: {steps: side - 2, of: REGION}`, `last - (side
- 1)` and spans (`1 to last by 2`) in a region rule — a hexagon and a lattice of any
size from one definition, checked against the cells worked out here directly —, a
pool's starting count and a variable's default; the reader of such numbers and its
errors."""
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from interpreter.loading.option_numbers import MAX_DEPTH, possible_values, read_option_number
from tests.helpers import write_definition

REPO = Path(__file__).resolve().parents[2]
HAVANNAH = REPO / "benchmarks" / "outsiders" / "havannah"

HEXAGON_YAML = """\
game: hexagon
title: Hexagon
description: A hexagon whose side the user chooses.
rules: game.rules
players:
  - {name: white}
  - {name: black}
options:
  side: {values: [2, 3, 4, 5], default: 3, description: Cells a side.}
board:
  grid: {files: 2 * side - 1, ranks: 2 * side - 1, neighbours: [n, ne, e, s, sw, w]}
regions:
  cells: {within: {steps: side - 1, of: {files: [last - (side - 1)], only: {ranks: [last - side + 1]}}}}
pieces:
  stone: {symbol: S, description: A stone.}
"""
PLACE = ("phase play:\n    turn: place\ndecision place:\n    action stone:\n        drop stone on cells\n"
         "        notation \"{to}\"\n        onto empty: place\n")


def _name(x: int, y: int) -> str:
    return f"{chr(ord('a') + x)}{y + 1}"


def _hexagon(side: int) -> set[str]:
    """The cells (x, y) of a hexagon of `side` on a rhombus of 2 side - 1 with
    neighbours (x, y +- 1), (x +- 1, y), (x + 1, y + 1), (x - 1, y - 1): |x - y| < side."""
    width = 2 * side - 1
    return {_name(x, y) for x in range(width) for y in range(width) if abs(x - y) < side}


@pytest.mark.parametrize("side", [2, 3, 4, 5])
def test_one_definition_makes_the_hexagon_of_every_side(tmp_path, side):
    game = load_game(write_definition(tmp_path, HEXAGON_YAML, PLACE), {"side": side})
    assert game.model.board.files == game.model.board.ranks == 2 * side - 1
    assert set(game.legal_notations(game.initial_state())) == _hexagon(side)


def test_validate_compiles_it_at_every_side(tmp_path, capsys):
    write_definition(tmp_path, HEXAGON_YAML, PLACE)
    assert main(["validate", str(tmp_path)]) == 0
    assert "board sizes checked: side=2, 3, 4, 5" in capsys.readouterr().out


@pytest.mark.parametrize("side", [3, 5, 8, 10])
def test_the_outsiders_havannah_regions_at_every_side(side):
    # benchmarks/outsiders/havannah: cut triangles, centre, corners and sides, all
    # written with the option, against the cells worked out here.
    game = load_game(str(HAVANNAH), {"board_size": side})
    names, regions = game.model.board.names, game.model.regions
    m, e = side - 1, 2 * side - 2

    def sites(region: str) -> set[str]:
        return {names[s] for s in regions[region].sites[0]}

    cells = _hexagon(side)
    corners = {_name(*c) for c in ((0, 0), (m, 0), (e, m), (e, e), (m, e), (0, m))}
    assert sites("cells") == cells
    assert sites("corners") == corners
    coords = [(x, y) for x in range(e + 1) for y in range(e + 1) if _name(x, y) in cells]
    on_side = [lambda x, y: y == 0, lambda x, y: x - y == m, lambda x, y: x == e,
               lambda x, y: y == e, lambda x, y: y - x == m, lambda x, y: x == 0]
    for k, on in enumerate(on_side):
        assert sites(f"side{k}") == {_name(x, y) for x, y in coords if on(x, y)} - corners, k
    rim = corners.union(*(sites(f"side{k}") for k in range(6)))
    assert sites("inner") == cells - rim


def test_within_a_region_counts_from_each_of_its_sites(tmp_path):
    yaml = HEXAGON_YAML.replace("side - 1, of: {files: [last - (side - 1)], only: {ranks: [last - side + 1]}}",
                                "1, of: {edge: true}").replace(
        "grid: {files: 2 * side - 1, ranks: 2 * side - 1, neighbours: [n, ne, e, s, sw, w]}",
        "grid: {files: 5, ranks: 5}")
    game = load_game(write_definition(tmp_path, yaml, PLACE))
    every = {_name(x, y) for x in range(5) for y in range(5)}
    assert set(game.legal_notations(game.initial_state())) == every - {"c3"}


def test_within_a_named_region(tmp_path):
    yaml = HEXAGON_YAML.replace(
        "  cells: {within: {steps: side - 1, of: {files: [last - (side - 1)], only: {ranks: [last - side + 1]}}}}\n",
        "  ends: [a1, c3]\n  cells: {within: {steps: 1, of: ends}, except: ends}\n")
    game = load_game(write_definition(tmp_path, yaml, PLACE), {"side": 2})
    assert sorted(game.legal_notations(game.initial_state())) == ["a2", "b1", "b2", "b3", "c2"]


@pytest.mark.parametrize("change, message, where", [
    (("side: {values: [2, 3, 4, 5]", "side: {values: [2, 3, 14]"),
     "'2 * side - 1' may be 27, and a grid has 1 to 26 files", "game.yaml:11:17"),
    (("files: 2 * side - 1", "files: 2 * sid - 1"), "unknown option 'sid'", "game.yaml:11:17"),
    (("files: 2 * side - 1", "files: (2 * side - 1"), "'(2 * side - 1': a '(' is not closed", "game.yaml:11:17"),
    (("files: 2 * side - 1", "files: 2 * - side"), "a number or an option's name is expected before '-'",
     "game.yaml:11:17"),
    (("steps: side - 1", "steps: side - 9"), "steps: 'side - 9' is -6 with these options", "game.yaml:13:"),
    (("steps: side - 1", "steps: side - lots"), "steps: unknown option 'lots'", "game.yaml:13:"),
    (("[last - side + 1]", "[last - side +]"), "a number or an option's name is expected before the end",
     "game.yaml:13:"),
])
def test_errors_say_what_and_where(tmp_path, capsys, change, message, where):
    yaml = HEXAGON_YAML.replace(*change)
    with pytest.raises(Exception) as caught:
        load_game(write_definition(tmp_path, yaml, PLACE))
    assert message in str(caught.value)
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert where in err and message in err, err


def test_a_flag_option_cannot_count_steps(tmp_path, capsys):
    yaml = HEXAGON_YAML.replace("description: Cells a side.}",
                                "description: Cells a side.}\n  big: {values: [false, true], default: false}")
    yaml = yaml.replace("steps: side - 1", "steps: side - big")
    with pytest.raises(Exception) as caught:
        load_game(write_definition(tmp_path, yaml, PLACE))
    assert "option 'big' is not a whole number" in str(caught.value)


def test_the_reader_keeps_the_order_of_operations():
    number = read_option_number("last - side + 1")
    assert number.value({"last": 9, "side": 5}) == 5
    assert read_option_number("2 * (side - 1) * 3 - 4").value({"side": 3}) == 8
    assert read_option_number(" 7 ").value({}) == 7
    assert read_option_number("a * b + a").names == ("a", "b")
    # division rounded down and its remainder, as in the rules, bound as tightly as *
    assert read_option_number("size * size // 8").value({"size": 9}) == 10
    assert read_option_number("last - size + 1 + (size - 1) // 2").value({"last": 6, "size": 6}) == 3
    assert read_option_number("7 - 9 // 2 % 3").value({}) == 6
    with pytest.raises(ValueError, match="divides by 0"):
        read_option_number("8 // (size - 3)").value({"size": 3})


@pytest.mark.parametrize("text, message", [
    ("2 ** side", "a number or an option's name is expected before '*'"),
    ("side / 2", "'/' is none of them"),
    ("__import__('os')", "is none of them"),
    ("side side", "'side' is not expected there"),
    ("x" * 121, "at most 120 characters"),
    ("side * 99999999999", "99999999999 is too large: every number lies between -1000000000 and 1000000000"),
    ("(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), f"nest at most {MAX_DEPTH} deep"),
])
def test_the_reader_refuses_anything_else(text, message):
    with pytest.raises(ValueError) as caught:
        read_option_number(text)
    assert message in str(caught.value)


def test_numbers_stay_bounded():
    huge = read_option_number("side * side * side * side * side")
    with pytest.raises(ValueError, match="must lie between"):
        huge.value({"side": 999_999})
    assert read_option_number("1000000000 - side").value({"side": 1}) == 999_999_999  # ten digits are read
    with pytest.raises(ValueError, match="1000000001 is too large"):
        read_option_number("1000000001 - side")
    # the values over the options' choices: every combination, or the ends when too many
    assert sorted(possible_values(read_option_number("2 * a - b"), {"a": [1, 2], "b": [0, 1]})) == [1, 2, 3, 4]
    assert len(possible_values(read_option_number("a + b"), {"a": list(range(200)), "b": list(range(200))})) == 4


def test_a_rank_beyond_the_board_inside_within_is_warned_about(tmp_path, capsys):
    yaml = HEXAGON_YAML.replace("[last - side + 1]", "[last + 5]")
    write_definition(tmp_path, yaml, PLACE)
    assert main(["validate", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "game.yaml:13:85: warning: the board has no rank last + 5: it chooses no site" in err, err


LATTICE_YAML = HEXAGON_YAML.replace(
    "  grid: {files: 2 * side - 1, ranks: 2 * side - 1, neighbours: [n, ne, e, s, sw, w]}\n",
    "  grid: {files: 2 * side + 1, ranks: side + 2}\n").replace(
    "  cells: {within: {steps: side - 1, of: {files: [last - (side - 1)], only: {ranks: [last - side + 1]}}}}\n",
    "  cells: {files: [b to last by 2], only: {ranks: [1 to last by 2]}}\n")


@pytest.mark.parametrize("side", [2, 3, 5])
def test_every_other_file_and_rank_from_one_to_another(tmp_path, side):
    game = load_game(write_definition(tmp_path, LATTICE_YAML, PLACE), {"side": side})
    files, ranks = 2 * side + 1, side + 2
    expected = {_name(x, y) for x in range(1, files, 2) for y in range(0, ranks, 2)}
    assert set(game.legal_notations(game.initial_state())) == expected


@pytest.mark.parametrize("spans, expected", [
    ("{files: [a to c], only: {ranks: [last - 1 to last]}}", ["a4", "a5", "b4", "b5", "c4", "c5"]),
    ("{files: [b to last by side], only: {ranks: [2 to 2]}}", ["b2", "e2"]),
    ("{files: [a], only: {ranks: [1 to last by 3]}}", ["a1", "a4"]),
    ("{files: [c to a], only: {ranks: [1]}}", []),  # (from c to a: none)
])
def test_spans_end_where_they_say(tmp_path, spans, expected):
    yaml = LATTICE_YAML.replace("{files: [b to last by 2], only: {ranks: [1 to last by 2]}}", spans)
    if not expected:
        yaml = yaml.replace("  cells:", "  cells_none:").replace("regions:\n", "regions:\n  cells: [a1]\n")
        game = load_game(write_definition(tmp_path, yaml, PLACE))
        assert list(game.model.regions["cells_none"].sites[0]) == []
        return
    game = load_game(write_definition(tmp_path, yaml, PLACE))  # side 3: 7 files, 5 ranks
    assert sorted(game.legal_notations(game.initial_state())) == expected


@pytest.mark.parametrize("span, message", [
    ("ranks: [1 to last by 0]", "'1 to last by 0': `by` takes every K-th line, and K is 0 here (1 or more)"),
    ("ranks: [1 to last by side - 3]", "K is 0 here"),
    ("ranks: [1 to side]", "'1 to side': each end is a rank number or `last ...`"),
    ("files: [b to z9]", "'b to z9': each end is a file letter or `last ...`"),
])
def test_span_errors(tmp_path, capsys, span, message):
    yaml = LATTICE_YAML.replace("ranks: [1 to last by 2]", span) if span.startswith("ranks") else \
        LATTICE_YAML.replace("files: [b to last by 2]", span)
    with pytest.raises(Exception) as caught:
        load_game(write_definition(tmp_path, yaml, PLACE))
    assert message in str(caught.value)


def test_validate_checks_the_long_narrow_boards_too(capsys):
    # 144 combinations of two options: the four corners are among the 12 compiled
    assert main(["validate", str(REPO / "benchmarks" / "outsiders" / "dots_and_boxes")]) == 0
    out = capsys.readouterr().out
    for corner in ("num_cols=1 num_rows=1", "num_cols=1 num_rows=12", "num_cols=12 num_rows=1",
                   "num_cols=12 num_rows=12 (12 of 144"):
        assert corner in out, out


COUNTS_YAML = HEXAGON_YAML.replace("pieces:\n", """variables:
  score: {default: 2 * side, per_player: true}
  bonus: {default: {white: side - 1}, per_player: true}
pools:
  stock: {initial: side + 1, description: Stones left.}
pieces:
""")


@pytest.mark.parametrize("side", [2, 5])
def test_a_pools_count_and_a_variables_default_from_options(tmp_path, side):
    game = load_game(write_definition(tmp_path, COUNTS_YAML, PLACE), {"side": side})
    state = game.initial_state()
    assert game.variables(state) == {"score": {"white": 2 * side, "black": 2 * side},
                                     "bonus": {"white": side - 1, "black": 0}}
    assert game.pools(state) == {"stock": {"white": side + 1, "black": side + 1}}


@pytest.mark.parametrize("change, message", [
    ("initial: side + 1", "initial: side - 9"),
    ("initial: side + 1", "initial: side * 99999"),
    ("default: 2 * side", "default: 2 * sides"),
])
def test_counts_with_options_out_of_bounds_or_unknown(tmp_path, change, message):
    expected = {"initial: side - 9": "'side - 9' is -6 with these options, and it must lie between 0 and 100000",
                "initial: side * 99999": "'side * 99999' is 299997 with these options, and it must lie between 0 "
                                         "and 100000",
                "default: 2 * sides": "unknown option 'sides'"}[message]
    with pytest.raises(Exception) as caught:
        load_game(write_definition(tmp_path, COUNTS_YAML.replace(change, message), PLACE))
    assert expected in str(caught.value)


def test_a_flag_starts_true_or_false(tmp_path):
    yaml = COUNTS_YAML.replace("  score: {default: 2 * side, per_player: true}",
                               "  score: {type: flag, default: side}")
    with pytest.raises(Exception) as caught:
        load_game(write_definition(tmp_path, yaml, PLACE))
    assert "game.yaml:15:32: error: variables.score.default must be " in str(caught.value)
    assert "found 'side'" in str(caught.value)


def test_a_setup_pieces_attribute_from_options(tmp_path):
    yaml = HEXAGON_YAML.replace("pieces:\n  stone: {symbol: S, description: A stone.}\n", """pieces:
  stone: {symbol: S, description: A stone.}
  pit: {symbol: P, owner: neutral}
attributes:
  seeds: {type: int}
setup:
  neutral:
    pit: {region: {files: [a], only: {ranks: [1 to last]}}, seeds: 2 * side}
""")
    game = load_game(write_definition(tmp_path, yaml, PLACE), {"side": 3})
    pieces = game.pieces(game.initial_state())
    assert {piece.site: piece.attributes["seeds"] for piece in pieces} == {
        f"a{rank}": 6 for rank in range(1, 6)}
    with pytest.raises(Exception) as caught:
        load_game(write_definition(tmp_path, yaml.replace("seeds: 2 * side", "seeds: 2 * sid"), PLACE))
    assert "unknown option 'sid'" in str(caught.value)


def test_a_backward_span_is_warned_about(tmp_path, capsys):
    yaml = LATTICE_YAML.replace("{files: [b to last by 2], only: {ranks: [1 to last by 2]}}",
                                "{files: [b to last by 2], only: {ranks: [last to 1 by 2]}}")
    write_definition(tmp_path, yaml, PLACE)
    assert main(["validate", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "game.yaml:13:51: warning: 'last to 1 by 2' chooses no rank: it runs from a later rank to an earlier " \
           "one" in err, err
    assert "hint: write 1 to last by 2" in err


def test_a_span_backward_only_on_a_board_an_option_makes_smaller_is_no_slip(tmp_path, capsys):
    # (Clobber's checkerboard, `b to last by 2` and `2 to last by 2`, on a board of 1 to 6 files
    # and ranks: on one file the span runs from b to a, empty as meant; the other part keeps a1)
    yaml = HEXAGON_YAML.replace(
        "  side: {values: [2, 3, 4, 5], default: 3, description: Cells a side.}\n",
        "  width: {type: int, default: 6, min: 1, max: 6, description: Files and ranks.}\n").replace(
        "  grid: {files: 2 * side - 1, ranks: 2 * side - 1, neighbours: [n, ne, e, s, sw, w]}\n",
        "  grid: {files: width, ranks: width}\n").replace(
        "  cells: {within: {steps: side - 1, of: {files: [last - (side - 1)], only: {ranks: [last - side + 1]}}}}\n",
        "  cells:\n    union:\n      - {files: [a to last by 2], only: {ranks: [1 to last by 2]}}\n"
        "      - {files: [b to last by 2], only: {ranks: [2 to last by 2]}}\n")
    write_definition(tmp_path, yaml, PLACE)
    assert main(["validate", str(tmp_path)]) == 0
    assert "warning" not in capsys.readouterr().err
    assert main(["validate", str(tmp_path), "--option", "width=1"]) == 0
    assert "warning" not in capsys.readouterr().err
    game = load_game(str(tmp_path), {"width": 1})
    assert game.legal_notations(game.initial_state()) == ["a1"]
    # (backward at every size: still a slip)
    write_definition(tmp_path, yaml.replace("[b to last by 2]", "[last to b by 2]"), PLACE)
    assert main(["validate", str(tmp_path)]) == 0
    assert "'last to b by 2' chooses no file: it runs from a later file to an earlier one" in capsys.readouterr().err


DEFAULT_FROM_OPTIONS_YAML = COUNTS_YAML.replace(
    "  side: {values: [2, 3, 4, 5], default: 3, description: Cells a side.}\n",
    "  side: {values: [2, 3, 4, 5], default: 3, description: Cells a side.}\n"
    "  walls: {type: int, default: side * side // 2, min: 1, max: 20, description: Stones each.}\n",
).replace("initial: side + 1", "initial: walls")


@pytest.mark.parametrize("given, walls", [({}, 4), ({"side": 2}, 2), ({"side": 5}, 12), ({"side": 5, "walls": 7}, 7)])
def test_an_options_default_written_with_the_options_above_it(tmp_path, given, walls):
    game = load_game(write_definition(tmp_path, DEFAULT_FROM_OPTIONS_YAML, PLACE), given)
    assert game.pools(game.initial_state()) == {"stock": {"white": walls, "black": walls}}
    assert game.options["walls"] == walls
    assert game.option_specs["walls"]["default"] == 4  # with side's default, 3
    assert game.option_specs["walls"]["default_written"] == "side * side // 2"
    assert "default_written" not in game.option_specs["side"]


def test_a_variant_may_write_the_default_with_options(tmp_path):
    write_definition(tmp_path, DEFAULT_FROM_OPTIONS_YAML, PLACE)
    (tmp_path / "variant.yaml").write_text("variant: more\nextends: game.yaml\noptions:\n  walls: side + 4\n")
    game = load_game(str(tmp_path / "variant.yaml"), {"side": 5})
    assert game.pools(game.initial_state())["stock"]["white"] == 9


@pytest.mark.parametrize("default, message", [
    ("side * side - 8", "option 'walls': its default 'side * side - 8' with side=2: option 'walls' must be at least "
                        "1, not -4"),
    ("sides * 2", "option 'walls': its default 'sides * 2' names 'sides', which is no option declared above it"),
    ("walls + 1", "option 'walls': its default 'walls + 1' names 'walls', itself"),
])
def test_a_default_that_cannot_be_worked_out_is_an_error_at_it(tmp_path, capsys, default, message):
    # validate tries every side, so a default that fails only at side=2 is found
    write_definition(tmp_path, DEFAULT_FROM_OPTIONS_YAML.replace("side * side // 2", default), PLACE)
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"game.yaml:10:31: error: {message}" in err, err


@pytest.mark.parametrize("default", ["rows", "rows * 2"])
def test_a_default_naming_an_option_declared_below_says_to_move_it(tmp_path, capsys, default):
    # (outsider62's Hex: `num_cols: {default: board_size}` above `board_size` was taken for
    # a text option's default)
    yaml = DEFAULT_FROM_OPTIONS_YAML.replace("default: side * side // 2", f"default: {default}").replace(
        "  side: {values: [2, 3, 4, 5], default: 3, description: Cells a side.}\n",
        "  side: {values: [2, 3, 4, 5], default: 3, description: Cells a side.}\n"
        "  rows: {values: [2, 3], default: 3, description: Rows.}\n", 1)
    lines = yaml.split("\n")  # (rows moved below walls)
    rows = next(i for i, line in enumerate(lines) if line.startswith("  rows:"))
    walls = next(i for i, line in enumerate(lines) if line.startswith("  walls:"))
    lines.insert(walls, lines.pop(rows))
    write_definition(tmp_path, "\n".join(lines), PLACE)
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"option 'walls': its default '{default}' names 'rows', which is declared below it" in err, err
    assert "move 'rows' above 'walls'" in err


def test_a_word_as_a_whole_number_options_default_is_taken_for_a_text_option(tmp_path, capsys):
    # (not "names 'fast', which is no option": the author meant a text option)
    write_definition(tmp_path, DEFAULT_FROM_OPTIONS_YAML.replace("default: side * side // 2, min: 1, max: 20",
                                                                 "default: fast"), PLACE)
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "game.yaml:10:31: error: the default does not fit: option 'walls' takes a whole number, not 'fast'" in err
    assert "a text option: give it `type: str` or its `values`" in err
