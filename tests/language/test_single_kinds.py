"""A kind of which no player ever has two pieces (compilation/single_kinds.py):
its actions start from one site, so that a notation leaving out `{from}` ("{to}")
tells their candidates apart by the landing site — they are not compared by
notation while listing. Two actions of that one piece landing on one site still
write one notation: the first legal of them is the action (format.md 3.8)."""
import random

import pytest

from interpreter import load_game
from tests.helpers import names_read, write_definition

YAML = """\
game: probe
title: Probe
description: One pawn each.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 5, ranks: 5}
pieces:
  pawn: {symbol: P}
  rock: {symbol: R, owner: neutral}
setup:
  white: {pawn: [c1]}
  black: {pawn: [c5]}
"""
# The pawn steps or leaps two ("{to}": never one site from one start); `mark` lands
# where `hop` does and leaves a rock behind: one notation, the first legal kept.
RULES = """\
phase play:
    turn: move
decision move:
    action hop by pawn:
        leap orthogonal distance 1
        where to != b1
        notation "{to}"
        onto empty: move
    action far by pawn:
        leap orthogonal distance 2
        notation "{to}"
        onto empty: move
    action mark by pawn:
        leap orthogonal distance 1
        notation "{to}"
        onto empty:
            create rock at from
            move
"""


_COMPARING = {"h_dedup", "h_drop_seen", "h_drop_landing", "h_drop_landing_alike", "h_landings"}


def _compares_notations(game) -> bool:
    """Whether the decision's listers compare candidates by their notation (over
    the whole list, or one piece's)."""
    return bool(names_read(game) & _COMPARING)


def _rocks(game, state) -> list[str]:
    return [p.site for p in game.pieces(state) if p.kind == "rock"]


def test_one_pawn_each_is_told_apart_by_its_landing(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES.split("    action mark")[0]))
    assert not _compares_notations(game)
    assert sorted(game.legal_notations(game.initial_state())) == ["a1", "c2", "c3", "d1", "e1"]


@pytest.mark.parametrize("more", [
    "    action grow by pawn:\n        leap diagonal distance 1\n        onto empty:\n            move\n"
    "            if false:\n                create pawn at from\n",
    "    action crown by pawn:\n        leap diagonal distance 1\n        onto empty:\n            move\n"
    "            promote to to pawn\n",
    "    action add:\n        drop pawn on sites\n        where false\n        onto empty: place\n",
    "    action turn by pawn:\n        leap diagonal distance 1\n        onto enemy:\n            to.owner = player\n",
])
def test_a_kind_the_rules_can_add_is_compared(tmp_path, more):
    rules = RULES.split("    action mark")[0] + more
    game = load_game(write_definition(tmp_path, YAML, rules))
    assert _compares_notations(game)


def test_two_pieces_of_the_kind_in_the_setup_are_compared(tmp_path):
    yaml = YAML.replace("white: {pawn: [c1]}", "white: {pawn: [a1, e1]}")
    game = load_game(write_definition(tmp_path, yaml, RULES.split("    action mark")[0]))
    assert _compares_notations(game)
    # c1 is reached by both pawns' leaps: one action
    assert sorted(game.legal_notations(game.initial_state())) == ["a2", "a3", "c1", "d1", "e2", "e3"]


def test_a_pool_of_the_kind_is_compared(tmp_path):
    yaml = YAML + "pools:\n  reserve: {kind: pawn}\n"
    game = load_game(write_definition(tmp_path, yaml, RULES.split("    action mark")[0]))
    assert _compares_notations(game)


def test_two_actions_of_the_one_pawn_landing_alike_keep_the_first_legal(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    assert _compares_notations(game)  # (hop and mark both land beside the pawn)
    state = game.initial_state()
    # hop and mark both land on c2 and d1: hop, listed first, is the action; b1 is
    # not hop's (its `where`), so it is mark's
    assert sorted(game.legal_notations(state)) == ["a1", "b1", "c2", "c3", "d1", "e1"]
    assert _rocks(game, game.apply(state, "c2")) == []
    assert _rocks(game, game.apply(state, "b1")) == ["c1"]


def test_with_forbid_result_the_first_allowed_is_kept(tmp_path):
    # hop to d1 is forbidden (no rock behind it): mark's d1 is the action d1.
    rules = "forbid result where d1 is occupied and not exists(sites, it is rock)\n" + RULES
    game = load_game(write_definition(tmp_path, YAML, rules))
    state = game.initial_state()
    assert sorted(game.legal_notations(state)) == ["a1", "b1", "c2", "c3", "d1", "e1"]
    assert _rocks(game, game.apply(state, "d1")) == ["c1"]
    assert _rocks(game, game.apply(state, "c2")) == []
    # playouts draw among the same actions: d1 is mark's there too
    engine = game.engine
    seen = set()
    for seed in range(40):
        s = engine.initial_state()
        engine.random_playout(s, random.Random(seed), 1)
        landed = engine.notation(s.last)
        seen.add(landed)
        assert bool(_rocks(game, s)) == (landed in ("b1", "d1")), landed
    assert seen == {"a1", "b1", "c2", "c3", "d1", "e1"}
