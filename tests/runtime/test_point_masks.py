"""Point tests noted as bitmasks and the search recorded at once
(runtime/point_masks.py, compilation/result_reuse.py): the listed position's
entry on hand-checked walls (the sites tested, unsettled, what each test gave),
and the same entries, legal actions and perft as with both switched off; a
part with terms (result_terms.py) noted without bitmasks."""
from __future__ import annotations

import random
import shutil
from collections import defaultdict
from pathlib import Path

from interpreter import load_game
from interpreter.compilation import result_reuse
from interpreter.runtime import helpers
from tests.helpers import REPO, helper_calls, stones_and_rocks, write_definition
from tests.runtime.test_clearances import RULES
from tests.runtime.test_reach_reuse import EXTRA, FILES

QUORIDOR = REPO / "benchmarks" / "games" / "quoridor"
CHESS = REPO / "docs" / "examples" / "chess"


def _walls(tmp_path: Path, on: bool, monkeypatch) -> object:
    if not on:
        monkeypatch.setattr(result_reuse, "MASKED_TESTS", False)
        monkeypatch.setattr(result_reuse, "ONE_SEARCH", False)
    folder = tmp_path / f"walls-{on}"
    folder.mkdir()
    game = load_game(write_definition(folder, stones_and_rocks(extra=EXTRA), RULES))
    monkeypatch.undo()
    return game


def _position(game, rocks: str):
    board = " ".join(["a1=white.stone"] + [f"{site}=neutral.rock" for site in rocks.split()])
    return game.parse_position(f"rw1; game probe; ply 0; phase play; turn white place 0; board {board}")


def _entry(game, s):
    """The listed position's entry of the game's one part."""
    checks = game.engine.rules.result_checks[s.phase]
    code = next(c for c in game.engine.decisions[s.decision].candidates(s) if checks[c[0]] is not None)
    memo: defaultdict = defaultdict(helpers._no_answer)
    checks[code[0]](s, code, memo)
    (entry,) = [e for e in memo.values() if e is not None]
    return entry


def _sites(mask: int) -> set[str]:
    return {f"{FILES[i % 4]}{i // 4 + 1}" for i in range(16) if mask >> i & 1}


def _tests(entry) -> dict[int, list[bool]]:
    # (a test asked twice of one site — the kept path and the one kept before it both
    # through it — is noted twice as tuples, once in a bitmask: what each gave compared)
    return {site: sorted(set(held for _, held in entry[3][site])) for site in range(64) if entry[2] >> site & 1}


def test_the_walls_game_notes_its_tests_as_bitmasks(tmp_path, monkeypatch):
    game = _walls(tmp_path, True, monkeypatch)
    assert helper_calls(game, "h_parent_answer_masked", "forbid result")
    # a1 shut in by rocks at a2 and b1: the search reads a1 (the stone) and tests two
    # sites, failing there
    entry = _entry(game, _position(game, "a2 b1"))
    assert entry[0] is True
    assert _sites(entry[1]) == {"a1"} and _sites(entry[2]) == {"a2", "b1"}
    assert _sites(entry[4]) == {"a2", "b1"}  # (a rock there: the test gives otherwise on an empty site)
    a2 = FILES.index("a") + 4
    assert [held for _, held in entry[3][a2]] == [False]
    # a way open: recorded reading the way kept alone (a1 to rank 4), every test held
    entry = _entry(game, _position(game, "b1 b2"))
    way = _sites(entry[1] | entry[2])
    assert entry[0] is False and not entry[4] and "a1" in way and "b1" not in way and "b2" not in way
    assert len(way) < 8 and {"a4", "b4", "c4", "d4"} & way


