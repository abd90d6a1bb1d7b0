"""`forbid result` checks tried on the position itself and undone
(compilation/journal.py): every candidate of random positions of every game with
`forbid result` (bundled, examples, their variants, benchmarks) leaves the
position exactly as it was — board, site lists in their order, the neutral
pieces' bitmask, variables, the turn's fields — and gets the verdict of the same
game compiled with every check on a copy."""
from __future__ import annotations

import ast
import random
import re
from functools import lru_cache
from pathlib import Path

import pytest

from interpreter import RuleRuntimeError, load_game
from interpreter.compilation import cases
from interpreter.runtime.helpers import undo_sites
from interpreter.runtime.state import masked
from tests.helpers import REPO, drop_where, helper_calls, stones_and_rocks, write_definition


def _has_forbid_result(definition: Path) -> bool:
    """Whether the rules of a definition say `forbid result` (a variant's: its own
    or those of what it `extends:`, unless it removes a `forbid`)."""
    text = definition.read_text()
    rules = re.search(r"^rules:\s*(\S+)", text, re.M)
    own = (definition.parent / rules.group(1)).read_text() if rules else ""
    if re.search(r"\bresult\s+where\b", own):
        return True
    base = re.search(r"^extends:\s*(\S+)", text, re.M)
    if not base or "remove forbid" in own:
        return False
    extended = definition.parent / base.group(1)
    if not extended.is_file():  # (a bundled game's name)
        extended = REPO / "games" / base.group(1) / f"{base.group(1)}.yaml"
    return _has_forbid_result(extended)


DEFINITIONS = sorted(
    str(path)
    for pattern in ("games/*/*.yaml", "docs/examples/*/*.yaml", "docs/examples/*/variants/*.yaml",
                    "benchmarks/games/*/*.yaml", "games/*/variants/*.yaml")
    for path in REPO.glob(pattern)
    if _has_forbid_result(path)
)


@lru_cache(maxsize=None)
def engines(path: str):
    """The game's engine, and the engine of the same game with every check on a copy."""
    in_place = load_game(path).engine
    saved = cases.in_place
    cases.in_place = lambda *given: None  # type: ignore[assignment]
    try:
        on_copies = load_game(path).engine
    finally:
        cases.in_place = saved
    return in_place, on_copies


def snapshot(s):
    """Everything of a position, the order of its site lists and the bitmask included."""
    return (s._key(), [list(sites) for sites in s.occ], [type(sites) for sites in s.occ], s.occ[-1].mask,
            s.ending, s.last, s.turn_start, s.board_counted, s.legal, s.history_shared, s.boards_shared)


def test_games_with_forbid_result_are_found():
    names = {Path(path).stem for path in DEFINITIONS}
    assert {"chess", "xiangqi", "crazyhouse", "quoridor"} <= names


@pytest.mark.parametrize("path", DEFINITIONS, ids=lambda p: Path(p).stem)
def test_a_check_leaves_the_position_as_it_was(path):
    engine, reference = engines(path)
    assert engine.rules.result_checks, "the rules read `forbid result` but nothing is checked"
    checked = 0
    rng = random.Random(5)
    for _ in range(3):
        s = engine.initial_state()
        r = reference.initial_state()
        for _ in range(40):
            if engine.is_over(s):
                assert reference.is_over(r)
                break
            assert list(engine.legal(s)) == list(reference.legal(r)), (path, s.ply)
            decision = engine.decisions[s.decision]
            if not decision.is_chance and decision.candidates is not None:
                checks = engine.rules.result_checks[s.phase]
                before = snapshot(s)
                for code in decision.candidates(s):
                    check = checks[code[0]]
                    if check is None:  # nothing can forbid this case
                        assert reference.rules.result_checks[r.phase][code[0]] is None, (path, code)
                        continue
                    verdict = check(s, code)
                    assert snapshot(s) == before, (path, s.ply, code)
                    assert verdict == reference.rules.result_checks[r.phase][code[0]](r, code), (path, s.ply, code)
                    checked += 1
            code = engine.pick_random(s, rng)
            engine.apply_in_place(s, code)
            reference.apply_in_place(r, code)
    assert checked > 0


def test_the_chess_like_checks_are_tried_in_place():
    for name in ("docs/examples/chess", "benchmarks/games/xiangqi", "docs/examples/chess/variants/crazyhouse.yaml"):
        game = load_game(str(REPO / name))
        assert helper_calls(game, "h_undo_sites", "forbid result"), name
        assert not helper_calls(game, "h_trial", "forbid result"), name


