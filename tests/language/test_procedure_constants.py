"""A procedure's parameters given constants at the call (a direction, a track, a
number) are those constants in the procedure's body, as in a copy written out with
them (statements._call_procedure, code.stands_alone): the tables of a direction and
of a track are read, not asked at run time."""
import ast

import pytest

from interpreter import DefinitionError, load_game
from tests.helpers import api_perft, generated, helper_calls, write_definition

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


KINDS_YAML = """\
game: probe
title: Probe
description: Men that grow chiefs, chiefs that turn back into men.
rules: game.rules
players: [white, black]
board:
  grid: {files: 4, ranks: 4}
pieces:
  man: {symbol: M}
  chief: {symbol: C}
setup:
  white: {man: [a1]}
  black: {man: [d4]}
"""
KINDS = """\
phase play:
    turn: move
decision move:
    action grow by man:
        step all
        onto empty:
            put(chief, to)
    action shrink by chief:
        step all
        onto empty:
            swap(man, chief)
procedure put(k, s):
    if count(pieces of player where it is k) < 2:
        create k at s
    else:
        move
procedure swap(k, old):
    move
    if piece is old:
        turn_into(k)
procedure turn_into(k2):
    promote piece to k2
"""
KINDS_WRITTEN_OUT = """\
phase play:
    turn: move
decision move:
    action grow by man:
        step all
        onto empty:
            if count(pieces of player where it is chief) < 2:
                create chief at to
            else:
                move
    action shrink by chief:
        step all
        onto empty:
            move
            if piece is chief:
                promote piece to man
"""


def test_a_kind_given_to_a_procedure_is_that_kind_in_its_block(tmp_path):
    # format.md 3.13: as in a copy written out with it — after `is`, `create`,
    # `promote ... to`, and passed on to another procedure; chiefs are made only
    # by the procedure (so no analysis may take them for a kind never made)
    games = []
    for name, rules in (("given", KINDS), ("written", KINDS_WRITTEN_OUT)):
        (tmp_path / name).mkdir()
        games.append(load_game(write_definition(tmp_path / name, KINDS_YAML, rules)))
    counts = [[api_perft(game, game.initial_state(), depth) for depth in (1, 2, 3, 4)] for game in games]
    assert counts[0] == counts[1] == [3, 9, 62, 414], counts


def test_a_kind_given_to_a_procedure_is_not_a_value_in_it(tmp_path):
    rules = KINDS.replace("    promote piece to k2\n", "    promote piece to k2\n    quiet = k2\n")
    with pytest.raises(DefinitionError) as caught:
        load_game(write_definition(tmp_path, KINDS_YAML.replace("setup:", "variables:\n  quiet: {type: int}\nsetup:"),
                                   rules))
    assert "'man' is a piece kind, not a value" in str(caught.value)


def test_a_local_named_as_a_kind_is_not_given_as_a_kind(tmp_path):
    rules = KINDS.replace("            put(chief, to)\n", "            let chief = 2\n            put(chief, to)\n")
    with pytest.raises(DefinitionError) as caught:
        load_game(write_definition(tmp_path, KINDS_YAML, rules))
    assert "game.rules:8:17: error: 'chief' is both a local and a piece kind" in str(caught.value)


DEFINE_KINDS = """\
define mine(s, k) = s is own and s is k
define crowd(k) = count(pieces of player where mine(it, k))
phase play:
    turn: move
decision move:
    action grow by man:
        step all
        where crowd(chief) < 2 and not mine(to, man)
        onto empty:
            promote piece to chief
    action shrink by chief:
        step all
        where crowd(man) < 2
        onto empty:
            promote piece to man
"""
DEFINE_KINDS_WRITTEN_OUT = """\
phase play:
    turn: move
decision move:
    action grow by man:
        step all
        where count(pieces of player where it is own and it is chief) < 2 \\
            and not (to is own and to is man)
        onto empty:
            promote piece to chief
    action shrink by chief:
        step all
        where count(pieces of player where it is own and it is man) < 2
        onto empty:
            promote piece to man
"""


def test_a_kind_given_to_a_define_is_that_kind_in_its_expression(tmp_path):
    # format.md 3.13: as for procedures, a kind given to a define stands where its
    # parameter names a kind (`s is k`), also passed on to another define; the
    # copies made for the kinds are not "defined but never used"
    games = []
    for name, rules in (("given", DEFINE_KINDS), ("written", DEFINE_KINDS_WRITTEN_OUT)):
        (tmp_path / name).mkdir()
        games.append(load_game(write_definition(tmp_path / name, KINDS_YAML, rules)))
    assert not games[0].warnings
    counts = [[api_perft(game, game.initial_state(), depth) for depth in (1, 2, 3, 4)] for game in games]
    assert counts[0] == counts[1] and counts[0][0] == 3, counts


def test_a_kind_given_to_a_define_is_not_a_value_in_it_said_once(tmp_path):
    rules = DEFINE_KINDS.replace("s is own and s is k", "s is own and s.owner == k")
    with pytest.raises(DefinitionError) as caught:
        load_game(write_definition(tmp_path, KINDS_YAML, rules))
    message = str(caught.value)
    # one mistake, one error (the define is given two kinds): said of the parameter
    assert message.count("error:") == 1, message
    assert "game.rules:1:45: error: 'k' is given a piece kind, not a value" in message
    assert "'k' is given 'chief' here" in message and "'X is k'" in message


def test_a_local_named_as_a_kind_is_not_given_to_a_define_as_a_kind(tmp_path):
    rules = DEFINE_KINDS.replace("        where crowd(man) < 2\n        onto empty:\n",
                                 "        where crowd(man) < 2\n        onto empty:\n            let man = to\n"
                                 "            if mine(to, man):\n                move\n")
    with pytest.raises(DefinitionError) as caught:
        load_game(write_definition(tmp_path, KINDS_YAML, rules))
    assert "'man' is both a local and a piece kind" in str(caught.value)
