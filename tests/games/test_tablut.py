"""Tablut as bundled (games/tablut), against games/tablut/README.md.

* hand-checked positions: every expected legal list and capture below was worked
  out from the README's rules by hand, not printed by the interpreter;
* the throne (nobody else stops on it, nobody crosses it, hostile when empty),
  custodian captures, the king's capture on four sides, the escape, the loss of a
  player who cannot move, the draw by the turn limit;
* perft from the start, and a differential test against a small independent
  implementation (below, `Ref`) on random games; every random game ends; lint.
"""

from __future__ import annotations

import random

import pytest

from interpreter import IllegalActionError, load_game
from interpreter.analysis.lint import lint
from interpreter.analysis.perft import perft
from tests import helpers

GAME = load_game("tablut")
KIND = {"A": ("attackers", "soldier"), "D": ("defenders", "soldier"), "K": ("defenders", "king")}


def position(pieces: dict, to_move="attackers", turns=0, game=GAME):
    """``{site: "A" | "D" | "K"}``: attacker, defender, king."""
    return game.make_state({site: KIND[c] for site, c in pieces.items()}, to_move=to_move,
                           variables={"turns": turns})


def board(state, game=GAME):
    letter = {kind: code for code, kind in KIND.items()}
    return helpers.board(game, state, lambda p: letter[(p.owner, p.kind)])


def moves_from(state, site):
    return sorted(a for a in GAME.legal_notations(state) if a.split("-")[0] == site)


def winner(state):
    return helpers.winner(GAME, state)


# ======================================================================== start
START = {
    **{s: "A" for s in ["d1", "e1", "f1", "e2", "a4", "a5", "a6", "b5",
                        "i4", "i5", "i6", "h5", "d9", "e9", "f9", "e8"]},
    **{s: "D" for s in ["e3", "e4", "e6", "e7", "c5", "d5", "f5", "g5"]},
    "e5": "K",
}


def test_start_position():
    s = GAME.initial_state()
    assert GAME.players == ("attackers", "defenders")
    assert GAME.to_move(s) == "attackers"  # attackers move first
    assert board(s) == START
    legal = GAME.legal_notations(s)
    # each of the four attacker groups (a T of four) has 6 + 6 + 0 + 8 moves
    assert len(legal) == len(set(legal)) == 80
    assert moves_from(s, "a4") == ["a4-a1", "a4-a2", "a4-a3", "a4-b4", "a4-c4", "a4-d4"]
    assert moves_from(s, "a5") == []
    assert moves_from(s, "b5") == ["b5-b1", "b5-b2", "b5-b3", "b5-b4", "b5-b6", "b5-b7", "b5-b8", "b5-b9"]
    assert moves_from(s, "e2") == ["e2-a2", "e2-b2", "e2-c2", "e2-d2", "e2-f2", "e2-g2", "e2-h2", "e2-i2"]
    assert moves_from(s, "d1") == ["d1-a1", "d1-b1", "d1-c1", "d1-d2", "d1-d3", "d1-d4"]


def test_defenders_at_the_start():
    s = GAME.make_state({site: KIND[c] for site, c in START.items()}, to_move="defenders")
    legal = GAME.legal_notations(s)
    # per arm: the outer soldier (e3) 8, the inner one (e4) 6, the side ones (c5) 8, (d5) 6
    # -> 14 per pair, 56 in all; the king is walled in
    assert len(legal) == 56
    assert moves_from(s, "e3") == ["e3-a3", "e3-b3", "e3-c3", "e3-d3", "e3-f3", "e3-g3", "e3-h3", "e3-i3"]
    assert moves_from(s, "e4") == ["e4-b4", "e4-c4", "e4-d4", "e4-f4", "e4-g4", "e4-h4"]
    assert moves_from(s, "d5") == ["d5-d2", "d5-d3", "d5-d4", "d5-d6", "d5-d7", "d5-d8"]
    assert moves_from(s, "e5") == []


def test_perft_from_the_start():
    assert perft(GAME, GAME.initial_state(), 3) == [80, 4400, 353200]
    assert Ref.perft(START, 0, 3) == [80, 4400, 353200]


