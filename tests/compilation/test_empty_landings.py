"""A drop's loop over the empty sites of a fixed set picks its landings from one
mask (compilation/empty_landings.py, runtime/helpers.codes_at, empty_flags): the
tests after the landing's emptiness worked out by player when compiling, the
empty sites made once a listing. Hand-checked legal lists of a small definition
with drops from pools (everywhere, off a player's far rank, a file without the
player's pawn), the same lists with the pass off, the loops left alone by hand,
and the helpers against loops on random boards."""
from __future__ import annotations

import random

import pytest

from interpreter import load_game
from interpreter.compilation import empty_landings
from interpreter.runtime.helpers import codes_at, empty_flags
from tests.helpers import REPO, helper_calls, write_definition

YAML = """\
game: hands
title: Hands
description: Pieces dropped from hand.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 4, ranks: 4}
regions:
  far:
    per_player:
      white: {ranks: [4]}
      black: {ranks: [1]}
  file_a: {files: [a]}
  file_b: {files: [b]}
  file_c: {files: [c]}
  file_d: {files: [d]}
pools:
  stones: {initial: 1}
  towers: {initial: 1}
  pawns: {initial: 1}
pieces:
  stone: {symbol: S}
  tower: {symbol: T}
  pawn: {symbol: P}
"""
RULES = """\
phase play:
    turn: drop
    if no action:
        draw

decision drop:
    action stone_drop:
        drop stone from stones on sites
        notation "S*{to}"
        onto empty: place
    action tower_drop:
        drop tower from towers on sites
        where to not in far[player]
        notation "T*{to}"
        onto empty: place
    action pawn_drop for each f in [file_a, file_b, file_c, file_d]:
        drop pawn from pawns on f
        where not exists(f, it is own and it is pawn)
        where to not in far[player]
        notation "P*{to}"
        onto empty: place
"""
# (a drop whose `where` reads the board around the landing: its loop stays)
NEIGHBOURED = RULES.replace("""        where to not in far[player]
        notation "T*{to}\"""", """        where exists(neighbours(to), it is stone)
        notation "T*{to}\"""")

PIECES = {"a1": ("white", "pawn"), "b2": ("black", "stone"), "c4": ("white", "tower"), "d3": ("black", "pawn")}
EVERY = {f"{f}{r}" for f in "abcd" for r in "1234"}
EMPTY = EVERY - set(PIECES)


def _game(tmp_path, rules: str = RULES, enabled: bool = True):
    folder = tmp_path / ("on" if enabled else "off")
    folder.mkdir(exist_ok=True)
    saved = empty_landings.ENABLED
    empty_landings.ENABLED = enabled
    try:
        return load_game(write_definition(folder, YAML, rules))
    finally:
        empty_landings.ENABLED = saved


def _listed(game, state) -> list[str]:
    """The legal actions' notations in the order the lister lists them."""
    return [game.engine.notation(code) for code in game.engine.legal(state)]


def _by_kind(notations: list[str]) -> dict[str, set[str]]:
    kinds: dict[str, set[str]] = {"S": set(), "T": set(), "P": set()}
    for notation in notations:
        kinds[notation[0]].add(notation[2:])
    return kinds


def test_each_drop_is_one_call_reading_the_empty_sites_made_once(tmp_path):
    game = _game(tmp_path)
    calls = helper_calls(game, "h_codes_at", ": the legal actions")
    # (the stones, the towers and the four files' pawns)
    assert len(calls) == 6
    memos = {call.args[2].right.body.id for call in calls}
    assert len(memos) == 1
    assert len(helper_calls(game, "h_empty_flags", ": the legal actions")) == 6
    # (no loop is left: the towers' and pawns' landings, kept whole for the listing, per_listing.py, and
    # walked once, are picked by the call that made the list)
    assert "for to in" not in _lister(game)


def _lister(game) -> str:
    return game.rules.source.split("def f0(")[1].split("\ndef ")[0]


def test_a_kept_list_walked_once_without_the_fold(tmp_path, monkeypatch):
    monkeypatch.setattr(empty_landings, "KEPT_FOLDED", False)
    game = _game(tmp_path)
    # (the towers' and pawns' lists made by the calls and walked)
    assert _lister(game).count("for to in l") == 5 and "for to in k" not in _lister(game)
    assert len(helper_calls(game, "h_codes_at", ": the legal actions")) == 6


