"""A lister's copies of one action for each site of a fixed set, whose guards ask
first for a piece of the player on their site, are listed by one loop over the
player's sites (compilation/rolled_copies.py): the same actions, in the same order."""
import ast
import random
import re
import textwrap

import pytest

from interpreter import load_game
from interpreter.compilation import decisions
from interpreter.compilation.rolled_copies import MIN_COPIES, copies_rolled
from interpreter.compilation.source import Source
from tests.helpers import REPO, generated, legal_codes_seen

CRIBBAGE = str(REPO / "benchmarks" / "outsiders" / "cribbage")
EMPTY = (-1, -1, 0, 0)  # (owner, kind, two attributes: the empty piece)
SITES = (1, 3, 4, 6, 7, 9, 10, 12, 13, 15)


def _copies(sites=SITES, guard="({e}[{s}] or {k})[0] == p and ({e}[{s}] or {k})[1] == 0", body="", between=""):
    """The body of a lister with a guard and an `if` per site: each copy lists the
    player's pieces of a lower value than its own, as case 20 + its number."""
    src = Source()
    empty = src.const(EMPTY).id
    guards = "\n".join(f"l{100 + n} = " + guard.format(e="b", s=s, k=empty) for n, s in enumerate(sites))
    ifs = "\n".join(textwrap.dedent(f"""\
        if l{100 + n}:
            for to in o[p]:
                if b[to][3] < (b[{s}] or {empty})[3] + {n % 2}:
                    out.append(({20 + n}, to, {s}))
                    {body or 'pass'}
        """) for n, s in enumerate(sites))
    return src, ast.parse(guards + "\n" + between + "\n" + ifs).body


def _listed(stmts, src, board, occ, player):
    code = ast.unparse(ast.fix_missing_locations(ast.Module(body=[*stmts], type_ignores=[])))
    space = dict(src.namespace, b=board, o=occ, p=player, out=[])
    exec(compile(code, "<test>", "exec"), space)  # (test only: the listers' text compared by what it lists)
    return space["out"]


def _random_position(rng, n_sites=16):
    board, occ = [None] * n_sites, [[], []]
    for site in rng.sample(range(n_sites), rng.randrange(n_sites)):
        owner = rng.randrange(2)
        board[site] = (owner, rng.randrange(2), rng.randrange(5), rng.randrange(5))
        occ[owner].append(site)
    return board, occ


def test_the_copies_become_one_loop_over_the_players_sites_listing_the_same():
    src, body = _copies()
    rolled = copies_rolled(src, body, 16)
    text = ast.unparse(ast.fix_missing_locations(ast.Module(body=rolled, type_ignores=[])))
    head = re.match(r"for l0 in sorted\(o\[p\]\):\n    l1 = (k\d+)\[l0\]\n    if l1 >= 0 and ", text)
    assert len(rolled) == 1 and head
    assert src.namespace[head.group(1)] == tuple(SITES.index(s) if s in SITES else -1 for s in range(16))
    rng = random.Random(5)
    listed = 0
    for _ in range(300):
        board, occ = _random_position(rng)
        player = rng.randrange(2)
        expected = _listed(body, src, board, occ, player)
        assert _listed(rolled, src, board, occ, player) == expected
        listed += len(expected)
    assert listed > 300


def test_every_site_of_the_board_in_order_is_its_own_copy_number():
    src, body = _copies(sites=tuple(range(12)))
    text = ast.unparse(ast.fix_missing_locations(ast.Module(body=copies_rolled(src, body, 12), type_ignores=[])))
    assert text.startswith("for l0 in sorted(o[p]):\n    if (b[l0] or k0)[0] == p")
    assert re.search(r"out\.append\(\((k\d+)\[l0\], to, l0\)\)", text)
    assert re.search(r"b\[to\]\[3\] < \(b\[l0\] or k0\)\[3\] \+ (k\d+)\[l0\]", text)


@pytest.mark.parametrize("change", [
    dict(sites=SITES[:MIN_COPIES - 1]),  # (too few)
    dict(sites=(1, 3, 4, 6, 15, 7, 9, 10, 12, 13)),  # (the copies' order is not the sites')
    dict(guard="({e}[{s}] or {k})[1] == 0 and ({e}[{s}] or {k})[0] == p"),  # (the owner not asked first)
    dict(guard="({e}[{s}] or {k})[0] == p and 6 // ({e}[{s}] or {k})[2] > 1"),  # (may fail)
    dict(guard="({e}[{s}] or {k})[0] == p and f3(s, {s})"),  # (a call)
    dict(guard="({e}[{s}] or {k})[0] == p and ({e}[{s}] or {k})[9] == 0"),  # (past the pieces' end)
    dict(guard="({e}[{s}] or {k})[0] == p and n > 0", body="n = 0"),  # (a body writes what a guard reads)
    dict(guard="({e}[{s}] or {k})[0] == p and v[2] > 0", body="v[2] = 0"),  # (a body writes the position)
    dict(guard="({e}[{s}] or {k})[0] == p and n > 0", between="n = 1"),  # (written before the ifs)
    dict(between="t = l103"),  # (a guard's local read elsewhere)
])
def test_copies_stay_as_they_are_where_one_loop_may_differ(change):
    src, body = _copies(**change)
    assert copies_rolled(src, body, 16) == body


def test_cribbage_lists_as_with_the_copies(monkeypatch):
    game = load_game(CRIBBAGE)
    guards = [node for node in generated(game, ast.Assign, "decision 'discard': the legal actions")
              if isinstance(node.value, ast.BoolOp)]
    assert not guards
    assert any(isinstance(loop.iter, ast.Call) and ast.unparse(loop.iter) == "sorted(o[p])"
               for loop in generated(game, ast.For, "decision 'discard': the legal actions"))
    seen = legal_codes_seen(game, range(3))
    monkeypatch.setattr(decisions, "copies_rolled", lambda src, body, n_sites: body)
    plain = load_game(CRIBBAGE)
    assert len([node for node in generated(plain, ast.Assign, "decision 'discard': the legal actions")
                if isinstance(node.value, ast.BoolOp)]) == 52
    assert legal_codes_seen(plain, range(3)) == seen
