"""A loop over every piece asking a kind whose pieces are always neutral walks the
neutral pieces' list alone (compilation/owned_sites.neutral_kind_asked): a
screen's kind mask (clearances.kind_masks) and a recording's failing sites
(result_reuse.failing_finder). The test recognised by hand; Quoridor's walls
with the walk on and off, the same legal actions and counts; none where a rule
can make a player's piece of a neutral kind."""
from __future__ import annotations

import ast
import random
import shutil

from interpreter import load_game
from interpreter.compilation import owned_sites
from interpreter.runtime.pieces import KIND, OWNER
from tests.helpers import REPO

QUORIDOR = REPO / "benchmarks" / "games" / "quoridor"


def _asked(text: str, neutral: frozenset[int] = frozenset({3})) -> bool:
    test = ast.parse(text, mode="eval").body
    return owned_sites.neutral_kind_asked(test, lambda read: ast.unparse(read) == "b[t]", neutral)


def test_a_test_of_a_neutral_kind_alone_or_as_a_conjunct_is_recognised():
    assert _asked(f"(b[t] or k0)[{KIND}] == 3")
    assert _asked(f"b[t][{KIND}] == 3")
    assert _asked(f"x and (b[t] or k0)[{KIND}] == 3")
    # (a kind a player's piece can be of; another slot; another piece; a disjunction; a negation)
    assert not _asked(f"(b[t] or k0)[{KIND}] == 3", frozenset({2}))
    assert not _asked(f"(b[t] or k0)[{OWNER}] == 3")
    assert not _asked(f"(b[u] or k0)[{KIND}] == 3")
    assert not _asked(f"x or (b[t] or k0)[{KIND}] == 3")
    assert not _asked(f"not (b[t] or k0)[{KIND}] == 3")
    assert not _asked(f"(b[t] or k0)[{KIND}] != 3")


def _neutral_walks(game) -> int:
    """The loops of the generated code over the neutral pieces' sites as they stand."""
    return sum(1 for function in game.rules.module.body for node in ast.walk(function)
               if isinstance(node, ast.For) and ast.unparse(node.iter) == "o[-1]")


def test_quoridor_walks_the_walls_alone_and_lists_the_same(tmp_path, monkeypatch):
    on = load_game(str(QUORIDOR))
    # (the two screens' kind masks and the recording's sites where a path's test fails)
    assert _neutral_walks(on) == 3
    copy = tmp_path / "quoridor-off"
    shutil.copytree(QUORIDOR, copy)
    monkeypatch.setattr(owned_sites, "NEUTRAL_KIND_WALKS", False)
    off = load_game(str(copy))
    assert _neutral_walks(off) == 0
    engine, other = on.engine, off.engine
    rng = random.Random(4)
    walls = 0
    for _ in range(4):
        s, t = engine.initial_state(), other.initial_state()
        for _ in range(50):
            if engine.is_over(s):
                break
            legal = list(engine.legal(s))
            assert legal == list(other.legal(t))
            placed = [code for code in legal if code[1] == -1]
            code = rng.choice(placed if placed and rng.random() < 0.7 else legal)
            walls += code[1] == -1
            engine.apply_in_place(s, code)
            other.apply_in_place(t, code)
        if not engine.is_over(s):
            assert engine.perft(s, 2) == other.perft(t, 2)
    assert walls >= 40


def test_no_neutral_walk_where_a_rule_can_change_an_owner(tmp_path):
    copy = tmp_path / "quoridor-owners"
    shutil.copytree(QUORIDOR, copy)
    rules = copy / "quoridor.rules"
    text = rules.read_text()
    assert "        moves += 1\n" in text
    # (never run, but compiled: a player's piece could then be of any kind)
    rules.write_text(text.replace("        moves += 1\n", "        moves += 1\n        if moves < 0:\n"
                                  "            first(pieces of player).owner = opponent\n", 1))
    game = load_game(str(copy))
    assert _neutral_walks(game) == 0
    plain = load_game(str(QUORIDOR))
    assert game.engine.perft(game.initial_state(), 2) == plain.engine.perft(plain.initial_state(), 2)
