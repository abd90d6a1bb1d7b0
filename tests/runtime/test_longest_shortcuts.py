"""What `play the longest turn`'s search keeps and skips (runtime/longest.py:
`SHORTCUTS`) changes no legal action: the listings it keeps for the positions its
candidates reach, the turn's last decision left unsearched, and perft's last ply
counted on the positions the search reached. Hand-checked backgammon positions,
perft counts, and random games compared with the shortcuts off."""
from __future__ import annotations

import contextlib
import random
from typing import Iterator

import pytest

from benchmarks.catalog import GAMES
from interpreter import load_game
from interpreter.runtime import longest
from tests.language.test_longest_turn import BLOCKED, CHAIN_YAML, FOLLOWUPS, RULES, YAML, make

# Backgammon's perft from the start (regelwerk's depth 6 is OpenSpiel's 4: two
# checkers a move), as counted before the shortcuts.
START_PERFT = [30, 200, 758, 15918, 92760, 364400]


@contextlib.contextmanager
def shortcuts_off() -> Iterator[None]:
    saved = longest.SHORTCUTS
    longest.SHORTCUTS = False
    try:
        yield
    finally:
        longest.SHORTCUTS = saved


@pytest.fixture(scope="module")
def backgammon():
    return GAMES["backgammon"].load()


def reference(game, s) -> list:
    """The legal actions of `s` listed from scratch, nothing kept or skipped."""
    engine = game.engine
    decision = engine.decisions[s.decision]
    if decision.is_chance:
        return sorted(decision.codes)
    with shortcuts_off():
        return sorted(decision.legal(engine.copy(s)))


def moving(game, pieces: dict, hi: int, lo: int):
    """x to play the first checker of a move with dice `hi`, `lo`."""
    return game.make_state(pieces, to_move="x", phase="play", decision="move", step=1,
                           variables={"die_hi": hi, "die_lo": lo, "rolled": lo * 10 + hi})


def notations(game, s) -> list[str]:
    return sorted(game.legal_notations(s))


def test_only_the_first_checker_that_leaves_the_other_die_playable(backgammon):
    # x on p2 and p19, o holding p7, p8, p14, p21; a 6 and a 1. No 6 can be played
    # first (p2-p8 lands on o's point, p19 cannot bear off with a checker on p2).
    # p19-p20 leaves the 6 unplayable (p2-p8, p20 bearing off); p2-p3 does not
    # (p3-p9): only p2-p3 begins a move of both dice.
    o_point = ("o", "checker", {"stones": ["o", "o"]})
    s = moving(backgammon, {"p2": ("x", "checker"), "p19": ("x", "checker"),
                            **{p: o_point for p in ("p7", "p8", "p14", "p21")}}, 6, 1)
    assert notations(backgammon, s) == ["p2-p3"]
    assert sorted(backgammon.engine.decisions[s.decision].legal.inner(s)) != sorted(s.legal)
    assert sorted(s.legal) == reference(backgammon, s)
    after = backgammon.apply(s, "p2-p3")
    assert notations(backgammon, after) == ["p3-p9"]
    assert sorted(after.legal) == reference(backgammon, after)


def test_only_the_higher_die_when_one_die_alone_can_be_played(backgammon):
    # x's only checker on p10, o holding p17: p10-p16 and p10-p11 each leave the
    # other die landing on p17. One die only: the higher (the tie-break, pips).
    s = moving(backgammon, {"p10": ("x", "checker"), "p17": ("o", "checker", {"stones": ["o", "o"]})}, 6, 1)
    assert notations(backgammon, s) == ["p10-p16"]
    assert sorted(s.legal) == reference(backgammon, s)
    after = backgammon.apply(s, "p10-p16")
    assert notations(backgammon, after) == ["pass"]


def test_the_second_checker_of_a_move_is_listed_as_its_candidates(backgammon):
    # The turn's last decision: every checker move plays the whole turn; nothing is
    # searched and the listing kept by the first checker's search is reused.
    s = moving(backgammon, {"p1": ("x", "checker"), "p12": ("x", "checker")}, 5, 3)
    engine = backgammon.engine
    kept = engine.decisions[s.decision].legal.search.after
    reached = engine.decisions[s.decision].reached(s)
    assert reached is not None and set(reached) == set(s.legal)
    children = []
    for code in s.legal:
        child = engine.copy(s)
        engine.apply_in_place(child, code)
        assert kept[code][2] is child.legal  # (the search's listing itself)
        children.append((code, child))
    for code, child in children:
        assert sorted(child.legal) == reference(backgammon, child)
        assert len(child.legal) == reached[code]  # (what perft's last ply adds)


