"""Behaviour tests of the bundled Regibus definition (games/regibus), public API only.

The rules are those played (games/regibus/README.md); the expected legal-action
lists below were written by hand from them (each test says why each action is
there), not copied from program output.

* every rank's moves and captures, with the blocking and landing rules;
* promotions, the ransom mark and the ransom itself, coronation and its `@SITE`
  follow-up, Rome before / after the first / after the second coronation and the
  exception for an uncrowned player's king;
* travel (travel_min 3 and 2), both capture options, the quiet limit, the end of
  the game (no legal action, quiet limit), draws and scores;
* the variants under games/regibus/variants/;
* random games: the stone invariant after every action (all option combinations);
* the counts of tests/data/perft.md, and a differential test against the independent reference
  implementation tests/reference/regibus_ref.py (random games and random
  hand-built positions, every option combination).

Figures are written compactly: `"wK"` a white king of one white stone, `"bP:wb"` a
black prince of a white stone under a black one (stones bottom first), a trailing
`*` the king's "has been to the middle" mark (ransom).
"""
from __future__ import annotations

import functools
import random

import pytest

from interpreter import DefinitionError, load_game
from tests import helpers
from tests.helpers import GAMES, REPO, api_perft, play, record_actions
from tests.reference import regibus_ref

VARIANTS = GAMES / "regibus" / "variants"

PLAYERS = ("white", "black")
KINDS = {"N": "knight", "P": "prince", "K": "king", "E": "emperor"}
LETTER = {v: k for k, v in KINDS.items()}
COLOURS = {"w": "white", "b": "black"}
POWER = {"knight": 1, "prince": 2, "king": 4, "emperor": 8}
SITES = [f"{f}{r}" for r in range(1, 9) for f in "abcdefgh"]
# From the rules: edge squares are on file a or h or on rank 1 or 8; Rome is d4 e4 d5 e5.
EDGE = [s for s in SITES if s[0] in "ah" or s[1] in "18"]
ROME = ("d4", "e4", "d5", "e5")
HALF = {"white": [s for s in SITES if s[1] in "1234"], "black": [s for s in SITES if s[1] in "5678"]}

OPTION_COMBOS = [
    {"capture": "top", "travel_min": 3},
    {"capture": "whole", "travel_min": 3},
    {"capture": "top", "travel_min": 2},
    {"capture": "whole", "travel_min": 2},
]


# ============================================================ helpers
@functools.lru_cache(maxsize=None)
def _game(items: tuple):
    return load_game("regibus", options=dict(items))


def game(**options):
    return _game(tuple(sorted(options.items())))


def parse_figure(code: str):
    mark = code.endswith("*")
    head, _, stones = code.rstrip("*").partition(":")
    owner, kind = COLOURS[head[0]], KINDS[head[1]]
    colours = [COLOURS[c] for c in stones] if stones else [owner]
    return owner, kind, colours, mark


def position(figures: dict, to_move="white", crowned="", quiet=0, pools=None, g=None):
    """A play-phase position; pools default to 12 minus the stones of each colour on
    the board (so the stone invariant holds); `crowned` lists "w" and/or "b"."""
    g = g or game()
    pieces = {}
    on_board = {"white": 0, "black": 0}
    for site, code in figures.items():
        owner, kind, colours, mark = parse_figure(code)
        for c in colours:
            on_board[c] += 1
        pieces[site] = (owner, kind, {"stones": colours, "been_middle": mark})
    if pools is None:
        pools = {p: 12 - on_board[p] for p in PLAYERS}
    return g.make_state(
        pieces, to_move=to_move, phase="play",
        variables={"crowned": {p: p[0] in crowned for p in PLAYERS}, "quiet": quiet},
        pools={"stones": pools},
    )


def figure_code(piece) -> str:
    stones = "".join(c[0] for c in piece.stones)
    code = f"{piece.owner[0]}{LETTER[piece.kind]}"
    if stones != piece.owner[0]:
        code += ":" + stones
    if piece.attributes.get("been_middle"):
        code += "*"
    return code


def board(g, s) -> dict:
    return helpers.board(g, s, figure_code)


def moves_from(g, s, site: str) -> list:
    return [a for a in g.legal_notations(s) if a[:2] == site and a[2] in "-x"]


def stone_totals(g, s) -> dict:
    totals = dict(g.pools(s)["stones"])
    for p in g.pieces(s):
        for c in p.stones:
            totals[c] += 1
    return totals


def check_invariants(g, s) -> None:
    assert stone_totals(g, s) == {"white": 12, "black": 12}, (s.ply, g.pieces(s), g.pools(s))
    crowned = g.variables(s)["crowned"]
    emperors = {p: 0 for p in PLAYERS}
    for p in g.pieces(s):
        assert p.stones and p.stones[-1] == p.owner, p  # the top stone is the owner's
        if p.kind == "emperor":
            emperors[p.owner] += 1
        if p.kind != "king":
            assert not p.attributes["been_middle"], p  # only kings carry the mark
    for p in PLAYERS:
        assert emperors[p] <= int(crowned[p])


def purposeful(g, s, rng, legal):
    """A random player with a purpose, so that random games reach kings, ransom and
    coronations: knights and princes advance, kings head for Rome."""
    if legal[0][0] == "@" or rng.random() < 0.25:
        return rng.choice(legal)
    white = g.to_move(s) == "white"
    kinds = {p.site: p.kind for p in g.pieces(s)}
    to_rome = [a for a in legal if a[-2:] in ROME and kinds.get(a[:2]) == "king"]
    if to_rome and rng.random() < 0.8:
        return rng.choice(to_rome)

    def progress(a):
        if kinds.get(a[:2]) == "king":
            return abs(int(a[1]) - 4.5) - abs(int(a[-1]) - 4.5)
        d = int(a[-1]) - int(a[1])
        return d if white else -d

    best = max(progress(a) for a in legal)
    return rng.choice([a for a in legal if progress(a) == best])


def choose(g, s, rng, legal, seed):
    return purposeful(g, s, rng, legal) if seed % 2 else rng.choice(legal)


