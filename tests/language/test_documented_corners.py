"""Corners of the language that format.md spells out, pinned on small games: what
`to` is after a pass and for an off-board action (3.5, 3.11), that `forbid result`
judges a move that ends the game (3.7), a chain of follow-ups ending in a chance
event (3.15), and `group()` over neutral pieces (3.12.2)."""
from __future__ import annotations

import textwrap

import pytest

from interpreter import load_game
from interpreter.validation.diagnostics import DefinitionError

YAML = """\
game: corners
rules: game.rules
players:
  - {name: white, forward: n}
  - {name: black, forward: s}
board:
  grid: {files: 5, ranks: 5}
pieces:
  man: {symbol: M}
  king: {symbol: K}
  rock: {symbol: R, owner: neutral}
  wall: {symbol: W, owner: neutral}
variables:
  v: {type: int}
  w: {type: int}
"""


def make(tmp_path, rules: str, setup: str):
    (tmp_path / "game.yaml").write_text(YAML + "setup:\n" + textwrap.indent(textwrap.dedent(setup), "  "))
    (tmp_path / "game.rules").write_text(textwrap.dedent(rules))
    game = load_game(str(tmp_path))
    return game, game.initial_state()


def after(game, state, *moves):
    for move in moves:
        state = game.apply(state, move)
    return state


# ------------------------------------------------------------------ `to` after a pass
def test_after_a_pass_to_from_piece_and_target_are_none(tmp_path):
    game, state = make(tmp_path, """\
        phase play:
            turn: move
            after each action:
                w = 1 if to == none and from == none else 2
        decision move:
            action wait:
                pass
            after each action:
                v = 1 if piece == none and target == none else 2
        """, "white: {man: [a1]}\nblack: {man: [e5]}\n")
    assert game.variables(after(game, state, "pass")) == {"v": 1, "w": 1}


# ------------------------------------------------------------------ `to` off the board
OFF_BOARD = """\
    phase play:
        turn: move
    decision move:
        action leap by man:
            leap n distance 3
            where {where}
            onto empty: move
            off board:
                {off}
        after each action:
            w = 1 if to == none else 2
    """


@pytest.mark.parametrize("where, legal", [
    ("to == none", ["a3-off"]),
    ("to != none", ["a1-a4"]),
    ("to is empty", ["a1-a4"]),  # none is not an empty site
    ("to not in [a4]", ["a3-off"]),
    ("target == none", ["a3-off"]),
])
def test_in_a_where_to_is_none_for_the_off_board_candidate(tmp_path, where, legal):
    game, state = make(tmp_path, OFF_BOARD.format(where=where, off="remove piece"),
                       "white: {man: [a1, a3]}\nblack: {man: [e5]}\n")
    assert game.legal_notations(state) == legal
    if "a3-off" in legal:
        assert game.variables(after(game, state, "a3-off"))["w"] == 1  # and in `after each action`


def test_to_has_no_meaning_in_the_statements_of_an_off_board_case(tmp_path):
    with pytest.raises(DefinitionError) as caught:
        make(tmp_path, OFF_BOARD.format(where="true", off="v = 1 if to == none else 2"), "white: {man: [a3]}\n")
    assert "'to' (the landing or chosen site) has no meaning in action 'leap', off board" in str(caught.value)


# ------------------------------------------------------------------ forbid result and the end of the game
@pytest.mark.parametrize("ending", ["win", "lose", "draw", "end game"])
def test_forbid_result_judges_a_move_that_ends_the_game(tmp_path, ending):
    game, state = make(tmp_path, f"""\
        forbid result where v == 1
        phase play:
            turn: move
        decision move:
            action finish by man:
                step n
                onto empty:
                    move
                    v = 1
                    {ending}
            action walk by king:
                step n
                onto empty: move
        """, "white: {man: [a1], king: [c1]}\nblack: {man: [e5]}\n")
    assert game.legal_notations(state) == ["c1-c2"]


