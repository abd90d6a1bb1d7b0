"""`forbid result` conjuncts asked before the case is played
(compilation/asked_before.py): a conjunct reading no site the drop writes,
false on the position as it is, allows the drop without playing it — exact on
hand-checked walls where it decides and where it does not, and over random
games of every game with `forbid result`, against the checks with the
mechanism switched off."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.compilation import asked_before
from tests.helpers import REPO, WALL_DROPS, generated, stones_and_rocks, write_definition
from tests.runtime.test_reach_reuse import EXTRA, FILES, _open

# A wall is two rocks side by side, dropped on the western one; it must leave
# white's stone a way to the top rank only where a rock stands north of it.
# `north_rock` reads a site the wall never writes: asked before the wall is
# played. `near_rock` reads the wall's eastern site too: asked after, as before.
RULES = """\
define open = exists(connected(first(pieces of white), orthogonal, it is not rock), it in top)
define north_rock = neighbour(to, n) is rock
define near_rock = exists(d in orthogonal, neighbour(to, d) is rock)
forbid result where CONJUNCT and not open
""" + WALL_DROPS
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _game(tmp_path: Path, conjunct: str, on: bool = True, monkeypatch=None):
    if not on:
        monkeypatch.setattr(asked_before, "ENABLED", False)
    folder = tmp_path / f"{conjunct}-{on}"
    folder.mkdir()
    return load_game(write_definition(folder, stones_and_rocks(extra=EXTRA), RULES.replace("CONJUNCT", conjunct)))


def _position(game, rocks: set[str]):
    board = " ".join(["a1=white.stone"] + [f"{site}=neutral.rock" for site in sorted(rocks)])
    return game.parse_position(f"rw1; game probe; ply 0; phase play; turn white place 0; board {board}")


def _near(site: str, steps: tuple[tuple[int, int], ...]) -> set[str]:
    f, r = FILES.index(site[0]), int(site[1])
    return {f"{FILES[f + df]}{r + dr}" for df, dr in steps if 0 <= f + df < 4 and 1 <= r + dr <= 4}


def _expected(rocks: set[str], conjunct: str) -> list[str]:
    legal = []
    for f in range(3):
        for r in range(1, 5):
            site, east = f"{FILES[f]}{r}", f"{FILES[f + 1]}{r}"
            if {site, east} & (rocks | {"a1"}):
                continue
            steps = ((0, 1),) if conjunct == "north_rock" else ORTHOGONAL
            after = rocks | {site, east}  # (asked of the position the wall leaves)
            if not (_near(site, steps) & after) or _open(after):
                legal.append(site)
    return sorted(legal)


def _plays(game, rocks: set[str], monkeypatch) -> int:
    """How many candidates the checks of a listing of the position of `rocks`
    played (created a rock)."""
    checks = [c for phase in game.engine.rules.result_checks for c in phase if c is not None]
    namespace = checks[0].__globals__
    real = namespace["h_replace_kept"]
    played = []

    def spy(*args):
        played.append(args[2])
        return real(*args)

    monkeypatch.setitem(namespace, "h_replace_kept", spy)
    game.legal_notations(_position(game, rocks))  # (a position read lists its actions)
    monkeypatch.setitem(namespace, "h_replace_kept", real)
    return len(played)


def _asks_before(game) -> bool:
    """Whether a check returns before playing its case other than by the listed
    position's answers (`h_parent_answer`'s entry)."""
    import ast
    for function in generated(game, ast.FunctionDef, "whether 'forbid result'"):
        for stmt in function.body:
            if isinstance(stmt, ast.Try):
                return False
            if isinstance(stmt, ast.If) and any(isinstance(n, ast.Return) for n in ast.walk(stmt)) \
                    and not any(isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
                                and n.value.id.startswith("t") for n in ast.walk(stmt.test)):
                return True
    return False


def test_a_wall_with_no_rock_north_is_allowed_without_being_played(tmp_path, monkeypatch):
    game = _game(tmp_path, "north_rock")
    off = _game(tmp_path, "north_rock", False, monkeypatch)
    assert _asks_before(game) and not _asks_before(off)
    # b1 and a3 stand: a wall on a2 (a2, b2) shuts a1 in under a rock (forbidden);
    # a wall on b3 has no rock north (b4 empty): allowed without playing it, though
    # it writes the way white's stone keeps. Only a2 is played (listings are kept
    # per position: counted first).
    rocks = {"b1", "a3"}
    assert _plays(game, rocks, monkeypatch) == 1 < _plays(off, rocks, monkeypatch)
    legal = sorted(game.legal_notations(_position(game, rocks)))
    assert legal == ["a4", "b2", "b3", "b4", "c1", "c2", "c3", "c4"] == _expected(rocks, "north_rock")
    assert sorted(off.legal_notations(_position(off, rocks))) == legal


def test_a_conjunct_reading_a_site_the_wall_writes_is_asked_after(tmp_path, monkeypatch):
    game = _game(tmp_path, "near_rock")
    assert not _asks_before(game)
    s = _position(game, {"b1", "a3"})
    assert sorted(game.legal_notations(s)) == _expected({"b1", "a3"}, "near_rock")
    assert "a2" not in game.legal_notations(s)


def test_value_after_a_case_is_told_from_its_code():
    import ast

    from interpreter.compilation.result_reuse import value_after
    code = ast.parse("at = to\nt1 = k6[to]\nif t1 != -1:\n    x = 1\n    if t1 == at:\n        at = -1\n").body
    after = value_after(code, "at", ast.Constant(-1), frozenset({"to"}))
    assert after is not None and ast.unparse(after) == "(-1 if k6[to] == to else to) if k6[to] != -1 else to"
    looped = ast.parse("for i in k1:\n    at = i\n").body
    assert value_after(looped, "at", ast.Constant(-1), frozenset({"to"})) is None
    on_board = ast.parse("at = to\nif b[to] is None:\n    at = -1\n").body
    assert value_after(on_board, "at", ast.Constant(-1), frozenset({"to"})) is None


@pytest.mark.parametrize("conjunct", ["north_rock", "near_rock"])
def test_random_walls_agree_with_a_search_of_their_own(tmp_path, monkeypatch, conjunct):
    on = _game(tmp_path, conjunct)
    rng = random.Random(3)
    positions = []
    for _ in range(60):
        rocks = set()
        for site in rng.sample([f"{f}{r}" for f in FILES for r in range(1, 5) if f"{f}{r}" != "a1"], rng.randint(0, 7)):
            rocks.add(site)
        positions.append(rocks)
    for rocks in positions:
        assert sorted(on.legal_notations(_position(on, rocks))) == _expected(rocks, conjunct), rocks


GAMES = [REPO / "benchmarks" / "games" / "quoridor", REPO / "benchmarks" / "games" / "xiangqi",
         REPO / "docs" / "examples" / "chess"]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_the_same_legal_actions_with_the_mechanism_off(tmp_path, monkeypatch, path):
    on = load_game(str(path))
    copy = tmp_path / path.name
    shutil.copytree(path, copy)
    monkeypatch.setattr(asked_before, "ENABLED", False)
    off = load_game(str(copy))
    rng = random.Random(17)
    compared = 0
    for _ in range(3):
        a = on.initial_state()
        b = off.initial_state()
        for _ in range(120):
            if on.is_terminal(a):
                break
            legal = sorted(on.legal_notations(a))
            assert legal == sorted(off.legal_notations(b)), a.ply
            notation = rng.choice(legal)
            a, b = on.apply(a, notation), off.apply(b, notation)
            compared += 1
    assert compared > 100