def test_the_landings_listed_by_hand(tmp_path):
    game = _game(tmp_path)
    pools = {"stones": {"white": 1, "black": 1}, "towers": {"white": 1, "black": 1},
             "pawns": {"white": 1, "black": 1}}
    white = game.make_state(PIECES, to_move="white", pools=pools)
    listed = _listed(game, white)
    kinds = _by_kind(listed)
    # stones on every empty site; towers off white's far rank 4 (a4, b4, d4 empty there);
    # pawns off rank 4 on files b, c, d (file a holds white's pawn; d3's pawn is black's)
    assert kinds["S"] == EMPTY
    assert kinds["T"] == EMPTY - {"a4", "b4", "d4"}
    assert kinds["P"] == {"b1", "b3", "c1", "c2", "c3", "d1", "d2"}
    # (in the order of the actions, each drop's landings by site: a1, b1, c1, d1, a2, ...)
    assert listed[:len(EMPTY)] == [f"S*{site}" for site in sorted(EMPTY, key=lambda x: (x[1], x[0]))]
    black = game.make_state(PIECES, to_move="black", pools=pools)
    kinds = _by_kind(game.legal_notations(black))
    # black's far rank is 1 (b1, c1, d1 empty); no pawn on file d (black's pawn at d3)
    assert kinds["S"] == EMPTY
    assert kinds["T"] == EMPTY - {"b1", "c1", "d1"}
    assert kinds["P"] == {"a2", "a3", "a4", "b3", "b4", "c2", "c3"}
    # (an empty pool: none of its drops)
    no_towers = dict(pools, towers={"white": 0, "black": 1})
    kinds = _by_kind(game.legal_notations(game.make_state(PIECES, to_move="white", pools=no_towers)))
    assert not kinds["T"] and kinds["S"] == EMPTY


def test_a_full_board_lists_no_drop(tmp_path):
    game = _game(tmp_path)
    pieces = {site: ("black", "stone") for site in EVERY}
    state = game.make_state(pieces, to_move="white")
    assert game.legal_notations(state) == []


def test_a_loop_whose_test_reads_the_board_stays(tmp_path):
    game = _game(tmp_path, NEIGHBOURED)
    # (the stones' and the pawns' drops rewritten, the towers' not)
    assert len(helper_calls(game, "h_codes_at", ": the legal actions")) == 5
    pools = {"towers": {"white": 1, "black": 1}}
    kinds = _by_kind(game.legal_notations(game.make_state(PIECES, to_move="white", pools=pools)))
    # the empty sites next to b2's stone (orthogonally)
    assert kinds["T"] == {"a2", "b1", "b3", "c2"}


@pytest.mark.parametrize("rules", [RULES, NEIGHBOURED])
@pytest.mark.parametrize("folded", [True, False])
def test_the_same_games_with_the_pass_off(tmp_path, rules, folded, monkeypatch):
    monkeypatch.setattr(empty_landings, "KEPT_FOLDED", folded)
    on, off = _game(tmp_path, rules), _game(tmp_path, rules, enabled=False)
    assert not helper_calls(off, "h_codes_at")
    for seed in range(30):
        rng = random.Random(seed)
        states = [game.initial_state() for game in (on, off)]
        while not states[0].result:
            listed = [_listed(game, state) for game, state in zip((on, off), states)]
            assert listed[0] == listed[1]
            if not listed[0]:
                break
            choice = rng.choice(listed[0])
            states = [game.apply(state, choice) for game, state in zip((on, off), states)]


def test_shogi_and_crazyhouse_list_alike_with_the_pass_off(tmp_path):
    for path in (REPO / "benchmarks" / "outsiders" / "shogi", REPO / "docs" / "examples" / "chess" / "variants"
                 / "crazyhouse.yaml"):
        saved = empty_landings.ENABLED
        try:
            on = load_game(str(path))
            empty_landings.ENABLED = False
            off = load_game(str(path))
        finally:
            empty_landings.ENABLED = saved
        assert helper_calls(on, "h_codes_at") and not helper_calls(off, "h_codes_at")
        rng = random.Random(3)
        state = on.initial_state()
        drops = 0
        for _ in range(120):
            if state.result:
                break
            listed = _listed(on, state)
            assert listed == _listed(off, state)
            drops += sum("*" in notation or "@" in notation for notation in listed)
            state = on.apply(state, rng.choice(listed))
        assert drops > 0
        assert on.engine.perft(state, 2) == off.engine.perft(state, 2)


@pytest.mark.parametrize("seed", range(40))
def test_the_helpers_pick_what_a_loop_picks(seed):
    rng = random.Random(seed)
    sites = rng.randrange(1, 130)
    board: list = [None] * (sites + 1)
    occ: list[list[int]] = [[], [], []]
    for site in rng.sample(range(sites), rng.randrange(0, sites + 1)):
        owner = rng.randrange(3)
        board[site] = (owner, 0)
        occ[owner].append(site)
    passing = {site for site in range(sites) if rng.random() < 0.6}
    codes = tuple((7, -1, site) for site in range(sites))
    mask = sum(1 << 8 * site for site in passing)
    before = [(1, 2, 3)] * rng.randrange(3)
    out = list(before)
    codes_at(out, codes, mask & empty_flags(bytes([1]) * sites, occ))
    assert out == before + [codes[site] for site in range(sites) if board[site] is None and site in passing]
