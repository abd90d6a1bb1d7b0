"""`forbid result` asked only of the cases it can forbid: a condition about the
acting piece's kind (`piece is wall`) is known for a case whose action moves or
drops known kinds and does not change the piece; a case none of whose lines can
hold is not checked (its check is None: the runtime plays no copy)."""
from interpreter import load_game
from tests.helpers import write_definition

YAML = """\
game: probe
title: Probe
description: Stones and walls on a small board.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 4, ranks: 4}
regions:
  top: {ranks: [4]}
pieces:
  stone: {symbol: S}
  wall: {symbol: W}
"""
# A wall (not a stone) must leave a1 a way of empty sites to the top rank; a stone
# stepping onto the top rank becomes a wall there (promotion: checked).
RULES = """\
define open_way = exists(connected(a1, orthogonal, it is empty or it == a1), it in top)
forbid result where piece is wall and not open_way
phase play:
    turn: place
decision place:
    action stone:
        drop stone on sites
        where to != a1
        notation "{to}"
        onto empty: place
    action wall:
        drop wall on sites
        where to != a1
        notation "{to}w"
        onto empty: place
    action grow by stone:
        step e
        notation "{from}-{to}"
        onto empty:
            move
            promote piece to wall
"""


def _case(game, label: str) -> int:
    return next(i for i, case in enumerate(game.rules.cases) if case.label.startswith(f"action '{label}'"))


def test_a_case_that_cannot_be_forbidden_is_not_checked(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    checks = game.rules.result_checks[0]
    assert checks[_case(game, "stone")] is None
    assert checks[_case(game, "wall")] is not None
    assert checks[_case(game, "grow")] is not None  # (the piece it moved is a wall afterwards)


def test_the_legal_actions_are_those_of_the_rule(tmp_path):
    game = load_game(write_definition(tmp_path, YAML, RULES))
    state = game.initial_state()
    for site in ("a3", "b3", "c3"):
        state = game.apply(state, site)
    #   4  .  .  .  .
    #   3  S  S  S  .      a1's one way to the top leads through d2, d3 and d4
    #   2  .  .  .  .
    #   1  .  .  .  .
    legal = game.legal_notations(state)
    # stones anywhere; walls not on d2, d3, d4
    assert {"d2", "d3", "d4"} <= set(legal)
    assert sorted(n for n in legal if n.endswith("w")) == ["a2w", "a4w", "b1w", "b2w", "b4w", "c1w", "c2w", "c4w",
                                                           "d1w"]
    # c3 grows to d3 (a wall there closes the way) — forbidden; a3 and b3 cannot step (taken)
    assert not [n for n in legal if "-" in n]
    state = game.apply(state, "d1")
    # c3 to d3 leaves c3 open: a1 reaches c4 by a2, b2, c2, c3
    assert "c3-d3" in game.legal_notations(state)


def test_a_promoted_piece_is_asked_about_as_what_it_became(tmp_path):
    rules = RULES.replace("forbid result where piece is wall and not open_way", "forbid result where piece is wall")
    game = load_game(write_definition(tmp_path, YAML, rules))
    state = game.apply(game.initial_state(), "a2")
    assert game.legal_notations(state)[:3] == ["a3", "a4", "b1"]
    assert not [n for n in game.legal_notations(state) if n.endswith("w")]
    state = game.apply(state, "c3")
    assert not [n for n in game.legal_notations(state) if "-" in n]  # a2-b2 would make a wall


# A second line that does not read the acting piece: a board left without an empty
# site (beside a1) is forbidden, whatever moved.
FULL = "define full = not exists(sites, it is empty and it != a1)\nforbid result where full\n"


def test_a_line_not_reading_the_piece_is_compiled_once_for_every_set_of_kinds(tmp_path, monkeypatch):
    from interpreter.compilation import compiler, expressions

    compiled = []
    lowered = expressions.ExpressionCompiler.lowered

    def counting(self, e, scope, *args, **kwargs):
        compiled.append((getattr(e, "id", None), scope.piece_kinds))
        return lowered(self, e, scope, *args, **kwargs)

    asked = []
    result_code_for = compiler.Compiler.result_code_for

    def asking(self, kinds):
        asked.append(kinds)
        return result_code_for(self, kinds)

    monkeypatch.setattr(expressions.ExpressionCompiler, "lowered", counting)
    monkeypatch.setattr(compiler.Compiler, "result_code_for", asking)
    game = load_game(write_definition(tmp_path, YAML, FULL + RULES))
    assert len({kinds for kinds in asked if kinds is not None}) >= 2, "cases of different kinds asked"
    full = [kinds for name, kinds in compiled if name == "full"]
    # once for any piece, once for the first set of kinds: not again for the others
    assert len(full) == 2 and full[0] is None and full[1] is not None
    # and it forbids: 13 of the 15 sites beside a1 taken by stones (a1's way to the top
    # closed: no wall), two left, of which the second may not be filled
    state = game.initial_state()
    for site in ("a2", "a3", "a4", "b1", "b2", "b3", "b4", "c1", "c2", "c3", "c4", "d1", "d2"):
        state = game.apply(state, site)
    assert game.legal_notations(state) == ["d3", "d4"]
    assert game.legal_notations(game.apply(state, "d3")) == []