# ============================================================ start, setup
def test_start_is_the_placement_phase():
    g = game()
    s = g.initial_state()
    assert g.phase(s) == "setup" and g.to_move(s) == "white"
    assert g.pieces(s) == []
    assert g.pools(s) == {"stones": {"white": 12, "black": 12}}
    assert g.variables(s) == {"quiet": 0, "crowned": {"white": False, "black": False}}
    # White places a knight on any square of ranks 1-4.
    assert g.legal_notations(s) == sorted("@" + x for x in HALF["white"])
    s = g.apply(s, "@c3")
    assert board(g, s) == {"c3": "wN"} and g.pools(s)["stones"] == {"white": 11, "black": 12}
    assert g.to_move(s) == "black"
    assert g.legal_notations(s) == sorted("@" + x for x in HALF["black"])


def test_setup_ends_after_24_placements_with_white_to_move():
    g = game()
    s = g.initial_state()
    moves = record_actions("regibus-contact.txt")
    assert len(moves) == 24
    for i, m in enumerate(moves):
        assert g.phase(s) == "setup" and g.to_move(s) == PLAYERS[i % 2]
        s = g.apply(s, m)
    assert g.phase(s) == "play" and g.to_move(s) == "white"
    assert g.pools(s)["stones"] == {"white": 0, "black": 0}
    assert g.variables(s)["quiet"] == 0  # placements are not counted
    # White: a4-h4 and a3-d3; Black: a5-h5 and e6-h6. White's knights on a4-d4 capture
    # forward over a5-d5 (a6-d6 empty); d3 steps sideways to e3. The rest is blocked.
    assert g.legal_notations(s) == ["a4xa6", "b4xb6", "c4xc6", "d3-e3", "d4xd6"]


# ============================================================ knights
def test_knight_steps_one_square_forward_or_sideways():
    g = game()
    s = position({"c2": "wN", "h8": "bN"})
    assert g.legal_notations(s) == ["c2-b2", "c2-c3", "c2-d2"]
    # Black's forward is towards rank 1; a knight on the a/h file has one sideways step.
    s = position({"c2": "wN", "h8": "bN"}, to_move="black")
    assert g.legal_notations(s) == ["h8-g8", "h8-h7"]


def test_knight_is_blocked_by_own_figures():
    g = game()
    s = position({"a2": "wN", "a3": "wN", "h8": "bN"})
    # a2: forward a3 is taken by its own knight, sideways b2; a3: a4 and b3.
    assert g.legal_notations(s) == ["a2-b2", "a3-a4", "a3-b3"]


def test_knight_captures_forward_and_sideways_only():
    g = game()
    # Enemies ahead (c4), left (b3), right (d3); behind (c2) and diagonal (b4) are not
    # capturable; every step square is taken, so only the three captures remain.
    s = position({"c3": "wN", "c4": "bN", "b3": "bN", "d3": "bN", "c2": "bN", "b4": "bN"})
    assert g.legal_notations(s) == ["c3xa3", "c3xc5", "c3xe3"]


def test_knight_capture_needs_an_empty_landing_square_on_the_board():
    g = game()
    # h3: the enemy at g3 cannot be taken (f3 is occupied), nothing to the right,
    # forward h4 is taken and h5 free.
    s = position({"h3": "wN", "g3": "bN", "f3": "bN", "h4": "bN"})
    assert g.legal_notations(s) == ["h3xh5"]


def test_capture_makes_a_knight_a_prince():
    g = game()
    s = position({"c3": "wN", "c4": "bN", "h8": "bN"}, quiet=5)
    s = g.apply(s, "c3xc5")
    # top capture: the black stone goes under the capturer; nothing to the pools.
    assert board(g, s) == {"c5": "wP:bw", "h8": "bN"}
    assert g.pools(s)["stones"] == {"white": 11, "black": 10}
    assert g.variables(s)["quiet"] == 0
    assert g.to_move(s) == "black"
    check_invariants(g, s)


# ============================================================ princes
def test_prince_moves_exactly_two_forward_or_backward_or_one_sideways():
    g = game()
    s = position({"g3": "wP", "h8": "bN"})
    assert g.legal_notations(s) == ["g3-f3", "g3-g1", "g3-g5", "g3-h3"]
    s = position({"b6": "bP", "a1": "wN"}, to_move="black")
    assert g.legal_notations(s) == ["b6-a6", "b6-b4", "b6-b8", "b6-c6"]


def test_prince_two_square_move_needs_the_middle_square_empty():
    g = game()
    # g4 holds a white knight: no g3-g5 (the knight itself steps g5, f4, h4).
    s = position({"g3": "wP", "g4": "wN", "h8": "bN"})
    assert g.legal_notations(s) == ["g3-f3", "g3-g1", "g3-h3", "g4-f4", "g4-g5", "g4-h4"]
    # An adjacent enemy ahead is neither passed nor captured by a prince.
    s = position({"g3": "wP", "g4": "bN"})
    assert g.legal_notations(s) == ["g3-f3", "g3-g1", "g3-h3"]


def test_prince_captures_two_ahead_or_behind_and_adjacent_sideways():
    g = game()
    # g5 is two ahead with g4 empty: lands on g6. f3 adjacent left: lands e3. h3
    # adjacent right: the landing square is off the board.
    s = position({"g3": "wP", "g5": "bN", "f3": "bN", "h3": "bN"})
    assert g.legal_notations(s) == ["g3-g1", "g3xe3", "g3xg6"]
    # Backward: b4 is two behind with b5 empty: lands b3. b7 adjacent ahead blocks b6-b8.
    s = position({"b6": "wP", "b7": "bN", "b4": "bN"})
    assert g.legal_notations(s) == ["b6-a6", "b6-c6", "b6xb3"]
    s = g.apply(s, "b6xb3")
    assert board(g, s)["b3"] == "wP:bw"  # a prince stays a prince


def test_prince_cannot_capture_over_an_occupied_middle_square():
    g = game()
    s = position({"g3": "wP", "g4": "wN", "g5": "bN"})
    # The knight on g4 captures g5 (landing g6); the prince cannot reach it.
    assert g.legal_notations(s) == ["g3-f3", "g3-g1", "g3-h3", "g4-f4", "g4-h4", "g4xg6"]


def test_prince_capture_landing_must_be_empty():
    g = game()
    s = position({"g3": "wP", "g5": "bN", "g6": "bN"})
    assert g.legal_notations(s) == ["g3-f3", "g3-g1", "g3-h3"]


