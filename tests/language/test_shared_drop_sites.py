"""Drops that ask the same `where` of their site (several kinds placed by one
rule): the empty sites passing it worked out once per listing and gone over by
each drop (actions.ActionCompiler._shared_drop_sites) — the same moves as each
drop asking it of every site, on random positions."""
import ast
import random

from interpreter import load_game
from interpreter.compilation.actions import ActionCompiler
from tests.helpers import generated, write_definition

YAML = """\
game: probe
title: Probe
description: Two kinds placed by one rule.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 5, ranks: 5}
pieces:
  stone: {symbol: S, description: A stone.}
  disc: {symbol: D, description: A disc.}
"""
NEXT_TO_OWN = "where exists(neighbours(to), it is own) and to != c3"
RULES = f"""\
phase play:
    turn: place
decision place:
    action stone:
        drop stone on sites
        {NEXT_TO_OWN}
        notation "S{{to}}"
        onto empty: place
    action disc:
        drop disc on sites
        {NEXT_TO_OWN}
        where to != a1
        notation "D{{to}}"
        onto empty: place
"""


def _loops_over(game) -> tuple[int, list[str]]:
    """(how many loops of the lister go over the board's 25 sites, a constant;
    the locals its other loops over sites go over)."""
    namespace = game.rules.constants
    loops = [loop.iter.id for loop in generated(game, ast.For, origin=": the legal actions")
             if isinstance(loop.iter, ast.Name) and isinstance(loop.target, ast.Name) and loop.target.id == "to"]
    constant = [name for name in loops if isinstance(namespace.get(name), tuple) and len(namespace[name]) == 25]
    return len(constant), [name for name in loops if name not in namespace]


def test_drops_asking_alike_go_over_the_sites_that_pass_once_worked_out(tmp_path, monkeypatch):
    shared = load_game(write_definition(tmp_path, YAML, RULES))
    monkeypatch.setattr(ActionCompiler, "_shared_drop_sites", lambda *args: None)
    (tmp_path / "apart").mkdir()
    apart = load_game(write_definition(tmp_path / "apart", YAML, RULES))
    # (each drop's block works the sites out if the other's has not: the first offered does)
    constant, kept = _loops_over(shared)
    assert constant == 2 and len(kept) == 2 and len(set(kept)) == 1
    assert _loops_over(apart) == (2, [])
    rng = random.Random(5)
    sites = [f"{f}{r}" for f in "abcde" for r in "12345"]
    moves = 0
    for _ in range(60):
        pieces = {site: (rng.choice(("white", "black")), rng.choice(("stone", "disc")))
                  for site in rng.sample(sites, rng.randint(0, 12))}
        listed = shared.legal_notations(shared.make_state(pieces))
        assert listed == apart.legal_notations(apart.make_state(pieces))
        moves += len(listed)
    assert moves > 200