def test_the_entries_are_those_of_the_tuples(tmp_path, monkeypatch):
    on, off = _walls(tmp_path, True, monkeypatch), _walls(tmp_path, False, monkeypatch)
    assert helper_calls(off, "h_parent_answer", "forbid result")
    assert not helper_calls(off, "h_parent_answer_masked", "forbid result")
    rng = random.Random(5)
    names = [f"{f}{r}" for f in FILES for r in range(1, 5) if f + str(r) != "a1"]
    for _ in range(120):
        rocks = " ".join(rng.sample(names, rng.randrange(0, 8)))
        a, b = _entry(on, _position(on, rocks)), _entry(off, _position(off, rocks))
        assert (a[0], a[1], a[2], a[4]) == (b[0], b[1], b[2], b[4]), rocks
        assert _tests(a) == _tests(b), rocks


def test_quoridor_is_the_same_with_both_off(tmp_path, monkeypatch):
    on = load_game(str(QUORIDOR))
    folder = tmp_path / "quoridor-off"
    shutil.copytree(QUORIDOR, folder)
    monkeypatch.setattr(result_reuse, "MASKED_TESTS", False)
    monkeypatch.setattr(result_reuse, "ONE_SEARCH", False)
    off = load_game(str(folder))
    monkeypatch.undo()
    assert helper_calls(on, "h_parent_answer_masked", "forbid result")
    assert not helper_calls(off, "h_parent_answer_masked", "forbid result")
    a, b, compared = _played_alike(on, off, random.Random(31), plies=80)
    assert compared > 4000
    assert on.engine.perft(a, 2) == off.engine.perft(b, 2)
    assert on.engine.perft(on.initial_state(), 2) == [131, 16677]


def test_a_part_with_terms_notes_bitmasks_too(tmp_path, monkeypatch):
    """Chess's parts have terms (result_terms.py): their settled point tests of
    named sites are noted as bitmasks as well (h_parent_answer_terms_masked);
    with bitmasks off, one by one (h_parent_answer_terms); with terms off, as a
    part without terms (h_parent_answer_masked). All give the same legal
    actions and perft."""
    on = load_game(str(CHESS))
    tuples_folder = tmp_path / "chess-tuples"
    shutil.copytree(CHESS, tuples_folder)
    monkeypatch.setattr(result_reuse, "MASKED_TESTS", False)
    tuples = load_game(str(tuples_folder))
    monkeypatch.undo()
    folder = tmp_path / "chess-terms-off"
    shutil.copytree(CHESS, folder)
    monkeypatch.setattr(result_reuse, "TERMS", False)
    off = load_game(str(folder))
    monkeypatch.undo()
    assert helper_calls(on, "h_parent_answer_terms_masked", "forbid result")
    assert not helper_calls(on, "h_parent_answer_terms", "forbid result")
    assert helper_calls(tuples, "h_parent_answer_terms", "forbid result")
    assert not helper_calls(tuples, "h_parent_answer_terms_masked", "forbid result")
    assert helper_calls(off, "h_parent_answer_masked", "forbid result")
    assert not helper_calls(off, "h_parent_answer_terms_masked", "forbid result")
    a, b, compared = _played_alike(on, off, random.Random(7), plies=60)
    assert compared > 2000
    assert on.engine.perft(a, 2) == off.engine.perft(b, 2)
    a, b, compared = _played_alike(on, tuples, random.Random(8), plies=60)
    assert compared > 2000
    assert on.engine.perft(a, 2) == tuples.engine.perft(b, 2)
    assert off.engine.perft(off.initial_state(), 3) == [20, 400, 8902]


def _played_alike(on, off, rng: random.Random, plies: int, games: int = 3):
    """Random games played on both, the same legal actions at every position:
    (the last positions of each, the number of legal actions compared)."""
    compared = 0
    for _ in range(games):
        a, b = on.initial_state(), off.initial_state()
        for _ in range(plies):
            if on.is_terminal(a):
                break
            legal = sorted(on.legal_notations(a))
            assert legal == sorted(off.legal_notations(b)), a.ply
            notation = rng.choice(legal)
            a, b = on.apply(a, notation), off.apply(b, notation)
            compared += len(legal)
    return a, b, compared
