"""A drop's loop testing a few sites around each landing whose body does more than
append (a `where` asking more, as "a path must stay open") walks only the landings
its tests let through, found from the pieces; a counting loop's screen (`T = not
(M & K[to])`) is asked for all landings at once (compilation/unblocked_drops.
loops_unblocked, runtime/helpers.unblocked_sites, unblocked_bits, screened_landings): the
functions rewritten and left alone by hand, run against the loops on random
boards, and the fresh Quoridor playing and counting the same with each pass off."""
from __future__ import annotations

import ast
import inspect
import random
import shutil

import pytest

from interpreter import load_game
from interpreter.compilation import unblocked_drops
from interpreter.compilation.counted_masks import _by_bytes
from interpreter.compilation.source import Source
from interpreter.runtime.helpers import (
    NAMESPACE,
    counted_over,
    hits,
    screened_landings,
    unblocked_bits,
    unblocked_sites,
)
from tests.helpers import REPO, assert_same_play

SITES = 14
# (a counting lister: a screen worked out once, kept in t5; a check for the landings it
# meets, which gives l0 — a memo the screen reads too — and keeps a list of its own)
COUNTER = """\
def f0(s):
    b = s.board
    o = s.occ
    out = 0
    l0 = -1
    if v[0] < 3:
        frm = -1
        t5 = -1
        for to in LANDINGS:
            tg = b[to]
            if tg is None:
                if b[WEST[to]] is None and b[EAST[to]] is None:
                    t1 = not (t5 if t5 >= 0 else (t5 := h_first(o[2]) + 1 + MEMO)) & BITS[to]
                    if not t1:
                        t2 = []
                        for x in o[2]:
                            if MEMO + x + to & 4:
                                t2.append(x)
                        t1 = len(t2) % 2 == 0
                    if t1:
                        out += 1
    return out
""".replace("MEMO", "(l0 if l0 >= 0 else (l0 := h_first(o[1]) + 1))")
# (the same drop in a lister: its codes appended where the check lets them through)
LISTER = COUNTER.replace("out = 0", "out = []").replace("out += 1", "out.append((3, frm, to))")


def _rewritten(text: str) -> tuple[str, Source]:
    src = Source()
    names = {
        "LANDINGS": src.const((1, 4, 7, 10, 12)).id,
        "WEST": src.const(tuple(site - 1 for site in range(SITES))).id,
        "EAST": src.const(tuple(site + 1 if site + 1 < SITES else -1 for site in range(SITES))).id,
        "BITS": src.const(tuple(1 << (site % 5) for site in range(SITES))).id,
    }
    for placeholder, name in names.items():
        text = text.replace(placeholder, name)
    function = ast.parse(text).body[0]
    assert isinstance(function, ast.FunctionDef)
    done = unblocked_drops.loops_unblocked(function, src.const, src.value, SITES, src.fresh)
    return ast.unparse(ast.fix_missing_locations(done)), src


def _run(text: str, src: Source, board: list, walls: int) -> object:
    """f0 of `text` on a position of `board` (walls in the neutral list, a pawn of player 1)."""
    namespace = dict(src.namespace)
    namespace.update(NAMESPACE)
    namespace["v"] = [walls]
    exec(compile(ast.parse(text), "<test>", "exec"), namespace)  # noqa: S102 - the test's own function
    occ = [[], [site for site, piece in enumerate(board) if piece == (1, 0)],
           [site for site, piece in enumerate(board) if piece == (-1, 1)]]
    position = type("Position", (), {"board": board + [None], "occ": occ})()
    return namespace["f0"](position)


def _boards(seed: int, count: int) -> list[list]:
    rng = random.Random(seed)
    return [[rng.choice([None, None, None, (-1, 1), (1, 0)]) for _ in range(SITES)] for _ in range(count)]


