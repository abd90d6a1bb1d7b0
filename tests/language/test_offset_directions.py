"""Offsets in direction sets (docs/format.md 2.6): `[files east, ranks north]` is a
direction whose ray repeats the step — a knight's move for `step`, a nightrider for
`slide`, `for each d` over them, `opposite(d)`, `{d}` written as signed steps."""
from interpreter import load_game
from tests.helpers import stones_and_rocks, validate_says, write_definition

KNIGHT = "[[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]]"
DIRECTIONS = f"directions:\n  knight: {KNIGHT}\n  rider: [[1, 2], [2, 1]]\n"
SETUP = "setup:\n  white:\n    stone: [a1, c3]\n  black:\n    stone: [e5]\n"
TURNS = """\
    phase play:
        turn: move
        if no action:
            draw
    decision move:
"""


def _game(tmp_path, actions, directions=DIRECTIONS, files=5, ranks=5):
    yaml = stones_and_rocks(files=files, ranks=ranks, extra=directions + SETUP)
    return load_game(write_definition(tmp_path, yaml, TURNS + actions))


def _knight_moves(site, files=5, ranks=5):
    f, r = ord(site[0]) - ord("a"), int(site[1:]) - 1
    steps = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
    return {f"{chr(ord('a') + f + df)}{r + dr + 1}" for df, dr in steps
            if 0 <= f + df < files and 0 <= r + dr < ranks}


def test_a_step_over_the_set_is_a_knights_move(tmp_path):
    game = _game(tmp_path, "        action hop by stone:\n            step knight\n            onto empty: move\n")
    landings = {n.split("-")[1] for n in game.legal_notations(game.initial_state()) if n.startswith("c3")}
    assert landings == _knight_moves("c3") == {"a2", "a4", "b1", "b5", "d1", "d5", "e2", "e4"}
    assert {n.split("-")[1] for n in game.legal_notations(game.initial_state()) if n.startswith("a1")} == {"b3", "c2"}


def test_a_slide_rides_on_until_blocked(tmp_path):
    game = _game(tmp_path, "        action ride by stone:\n            slide rider\n            onto empty: move\n"
                           "            onto enemy: move\n", files=8, ranks=8)
    # a1 rides b3, c5, d7 and c2, e3, g4; c3 rides d5, e7 and e4, g5 (a1's b3... are its own)
    assert sorted(n for n in game.legal_notations(game.initial_state()) if n.startswith("a1")) == [
        "a1-b3", "a1-c2", "a1-c5", "a1-d7", "a1-e3", "a1-g4"]
    assert sorted(n for n in game.legal_notations(game.initial_state()) if n.startswith("c3")) == [
        "c3-d5", "c3-e4", "c3-e7", "c3-g5"]


def test_for_each_over_offsets_with_opposite_and_the_notation(tmp_path):
    actions = """\
        action look for each d in knight:
            select pieces of player
            where neighbour(to, d) is empty and neighbour(to, opposite(d)) is empty
            notation "{to}{d}"
            onto own:
                remove to
"""
    game = _game(tmp_path, actions)
    # c3: every knight's move lands on the board, and so does its opposite; a1: none do
    assert sorted(game.legal_notations(game.initial_state())) == sorted(
        f"c3{df:+d}{dr:+d}" for df, dr in [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)])


def test_the_set_is_the_same_for_every_player(tmp_path):
    game = _game(tmp_path, "        action hop by stone:\n            step rider\n            onto empty: move\n")
    state = game.apply(game.initial_state(), "a1-b3")
    assert game.legal_notations(state) == []  # e5's rider steps go east and north: off the board


def test_an_offset_that_goes_nowhere_or_is_a_compass_direction(tmp_path, capsys):
    skip = TURNS + "        action skip:\n            pass\n"
    write_definition(tmp_path, stones_and_rocks(extra="directions:\n  odd: [[0, 0]]\n"), skip)
    validate_says(tmp_path, capsys, "a direction [0, 0] goes nowhere")
    write_definition(tmp_path, stones_and_rocks(extra="directions:\n  odd: [n, [1, 0]]\n"), skip)
    validate_says(tmp_path, capsys, "the offset [1, 0] is the direction e")


def test_at_most_64_offsets(tmp_path, capsys):
    many = ", ".join(f"[{df}, 5]" for df in range(-16, 17))  # 33 offsets, 66 with their opposites
    write_definition(tmp_path, stones_and_rocks(extra=f"directions:\n  many: [{many}]\n"),
                     TURNS + "        action skip:\n            pass\n")
    validate_says(tmp_path, capsys, "direction sets name at most 64 offsets, each with its opposite")