# ============================================================ kings
def test_king_steps_one_square_in_all_eight_directions():
    g = game()
    s = position({"g2": "wK", "h8": "bN"})
    assert g.legal_notations(s) == ["g2-f1", "g2-f2", "g2-f3", "g2-g1", "g2-g3", "g2-h1", "g2-h2", "g2-h3"]


@pytest.mark.parametrize("stones, far_capture", [("bww", True), ("bw", False)])
def test_king_capture_distance_is_at_most_its_height(stones, far_capture):
    g = game()
    # White king on g2 of 3 (or 2) stones, a white knight on f3 closing the NW line.
    # e2 is 2 squares W (f2 empty): lands d2. g5 is 3 squares N (g3, g4 empty): lands
    # g6, only with 3 stones. h3 is adjacent NE, but the landing square is off the board.
    s = position({"g2": f"wK:{stones}", "f3": "wN", "e2": "bN", "g5": "bN", "h3": "bN"})
    expected = ["f3-e3", "f3-f4", "f3-g3",
                "g2-f1", "g2-f2", "g2-g1", "g2-g3", "g2-h1", "g2-h2", "g2xd2"]
    if far_capture:
        expected.append("g2xg6")
    assert g.legal_notations(s) == sorted(expected)


def test_king_captures_only_the_first_figure_on_a_line():
    g = game()
    # b2 N-line: b3 own knight. E-line: c2 black, d2 black: c2 cannot be taken (d2
    # taken), d2 is behind c2. Height 4 would reach d2, but never over c2.
    s = position({"b2": "wK:wwww", "b3": "wN", "c2": "bN", "d2": "bN"})
    assert moves_from(g, s, "b2") == ["b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-c1", "b2-c3"]


# ============================================================ emperors
def test_emperor_steps_one_or_two_and_captures_at_any_distance():
    g = game()
    # Both crowned (Rome is closed). White emperor on b2: N steps b3 b4, captures b7
    # (5 away) landing b8; E steps c2 d2, captures the black emperor on g2 landing h2;
    # NE only c3 (d4 is Rome: no step there, and no capture of f6 over d4/e5);
    # single steps on the short lines a1 a2 a3 b1 c1.
    s = position({"b2": "wE", "b7": "bN", "g2": "bE:bb", "f6": "bN"}, crowned="wb")
    assert g.legal_notations(s) == [
        "b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-b4", "b2-c1", "b2-c2", "b2-c3",
        "b2-d2", "b2xb8", "b2xh2"]


def test_emperor_two_square_step_needs_the_middle_square_empty():
    g = game()
    s = position({"b2": "wE", "b3": "wN", "c3": "bN", "h8": "bN"}, crowned="w")
    # N: the own knight on b3 blocks b3 and b4. NE: the black knight on c3 could only
    # be captured by landing on d4, which is Rome (closed): no step, no capture there.
    assert moves_from(g, s, "b2") == ["b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-c1", "b2-c2", "b2-d2"]


@pytest.mark.parametrize("capture, stones", [("top", "bw"), ("whole", "bbw")])
def test_a_captured_emperor_loses_its_crown(capture, stones):
    g = game(capture=capture)
    s = position({"b2": "wE", "g2": "bE:bb", "a8": "bN"}, crowned="wb", g=g)
    s = g.apply(s, "b2xh2")
    assert board(g, s) == {"h2": f"wE:{stones}", "a8": "bN"}
    assert g.pools(s)["stones"]["black"] == (10 if capture == "top" else 9)
    check_invariants(g, s)


def test_emperor_can_be_captured_only_by_a_king_or_an_emperor():
    g = game()
    # Black emperor on b6 (Black has crowned). The knight b5 (ahead) and the prince c6
    # (beside) may not capture it; the king a5 may (NE, landing c7).
    s = position({"b6": "bE", "b5": "wN", "c6": "wP", "a5": "wK"}, crowned="b")
    assert g.legal_notations(s) == ["a5-a4", "a5-a6", "a5-b4", "a5xc7", "b5-c5", "c6-c4", "c6-c8", "c6-d6"]
    # The same with a black king on b6: all three may capture.
    s = position({"b6": "bK", "b5": "wN", "c6": "wP", "a5": "wK"})
    assert g.legal_notations(s) == [
        "a5-a4", "a5-a6", "a5-b4", "a5xc7", "b5-c5", "b5xb7", "c6-c4", "c6-c8", "c6-d6", "c6xa6"]
    # An emperor takes an emperor.
    s = position({"b6": "bE", "b4": "wE"}, crowned="wb")
    assert "b4xb7" in g.legal_notations(s)


# ============================================================ promotions
def test_knight_and_prince_on_the_opponents_baseline_become_kings():
    g = game()
    s = position({"c7": "wN", "f6": "wP", "h1": "bN"})
    assert board(g, g.apply(s, "c7-c8"))["c8"] == "wK"
    assert board(g, g.apply(s, "f6-f8"))["f8"] == "wK"
    s = position({"c2": "bN", "a8": "wN"}, to_move="black")
    assert board(g, g.apply(s, "c2-c1"))["c1"] == "bK"
    # Not on the own baseline: a black knight on rank 8 stays a knight.
    s = position({"c8": "bN", "a1": "wN"}, to_move="black")
    assert board(g, g.apply(s, "c8-b8"))["b8"] == "bN"


def test_baseline_promotion_wins_over_capture_promotion():
    g = game()
    s = position({"c6": "wN", "c7": "bN", "b5": "wP", "b7": "bN"})
    after = g.apply(s, "c6xc8")
    assert board(g, after)["c8"] == "wK:bw"  # a king, not a prince; unmarked
    after = g.apply(s, "b5xb8")
    assert board(g, after)["b8"] == "wK:bw"


