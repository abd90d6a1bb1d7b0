"""perft's last ply counting a child's actions with its lister's counter, the
same function with the list a number (compilation/counted_listing.py,
`DecisionInfo.counted`): which listers have one, each counter against its
listing along random games, perft with and without the counters."""
from __future__ import annotations

import ast
import dataclasses
import random

import pytest

from interpreter import load_game
from interpreter.compilation import pyast
from interpreter.compilation.counted_listing import counting_body
from interpreter.runtime.engine import Engine
from tests.helpers import REPO

CHINESE_CHECKERS = str(REPO / "benchmarks/outsiders/chinese_checkers")
COUNTED = "its legal actions counted, not listed"


def _counters(game) -> list[str]:
    """The names of the generated counters of a compiled game."""
    return sorted(name for name, origin in game.rules.source_map.items() if COUNTED in str(origin))


def _counted_off(engine: Engine) -> Engine:
    """The same rules with no decision's actions counted: every child listed."""
    decisions = tuple(dataclasses.replace(d, counted=None) for d in engine.rules.decisions)
    return Engine(dataclasses.replace(engine.rules, decisions=decisions))


def _positions(engine: Engine, games: int, plies: int, seed: int):
    """Copies of the positions of seeded random games, each settled, up to `plies` each."""
    rng = random.Random(seed)
    for _ in range(games):
        s = engine.initial_state()
        for _ in range(plies):
            if s.result is not None:
                break
            yield s.copy()
            legal = engine.legal(s)
            engine.apply_in_place(s, legal[int(rng.random() * len(legal))])


@pytest.mark.parametrize("path", [CHINESE_CHECKERS, "games/morris", "games/lielow", "docs/examples/checkers",
                                  "benchmarks/games/breakthrough", "docs/examples/kalah"])
def test_each_counter_counts_what_its_lister_lists(path):
    game = load_game(path if path.startswith("/") else str(REPO / path))
    assert _counters(game)
    engine = game.engine
    asked = 0
    for s in _positions(engine, games=3, plies=60, seed=2):
        count = engine.decisions[s.decision].counted
        if count is not None:
            assert count(s) == len(engine.legal(s))
            asked += 1
    assert asked > 50


def test_chinese_checkers_perft_counts_as_openspiel_and_as_with_every_child_listed():
    engine = load_game(CHINESE_CHECKERS).engine
    # (both decisions, the move and the hop that goes on, counted)
    assert [d.counted is not None for d in engine.decisions] == [True, True]
    # (OpenSpiel's chinese_checkers counts, benchmarks/outsiders/chinese_checkers/README.md)
    assert engine.perft(engine.initial_state(), 4) == [14, 196, 4144, 72608]
    listed = _counted_off(engine)
    assert listed.perft(listed.initial_state(), 4) == [14, 196, 4144, 72608]
    # (mid-game, with chains of hops: the second decision's positions too)
    positions = list(_positions(engine, games=2, plies=80, seed=4))
    assert any(s.decision == 1 for s in positions)
    for s in positions[::4]:
        assert engine.perft(s, 2) == listed.perft(s, 2)


def test_no_counter_with_coverage():
    assert not _counters(load_game(CHINESE_CHECKERS, coverage=True))
    assert all(d.counted is None for d in load_game(CHINESE_CHECKERS, coverage=True).engine.decisions)


def _function(text: str) -> ast.FunctionDef:
    tree = ast.parse(text).body[0]
    assert isinstance(tree, ast.FunctionDef)
    return tree


def test_a_counter_adds_one_per_append_and_a_comprehension_its_length():
    lister = _function(
        "def f0(s):\n"
        "    b = s.board\n"
        "    out = [k1[to] for to in k2 if b[to] is None]\n"
        "    for to in k3:\n"
        "        if b[to] is not None:\n"
        "            out.append((1, to, k4[to]))\n"
        "    out += [h_make_code(k5, 0, to, to) for to in k6 if b[to] is None]\n"
        "    if not out:\n"
        "        out.append((2, -1, -1))\n"
        "    return out\n")
    body = counting_body(lister)
    assert body is not None
    assert ast.unparse(ast.fix_missing_locations(pyast.function("f9", ["s"], body))) == (
        "def f9(s):\n"
        "    b = s.board\n"
        "    out = len([1 for to in k2 if b[to] is None])\n"
        "    for to in k3:\n"
        "        if b[to] is not None:\n"
        "            out += 1\n"
        "    out += len([1 for to in k6 if b[to] is None])\n"
        "    if not out:\n"
        "        out += 1\n"
        "    return out")


@pytest.mark.parametrize("use", [
    # (a filter, a dedup: the list goes into a call)
    "h_result_filter(s, out, k9)",
    "if len(out) > 1:\n        h_dedup(out, 0, k9)",
    # (a code made by a helper that may do anything)
    "out.append(h_code_with(to))",
    # (the list read otherwise)
    "x = out[0]",
    "out.extend(k9)",
    "if to in out:\n        out.append((1, to, to))",
])
def test_a_list_used_otherwise_has_no_counter(use):
    lister = _function(
        "def f0(s):\n"
        "    b = s.board\n"
        "    out = []\n"
        "    for to in k3:\n"
        "        if b[to] is None:\n"
        "            out.append((1, to, to))\n"
        f"    {use}\n"
        "    return out\n")
    assert counting_body(lister) is None