def test_the_position_judged_after_an_ending_is_without_the_after_each_action_rules(tmp_path):
    game, state = make(tmp_path, """\
        forbid result where v == 1
        phase play:
            turn: move
            after each action:
                v = 1
        decision move:
            action finish by man:
                step n
                onto empty:
                    move
                    win
            action walk by king:
                step n
                onto empty: move
        """, "white: {man: [a1], king: [c1]}\nblack: {man: [e5]}\n")
    # `walk` leaves v == 1 (the phase's rule ran); `finish` ended the game before it.
    assert game.legal_notations(state) == ["a1-a2"]


# ------------------------------------------------------------------ follow-ups ending in chance
CHAIN = """\
    phase play:
        turn: move, last
        after each turn:
            w += 1
    decision move:
        action first by man:
            step forward
            onto empty:
                move
                then second
    decision second:
        action again by the same piece:
            step forward
            onto empty:
                move
                then roll
    chance roll:
        outcomes 1 to 2
        v = outcome
        if outcome == 2:
            then extra
    decision extra:
        action {extra}:
            step forward
            onto empty: move
    decision last:
        action king_step by king:
            step forward
            onto empty: move
    """
SETUP = "white: {man: [a1], king: [c1]}\nblack: {man: [e5], king: [c5]}\n"


def test_a_chain_of_follow_ups_may_end_in_a_chance_event_and_the_turn_goes_on(tmp_path):
    game, state = make(tmp_path, CHAIN.format(extra="push by man"), SETUP)
    state = after(game, state, "a1-a2", "a2-a3")
    assert game.to_move(state) == "chance" and game.legal_notations(state) == ["roll:1", "roll:2"]
    # roll 1: the chain ends; the turn goes on with the decision after the one that started it
    one = after(game, state, "roll:1")
    assert game.to_move(one) == "white" and game.legal_notations(one) == ["c1-c2"]
    assert game.variables(one) == {"v": 1, "w": 0}
    # roll 2: the outcome's `then` starts another follow-up of the same player first
    two = after(game, state, "roll:2")
    assert game.to_move(two) == "white" and game.legal_notations(two) == ["a3-a4"]
    two = after(game, two, "a3-a4")
    assert game.legal_notations(two) == ["c1-c2"]
    two = after(game, two, "c1-c2")
    assert game.to_move(two) == "black" and game.variables(two)["w"] == 1  # one turn ended, once


def test_after_a_chance_event_the_same_piece_is_no_piece(tmp_path):
    game, state = make(tmp_path, CHAIN.format(extra="push by the same piece"), SETUP)
    state = after(game, state, "a1-a2", "a2-a3", "roll:2")
    # A chance outcome acts on no piece: the follow-up it starts has nothing to move,
    # and a player who cannot act ends the game (no `if no action`: by the scores).
    assert game.legal_notations(state) == [] and game.is_terminal(state)


# ------------------------------------------------------------------ group() of neutral pieces
@pytest.mark.parametrize("site, dirs, size", [
    ("a1", "", 3),  # a1, a2 and b2: neutral pieces of both kinds, joined orthogonally
    ("a1", ", all", 4),  # and c3, diagonally
    ("c3", "", 1),
    ("e5", "", 1),  # a white man: its own group, not the neutral pieces beside it
    ("b1", "", 0),  # an empty site
])
def test_group_of_a_neutral_piece_joins_the_neutral_pieces(tmp_path, site, dirs, size):
    game, state = make(tmp_path, f"""\
        phase play:
            turn: move
        decision move:
            action wait:
                pass
            after each action:
                v = count(group({site}{dirs}))
        """, "white: {man: [e5]}\nblack: {man: [e3]}\nneutral: {rock: [a1, b2, c3, d5], wall: [a2, e4]}\n")
    assert game.variables(after(game, state, "pass"))["v"] == size
