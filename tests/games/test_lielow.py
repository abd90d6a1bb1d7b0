"""Lielow as bundled (games/lielow), against the rules as played (games/lielow/README.md).

* hand-checked positions: every expected legal list below was written from the
  rules text, not printed by the interpreter;
* perft from the start (tests/data/perft.md);
* a differential test against the independent reference implementation
  tests/reference/lielow_ref.py on random games.
"""

from __future__ import annotations

import functools
import random

import pytest

from interpreter import IllegalActionError, load_game
from interpreter.analysis.perft import perft as engine_perft
from tests import helpers
from tests.helpers import api_perft
from tests.reference import lielow_ref

GAME = load_game("lielow")


def position(white: dict, black: dict, kings=(), to_move="white"):
    """``{site: range}`` per player; ``kings``: the sites holding a crown."""
    pieces = {}
    for owner, sites in (("white", white), ("black", black)):
        for site, r in sites.items():
            pieces[site] = (owner, "piece", {"range": r, "king": site in kings})
    return GAME.make_state(pieces, to_move=to_move)


def moves_from(state, site):
    return sorted(a for a in GAME.legal_notations(state) if a.startswith(site))


def board(state):
    """``{site: (owner, range, king)}``."""
    return helpers.board(GAME, state, lambda p: (p.owner, p.attributes["range"], p.attributes["king"]))


def kings(state):
    return {p.owner: p.site for p in GAME.pieces(state) if p.attributes["king"]}


play = functools.partial(helpers.play, GAME)


# ======================================================================== moves
def test_start_position_and_first_moves():
    s = GAME.initial_state()
    assert GAME.to_move(s) == "white" and GAME.players == ("white", "black")
    b = board(s)
    assert {site for site, (owner, _, _) in b.items() if owner == "white"} == {
        f + "2" for f in "abcdefgh"}
    assert {site for site, (owner, _, _) in b.items() if owner == "black"} == {
        f + "7" for f in "abcdefgh"}
    assert all(r == 1 and not k for _, r, k in b.values())
    legal = GAME.legal_notations(s)
    assert len(legal) == len(set(legal)) == 46
    # an edge piece: 4 squares and one move off the board (three directions leave it)
    assert moves_from(s, "a2") == ["a2-a1", "a2-a3", "a2-b1", "a2-b3", "a2-off"]
    assert moves_from(s, "h2") == ["h2-g1", "h2-g3", "h2-h1", "h2-h3", "h2-off"]
    # an inner piece: sideways is blocked by its own neighbours
    assert moves_from(s, "d2") == ["d2-c1", "d2-c3", "d2-d1", "d2-d3", "d2-e1", "d2-e3"]
    assert [a for a in legal if a.endswith("-off")] == ["a2-off", "h2-off"]


def test_off_board_moves_count_once_per_piece():
    # a1, range 3: five of the eight directions leave the board -> one `a1-off`
    s = position({"a1": 3}, {"h8": 1}, kings=("a1", "h8"))
    assert GAME.legal_notations(s) == ["a1-a4", "a1-d1", "a1-d4", "a1-off"]
    # d4, range 4: up d8, right h4, up-right h8; the five others leave the board
    s = position({"d4": 4}, {"a7": 1}, kings=("d4", "a7"))
    assert GAME.legal_notations(s) == ["d4-d8", "d4-h4", "d4-h8", "d4-off"]
    # range 8 from anywhere: only off the board
    s = position({"e5": 8, "b2": 1}, {"a7": 1}, kings=("e5", "a7"))
    assert moves_from(s, "e5") == ["e5-off"]
    # range 1 in the middle: eight squares, never off
    s = position({"e5": 1}, {"a7": 1}, kings=("e5", "a7"))
    assert GAME.legal_notations(s) == ["e5-d4", "e5-d5", "e5-d6", "e5-e4", "e5-e6",
                                       "e5-f4", "e5-f5", "e5-f6"]


