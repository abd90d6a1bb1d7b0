"""The empty sites kept by the generated code's board writes (`State.empty`,
compilation/board_keys.py) and the playouts' draws that take drops onto any
empty site from them (compilation/draws.py): the list always holds exactly the
board's empty sites, and a draw from it gives exactly the legal actions — the
same as the draw over every candidate (the mechanism off)."""
import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.runtime.helpers import empty_sites
from tests.helpers import REPO, drop_where, helper_calls, stones_and_rocks, write_definition

KEEPING = ["benchmarks/games/go", "benchmarks/games/othello", "docs/examples/connect_four", "docs/examples/hex"]


def _engine(path: str):
    return load_game(str(REPO / path)).engine


@pytest.mark.parametrize("path", KEEPING, ids=lambda p: Path(p).name)
def test_these_games_draw_drops_from_the_empty_sites(path):
    engine = _engine(path)
    assert engine.rules.keeps_empty
    assert any(d.draws_from_empty for d in engine.decisions)


def test_games_without_such_a_draw_keep_no_list():
    engine = _engine("benchmarks/games/lines_of_action")
    assert not engine.rules.keeps_empty
    assert engine.initial_state().empty is None


def test_a_game_that_writes_many_sites_at_once_keeps_no_list():
    # Pentago's rotation writes a whole quadrant: the list would be made again from
    # the board after every marble, which costs more than it saves; its draw
    # goes over the pool it is given.
    engine = _engine("benchmarks/games/pentago")
    assert engine.decisions[0].draws is not None
    assert not engine.rules.keeps_empty and not any(d.draws_from_empty for d in engine.decisions)
    s = engine.initial_state()
    assert s.empty is None
    engine.random_playout(s, random.Random(1), 1000)
    assert engine.is_over(s)


@pytest.mark.parametrize("path", KEEPING, ids=lambda p: Path(p).name)
def test_the_kept_list_is_the_boards_empty_sites_at_every_ply(path):
    engine = _engine(path)
    rng = random.Random(5)
    plies = 0
    for _ in range(6):
        s = engine.initial_state()
        while s.result is None and plies < 1500:
            assert sorted(s.empty) == empty_sites(s.board), f"ply {plies}"
            copy = s.copy()
            engine.random_playout(s, rng, 1)
            plies += 1
            assert sorted(copy.empty) == empty_sites(copy.board)  # (the copy's own list, left as it was)
    assert plies > 100


def test_where_no_rule_empties_a_site_the_list_stays_in_board_order():
    # A site taken is found in the list by bisection (board_keys._EmptySites):
    # the list must be in board order at every ply, its copies too, or the wrong
    # site would leave it. Where a rule empties sites (Go's captures) the list is
    # kept as before: appended to.
    game = load_game(str(REPO / "docs/examples/hex"))
    engine = game.engine
    assert engine.rules.sites_stay_taken and helper_calls(game, "h_bisect")
    rng = random.Random(2)
    plies = 0
    for _ in range(8):
        s = engine.initial_state()
        while s.result is None:
            copy = s.copy()
            engine.random_playout(s, rng, 1)
            plies += 1
            assert s.empty == empty_sites(s.board) and copy.empty == empty_sites(copy.board), f"ply {plies}"
    assert plies > 100
    go = load_game(str(REPO / "benchmarks/games/go"))
    assert not go.engine.rules.sites_stay_taken and not helper_calls(go, "h_bisect")


def _drawn(engine, s, pool_of):
    """The actions a draw gives in `s`, each candidate of its pool drawn first in
    turn (then the first left, and so on)."""
    draw, n = engine.decisions[s.decision].draws
    given = set()
    pool = pool_of(s, n)
    # (None: the empty sites, then the candidates after the board's sites)
    size = len(pool) if pool is not None else len(s.empty) + n - (len(s.board) - 1)
    for first in range(size):
        picks = iter([(first + 0.5) / size])
        code = draw(s, pool_of(s, n), lambda: next(picks, 0.0), False)
        if code is not None:
            given.add(code)
    return given


def _drawing_positions(engine, seed, games, plies):
    """The positions of `games` random games (at most `plies` each) whose decision
    draws from the empty sites, each as it stands before its action is applied."""
    rng = random.Random(seed)
    for _ in range(games):
        s = engine.initial_state()
        while s.result is None and s.ply < plies:
            if engine.decisions[s.decision].draws_from_empty:
                yield s
            engine.apply_in_place(s, engine.pick_random(s, rng))


@pytest.mark.parametrize("path", KEEPING, ids=lambda p: Path(p).name)
def test_a_draw_from_the_empty_sites_gives_what_the_draw_over_every_candidate_gives(path):
    engine = _engine(path)
    compared = 0
    for s in _drawing_positions(engine, 9, games=3, plies=70):
        from_empty = _drawn(engine, s, lambda s, n: None)
        every = _drawn(engine, s, lambda s, n: list(range(n)))  # (the mechanism off)
        assert from_empty == every
        # (where a drawn action still needs checking, the engine checks it; here all are legal)
        assert not engine.rules.candidate_checks and from_empty == set(engine.legal(s))
        compared += 1
    assert compared > 30


