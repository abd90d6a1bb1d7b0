"""The board's key kept by the generated code's writes (compilation/board_keys.py)
and the count of `board repetitions` that reads it (State.count_board): the key
always equals the one made from the whole board, and two boards sharing a key
are still counted apart."""
import ast
import functools
import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.compilation import pyast
from interpreter.compilation.board_keys import keep_board_key, keep_board_state
from interpreter.runtime.helpers import board_key

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks" / "games"


@pytest.mark.parametrize("name", ["go", "lines_of_action"])
def test_the_kept_key_is_the_key_of_the_board_at_every_ply(name):
    game = load_game(str(BENCHMARKS / name))
    engine = game.engine
    rng = random.Random(11)
    plies = 0
    for _ in range(4):
        s = engine.initial_state()
        assert s.board_key == board_key(s.board)
        while s.result is None and plies < 3000:
            engine.random_playout(s, rng, 1)
            plies += 1
            assert s.board_key == board_key(s.board), f"ply {plies}"
    assert plies > 200


def test_checks_tried_in_place_give_the_key_back(tmp_path):
    # A `forbid result` reading `board repetitions`: every candidate is tried on
    # the position itself (a move and a capture) and undone.
    from tests.helpers import write_definition
    from tests.language.test_board_repetitions import YAML
    rules = """\
        phase play:
            turn: move
            before each turn:
                if board repetitions >= 4:
                    draw
        decision move:
            action step by stone:
                step e, w
                onto empty: move
                onto enemy:
                    remove target
                    move
            action pass:
                pass:
                    passes += 1
        forbid result where board repetitions >= 2
    """
    game = load_game(write_definition(tmp_path, YAML, rules))
    engine = game.engine
    rng = random.Random(2)
    for _ in range(20):
        s = engine.initial_state()
        while s.result is None:
            engine.legal(s)
            assert s.board_key == board_key(s.board)
            engine.random_playout(s, rng, 1)
            assert s.board_key == board_key(s.board)


def test_two_boards_under_one_key_are_counted_apart():
    game = load_game(str(BENCHMARKS / "go"))
    engine = game.engine
    s = engine.initial_state()
    engine.random_playout(s, random.Random(0), 3)
    t = s.copy()
    engine.random_playout(t, random.Random(1), 1)
    assert t.board != s.board
    before = t.board_count()
    t.board_key = s.board_key  # (as if the two boards' keys were the same)
    assert t.board_count() == 0
    t.count_board()
    t.count_board()
    assert t.board_count() == 2
    t.board_key = board_key(t.board)
    assert t.board_count() == before
    # the first board under that key keeps its own count
    s_count = s.board_count()
    s.boards, s.board_firsts = t.boards, t.board_firsts
    assert s.board_count() == s_count


def _rewritten(code: str, **kept) -> str:
    function = pyast.function("f0", ["s", "code"], ast.parse(code).body)
    names = iter(f"t{i}" for i in range(100, 200))
    fresh = lambda prefix: next(names)  # noqa: E731
    rewritten = keep_board_state(function, fresh, **kept) if kept else keep_board_key(function, fresh)
    return ast.unparse(ast.fix_missing_locations(rewritten))


def test_a_write_at_a_site_toggles_the_key_around_it():
    # (what stood there read once, before the write; what stands there after it
    # read from the value written where the statement names it)
    text = _rewritten("b[to] = pc\nh_clear(b, o, at)")
    assert ("t100 = b[to]\n    if t100 is not None:\n        s.board_key ^= h_hash((to, t100))\n    b[to] = pc\n"
            "    if pc is not None:\n        s.board_key ^= h_hash((to, pc))\n") in text, text
    # (`h_clear` leaves its site empty: what stood there leaves the key after it, nothing enters)
    assert text.endswith("t101 = b[at]\n    h_clear(b, o, at)\n    if t101 is not None:\n"
                         "        s.board_key ^= h_hash((at, t101))"), text


def test_a_site_emptied_leaves_the_key_and_is_not_asked_again():
    # (an empty site is in no key: after `b[at] = None` nothing enters it)
    text = _rewritten("b[at] = None\nx0 = b[at] = None\nv[0] = 1")
    assert text.count("s.board_key ^=") == 2 and "    t101 = b[at]\n    x0 = b[at] = None\n" in text, text
    assert text.endswith("x0 = b[at] = None\n    if t101 is not None:\n        s.board_key ^= h_hash((at, t101))\n"
                         "    v[0] = 1"), text


