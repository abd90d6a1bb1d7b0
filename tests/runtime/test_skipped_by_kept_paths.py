"""A drop's check skipped where every search of its parts keeps a path the
drop misses (compilation/kept_paths.py, runtime/helpers.paths_missed): the
part proved false where its searches find their goal, the paths the
searches of its shape keep asked once a listing. Hand-checked walls, one
skipped and one asked, against a search of the test's own and the mechanism
off; the sized Quoridor of the outsiders with it off, over random games."""
from __future__ import annotations

import ast
import random
import shutil
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.compilation import kept_paths
from interpreter.compilation.kept_paths import false_where_found
from interpreter.runtime.helpers import paths_missed
from tests.helpers import REPO, generated, helper_calls, stones_and_rocks, write_definition
from tests.runtime.test_asked_before import RULES, _expected, _position
from tests.runtime.test_reach_reuse import EXTRA

QUORIDOR = REPO / "benchmarks" / "outsiders" / "quoridor"


def _game(tmp_path: Path, on: bool, monkeypatch, walked: bool = False):
    monkeypatch.setattr(kept_paths, "ENABLED", on)
    if walked:  # (each kept path walked site by site, not asked as a bitmask against the failing sites)
        monkeypatch.setattr(kept_paths, "_failing_empty", lambda *args: None)
    folder = tmp_path / f"walls-{on}-{walked}"
    folder.mkdir()
    # (a wall of two rocks, dropped on its western site; forbidden where a rock stands north of that
    # site and white's stone at a1 can no longer reach the top rank: test_asked_before's)
    return load_game(write_definition(folder, stones_and_rocks(extra=EXTRA), RULES.replace("CONJUNCT", "north_rock")))


def _checked(game, rocks: set[str], monkeypatch) -> tuple[list[str], list[str]]:
    """The legal walls of the position of `rocks` and the walls whose check its listing asked."""
    checks = [c for phase in game.engine.rules.result_checks for c in phase if c is not None]
    namespace, name = checks[0].__globals__, checks[0].__name__
    real, asked = namespace[name], []

    def spy(s, code, memo=None):
        asked.append(game.engine.rules.site_names[code[2]])
        return real(s, code, memo)

    monkeypatch.setitem(namespace, name, spy)
    legal = sorted(game.legal_notations(_position(game, rocks)))
    monkeypatch.setitem(namespace, name, real)
    return legal, asked


@pytest.mark.parametrize("walked", [False, True], ids=["masks", "walked"])
def test_a_wall_missing_a_kept_path_is_not_checked_one_cutting_them_all_is(tmp_path, monkeypatch, walked):
    on = _game(tmp_path, True, monkeypatch, walked)
    off = _game(tmp_path, False, monkeypatch)
    listing = [f for f in generated(on, ast.FunctionDef, "the conjuncts asked before its check")]
    # (a kept path walked site by site, `for ... else`, only where not asked as a bitmask)
    assert any(isinstance(n, ast.For) and n.orelse for f in listing for n in ast.walk(f)) == walked
    assert helper_calls(on, kept_paths.PATHS_MISSED) and not helper_calls(off, kept_paths.PATHS_MISSED)
    # A rock on a3: the wall on a2 (a2, b2) has a rock north; its check finds a way around it
    # (through b1 and the c or d file) and keeps it.
    assert _checked(on, {"a3"}, monkeypatch)[1] == ["a2"] == _checked(off, {"a3"}, monkeypatch)[1]
    # Rocks on a3 and b4: the walls on a2 and on b3 (b3, c3; b4 north) meet the way the listing's
    # answer read; the way kept around a2 and b2 still holds and misses a2's wall: not checked.
    # Every kept way passes b3 or c3: b3's wall is checked — allowed (the d file stays open).
    rocks = {"a3", "b4"}
    legal, asked = _checked(on, rocks, monkeypatch)
    legal_off, asked_off = _checked(off, rocks, monkeypatch)
    assert asked == ["b3"] and asked_off == ["a2", "b3"]
    assert legal == ["a2", "b1", "b2", "b3", "c1", "c2", "c3", "c4"] == legal_off == _expected(rocks, "north_rock")


def test_random_walls_agree_with_a_search_of_their_own_and_skip_checks(tmp_path, monkeypatch):
    on, off = _game(tmp_path, True, monkeypatch), _game(tmp_path, False, monkeypatch)
    rng = random.Random(1)
    sites = [f"{f}{r}" for f in "abcd" for r in range(1, 5) if f"{f}{r}" != "a1"]
    skipped = asked = 0
    for _ in range(200):
        rocks = set(rng.sample(sites, rng.randint(1, 6)))
        legal, checked = _checked(on, rocks, monkeypatch)
        legal_off, checked_off = _checked(off, rocks, monkeypatch)
        assert legal == legal_off == _expected(rocks, "north_rock"), rocks
        assert set(checked) <= set(checked_off)
        skipped += len(checked_off) - len(checked)
        asked += len(checked)
    assert skipped >= 3 and asked >= 20


