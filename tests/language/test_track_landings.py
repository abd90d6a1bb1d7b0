"""A move `along` a track to the landing alone reads a table of landing sites
made when the rules are compiled (expr_tracks.landing_sites) within its reach,
`helpers.track_to` beyond: both give the same actions."""
from __future__ import annotations

import ast

import pytest

from interpreter.compilation import expr_tracks
from interpreter.runtime import helpers
from tests.helpers import generated, helper_calls
from tests.language.test_reach import make, one_decision

TRACKS = """\
tracks:
  lap: {sites: [a1, b1, c1, d1, e1], loop: false}
  round:
    per_player:
      white: {sites: [a1, b1, c1, d1, e1], loop: true}
      black: {sites: [e1, d1, c1], loop: true}
"""


@pytest.mark.parametrize("sites,loop", [((0, 3, 5, 1), False), ((0, 3, 5, 1), True), ((), False), ((4,), True)])
def test_the_table_answers_as_the_helper(sites, loop):
    position = [-1] * 7
    for i, site in enumerate(sites):
        position[site] = i
    value = (sites, tuple(position), loop)
    table = expr_tracks.landing_sites(value, 6)
    assert len(table) == 7  # (every site and "no site")
    for site in range(-1, 6):
        assert [table[site][n] for n in range(6)] == [helpers.track_to(value, site, n) for n in range(6)]


@pytest.mark.parametrize("n", [-1, 0, 1, 2, 3, 4, 5, 6, 7, 11, 16])
@pytest.mark.parametrize("player,start", [("white", "b1"), ("black", "d1"), ("white", "e1"), ("black", "a1")])
def test_along_with_and_without_the_tables(tmp_path, monkeypatch, n, player, start):
    rules = one_decision("""\
        action run by man:
            along lap distance piece.count
            notation "{from}-{to}/lap"
            onto empty: move
            off board: remove piece
        action lap by man:
            along round distance piece.count
            notation "{from}-{to}/round"
            onto empty: move
    """)
    other = "black" if player == "white" else "white"
    setup = "  white:\n    man: [c3]\n  black:\n    man: [c4]\n"
    answers = []
    for tables in (True, False):
        if not tables:
            monkeypatch.setattr(expr_tracks, "MAX_FOLLOWING_ENTRIES", 0)
        game = make(tmp_path, rules, setup, TRACKS)
        # (with the tables: `TABLE[frm][n] if 0 <= n < WIDTH else h_track_to(...)`)
        read = [node for node in generated(game, ast.IfExp) if node.orelse in helper_calls(game, "h_track_to")]
        assert len(read) == (2 if tables else 0)
        assert len(helper_calls(game, "h_track_to")) == 2
        state = game.make_state({start: (player, "man", {"count": n}), "a5": (other, "man")}, to_move=player)
        answers.append(sorted(game.legal_notations(state)))
    assert answers[0] == answers[1]
    # (hand-checked: black's round is e1, d1, c1 and round again; the lap ends at e1)
    if (player, start, n) == ("black", "d1", 4):
        assert answers[0] == ["d1-c1/round", "d1-off/lap"]
    if (player, start, n) == ("white", "b1", 3):
        assert answers[0] == ["b1-e1/lap", "b1-e1/round"]
    if (player, start, n) == ("white", "e1", 1):
        assert answers[0] == ["e1-a1/round", "e1-off/lap"]


@pytest.mark.parametrize("player,start", [("white", "b1"), ("black", "d1"), ("white", "d1"), ("black", "c1")])
def test_a_narrower_table_where_the_whole_one_does_not_fit(tmp_path, monkeypatch, player, start):
    # Tables once round (26 rows of 6 steps each, per entry) do not fit within 100
    # entries; the distance is at most 2, so the lap's table of 3 steps a row does (78
    # entries), the round's two after it do not (156 more): it calls its helper.
    rules = one_decision("""\
        action run by man:
            along lap distance 1 to 2
            notation "{from}-{to}/lap"
            onto empty: move
            off board: remove piece
        action lap by man:
            along round distance 1 to 2
            notation "{from}-{to}/round"
            onto empty: move
    """)
    other = "black" if player == "white" else "white"
    setup = "  white:\n    man: [c3]\n  black:\n    man: [c4]\n"
    answers = []
    for budget in (10 ** 6, 100, 0):
        monkeypatch.setattr(expr_tracks, "MAX_FOLLOWING_ENTRIES", budget)
        game = make(tmp_path, rules, setup, TRACKS)
        read = [node for node in generated(game, ast.IfExp) if node.orelse in helper_calls(game, "h_track_to")]
        widths = sorted(ast.literal_eval(node.test.comparators[1]) for node in read)
        assert widths == {10 ** 6: [6, 6], 100: [3], 0: []}[budget]
        state = game.make_state({start: (player, "man"), "a5": (other, "man")}, to_move=player)
        answers.append(sorted(game.legal_notations(state)))
    assert answers[0] == answers[1] == answers[2]
    # (hand-checked: the lap ends at e1; black's round is e1, d1, c1 and round again)
    if (player, start) == ("white", "d1"):
        assert answers[0] == ["d1-a1/round", "d1-e1/lap", "d1-e1/round", "d1-off/lap"]
    if (player, start) == ("black", "c1"):
        assert answers[0] == ["c1-d1/lap", "c1-d1/round", "c1-e1/lap", "c1-e1/round"]