@pytest.mark.parametrize("cycle, on_a_copy", [
    # a `cycle` of sites worked out while playing moves pieces with a helper the
    # journal does not follow (h_permute)
    ("cycle to, neighbour(to, e)", True),
    # one of fixed sites is written out site by site (compilation/permutations.py)
    ("cycle a1, b1", False),
])
def test_a_cycle_is_tried_on_a_copy_unless_written_out(tmp_path, cycle, on_a_copy):
    rules = drop_where("true", f"place\n{cycle}", before="forbid result where count(pieces of player) > 2\n")
    game = load_game(write_definition(tmp_path, stones_and_rocks(), rules))
    assert bool(helper_calls(game, "h_trial", "forbid result")) == on_a_copy
    assert bool(helper_calls(game, "h_permute")) == on_a_copy
    engine = game.engine
    s = engine.initial_state()
    assert len(engine.legal(s)) == 16
    engine.apply_in_place(s, engine.legal(s)[0])
    engine.apply_in_place(s, engine.legal(s)[0])
    assert len(engine.legal(s)) == 14  # (a third stone of white's is forbidden: none are)
    engine.apply_in_place(s, engine.legal(s)[0])
    engine.apply_in_place(s, engine.legal(s)[0])
    assert engine.is_over(s)


def test_a_rule_failing_inside_a_check_leaves_the_position_as_it_was(tmp_path):
    rules = drop_where("true", "place\nremove to\nn = 1 // n",
                       before="forbid result where n > 5\n")
    yaml = stones_and_rocks(extra="variables:\n  n: {type: int}\n")
    game = load_game(write_definition(tmp_path, yaml, rules))
    engine = game.engine
    assert not helper_calls(game, "h_trial", "forbid result")
    s = engine.blank_state()
    before = snapshot(s)
    with pytest.raises(RuleRuntimeError):
        engine.settle(s)
    s.legal = None
    assert snapshot(s) == before


def test_undoing_site_lists_keeps_their_order_and_bitmask():
    for mask in (None, "known"):
        sites = masked([3, 7, 1])
        sites.mask = None if mask is None else (1 << 3) | (1 << 7) | (1 << 1)
        journal: list = []
        journal.append((sites, 7, sites.index(7)))
        sites.remove(7)
        sites.append(9)
        journal.append((sites, 9))
        undo_sites(journal)
        assert list(sites) == [3, 7, 1] and journal == []
        assert sites.mask == (None if mask is None else (1 << 3) | (1 << 7) | (1 << 1))


def _tried(code: str):
    """The function `f(s, b, o, v, frm, to, at)` running `code` in place (journal.in_place)."""
    import itertools

    from interpreter.compilation import journal, pyast
    from interpreter.runtime.helpers import undo_sites

    counter = itertools.count()
    tried = journal.in_place(ast.parse(code).body, lambda prefix: f"{prefix}{next(counter)}", {"at": "frm"})
    assert tried is not None
    function = pyast.function("f0", ["s", "b", "o", "v", "frm", "to", "at"], tried.statements())
    namespace = {"h_undo_sites": undo_sites}
    exec(compile(ast.fix_missing_locations(pyast.module([function])), "<test>", "exec"), namespace)
    return namespace["f0"]


def test_a_site_written_through_a_changing_local_is_put_back():
    # `at` is `frm` until it changes, in a loop and a branch; `to` stays fixed
    run = _tried(
        "b[at] = 7\n"
        "o[0].remove(at)\n"
        "for x0 in range(2):\n"
        "    b[at] = x0\n"
        "    at = to\n"
        "b[at] = 9\n"
        "o[1].append(at)\n"
        "v[0] += 1\n"
        "v[x1 := 1] = 4\n"
        "if x1:\n"
        "    at = 3\n"
        "b[at] = 5\n"
        "b[to] = x1 = b[at]\n"
        "return b[:], [list(x) for x in o], v[:]\n"
    )
    board, occ, variables = list(range(6)), [[1, 4], [0]], [10, 20]
    seen = run(None, board, occ, variables, 1, 2, 1)
    assert seen == ([0, 0, 5, 5, 4, 5], [[4], [0, 2]], [11, 4])  # (what the code did, before undoing it)
    assert board == list(range(6)) and occ == [[1, 4], [0]] and variables == [10, 20]


def test_what_the_journal_does_not_cover_is_refused():
    from interpreter.compilation import journal

    for code in ("b[at], x2 = 5, 6", "x0 = o[1]\nx0.append(3)", "h_permute(b, o, k0, k1)", "s.board = x0",
                 "b[1:2] = x0", "f3(s)", "o[1] = x0", "x0 = [o[1].pop()]", "x0 = o[1]\nx0 += [3]",
                 "for x0 in o:\n    x0 += [3]", "x0 = s.vars\nx0[0] = 1"):
        assert journal.in_place(ast.parse(code).body, lambda prefix: prefix + "9") is None, code
