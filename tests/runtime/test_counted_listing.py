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
from interpreter.runtime import chains
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


# ---------------------------------------------------------------- played in place
# (compilation/counted_in_place.py: the last ply's cases played on the position
# itself, the child's count asked, the case undone)

PLAYED_IN_PLACE = "played in place"


def _in_place_off(engine: Engine) -> Engine:
    """The same rules with every child of the last ply played on a copy."""
    return Engine(dataclasses.replace(engine.rules, counted_in_place=()))


def _snapshot(s) -> tuple:
    """All a position holds that a case or the engine may change (the site lists
    and the empty sites in their order, the board's key)."""
    return (tuple(s.board), tuple(tuple(sites) for sites in s.occ), tuple(s.vars), s.phase, s.decision, s.step,
            s.player, s.carry, s.ply, s.result, s.ending, s.turn_start, s.last, s.legal,
            None if s.empty is None else tuple(s.empty), s.board_key)


def test_chinese_checkers_cases_are_played_in_place_and_undone():
    game = load_game(CHINESE_CHECKERS)
    engine = game.engine
    # (the step, the hops over own and enemy marbles — those that end a chain of
    # hops clear its trail in a loop under a test —, the pass of a blocked player)
    played = [f for f in engine.rules.counted_in_place[0] if f is not None]
    assert [engine.rules.cases[case].label for case, f in enumerate(engine.rules.counted_in_place[0]) if f] == [
        "action 'step', onto empty", "action 'hop', over own", "action 'hop', over enemy", "action 'blocked'",
        "action 'hop', over own", "action 'hop', over enemy"]
    assert all(PLAYED_IN_PLACE in str(game.rules.source_map[f.__name__]) for f in played)
    assert all(d.counts_in_place for d in engine.decisions)
    copied = _in_place_off(engine)
    assert engine.perft(engine.initial_state(), 4) == copied.perft(copied.initial_state(), 4) \
        == [14, 196, 4144, 72608]
    for s in list(_positions(engine, games=2, plies=80, seed=6))[::5]:
        before = _snapshot(s)
        # (depth 2: the caller's own position is the one its children are played on)
        assert engine.perft(s, 2) == copied.perft(s.copy(), 2)
        assert _snapshot(s) == before
        assert engine.perft(s, 3) == copied.perft(s.copy(), 3)


def test_a_rule_failing_in_place_fails_as_on_a_copy_and_leaves_the_position(tmp_path):
    import shutil

    from interpreter import RuleRuntimeError

    folder = tmp_path / "cc"
    shutil.copytree(CHINESE_CHECKERS, folder)
    rules = folder / "chinese_checkers.rules"
    # (a step of the second turn divides by zero)
    rules.write_text(rules.read_text().replace(
        "onto empty: move", "onto empty:\n            move\n            if 4 // (turns - 1) > 100:\n"
        "                draw", 1))
    game = load_game(str(folder))
    engine = game.engine
    assert engine.rules.counted_in_place[0][0] is not None  # (the step)
    assert engine.perft(engine.initial_state(), 2) == [14, 196]
    with pytest.raises(RuleRuntimeError, match=r"rules:31:16: division by zero \(while applying action 'step'"):
        engine.perft(engine.initial_state(), 3)
    s = engine.initial_state()
    engine.apply_in_place(s, next(code for code in engine.legal(s) if code[0] == 0))  # (a step: the turn ends)
    before = _snapshot(s)
    with pytest.raises(RuleRuntimeError, match="division by zero"):
        engine.perft(s, 2)  # (the steps played on `s` itself)
    assert _snapshot(s) == before


def test_a_count_that_divides_is_asked_in_place_and_fails_as_the_listing(tmp_path):
    import shutil

    from interpreter import RuleRuntimeError

    folder = tmp_path / "cc"
    shutil.copytree(CHINESE_CHECKERS, folder)
    rules = folder / "chinese_checkers.rules"
    # (the steps' count divides: by zero on the third turn — a division is
    # worked out of its operands alone, so the count still reads the position only)
    rules.write_text(rules.read_text().replace(
        "        step hex\n", "        step hex\n        where 4 // (turns - 2) < 100\n", 1))
    game = load_game(str(folder))
    engine = game.engine
    assert all(d.counts_in_place for d in engine.decisions)
    assert engine.rules.counted_in_place[0][0] is not None
    s = engine.initial_state()
    engine.apply_in_place(s, next(code for code in engine.legal(s) if code[0] == 0))
    before = _snapshot(s)
    with pytest.raises(RuleRuntimeError, match=r"rules:29:15: division by zero \(while listing the actions of .move."):
        engine.perft(s, 2)
    assert _snapshot(s) == before


# (placements whose case keeps the empty sites (gomoku, hex), the groups' records
# (hex, Y, Havannah) or a search's last answer in a constant (Havannah's ring):
# played in place from the case as it was before the board's writes kept them,
# keeping only what the case reads)
PLACEMENTS = ["benchmarks/outsiders/gomoku", "docs/examples/hex", "benchmarks/outsiders/y",
              "benchmarks/outsiders/havannah",
              # (links and a chain's flags set in loops under tests)
              "benchmarks/outsiders/twixt"]


def _check_group_records(s, adjacent) -> None:
    """Every group the records of `s` know is the group a search finds."""
    records, n = s.chains, len(s.board)
    known = [site for site, head in enumerate(records[:n - 1]) if head >= 0]
    assert known
    for site in known:
        assert records[n + records[site]] == chains.searched(s.board, adjacent, site), f"site {site}"


