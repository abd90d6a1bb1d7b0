"""A procedure's parameters given constants at the call (a direction, a track, a
number) are those constants in the procedure's body, as in a copy written out with
them (statements._call_procedure, code.stands_alone): the tables of a direction and
of a track are read, not asked at run time."""
import ast

from interpreter import load_game
from tests.helpers import generated, helper_calls, write_definition

YAML = """\
game: probe
title: Probe
description: Tiles that slide as far as they go, up or right.
rules: game.rules
players: [solo]
board:
  grid: {files: 3, ranks: 3}
tracks:
  up_t: [a1, a2, a3, b1, b2, b3, c1, c2, c3]
  down_t: [a3, a2, a1, b3, b2, b1, c3, c2, c1]
  right_t: [a1, b1, c1, a2, b2, c2, a3, b3, c3]
  left_t: [c1, b1, a1, c2, b2, a2, c3, b3, a3]
pieces:
  tile: {symbol: T, owner: neutral}
variables:
  total: {type: int}
setup:
  neutral:
    tile: [a1, b2]
"""
ONE = """\
phase play:
    turn: move
    if no action:
        end game
decision move:
    action up:
        where exists(pieces, neighbour(it, n) is empty)
        pass:
            shove(n, down_t, up_t, 1)
        notation "U"
    action right:
        where exists(pieces, neighbour(it, e) is empty)
        pass:
            shove(e, left_t, right_t, 2)
        notation "R"
procedure shove(d, trav, ahead_t, points):
    for each t in trav:
        if t is occupied and neighbour(t, d) is empty:
            move t to ahead(ahead_t, t, count(ray(t, d, it is empty)))
            total += points
score: total
"""
WRITTEN_OUT = ONE.split("procedure")[0].replace("shove(n, down_t, up_t, 1)", "shove_up").replace(
    "shove(e, left_t, right_t, 2)", "shove_right") + """\
procedure shove_up:
    for each t in down_t:
        if t is occupied and neighbour(t, n) is empty:
            move t to ahead(up_t, t, count(ray(t, n, it is empty)))
            total += 1
procedure shove_right:
    for each t in left_t:
        if t is occupied and neighbour(t, e) is empty:
            move t to ahead(right_t, t, count(ray(t, e, it is empty)))
            total += 2
score: total
"""


def test_constant_arguments_are_constants_in_the_body(tmp_path):
    (tmp_path / "one").mkdir()
    game = load_game(write_definition(tmp_path / "one", YAML, ONE))
    assert not helper_calls(game, "h_one_direction")
    # the track's table of the sites after each site is read (h_ahead only beyond
    # its reach), given the track's constant, never a local holding it
    assert all(isinstance(call.args[0], ast.Name) and call.args[0].id.startswith("k")
               for call in helper_calls(game, "h_ahead"))
    # nothing is assigned a constant at the call
    assert not [node for node in generated(game, ast.Assign, origin="action 'up'")
                if isinstance(node.value, (ast.Name, ast.Constant)) and getattr(node.value, "id", "").startswith("k")]
    (tmp_path / "two").mkdir()
    written = load_game(write_definition(tmp_path / "two", YAML, WRITTEN_OUT))
    assert len(game.rules.source) == len(written.rules.source)
    state, other = game.initial_state(), written.initial_state()
    assert sorted(game.legal_notations(state)) == ["R", "U"]
    state, other = game.apply(state, "U"), written.apply(other, "U")
    assert sorted(p.site for p in game.pieces(state)) == ["a3", "b3"]
    assert game.variables(state)["total"] == 2
    assert game.legal_notations(state) == ["R"] == written.legal_notations(other)
    state, other = game.apply(state, "R"), written.apply(other, "R")
    assert sorted(p.site for p in game.pieces(state)) == ["b3", "c3"]
    assert game.variables(state)["total"] == 6
    assert game.is_terminal(state) and written.is_terminal(other)
    assert game.position_text(state) == written.position_text(other)
    assert game.engine.perft(game.initial_state(), 2) == written.engine.perft(written.initial_state(), 2)