def test_a_counting_loop_walks_the_unblocked_landings_and_counts_the_unscreened_at_once():
    text, src = _rewritten(COUNTER)
    assert "for to in k" not in text and "h_unblocked_bits(o, " in text and "h_screened_landings(" in text
    walk = next(line.strip() for line in text.splitlines() if "h_unblocked_bits" in line)
    blocking = src.namespace[walk.split("h_unblocked_bits(o, ")[1].split(",")[0]]
    # (landing 1 reads sites 0, 1, 2 (bit 0); 4: 3-5 (bit 1); 7: 6-8; 10: 9-11; 12: 11-13 — 11 blocks two)
    assert blocking == (1, 1, 1, 2, 2, 2, 4, 4, 4, 8, 8, 24, 16, 16)
    # (the screen once, where the loop first asked it; the unscreened counted; the check kept for the rest)
    assert "out += t" in text and ".bit_count() - len(t" in text
    assert text.count("t5 if t5 >= 0") == 1 and "t2.append(x)" in text
    original = _original(COUNTER)
    counts = set()
    for board in _boards(1, 300):
        count = _run(text, src, board, 2)
        assert count == _run(*original, board, 2)
        counts.add(count)
    assert len(counts) > 3  # (boards that block and checks that fail)
    # (no drop where the guard is false)
    assert _run(text, src, [None] * SITES, 5) == 0


def _original(text: str) -> tuple[str, Source]:
    """`text` with the constants named as `_rewritten` names them, not rewritten."""
    switched = unblocked_drops.WALKS_ENABLED
    unblocked_drops.WALKS_ENABLED = False
    try:
        return _rewritten(text)
    finally:
        unblocked_drops.WALKS_ENABLED = switched


def test_a_listing_loop_walks_the_unblocked_landings_and_lists_the_same():
    text, src = _rewritten(LISTER)
    assert "for to in h_unblocked_sites(o, " in text and "h_screened_landings" not in text
    original = _original(LISTER)
    assert "h_unblocked_sites" not in original[0]
    seen = set()
    for board in _boards(2, 300):
        listed = _run(text, src, board, 1)
        assert listed == _run(*original, board, 1)
        seen.add(len(listed))  # type: ignore[arg-type]
    assert len(seen) > 3  # (boards that block and checks that fail)


@pytest.mark.parametrize("change", [
    # (the check writes the board, calls a function that may, or calls a helper not known to keep it)
    ("                                t2.append(x)", "                                b[x] = None"),
    ("                        t1 = len(t2) % 2 == 0", "                        t1 = f3(s)"),
    ("                        t1 = len(t2) % 2 == 0", "                        t1 = h_place(b, o, to)"),
    # (a list of the pieces appended to; the landing's piece read past the tests)
    ("                                t2.append(x)", "                                o[2].append(x)"),
    ("                        t1 = len(t2) % 2 == 0", "                        t1 = tg"),
    # (the loop's variables read after it; a test of another kind; the loop in a loop)
    ("    return out", "    v[1] = to\n    return out"),
    ("if b[WEST[to]] is None and b[EAST[to]] is None:", "if b[WEST[to]] is not None:"),
    ("    if v[0] < 3:", "    for q in o[1]:"),
])
def test_a_loop_that_may_change_the_board_or_of_another_shape_is_left_alone(change):
    assert change[0] in COUNTER
    text, _ = _rewritten(COUNTER.replace(*change))
    assert "h_unblocked_sites" not in text and "h_unblocked_bits" not in text


@pytest.mark.parametrize("change", [
    # (the screen reads the landing, a name the check gives a value (not as a memo), the flag)
    ("& BITS[to]", "+ to & BITS[to]"),
    ("t1 = not (t5 if t5 >= 0", "t1 = not (t5 if len(t2) >= 0"),
    # (the memo the screen reads given something else by the check)
    ("                        t2 = []", "                        t2 = []\n                        l0 = 3"),
    # (the count is not one a landing; the check reads the count; the flag read after the loop)
    ("                        out += 1", "                        out += 2"),
    ("                        t1 = len(t2) % 2 == 0", "                        t1 = out % 2 == 0"),
    ("    return out", "    v[1] = t1\n    return out"),
    # (the screen calls a helper whose answer is not its arguments' alone)
    ("(t5 := h_first(o[2]) + 1", "(t5 := len(h_marks(3)) + 1"),
])
def test_a_screen_not_the_same_at_every_landing_is_asked_landing_by_landing(change):
    assert change[0] in COUNTER
    text, _ = _rewritten(COUNTER.replace(*change))
    # (the landings still walked from the pieces)
    assert "h_screened_landings" not in text and "for to in h_unblocked_sites(o, " in text