def test_a_site_emptied_has_its_upkeep_under_one_test_of_what_stood_there():
    # (the site left empty is known: the key, the empty sites and the groups'
    # records read only what stood there, and change nothing where that was nothing)
    text = _rewritten("h_clear(b, o, at)\nh_clear_kept(b, o, to, j0, j1)", key=True, empty=True, chains="k1")
    for site, was, call in (("at", "t100", "h_clear(b, o, at)"), ("to", "t101", "h_clear_kept(b, o, to, j0, j1)")):
        assert (f"    {was} = b[{site}]\n    {call}\n    if {was} is not None:\n"
                f"        s.board_key ^= h_hash(({site}, {was}))\n        s.empty.append({site})\n"
                f"        h_chains_cleared(s, b, k1, {site})\n") in text + "\n", text
    assert text.count("if ") == 2, text
    stones = _rewritten("h_clear(b, o, at)", key=False, empty=False, chains="k1", liberties=False)
    assert stones.endswith("h_clear(b, o, at)\n    if t100 is not None:\n        h_chains_stones_cleared(s, b, k1, at)")


def test_a_site_worked_out_by_an_expression_is_worked_out_once_in_python_order():
    text = _rewritten("b[j.pop()] = x0")
    assert ("t101 = x0\n    t100 = j.pop()\n    t102 = b[t100]\n    if t102 is not None:\n"
            "        s.board_key ^= h_hash((t100, t102))\n    b[t100] = t101") in text, text


def test_a_piece_of_a_constant_table_written_is_known_to_occupy_its_site():
    # `pc` only ever holds a row of k7, all pieces: after `b[to] = pc` the site is
    # occupied, so the key takes it in and the empty sites lose it without asking;
    # `x` may hold None (k8): asked as before.
    tables = {"k7": ((0, 0, None), (1, 0, None)), "k8": [None, (1, 0, None)]}
    value = lambda node: tables.get(node.id) if isinstance(node, ast.Name) else None  # noqa: E731
    text = _rewritten("pc = k7[p]\nb[to] = pc\nx = k8[p]\nb[at] = x", key=True, empty=True, chains="k1",
                      value=value)
    assert ("    b[to] = pc\n    s.board_key ^= h_hash((to, pc))\n    if t100 is None:\n        s.empty.remove(to)\n"
            "    if pc is not t100:\n        h_chains_wrote(s, b, k1, to, t100)\n") in text, text
    assert ("    b[at] = x\n    if x is not None:\n        s.board_key ^= h_hash((at, x))\n    if t101 is None:\n"
            "        if x is not None:\n            s.empty.remove(at)\n    elif x is None:\n"
            "        s.empty.append(at)\n    if x is not t101:\n") in text, text
    # a name set from the table once and from anything else once more may be None
    assert "if pc is not None" in _rewritten("pc = k7[p]\npc = f(p)\nb[to] = pc", key=True, empty=False,
                                              value=value)


def test_anything_else_that_may_change_the_board_makes_the_key_again():
    for code in ("h_permute(b, o, k0, k1)", "b[x], b[y] = b[y], b[x]", "s.board = x0", "x0 = h_move_one(b, o, a, z)"):
        assert "s.board_key = h_board_key(b)" in _rewritten(code), code
    assert "t100 = h_flip(s)\n    s.board_key = h_board_key(b)\n    return t100" in _rewritten("return h_flip(s)")


def test_a_function_that_writes_nothing_of_the_board_is_left_alone():
    function = pyast.function("f0", ["s"], ast.parse("v[0] = h_group(b, k1, 3)\nx0 = f3(s, code)").body)
    assert keep_board_key(function, lambda prefix: "t0") is function


EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
GAMES = Path(__file__).resolve().parents[2] / "games"


def _regibus_counting_positions(tmp_path: Path) -> Path:
    """Regibus (stacks: a capture stacks the jumped piece under the mover) with a
    rule reading `repetitions`."""
    import shutil
    folder = tmp_path / "regibus"
    shutil.copytree(GAMES / "regibus", folder)
    rules = folder / "regibus.rules"
    text = rules.read_text()
    assert "phase play:\n    turn: move\n" in text
    rules.write_text(text.replace("phase play:\n    turn: move\n",
                                  "phase play:\n    turn: move\n    before each turn:\n"
                                  "        if repetitions >= 3:\n            end game\n"))
    return folder


