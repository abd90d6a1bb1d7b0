"""A first conjunct of an `if`/`elif` chain's condition that a later condition
asks again is compiled once, into a local the later conditions read
(compilation/shared_conjuncts.py, statements._chain): recognised by hand, the
generated loops counted, the legal actions and results equal with the pass on
and off (a small game, the outsiders' shogi)."""
from __future__ import annotations

import ast
import random

import pytest

from interpreter import load_game
from interpreter.compilation import shared_conjuncts
from interpreter.parsing import ast as rules_ast
from interpreter.parsing.visit import structure
from tests.helpers import REPO, drop_where, legal_codes_seen, stones_and_rocks, write_definition

SHOGI = REPO / "benchmarks" / "outsiders" / "shogi" / "shogi.yaml"
AT = rules_ast.Pos("t", 1, 1)


def _name(identifier: str, line: int = 1) -> rules_ast.Expr:
    return rules_ast.Name(rules_ast.Pos("t", line, 1), identifier)


def _and(*parts: rules_ast.Expr) -> rules_ast.Expr:
    joined = parts[0]
    for part in parts[1:]:
        joined = rules_ast.And(AT, joined, part)
    return joined


def test_a_first_conjunct_asked_again_later_is_recognised_by_hand():
    a, b, c = _name("a"), _name("b"), _name("c")
    # (written again elsewhere: another position, the same structure)
    again = _name("a", line=7)
    assert shared_conjuncts.shared_first(_and(a, b), [_and(again, c)]) is a
    assert shared_conjuncts.shared_first(_and(a, b), [_name("x"), _and(c, again)]) is a
    assert shared_conjuncts.shared_first(a, [again]) is a
    # (only the first conjunct is sure to have been asked; not under `not`, `or`)
    assert shared_conjuncts.shared_first(_and(b, a), [_and(again, c)]) is None
    assert shared_conjuncts.shared_first(_and(a, b), [rules_ast.Not(AT, again)]) is None
    assert shared_conjuncts.shared_first(_and(a, b), [rules_ast.Or(AT, again, c)]) is None
    assert shared_conjuncts.shared_first(_and(a, b), []) is None


def test_the_later_conditions_read_the_local_where_they_ask_it():
    a, b, c = _name("a"), _name("b"), _name("c")
    shape = structure(a)
    read = shared_conjuncts.reading(_and(c, _name("a", line=3), b), shape, "t1 asked before")
    assert [getattr(part, "id", None) for part in shared_conjuncts.conjuncts(read)] == ["c", "t1 asked before", "b"]
    assert isinstance(read, rules_ast.And) and isinstance(read.left, rules_ast.And)  # (joined from the left)
    untouched = _and(b, c)
    assert shared_conjuncts.reading(untouched, shape, "t1 asked before") is untouched


RULES = """\
define crowded(p) = exists(pieces of p where count(neighbours(it), it is not empty) >= 2)
phase play:
    turn: place
    before each turn:
        if crowded(opponent) and count(pieces of opponent) >= 6:
            lose
        elif crowded(opponent) and count(pieces of player) < 3:
            draw
        elif count(pieces) >= 20:
            draw
    if no action:
        draw
decision place:
    action stone:
        drop stone on sites
        notation "{to}"
        onto empty:
            place
"""


def _small_game(tmp_path, name: str):
    folder = tmp_path / name
    folder.mkdir()
    return load_game(write_definition(folder, stones_and_rocks(files=5, ranks=5), RULES))


def _loops_over_the_opponents_pieces(game) -> int:
    rules = game.rules
    return sum(1 for function in rules.module.body if "before each turn" in str(rules.source_map.get(function.name))
               for node in ast.walk(function) if isinstance(node, ast.For) and ast.unparse(node.iter) == "o[q]")


def test_the_chain_asks_the_shared_conjunct_once_and_plays_the_same(tmp_path, monkeypatch):
    on = _small_game(tmp_path, "on")
    monkeypatch.setattr(shared_conjuncts, "ENABLED", False)
    off = _small_game(tmp_path, "off")
    # (the `exists` over the opponent's pieces: asked once, and again by the `elif`)
    assert _loops_over_the_opponents_pieces(on) == 1
    assert _loops_over_the_opponents_pieces(off) == 2
    assert legal_codes_seen(on, range(40)) == legal_codes_seen(off, range(40))
    # (the games end by each branch of the chain: a loss by the first, draws by the others)
    assert {repr(_random_result(on, seed)) for seed in range(40)} == {repr(_random_result(off, seed))
                                                                      for seed in range(40)}
    assert len({repr(_random_result(on, seed)) for seed in range(40)}) >= 3


def test_the_branches_that_read_the_local_fire_and_keep_their_labels(tmp_path):
    folder = tmp_path / "covered"
    folder.mkdir()
    game = load_game(write_definition(folder, stones_and_rocks(files=5, ranks=5), RULES), coverage=True)
    for seed in range(40):
        _random_result(game, seed)
    assert game.coverage is not None
    fired = {probe.label: count for probe, count in game.coverage.fired() if probe.kind == "branch"}
    assert fired["if crowded(opponent) and count(pieces of opponent) >= 6"] > 0
    assert fired["if crowded(opponent) and count(pieces of player) < 3"] > 0


def _random_result(game, seed: int):
    engine, rng = game.engine, random.Random(seed)
    s = engine.initial_state()
    while s.result is None:
        legal = engine.legal(s)
        engine.apply_in_place(s, legal[int(rng.random() * len(legal))])
    return s.result


@pytest.mark.skipif(not SHOGI.exists(), reason="the outsiders' shogi is not here")
def test_shogi_plays_the_same_with_the_pass_on_and_off(monkeypatch):
    on = load_game(str(SHOGI))
    monkeypatch.setattr(shared_conjuncts, "ENABLED", False)
    off = load_game(str(SHOGI))
    assert on.rules.source != off.rules.source
    assert legal_codes_seen(on, range(3)) == legal_codes_seen(off, range(3))
    engine, other = on.engine, off.engine
    assert engine.perft(engine.initial_state(), 3) == other.perft(other.initial_state(), 3)


def test_along_a_chain_the_later_conjuncts_answer_as_shared_first():
    # (LaterConjuncts: the same answers as shared_first for each branch in turn,
    # the counted shapes kept from one branch to the next or counted again after
    # a restart)
    rng = random.Random(4)
    names = [_name(letter) for letter in "abcde"]
    conds = [_and(*rng.choices(names, k=rng.randint(1, 3))) for _ in range(60)]
    later = shared_conjuncts.LaterConjuncts()
    for i in range(len(conds) - 1):
        if i % 17 == 5:
            later.restart()
        assert later.shared_first(conds[i:]) is shared_conjuncts.shared_first(conds[i], conds[i + 1:]), i


def test_a_long_chain_computes_each_conjuncts_shape_once(monkeypatch, tmp_path):
    # (each branch's first conjunct compared with every later condition's cost
    # the square of the chain: minutes for a few thousand `elif`s)
    shapes = []
    monkeypatch.setattr(shared_conjuncts, "structure", lambda node: shapes.append(node) or structure(node))
    branches = 400
    chain = "place\nif quiet == 0:\n    quiet = 1\n" + "".join(
        f"elif quiet == {i}:\n    quiet = {i + 1}\n" for i in range(1, branches))
    extra = "variables:\n  quiet: {type: int, default: 0}\n"
    load_game(write_definition(tmp_path, stones_and_rocks(extra=extra), drop_where("true", chain)))
    assert branches <= len(shapes) <= 3 * branches
