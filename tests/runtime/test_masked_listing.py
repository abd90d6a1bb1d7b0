"""A lister's loop over fixed sites whose `where` passes every empty site beside an
empty one, written as bitmasks (compilation/masked_listing.py): definitions that
get it list what they list without it; loops it must leave alone."""
import ast

import pytest

from interpreter import load_game
from interpreter.compilation import decisions
from tests.helpers import REPO, legal_codes_seen, random_games_seen, stones_and_rocks, write_definition

# A stone beside an empty site, or one taking the last site beside enemy stones
# (whose neighbours are then all taken: asked one at a time), never on `last`.
PROBE_RULES = """
define open(s) = exists(neighbours(s), it is empty)
phase play:
    turn: place
    after each action:
        moves += 1
        if moves >= 30:
            end game
decision place:
    action stone:
        drop stone on sites
        where to != last and (exists(neighbours(to), it is empty) \\
            or count(neighbours(to), it is enemy) >= 2 \\
            or exists(n in neighbours(to), n is own and open(n)))
        notation "{to}"
        onto empty:
            place
            last = first(neighbours(to))
    action pass:
        pass
score: count(pieces of player)
"""
PROBE_VARIABLES = ("variables:\n  last: {type: site, hidden: true, description: A site no stone may take.}\n"
                   "  moves: {hidden: true, description: Actions so far.}\n")


def _listers(game):
    return [f for f in game.rules.module.body if isinstance(f, ast.FunctionDef)
            and "the legal actions" in str(game.rules.source_map.get(f.name, ""))]


def _masked(game) -> bool:
    return any(isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == "out"
               for f in _listers(game) for node in ast.walk(f))


def _without_the_pass(monkeypatch):
    monkeypatch.setattr(decisions, "masked_listing", lambda src, body, n: body)


@pytest.mark.parametrize("files,ranks", [(4, 4), (5, 3), (3, 7)])
def test_a_probe_lists_as_without_the_pass(tmp_path, monkeypatch, files, ranks):
    path = write_definition(tmp_path, stones_and_rocks(files=files, ranks=ranks, extra=PROBE_VARIABLES), PROBE_RULES)
    assert _masked(load_game(path))
    masked = random_games_seen(load_game(path), range(12))
    # (the sites whose neighbours are all taken were asked one at a time)
    assert any(len(legal) < files * ranks for seen, _, _ in masked for legal in seen[10:])
    _without_the_pass(monkeypatch)
    assert not _masked(load_game(path))
    assert random_games_seen(load_game(path), range(12)) == masked


def test_go_lists_and_plays_as_without_the_pass(monkeypatch):
    path = str(REPO / "benchmarks/games/go")
    assert _masked(load_game(path))
    masked = legal_codes_seen(load_game(path), range(2))
    _without_the_pass(monkeypatch)
    assert legal_codes_seen(load_game(path), range(2)) == masked


@pytest.mark.parametrize("where", [
    # (no neighbour asked first)
    "count(neighbours(to), it is empty) >= 1",
    # (the neighbour's test is not that it is empty)
    "exists(neighbours(to), it is enemy) or count(neighbours(to), it is own) == 0",
    # (an `and`: a site beside an empty one may still fail)
    "exists(neighbours(to), it is empty) and count(neighbours(to), it is enemy) == 0",
])
def test_loops_left_as_they_are(tmp_path, where):
    rules = PROBE_RULES.replace(PROBE_RULES[PROBE_RULES.index("where"):PROBE_RULES.index("notation")],
                                f"where {where}\n        ")
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=PROBE_VARIABLES), rules))
    assert not _masked(game)