@pytest.mark.parametrize("seed", range(30))
def test_the_helpers_keep_the_order_and_leave_out_what_the_loop_leaves_out(seed):
    rng = random.Random(seed)
    sites = rng.randrange(4, 120)
    landings = tuple(sorted(rng.sample(range(sites), rng.randrange(1, sites))))
    reads = [{landing} | {rng.randrange(sites) for _ in range(rng.randrange(1, 3))} for landing in landings]
    blocking = [0] * sites
    for index, read in enumerate(reads):
        for site in read:
            blocking[site] |= 1 << index
    taken = set(rng.sample(range(sites), rng.randrange(0, sites // 2 + 1)))
    occ: list[list[int]] = [[], [], []]
    for site in taken:
        occ[rng.randrange(3)].append(site)
    walked = unblocked_sites(occ, blocking, landings)
    assert list(walked) == [landing for landing, read in zip(landings, reads) if not read & taken]
    every = (1 << len(landings)) - 1
    walked_bits = unblocked_bits(occ, blocking, every)
    assert [landing for index, landing in enumerate(landings) if walked_bits >> index & 1] == list(walked)
    # (the landings a mask meets, by their entries read backwards as h_hits reads them)
    entries = {site: rng.getrandbits(6) if rng.random() < 0.5 else 1 << rng.randrange(200) for site in landings}
    inverse = [0] * max(entries.values()).bit_length()
    for index, site in enumerate(landings):
        for bit in range(entries[site].bit_length()):
            if entries[site] >> bit & 1:
                inverse[bit] |= 1 << index
    within = sum(1 << bit for bit, found in enumerate(inverse) if found)
    for mask in (0, rng.getrandbits(8), rng.getrandbits(200), 1 << 150):
        met = hits(tuple(inverse), _by_bytes(inverse), within, mask)
        assert screened_landings(walked_bits, met, landings) == [site for site in walked if mask & entries[site]]


FRESH = REPO / "benchmarks" / "outsiders" / "quoridor_fresh"


def _named(game, name: str) -> int:
    return sum(1 for node in ast.walk(game.rules.module) if isinstance(node, ast.Name) and node.id == name)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("switched", ["WALKS_ENABLED", "SCREENS_COUNTED"])
def test_the_fresh_quoridor_lists_and_counts_the_same_with_the_pass_or_without(players, switched, tmp_path,
                                                                               monkeypatch):
    options = {"board_size": 5, "players": players, "wall_count": 5}
    on = load_game(str(FRESH), options)
    # (both walls' loops walk, in the lister and in perft's counting one; the counting one's screened)
    assert _named(on, "h_unblocked_sites") == 2 and _named(on, "h_unblocked_bits") == 2
    assert _named(on, "h_screened_landings") == 2
    copy = tmp_path / "off"
    shutil.copytree(FRESH, copy)
    monkeypatch.setattr(unblocked_drops, switched, False)
    off = load_game(str(copy), options)
    assert _named(off, "h_screened_landings") == 0 and _named(off, "h_unblocked_bits") == 0
    assert _named(off, "h_unblocked_sites") == (0 if switched == "WALKS_ENABLED" else 4)
    assert_same_play(on.engine, off.engine, seed=7, perft_every=6)


def test_the_fresh_quoridor_at_9_counts_its_64_landings_from_a_constant_mask():
    # (the landings' mask, 2**64 - 1, is past the literals generated code may write)
    game = load_game(str(FRESH), {"board_size": 9})
    assert _named(game, "h_unblocked_bits") == 2
    assert list(game.engine.perft(game.initial_state(), 2)) == [131, 16677]


def test_the_helpers_a_walk_trusts_to_keep_the_board_are_known_to_change_no_position():
    # A loop is walked over its unblocked landings only where its body calls helpers of
    # READ_ONLY_HELPERS: one that wrote the board would make the landings' tests stale.
    # journal.PURE_HELPERS is the compiler's list of helpers that change no position;
    # the two others are functions of numbers and tuples alone (counted_masks.py).
    from interpreter.compilation.journal import PURE_HELPERS

    of_numbers_alone = {"h_hits": hits, "h_counted_over": counted_over}
    assert unblocked_drops.READ_ONLY_HELPERS - {"len"} <= PURE_HELPERS | set(of_numbers_alone)
    for helper in of_numbers_alone.values():
        kinds = {str(p.annotation) for p in inspect.signature(helper).parameters.values()}
        assert kinds <= {"int", "tuple[int, ...]", "tuple[tuple[int, ...], ...]"}, (helper, kinds)
