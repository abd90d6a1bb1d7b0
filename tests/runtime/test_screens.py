"""Screens (compilation/clearances.py `screen_body`, runtime/clearances.sift): a
drop whose check asks conjuncts before its case (asked_before.py) and has a
clearance gets a loop over a listing's candidates that asks those conjuncts of
the candidates the clearance does not let through and calls the check only
where they hold — the same legal actions as the checks called one by one
(hand-checked walls, random positions, Quoridor's random games and perft with
the screens switched off), fewer calls."""
from __future__ import annotations

import ast
import random
import shutil
from pathlib import Path

from interpreter import load_game
from interpreter.compilation import clearances
from interpreter.runtime.clearances import ClearedChecks
from tests.helpers import REPO, generated, stones_and_rocks, write_definition
from tests.runtime.test_asked_before import RULES, _expected, _position
from tests.runtime.test_reach_reuse import EXTRA, FILES


def _game(tmp_path: Path, conjunct: str, screens: bool, monkeypatch):
    monkeypatch.setattr(clearances, "SCREENS", screens)
    folder = tmp_path / f"{conjunct}-{screens}"
    folder.mkdir()
    game = load_game(write_definition(folder, stones_and_rocks(extra=EXTRA), RULES.replace("CONJUNCT", conjunct)))
    monkeypatch.setattr(clearances, "SCREENS", True)
    return game


def _calls(game, rocks: set[str], monkeypatch) -> tuple[list[str], int]:
    """The legal walls of the position of `rocks` and how many times its listing
    called the wall's check."""
    (row,) = game.engine.rules.result_checks
    assert type(row) is ClearedChecks
    namespace = row[0].__globals__
    name = row[0].__name__
    real = namespace[name]
    called = []

    def spy(*args):
        called.append(args[1])
        return real(*args)

    # (the check called by its name from a screen, from its row by `sift`)
    table = next(k for k, v in namespace.items() if type(v) is tuple and row in v)
    spied = ClearedChecks([spy], row.clearances, row.screens)
    monkeypatch.setitem(namespace, name, spy)
    monkeypatch.setitem(namespace, table, tuple(spied if r is row else r for r in namespace[table]))
    legal = sorted(game.legal_notations(_position(game, rocks)))
    monkeypatch.setitem(namespace, name, real)
    monkeypatch.setitem(namespace, table, tuple(row if r is spied else r for r in namespace[table]))
    return legal, len(called)


def test_a_screen_calls_the_check_only_where_the_early_conjunct_holds(tmp_path, monkeypatch):
    on = _game(tmp_path, "north_rock", True, monkeypatch)
    off = _game(tmp_path, "north_rock", False, monkeypatch)
    (row,) = on.engine.rules.result_checks
    assert row.screens[0] is not None and off.engine.rules.result_checks[0].screens == (None,)
    assert list(generated(on, ast.For, "the conjuncts asked before its check"))
    # no rock north of any wall that writes white's way: nothing called
    rocks = {"c1"}
    legal, calls = _calls(on, rocks, monkeypatch)
    legal_off, calls_off = _calls(off, rocks, monkeypatch)
    assert legal == legal_off == _expected(rocks, "north_rock")
    assert calls == 0 < calls_off
    # b1 and b2 leave white one way, a1 a2 a3 b3 b4: the wall on a3 (a3, b3)
    # writes it under the rock on a4, the one called (and forbidden: a1 shut in)
    rocks = {"b1", "b2", "a4"}
    legal, calls = _calls(on, rocks, monkeypatch)
    legal_off, calls_off = _calls(off, rocks, monkeypatch)
    assert legal == legal_off == _expected(rocks, "north_rock") and "a3" not in legal
    assert calls == 1 < calls_off


def test_random_walls_are_the_same_with_a_screen(tmp_path, monkeypatch):
    on = _game(tmp_path, "north_rock", True, monkeypatch)
    rng = random.Random(5)
    sites = [f"{f}{r}" for f in FILES for r in range(1, 5) if f"{f}{r}" != "a1"]
    for _ in range(80):
        rocks = set(rng.sample(sites, rng.randint(0, 7)))
        assert sorted(on.legal_notations(_position(on, rocks))) == _expected(rocks, "north_rock"), rocks


def test_continuing_turns_the_early_return_into_continue():
    def changed(text: str):
        body = clearances.continuing(ast.parse(text).body)
        return None if body is None else ast.unparse(ast.fix_missing_locations(ast.Module(body=body, type_ignores=[])))

    assert changed("if k1[p][to]:\n    if not b[to]:\n        return False") == \
        "if k1[p][to]:\n    if not b[to]:\n        continue"
    # a loop of its own keeps its break; a return inside it, or one returning
    # anything else, or a break outside any loop of its own: no screen
    assert changed("for i in k2:\n    if b[i]:\n        break\nif not x:\n    return False") == \
        "for i in k2:\n    if b[i]:\n        break\nif not x:\n    continue"
    assert changed("for i in k2:\n    return False") is None
    assert changed("if x:\n    return True") is None
    assert changed("if x:\n    break") is None
    assert changed("try:\n    x = 1\nfinally:\n    y = 2") is None


QUORIDOR = REPO / "benchmarks" / "games" / "quoridor"


def test_quoridor_is_the_same_with_the_screens_off(tmp_path, monkeypatch):
    on = load_game(str(QUORIDOR))
    assert any(type(row) is ClearedChecks and any(row.screens) for row in on.rules.result_checks)
    copy = tmp_path / "quoridor-off"
    shutil.copytree(QUORIDOR, copy)
    monkeypatch.setattr(clearances, "SCREENS", False)
    off = load_game(str(copy))
    assert not any(type(row) is ClearedChecks and any(row.screens) for row in off.rules.result_checks)
    rng = random.Random(29)
    a, b = on.initial_state(), off.initial_state()
    compared = 0
    for _ in range(2):
        a, b = on.initial_state(), off.initial_state()
        for _ in range(80):
            if on.is_terminal(a):
                break
            legal = sorted(on.legal_notations(a))
            assert legal == sorted(off.legal_notations(b)), a.ply
            notation = rng.choice(legal)
            a, b = on.apply(a, notation), off.apply(b, notation)
            compared += len(legal)
    assert compared > 2000
    engine, other = on.engine, off.engine
    s, t = engine.initial_state(), other.initial_state()
    for _ in range(20):
        code = rng.choice(list(engine.legal(s)))
        engine.apply_in_place(s, code)
        other.apply_in_place(t, code)
        if engine.is_over(s):
            break
    assert engine.perft(s, 2) == other.perft(t, 2)
