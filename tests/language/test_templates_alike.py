"""Which notation templates are compared while listing (format.md 3.8: two actions
writing the same notation are one, the first kept): decided from the templates
when the rules are compiled (compilation/told_apart.may_write_alike) — those that
can never write one text are not compared; those that can, though they differ,
are compared by the text they write."""
from interpreter import load_game
from interpreter.compilation.told_apart import may_write_alike
from tests.helpers import write_definition

GRID = [f"{f}{r}" for r in range(1, 10) for f in "abcdefghi"]


def test_templates_told_apart_by_their_literal_text():
    assert not may_write_alike(("{to}",), ("{to}", "h"), GRID)  # a square never ends with h
    assert not may_write_alike(("{to}", "h"), ("{to}", "v"), GRID)
    assert not may_write_alike(("{from}", "-", "{to}"), ("{from}", "x", "{to}"), GRID)
    assert not may_write_alike(("{from}", "-", "{to}"), ("{from}", "-off"), GRID)  # (no site is named "off")
    assert not may_write_alike(("O-O",), ("{from}", "{to}"), GRID)


def test_templates_that_may_write_one_text():
    assert may_write_alike(("{to}",), ("{to}",), GRID)
    assert may_write_alike(("{to}",), ("{from}",), GRID)  # b2 written either way
    assert may_write_alike(("{from}", "{to}"), ("{to}", "{from}"), GRID)
    # `{to}` of an `off board` case writes "off"
    assert may_write_alike(("{from}", "-", "{to}"), ("{from}", "-off"), GRID, off=[("{from}", "-", "{to}")])
    # A field of any text: nothing is proven.
    assert may_write_alike(("{to}", "h"), ("{to}", "{d}"), GRID)
    # Names that are prefixes of each other on a graph board: "x" + "p" is "xp".
    assert may_write_alike(("x", "{to}"), ("{to}",), ["p", "xp"])
    assert not may_write_alike(("x", "{to}"), ("{to}",), ["p", "q"])


def test_many_texts_are_compared_by_their_first_and_last_characters():
    big = [f"s{n}" for n in range(400)]  # 160,000 pairs: not written out
    assert not may_write_alike(("{from}", "{to}", "h"), ("{from}", "{to}"), big)
    assert may_write_alike(("{from}", "{to}", "0"), ("{from}", "{to}"), big)
    # format.md 3.8: a 17x17 board writes 83,810 texts for "{from}-{to}": both start
    # with a letter and end with a digit, but "-" is written by no text of
    # "{from}^{to}" (no site's name holds it), and a suffix of its own is seen; on
    # a 9x9 board every text is written out.
    lattice = [f"{chr(ord('a') + f)}{r}" for r in range(1, 18) for f in range(17)]
    assert not may_write_alike(("{from}", "-", "{to}"), ("{from}", "^", "{to}"), lattice)
    assert not may_write_alike(("{from}", "-", "{to}"), ("{from}", "-", "{to}", "+"), lattice)
    assert not may_write_alike(("{from}", "-", "{to}"), ("{from}", "^", "{to}"), GRID)
    # Where site names hold the separators, or a field writes anything, they are compared.
    dashed = [f"{chr(ord('a') + f)}-{r}" for r in range(1, 18) for f in range(17)] + ["x^y"]
    assert may_write_alike(("{from}", "-", "{to}"), ("{from}", "^", "{to}"), dashed)
    assert may_write_alike(("{from}", "-", "{to}"), ("{from}", "{d}", "{to}"), lattice)
    assert may_write_alike(("{from}", "-", "{to}"), ("{from}", "-", "{to}", "{d}"), lattice)


YAML = """\
game: probe
title: Probe
description: Sites whose names run into each other.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  graph:
    sites: {p: null, q: null, xp: null}
    edges: [[p, q, xp]]
pieces:
  stone: {symbol: S}
"""
RULES = """\
phase play:
    turn: place
decision place:
    action marked:
        drop stone on [p, q]
        notation "x{to}"
        onto empty: place
    action plain:
        drop stone on [q, xp]
        notation "{to}"
        onto empty: place
"""


def test_two_templates_that_write_one_text_are_one_action(tmp_path):
    # "x{to}" on p and "{to}" on xp both write "xp": the first is kept.
    game = load_game(write_definition(tmp_path, YAML, RULES))
    state = game.initial_state()
    assert game.legal_notations(state) == ["q", "xp", "xq"]
    written = {game.engine.notation(code): code for code in game.engine.legal(state)}
    assert written["xp"][2] == game.rules.site_names.index("p")
    # once p is taken, "{to}" on xp is the action "xp"
    state = game.apply(game.apply(state, "xp"), "q")
    assert game.legal_notations(state) == ["xp"]
    assert game.engine.legal(state)[0][2] == game.rules.site_names.index("xp")


def test_templates_that_cannot_clash_are_not_compared(tmp_path):
    rules = RULES.replace('"x{to}"', '"{to}+"')
    game = load_game(write_definition(tmp_path, YAML, rules))
    assert game.legal_notations(game.initial_state()) == ["p+", "q", "q+", "xp"]
    # (drops showing their site, told apart from the other's: no key, never compared)
    keys = next(v for k, v in game.rules.constants.items() if isinstance(v, tuple) and len(v) == len(game.rules.cases)
                and all(x is None or isinstance(x, tuple) and len(x) == 4 for x in v))
    assert keys == (None, None)


def test_with_forbid_result_they_are_compared_among_the_allowed_ones(tmp_path):
    # "x{to}" on p is forbidden here: "{to}" on xp is the action "xp".
    rules = "forbid result where p is occupied\n" + RULES
    game = load_game(write_definition(tmp_path, YAML, rules))
    state = game.initial_state()
    assert game.legal_notations(state) == ["q", "xp", "xq"]
    written = {game.engine.notation(code): code for code in game.engine.legal(state)}
    assert written["xp"][2] == game.rules.site_names.index("xp")
    # playouts draw among the same actions (the drawn one compared with those listed before it)
    import random

    engine = game.engine
    for seed in range(20):
        s = engine.initial_state()
        engine.random_playout(s, random.Random(seed), 1)
        assert engine.notation(s.last) in ("q", "xp", "xq")
        assert s.last[2] != game.rules.site_names.index("p")


MANY = """\
phase play:
    turn: place
decision place:
    action first:
        drop stone on [p]
        notation "y{to}"
        onto empty: place
    action second:
        drop stone on [p, q]
        notation "{to}+"
        onto empty: place
    action third:
        drop stone on [q]
        notation "{to}"
        onto empty: place
    action fourth:
        drop stone on [p]
        notation "x{to}"
        onto empty: place
    action fifth:
        drop stone on [q]
        notation "y{to}+"
        onto empty: place
    action last:
        drop stone on [xp]
        notation "{to}"
        onto empty: place
"""


def test_among_many_actions_the_pairs_of_templates_that_may_clash_are_found(tmp_path):
    # The same pairs of templates come back for many pairs of actions (their answer
    # kept by value): "x{to}" on p and "{to}" on xp, five actions apart, both write
    # "xp" and are one action, the first kept; "y{to}+" never writes "{to}+"'s text
    # here ("yq+" against "p+", "q+").
    game = load_game(write_definition(tmp_path, YAML, MANY))
    state = game.initial_state()
    assert game.legal_notations(state) == ["p+", "q", "q+", "xp", "yp", "yq+"]
    written = {game.engine.notation(code): code for code in game.engine.legal(state)}
    assert written["xp"][2] == game.rules.site_names.index("p")