@functools.lru_cache(maxsize=None)
def _loaded(path: str):
    return load_game(path)


@pytest.mark.parametrize("name", ["chess", "tablut", "regibus"])
def test_repetitions_count_positions_by_the_key_the_writes_keep(name, tmp_path, monkeypatch):
    # Moves, captures, promotions, castling and en passant (attributes), `forbid
    # result` checks tried in place (chess), custodian captures (tablut), drops
    # from pools and stacks (regibus): at every ply the kept key is the key of the board, and the
    # count of each position equals a count of the whole positions themselves.
    from interpreter.compilation import compiler
    # (regibus with `repetitions`, 64 sites and cases of 14 writes, would have its
    # board hashed whole where positions are counted: its writes made to keep the key)
    monkeypatch.setattr(compiler, "keeping_costs_less", lambda functions, sites: True)
    path = {"chess": EXAMPLES / "chess", "tablut": GAMES / "tablut"}.get(name) or _regibus_counting_positions(tmp_path)
    game = _loaded(str(path))
    engine = game.engine
    assert engine.keeps_history and engine.keeps_board_key
    rng = random.Random(5)
    # (the first game starts with the knights out and back, twice: a position thrice)
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2 if name == "chess" else []
    repeated = 0
    for _ in range(3):
        s = engine.initial_state()
        seen = {engine.position_key(s): 1}  # (every position of these games starts a turn)
        while s.result is None and s.ply < 100:
            assert s.board_key == board_key(s.board), f"ply {s.ply}"
            assert engine.repetitions(s) == seen[engine.position_key(s)], f"ply {s.ply}"
            repeated += seen[engine.position_key(s)] > 1
            legal = engine.legal(s)
            if shuffle:
                wanted = shuffle.pop(0)
                code = next(c for c in legal if engine.notation(c) == wanted)
            else:
                code = legal[int(rng.random() * len(legal))]
            s = s.copy()
            engine.apply_in_place(s, code)
            if s.result is None:
                key = engine.position_key(s)
                seen[key] = seen.get(key, 0) + 1
        assert s.board_key == board_key(s.board)
    assert name != "chess" or repeated >= 3


def test_checks_keep_no_key_where_only_repetitions_reads_it():
    # Their writes are undone (or made on a copy): the key they would keep is the
    # one they leave; the cases' own functions keep it.
    game = _loaded(str(EXAMPLES / "chess"))
    checks = {check.__name__ for row in game.rules.result_checks for check in row if check is not None}
    runs = {run.__name__ for row in game.rules.runs for run in row}
    functions = {f.name: f for f in game.rules.module.body if isinstance(f, ast.FunctionDef)}
    keeps = {name for name, f in functions.items()
             if any(isinstance(n, ast.Attribute) and n.attr == "board_key" for n in ast.walk(f))}
    assert checks and runs and not checks & keeps and runs <= keeps


def test_a_write_also_kept_in_a_local_is_a_write_at_one_site():
    # (a promotion: `x0 = b[at] = (x0[0], k41[x1]) + x0[2:]`)
    text = _rewritten("x0 = b[at] = h_new(x0)")
    toggle_at = "if b[at] is not None:\n        s.board_key ^= h_hash((at, b[at]))"
    assert ("t100 = b[at]\n    if t100 is not None:\n        s.board_key ^= h_hash((at, t100))\n"
            f"    x0 = b[at] = h_new(x0)\n    {toggle_at}") in text and "h_board_key" not in text, text
    # (the site read from a local the statement binds first: made again from the board)
    assert "s.board_key = h_board_key(b)" in _rewritten("x0 = b[x0] = v0")