# ======================================================================== the throne
def test_only_the_king_stops_on_the_throne_and_nobody_crosses_it():
    s = position({"e8": "A", "c5": "D", "g5": "K"})
    # south from e8: e7, e6, then the empty throne: neither landing nor passing
    assert moves_from(s, "e8") == sorted(["e8-e9", "e8-e7", "e8-e6", "e8-a8", "e8-b8", "e8-c8",
                                          "e8-d8", "e8-f8", "e8-g8", "e8-h8", "e8-i8"])
    s = position({"e8": "A", "c5": "D", "g5": "K"}, to_move="defenders")
    # east from c5: d5 only
    assert moves_from(s, "c5") == sorted(["c5-d5", "c5-b5", "c5-a5", "c5-c1", "c5-c2", "c5-c3",
                                          "c5-c4", "c5-c6", "c5-c7", "c5-c8", "c5-c9"])
    # west from g5: f5 and the throne itself, but not beyond it
    assert moves_from(s, "g5") == sorted(["g5-f5", "g5-e5", "g5-h5", "g5-i5", "g5-g1", "g5-g2",
                                          "g5-g3", "g5-g4", "g5-g6", "g5-g7", "g5-g8", "g5-g9"])
    t = GAME.apply(s, "g5-e5")
    assert board(t)["e5"] == "K"
    with pytest.raises(IllegalActionError):
        GAME.apply(s, "g5-d5")


def test_king_leaves_the_throne_in_any_direction():
    s = position({"e5": "K", "a1": "A"}, to_move="defenders")
    assert moves_from(s, "e5") == sorted(
        [f"e5-e{r}" for r in (1, 2, 3, 4, 6, 7, 8, 9)] + [f"e5-{f}5" for f in "abcdfghi"])


# ======================================================================== captures
def test_custodian_capture():
    s = position({"c8": "A", "a6": "A", "c7": "D", "g2": "K"})
    t = GAME.apply(s, "a6-c6")
    assert board(t) == {"c8": "A", "c6": "A", "g2": "K"}


def test_two_captures_at_once():
    s = position({"c1": "A", "c8": "A", "e6": "A", "c7": "D", "d6": "D", "g2": "K"})
    t = GAME.apply(s, "c1-c6")
    assert board(t) == {"c6": "A", "c8": "A", "e6": "A", "g2": "K"}


def test_moving_between_two_enemies_is_safe():
    s = position({"c1": "A", "b6": "D", "d6": "D", "g2": "K", "i9": "A"})
    t = GAME.apply(s, "c1-c6")
    assert board(t)["c6"] == "A"
    t = GAME.apply(t, "g2-g3")  # a quiet defender move: the attacker still stands
    assert board(t)["c6"] == "A"
    # a capture needs the enemy on the far side in the same line
    s = position({"c1": "A", "c7": "D", "b8": "A", "g2": "K"})
    assert board(GAME.apply(s, "c1-c6"))["c7"] == "D"


def test_no_capture_of_own_pieces_or_against_the_edge():
    s = position({"a3": "A", "b2": "A", "b1": "D", "g7": "K"})
    t = GAME.apply(s, "a3-b3")  # b2 is own: nothing happens to it
    assert board(t) == {"b3": "A", "b2": "A", "b1": "D", "g7": "K"}
    # a1 against the edge: not captured (nothing lies beyond it; i9, the last
    # site, must not be mistaken for the site beyond)
    s = position({"c2": "A", "a1": "D", "i9": "A", "g7": "K"})
    t = GAME.apply(s, "c2-a2")
    assert board(t) == {"a2": "A", "a1": "D", "i9": "A", "g7": "K"}


def test_the_empty_throne_is_hostile_to_both_sides():
    # an attacker on e7 takes the defender on e6 against the empty throne
    s = position({"a7": "A", "e6": "D", "g2": "K"})
    assert board(GAME.apply(s, "a7-e7")) == {"e7": "A", "g2": "K"}
    # a defender on c5 takes the attacker on d5 against the empty throne
    s = position({"c1": "D", "d5": "A", "g2": "K"}, to_move="defenders")
    assert board(GAME.apply(s, "c1-c5")) == {"c5": "D", "g2": "K"}


def test_the_occupied_throne_is_the_king():
    # the king on the throne does not help the attackers ...
    s = position({"a7": "A", "e6": "D", "e5": "K"})
    assert board(GAME.apply(s, "a7-e7"))["e6"] == "D"
    # ... but is a defender like any other for his own side
    s = position({"c1": "D", "d5": "A", "e5": "K"}, to_move="defenders")
    assert board(GAME.apply(s, "c1-c5")) == {"c5": "D", "e5": "K"}


