"""A playout's draw of one piece and one of its actions (compilation/draws.py,
write_element_draws), with the bound read from the lister: a hop game whose
pieces step eight ways and hop four (twelve actions at most), and the games that
drew before. The draws give the listed actions, each as often as the others."""
from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from interpreter import load_game
from tests.helpers import REPO, write_definition
from tests.runtime.test_draws import _Spent, element_drawn

# A game of hops as format.md teaches them (3.13): a step any way, or a hop over a
# piece beside, orthogonally, then more hops of the same piece (the sites it left
# marked, so that it never comes back), or a stop.
HOPS_YAML = """\
game: hops
title: Hops
description: Step or hop to the far corner.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 5, ranks: 5}
directions:
  hops: [orthogonal]
regions:
  goal:
    per_player:
      white: [e5, d5, e4]
      black: [a1, b1, a2]
pieces:
  man: {symbol: M}
  trail: {symbol: ".", owner: neutral}
variables:
  turns: {type: int, default: 0}
setup:
  white:
    man: [a1, b1, a2]
  black:
    man: [e5, d5, e4]
"""
HOPS_RULES = """\
    phase play:
        turn: move
        after each turn:
            for each s in pieces where it is trail:
                remove s
            turns += 1
            if count(pieces of player where it in goal[player]) == 3:
                win
            elif turns >= 60:
                draw
        if no action:
            lose

    decision move:
        action step:
            step all
            onto empty: move
        action hop:
            jump hops
            over own: hop_on
            over enemy: hop_on

    decision more:
        action hop by the same piece:
            jump hops
            over own: hop_on
            over enemy: hop_on
        action stop:
            pass

    procedure hop_on:
        move
        create trail at from
        then more
    """


@pytest.fixture(scope="module")
def hops(tmp_path_factory):
    return load_game(write_definition(tmp_path_factory.mktemp("hops"), HOPS_YAML, HOPS_RULES)).engine


def positions(engine, seed: int, plies: tuple[int, ...]):
    """The positions of one seeded random game after `plies` actions (where it lasts)."""
    rng = random.Random(seed)
    s = engine.initial_state()
    for ply in range(max(plies) + 1):
        if engine.is_over(s):
            return
        if ply in plies:
            yield s.copy()
        engine.apply_in_place(s, engine.pick_random(s, rng))


def test_a_piece_of_eight_steps_and_four_hops_is_drawn(hops):
    move, more = hops.decisions[0], hops.decisions[1]
    assert move.draws_per_element == 12 and more.draws is None
    compared = 0
    for seed in range(4):
        for s in positions(hops, seed, tuple(range(0, 40, 3))):
            if s.decision == 0:
                assert element_drawn(move, s) == list(hops.legal(s))
                compared += 1
    assert compared > 20


def _chi_square_limit(df: int) -> float:
    """What the chi-square statistic of `df` degrees of freedom exceeds with
    chance about 1e-4 (Wilson and Hilferty)."""
    z = 3.72
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _drawn_counts(engine, s, rng: random.Random, per_action: int) -> tuple[Counter, list]:
    """How often the decision's draw gives each action (the whole list where it
    gives none, as the engine does) in `per_action` times as many draws as the
    position has actions."""
    decision = engine.decisions[s.decision]
    legal = list(engine.legal(s))
    counts: Counter = Counter()
    for _ in range(per_action * len(legal)):
        code = decision.draws[0](s, [], rng.random, False)
        counts[code if code is not None else legal[int(rng.random() * len(legal))]] += 1
    return counts, legal


@pytest.mark.parametrize("name", ["hops", "lines_of_action", "breakthrough", "clobber"])
def test_draws_are_as_frequent_as_each_listed_action(name, hops):
    engine = hops if name == "hops" else load_game(str(REPO / "benchmarks" / "games" / name)).engine
    rng = random.Random(11)
    tested = 0
    for s in positions(engine, 3, (4, 9, 14)):
        if not engine.decisions[s.decision].draws_per_element:
            continue
        counts, legal = _drawn_counts(engine, s, rng, per_action=60)
        assert set(counts) == set(legal)  # (nothing else, and every one of them)
        expected = 60
        chi_square = sum((counts[code] - expected) ** 2 / expected for code in legal)
        assert chi_square < _chi_square_limit(len(legal) - 1), (name, s.ply, counts.most_common(3))
        tested += 1
    assert tested >= 2


def test_pieces_with_few_actions_are_not_drawn_more_often(hops):
    # The check above can fail: a draw keeping an action at every try (not with
    # chance k/12) favours the actions of pieces that have few.
    s = next(s for s in positions(hops, 0, tuple(range(20)))
             if s.decision == 0 and len(set(Counter(code[1] for code in hops.legal(s)).values())) > 1)
    legal = list(hops.legal(s))
    rng = random.Random(5)
    counts: Counter = Counter()
    n = len(s.occ[s.player])
    for _ in range(60 * len(legal)):
        frm = s.occ[s.player][int(rng.random() * n)]
        own = [code for code in legal if code[1] == frm]
        counts[own[int(rng.random() * len(own))]] += 1
    chi_square = sum((counts[code] - 60) ** 2 / 60 for code in legal)
    assert chi_square > _chi_square_limit(len(legal) - 1)


# Einstein würfelt nicht! (benchmarks/outsiders/einstein): the die names the cubes
# that may move, `where piece.num == lo or piece.num == hi` — one or two of up to six.
EINSTEIN = REPO / "benchmarks" / "outsiders" / "einstein"