# ============================================================ ransom
def test_ransom_mark_is_set_when_a_king_ends_a_move_on_rank_4_or_5():
    g = game()
    s = position({"c3": "wK", "f6": "bK", "c6": "wK", "a3": "wN", "h8": "bN"})
    assert board(g, g.apply(s, "c3-c4"))["c4"] == "wK*"
    assert board(g, g.apply(s, "c6-c5"))["c5"] == "wK*"  # rank 5 of the opponent's half
    assert board(g, g.apply(s, "c3-b3"))["b3"] == "wK"
    assert board(g, g.apply(s, "a3-a4"))["a4"] == "wN"  # only kings are marked
    black = position({"c3": "wK", "f6": "bK"}, to_move="black")
    assert board(g, g.apply(black, "f6-f5"))["f5"] == "bK*"  # rank 5 is Black's own half
    # The mark stays when the king leaves the middle.
    s = position({"c4": "wK*", "h8": "bN"})
    assert board(g, g.apply(s, "c4-c3"))["c3"] == "wK*"


def test_ransom_mark_is_set_by_a_capture():
    g = game()
    s = position({"c3": "wK", "c4": "bN", "h8": "bN"})
    assert board(g, g.apply(s, "c3xc5"))["c5"] == "wK:bw*"


def test_ransom_is_paid_on_the_opponents_baseline_with_the_mark_set():
    g = game()
    s = position({"c7": "wK:bw*", "h1": "bN"})
    assert g.pools(s)["stones"]["white"] == 11
    s = g.apply(s, "c7-c8")
    # one white stone from the pool at the bottom; the mark is cleared
    assert board(g, s)["c8"] == "wK:wbw"
    assert g.pools(s)["stones"]["white"] == 10
    check_invariants(g, s)


def test_no_ransom_without_the_mark():
    g = game()
    s = g.apply(position({"c7": "wK:bw", "h1": "bN"}), "c7-c8")
    assert board(g, s)["c8"] == "wK:bw"
    assert g.pools(s)["stones"]["white"] == 11


def test_no_ransom_from_an_empty_pool_and_the_mark_is_cleared():
    g = game()
    # The other 11 white stones are captives under a black king: White's pool is empty.
    s = position({"c7": "wK*", "h1": "bK:wwwwwwwwwwwb"})
    assert g.pools(s)["stones"]["white"] == 0
    s = g.apply(s, "c7-c8")
    assert board(g, s)["c8"] == "wK"
    check_invariants(g, s)


def test_a_new_king_starts_unmarked_and_gets_no_ransom():
    g = game()
    s = g.apply(position({"c7": "wN", "h1": "bN"}), "c7-c8")
    assert board(g, s)["c8"] == "wK"
    assert g.pools(s)["stones"]["white"] == 11


def test_ransom_after_a_capture_onto_the_baseline():
    g = game()
    s = g.apply(position({"c6": "wK*", "c7": "bN", "h1": "bN"}), "c6xc8")
    # the captured stone under the king, then the ransom stone at the very bottom
    assert board(g, s)["c8"] == "wK:wbw"
    assert g.pools(s)["stones"]["white"] == 10
    check_invariants(g, s)


def test_ransom_can_use_a_stone_the_same_capture_returned():
    g = game()
    # White's pool is empty; the captured black knight holds a white captive, which
    # the top capture returns to White's pool before the ransom takes it.
    s = position({"c6": "wK*", "c7": "bN:wb", "h1": "bK:wwwwwwwwwwb"})
    assert g.pools(s)["stones"]["white"] == 0
    s = g.apply(s, "c6xc8")
    assert board(g, s)["c8"] == "wK:wbw"
    assert g.pools(s)["stones"] == {"white": 0, "black": 10}
    check_invariants(g, s)


def test_black_ransom_on_rank_1():
    g = game()
    s = g.apply(position({"f2": "bK:wb*", "a8": "wN"}, to_move="black"), "f2-f1")
    assert board(g, s)["f1"] == "bK:bwb"


def test_emperors_carry_no_mark_and_get_no_ransom():
    g = game()
    s = position({"c7": "wE", "c3": "wE", "h1": "bN"}, crowned="w")
    assert board(g, g.apply(s, "c7-c8"))["c8"] == "wE"
    assert g.pools(g.apply(s, "c7-c8"))["stones"]["white"] == 10
    assert board(g, g.apply(s, "c3-c5"))["c5"] == "wE"


# ============================================================ coronation
CORONATION = {"c3": "wK", "b7": "wK", "g7": "wK", "h6": "bN"}


def test_coronation_with_three_kings_and_the_placement_in_the_opponents_half():
    g = game()
    s = position(CORONATION, quiet=4)
    s = g.apply(s, "c3-d4")
    assert board(g, s)["d4"] == "wE"  # crowned (and unmarked), still on Rome for now
    assert g.variables(s)["crowned"] == {"white": True, "black": False}
    assert g.to_move(s) == "white" and g.phase(s) == "play"
    assert g.decision(s) == "place_emperor"
    # Any empty square of ranks 5-8 except the Rome squares d5 and e5.
    taken = {"b7", "g7", "h6"}
    assert g.legal_notations(s) == sorted("@" + x for x in HALF["black"] if x not in ROME and x not in taken)
    s = g.apply(s, "@f6")
    assert board(g, s) == {"f6": "wE", "b7": "wK", "g7": "wK", "h6": "bN"}
    assert g.to_move(s) == "black"
    assert g.variables(s)["quiet"] == 5  # one turn: the move and its placement
    check_invariants(g, s)


def test_no_coronation_with_fewer_than_three_own_kings():
    g = game()
    # Two white kings; the black kings do not count.
    s = position({"c3": "wK", "b7": "wK", "g2": "bK", "g3": "bK"})
    s = g.apply(s, "c3-d4")
    assert board(g, s)["d4"] == "wK*"
    assert g.to_move(s) == "black" and g.decision(s) == "move"
    assert g.variables(s)["crowned"] == {"white": False, "black": False}


def test_coronation_by_a_capture_landing_on_rome():
    g = game()
    s = position({"g4": "wK", "f4": "bN", "b7": "wK", "g7": "wK", "a8": "bN"}, quiet=7)
    s = g.apply(s, "g4xe4")
    assert board(g, s)["e4"] == "wE:bw"
    assert g.decision(s) == "place_emperor" and g.to_move(s) == "white"
    s = g.apply(s, "@a5")
    assert board(g, s)["a5"] == "wE:bw"
    assert g.variables(s)["quiet"] == 0  # the turn had a capture