def test_the_king_captures_and_helps_capture():
    # the king as the moving piece
    s = position({"c7": "K", "d3": "A", "e3": "D", "i9": "A"}, to_move="defenders")
    assert board(GAME.apply(s, "c7-c3")) == {"c3": "K", "e3": "D", "i9": "A"}
    # the king as the piece on the far side
    s = position({"g1": "D", "g3": "A", "g4": "K", "i9": "A"}, to_move="defenders")
    assert board(GAME.apply(s, "g1-g2")) == {"g2": "D", "g4": "K", "i9": "A"}


def test_the_king_is_not_captured_between_two():
    s = position({"b3": "A", "d7": "A", "c3": "K"})
    t = GAME.apply(s, "d7-d3")
    assert board(t) == {"b3": "A", "d3": "A", "c3": "K"} and winner(t) == "unfinished"


# ======================================================================== the king
def test_king_captured_on_four_sides():
    s = position({"b3": "A", "c4": "A", "c2": "A", "d7": "A", "c3": "K"})
    t = GAME.apply(s, "d7-d3")
    assert winner(t) == "attackers" and GAME.is_terminal(t)
    # a defender on one side saves him
    s = position({"b3": "A", "c4": "A", "c2": "D", "d7": "A", "c3": "K"})
    assert winner(GAME.apply(s, "d7-d3")) == "unfinished"


def test_king_beside_the_throne_needs_three_attackers():
    s = position({"d4": "A", "f4": "A", "a3": "A", "e4": "K"})
    assert winner(GAME.apply(s, "a3-e3")) == "attackers"
    s = position({"d4": "A", "f4": "D", "a3": "A", "e4": "K"})
    assert winner(GAME.apply(s, "a3-e3")) == "unfinished"


def test_king_on_the_throne_needs_four_attackers():
    s = position({"d5": "A", "f5": "A", "e6": "A", "a4": "A", "e5": "K"})
    assert winner(GAME.apply(s, "a4-e4")) == "attackers"
    s = position({"d5": "A", "f5": "A", "e7": "A", "a4": "A", "e5": "K"})
    assert winner(GAME.apply(s, "a4-e4")) == "unfinished"


def test_king_escapes_to_the_edge():
    s = position({"c5": "K", "b7": "A", "g3": "A"}, to_move="defenders")
    # the king sees the edge at a5 (west), c9 and c1 (north, south); e5 is the throne
    assert moves_from(s, "c5") == sorted(["c5-a5", "c5-b5", "c5-d5", "c5-e5", "c5-c1", "c5-c2",
                                          "c5-c3", "c5-c4", "c5-c6", "c5-c7", "c5-c8", "c5-c9"])
    for escape in ("c5-a5", "c5-c9", "c5-c1"):
        assert winner(GAME.apply(s, escape)) == "defenders"
    assert winner(GAME.apply(s, "c5-c8")) == "unfinished"
    # a soldier on the edge wins nothing
    s = position({"c5": "K", "b7": "D", "g3": "A"}, to_move="defenders")
    assert winner(GAME.apply(s, "b7-b9")) == "unfinished"


# ======================================================================== the end
def test_a_player_who_cannot_move_loses():
    s = position({"a1": "A", "a2": "D", "b1": "D", "e5": "K"})
    assert GAME.legal_notations(s) == [] and winner(s) == "defenders"
    s = position({"d5": "A", "f5": "A", "e4": "A", "e6": "A", "e5": "K"}, to_move="defenders")
    assert GAME.legal_notations(s) == [] and winner(s) == "attackers"


def test_draw_by_the_turn_limit():
    g = load_game("tablut", options={"max_turns": 4})
    s = g.initial_state()
    for a in ("a4-a3", "e3-d3", "a6-a7", "e7-d7"):
        assert not g.is_terminal(s)
        s = g.apply(s, a)
    assert g.result(s).winner is None and g.is_terminal(s)
    assert GAME.options["max_turns"] == 200
    s = position({"a3": "A", "g2": "K"}, turns=199)
    t = GAME.apply(s, "a3-a2")
    assert GAME.result(t).winner is None and GAME.variables(t)["turns"] == 200