def test_perft_from_the_start(backgammon):
    start = backgammon.initial_state()
    assert backgammon.engine.perft(start, 5) == START_PERFT[:5]
    with shortcuts_off():
        assert backgammon.engine.perft(backgammon.initial_state(), 5) == START_PERFT[:5]


def test_random_games_list_the_same_actions_as_with_the_shortcuts_off(backgammon):
    engine = backgammon.engine
    phases = set()
    for seed in range(3):
        rng = random.Random(seed)
        s = backgammon.initial_state()
        plies = 0
        while s.result is None and plies < 2000:
            assert sorted(engine.legal(s)) == reference(backgammon, s), (seed, plies)
            if plies % 25 == 1:
                on = engine.perft(s, 3)
                with shortcuts_off():
                    assert engine.perft(engine.copy(s), 3) == on, (seed, plies)
            phases.add(backgammon.phase(s))
            legal = engine.legal(s)
            child = engine.copy(s)
            engine.apply_in_place(child, legal[int(rng.random() * len(legal))])
            s = child
            plies += 1
    assert {"opening", "play", "doubles"} <= phases


def test_random_playouts_draw_as_with_the_shortcuts_off(backgammon):
    engine = backgammon.engine
    for seed in range(3):
        on = backgammon.initial_state()
        engine.random_playout(on, random.Random(seed), 3000)
        off = backgammon.initial_state()
        with shortcuts_off():
            engine.random_playout(off, random.Random(seed), 3000)
        assert (on.ply, on.board, on.vars, on.result) == (off.ply, off.board, off.vars, off.result)


def lists_and_counts_as_with_the_shortcuts_off(game, seeds: int, plies: int, depth: int) -> None:
    """Along random games (`seeds` of them, up to `plies`): the legal actions as the
    reference lists them, and perft to `depth` as with the shortcuts off."""
    engine = game.engine
    for seed in range(seeds):
        rng = random.Random(seed)
        s = game.initial_state()
        while s.result is None and s.ply < plies:
            assert sorted(engine.legal(s)) == reference(game, s)
            on = engine.perft(s, depth)
            with shortcuts_off():
                assert engine.perft(engine.copy(s), depth) == on
            legal = engine.legal(s)
            child = engine.copy(s)
            engine.apply_in_place(child, legal[int(rng.random() * len(legal))])
            s = child


def test_other_definitions_alike(tmp_path):
    # A race of two dice with passes and a tie-break, and majority capture by
    # follow-ups (no horizon: every way searched).
    (tmp_path / "race").mkdir()
    games = [make(tmp_path / "race", BLOCKED, 2, 1, files=7, longest="play the longest turn, then the lowest pips")]
    (tmp_path / "chain").mkdir()
    (tmp_path / "chain" / "game.yaml").write_text(
        CHAIN_YAML + "  white:\n    man: [a1, a2, c2]\n  black:\n    man: [b1, d1, b2, f1]\n    king: [f2]\n")
    (tmp_path / "chain" / "game.rules").write_text(
        FOLLOWUPS.format(longest="play the longest turn, then the highest kings"))
    games.append(load_game(str(tmp_path / "chain")))
    for game in games:
        lists_and_counts_as_with_the_shortcuts_off(game, seeds=20, plies=60, depth=2)


THREE_DICE = RULES.replace("turn: move, move\n", "turn: move, move, move\n").replace(
    "pips = 0\n", "pips = 0\n        hi = 3\n        mid = 2\n        lo = 1\n").replace(
    "[hi, lo]", "[hi, mid, lo]").replace(
    "            else:\n                lo = 0\n",
    "            elif mid == d:\n                mid = 0\n            else:\n                lo = 0\n")


def test_a_turn_of_three_decisions_alike(tmp_path):
    # The second of three decisions is searched again where perft's last ply counts
    # the positions the first one's search reached (LongestTurn.reached), and the
    # third is the turn's last: every listing and perft as with the shortcuts off.
    setup = "  white:\n    man: [a1, c1]\n  black:\n    man: [b1, e1]\n"
    (tmp_path / "game.yaml").write_text(YAML.replace("  lo:", "  mid: {{default: 2}}\n  lo:").format(
        files=12, hi=3, lo=1, setup=setup))
    (tmp_path / "game.rules").write_text(THREE_DICE.format(longest="play the longest turn"))
    game = load_game(str(tmp_path))
    # (a1 by 3; c1 by 3 or 1: a1 by 2 and c1 by 2 land on a man, a1 by 1 on black's)
    assert sorted(game.legal_notations(game.initial_state())) == ["a1-d1", "c1-d1", "c1-f1"]
    lists_and_counts_as_with_the_shortcuts_off(game, seeds=6, plies=30, depth=3)
