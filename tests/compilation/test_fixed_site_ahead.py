"""`ahead(TRACK, X, N)` with X fixed and N worked out (`piece.idx - 1`, a variable):
a read of X's row of answers (expr_tracks.TrackFamily._ahead_of_fixed_site), no
call of helpers.ahead, the same answers — none below 0, beyond the end of a track
that does not loop, off the track; round and round a looping one."""
import ast

import pytest

from interpreter.api import load_game
from tests.helpers import helper_calls, play, write_definition

YAML = """game: probe
title: Probe
description: A board to try ahead on.
rules: game.rules
players:
  - {name: solo}
board:
  grid: {files: 4, ranks: 2}
pieces:
  stone: {symbol: S, description: A stone.}
variables:
  n: {type: int, default: -3}
  line_end: {type: site}
  line_past: {type: site}
  ring_end: {type: site}
  off_end: {type: site}
tracks:
  line: [a1, b1, c1, d1]
  ring: {sites: [a1, b1, c1, d1], loop: true}
"""

RULES = """
phase main:
    turn: solo

decision solo:
    action tick:
        pass:
            line_end = ahead(line, b1, n)
            line_past = ahead(line, b1, n - 2)
            ring_end = ahead(ring, c1, n + 1)
            off_end = ahead(line, a2, n)
            n += 1
        notation "tick"
"""

LINE = ["a1", "b1", "c1", "d1"]


def _expected(n: int) -> dict[str, str | None]:
    """helpers.ahead's answers, by hand: b1 is the line's second site, c1 the ring's third."""
    def on_line(steps: int) -> str | None:
        return LINE[1 + steps] if 0 <= steps and 1 + steps < 4 else None
    return {"line_end": on_line(n), "line_past": on_line(n - 2),
            "ring_end": LINE[(2 + n + 1) % 4] if n + 1 >= 0 else None, "off_end": None}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return load_game(write_definition(tmp_path_factory.mktemp("ahead"), YAML, RULES))


def test_the_answers_are_helpers_ahead_s_from_below_zero_to_past_the_end(game):
    state = game.initial_state()
    seen = set()
    for n in range(-3, 9):
        state = play(game, "tick", state=state)
        values = game.variables(state)
        answers = {name: values[name] for name in ("line_end", "line_past", "ring_end", "off_end")}
        assert answers == _expected(n), n
        seen.update(answers.values())
    assert {None, "a1", "b1", "c1", "d1"} <= seen


def test_no_helper_is_called_and_a_subtraction_is_read_from_a_longer_row(game):
    assert helper_calls(game, "h_ahead") == []
    # (`n - 2` read as `n` from a row two places longer: no subtraction left in it)
    subtractions = [node for node in ast.walk(game.rules.module)
                    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub)]
    assert subtractions == []