def test_moves_pass_over_pieces_but_not_onto_own():
    # a1 (range 2) leaps over its own a2 and over the enemy b2
    s = position({"a1": 2, "a2": 1}, {"b2": 1, "h8": 1}, kings=("a1", "h8"))
    assert GAME.legal_notations(s) == sorted([
        "a1-a3", "a1-c3", "a1-c1", "a1-off",
        "a2-a3", "a2-b3", "a2xb2", "a2-b1", "a2-off"])
    # own pieces on a3 and c3: those two landings are gone
    s = position({"a1": 2, "a3": 1, "c3": 1}, {"h8": 1}, kings=("a1", "h8"))
    assert moves_from(s, "a1") == ["a1-c1", "a1-off"]


def test_capture_notation_and_enemy_only():
    s = position({"c3": 2, "a1": 1}, {"e5": 1, "c5": 1, "h8": 3}, kings=("c3", "h8"))
    assert moves_from(s, "c3") == sorted([
        "c3-a3", "c3-a5", "c3-c1", "c3xc5", "c3-e1", "c3-e3", "c3xe5"])
    with pytest.raises(IllegalActionError):
        GAME.apply(s, "c3-e5")  # a capture is written with `x`


def test_range_grows_on_empty_and_resets_on_capture():
    s = position({"c3": 2, "a1": 1}, {"e5": 1, "h8": 3}, kings=("c3", "h8"))
    t = GAME.apply(s, "c3-e3")
    assert board(t)["e3"] == ("white", 3, True) and "c3" not in board(t)
    t = GAME.apply(t, "h8-h5")  # Black: 3 squares down, range 3 -> 4
    assert board(t)["h5"] == ("black", 4, True)
    t = GAME.apply(s, "c3xe5")
    assert board(t)["e5"] == ("white", 1, True)  # a1 ties at 1: the crown stays
    assert [p for p in GAME.pieces(t) if p.owner == "black"][0].site == "h8"
    assert not GAME.is_terminal(t) and GAME.to_move(t) == "black"


# ======================================================================== the king
def test_no_king_before_first_move():
    s = GAME.initial_state()
    assert kings(s) == {}
    s = play("d2-d3")
    assert kings(s) == {"white": "d3"}  # Black has not moved: no king
    s = play("e7-e6", state=s)
    assert kings(s) == {"white": "d3", "black": "e6"}


def test_king_moves_with_its_piece_and_ties_keep_the_old_king():
    s = play("d2-d3", "a7-a6", "e2-e3")  # e3 reaches range 2 = d3's: no change
    assert kings(s)["white"] == "d3"
    s = play("b7-b6", "d3-d5", state=s)  # the king moves: the crown moves with it
    assert kings(s)["white"] == "d5" and board(s)["d5"] == ("white", 3, True)
    s = play("c7-c6", "e3-e5", state=s)  # e5 at 3 ties d5 at 3: the crown stays
    assert kings(s)["white"] == "d5" and board(s)["e5"] == ("white", 3, False)


def test_king_changes_after_its_own_capture():
    # the king d4 (range 3) captures: back to 1, and a1 (range 2) is uniquely the greatest
    s = position({"d4": 3, "a1": 2, "h1": 1}, {"d7": 1, "h8": 2}, kings=("d4", "h8"))
    t = GAME.apply(s, "d4xd7")
    assert not GAME.is_terminal(t)
    assert kings(t) == {"white": "a1", "black": "h8"}
    assert board(t)["d7"] == ("white", 1, False)


def test_king_changes_after_the_opponent_captures():
    # Black's king b7 has range 1; c5 and e5 tie at 2 above it. White takes e5 (a
    # greatest piece, but not the king): no win, and c5 becomes Black's king.
    s = position({"e3": 2, "a1": 1}, {"b7": 1, "c5": 2, "e5": 2},
                 kings=("e3", "b7"))
    t = GAME.apply(s, "e3xe5")
    assert not GAME.is_terminal(t)
    # White's crown moved with e3 to e5 (range 1 now, tied with a1: it stays)
    assert kings(t) == {"white": "e5", "black": "c5"}