def test_coronation_placement_is_not_a_move():
    g = game()
    # A marked king is crowned; placed on Black's baseline it gets no ransom (the pool
    # holds 9 stones), placed on rank 5 no mark.
    s = g.apply(position({"c3": "wK*", "b7": "wK", "g7": "wK", "h6": "bN"}), "c3-d4")
    s8 = g.apply(s, "@d8")
    assert board(g, s8)["d8"] == "wE"
    assert g.pools(s8)["stones"]["white"] == 9
    assert board(g, g.apply(s, "@a5"))["a5"] == "wE"


def test_each_player_crowns_only_once():
    g = game()
    # White has crowned before (its emperor was captured); three white kings, but
    # Rome is closed to White's kings now: no d4 for the king on c3.
    s = position(CORONATION, crowned="w")
    assert moves_from(g, s, "c3") == ["c3-b2", "c3-b3", "c3-b4", "c3-c2", "c3-c4", "c3-d2", "c3-d3"]


def test_second_coronation_by_the_uncrowned_player():
    g = game()
    s = position({"e6": "bK", "g4": "bK", "a7": "bK", "f4": "wN", "a1": "wE"}, to_move="black", crowned="w")
    s = g.apply(s, "e6-e5")
    assert board(g, s)["e5"] == "bE"
    assert g.variables(s)["crowned"] == {"white": True, "black": True}
    assert g.to_move(s) == "black"
    # Black places in White's half (ranks 1-4), not on d4/e4, not on a taken square.
    taken = {"g4", "f4", "a1"}
    assert g.legal_notations(s) == sorted("@" + x for x in HALF["white"] if x not in ROME and x not in taken)
    s = g.apply(s, "@c2")
    assert board(g, s)["c2"] == "bE" and g.to_move(s) == "white"


def test_quiet_limit_is_checked_after_the_coronation_placement():
    g = game(quiet_limit=3)
    s = position(CORONATION, quiet=2, g=g)
    s = g.apply(s, "c3-d4")
    assert not g.is_terminal(s) and g.to_move(s) == "white" and g.decision(s) == "place_emperor"
    s = g.apply(s, "@a5")
    assert g.is_terminal(s)
    assert g.variables(s)["quiet"] == 3
    result = g.result(s)
    assert result.winner == "white" and dict(result.scores) == {"white": 16, "black": 1}


# ============================================================ Rome
ROME_CAPTURES = {"d3": "wN", "c5": "wK", "d4": "bN", "h8": "bN"}


def test_rome_is_open_before_the_first_coronation():
    g = game()
    # Knight d3 takes d4 landing on d5; king c5 takes d4 (SE) landing e3, steps d5.
    s = position(ROME_CAPTURES)
    assert g.legal_notations(s) == [
        "c5-b4", "c5-b5", "c5-b6", "c5-c4", "c5-c6", "c5-d5", "c5-d6", "c5xe3", "d3-c3", "d3-e3", "d3xd5"]


def test_after_the_first_coronation_no_landing_or_capturing_on_rome():
    g = game()
    # Black has crowned; White has one king only, so no exception.
    s = position(ROME_CAPTURES, crowned="b")
    assert g.legal_notations(s) == ["c5-b4", "c5-b5", "c5-b6", "c5-c4", "c5-c6", "c5-d6", "d3-c3", "d3-e3"]


@pytest.mark.parametrize("crowned, expected", [
    ("", ["d4-c4", "d4-d2", "d4-d6", "d4-e4"]),
    ("b", ["d4-c4", "d4-d2"]),  # leaving Rome is allowed, passing d5 or landing on e4 not
])
def test_figures_on_rome_may_leave_it(crowned, expected):
    g = game()
    s = position({"d4": "wP", "h8": "bN"}, crowned=crowned)
    assert g.legal_notations(s) == expected


def test_nothing_passes_over_rome_after_the_first_coronation():
    g = game()
    # Emperor c6: SE the squares d5 (Rome), e4 (Rome) and the black knight f3.
    closed = ["c6-a4", "c6-a6", "c6-a8", "c6-b5", "c6-b6", "c6-b7", "c6-c4", "c6-c5",
              "c6-c7", "c6-c8", "c6-d6", "c6-d7", "c6-e6", "c6-e8"]
    s = position({"c6": "wE", "f3": "bN"}, crowned="w")
    assert moves_from(g, s, "c6") == closed
    # (A hand-built position with nobody crowned: Rome open, the SE line is free.)
    s = position({"c6": "wE", "f3": "bN"})
    assert moves_from(g, s, "c6") == sorted(closed + ["c6-d5", "c6-e4", "c6xg2"])
    # A king of 4 stones on b2: NE c3, d4 (Rome), e5 (Rome), black knight f6.
    s = position({"b2": "wK:wwww", "f6": "bN"})
    assert "b2xg7" in moves_from(g, s, "b2")
    s = position({"b2": "wK:wwww", "f6": "bN"}, crowned="b")
    assert "b2xg7" not in moves_from(g, s, "b2")
    assert "b2-c3" in moves_from(g, s, "b2")


EXCEPTION = {"e6": "bK", "g4": "bK", "a7": "bK", "f4": "wN", "a1": "wE"}


def test_rome_exception_for_the_uncrowned_players_king_with_three_kings():
    g = game()
    s = position(EXCEPTION, to_move="black", crowned="w")
    # e6 may land on d5 and e5; g4 may take f4 landing on e4.
    assert moves_from(g, s, "e6") == ["e6-d5", "e6-d6", "e6-d7", "e6-e5", "e6-e7", "e6-f5", "e6-f6", "e6-f7"]
    assert moves_from(g, s, "g4") == ["g4-f3", "g4-f5", "g4-g3", "g4-g5", "g4-h3", "g4-h4", "g4-h5", "g4xe4"]
    s = g.apply(s, "g4xe4")
    assert board(g, s)["e4"] == "bE:wb"
    assert g.decision(s) == "place_emperor" and g.to_move(s) == "black"


def test_rome_exception_needs_three_kings():
    g = game()
    two = {k: v for k, v in EXCEPTION.items() if k != "a7"}
    s = position(two, to_move="black", crowned="w")
    assert moves_from(g, s, "e6") == ["e6-d6", "e6-d7", "e6-e7", "e6-f5", "e6-f6", "e6-f7"]
    assert moves_from(g, s, "g4") == ["g4-f3", "g4-f5", "g4-g3", "g4-g5", "g4-h3", "g4-h4", "g4-h5"]