def _seen_by_the_count(s) -> tuple:
    """What a child's count may read of it (the board's key and the empty sites
    it does not: a case played in place need not keep them)."""
    return (tuple(s.board), tuple(tuple(sites) for sites in s.occ), tuple(s.vars), s.phase, s.decision, s.step,
            s.player, s.carry, s.result, s.ending, s.turn_start)


def _check_played_in_place(engine: Engine, s, code) -> None:
    """The case of `code` played on `s` in place shows its count the child a copy
    gets, and leaves `s` as it was."""
    play = engine.rules.counted_in_place[s.phase][code[0]]
    child = s.copy()
    engine.apply_in_place(child, code, False)
    seen = []
    before = _snapshot(s)
    assert play(s, code, lambda position: seen.append(_seen_by_the_count(position)) or 7) == 7
    assert seen == [_seen_by_the_count(child)]
    assert _snapshot(s) == before


@pytest.mark.parametrize("path", PLACEMENTS)
def test_placements_are_played_in_place_and_leave_the_empty_sites_and_groups(path):
    game = load_game(str(REPO / path))
    engine = game.engine
    assert engine.rules.counted_in_place[0][0] is not None
    copied = _in_place_off(engine)
    adjacent = tuple(tuple(a) for a in game.model.board.adjacent) + ((),)
    for plies, s in enumerate(list(_positions(engine, games=2, plies=40, seed=3))[::7]):
        if engine.rules.keeps_chains and s.board.count(None) < len(s.board):
            # (the records of every group made, as a playout has them: the case's
            # writes and their undo keep them)
            s.chains = chains.records(len(s.board))
            for site, piece in enumerate(s.board[:-1]):
                if piece is not None:
                    chains.liberties(s, s.board, adjacent, site)
        for code in engine.legal(s)[::5]:
            _check_played_in_place(engine, s, code)
        before = _snapshot(s)
        # (depth 2: the caller's own position is the one its children are played on)
        assert engine.perft(s, 2) == copied.perft(s.copy(), 2)
        assert _snapshot(s) == before
        if s.chains is not None:
            _check_group_records(s, adjacent)
        if plies % 2:
            assert engine.perft(s, 3) == copied.perft(s.copy(), 3)


def _tic_tac_toe():
    return load_game(str(REPO / "benchmarks/outsiders/mnk"), {"m": 3, "n": 3, "k": 3})


def test_a_child_that_ends_the_game_is_counted_in_place_and_not_played_again(monkeypatch):
    game = _tic_tac_toe()
    engine = game.engine
    assert engine.rules.counted_in_place[0][0] is not None
    s = game.initial_state()
    for notation in ("@a1", "@a2", "@b1", "@b2"):
        s = game.apply(s, notation)
    # (cross to move: c1 wins, its child has no action; after each of the four
    # other stones nought has four)
    played = []
    apply = engine.apply_in_place
    monkeypatch.setattr(engine, "apply_in_place", lambda *args: played.append(args) or apply(*args))
    assert engine.perft(s, 2) == [5, 16]
    assert played == []


def test_games_ending_mid_listing_count_in_place_as_on_copies():
    engine = load_game(str(REPO / "benchmarks/outsiders/mnk"), {"m": 4, "n": 4, "k": 3}).engine
    copied = _in_place_off(engine)
    # (tic-tac-toe's own counts, games won from ply 5 on)
    ttt = _tic_tac_toe().engine
    assert ttt.perft(ttt.initial_state(), 7) == [9, 72, 504, 3024, 15120, 54720, 148176]
    for s in list(_positions(engine, games=4, plies=12, seed=5))[::3]:
        for code in engine.legal(s):
            _check_played_in_place(engine, s, code)
        before = _snapshot(s)
        assert engine.perft(s, 3) == copied.perft(s.copy(), 3)
        assert engine.perft(s, 2) == copied.perft(s.copy(), 2)
        assert _snapshot(s) == before


@pytest.mark.parametrize("path", [
    # (the groups kept: captures write in a loop)
    "benchmarks/games/go",
    # (sowing: writes in a loop; a decision whose listing `forbid result` filters: no count)
    "docs/examples/kalah", "docs/examples/chess",
    # (a chance event: no count)
    "games/royalfiz"])
def test_cases_not_worth_playing_in_place_are_not(path):
    game = load_game(str(REPO / path))
    assert not any(f is not None for row in game.engine.rules.counted_in_place for f in row)


def test_a_deal_drawn_from_the_pieces_left_is_played_in_place_and_undone():
    # (a chance event `outcomes one of pieces where it is neutral`: its counter, the
    # number of neutral pieces, only reads; the cards a player may play are gathered
    # into a list of the counter's own, and the partner found by `player_after`)
    game = load_game(str(REPO / "benchmarks/outsiders/spades"))
    engine = game.engine
    assert [(d.name, d.counts_in_place) for d in engine.decisions] == [("bid", True), ("play", True),
                                                                          ("deal", True)]
    deal = next(case for case, info in enumerate(engine.rules.cases) if info.decision == 2)
    assert engine.rules.counted_in_place[0][deal] is not None
    copied = _in_place_off(engine)
    assert engine.perft(engine.initial_state(), 3) == copied.perft(copied.initial_state(), 3) \
        == [52, 52 * 51, 52 * 51 * 50]
    for s in list(_positions(engine, games=2, plies=120, seed=8))[::9]:
        for code in engine.legal(s)[::3]:
            _check_played_in_place(engine, s, code)
        before = _snapshot(s)
        assert engine.perft(s, 2) == copied.perft(s.copy(), 2)
        assert _snapshot(s) == before
        assert engine.perft(s, 3) == copied.perft(s.copy(), 3)
