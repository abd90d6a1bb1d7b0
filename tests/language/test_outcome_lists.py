"""A chance event's outcomes in brackets (format.md 3.9): `outcomes [X, Y, ...]` may
break across lines as any bracketed list does (3.1), a trailing comma is allowed, and
a weight after the list applies to each of its values."""
from __future__ import annotations

from itertools import permutations
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.validation.diagnostics import DefinitionError
from tests.helpers import write_definition

YAML = """\
game: outcome_lists
rules: game.rules
players: [white, black]
board:
  grid: {files: 3, ranks: 1}
variables:
  v: {type: int}
pieces:
  stone: {symbol: S}
"""

BODY = """
    decision put:
        action stone:
            drop stone on sites
            onto empty: place
"""


def _game(tmp_path: Path, outcomes: str, turn: str = "roll, put") -> object:
    rules = f"phase play:\n    turn: {turn}\nchance roll:\n{outcomes}\n    v = outcome\n"
    return load_game(write_definition(tmp_path, YAML, rules + BODY.replace("\n    ", "\n")))


def test_bracketed_outcomes_break_across_lines_with_a_weight(tmp_path: Path) -> None:
    game = _game(tmp_path, "    outcomes [\n        12,\n        21, 33,\n    ] weight 2, 7")
    state = game.initial_state()  # type: ignore[attr-defined]
    outcomes = [(str(a), p) for a, p in game.chance_outcomes(state)]  # type: ignore[attr-defined]
    assert [n for n, _ in outcomes] == ["roll:12", "roll:21", "roll:33", "roll:7"]
    assert [p for _, p in outcomes] == pytest.approx([2 / 7, 2 / 7, 2 / 7, 1 / 7])
    after = game.apply(state, "roll:33")  # type: ignore[attr-defined]
    assert game.variables(after)["v"] == 33  # type: ignore[attr-defined]


def test_a_whole_arrangement_per_outcome_written_over_many_lines(tmp_path: Path) -> None:
    # Einstein würfelt nicht's setup: the 720 arrangements of six cubes, each as digits.
    values = ["".join(p) for p in permutations("123456")]
    lines = ",\n".join("        " + ", ".join(values[i:i + 12]) for i in range(0, len(values), 12))
    game = _game(tmp_path, f"    outcomes [\n{lines}\n    ]")
    outcomes = game.chance_outcomes(game.initial_state())  # type: ignore[attr-defined]
    assert len(outcomes) == 720
    assert {round(p * 720, 9) for _, p in outcomes} == {1.0}
    after = game.apply(game.initial_state(), "roll:351624")  # type: ignore[attr-defined]
    assert game.variables(after)["v"] == 351624  # type: ignore[attr-defined]


def test_a_bracketed_list_of_sites_is_each_site(tmp_path: Path) -> None:
    rules = ("phase play:\n    turn: roll, put\nchance roll:\n    outcomes [a1,\n        c1]\n"
             "    v = 1 if outcome == c1 else 0\n" + BODY.replace("\n    ", "\n"))
    game = load_game(write_definition(tmp_path, YAML, rules))
    names = [str(a) for a, _ in game.chance_outcomes(game.initial_state())]
    assert names == ["roll:a1", "roll:c1"]


def test_an_empty_list_of_outcomes_is_a_located_error(tmp_path: Path) -> None:
    with pytest.raises(DefinitionError, match=r"game.rules:4:14: error: an empty list of outcomes"):
        _game(tmp_path, "    outcomes []")


# ------------------------------------------------------------------ for each over whole numbers
def _counting(tmp_path: Path, loop: str) -> object:
    rules = (f"phase play:\n    turn: roll, put\nchance roll:\n    outcomes 1 to 3\n    v = 0\n{loop}\n"
             + BODY.replace("\n    ", "\n"))
    return load_game(write_definition(tmp_path, YAML, rules))


def test_for_each_number_runs_from_a_to_b(tmp_path: Path) -> None:
    game = _counting(tmp_path, "    for each k in 1 to outcome + 1:\n        v = v * 10 + k\n"
                               "    for each k in 5 to 4:\n        v = 999")
    start = game.initial_state()  # type: ignore[attr-defined]
    assert [game.variables(game.apply(start, f"roll:{n}"))["v"]  # type: ignore[attr-defined]
            for n in (1, 2, 3)] == [12, 123, 1234]


def test_for_each_number_decodes_an_arrangement_from_its_digits(tmp_path: Path) -> None:
    # 3.9: one outcome carries a whole arrangement as digits, read last digit first
    # (1 a white stone, 2 a black one) onto the empty sites in board order
    rules = ("phase play:\n    turn: roll, put\nchance roll:\n    outcomes [121, 211, 112]\n"
             "    v = outcome\n    for each k in 1 to 3:\n"
             "        create stone at first(sites - pieces) for white if v % 10 == 1 else black\n"
             "        v = v // 10\n" + BODY.replace("\n    ", "\n"))
    game = load_game(write_definition(tmp_path, YAML, rules))
    after = game.apply(game.initial_state(), "roll:112")  # type: ignore[attr-defined]
    assert sorted((p.site, p.owner) for p in game.pieces(after)) == [  # type: ignore[attr-defined]
        ("a1", "black"), ("b1", "white"), ("c1", "white")]


def test_for_each_number_over_the_limit_is_refused_by_validate(tmp_path: Path) -> None:
    with pytest.raises(DefinitionError, match=r"'for each' over 100001 numbers is more than the 100000 allowed"):
        _counting(tmp_path, "    for each k in 0 to 100000:\n        v += 1")


def test_for_each_number_needs_numbers(tmp_path: Path) -> None:
    with pytest.raises(DefinitionError, match=r"'for each k in A to B' needs whole numbers A and B, found a site"):
        _counting(tmp_path, "    for each k in 1 to a1:\n        v += 1")
