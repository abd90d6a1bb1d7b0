"""perft's last ply counting children it knows without playing them
(compilation/known_children.py, `CompiledRules.known_children`): which cases
qualify, hand-checked perft counts, and the same counts with the mechanism off
from every position of random games."""
from __future__ import annotations

import dataclasses
import random

import pytest

from interpreter import load_game
from interpreter.runtime.engine import Engine
from tests.helpers import REPO, stones_and_rocks, write_definition


def _without(engine: Engine) -> Engine:
    """The same rules with nothing known: every child played."""
    return Engine(dataclasses.replace(engine.rules, known_children=()))


def _known(engine: Engine) -> dict[str, str]:
    """case label -> the name of the decision its children are known at."""
    return {engine.rules.cases[case].label: engine.decisions[decision].name
            for row in engine.rules.known_children for case, decision in enumerate(row) if decision is not None}


def _same_perft_in_random_games(engine: Engine, depth: int, games: int, plies: int, seed: int = 3,
                                off: Engine | None = None) -> int:
    """Positions of seeded random games where perft to `depth` counts as `off` does
    (by default the engine without its known children)."""
    off = off or _without(engine)
    rng = random.Random(seed)
    compared = 0
    for _ in range(games):
        s = engine.initial_state()
        for _ in range(plies):
            if engine.is_over(s):
                break
            assert engine.perft(s, depth) == off.perft(s, depth)
            compared += 1
            engine.apply_in_place(s, rng.choice(engine.legal(s)))
    return compared


def _place_then(spin: str, after: str = "", turn: str = "place, spin") -> str:
    """Rules of a stone dropped on any empty site, then the decision `spin`."""
    return (f"phase play:\n    turn: {turn}\n{after}"
            "decision place:\n    action stone:\n        drop stone on sites\n        notation \"{to}\"\n"
            f"        onto empty: place\n{spin}")


SPINS = ("decision spin:\n"
         "    action left:\n        pass: rotate a1_b2 clockwise\n        notation \"l\"\n"
         "    action right:\n        pass: rotate a1_b2 anticlockwise\n        notation \"r\"\n"
         "    action stay:\n        pass\n        notation \"s\"\n")
QUARTER = "regions:\n  a1_b2: [a1, b1, b2, a2]\n"


def _game(tmp_path, rules: str):
    return load_game(write_definition(tmp_path, stones_and_rocks(files=3, ranks=3, extra=QUARTER), rules)).engine


def test_pentago_knows_the_twists_after_a_marble():
    engine = load_game(str(REPO / "benchmarks/games/pentago")).engine
    assert _known(engine) == {"action 'marble', onto empty": "twist"}
    # 36 points, 8 quarter turns each; then 35 and 8 (hand-counted: no line of
    # five before the fifth marble)
    assert engine.perft(engine.initial_state(), 4) == [36, 288, 10080, 80640]
    assert _without(engine).perft(engine.initial_state(), 4) == [36, 288, 10080, 80640]


def test_pentago_perft_is_the_same_without_the_mechanism():
    engine = load_game(str(REPO / "benchmarks/games/pentago")).engine
    # (positions late in games too, where a twist may end the game: those are
    # the parents of the known children, always played)
    assert _same_perft_in_random_games(engine, 2, games=6, plies=40) > 100


def test_a_fixed_decision_after_a_placement_is_known(tmp_path):
    engine = _game(tmp_path, _place_then(SPINS))
    assert _known(engine) == {"action 'stone', onto empty": "spin"}
    # 9 sites, 3 spins each, then 8 and 3: nothing ends the game before the board is full
    assert engine.perft(engine.initial_state(), 4) == [9, 27, 216, 648]
    assert _same_perft_in_random_games(engine, 3, games=4, plies=30) > 20


def test_a_placement_that_may_end_the_game_is_played(tmp_path):
    after = "    after each action:\n        if count(pieces) == 4:\n            win player\n"
    engine = _game(tmp_path, _place_then(SPINS, after))
    assert _known(engine) == {}
    # the fourth stone wins at once: no spin follows it
    assert engine.perft(engine.initial_state(), 8) == [9, 27, 216, 648, 4536, 13608, 81648, 0]