@pytest.fixture(scope="module")
def einstein():
    return load_game(str(EINSTEIN)).engine


def _moves_of_einstein(engine, seeds: range):
    """Positions of seeded random games where the cubes move (not a chance event)."""
    for seed in seeds:
        for s in positions(engine, seed, tuple(range(2, 40))):
            if not engine.decisions[s.decision].is_chance:
                yield s


def _scripted(numbers: list[float]):
    """A `rand` giving `numbers`, then failing with _Spent; and how many it gave."""
    given = []

    def rand():
        if len(given) == len(numbers):
            raise _Spent
        given.append(numbers[len(given)])
        return given[-1]
    return rand, given


def test_a_where_about_the_piece_narrows_the_draw_to_the_pieces_passing_it(einstein):
    decision = next(d for d in einstein.decisions if d.name == "move")
    bound = decision.draws_per_element
    assert bound == 3
    narrowed = listed = 0
    for s in _moves_of_einstein(einstein, range(6)):
        legal = list(einstein.legal(s))
        pieces = s.occ[s.player]
        # (every cube the die names has a step: one on its goal has ended the game)
        passing = [frm for frm in pieces if any(code[1] == frm for code in legal)]
        stopped = [i for i, frm in enumerate(pieces) if frm not in passing]
        if not stopped:
            continue
        first = (stopped[0] + 0.5) / len(pieces)  # (a cube the die does not name)
        if len(passing) < 2:
            # too few to draw from: the lister lists them, after that one try
            rand, given = _scripted([first])
            assert decision.draws[0](s, [], rand, False) is None and given == [first]
            listed += 1
            continue
        # every cube passing, every slot of the keeping test: each action once
        kept = []
        for j, frm in enumerate(passing):
            own = [code for code in legal if code[1] == frm]
            for slot in range(bound):
                rand, _ = _scripted([first, (j + 0.5) / len(passing), (slot + 0.5) / bound])
                try:
                    code = decision.draws[0](s, [], rand, False)
                except _Spent:  # (kept none: the next try)
                    assert slot >= len(own)
                    continue
                assert code == own[slot]
                kept.append(code)
        assert sorted(kept) == sorted(legal)
        narrowed += 1
    assert narrowed >= 3 and listed >= 3


def test_a_narrowed_draw_gives_each_action_as_often(einstein):
    decision = next(d for d in einstein.decisions if d.name == "move")
    rng = random.Random(3)
    tested = 0
    for s in _moves_of_einstein(einstein, range(4)):
        if len(einstein.legal(s)) < 4:
            continue
        counts, legal = _drawn_counts(einstein, s, rng, per_action=60)
        assert set(counts) == set(legal)
        chi_square = sum((counts[code] - 60) ** 2 / 60 for code in legal)
        assert chi_square < _chi_square_limit(len(legal) - 1), (s.ply, counts.most_common(3))
        tested += 1
    assert tested >= 3
    assert decision.draws_per_element


# Breakthrough as an outsider first wrote it (benchmarks/outsiders/breakthrough/two_actions):
# an advance straight or diagonally onto an empty square, and a capture diagonally onto
# an enemy, as two actions. A diagonal square is one or the other, never both: the bound
# counts it once (3, not 5).
BREAKTHROUGH = REPO / "benchmarks" / "outsiders" / "breakthrough"


@pytest.fixture(scope="module")
def two_actions():
    return load_game(str(BREAKTHROUGH / "two_actions")).engine


def test_two_actions_landing_on_empty_and_on_an_enemy_count_a_shared_site_once(two_actions):
    move = two_actions.decisions[0]
    assert move.draws_per_element == 3
    compared = captures = 0
    for seed in range(6):
        for s in positions(two_actions, seed, tuple(range(0, 80, 5))):
            legal = list(two_actions.legal(s))
            # (every piece and every number of the keeping test: each action once)
            assert element_drawn(move, s) == legal
            compared += 1
            captures += any(code[0] == 1 for code in legal)
    assert compared > 40 and captures > 20


def test_two_actions_over_shared_sites_give_each_action_as_often(two_actions):
    rng = random.Random(7)
    tested = 0
    for s in positions(two_actions, 5, (12, 20, 28)):
        counts, legal = _drawn_counts(two_actions, s, rng, per_action=60)
        assert set(counts) == set(legal) and any(code[0] == 1 for code in legal)
        chi_square = sum((counts[code] - 60) ** 2 / 60 for code in legal)
        assert chi_square < _chi_square_limit(len(legal) - 1), (s.ply, counts.most_common(3))
        tested += 1
    assert tested == 3


@pytest.mark.parametrize("capture, bound", [
    # (both onto an empty square: a diagonal square gives two actions, both counted)
    ("onto empty", 5),
    # (an own piece is not empty either: once)
    ("onto own", 3),
])
def test_shared_sites_count_once_only_where_their_landings_exclude_each_other(tmp_path, capture, bound):
    rules = (BREAKTHROUGH / "two_actions" / "breakthrough.rules").read_text().replace("onto enemy", capture)
    yaml = (BREAKTHROUGH / "two_actions" / "breakthrough.yaml").read_text().replace(
        "rules: breakthrough.rules", "rules: game.rules")
    engine = load_game(write_definition(tmp_path, yaml, rules)).engine
    move = engine.decisions[0]
    assert move.draws_per_element == bound
    for s in positions(engine, 2, (0, 6, 12)):
        assert element_drawn(move, s) == list(engine.legal(s))
