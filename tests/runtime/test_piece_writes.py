"""Attributes of one piece set one after the other are written as one piece
(compilation/piece_writes.py): what the pass joins on small functions, where it
must not, and a definition whose rules set three attributes in a row plays the
same with the pass switched off."""
import ast
import random
import textwrap

from interpreter import load_game
from interpreter.compilation import compiler
from interpreter.compilation.piece_writes import piece_writes_joined
from interpreter.compilation.source import Source
from tests.helpers import generated, write_definition


def _joined(code: str) -> str:
    src = Source()
    function = ast.parse(textwrap.dedent(code)).body[0]
    return ast.unparse(ast.fix_missing_locations(ast.Module(body=[piece_writes_joined(function, src.fresh)],
                                                            type_ignores=[])))


THREE_WRITES = """
    def f(s, l1):
        b = s.board
        x0 = b[l1]
        if x0 is not None:
            x1 = k1[l1] % 13
            x0 = (x0[0], x0[1], x0[2], x1, x0[4], x0[5])
            b[l1] = x0
        x0 = b[l1]
        if x0 is not None:
            x1 = k1[l1] // 13
            if not -1000 <= x1 <= 1000:
                h_bounded(x1, k2)
            x0 = (x0[0], x0[1], x0[2], x0[3], x1, x0[5])
            b[l1] = x0
        x0 = b[l1]
        if x0 is not None:
            b[l1] = (x0[0], x0[1], x0[2], x0[3], x0[4], 7)
"""


def test_three_attributes_of_one_site_are_one_read_and_one_piece_written():
    text = _joined(THREE_WRITES)
    assert text.count("x0 = b[l1]") == 1 and text.count("b[l1] = ") == 1
    # (a number written as it is, no temporary)
    assert "x0 = (x0[0], x0[1], x0[2], t0, t1, 7)" in text
    # (the values worked out and checked in the order written)
    assert text.index("t0 = k1[l1] % 13") < text.index("t1 = k1[l1] // 13") < text.index("h_bounded(t1, k2)")


def test_a_value_reading_the_board_or_another_site_is_not_joined():
    # (the second value reads the board the first write changed; the third writes another site)
    text = _joined(THREE_WRITES.replace("k1[l1] // 13", "(b[l1] or k0)[3] + 1").replace("b[l1] = (x0[0]",
                                                                                      "b[l2] = (x0[0]"))
    assert text.count("x0 = b[l1]") == 3
    assert "t0" not in text


def test_two_sites_are_not_joined():
    text = _joined(THREE_WRITES.replace("x0 = b[l1]\n        if x0 is not None:\n            x1 = k1[l1] // 13",
                                        "x0 = b[l2]\n        if x0 is not None:\n            x1 = k1[l1] // 13", 1))
    assert "x0 = b[l2]" in text and text.count("x0 = b[l1]") == 2


PROMOTED_THEN_NUMBERED = """
    def f(s, code):
        b = s.board
        v = s.vars
        to = code[2]
        x0 = b[to]
        if x0 is not None:
            x0 = b[to] = (x0[0], 2) + x0[2:]
        v[4] += 1
        x0 = b[to]
        if x0 is not None:
            b[to] = (x0[0], x0[1], x0[2], x0[3], v[4])
        return x0
"""


def test_a_promotion_and_an_attribute_after_a_count_are_one_piece_written_after_the_count():
    text = _joined(PROMOTED_THEN_NUMBERED)
    assert text.count("x0 = b[to]") == 1 and text.count("b[to] = ") == 1 and "x0[2:]" not in text
    assert "x0 = (x0[0], 2, x0[2], x0[3], t0)" in text
    # (the count first: the number written is the one counted)
    assert text.index("v[4] += 1") < text.index("x0 = b[to]") < text.index("t0 = v[4]")