# A sowing round a ring of six houses, twelve seeds: a house of seven seeds or more
# is sown round the ring more than once, its sites written twice in one action
# (and the house sown from emptied, then sown into again).
_SOWING_YAML = """\
game: sowing
title: Sowing
description: Seeds sown round a ring of six houses.
rules: game.rules
players:
  - {name: south, forward: n}
  - {name: north, forward: s}
board:
  grid: {files: 3, ranks: 2}
regions:
  pits:
    per_player:
      south: {ranks: [1]}
      north: {ranks: [2]}
tracks:
  ring: {sites: [a1, b1, c1, c2, b2, a2], loop: true}
pieces:
  house: {symbol: o, owner: neutral}
attributes:
  seeds: {type: int, description: The seeds in a house.}
setup:
  neutral:
    house: {region: {all: true}, seeds: 2}
"""
_SOWING_RULES = """\
    phase play:
        turn: sow
        before each turn:
            if repetitions >= 3:
                end game
        if no action:
            end game
    decision sow:
        action house:
            select pits[player]
            where to.seeds > 0
            notation "{to}"
            onto neutral:
                let n = to.seeds
                to.seeds = 0
                for each s in along(ring, to, n):
                    s.seeds += 1
    score: sum(pits[player], seeds)
"""


def _sowing_games(game, seed: int) -> list[list[int]]:
    """Twenty seeded random games: each position's `repetitions` (checked against a
    count of the whole positions), then the result."""
    engine = game.engine
    rng = random.Random(seed)
    played = []
    lapped = 0
    for _ in range(20):
        s = engine.initial_state()
        seen = {engine.position_key(s): 1}
        counts = []
        while s.result is None:
            counts.append(engine.repetitions(s))
            assert counts[-1] == seen[engine.position_key(s)], f"ply {s.ply}"
            assert not engine.keeps_board_key or s.board_key == board_key(s.board), f"ply {s.ply}"
            legal = engine.legal(s)
            code = legal[int(rng.random() * len(legal))]
            lapped += s.board[code[2]][3] > 6
            s = s.copy()
            engine.apply_in_place(s, code)
            key = engine.position_key(s)
            seen[key] = seen.get(key, 0) + 1
        # (the last position too: the one seen a third time ends the game)
        counts.append(engine.repetitions(s))
        assert counts[-1] == seen[engine.position_key(s)]
        played.append(counts + [s.result[0], *s.result[1]])
    assert lapped and max(max(game[:-3]) for game in played) == 3
    return played


def test_a_small_board_sown_in_a_loop_is_hashed_whole_where_positions_are_counted(tmp_path, monkeypatch):
    # Six sites, a write in a loop and one besides: keeping the key would cost more
    # than hashing the board at each turn, so no write keeps it; positions are
    # counted as exactly either way (sites written twice in one action too).
    from interpreter.compilation import compiler
    from tests.helpers import write_definition
    (tmp_path / "hashed").mkdir()
    hashed = load_game(write_definition(tmp_path / "hashed", _SOWING_YAML, _SOWING_RULES))
    assert hashed.engine.keeps_history and not hashed.engine.keeps_board_key
    assert "board_key" not in ast.unparse(hashed.rules.module)
    monkeypatch.setattr(compiler, "keeping_costs_less", lambda functions, sites: True)
    (tmp_path / "kept").mkdir()
    kept = load_game(write_definition(tmp_path / "kept", _SOWING_YAML, _SOWING_RULES))
    assert kept.engine.keeps_board_key and "s.board_key ^=" in ast.unparse(kept.rules.module)
    assert _sowing_games(hashed, 3) == _sowing_games(kept, 3)


def test_positions_counted_by_the_hashed_board_are_saved_with_their_keys_version(tmp_path):
    # A saved position's `seen` keys tell how they were made: those of a board
    # hashed whole are not those of a kept key (and are left out where the reader
    # makes its keys the other way).
    from interpreter.positions import PositionNote
    from interpreter.runtime.engine import history_keys
    from tests.helpers import write_definition
    game = load_game(write_definition(tmp_path, _SOWING_YAML, _SOWING_RULES))
    engine = game.engine
    rng = random.Random(1)
    s = engine.initial_state()
    while engine.repetitions(s) < 2:
        assert s.result is None
        legal = engine.legal(s)
        s = s.copy()
        engine.apply_in_place(s, legal[int(rng.random() * len(legal))])
    text = game.position_text(s)
    assert f"keys={history_keys(False)} " in text and history_keys(False) != history_keys(True)
    assert engine.repetitions(game.parse_position(text)) == 2
    with pytest.warns(PositionNote, match="keys made otherwise"):
        back = game.parse_position(text.replace(f"keys={history_keys(False)}", f"keys={history_keys(True)}"))
    assert engine.repetitions(back) == 0