def test_a_decision_whose_actions_read_the_position_is_not_fixed(tmp_path):
    spins = SPINS.replace("        pass\n        notation \"s\"\n",
                          "        pass\n        where a1 is empty\n        notation \"s\"\n")
    engine = _game(tmp_path, _place_then(spins))
    assert _known(engine) == {}
    assert engine.perft(engine.initial_state(), 2) == [9, 8 * 3 + 2]


def test_the_end_of_a_turn_is_not_known(tmp_path):
    # the spin ends the turn: the next turn's placements depend on the board
    engine = _game(tmp_path, _place_then(SPINS))
    assert all(known is None for row in engine.rules.known_children for known in row[1:])
    # a turn of one decision: the stone ends it
    engine = _game(tmp_path, _place_then("", turn="place"))
    assert _known(engine) == {}


def test_a_chance_event_within_the_turn_is_known(tmp_path):
    rules = _place_then("chance roll:\n    outcomes 1 to 4\n    die = outcome\n", turn="place, roll")
    yaml = stones_and_rocks(files=3, ranks=3, extra="variables:\n  die: {type: int, default: 0}\n")
    engine = load_game(write_definition(tmp_path, yaml, rules)).engine
    assert _known(engine) == {"action 'stone', onto empty": "roll"}
    assert engine.perft(engine.initial_state(), 3) == [9, 36, 288]
    assert _same_perft_in_random_games(engine, 3, games=3, plies=20) > 10


@pytest.mark.parametrize("then", ["then spin", "if to == b2:\n                win player"])
def test_cases_that_may_go_elsewhere_are_not_known(tmp_path, then):
    rules = _place_then(SPINS).replace("onto empty: place\n", f"onto empty:\n            place\n            {then}\n")
    engine = _game(tmp_path, rules)
    assert "action 'stone', onto empty" not in _known(engine)
    assert _same_perft_in_random_games(engine, 2, games=3, plies=20) > 5


@pytest.mark.parametrize("counted", ["repetitions", "board repetitions"])
def test_a_placement_keeping_the_board_key_is_known(tmp_path, counted):
    # Where positions or boards are counted, the placement keeps the board's key
    # (`s.board_key ^= h_hash(...)`): that cannot fail, so the spins are still known.
    after = f"    before each turn:\n        if {counted} >= 3:\n            draw\n"
    engine = _game(tmp_path, _place_then(SPINS, after))
    assert _known(engine) == {"action 'stone', onto empty": "spin"}
    assert engine.perft(engine.initial_state(), 4) == [9, 27, 216, 648]
    assert _same_perft_in_random_games(engine, 3, games=3, plies=20) > 10


def _counted_off(engine: Engine) -> Engine:
    """The same rules with no decision's actions counted: every child listed."""
    decisions = tuple(dataclasses.replace(d, counted=None) for d in engine.rules.decisions)
    return Engine(dataclasses.replace(engine.rules, decisions=decisions, known_children=()))


def test_a_fixed_decision_is_counted_without_listing_it(tmp_path):
    # (the spin is the stone's follow-up, which the case returns: its children are not
    # known — perft's last ply plays it and counts the spin's four actions without
    # listing them)
    rules = _place_then(SPINS + "    action skip:\n        pass\n        notation \"-\"\n", turn="place")
    engine = _game(tmp_path, rules.replace("onto empty: place", "onto empty:\n            place\n"
                                           "            then spin"))
    spin = next(d for d in engine.decisions if d.name == "spin")
    assert spin.counted is not None and spin.counted(engine.initial_state()) == 4
    assert _known(engine) == {}
    # 9 sites, then 4 spins, 8 sites, 4 spins (no line ends it: the rules have none)
    assert engine.perft(engine.initial_state(), 4) == [9, 36, 288, 1152]
    assert _counted_off(engine).perft(engine.initial_state(), 4) == [9, 36, 288, 1152]
    assert _same_perft_in_random_games(engine, 2, games=4, plies=12, seed=5, off=_counted_off(engine)) > 20
