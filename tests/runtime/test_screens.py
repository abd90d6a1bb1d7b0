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
from tests.helpers import REPO, WALL_DROPS, generated, stones_and_rocks, write_definition
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


def test_kind_masks_merge_the_tests_of_a_disjunction():
    from interpreter.compilation.source import Source
    src = Source()
    bits = src.const((1, 2, 4, 8, 0))  # (sites 0..3, then -1)
    west = src.const((-1, 0, 1, 2, -1))
    east = src.const((1, 2, 3, -1, -1))
    nothing = src.const((-1, -1, ()))
    text = (f"if k9[p][to]:\n    if not ({west.id}[to] == -1 or (b[{west.id}[to]] or {nothing.id})[1] == 3 "
            f"or (b[{east.id}[to]] or {nothing.id})[1] == 3 or x):\n        continue\n"
            f"y = (b[to] or {nothing.id})[1] == 3")
    body, found = clearances.kind_masks(ast.parse(text).body, src, bits)
    module = ast.fix_missing_locations(ast.Module(body=found + body, type_ignores=[]))
    # the mask of the sites holding kind 3 found from the pieces' sites; one table
    # of `west` being none, one of the sites tested (west's and east's), the test
    # that is not of a kind kept; an assignment (no truth context) left alone
    assert ast.unparse(module) == (
        f"t0 = 0\nfor t1 in o:\n    for t2 in t1:\n        if (b[t2] or {nothing.id})[1] == 3:\n"
        f"            t0 = t0 | {bits.id}[t2]\n"
        f"if k9[p][to]:\n    if not (k4[to] or t0 & k5[to] or x):\n        continue\n"
        f"y = (b[to] or {nothing.id})[1] == 3")
    assert src.namespace["k4"] == (True, False, False, False, True)
    assert src.namespace["k5"] == (0b10, 0b101, 0b1010, 0b100, 0)
    # a disjunction setting a local (merged out of order, it might not be set): left alone
    walrus = f"if (t9 := {west.id}[to]) == -1 or (b[{east.id}[to]] or {nothing.id})[1] == 3 or b[t9]:\n    continue"
    assert clearances.kind_masks(ast.parse(walrus).body, src, bits)[1] == []
    # a kind the empty site's piece has, or a table of something else: left alone
    same = f"if (b[to] or {nothing.id})[1] == -1:\n    continue"
    assert clearances.kind_masks(ast.parse(same).body, src, bits)[1] == []


SOLID = """\
define open = exists(connected(first(pieces of white), orthogonal, it is not rock), it in top)
define north_solid = neighbour(to, n) == none or neighbour(to, n) is rock or neighbour(neighbour(to, e), n) is rock
forbid result where north_solid and not open
""" + WALL_DROPS


def _solid_expected(rocks: set[str]) -> list[str]:
    from tests.runtime.test_reach_reuse import _open
    legal = []
    for f in range(3):
        for r in range(1, 5):
            site, east = f"{FILES[f]}{r}", f"{FILES[f + 1]}{r}"
            if {site, east} & (rocks | {"a1"}):
                continue
            after = rocks | {site, east}
            solid = r == 4 or f"{FILES[f]}{r + 1}" in rocks or f"{FILES[f + 1]}{r + 1}" in rocks
            if not solid or _open(after):
                legal.append(site)
    return sorted(legal)


def test_a_conjunct_of_none_and_kind_tests_is_read_from_masks(tmp_path, monkeypatch):
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=EXTRA), SOLID))
    (row,) = game.engine.rules.result_checks
    assert row.screens[0] is not None
    screen = next(generated(game, ast.FunctionDef, "the conjuncts asked before its check"))
    assert "o" in {n.id for n in ast.walk(screen) if isinstance(n, ast.Name)}  # (the mask found from the pieces)
    rng = random.Random(11)
    sites = [f"{f}{r}" for f in FILES for r in range(1, 5) if f"{f}{r}" != "a1"]
    for _ in range(120):
        rocks = set(rng.sample(sites, rng.randint(0, 8)))
        assert sorted(game.legal_notations(_position(game, rocks))) == _solid_expected(rocks), rocks