def test_what_may_not_run_before_a_promotion_keeps_the_writes_apart():
    for between in ("v[4] = h_next(v[4])",  # (a call: it may fail, or read the piece)
                    "v[4] = (b[to] or k0)[1]",  # (the board, where the piece is promoted)
                    "to = v[4]",  # (the site)
                    "x1 = 3"):  # (the scratch)
        text = _joined(PROMOTED_THEN_NUMBERED.replace("v[4] += 1", between))
        assert text.count("x0 = b[to]\n") == 2 and "x0[2:]" in text, between
    # (what the first value reads, written between)
    text = _joined(THREE_WRITES.replace("        x0 = b[l1]\n        if x0 is not None:\n            x1 = k1[l1] //",
                                        "        k1 = k3\n        x0 = b[l1]\n        if x0 is not None:\n"
                                        "            x1 = k1[l1] //", 1))
    assert text.count("x0 = b[l1]") == 2
    # (a promotion alone, or two: no piece's length known to build it from)
    alone = PROMOTED_THEN_NUMBERED.replace("b[to] = (x0[0], x0[1], x0[2], x0[3], v[4])",
                                           "x0 = b[to] = (x0[0], 3) + x0[2:]")
    assert _joined(alone).count("x0[2:]") == 2


YAML = """game: cards
title: Cards
description: A card dealt gets its rank, suit and value in a row.
rules: game.rules
players: [a, b]
board:
  grid: {files: 13, ranks: 4}
pieces:
  card: {symbol: C}
attributes:
  rank: {type: int}
  suit: {type: int}
  val: {type: int}
variables:
  total: {type: int, per_player: true}
"""
RULES = """\
phase play:
    turn: take
decision take:
    action take:
        select sites - pieces
        onto empty:
            create card at to for player
            to.rank = file(to)
            to.suit = rank(to)
            to.val = min(file(to) + 1, 10)
            total[player] += to.val + to.suit
    after each action:
        if count(pieces) >= 20:
            end game
score: total[player]
"""


def _playouts(path: str) -> list:
    game = load_game(path)
    out = []
    for seed in range(6):
        s = game.engine.initial_state()
        game.engine.random_playout(s, random.Random(seed), 100)
        out.append((tuple(s.board), tuple(s.vars), s.result))
    return out


# A card taken, then played: promoted and numbered, the count between.
PLAYED_YAML = YAML.replace("  card: {symbol: C}\n", "  card: {symbol: C}\n  played: {symbol: P}\n").replace(
    "  val: {type: int}\n", "  val: {type: int}\n  seq: {type: int}\n").replace(
    "variables:\n", "variables:\n  n: {type: int}\n")
PLAYED_RULES = RULES.replace("""    after each action:""", """    action play:
        select pieces of player where it is card and it.val > 3
        onto own:
            promote to to played
            n += 1
            to.seq = n
            total[player] += to.seq * to.val
    after each action:""")


def test_a_card_given_three_attributes_plays_as_with_three_writes(tmp_path, monkeypatch):
    for yaml, rules in ((YAML, RULES), (PLAYED_YAML, PLAYED_RULES)):
        _plays_as_with_writes_apart(tmp_path / str(len(rules)), yaml, rules, monkeypatch)


def _plays_as_with_writes_apart(tmp_path, yaml, rules, monkeypatch):
    tmp_path.mkdir()
    path = write_definition(tmp_path, yaml, rules)
    game = load_game(path)
    writes = [n for n in generated(game) if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Subscript)
              and isinstance(n.targets[0].value, ast.Name) and n.targets[0].value.id == "b"]
    joined = _playouts(path)
    with monkeypatch.context() as patched:
        patched.setattr(compiler, "piece_writes_joined", lambda function, fresh: function)
        game_apart = load_game(path)
        assert _playouts(path) == joined
    apart = [n for n in generated(game_apart) if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Subscript)
             and isinstance(n.targets[0].value, ast.Name) and n.targets[0].value.id == "b"]
    assert len(writes) < len(apart)
    assert any(result is not None for _, _, result in joined)
