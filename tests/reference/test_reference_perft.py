"""Tests of the reference implementations (tests/reference/*_ref.py).

* every count of tests/data/perft.md (the public, notation-based API; the
  Lielow depth-4 count also on the fast path, which runs in the normal suite;
  through the public API it is marked slow: REGELWERK_SLOW=1);
* hand-checked positions pinning the tricky rules of each game;
* the fast path checked against deliberately naive generators written here from
  the rules text (own coordinate arithmetic, own RoyalFiz graph), on random games;
* the replay-JSON driver.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from tests.helpers import record_actions
from tests.reference import common, lielow_ref, regibus_ref, royalfiz_ref


def perft_counts(game, state, depth):
    return [common.perft(game, state, d) for d in range(1, depth + 1)]


# =============================================================== tests/data/perft.md
def test_perft_lielow_start():
    g = lielow_ref.Game()
    assert perft_counts(g, g.initial(), 3) == [46, 2116, 97520]


def test_perft_lielow_start_depth4_fast_path():
    g = lielow_ref.Game()
    assert common.fast_perft(g, g.fast_initial(), 4) == 4426560


@pytest.mark.slow
def test_perft_lielow_start_depth4_public_api():
    g = lielow_ref.Game()
    assert common.perft(g, g.initial(), 4) == 4426560


REGIBUS_OPTIONS = [{}, {"capture": "whole"}, {"travel_min": 2},
                   {"capture": "whole", "travel_min": "2", "quiet_limit": "7"}]


@pytest.mark.parametrize("options", REGIBUS_OPTIONS)
def test_perft_regibus_start(options):
    g = regibus_ref.Game(options)
    assert perft_counts(g, g.initial(), 3) == [32, 1024, 31744]


@pytest.mark.parametrize("options", REGIBUS_OPTIONS)
@pytest.mark.parametrize("name, counts", [
    ("regibus-contact.txt", [5, 32, 334, 3528]),
    ("regibus-baselines.txt", [9, 81, 999, 12321]),
])
def test_perft_regibus_records(options, name, counts):
    g = regibus_ref.Game(options)
    state = common.replay(g, record_actions(name))
    assert perft_counts(g, state, 4) == counts
    assert [common.fast_perft(g, state, d) for d in (1, 2, 3, 4)] == counts


@pytest.mark.parametrize("players, counts", [
    (4, [4, 24, 60, 544]),
    (3, [3, 18, 45, 408]),
    (2, [2, 12, 30, 272]),
])
def test_perft_royalfiz_start(players, counts):
    g = royalfiz_ref.Game({"players": players})
    assert perft_counts(g, g.initial(), 4) == counts
    assert [common.fast_perft(g, g.fast_initial(), d) for d in (1, 2, 3, 4)] == counts


# =============================================================== Lielow
class TestLielow:
    g = lielow_ref.Game()

    def after(self, *actions):
        return common.replay(self.g, actions)

    def test_first_moves_hand_check(self):
        legal = self.g.legal(self.g.initial())
        assert len(legal) == len(set(legal)) == 46
        assert sorted(a for a in legal if a.startswith("a2")) == [
            "a2-a1", "a2-a3", "a2-b1", "a2-b3", "a2-off"]
        assert sorted(a for a in legal if a.endswith("off")) == ["a2-off", "h2-off"]
        assert sorted(a for a in legal if a.startswith("d2")) == [
            "d2-c1", "d2-c3", "d2-d1", "d2-d3", "d2-e1", "d2-e3"]

    def test_no_king_before_first_move_and_crown_after(self):
        s = self.g.initial()
        assert s.kings == [-1, -1]
        s = self.after("d2-d3")
        assert s.kings == [lielow_ref.INDEX["d3"], -1]  # Black has not moved: no king
        s = self.g.apply(s, "e7-e6")
        assert s.kings == [lielow_ref.INDEX["d3"], lielow_ref.INDEX["e6"]]

    def test_tie_keeps_the_king_and_crown_moves_with_the_piece(self):
        s = self.after("d2-d3", "a7-a6", "e2-e3")  # e3 ties d3 at range 2
        assert s.kings[0] == lielow_ref.INDEX["d3"]
        s = self.g.apply(self.g.apply(s, "b7-b6"), "d3-d5")  # king moves: crown with it
        assert s.kings[0] == lielow_ref.INDEX["d5"]
        assert s.board[lielow_ref.INDEX["d5"]] == 3
        s = self.g.apply(self.g.apply(s, "c7-c6"), "e3-e5")  # 3 = 3: no change
        assert s.kings[0] == lielow_ref.INDEX["d5"]

    def test_off_board_once_per_piece(self):
        # a range-5 piece on a1 leaves the board in five directions: one action
        s = self.g.position({"a1": 5, "h2": 1}, {"h8": 2}, kings=("a1", "h8"))
        legal = self.g.legal(s)
        assert sorted(a for a in legal if a.startswith("a1")) == [
            "a1-a6", "a1-f1", "a1-f6", "a1-off"]

    def test_range_grows_on_empty_and_resets_on_capture(self):
        s = self.g.position({"c3": 2, "a1": 1}, {"e5": 1, "h8": 3}, kings=("c3", "h8"))
        assert "c3xe5" in self.g.legal(s) and "c3-e3" in self.g.legal(s)
        t = self.g.apply(s, "c3xe5")
        assert t.board[lielow_ref.INDEX["e5"]] == 1 and not t.over
        t = self.g.apply(s, "c3-e3")
        assert t.board[lielow_ref.INDEX["e3"]] == 3

    def test_passes_over_pieces_but_not_onto_own(self):
        s = self.g.position({"a1": 2, "a2": 1, "a3": 1}, {"h8": 2}, kings=("a1", "h8"))
        legal = self.g.legal(s)
        assert "a1-a3" not in legal and "a1-c3" in legal and "a1-c1" in legal

    def test_capturing_the_king_wins(self):
        s = self.g.position({"d4": 2, "a1": 1}, {"d6": 2, "h8": 1},
                            kings=("d4", "d6"), to_move="black")
        t = self.g.apply(s, "d6xd4")
        assert self.g.is_terminal(t) and self.g.to_move(t) is None
        assert self.g.result(t) == ("black", {"white": 0, "black": 1})

    def test_capturing_a_non_king_does_not_win(self):
        s = self.g.position({"d4": 2, "a1": 3}, {"d6": 2, "h8": 1},
                            kings=("a1", "d6"), to_move="black")
        t = self.g.apply(s, "d6xd4")
        assert not self.g.is_terminal(t)
        # the capturer (Black's king) is back to range 1, tied with h8: the crown stays on it
        assert t.kings[1] == lielow_ref.INDEX["d4"]

    def test_own_king_off_board_loses(self):
        s = self.after("a2-a3", "h7-h6")
        assert "a3-off" in self.g.legal(s)
        t = self.g.apply(s, "a3-off")
        assert self.g.result(t) == ("black", {"white": 0, "black": 1})

    def test_non_king_off_board_is_no_loss(self):
        # the king keeps its crown at range 1 after a capture (tie among the others)
        s = self.g.position({"c3": 1, "a4": 2, "h5": 2}, {"h8": 2},
                            kings=("c3", "h8"))
        t = self.g.apply(s, "a4-off")
        assert not self.g.is_terminal(t)
        assert t.kings[0] == lielow_ref.INDEX["h5"]  # h5 is now the unique greatest
        t = self.g.apply(s, "c3-c4")
        assert t.kings[0] == lielow_ref.INDEX["c4"]  # 2 = 2 = 2: the crown stays on it

    def test_kings_as_they_stood_before_the_move(self):
        # White's king b2 has range 1 (it captured); e4 and c2 tie at 2. Black takes
        # e4, a greatest piece but not the king: no win; then c2 is the unique greatest.
        s = self.g.position({"b2": 1, "e4": 2, "c2": 2}, {"e6": 2, "h8": 1},
                            kings=("b2", "e6"), to_move="black")
        t = self.g.apply(s, "e6xe4")
        assert not self.g.is_terminal(t)
        # Black's crown moved with its capturing king (range 1, tied with h8)
        assert t.kings == [lielow_ref.INDEX["c2"], lielow_ref.INDEX["e4"]]
        # the king at range 1 leaving the board loses, though others have greater ranges
        s = self.g.position({"a1": 1, "h1": 2, "g1": 2}, {"h8": 1}, kings=("a1", "h8"))
        assert self.g.result(self.g.apply(s, "a1-off"))[0] == "black"

    def test_player_without_king_cannot_lose_or_be_beaten(self):
        s = self.after("a2-off")
        assert s.kings == [-1, -1]
        s = self.g.apply(s, "a7-a6")
        t = self.g.apply(s, "h2-off")  # still no White king: no loss
        assert not self.g.is_terminal(t) and t.kings[0] == -1
        s = self.g.position({"a1": 1, "b1": 1}, {"a2": 1, "h8": 2},
                            kings=(None, "h8"), to_move="black")
        assert not self.g.is_terminal(self.g.apply(s, "a2xa1"))

    def test_first_king_and_last_piece_is_king(self):
        s = self.g.position({"d4": 1, "a1": 1}, {"d5": 3, "h8": 1},
                            kings=(None, "d5"), to_move="black")
        t = self.g.apply(s, "d5-d2")
        t = self.g.apply(t, "a1-b2")  # range 2: unique greatest, White's first king
        assert t.kings[0] == lielow_ref.INDEX["b2"]
        s = self.g.position({"d4": 1, "a1": 1}, {"d5": 1, "h8": 1},
                            kings=(None, "h8"), to_move="black")
        t = self.g.apply(s, "d5xd4")
        assert t.kings[0] == lielow_ref.INDEX["a1"]  # the only piece left

    def test_depth4_hand_check(self):
        # 32 White first moves make a king that can leave the board at ply 3
        g, n = self.g, 0
        for a in g.legal(g.initial()):
            t = g.apply(g.initial(), a)
            k = t.kings[0]
            if k >= 0 and lielow_ref.TARGETS[k][t.board[k]][1]:
                n += 1
        assert n == 32


# =============================================================== Regibus
def sq(site):
    return regibus_ref.INDEX[site]


class TestRegibus:
    g = regibus_ref.Game()

    def test_setup_phase(self):
        g = self.g
        s = g.initial()
        assert g.to_move(s) == "white"
        assert sorted(g.legal(s)) == sorted("@" + regibus_ref.NAMES[q] for q in range(32))
        s = g.apply(s, "@c3")
        assert g.to_move(s) == "black"
        assert set(g.legal(s)) == {"@" + regibus_ref.NAMES[q] for q in range(32, 64)}
        s = common.replay(g, record_actions("regibus-contact.txt"))
        assert g.to_move(s) == "white" and s.pools == [0, 0] and s.quiet == 0

    def test_contact_moves_and_top_capture(self):
        g = self.g
        s = common.replay(g, record_actions("regibus-contact.txt"))
        assert sorted(g.legal(s)) == ["a4xa6", "b4xb6", "c4xc6", "d3-e3", "d4xd6"]
        t = g.apply(s, "a4xa6")
        assert t.board[sq("a6")] == (0, regibus_ref.PRINCE, 1, 1, False)
        assert t.board[sq("a5")] is None and t.board[sq("a4")] is None
        assert t.quiet == 0 and t.pools == [0, 0] and g.to_move(t) == "black"
        w = regibus_ref.Game({"capture": "whole"}).apply(s, "a4xa6")
        assert w.board[sq("a6")] == (0, regibus_ref.PRINCE, 1, 1, False)

    def test_top_and_whole_capture_of_a_stack(self):
        figs = {"c3": ("white", "knight"), "c4": ("black", "king", (1, 2)),
                "h8": ("black", "knight"), "a1": ("white", "knight")}
        top = regibus_ref.Game({"capture": "top"})
        s = top.position(figs)
        pools = list(s.pools)
        t = top.apply(s, "c3xc5")
        assert t.board[sq("c5")] == (0, regibus_ref.PRINCE, 1, 1, False)
        assert t.pools == [pools[0] + 1, pools[1] + 1]
        whole = regibus_ref.Game({"capture": "whole"})
        t = whole.apply(whole.position(figs), "c3xc5")
        assert t.board[sq("c5")] == (0, regibus_ref.PRINCE, 2, 2, False)
        assert t.pools == pools

    def test_moves_of_each_rank(self):
        g = self.g
        s = g.position({"d2": ("white", "knight"), "b2": ("white", "prince"),
                        "g2": ("white", "king"), "e6": ("white", "emperor"),
                        "h8": ("black", "knight")}, crowned=(True, False))
        legal = set(g.legal(s))
        assert {a for a in legal if a.startswith("d2")} == {"d2-d3", "d2-c2", "d2-e2"}
        assert {a for a in legal if a.startswith("b2")} == {"b2-b4", "b2-a2", "b2-c2"}
        assert {a for a in legal if a.startswith("g2")} == {
            "g2-f1", "g2-g1", "g2-h1", "g2-f2", "g2-h2", "g2-f3", "g2-g3", "g2-h3"}
        # emperor: 1 or 2 squares; after a coronation not onto/over Rome (d5, e5)
        em = {a for a in legal if a.startswith("e6")}
        assert em == {"e6-e7", "e6-e8", "e6-f7", "e6-g8", "e6-d7", "e6-c8", "e6-f6", "e6-g6",
                      "e6-d6", "e6-c6", "e6-f5", "e6-g4"}

    def test_prince_needs_the_passed_square_empty(self):
        g = self.g
        s = g.position({"b2": ("white", "prince"), "b3": ("black", "knight"),
                        "h8": ("black", "knight")})
        legal = set(g.legal(s))
        assert "b2-b4" not in legal and "b2xb5" not in legal
        s = g.position({"b2": ("white", "prince"), "b4": ("black", "knight"),
                        "h8": ("black", "knight")})
        assert "b2xb5" in g.legal(s) and "b2-b4" not in g.legal(s)

    def test_king_capture_distance_is_its_height(self):
        g = self.g
        figs = {"a1": ("white", "king", 2), "a3": ("black", "knight"),
                "c1": ("black", "knight"), "d4": ("black", "knight"), "h8": ("black", "knight")}
        legal = set(g.legal(g.position(figs)))
        # a3 and c1 at distance 2 <= 2 stones; d4 at distance 3
        assert {a for a in legal if "x" in a} == {"a1xa4", "a1xd1"}
        s = g.position({"a1": ("white", "king", 2), "d1": ("black", "knight"),
                        "h8": ("black", "knight")})
        assert not any("x" in a for a in g.legal(s))  # distance 3 > 2
        s = g.position({"a1": ("white", "king", 3), "d1": ("black", "knight"),
                        "h8": ("black", "knight")})
        assert "a1xe1" in g.legal(s)

    def test_king_capture_distance_exact(self):
        g = self.g
        s = g.position({"a1": ("white", "king", 2), "c1": ("black", "knight"),
                        "a2": ("white", "knight"), "h8": ("black", "knight")})
        assert "a1xd1" in g.legal(s)
        s = g.position({"a1": ("white", "king", 2), "b1": ("white", "knight"),
                        "c1": ("black", "knight"), "h8": ("black", "knight")})
        assert "a1xd1" not in g.legal(s)  # a square between is not empty

    def test_emperor_captures_at_any_distance_and_only_kings_capture_emperors(self):
        g = self.g
        s = g.position({"a1": ("white", "emperor"), "a7": ("black", "knight"),
                        "h8": ("black", "knight")}, crowned=(True, False))
        assert "a1xa8" in g.legal(s)
        figs = {"c3": ("white", "knight"), "c4": ("black", "emperor"),
                "b4": ("white", "prince"), "f4": ("white", "king"), "a1": ("white", "knight")}
        legal = set(g.legal(g.position(figs, crowned=(False, True))))
        assert "c3xc5" not in legal and "b4xd4" not in legal
        figs["d4"] = ("white", "king")
        del figs["b4"]
        legal = set(g.legal(g.position(figs)))
        assert "d4xb4" in legal  # a king captures the emperor

    def test_travel(self):
        g = self.g
        figs = {"a1": ("white", "king", 3), "h8": ("black", "knight"), "b2": ("black", "knight")}
        legal = g.legal(g.position(figs))
        assert len(legal) == len(set(legal))
        edge_empty = [n for n in regibus_ref.NAMES if regibus_ref.EDGE[sq(n)]
                      and n not in ("a1", "h8")]
        assert sorted(legal) == sorted(["a1xc3"] + ["a1-" + n for n in edge_empty])
        figs["a1"] = ("white", "king", 2)
        assert sorted(g.legal(g.position(figs))) == ["a1-a2", "a1-b1", "a1xc3"]
        g2 = regibus_ref.Game({"travel_min": 2})
        assert len(g2.legal(g2.position(figs))) == len(edge_empty) + 1
        # not from a square off the edge
        figs = {"b2": ("white", "king", 3), "h8": ("black", "knight")}
        assert len(g.legal(g.position(figs))) == 8

    def test_promotions_and_ransom(self):
        g = self.g
        figs = {"b7": ("white", "knight"), "c7": ("black", "knight"),
                "g7": ("white", "king", 1, True), "f7": ("white", "king", 1, False),
                "a8": ("black", "knight"), "h1": ("black", "knight")}
        s = g.position(figs, pools=[3, 9])
        t = g.apply(s, "b7-b8")  # knight on the baseline: king, unmarked, no ransom
        assert t.board[sq("b8")] == (0, regibus_ref.KING, 1, 0, False) and t.pools == [3, 9]
        t = g.apply(s, "b7xd7")  # knight that captured: prince
        assert t.board[sq("d7")][1] == regibus_ref.PRINCE
        t = g.apply(s, "g7-g8")  # marked king: ransom, mark cleared
        assert t.board[sq("g8")] == (0, regibus_ref.KING, 2, 0, False) and t.pools == [2, 9]
        t = g.apply(s, "f7-f8")  # unmarked king: nothing
        assert t.board[sq("f8")] == (0, regibus_ref.KING, 1, 0, False) and t.pools == [3, 9]
        t = g.apply(g.position(figs, pools=[0, 9]), "g7-g8")  # empty pool: mark cleared
        assert t.board[sq("g8")] == (0, regibus_ref.KING, 1, 0, False)
        # a knight capturing onto the baseline becomes a king (rule 2 wins over 1)
        s = g.position({"a6": ("white", "knight"), "a7": ("black", "knight"),
                        "h1": ("black", "knight")})
        assert g.apply(s, "a6xa8").board[sq("a8")][1] == regibus_ref.KING

    def test_mark_set_in_the_middle(self):
        g = self.g
        s = g.position({"c3": ("white", "king"), "h8": ("black", "knight")})
        t = g.apply(s, "c3-c4")
        assert t.board[sq("c4")][4] is True
        t = g.apply(s, "c3-c2")
        assert t.board[sq("c2")][4] is False
        s = g.position({"c5": ("black", "prince"), "h1": ("white", "knight")}, to_move="black")
        assert g.apply(s, "c5-d5").board[sq("d5")][4] is False  # princes carry no mark

    def test_coronation(self):
        g = self.g
        figs = {"c3": ("white", "king"), "a1": ("white", "king"), "h1": ("white", "king"),
                "e6": ("black", "knight"), "h8": ("black", "knight")}
        s = g.position(figs)
        t = g.apply(s, "c3-d4")
        assert g.to_move(t) == "white" and t.crowned == [True, False]
        legal = g.legal(t)
        assert all(a.startswith("@") for a in legal)
        sites = {a[1:] for a in legal}
        assert sites == {regibus_ref.NAMES[q] for q in range(32, 64)} - {"d5", "e5", "e6", "h8"}
        u = g.apply(t, "@d7")
        assert u.board[sq("d7")] == (0, regibus_ref.EMPEROR, 1, 0, False)
        assert u.board[sq("d4")] is None and g.to_move(u) == "black" and u.quiet == 1
        # Rome is closed now: the black knight e6 cannot step to e5
        assert "e6-e5" not in g.legal(u)
        # the same player never crowns twice; two kings are not enough
        figs2 = dict(figs)
        del figs2["h1"]
        t = g.apply(g.position(figs2), "c3-d4")
        assert g.to_move(t) == "black" and t.crowned == [False, False]
        t = g.apply(g.position(figs, crowned=(True, False)), "c3-c4")
        assert "c4-d4" not in g.legal(g.apply(t, "h8-g8"))

    def test_rome_closure_and_exception(self):
        g = self.g
        figs = {"c6": ("black", "king"), "a8": ("black", "king"), "h8": ("black", "king"),
                "e7": ("black", "prince"), "d3": ("white", "knight"), "a1": ("white", "emperor"),
                "f6": ("white", "knight")}
        s = g.position(figs, to_move="black", crowned=(True, False))
        legal = set(g.legal(s))
        assert "c6-d5" in legal  # uncrowned, 3 kings: may land on Rome
        assert "e7-e5" not in legal  # the prince cannot
        t = g.apply(s, "c6-d5")
        assert g.to_move(t) == "black" and t.crowned == [True, True]
        assert all(a.startswith("@") for a in g.legal(t))
        assert {a[1:] for a in g.legal(t)} == {regibus_ref.NAMES[q] for q in range(0, 32)} - {
            "d4", "e4", "d3", "a1"}
        # two kings only: no landing
        del figs["h8"]
        assert "c6-d5" not in g.legal(g.position(figs, to_move="black", crowned=(True, False)))
        # before any coronation Rome is open to all
        assert "e7-e5" in g.legal(g.position(figs, to_move="black"))

    def test_rome_cannot_be_passed_nor_its_figures_captured(self):
        g = self.g
        figs = {"c3": ("white", "king", 4), "d4": ("black", "knight"), "h8": ("black", "knight"),
                "d2": ("white", "emperor"), "f6": ("black", "knight")}
        open_ = set(g.legal(g.position(figs, crowned=(False, False))))
        closed = set(g.legal(g.position(figs, crowned=(True, True))))
        assert "c3xe5" in open_ and "c3xe5" not in closed  # captured figure on Rome
        assert "d2-d4" not in open_  # occupied anyway
        figs2 = {"c3": ("white", "king", 4), "e5": ("black", "knight"),
                 "h8": ("black", "knight"), "a1": ("white", "knight")}
        open_ = set(g.legal(g.position(figs2)))
        closed = set(g.legal(g.position(figs2, crowned=(True, True))))
        assert "c3xf6" in open_ and "c3xf6" not in closed  # passes over d4
        figs3 = {"c2": ("white", "emperor"), "c6": ("black", "knight"),
                 "h8": ("black", "knight")}
        assert "c2xc7" in g.legal(g.position(figs3, crowned=(True, False)))
        figs4 = {"b2": ("white", "emperor"), "f6": ("black", "knight"), "h8": ("black", "knight")}
        assert "b2xg7" in g.legal(g.position(figs4))
        assert "b2xg7" not in g.legal(g.position(figs4, crowned=(True, False)))
        assert "b2-d4" not in g.legal(g.position(figs4, crowned=(True, False)))
        # a figure standing on Rome may leave it
        figs5 = {"d4": ("white", "knight"), "h8": ("black", "knight")}
        assert set(g.legal(g.position(figs5, crowned=(True, True)))) == {"d4-c4"}

    def test_end_no_legal_action_and_scores(self):
        g = self.g
        s = g.position({"a4": ("white", "knight"), "a5": ("black", "knight"),
                        "a6": ("black", "knight"), "b4": ("black", "king"),
                        "c4": ("black", "knight")})
        assert g.is_terminal(s) and g.legal(s) == [] and g.to_move(s) is None
        assert g.result(s) == ("black", {"white": 1, "black": 7})

    def test_quiet_limit(self):
        g = regibus_ref.Game({"quiet_limit": 2})
        figs = {"a1": ("white", "knight"), "h8": ("black", "knight"), "h5": ("black", "knight")}
        s = g.position(figs)
        s = g.apply(s, "a1-a2")
        assert not g.is_terminal(s) and s.quiet == 1
        s = g.apply(s, "h8-g8")
        assert g.is_terminal(s) and g.result(s) == ("black", {"white": 1, "black": 2})
        # a capture resets; a coronation turn counts once, at its placement
        g = regibus_ref.Game({"quiet_limit": 1})
        figs = {"c3": ("white", "king"), "a1": ("white", "king"), "h1": ("white", "king"),
                "e6": ("black", "knight"), "h8": ("black", "knight")}
        t = g.apply(g.position(figs), "c3-d4")
        assert not g.is_terminal(t) and t.quiet == 0
        t = g.apply(t, "@d7")
        assert g.is_terminal(t) and g.result(t) == (
            "white", {"white": 16, "black": 2})
        # equal power: a draw
        g = regibus_ref.Game({"quiet_limit": 1})
        s = g.apply(g.position({"a1": ("white", "knight"), "h8": ("black", "knight")}), "a1-a2")
        assert g.result(s) == (None, {"white": 1, "black": 1})

    def test_quiet_counter_starts_at_play_phase(self):
        g = regibus_ref.Game({"quiet_limit": 1})
        s = common.replay(g, record_actions("regibus-baselines.txt"))
        assert not g.is_terminal(s) and s.quiet == 0
        assert g.is_terminal(g.apply(s, "a2-a3"))

    def test_stones_are_conserved(self):
        for options in REGIBUS_OPTIONS:
            g = regibus_ref.Game(options)
            rng = random.Random(7)
            for _ in range(20):
                s = g.fast_initial()
                while True:
                    actions, _ = g.fast_legal(s)
                    if not actions:
                        break
                    g.fast_apply(s, rng.choice(actions))
                    on = [0, 0]
                    for fig in s.board:
                        if fig is not None:
                            on[0] += fig[2]
                            on[1] += fig[3]
                            assert fig[2 + fig[0]] >= 1  # the top stone is the owner's
                    assert [on[0] + s.pools[0], on[1] + s.pools[1]] == [12, 12]


# =============================================================== RoyalFiz
def dest(action):
    return re.split("[-x]", action)[-1]


class TestRoyalFiz:
    g = royalfiz_ref.Game()

    def test_start_and_first_rolls(self):
        g = self.g
        s = g.initial()
        assert g.to_move(s) == "chance"
        assert g.chance(s) == [("start:red", 0.25), ("start:blue", 0.25),
                               ("start:green", 0.25), ("start:yellow", 0.25)]
        s = g.apply(s, "start:blue")
        assert g.to_move(s) == "chance" and [a for a, _ in g.chance(s)] == [
            f"roll:{k}" for k in range(1, 7)]
        expected = {
            1: ["home_red-o1"],
            2: ["home_red-o2", "home_red-o40"],
            3: ["home_red-o3", "home_red-o39"],
            4: ["home_red-o38", "home_red-o4", "home_red-s1a"],
            5: ["home_red-o37", "home_red-o5", "home_red-s8a", "home_redxs1b"],
            6: ["home_red-o36", "home_red-o6", "home_redxs8b"],
        }
        for n, moves in expected.items():
            s = common.replay(g, ["start:red", f"roll:{n}"])
            assert g.to_move(s) == "red"
            assert sorted(g.legal(s)) == moves
        s = common.replay(g, ["start:green", "roll:4"])
        assert sorted(g.legal(s)) == ["home_green-o18", "home_green-o24", "home_green-s5a"]

    def test_turn_order(self):
        for players, order in [(4, ["red", "blue", "green", "yellow", "red"]),
                               (3, ["red", "blue", "green", "red"]),
                               (2, ["red", "green", "red"])]:
            g = royalfiz_ref.Game({"players": players})
            s = g.apply(g.initial(), "start:red")
            seen = []
            for _ in order:
                s = g.apply(s, "roll:1")
                seen.append(g.to_move(s))
                s = g.apply(s, g.legal(s)[0])
            assert seen == order
            assert g.players == tuple(order[:-1])

    def test_barricade_taken_and_placed(self):
        g = self.g
        s = g.position({"s1a": "red"}, "red", roll=1)
        assert sorted(g.legal(s)) == ["home_red-o1", "s1a-o3", "s1axs1b"]
        t = g.apply(s, "s1axs1b")
        assert g.to_move(t) == "red"
        sites = {a[1:] for a in g.legal(t)}
        assert "s1a" in sites and "c1" in sites  # the field just left, and c1
        assert not any(x.startswith(("o", "home")) or x == "goal" for x in sites)
        assert "s1b" not in sites and "c3" not in sites  # the mover, a barricade
        assert len(sites) == 40 - 10 - 1
        u = g.apply(t, "@c1")
        assert g.to_move(u) == "chance" and u.player == royalfiz_ref.COLOURS.index("blue")
        assert u.turns == 1

    def test_barricade_blocks_passing(self):
        g = self.g
        s = g.position({"o3": "red"}, "red", roll=3)
        legal = set(g.legal(s))
        assert "o3-i2" not in legal  # would pass s1b
        s = g.position({"o3": "red"}, "red", roll=3, barricades=[])
        assert "o3-i2" in g.legal(s)
        s = g.position({"o3": "red"}, "red", roll=2)
        assert "o3xs1b" in g.legal(s)

    def test_walks_pass_pieces_not_end_on_own_and_send_home(self):
        g = self.g
        s = g.position({"o5": "red", "o6": "red", "o7": "blue", "o8": "green"}, "red", roll=2)
        legal = set(g.legal(s))
        assert "o5-o7" not in legal and "o5xo7" in legal  # passes o6
        assert "o6xo8" in legal and "o5-o3" in legal
        t = g.apply(s, "o6xo8")
        assert t.home[2] == 5 and t.occ[royalfiz_ref.INDEX["o8"]] == 0
        s = g.position({"o5": "red", "o7": "red"}, "red", roll=2)
        assert "o5-o7" not in g.legal(s) and "o5xo7" not in g.legal(s)
        # no walk goes back and forth or returns to its start
        s = g.position({"o5": "red"}, "red", roll=2, barricades=[])
        assert "home_red-o2" in g.legal(s)
        assert not any(a.startswith("o5-o5") for a in g.legal(s))

    def test_home_is_one_starting_point(self):
        g = self.g
        s = g.position({}, "red", roll=3)
        assert sorted(g.legal(s)) == ["home_red-o3", "home_red-o39"]
        s = g.position({"o1": "red"}, "red", roll=1)
        assert "home_red-o1" not in g.legal(s)

    def test_moat_jump(self):
        g = self.g
        s = g.position({"i2": "red", "c4": "red"}, "red", roll=6)
        legal = set(g.legal(s))
        jumps = {a for a in legal if a.startswith("i2") and dest(a).startswith("c")}
        assert jumps == {"i2-c2", "i2xc3", "i2-c6", "i2xc5", "i2-c8", "i2xc7"}  # c4 own, no c1
        from_c4 = {a for a in legal if a.startswith("c4")}
        assert from_c4 >= {"c4-i1", "c4-i3", "c4-i16"} and "c4-i2" not in from_c4
        assert len(from_c4) == 15 and all(dest(a).startswith("i") for a in from_c4)
        s = g.position({"i2": "red"}, "red", roll=5)
        assert not any(dest(a).startswith("c") for a in g.legal(s))
        # a jump onto an opponent sends it home
        s = g.position({"c6": "blue", "i9": "red"}, "red", roll=6)
        t = g.apply(s, "i9xc6")
        assert t.home[1] == 5

    def test_goal(self):
        g = self.g
        s = g.position({"c2": "red"}, "red", roll=2, barricades=["c4"])
        assert "c2-goal" in g.legal(s)
        t = g.apply(s, "c2-goal")
        assert g.is_terminal(t) and g.to_move(t) is None and g.legal(t) == []
        assert g.result(t) == ("red", {"red": 1, "blue": 0, "green": 0, "yellow": 0})
        # the goal only as the last step
        s = g.position({"c1": "red"}, "red", roll=2, barricades=[])
        assert sorted(g.legal(s)) == ["c1-c3", "c1-c7", "home_red-o2", "home_red-o40"]

    def test_pass_only_without_a_move(self):
        g = self.g
        bars = ["c1", "c3", "c5", "c7", "i16", "i2", "s1b", "s2b", "s3b", "s4b", "s5b"]
        pieces = {"c2": "red", "c4": "red", "c6": "red", "c8": "red", "i1": "red"}
        s = g.position(pieces, "red", roll=2, barricades=bars)
        assert g.legal(s) == ["pass"]
        t = g.apply(s, "pass")
        assert g.to_move(t) == "chance" and t.turns == 1
        s = g.position(pieces, "red", roll=1, barricades=bars)
        assert "pass" not in g.legal(s) and "c2xc1" in g.legal(s)

    def test_max_turns_draw(self):
        g = royalfiz_ref.Game({"players": 2, "max_turns": 2})
        s = common.replay(g, ["start:green", "roll:1", "home_green-o21", "roll:1"])
        assert g.to_move(s) == "red"
        t = g.apply(s, "home_red-o1")
        assert g.is_terminal(t) and g.result(t) == (None, {"red": 0, "green": 0})


# =============================================================== naive cross-checks
def lielow_naive_legal(s):
    me = s.player
    sign = 1 if me == 0 else -1
    out = set()
    for q in range(64):
        v = s.board[q] * sign
        if v <= 0:
            continue
        f, k = q % 8, q // 8
        for df in (-1, 0, 1):
            for dk in (-1, 0, 1):
                if df == dk == 0:
                    continue
                tf, tk = f + df * v, k + dk * v
                name = lielow_ref.NAMES[q]
                if not (0 <= tf < 8 and 0 <= tk < 8):
                    out.add(name + "-off")
                    continue
                t = s.board[tf + 8 * tk] * sign
                if t > 0:
                    continue
                out.add(name + ("x" if t < 0 else "-") + "abcdefgh"[tf] + str(tk + 1))
    return out


def test_lielow_fast_path_against_naive_rules():
    g = lielow_ref.Game()
    rng = random.Random(11)
    for _ in range(300):
        s = g.initial()
        while not g.is_terminal(s):
            legal = g.legal(s)
            assert len(legal) == len(set(legal))
            assert set(legal) == lielow_naive_legal(s)
            a = rng.choice(legal)
            before = g.copy(s)
            t = g.apply(s, a)
            assert s.board == before.board and s.kings == before.kings  # not mutated
            # the king rules, recomputed from the boards
            me, opp = s.player, 1 - s.player
            frm = lielow_ref.INDEX[a[:2]]
            to = None if a.endswith("off") else lielow_ref.INDEX[a[3:]]
            if to is None and s.kings[me] == frm:
                assert t.over and t.winner == opp
            elif to is not None and s.kings[opp] == to:
                assert t.over and t.winner == me
            else:
                assert not t.over
                for q in (0, 1):
                    sign = 1 if q == 0 else -1
                    ranges = {x: t.board[x] * sign for x in range(64) if t.board[x] * sign > 0}
                    assert sorted(ranges) == sorted(t.pieces[q])
                    top = max(ranges.values())
                    best = [x for x, r in ranges.items() if r == top]
                    old = s.kings[q]
                    if old == frm:
                        old = to
                    assert t.kings[q] == (best[0] if len(best) == 1 else old)
            s = t


def regibus_naive_legal(g, s):
    b = s.board
    me = s.player
    names = regibus_ref.NAMES
    if s.placed < 24:
        ranks = range(0, 4) if me == 0 else range(4, 8)
        return {"@" + names[f + 8 * k] for f in range(8) for k in ranks if b[f + 8 * k] is None}
    if s.pending >= 0:
        ranks = range(4, 8) if me == 0 else range(0, 4)
        return {"@" + names[f + 8 * k] for f in range(8) for k in ranks
                if b[f + 8 * k] is None and names[f + 8 * k] not in ("d4", "e4", "d5", "e5")}

    def at(f, k):
        return b[f + 8 * k] if 0 <= f < 8 and 0 <= k < 8 else "off"

    def rome(f, k):
        return (f, k) in ((3, 3), (4, 3), (3, 4), (4, 4))

    closed = any(s.crowned)
    kings = sum(1 for fig in b if fig is not None and fig[0] == me and fig[1] == 2)
    exception = not s.crowned[me] and kings >= 3
    fw = 1 if me == 0 else -1
    all8 = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]
    out = set()
    for q in range(64):
        fig = b[q]
        if fig is None or fig[0] != me:
            continue
        f0, k0 = q % 8, q // 8
        rank, height = fig[1], fig[2] + fig[3]
        if rank == 0:
            steps = [((0, fw), 1), ((1, 0), 1), ((-1, 0), 1)]
            caps = steps
        elif rank == 1:
            steps = [((0, fw), 2), ((0, -fw), 2), ((1, 0), 1), ((-1, 0), 1)]
            caps = steps
        elif rank == 2:
            steps = [(v, 1) for v in all8]
            caps = [(v, d) for v in all8 for d in range(1, height + 1)]
        else:
            steps = [(v, d) for v in all8 for d in (1, 2)]
            caps = [(v, d) for v in all8 for d in range(1, 8)]
        may_land = not closed or (rank == 2 and exception)
        src = names[q]
        for (x, y), d in steps:
            path = [(f0 + x * i, k0 + y * i) for i in range(1, d + 1)]
            if any(at(*p) is not None for p in path):
                continue
            if closed and any(rome(*p) for p in path[:-1]):
                continue
            if rome(*path[-1]) and not may_land:
                continue
            out.add(src + "-" + names[path[-1][0] + 8 * path[-1][1]])
        for (x, y), d in caps:
            between = [(f0 + x * i, k0 + y * i) for i in range(1, d)]
            victim = (f0 + x * d, k0 + y * d)
            land = (f0 + x * (d + 1), k0 + y * (d + 1))
            v = at(*victim)
            if v is None or v == "off" or v[0] == me or at(*land) is not None:
                continue
            if any(at(*p) is not None for p in between):
                continue
            if v[1] == 3 and rank < 2:
                continue
            if closed and (any(rome(*p) for p in between) or rome(*victim)):
                continue
            if rome(*land) and not may_land:
                continue
            out.add(src + "x" + names[land[0] + 8 * land[1]])
        on_edge = f0 in (0, 7) or k0 in (0, 7)
        if rank >= 2 and height >= g.travel_min and on_edge:
            for t in range(64):
                if t != q and b[t] is None and (t % 8 in (0, 7) or t // 8 in (0, 7)):
                    out.add(src + "-" + names[t])
    return out


def rich_regibus_start(g, black_crowned):
    """Many kings near Rome, so random games crown and close Rome often."""
    figures = {
        "c3": ("white", "king", 2), "f3": ("white", "king"), "d2": ("white", "king", 3),
        "a1": ("white", "king", 3), "b4": ("white", "prince"), "g4": ("white", "knight"),
        "e2": ("white", "knight", (1, 1)),
        "c6": ("black", "king", 2), "f6": ("black", "king"), "e7": ("black", "king", 3),
        "h8": ("black", "king", 3), "b5": ("black", "prince"), "g5": ("black", "knight"),
        "d7": ("black", "emperor" if black_crowned else "king", (0, 2)),
    }
    return g.position(figures, pools=[4, 3], crowned=(False, black_crowned))


@pytest.mark.parametrize("options", REGIBUS_OPTIONS)
def test_regibus_fast_path_against_naive_rules(options):
    g = regibus_ref.Game(options)
    rng = random.Random(3)
    seen_closed = 0
    for game_no in range(30):
        s = g.initial() if game_no % 3 == 0 else rich_regibus_start(g, game_no % 3 == 1)
        while not g.is_terminal(s):
            legal = g.legal(s)
            assert len(legal) == len(set(legal))
            assert set(legal) == regibus_naive_legal(g, s)
            seen_closed += any(s.crowned)
            s = g.apply(s, rng.choice(legal))
        assert g.legal(s) == []
    assert seen_closed > 0


ROYALFIZ_EDGES = (
    [(f"o{k}", f"o{k % 40 + 1}") for k in range(1, 41)]
    + [(a, b) for k in range(1, 9)
       for a, b in ((f"o{5 * k - 2}", f"s{k}a"), (f"s{k}a", f"s{k}b"), (f"s{k}b", f"i{2 * k}"))]
    + [(f"i{k}", f"i{k % 16 + 1}") for k in range(1, 17)]
    + [(f"c{k}", f"c{k % 8 + 1}") for k in range(1, 9)]
    + [("goal", "c1")]
)


def royalfiz_naive_legal(s):
    nb = {}
    for a, b in ROYALFIZ_EDGES:
        nb.setdefault(a, []).append(b)
        nb.setdefault(b, []).append(a)
    colours = royalfiz_ref.COLOURS
    entry = {"red": "o1", "blue": "o11", "green": "o21", "yellow": "o31"}
    me = colours[s.player]
    occ = {royalfiz_ref.NAMES[f]: colours[c] for f, c in enumerate(s.occ) if c >= 0}
    bars = {royalfiz_ref.NAMES[f] for f in range(royalfiz_ref.N_NODES) if s.bar >> f & 1}
    n = s.roll
    out = set()

    def land(src, field):
        if occ.get(field) == me:
            return
        taken = field in occ or field in bars
        out.add(src + ("x" if taken else "-") + field)

    def walk(src, field, visited, left):
        if left == 0:
            land(src, field)
            return
        if field in bars or field == "goal":
            return
        for nxt in nb[field]:
            if nxt not in visited:
                walk(src, nxt, visited | {nxt}, left - 1)

    starts = [f for f, c in occ.items() if c == me]
    for f in starts:
        for nxt in nb[f]:
            walk(f, nxt, {f, nxt}, n - 1)
        if n == 6 and f.startswith("i"):
            for k in range(2, 9):
                land(f, f"c{k}")
        if n == 6 and f.startswith("c"):
            for k in range(1, 17):
                land(f, f"i{k}")
    if s.home[s.player]:
        walk(f"home_{me}", entry[me], {entry[me]}, n - 1)
    return out or {"pass"}


@pytest.mark.parametrize("players", [4, 3, 2])
def test_royalfiz_fast_path_against_naive_rules(players):
    g = royalfiz_ref.Game({"players": players})
    rng = random.Random(5)
    moves_checked = 0
    for _ in range(10):
        s = g.initial()
        while not g.is_terminal(s):
            legal = g.legal(s)
            assert len(legal) == len(set(legal))
            if s.phase == royalfiz_ref.MOVE:
                assert set(legal) == royalfiz_naive_legal(s)
                moves_checked += 1
            elif s.phase == royalfiz_ref.PLACE:
                names = {royalfiz_ref.NAMES[f] for f in range(royalfiz_ref.N_NODES)}
                occupied = {royalfiz_ref.NAMES[f] for f, c in enumerate(s.occ) if c >= 0}
                bars = {royalfiz_ref.NAMES[f] for f in range(royalfiz_ref.N_NODES)
                        if s.bar >> f & 1}
                expected = {"@" + x for x in names - occupied - bars
                            if x[0] in "sic"}
                assert set(legal) == expected
            if g.to_move(s) == "chance":
                outcomes = g.chance(s)
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                a = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                a = rng.choice(legal)
            s = g.apply(s, a)
            for c in g.colours:  # every piece is somewhere
                assert s.home[c] + len(s.pos[c]) == 5
        assert s.turns <= 1000
    assert moves_checked > 500


# =============================================================== drivers
def test_replay_json_format():
    g = royalfiz_ref.Game({"players": 2, "max_turns": 1})
    lines = common.replay_json(g, ["start:red", "roll:2", "home_red-o2"])
    assert [line["ply"] for line in lines] == [0, 1, 2, 3]
    assert lines[0] == {"ply": 0, "to_move": "chance", "legal": ["start:green", "start:red"],
                        "terminal": False}
    assert lines[2] == {"ply": 2, "to_move": "red", "legal": ["home_red-o2", "home_red-o40"],
                        "terminal": False}
    assert lines[3] == {"ply": 3, "to_move": None, "legal": [], "terminal": True,
                        "winner": None, "scores": {"red": 0, "green": 0}}
    assert list(lines[3]) == ["ply", "to_move", "legal", "terminal", "winner", "scores"]
    json.dumps(lines)
    with pytest.raises(ValueError, match="ply 3"):
        common.replay_json(g, ["start:red", "roll:2", "home_red-o3"])
    with pytest.raises(ValueError, match="ply 4.*ended"):
        common.replay_json(g, ["start:red", "roll:2", "home_red-o2", "roll:1"])


def test_replay_json_lielow_and_regibus():
    lines = common.replay_json(lielow_ref.Game(), ["a2-a3", "h7-h6", "a3-off"])
    assert lines[-1] == {"ply": 3, "to_move": None, "legal": [], "terminal": True,
                         "winner": "black", "scores": {"white": 0, "black": 1}}
    assert lines[1]["legal"] == sorted(lines[1]["legal"]) and lines[1]["to_move"] == "black"
    lines = common.replay_json(regibus_ref.Game(), record_actions("regibus-contact.txt"))
    assert len(lines) == 25 and lines[-1]["legal"] == [
        "a4xa6", "b4xb6", "c4xc6", "d3-e3", "d4xd6"]


def test_random_playouts_are_deterministic():
    for module, options in ((lielow_ref, {}), (regibus_ref, {}), (royalfiz_ref, {"players": 3})):
        g = module.Game(options)
        a = [common.random_playout(g, random.Random(9)) for _ in range(3)]
        b = [common.random_playout(g, random.Random(9)) for _ in range(3)]
        assert a == b and all(n > 0 for n in a)


def test_options_are_checked():
    with pytest.raises(ValueError):
        regibus_ref.Game({"capture": "some"})
    with pytest.raises(ValueError):
        regibus_ref.Game({"travel_min": 4})
    with pytest.raises(ValueError):
        royalfiz_ref.Game({"players": 5})
    with pytest.raises(ValueError):
        lielow_ref.Game({"x": 1})


def test_the_benchmark_script_plays_its_playouts(capsys):
    from tests.reference import bench_reference

    assert bench_reference.main(["royalfiz", "--playouts", "3", "--seed", "1", "--option", "players=2"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert set(line) == {"playouts", "seconds", "playouts_per_s", "actions_per_s"} and line["playouts"] == 3
    with pytest.raises(SystemExit):
        bench_reference.main(["chess"])