def test_rome_exception_does_not_allow_passing_over_or_capturing_on_rome():
    g = game()
    # Black kings c6, f6 (3 stones), a7; white knights on d5 (Rome) and c3.
    figures = {"c6": "bK", "f6": "bK:bbb", "a7": "bK", "d5": "wN", "c3": "wN", "h1": "wE"}
    s = position(figures, to_move="black", crowned="w")
    # c6 may not take d5 (on Rome); f6 may land on e5 but not take c3 over e5 and d4.
    assert moves_from(g, s, "c6") == ["c6-b5", "c6-b6", "c6-b7", "c6-c5", "c6-c7", "c6-d6", "c6-d7"]
    assert moves_from(g, s, "f6") == ["f6-e5", "f6-e6", "f6-e7", "f6-f5", "f6-f7", "f6-g5", "f6-g6", "f6-g7"]
    # Before any coronation both captures are allowed.
    s = position(figures, to_move="black")
    assert "c6xe4" in moves_from(g, s, "c6")
    assert "f6xb2" in moves_from(g, s, "f6")


def test_rome_is_closed_to_everyone_after_the_second_coronation():
    g = game()
    s = position(EXCEPTION, to_move="black", crowned="wb")
    assert moves_from(g, s, "e6") == ["e6-d6", "e6-d7", "e6-e7", "e6-f5", "e6-f6", "e6-f7"]
    assert "g4xe4" not in moves_from(g, s, "g4")


# ============================================================ travel
def test_travel_from_an_edge_square_to_any_other_empty_edge_square():
    g = game()
    s = position({"a1": "wK:www", "h8": "bN"})
    legal = g.legal_notations(s)
    # every edge square but a1 itself and the taken h8, plus the king's step to b2;
    # the steps a1-a2 and a1-b1 are edge squares too: one action each.
    expected = sorted(["a1-" + x for x in EDGE if x not in ("a1", "h8")] + ["a1-b2"])
    assert len(expected) == 27
    assert legal == expected
    assert len(g.legal_actions(s)) == 27


@pytest.mark.parametrize("travel_min, figure, travels", [
    (3, "wK:ww", False), (2, "wK:ww", True), (2, "wK", False),
    (3, "wE:www", True), (2, "wE:ww", True), (3, "wP:www", False),
])
def test_who_travels(travel_min, figure, travels):
    g = game(travel_min=travel_min)
    s = position({"h4": figure, "a8": "bN"}, crowned="w" if figure[1] == "E" else "", g=g)
    assert ("h4-a1" in g.legal_notations(s)) is travels


def test_no_travel_from_a_square_off_the_edge():
    g = game()
    s = position({"b2": "wK:www", "h8": "bN"})
    assert moves_from(g, s, "b2") == ["b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-c1", "b2-c2", "b2-c3"]


def test_travel_passes_over_anything():
    g = game()
    figures = {"a1": "wK:www", "h8": "bN"}
    figures.update({f"a{r}": "wN" if r % 2 else "bN" for r in range(2, 8)})
    figures.update({f"{f}1": "bN" for f in "bcdefg"})
    s = position(figures)
    assert {"a1-a8", "a1-h1"} <= set(moves_from(g, s, "a1"))
    # Rome closed: the travel a4-h4 is still allowed.
    s = position({"a4": "wK:www", "h8": "bN"}, crowned="b")
    assert "a4-h4" in moves_from(g, s, "a4")


def test_travel_is_a_move_with_mark_and_ransom():
    g = game()
    s = position({"a1": "wK:www", "h8": "bN"}, quiet=3)
    after = g.apply(s, "a1-h5")
    assert board(g, after)["h5"] == "wK:www*"
    assert g.variables(after)["quiet"] == 4
    after = g.apply(position({"a1": "wK:www*", "h1": "bN"}), "a1-a8")
    assert board(g, after)["a8"] == "wK:wwww"
    assert g.pools(after)["stones"]["white"] == 8


# ============================================================ capture options
@pytest.mark.parametrize("capture, stones, pools", [
    # top: the captured top stone (black) under the capturer's bottom stone; the
    # other two stones (white, black) to their own pools.
    ("top", "bbw", {"white": 11, "black": 9}),
    # whole: the captured figure, in its order, under the capturer.
    ("whole", "wbbbw", {"white": 10, "black": 8}),
])
def test_capture_options(capture, stones, pools):
    g = game(capture=capture)
    s = position({"c3": "wK:bw", "c4": "bK:wbb", "a8": "bN"}, g=g)
    # on the board: white 1 + 1, black 1 + 2 + 1 (a8)
    assert g.pools(s)["stones"] == {"white": 10, "black": 8}
    s = g.apply(s, "c3xc5")
    assert board(g, s) == {"c5": f"wK:{stones}*", "a8": "bN"}
    assert g.pools(s)["stones"] == pools
    check_invariants(g, s)


def test_capture_option_is_validated():
    with pytest.raises(DefinitionError):
        load_game("regibus", options={"capture": "half"})
    with pytest.raises(DefinitionError):
        load_game("regibus", options={"travel_min": "4"})
    with pytest.raises(DefinitionError):
        load_game("regibus", options={"quiet_limit": "0"})
    g = load_game("regibus", options={"capture": "whole", "travel_min": "2", "quiet_limit": "7"})
    assert g.options == {"capture": "whole", "travel_min": 2, "quiet_limit": 7}


# ============================================================ end of the game
def test_quiet_limit_ends_the_game_and_equal_power_is_a_draw():
    g = game(quiet_limit=3)
    s = position({"c2": "wN", "h7": "bN"}, quiet=2, g=g)
    s = g.apply(s, "c2-c3")
    assert g.is_terminal(s) and g.to_move(s) is None and g.legal_notations(s) == []
    result = g.result(s)
    assert result.winner is None and dict(result.scores) == {"white": 1, "black": 1}


def test_a_capture_resets_the_quiet_count():
    g = game(quiet_limit=3)
    s = position({"c3": "wN", "c4": "bN", "h7": "bN"}, quiet=2, g=g)
    s = g.apply(s, "c3xc5")
    assert not g.is_terminal(s) and g.variables(s)["quiet"] == 0
    assert g.result(s) is None