def test_king_changes_after_a_removal_off_the_board():
    # White's king c3 has range 1; a4 and h5 tie at 2. a4 leaves the board: no loss
    # (not the king, though one of the greatest), and h5 becomes the king.
    s = position({"c3": 1, "a4": 2, "h5": 2}, {"h8": 2}, kings=("c3", "h8"))
    t = GAME.apply(s, "a4-off")
    assert not GAME.is_terminal(t)
    assert kings(t) == {"white": "h5", "black": "h8"}
    assert "a4" not in board(t)
    # the other way round: c3 steps to range 2 and ties: the crown stays on it
    t = GAME.apply(s, "c3-c4")
    assert kings(t)["white"] == "c4"


def test_non_king_with_the_greatest_range_may_leave():
    # d4 is king at 3; h1 also has 3 (a tie, so not king) and leaves eastwards
    s = position({"d4": 3, "h1": 3}, {"a8": 1}, kings=("d4", "a8"))
    t = GAME.apply(s, "h1-off")
    assert not GAME.is_terminal(t) and kings(t)["white"] == "d4"


def test_lone_piece_is_king():
    # White has not got a king (a1 and d4 tie at 1); Black takes d4: a1 is alone
    s = position({"a1": 1, "d4": 1}, {"d5": 1, "h8": 1}, kings=("h8",), to_move="black")
    t = GAME.apply(s, "d5xd4")
    assert not GAME.is_terminal(t)
    assert kings(t) == {"white": "a1", "black": "h8"}  # d4 (1) ties h8 (1): h8 keeps it
    # a player without a king sends one of two pieces off the board: the other is king
    s = position({"a1": 1, "c3": 1}, {"h8": 1}, kings=("h8",))
    t = GAME.apply(s, "a1-off")
    assert not GAME.is_terminal(t) and kings(t)["white"] == "c3"


def test_player_without_king_can_neither_lose_nor_be_beaten():
    s = play("a2-off")  # all White pieces still at range 1: no king
    assert kings(s) == {}
    s = play("a7-a6", "h2-off", state=s)
    assert not GAME.is_terminal(s) and "white" not in kings(s)
    # Black has not moved (no king): taking one of its pieces is no win
    s = position({"d4": 3, "a1": 1}, {"d7": 1, "a7": 1, "h7": 1}, kings=("d4",))
    t = GAME.apply(s, "d4xd7")
    assert not GAME.is_terminal(t) and "black" not in kings(t)


# ======================================================================== the end
def test_capturing_the_enemy_king_wins():
    s = position({"d4": 2, "a1": 1}, {"d6": 2, "h8": 1}, kings=("d4", "d6"))
    t = GAME.apply(s, "d4xd6")
    assert GAME.is_terminal(t) and GAME.to_move(t) is None
    assert GAME.legal_notations(t) == []
    r = GAME.result(t)
    assert r.winner == "white" and r.scores == {"white": 1, "black": 0}
    # and Black capturing White's king
    s = position({"d4": 2, "a1": 1}, {"d6": 2, "h8": 1}, kings=("d4", "d6"), to_move="black")
    r = GAME.result(GAME.apply(s, "d6xd4"))
    assert r.winner == "black" and r.scores == {"white": 0, "black": 1}


def test_the_enemy_king_as_it_stood_before_the_move():
    # Taking a greatest piece that is not the king is no win (see
    # test_king_changes_after_the_opponent_captures); taking the king wins though
    # it has the smallest range:
    s = position({"b5": 2, "a1": 1}, {"b7": 1, "c5": 2, "e5": 2}, kings=("b5", "b7"))
    t = GAME.apply(s, "b5xb7")
    assert GAME.is_terminal(t) and GAME.result(t).winner == "white"


def test_moving_ones_own_king_off_the_board_loses():
    s = play("a2-a3", "h7-h6")  # a3 (range 2) is White's king
    assert kings(s)["white"] == "a3" and "a3-off" in GAME.legal_notations(s)
    t = GAME.apply(s, "a3-off")
    assert GAME.is_terminal(t)
    r = GAME.result(t)
    assert r.winner == "black" and r.scores == {"white": 0, "black": 1}
    # the king at range 1 loses by leaving, though others have greater (tied) ranges
    s = position({"a1": 1, "g1": 2, "h2": 2}, {"h8": 1}, kings=("a1", "h8"))
    r = GAME.result(GAME.apply(s, "a1-off"))
    assert r.winner == "black" and r.scores == {"white": 0, "black": 1}


