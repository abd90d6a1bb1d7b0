"""A playout's draw of one element of each of nested loops over the position's
lists (compilation/draws.py, write_nested_draws): a pair of the player's pieces,
the second ranked lower than the first, kept where the pair gives an action. The
draws give exactly the listed actions, each as often as the others; listers whose
inner list depends on the outer element, or that leave or carry across their
loops, are left to the lister."""
from __future__ import annotations

import ast
import random
import textwrap
from collections import Counter
from types import SimpleNamespace

import pytest

from interpreter import load_game
from interpreter.compilation.draws import write_nested_draws
from interpreter.compilation.source import Origin, Source, compile_module
from tests.helpers import REPO
from tests.runtime.test_draws import _Spent
from tests.runtime.test_element_draws import _chi_square_limit, positions

# The player's pieces (sites in o[p]) each make a pair with every piece of theirs
# ranked lower (b[site][1]); the pieces of rank 0 are out of play.
PAIRS = """\
    b = s.board
    o = s.occ
    p = s.player
    out = []
    for l1 in sorted(o[p]):
        if b[l1][1] > 0:
            l2 = b[l1][1]
            for to in o[p]:
                if 0 < b[to][1] < l2:
                    out.append((l1, to))
    return out
"""


def _written(lister: str):
    """(the lister, its nested draw, the draw's bound) compiled from `lister` (a
    body of a function of `s`), or None where write_nested_draws declines."""
    src = Source()
    for prefix in "lf":  # (past the names the lister uses)
        for _ in range(10):
            src.fresh(prefix)
    body = ast.parse(textwrap.dedent(lister)).body
    src.function("f1", ["s"], body)
    drawn = write_nested_draws(src, body, Origin("a test lister", None))
    if drawn is None:
        return None
    namespace = compile_module(src)
    return namespace["f1"], namespace[drawn[0]], -drawn[1]


def _state(ranks: dict[int, int], other: tuple[int, ...] = (9,)) -> SimpleNamespace:
    """Player 0 owns the sites of `ranks` (site -> rank); player 1 owns `other`."""
    board: list = [None] * 12
    for site, rank in ranks.items():
        board[site] = (0, rank)
    for site in other:
        board[site] = (1, 5)
    return SimpleNamespace(board=board, occ=[list(ranks), list(other)], player=0)


def _first_tries(draw, s, bound: int) -> list:
    """What the draw's first try gives, over every pick of each list and every
    number of its keeping test: each listed action once where the draw is uniform."""
    n = len(s.occ[s.player])
    given = []
    for first in range(n):
        for second in range(n):
            for kept in range(bound):
                numbers = iter([(first + 0.5) / n, (second + 0.5) / n, (kept + 0.5) / bound][:2 + (bound > 1)])

                def rand():
                    for x in numbers:
                        return x
                    raise _Spent

                try:
                    code = draw(s, [], rand, False)
                except _Spent:
                    continue
                assert code is not None
                given.append(code)
    return given


def test_each_pair_of_the_lister_is_given_by_one_pick_of_each_list():
    lister, draw, bound = _written(PAIRS)
    assert bound == 1
    s = _state({1: 3, 2: 0, 4: 1, 6: 3, 7: 2, 10: 5})
    listed = lister(s)
    assert len(listed) == 9  # (5 > 3, 3, 2, 1; each 3 > 2, 1; 2 > 1)
    assert sorted(_first_tries(draw, s, bound)) == sorted(listed)


def test_two_actions_a_pair_are_each_kept_half_the_time():
    lister, draw, bound = _written(PAIRS.replace("out.append((l1, to))",
                                                 "out.append((l1, to))\n                    out.append((to, l1))"))
    assert bound == 2
    s = _state({1: 3, 4: 1, 7: 2})
    assert sorted(_first_tries(draw, s, bound)) == sorted(lister(s))


def _drawn_counts(lister, draw, s, rng: random.Random, per_action: int) -> tuple[Counter, list]:
    """How often the draw gives each action (one of the whole list where it gives
    none, as the engine does) in `per_action` times as many draws as there are actions."""
    legal = lister(s)
    counts: Counter = Counter()
    for _ in range(per_action * len(legal)):
        code = draw(s, [], rng.random, False)
        counts[code if code is not None else legal[int(rng.random() * len(legal))]] += 1
    return counts, legal


