"""A per-player variable read at a player worked out is known to read one of that
variable's entries (pyast.sub_within): a loop writing other variables leaves it
alone, so the read leaves the loop and the variables the loop writes live in
locals while it runs."""
import ast

from interpreter import load_game
from interpreter.compilation import pyast
from tests.helpers import generated, write_definition


def test_a_read_knows_its_places_and_keeps_them_when_rebuilt():
    read = pyast.sub_within(pyast.name("v"), pyast.add(pyast.num(4), pyast.name("l1")), 4, 7)
    assert pyast.places_read(read) == (4, 7)
    assert pyast.places_read(pyast.sub(pyast.name("v"), 3)) == (3, 3)
    assert pyast.places_read(pyast.sub(pyast.name("v"), pyast.name("l1"))) is None
    expression = pyast.ifexp(read, pyast.compare(pyast.name("l1"), ">=", pyast.num(0)), pyast.num(0))
    renamed = pyast.replace_nodes(expression, pyast.renaming("l1", "t5"))
    assert ast.unparse(renamed) == "v[4 + t5] if t5 >= 0 else 0"
    assert isinstance(renamed, ast.IfExp) and isinstance(renamed.body, ast.Subscript)
    assert renamed.body is not read and pyast.places_read(renamed.body) == (4, 7)


YAML = """game: probe
title: Probe
description: The best of a few sums of per-player values, read at a player worked out.
rules: game.rules
players: [north, east, south]
board:
  grid: {files: 1, ranks: 1}
pieces:
  token:
variables:
  value: {per_player: true}
  who: {type: player}
  best: {}
  rounds: {}
"""

RULES = """
phase deal:
    turn: values
chance values:
    outcomes 0 to 26
    value[north] = outcome % 3
    value[east] = outcome // 3 % 3
    value[south] = outcome // 9
    then pick
chance pick:
    outcomes 0 to 3
    who = north if outcome == 0 else (east if outcome == 1 else (south if outcome == 2 else none))
    search
    end game
procedure search:
    best = 0
    for each i in 1 to 3:
        rounds += 1
        best = max(best, value[who] * i - value[player_after(who, 1)] + i)
score: best + rounds * 100
"""


def test_a_loop_reads_the_values_once_and_keeps_its_variables_in_locals(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    loops = list(generated(game, ast.For, "chance 'pick'"))
    assert loops
    for loop in loops:
        # (`best` and `rounds` in locals, `value[who]` read before the loop: only the read
        # at the player a call works out in the loop is left, known to be among value's entries)
        reads = [node for node in ast.walk(loop) if isinstance(node, ast.Subscript)
                 and isinstance(node.value, ast.Name) and node.value.id == "v"]
        assert len(reads) == 1 and pyast.places_read(reads[0]) == (0, 2), ast.unparse(loop)
    # value: north 2, east 1, south 0 (outcome 2 + 1 * 3 + 0 * 9 = 5)
    state = game.apply(game.initial_state(), "values:5")
    for outcome, expected in ((0, max(2 * i - 1 + i for i in (1, 2, 3))),  # north, then east
                              (1, max(1 * i - 0 + i for i in (1, 2, 3))),  # east, then south
                              (2, max(0 * i - 2 + i for i in (1, 2, 3))),  # south, then north
                              (3, 3)):  # none: every value read as 0
        end = game.apply(state, f"pick:{outcome}")
        assert game.is_terminal(end)
        assert game.current_scores(end) == {name: expected + 300 for name in ("north", "east", "south")}, outcome
