"""A count of the sites whose flood reaches a goal, as masks
(compilation/counted_reach.py): Tromp-Taylor territories checked by hand (an
empty board, a region touching both colours, shared liberties between two
walls, an eye holding an enemy stone, 5×5, 9×9 and 13×13), the count written
without a loop, and a count of another shape (a hexagonal board, rocks, a goal
of the site's own, `m in neighbours(it)`, `not (A or B)`) equal to the same
count as loops on random positions."""
from __future__ import annotations

import ast
import random
from fractions import Fraction
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.compilation import counted_reach
from tests.helpers import REPO, generated, stones_and_rocks, write_definition

GO = str(REPO / "benchmarks" / "outsiders" / "go")
BENCHMARK_GO = str(REPO / "benchmarks" / "games" / "go")
KOMI = Fraction(15, 2)


def _scores(path: str, size: int, black: str, white: str) -> dict[str, object]:
    game = load_game(path, options={"board_size": size}) if path == GO else load_game(path)
    stones = [f"{site}=black.stone" for site in black.split()] + [f"{site}=white.stone" for site in white.split()]
    board = f"; board {' '.join(stones)}" if stones else "; board"
    state = game.parse_position(f"rw2; game go; ply 0; phase play; turn black move 0{board}; "
                                "variables ko=- passes=0 moves=0")
    return game.current_scores(state)


def _column(file: str, ranks: int = 5) -> str:
    return " ".join(f"{file}{rank}" for rank in range(1, ranks + 1))


@pytest.mark.parametrize(("size", "black", "white", "expected"), [
    # nothing on the board: no region reaches a stone
    (5, "", "", (0, KOMI)),
    # one region touching both colours counts for neither
    (5, "c3", "d4", (1, 1 + KOMI)),
    # two walls: column a black's, column e white's, column c (their shared
    # liberties, as in a seki) no one's
    (5, _column("b"), _column("d"), (10, 10 + KOMI)),
    # a white stone in the shared column cuts it in two regions, each still touching both
    (5, _column("b"), _column("d") + " c3", (10, 11 + KOMI)),
    # a white stone in black's column a: both parts touch white too
    (5, _column("b"), _column("d") + " a3", (5, 11 + KOMI)),
    # a closed corner (a1 a2 b1 b2) black's; the rest touches both
    (9, "c1 c2 c3 b3 a3", "e5", (9, 1 + KOMI)),
    (9, "c1 c2 c3 b3 a3", "", (81, KOMI)),
    (13, "g7", "", (169, KOMI)),
    (13, "g7", "a1", (1, 1 + KOMI)),
    # a white stone alone in black's closed corner: the corner's other points touch both
    (13, "c1 c2 c3 b3 a3", "a1 m13", (5, 2 + KOMI)),
])
def test_go_territories_by_hand(size: int, black: str, white: str, expected: tuple[object, object]) -> None:
    assert _scores(GO, size, black, white) == {"black": expected[0], "white": expected[1]}


def test_the_benchmark_go_scores_alike() -> None:
    assert _scores(BENCHMARK_GO, 9, "c1 c2 c3 b3 a3", "e5") == {"black": 9, "white": 1 + KOMI}
    assert _scores(BENCHMARK_GO, 9, "c1 c2 c3 b3 a3", "") == {"black": 81, "white": KOMI}


def test_the_area_is_counted_without_a_loop() -> None:
    """The score's floods are two growths of masks (no `for` left, a popcount)."""
    game = load_game(GO)
    assert not list(generated(game, ast.For, "the score"))
    assert any(node.attr == "bit_count" for node in generated(game, ast.Attribute, "the score"))


# A hexagonal board with rocks: a site counts for the player to move when it is
# empty or a rock, its flood through empty sites and rocks reaches a site
# beside one of the player's stones, and neither is its flood through empty
# sites alone in the region `rim`, nor is it on a1.
SHAPES = """\
define near(p) = exists(m in neighbours(it), m.owner == p)
define open(s) = exists(connected(s, it is empty), it in rim)
score: count(s in sites, (s is empty or s is rock) and exists(connected(s, it is empty or it is rock), near(player)) \\
    and not (open(s) or s == a1))
"""
RIM = "regions:\n  rim: {sites: [a1, b1, c1, d1, e1]}\n"


def _shapes(tmp_path: Path):
    rules = SHAPES + "phase play:\n    turn: place\ndecision place:\n    action stone:\n" \
        "        drop stone on sites\n        onto empty: place\n"
    yaml = stones_and_rocks(files=5, ranks=5, extra=RIM, neighbours="[n, ne, e, s, sw, w]")
    return write_definition(tmp_path, yaml, rules)


def test_a_count_of_another_shape_equals_its_loops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _shapes(tmp_path)
    masked = load_game(path)
    assert not list(generated(masked, ast.For, "the score"))
    monkeypatch.setattr(counted_reach.CountedReach, "count", lambda *args: None)
    looped = load_game(path)
    assert list(generated(looped, ast.For, "the score"))
    rng = random.Random(7)
    sites = [f"{f}{r}" for f in "abcde" for r in range(1, 6)]
    seen = set()
    for _ in range(300):
        stones = []
        for site in sites:
            roll = rng.random()
            if roll < 0.25:
                stones.append(f"{site}=white.stone")
            elif roll < 0.45:
                stones.append(f"{site}=black.stone")
            elif roll < 0.55:
                stones.append(f"{site}=neutral.rock")
        text = f"rw1; game probe; ply 0; phase play; turn white place 0; board {' '.join(stones)}"
        mine, theirs = masked.current_scores(masked.parse_position(text)), looped.current_scores(
            looped.parse_position(text))
        assert mine == theirs, text
        seen.add(tuple(mine.values()))
    assert len(seen) > 20  # (positions of many different counts)


# Two counts in one case, a stone placed between them: the second reads the
# position after the write (the owners' masks made again, not kept from the first).
AROUND = "count(s in sites, s is empty and exists(connected(s, it is empty), exists(neighbours(it), it is own)))"
BETWEEN_WRITES = f"""\
phase play:
    turn: place
    if no action:
        draw

decision place:
    action stone:
        drop stone on sites
        onto empty:
            let before = {AROUND}
            place
            counted = before * 100 + {AROUND}
"""


def test_counts_on_both_sides_of_a_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    yaml = stones_and_rocks(files=4, ranks=4, extra="variables:\n  counted: {type: int}\n")
    path = write_definition(tmp_path, yaml, BETWEEN_WRITES)
    masked = load_game(path)
    assert any(node.attr == "bit_count" for node in generated(masked, ast.Attribute))
    monkeypatch.setattr(counted_reach.CountedReach, "count", lambda *args: None)
    looped = load_game(path)
    assert not any(isinstance(node, ast.Attribute) and node.attr == "bit_count" for node in generated(looped))
    values = set()
    for seed in range(20):
        rng = random.Random(seed)
        mine, theirs = masked.initial_state(), looped.initial_state()
        while not masked.is_terminal(mine):
            actions = masked.legal_actions(mine)
            assert actions == looped.legal_actions(theirs)
            action = rng.choice(actions)
            mine, theirs = masked.apply(mine, action), looped.apply(theirs, action)
            assert masked.variables(mine) == looped.variables(theirs)
            values.add(masked.variables(mine)["counted"])
    assert len(values) > 10