def test_quiet_counts_play_turns_only():
    g = game(quiet_limit=1)
    s = play(g, *record_actions("regibus-contact.txt"))
    assert not g.is_terminal(s) and g.phase(s) == "play"
    s = g.apply(s, "d3-e3")
    assert g.is_terminal(s)
    assert dict(g.result(s).scores) == {"white": 12, "black": 12}


def test_no_legal_action_ends_the_game():
    g = game()
    # The white knight h7: h8 taken (and nothing beyond), g7 taken and f7 behind it.
    s = position({"h7": "wN", "h8": "bN", "g7": "bN", "f7": "bN"})
    assert g.is_terminal(s)
    assert g.to_move(s) is None and g.legal_notations(s) == []
    result = g.result(s)
    assert result.winner == "black" and dict(result.scores) == {"white": 1, "black": 3}


def test_a_player_without_a_legal_action_does_not_lose_by_it():
    g = game()
    # White: a prince on a7 (a6 taken: no backward move; a9 off the board) and
    # knights b7-h7 under black knights b8-h8. White is stuck but has more power.
    figures = {"a7": "wP", "a6": "bN"}
    figures.update({f"{f}7": "wN" for f in "bcdefgh"})
    figures.update({f"{f}8": "bN" for f in "bcdefgh"})
    s = position(figures)
    assert g.is_terminal(s)
    result = g.result(s)
    assert result.winner == "white" and dict(result.scores) == {"white": 9, "black": 8}


def test_capturing_the_last_figure_ends_the_game():
    g = game()
    s = g.apply(position({"c3": "wN", "c4": "bN"}), "c3xc5")
    assert g.is_terminal(s)
    result = g.result(s)
    assert result.winner == "white" and dict(result.scores) == {"white": 2, "black": 0}


def test_scores_are_total_power():
    g = game(quiet_limit=1)
    s = position({"c2": "wN", "a4": "wP", "h3": "wK", "b1": "wE", "f6": "bK:bb", "g6": "bK", "d7": "bP"},
                 crowned="w", g=g)
    s = g.apply(s, "c2-c3")
    result = g.result(s)
    assert dict(result.scores) == {"white": 1 + 2 + 4 + 8, "black": 4 + 4 + 2}
    assert result.winner == "white"


# ============================================================ variants
def test_whole_capture_variant():
    for g in (load_game(VARIANTS / "whole-capture.yaml"),
              load_game("regibus", variant=VARIANTS / "whole-capture.yaml")):
        assert g.options["capture"] == "whole" and g.options["travel_min"] == 3
        assert g.phase(g.initial_state()) == "setup"
    # a user's option still wins over the variant's default
    assert load_game(VARIANTS / "whole-capture.yaml", options={"capture": "top"}).options["capture"] == "top"


def test_short_travel_variant():
    g = load_game(VARIANTS / "short-travel.yaml")
    assert g.options == {"capture": "top", "travel_min": 2, "quiet_limit": 40}


def test_variant_loads_by_relative_path(monkeypatch):
    monkeypatch.chdir(REPO)
    g = load_game("games/regibus/variants/quick-start.yaml")
    assert g.phase(g.initial_state()) == "play"


QUICK_START = {
    **{f"{f}2": "wN" for f in "abcdefgh"}, **{f"{f}3": "wN" for f in "cdef"},
    **{f"{f}7": "bN" for f in "abcdefgh"}, **{f"{f}6": "bN" for f in "cdef"},
}


def test_quick_start_variant_starts_in_play_with_12_knights_each():
    for g in (load_game(VARIANTS / "quick-start.yaml"),
              load_game("regibus", variant=VARIANTS / "quick-start.yaml"),
              load_game(VARIANTS / "quick-start.yaml", options={"capture": "whole"})):
        s = g.initial_state()
        assert g.phase(s) == "play" and g.to_move(s) == "white"
        assert board(g, s) == QUICK_START
        assert g.pools(s) == {"stones": {"white": 0, "black": 0}}
        check_invariants(g, s)
        # Each a2-h2 knight whose square ahead is free steps up, c3-f3 step forward or
        # out to b3 / g3.
        assert g.legal_notations(s) == [
            "a2-a3", "b2-b3", "c3-b3", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "f3-g3", "g2-g3", "h2-h3"]


@pytest.mark.parametrize("options", OPTION_COMBOS)
def test_quick_start_random_games_keep_the_stones(options):
    g = load_game(VARIANTS / "quick-start.yaml", options=options)
    for seed in range(6):
        rng = random.Random(seed)
        s = g.initial_state()
        while not g.is_terminal(s):
            legal = g.legal_notations(s)
            s = g.apply(s, choose(g, s, rng, legal, seed))
            check_invariants(g, s)
        assert g.result(s) is not None


# ============================================================ random games: invariants
@pytest.mark.parametrize("options", [dict(o, quiet_limit=q) for o in OPTION_COMBOS for q in (40, 6)])
def test_stone_invariant_after_every_action_of_random_games(options):
    g = game(**options)
    seen = {"crowned": 0, "ransom": 0, "capture": 0}
    for seed in range(25):  # 8 option combinations x 25 = 200 games
        rng = random.Random(seed)
        s = g.initial_state()
        check_invariants(g, s)
        while not g.is_terminal(s):
            legal = g.legal_notations(s)
            assert len(set(legal)) == len(legal)
            action = choose(g, s, rng, legal, seed)
            mover = g.to_move(s)
            pool = g.pools(s)["stones"][mover]
            was_play = g.phase(s) == "play" and action[0] != "@"
            s = g.apply(s, action)
            check_invariants(g, s)
            if options["capture"] == "whole" and g.phase(s) == "play":
                # no stone ever returns to a pool: no ransom in this option
                assert g.pools(s)["stones"] == {"white": 0, "black": 0}
            if was_play and g.pools(s)["stones"][mover] < pool:
                seen["ransom"] += 1
            seen["capture"] += "x" in action
        seen["crowned"] += sum(g.variables(s)["crowned"].values())
        result = g.result(s)
        power = {p: sum(POWER[x.kind] for x in g.pieces(s) if x.owner == p) for p in PLAYERS}
        assert dict(result.scores) == power
        if power["white"] == power["black"]:
            assert result.winner is None
        else:
            assert result.winner == max(power, key=power.get)
    # the games did reach the interesting rules (short games only captures)
    assert seen["capture"]
    if options["quiet_limit"] == 40:
        assert seen["crowned"]
        if options["capture"] == "top":  # pools refill only in top captures
            assert seen["ransom"]