# ======================================================================== random games
def test_random_games_end_and_agree_with_the_reference():
    rng = random.Random(5)
    for _ in range(40):
        s = GAME.initial_state()
        ref = dict(START)
        to_move, turns = 0, 0
        while True:
            expected, result = Ref.status(ref, to_move, turns)
            assert GAME.legal_notations(s) == expected
            if result is not None or not expected:
                assert GAME.is_terminal(s)
                assert GAME.result(s).winner == (None if result == "draw" else result)
                break
            move = rng.choice(expected)
            s = GAME.apply(s, move)
            ref, result = Ref.apply(ref, to_move, move)
            assert board(s) == ref
            if result is not None:
                assert GAME.result(s).winner == result
                break
            to_move, turns = 1 - to_move, turns + 1


def test_lint_is_clean():
    report = lint(GAME, playouts=100)
    assert report.ok and report.finished == 100, report.findings


# ======================================================================== reference
class Ref:
    """An independent Tablut (as in the README), on ``{site: "A"|"D"|"K"}``."""

    SIDES = ("attackers", "defenders")
    DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))
    THRONE = (4, 4)

    @staticmethod
    def xy(site):
        return ord(site[0]) - 97, int(site[1:]) - 1

    @staticmethod
    def name(x, y):
        return f"{chr(97 + x)}{y + 1}"

    @classmethod
    def mine(cls, piece, side):
        return piece is not None and ((piece == "A") == (side == 0))

    @classmethod
    def legal(cls, b, side):
        out = []
        for site, piece in b.items():
            if not cls.mine(piece, side):
                continue
            x, y = cls.xy(site)
            for dx, dy in cls.DIRS:
                nx, ny = x + dx, y + dy
                while 0 <= nx < 9 and 0 <= ny < 9 and cls.name(nx, ny) not in b:
                    if (nx, ny) == cls.THRONE:
                        if piece == "K":
                            out.append(f"{site}-{cls.name(nx, ny)}")
                        break
                    out.append(f"{site}-{cls.name(nx, ny)}")
                    nx, ny = nx + dx, ny + dy
        return sorted(out)

    @classmethod
    def apply(cls, b, side, move):
        """(new board, winner or None)."""
        frm, to = move.split("-")
        b = dict(b)
        piece = b.pop(frm)
        b[to] = piece
        x, y = cls.xy(to)
        winner = None
        for dx, dy in cls.DIRS:
            v = (x + dx, y + dy)
            vs = cls.name(*v) if 0 <= v[0] < 9 and 0 <= v[1] < 9 else None
            victim = b.get(vs) if vs else None
            if victim is None or cls.mine(victim, side):
                continue
            if victim == "K":
                hostile = 0
                for ex, ey in cls.DIRS:
                    w = (v[0] + ex, v[1] + ey)
                    if not (0 <= w[0] < 9 and 0 <= w[1] < 9):
                        continue
                    if b.get(cls.name(*w)) == "A" or (w == cls.THRONE and cls.name(*w) not in b):
                        hostile += 1
                if hostile == 4:
                    winner = "attackers"
                continue
            a = (v[0] + dx, v[1] + dy)
            if not (0 <= a[0] < 9 and 0 <= a[1] < 9):
                continue
            anvil = b.get(cls.name(*a))
            if cls.mine(anvil, side) or (a == cls.THRONE and anvil is None):
                del b[vs]
        if winner is None and piece == "K" and (x in (0, 8) or y in (0, 8)):
            winner = "defenders"
        return b, winner

    @classmethod
    def status(cls, b, side, turns, max_turns=200):
        """(legal moves, result): result "draw", a winner, or None."""
        if turns >= max_turns:
            return [], "draw"
        legal = cls.legal(b, side)
        return legal, (None if legal else cls.SIDES[1 - side])

    @classmethod
    def perft(cls, b, side, depth):
        counts = [0] * depth

        def walk(b, side, d):
            legal = cls.legal(b, side)
            counts[d] += len(legal)
            if d + 1 == depth:
                return
            for m in legal:
                nb, won = cls.apply(b, side, m)
                if won is None:
                    walk(nb, 1 - side, d + 1)

        walk(b, side, 0)
        return counts