def test_a_part_is_false_where_its_searches_hold():
    def false(text: str, found: set[str]) -> bool:
        lines = ast.parse(text).body
        assert isinstance(lines[-1], ast.Expr)
        return false_where_found(lines[:-1], lines[-1].value, frozenset(found))

    # `touches and not (a and b)`, a and b searched one after the other (b only where a holds)
    part = ("t = touches(to)\nif t:\n    a = False\n    for x in y:\n        a = True\n    c = a\n"
            "    if c:\n        b = False\n        if not b:\n            b = search()\n        c = b\n"
            "    t = not c\nt")
    assert false(part, {"a", "b"})
    assert not false(part, {"a"})  # (b unknown)
    assert not false("t = a or b\nt", {"a"})  # (`a or b` true: the part holds)
    assert not false("t = not (a and x)\nt", {"a"})  # (x unknown)
    assert false("t = not a\nif x:\n    t = False\nt", {"a"})
    assert not false("t = not a\nif x:\n    t = y\nt", {"a"})
    # (an answer stored by anything but its own search: what it holds is not known)
    assert not false("t = not a\nfor t in z:\n    pass\nt", {"a"})


def test_paths_missed_by_hand():
    # two searches: the first keeps paths on sites {0, 1} and {2, 3}, the second one on {4}
    first, second = [0b0011, 0b1100], [0b10000]
    assert paths_missed(0b0001, first, second)  # (misses {2, 3} and {4})
    assert not paths_missed(0b0101, first, second)  # (meets both of the first's)
    assert not paths_missed(0b10000, first, second)  # (meets the second's only path)
    assert not paths_missed(0, [], second)  # (a search with no path kept)


def test_quoridor_lists_the_same_actions_with_the_mechanism_off(tmp_path, monkeypatch):
    options = {"board_size": 5}
    on = load_game(str(QUORIDOR / "quoridor.yaml"), options=options)
    copy = tmp_path / "quoridor"
    shutil.copytree(QUORIDOR, copy)
    monkeypatch.setattr(kept_paths, "ENABLED", False)
    off = load_game(str(copy / "quoridor.yaml"), options=options)
    assert helper_calls(on, kept_paths.PATHS_MISSED) and not helper_calls(off, kept_paths.PATHS_MISSED)
    engine, other = on.engine, off.engine
    rng = random.Random(5)
    compared = 0
    for _ in range(8):
        s, t = engine.initial_state(), other.initial_state()
        for _ in range(40):
            if engine.is_over(s):
                break
            legal = list(engine.legal(s))
            assert legal == list(other.legal(t))
            compared += len(legal)
            walls = [code for code in legal if code[1] == -1]
            code = rng.choice(walls if walls and rng.random() < 0.8 else legal)
            engine.apply_in_place(s, code)
            other.apply_in_place(t, code)
        if not engine.is_over(s):
            assert engine.perft(s, 2) == other.perft(t, 2)
    assert compared > 1500


def test_searches_of_one_condition_find_its_failing_sites_once_a_listing():
    # Each screen of the sized Quoridor asks two searches (each player's pawn) of one
    # condition (`it is not wall and it not in junctions`): the sites where it fails on
    # the listed board found by one loop over the pieces, read by both searches' paths.
    game = load_game(str(QUORIDOR / "quoridor.yaml"), options={"board_size": 5})
    screens = [f for f in game.rules.module.body if "asked before its check" in str(game.rules.source_map[f.name])
               and any(
                   isinstance(n, ast.Name) and n.id == kept_paths.PATHS_MISSED for n in ast.walk(f))]
    assert len(screens) == 2
    for screen in screens:
        # (the failing sites' loop: a bit cleared where the condition holds, else set)
        failing = [loop for loop in ast.walk(screen) if isinstance(loop, ast.For) and isinstance(loop.iter, ast.Name)
                   and loop.iter.id == "o" and any(isinstance(n, ast.If) and n.orelse for n in ast.walk(loop))]
        masks = [n.id for n in ast.walk(screen) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
                 and any(isinstance(a, ast.Assign) and a.targets[0] is n and isinstance(a.value, ast.BinOp)
                         and isinstance(a.value.op, ast.BitXor) for a in ast.walk(screen))]
        assert len(failing) == 1 and len(set(masks)) == 1
        # (both searches' paths asked against it)
        asked = [n for n in ast.walk(screen) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitAnd)
                 and isinstance(n.right, ast.Name) and n.right.id == masks[0]]
        assert len(asked) == 2