# ============================================================ tests/data/perft.md
@pytest.mark.parametrize("options", OPTION_COMBOS)
def test_perft_start(options):
    g = game(**options)
    s = g.initial_state()
    assert [api_perft(g, s, d) for d in (1, 2, 3)] == [32, 1024, 31744]


@pytest.mark.parametrize("options", OPTION_COMBOS + [{"capture": "whole", "travel_min": 2, "quiet_limit": 7}])
@pytest.mark.parametrize("name, counts", [
    ("regibus-contact.txt", [5, 32, 334, 3528]),
    ("regibus-baselines.txt", [9, 81, 999, 12321]),
])
def test_perft_records(options, name, counts):
    g = game(**options)
    s = play(g, *record_actions(name))
    assert [api_perft(g, s, d) for d in (1, 2, 3, 4)] == counts


# ============================================================ reference implementation
def reference_view(r, rs):
    terminal = r.is_terminal(rs)
    line = {"to_move": r.to_move(rs), "terminal": terminal, "legal": sorted(r.legal(rs)) if not terminal else []}
    if terminal:
        winner, scores = r.result(rs)
        line["result"] = (winner, dict(scores))
    return line


def our_view(g, s):
    terminal = g.is_terminal(s)
    line = {"to_move": g.to_move(s), "terminal": terminal, "legal": g.legal_notations(s)}
    if terminal:
        result = g.result(s)
        line["result"] = (result.winner, dict(result.scores))
    return line


# The quiet limits below are those of the random games and perft records above: a game
# is compiled once per combination of option values.
@pytest.mark.parametrize("options", OPTION_COMBOS + [{"capture": "whole", "travel_min": 2, "quiet_limit": 7}])
def test_random_games_agree_with_the_reference(options):
    g, r = game(**options), regibus_ref.Game(options)
    for seed in range(24):
        rng = random.Random(1000 + seed)
        s, rs = g.initial_state(), r.initial()
        while True:
            mine, theirs = our_view(g, s), reference_view(r, rs)
            assert mine == theirs, (options, seed, s.ply)
            if mine["terminal"]:
                break
            action = choose(g, s, rng, mine["legal"], seed)
            s, rs = g.apply(s, action), r.apply(rs, action)


def random_figures(rng):
    """A random play-phase position: figures of every rank, mixed stacks, marks,
    crowned flags (an emperor only for a player who has crowned)."""
    crowned = {p: rng.random() < 0.3 for p in PLAYERS}
    left = {p: 12 for p in PLAYERS}
    figures = {}
    has_emperor = set()
    for i, site in enumerate(rng.sample(SITES, rng.randint(2, 16))):
        owner = PLAYERS[i % 2]
        if not left[owner]:
            continue
        kind = rng.choices(["knight", "prince", "king", "emperor"], [3, 2, 4, 1])[0]
        if kind == "emperor" and (not crowned[owner] or owner in has_emperor):
            kind = "king"
        if kind == "emperor":
            has_emperor.add(owner)
        stones = [owner]
        left[owner] -= 1
        for _ in range(rng.choice([0, 0, 1, 2, 3])):
            c = rng.choice(PLAYERS)
            if left[c]:
                stones.insert(0, c)
                left[c] -= 1
        figures[site] = (owner, kind, stones, kind == "king" and rng.random() < 0.5)
    return figures, crowned, left


def state_summary(g, s):
    pieces = sorted((p.site, p.owner, p.kind, p.stones.count("white"), p.stones.count("black"),
                     bool(p.attributes["been_middle"])) for p in g.pieces(s))
    v = g.variables(s)
    return (g.to_move(s), g.is_terminal(s), pieces, g.pools(s)["stones"], v["crowned"], v["quiet"])


def reference_summary(r, rs):
    figs = sorted((regibus_ref.NAMES[q], regibus_ref.PLAYERS[f[0]], regibus_ref.RANKS[f[1]], f[2], f[3], f[4])
                  for q, f in enumerate(rs.board) if f)
    # The reference counts a coronation turn's quiet turn when the placement ends it;
    # the definition counts it with the move. Compare the value the turn will end with.
    quiet = rs.quiet if rs.pending < 0 else (0 if rs.pending_capture else rs.quiet + 1)
    return (r.to_move(rs), r.is_terminal(rs), figs, {"white": rs.pools[0], "black": rs.pools[1]},
            {"white": rs.crowned[0], "black": rs.crowned[1]}, quiet)


@pytest.mark.parametrize("options", OPTION_COMBOS)
def test_random_positions_agree_with_the_reference(options):
    """Hand-built random positions (tall stacks, marks, emperors, crowned flags):
    the legal lists, and for every legal action the position after it and its legal list."""
    options = dict(options, quiet_limit=6)
    g, r = game(**options), regibus_ref.Game(options)
    for seed in range(120):
        rng = random.Random(seed)
        figures, crowned, left = random_figures(rng)
        to_move, quiet = rng.choice(PLAYERS), rng.randint(0, options["quiet_limit"] - 1)
        s = g.make_state({k: (o, kd, {"stones": st, "been_middle": m}) for k, (o, kd, st, m) in figures.items()},
                         to_move=to_move, phase="play", variables={"crowned": crowned, "quiet": quiet},
                         pools={"stones": left})
        rs = r.position({k: (o, kd, (st.count("white"), st.count("black")), m)
                         for k, (o, kd, st, m) in figures.items()},
                        to_move=to_move, crowned=(crowned["white"], crowned["black"]), quiet=quiet,
                        pools=[left["white"], left["black"]])
        legal = g.legal_notations(s)
        assert legal == sorted(r.legal(rs)), (seed, figures, crowned)
        for action in legal:
            s2, rs2 = g.apply(s, action), r.apply(rs, action)
            assert state_summary(g, s2) == reference_summary(r, rs2), (seed, action)
            assert g.legal_notations(s2) == sorted(r.legal(rs2)), (seed, action)