@pytest.mark.parametrize("path", KEEPING, ids=lambda p: Path(p).name)
def test_the_first_draw_read_in_place_is_the_fresh_pools(path):
    # Given None, a draw from the empty sites reads its first candidate in place
    # (an empty site, or a candidate after them such as Go's pass) and copies the
    # pool only when it gives no action: the same action, for the same random
    # numbers drawn, as the draw given the fresh pool (the empty sites, then the
    # candidates after the board's sites), at every ply of random games.
    engine = _engine(path)
    compared = 0
    for s in _drawing_positions(engine, 4, games=2, plies=60):
        draw, n = engine.decisions[s.decision].draws
        board_sites = len(s.board) - 1  # (the board's last entry: no site)
        for seed in range(2):
            numbers = random.Random(seed * 1000 + s.ply)
            fixed = [numbers.random() for _ in range(100)]
            used = []

            def rand(used=used, fixed=fixed):
                used.append(1)
                return fixed[len(used) - 1]

            in_place = draw(s, None, rand, False)
            in_place_used = len(used)
            used.clear()
            fresh = draw(s, s.empty + list(range(board_sites, n)), rand, False)
            assert (in_place, in_place_used) == (fresh, len(used)), (path, s.ply)
            compared += 1
    assert compared > 40


def test_a_drop_is_drawn_among_the_empty_sites_only(tmp_path):
    # 4x4, every site but b2, c3 and d4 taken: the draw's pool is those three
    # sites, so the first candidate drawn is one of them (one draw, no occupied
    # site drawn and dropped).
    game = load_game(write_definition(tmp_path, stones_and_rocks(), drop_where("true")))
    engine = game.engine
    free = {"b2", "c3", "d4"}
    pieces = {f"{f}{r}": ("white" if (i + r) % 2 else "black", "stone")
              for i, f in enumerate("abcd") for r in range(1, 5) if f"{f}{r}" not in free}
    s = game.make_state(pieces, to_move="white")
    names = game.model.board.names
    assert sorted(names[site] for site in s.empty) == sorted(free)
    draw, n = engine.decisions[s.decision].draws
    for pick in (0.0, 0.5, 0.99):
        calls = []

        def rand():
            calls.append(1)
            return pick

        code = draw(s, None, rand, False)
        assert names[code[2]] in free and len(calls) == 1
    # given every candidate (the mechanism off), occupied sites are drawn and dropped first
    calls = []
    code = draw(s, list(range(n)), lambda: calls.append(1) or 0.0, False)
    assert names[code[2]] in free and len(calls) > 1


def test_checks_tried_in_place_give_the_empty_sites_back(tmp_path):
    # A `forbid result` on a drop that takes the enemy stones next to it: each
    # candidate is played on the position itself and undone; the list must come
    # back with the board (in any order).
    rules = drop_where("true", "place\nfor each n in neighbours(to):\n    if n is enemy:\n        remove n",
                       ) + "forbid result where count(pieces of opponent) == 0\n"
    game = load_game(write_definition(tmp_path, stones_and_rocks(files=5, ranks=5), rules))
    engine = game.engine
    assert engine.rules.keeps_empty and engine.decisions[0].draws_from_empty
    # playouts draw from the empty sites and check what they draw (Engine._draw)
    checks = engine.rules.candidate_checks[0]
    for seed in range(10):
        s = engine.initial_state()
        played = engine.random_playout(s, random.Random(seed), 1000)
        assert engine.is_over(s) and sorted(s.empty) == empty_sites(s.board)
        trace, rng = engine.initial_state(), random.Random(seed)
        while not engine.is_over(trace) and trace.ply < played:
            drawn = engine._playout_tables[7][trace.decision]
            assert drawn[2] is None  # (the pool: the empty sites)
            code = engine._draw(trace, drawn, rng.random, checks)
            assert code in engine.legal(trace)
            engine.apply_in_place(trace, code)
    rng = random.Random(3)
    for _ in range(20):
        s = engine.initial_state()
        while s.result is None:
            engine.legal(s)
            assert sorted(s.empty) == empty_sites(s.board)
            engine.random_playout(s, rng, 1)
            assert sorted(s.empty) == empty_sites(s.board)


def test_go_draws_neither_the_ko_nor_a_suicide_in_place():
    # Black c2 takes the white stone b2 (a ko): White may not take back at b2 at
    # once, and a1 (between Black's a2 and b1, which keep other liberties) would
    # be suicide. The draw given None (its first candidate read in place, the pool
    # copied after) gives, over every first pick, exactly the legal actions: b2
    # and a1 among none of them, the pass among them.
    game = load_game(str(REPO / "benchmarks/games/go"))
    engine = game.engine
    black = {site: ("black", "stone") for site in ("b3", "a2", "b1")}
    white = {site: ("white", "stone") for site in ("c3", "b2", "d2", "c1")}
    s = game.make_state({**black, **white}, to_move="black")
    s = game.apply(s, game.parse_action(s, "c2"))
    names = game.model.board.names
    assert s.board[names.index("b2")] is None and names[s.vars[0]] == "b2"  # (taken; the ko)
    legal = set(engine.legal(s))
    shown = {engine.notation(code) for code in legal}
    assert "b2" not in shown and "a1" not in shown and "pass" in shown and "e5" in shown
    assert _drawn(engine, s, lambda s, n: None) == legal
