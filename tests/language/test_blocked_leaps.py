"""`leap (X, Y) via (A, B)` (a leap blocked by a piece on its way) and `slide DIRS
over one piece` (a way over one screen) on hand-built positions (docs/format.md
3.5)."""
import textwrap

import pytest

from interpreter import load_game
from interpreter.frontends.cli import main

YAML = """\
game: probe
title: Probe
description: A board to leap on.
rules: game.rules
players:
  - {name: white, forward: n}
  - {name: black, forward: s}
board:
  grid: {files: 5, ranks: 5}
pieces:
  man: {symbol: M}
setup:
"""


def make(tmp_path, rules: str, setup: str):
    (tmp_path / "game.yaml").write_text(YAML + textwrap.indent(setup, "  "))
    (tmp_path / "game.rules").write_text("phase play:\n    turn: move\ndecision move:\n"
                                         + textwrap.indent(textwrap.dedent(rules), "    "))
    return load_game(str(tmp_path))


def moves(tmp_path, rules: str, setup: str) -> list[str]:
    game = make(tmp_path, rules, setup)
    return sorted(game.legal_notations(game.initial_state()))


HORSE = """\
action horse by man:
    leap (1, 2) via (0, 1)
    onto empty: move
    onto enemy: move
"""


def test_a_horse_is_blocked_by_the_point_next_to_it_in_the_long_direction(tmp_path):
    # Free: the eight leaps of c3.
    assert moves(tmp_path, HORSE, "white: {man: [c3]}\n") == [
        "c3-a2", "c3-a4", "c3-b1", "c3-b5", "c3-d1", "c3-d5", "c3-e2", "c3-e4"]
    # A piece on c4 (any owner) blocks b5 and d5; one on b3 blocks a2 and a4; b4,
    # diagonal to c3, blocks nothing of c3's. The horse on c4 is blocked by b4 (a3,
    # a5) and by c3 (b2, d2).
    assert moves(tmp_path, HORSE, "white: {man: [c3, c4]}\nblack: {man: [b3, b4]}\n") == [
        "c3-b1", "c3-d1", "c3-e2", "c3-e4", "c4-e3", "c4-e5"]


def test_a_via_site_beyond_the_edge_closes_the_leap(tmp_path):
    # a1: the leap to b3 passes a2; the one to c2 passes b1: both on the board.
    assert moves(tmp_path, HORSE, "white: {man: [a1]}\nblack: {man: [b1]}\n") == ["a1-b3"]


def test_an_elephant_is_blocked_by_its_eye(tmp_path):
    rules = """\
        action elephant by man:
            leap (2, 2) via (1, 1)
            onto empty: move
        """
    assert moves(tmp_path, rules, "white: {man: [c3]}\nblack: {man: [d4]}\n") == ["c3-a1", "c3-a5", "c3-e1"]


def test_leap_exactly_turns_the_via_offsets_with_the_player(tmp_path):
    rules = """\
        action double by man:
            leap exactly (0, 2) via (0, 1)
            onto empty: move
        """
    # white (forward n) on b1 passes b2, blocked; on d1 passes d2, free.
    assert moves(tmp_path, rules, "white: {man: [b1, d1]}\nblack: {man: [b2]}\n") == ["d1-d3"]
    game = make(tmp_path, rules, "white: {man: [b1]}\nblack: {man: [c5, d5, d4]}\n")
    state = game.apply(game.initial_state(), "b1-b3")
    # black (forward s): c5 passes c4 (free), d5 passes d4 (its own man, blocked)
    assert sorted(game.legal_notations(state)) == ["c5-c3", "d4-d2"]


def test_forbid_passing_applies_to_the_via_site(tmp_path):
    rules = "action horse by man:\n    leap (1, 2) via (0, 1)\n    onto empty: move\n"
    game = make(tmp_path, rules, "white: {man: [c3]}\n")
    (tmp_path / "game.rules").write_text("forbid passing where site in [c4, b3]\n"
                                         + (tmp_path / "game.rules").read_text())
    game = load_game(str(tmp_path))
    assert sorted(game.legal_notations(game.initial_state())) == ["c3-b1", "c3-d1", "c3-e2", "c3-e4"]


CANNON = """\
action cannon by man:
    slide orthogonal over one piece
    where jumped is not neutral
    onto empty: move
    onto enemy:
        remove jumped
        move
"""


def test_a_screen_slide_lands_beyond_exactly_one_piece(tmp_path):
    # a1: north a2 empty, a3 the screen (own), a4 empty (a candidate), a5 an enemy
    # (a candidate, the way stops); east: b1 the screen (enemy), c1 own (stops).
    game = make(tmp_path, CANNON, "white: {man: [a1, a3, c1]}\nblack: {man: [a5, b1]}\n")
    state = game.initial_state()
    from_a1 = sorted(n for n in game.legal_notations(state) if n.startswith("a1"))
    assert from_a1 == ["a1-a4", "a1xa5"]
    # The case knows the screen: it is removed with the enemy taken.
    after = game.apply(state, "a1xa5")
    names = game.rules.site_names
    assert {names[s] for s, p in enumerate(after.board[:-1]) if p is not None} == {"a5", "b1", "c1"}


def test_without_a_screen_there_is_no_candidate(tmp_path):
    game = make(tmp_path, CANNON, "white: {man: [c3]}\nblack: {man: [e5]}\n")
    assert game.legal_notations(game.initial_state()) == []


@pytest.mark.parametrize("pattern,case,message", [
    ("leap (1, 2) via (0, 0)", "onto empty: move", "a leap's via site lies on its way, not at its start or end"),
    ("leap (1, 2), (0, 1) via (0, 1)", "onto empty: move", "via (0, 1) is a site leapt to"),
    ("slide orthogonal over one piece", "over enemy: move", "a screen's way lands onto a site: its cases are onto"),
])
def test_errors(tmp_path, capsys, pattern, case, message):
    (tmp_path / "game.yaml").write_text(YAML + "  white: {man: [c3]}\n")
    (tmp_path / "game.rules").write_text(f"phase play:\n    turn: move\ndecision move:\n    action a by man:\n"
                                         f"        {pattern}\n        {case}\n")
    assert main(["validate", str(tmp_path)]) == 1
    assert message in capsys.readouterr().err


def test_an_exact_orthogonal_leap_stops_at_a_site_it_must_not_pass(tmp_path):
    # `leap orthogonal distance 3` over anything: c1 to c4 over c2 (black) and c3;
    # a3 to d3 (black: taken) over b3 and c3; every other way leaves the board.
    rules = """\
    action leap3 by man:
        leap orthogonal distance 3
        onto empty: move
        onto enemy: move
    """
    setup = "white: {man: [c1, a3]}\nblack: {man: [c2, d3]}\n"
    assert moves(tmp_path, rules, setup) == ["a3xd3", "c1-c4"]
    # Black men may not be passed: c1's way over c2 closes; d3 is landed on, not passed.
    game = make(tmp_path, rules, setup)
    (tmp_path / "game.rules").write_text("forbid passing where site is occupied and site.owner == black\n"
                                         + (tmp_path / "game.rules").read_text())
    game = load_game(str(tmp_path))
    assert game.legal_notations(game.initial_state()) == ["a3xd3"]
