"""The first benchmark definitions (benchmarks/older/, written in the styles the
docs taught before `move X to Y`, `promote ... to one of`, `forbid result`, tracks
and `create`) still load, start as OpenSpiel's games do, and agree move by move
with today's examples along random games where their rules coincide."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.analysis.perft import perft

ROOT = Path(__file__).resolve().parents[2]
OLDER = ROOT / "benchmarks" / "older"
EXAMPLES = ROOT / "docs" / "examples"

# Depths 1-2 from the start, as OpenSpiel counts them (Amazons: a choice of an
# amazon, its move, then the shot are three actions, as in OpenSpiel).
START_PERFT = {
    "connect_four": [7, 49],
    "kalah": [6, 35],
    "amazons": [4, 80],
    "chess": [20, 400],
}


def test_every_older_definition_is_listed():
    assert {p.name for p in OLDER.iterdir() if p.is_dir()} == set(START_PERFT)


@pytest.mark.parametrize("name", sorted(START_PERFT))
def test_older_definition_loads_without_warnings(name):
    game = load_game(str(OLDER / name))
    assert [str(w) for w in game.warnings] == []
    assert perft(game, game.initial_state(), 2) == START_PERFT[name]


def _kalah_site(older: str) -> str:
    """The older board's pits are a..f; the example's, with the stores at the ends, b..g."""
    return chr(ord(older[0]) + 1) + older[1:]


def _sets_along_random_games(name: str, games: int, plies: int, seed: int = 7):
    """(older's legal moves, the example's) in the example's notation at each
    position of random games the example plays; the older definition follows."""
    older, example = load_game(str(OLDER / name)), load_game(str(EXAMPLES / name))
    rng = random.Random(seed)
    for _ in range(games):
        o, e = older.initial_state(), example.initial_state()
        for _ in range(plies):
            if example.is_terminal(e) or older.is_terminal(o):
                break
            wanted = sorted(example.legal_notations(e))
            o, found = _older_moves(name, older, o)
            yield found, wanted
            move = rng.choice(wanted)
            e = example.apply(e, move)
            o = _older_apply(name, older, o, move)


def _older_moves(name, older, o):
    notations = older.legal_notations(o)
    if name == "kalah":
        return o, sorted(_kalah_site(n) for n in notations)
    if name == "amazons" and older.decision(o) == "choose":
        # A move is a choice of an amazon and its travel: list the travels of each.
        return o, sorted(m for n in notations for m in older.legal_notations(older.apply(o, n)))
    return o, sorted(notations)


def _older_apply(name, older, o, move):
    if name == "kalah":
        back = {_kalah_site(n): n for n in older.legal_notations(o)}
        return older.apply(o, back[move])
    if name == "amazons" and not move.startswith("@"):
        return older.apply(older.apply(o, move.split("-")[0]), move)
    o = older.apply(o, move)
    if name == "chess" and older.decision(o) == "castle_rook":
        # Castling's second action, the rook's, is forced.
        (rook,) = older.legal_notations(o)
        o = older.apply(o, rook)
    return o


@pytest.mark.parametrize("name, games, plies", [
    ("connect_four", 5, 42),
    ("kalah", 5, 200),
    ("amazons", 2, 12),
    ("chess", 3, 200),
])
def test_older_definition_agrees_with_the_example(name, games, plies):
    compared = 0
    for found, wanted in _sets_along_random_games(name, games, plies):
        assert found == wanted
        compared += 1
    assert compared > games * 5