def test_draws_are_as_frequent_as_each_listed_action():
    lister, draw, _ = _written(PAIRS)
    rng = random.Random(7)
    for ranks in ({1: 3, 2: 0, 4: 1, 6: 3, 7: 2, 10: 5}, {0: 1, 3: 2, 5: 3, 8: 4, 11: 6}, {2: 4, 3: 1}):
        counts, legal = _drawn_counts(lister, draw, _state(ranks), rng, per_action=60)
        assert set(counts) == set(legal)
        chi_square = sum((counts[code] - 60) ** 2 / 60 for code in legal)
        assert chi_square < _chi_square_limit(max(len(legal) - 1, 1)), counts.most_common(3)


def test_the_chi_square_check_finds_a_draw_that_favours_the_first_pieces_few_pairs():
    # The check above can fail: a piece drawn first, then one of its own pairs
    # (not a pair of all of them), favours the pairs of pieces that have few.
    lister, _, _ = _written(PAIRS)
    s = _state({1: 3, 2: 0, 4: 1, 6: 3, 7: 2, 10: 5})
    legal = lister(s)
    firsts = sorted({code[0] for code in legal})
    rng = random.Random(7)
    counts: Counter = Counter()
    for _ in range(60 * len(legal)):
        first = firsts[int(rng.random() * len(firsts))]
        own = [code for code in legal if code[0] == first]
        counts[own[int(rng.random() * len(own))]] += 1
    chi_square = sum((counts[code] - 60) ** 2 / 60 for code in legal)
    assert chi_square > _chi_square_limit(len(legal) - 1)


def test_a_player_without_pieces_leaves_the_position_to_the_lister():
    lister, draw, _ = _written(PAIRS)
    s = _state({})
    assert lister(s) == [] and draw(s, [], random.Random(1).random, False) is None


@pytest.mark.parametrize("change", [
    ("for to in o[p]:", "for to in o[b[l1][0]]:"),  # (the inner list chosen by the outer element)
    ("for to in o[p]:", "for to in o[l2]:"),  # (by a value the outer body works out)
    ("out.append((l1, to))", "out.append((l1, to))\n                    break"),  # (the inner loop left)
    ("l2 = b[l1][1]", "l2 = b[l1][1]\n            l3 = 0"),  # (see the carried count below)
    ("for l1 in sorted(o[p]):", "for l1 in range(12):"),  # (not a list of the position's)
])
def test_listers_whose_combinations_are_not_alike_are_left_to_the_lister(change):
    lister = PAIRS.replace(*change)
    if "l3 = 0" in lister:
        # a value carried from one inner element to the next: a draw runs one of them
        lister = lister.replace("out.append((l1, to))", "l3 += 1\n                    out.append((l1, l3))")
    assert lister != PAIRS
    assert _written(lister) is None


def test_one_loop_is_not_nested():
    assert _written("""\
        o = s.occ
        p = s.player
        out = []
        for to in o[p]:
            out.append(to)
        return out
    """) is None


@pytest.fixture(scope="module")
def cribbage():
    return load_game(str(REPO / "benchmarks" / "outsiders" / "cribbage")).engine


def test_a_for_each_action_with_a_select_inside_is_drawn_pair_by_pair(cribbage):
    # Cribbage's discard: `action two for each c in sites` over the player's cards
    # (rolled into one loop over them), each with a lower card of the same hand.
    discard = next(d for d in cribbage.decisions if d.name == "discard")
    assert discard.draws_per_element == 1
    compared = 0
    for seed in range(3):
        for s in positions(cribbage, seed, tuple(range(60))):
            if s.decision == cribbage.decisions.index(discard):
                assert sorted(_first_tries(discard.draws[0], s, 1)) == sorted(discard.legal(s))
                compared += 1
    assert compared >= 3


def test_a_discard_drawn_is_as_frequent_as_each_listed_one(cribbage):
    discard = next(d for d in cribbage.decisions if d.name == "discard")
    rng = random.Random(4)
    tested = 0
    for s in positions(cribbage, 1, tuple(range(40))):
        if s.decision == cribbage.decisions.index(discard):
            counts, legal = _drawn_counts(discard.legal, discard.draws[0], s, rng, per_action=60)
            assert set(counts) == set(legal)
            chi_square = sum((counts[code] - 60) ** 2 / 60 for code in legal)
            assert chi_square < _chi_square_limit(len(legal) - 1), counts.most_common(3)
            tested += 1
    assert tested >= 2