def test_no_legal_move_ends_the_game_without_winner():
    # Unreachable in play (the farthest piece in some direction can always move on or
    # off the board, and a lone piece is king); a hand-built position without White
    # pieces shows the guard: the game is over, nobody wins.
    s = GAME.make_state({"h8": ("black", "piece", {"range": 1, "king": True})},
                        to_move="white")
    assert GAME.legal_notations(s) == []
    assert GAME.is_terminal(s) and GAME.to_move(s) is None
    r = GAME.result(s)
    assert r.winner is None and r.scores == {"white": 0, "black": 0}


def test_states_are_values():
    s = GAME.initial_state()
    before = GAME.legal_notations(s)
    t = GAME.apply(s, "d2-d3")
    assert GAME.legal_notations(s) == before and board(s)["d2"] == ("white", 1, False)
    assert t.ply == 1 and GAME.last_action(t).notation == "d2-d3"


# ======================================================================== perft
@pytest.mark.parametrize("depth, count", [(1, 46), (2, 2116), (3, 97520)])
def test_perft_public_api(depth, count):
    assert api_perft(GAME, GAME.initial_state(), depth) == count


def test_perft_depth4_engine():
    # about 1 s through interpreter.analysis.perft
    assert engine_perft(GAME, GAME.initial_state(), 4) == [46, 2116, 97520, 4426560]


@pytest.mark.slow
def test_perft_depth4_public_api():
    assert api_perft(GAME, GAME.initial_state(), 4) == 4426560


def test_perft_depth4_hand_check():
    # perft.md: 32 White first moves make a king that can leave the board at ply 3
    n = 0
    for a in GAME.legal_notations(GAME.initial_state()):
        s = play(a)
        k = kings(s).get("white")
        if k is not None:
            t = GAME.apply(s, "a7-a6")
            if f"{k}-off" in GAME.legal_notations(t):
                n += 1
    assert n == 32


# ======================================================================== differential
def ref_board(rs):
    out = {}
    for sq, v in enumerate(rs.board):
        if v:
            owner = "white" if v > 0 else "black"
            king = rs.kings[0 if v > 0 else 1] == sq
            out[lielow_ref.NAMES[sq]] = (owner, abs(v), king)
    return out


def cautious(legal, s, rng):
    """Random, but never the own king off the board unless forced, and captures
    preferred half the time: longer games with more crown changes than uniform play."""
    king = kings(s).get(GAME.to_move(s))
    safe = [a for a in legal if a != f"{king}-off"] or legal
    captures = [a for a in safe if "x" in a]
    if captures and rng.random() < 0.5:
        return rng.choice(captures)
    return rng.choice(safe)


def uniform(legal, s, rng):
    return rng.choice(legal)


@pytest.mark.parametrize("policy, n_games, seed", [(uniform, 200, 20240611),
                                                   (cautious, 150, 7)])
def test_differential_against_reference(policy, n_games, seed):
    ref = lielow_ref.Game()
    rng = random.Random(seed)
    plies = 0
    outcomes = {"white": 0, "black": 0, None: 0}
    for _ in range(n_games):
        s, rs = GAME.initial_state(), ref.initial()
        while True:
            assert GAME.is_terminal(s) == ref.is_terminal(rs), s.ply
            if GAME.is_terminal(s):
                break
            assert GAME.to_move(s) == ref.to_move(rs)
            legal = GAME.legal_notations(s)
            assert legal == sorted(ref.legal(rs)), s.ply
            assert board(s) == ref_board(rs), s.ply
            a = policy(legal, s, rng)
            s, rs = GAME.apply(s, a), ref.apply(rs, a)
            plies += 1
        # the final position: same pieces and ranges (the interpreter runs the crown
        # update after the ending move too, the reference does not; the game is over)
        assert ({k: v[:2] for k, v in board(s).items()}
                == {k: v[:2] for k, v in ref_board(rs).items()})
        winner, scores = ref.result(rs)
        r = GAME.result(s)
        assert (r.winner, r.scores) == (winner, scores)
        outcomes[winner] += 1
    assert plies > 10 * n_games
    assert outcomes["white"] > 0 and outcomes["black"] > 0
