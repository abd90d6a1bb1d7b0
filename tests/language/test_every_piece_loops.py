"""Conditions over every piece (`exists(pieces, ...)`, `count(pieces where ...)`,
`all(...)`) loop over the owners' site lists as they are, without a list of all
sites made first (code.iterated). What runs where such a condition holds
may change those lists: the loop stops right after, so the answers and the
position must be those of the plain rules."""
from interpreter import load_game
from tests.helpers import helper_calls, stones_and_rocks, write_definition

RULES = """\
    phase play:
        turn: place
    decision place:
        action stone:
            drop stone on sites
            where count(pieces, it is stone) < 4 and all(pieces, it is stone or it.owner == none)
            notation "{to}"
            onto empty:
                place
                # (removes from the lists the condition loops over, while it loops)
                if exists(pieces, it is rock):
                    for each s in pieces where it is rock:
                        remove s
                    rocks_cleared += 1
"""


def _game(tmp_path):
    yaml = stones_and_rocks(extra="variables:\n  rocks_cleared: {type: int, default: 0}\n")
    return load_game(write_definition(tmp_path, yaml, RULES))


def _every_piece_loops(game) -> bool:
    return bool(helper_calls(game, "h_each_piece"))


def test_a_rule_that_clears_what_its_condition_loops_over(tmp_path):
    game = _game(tmp_path)
    assert _every_piece_loops(game)
    start = game.make_state(
        {"a1": ("neutral", "rock"), "b2": ("white", "stone"), "c4": ("black", "stone"), "d4": ("neutral", "rock")},
        to_move="white",
    )
    # 2 of the 4 stones allowed are on the board: every empty site is legal
    assert len(game.legal_notations(start)) == 16 - 4
    after = game.apply(start, "c3")
    assert {(p.site, p.kind) for p in game.pieces(after)} == {("b2", "stone"), ("c3", "stone"), ("c4", "stone")}
    assert game.variables(after)["rocks_cleared"] == 1
    # no rock left: the next stone clears nothing
    again = game.apply(after, "a1")
    assert game.variables(again)["rocks_cleared"] == 1
    # four stones: no more drops
    assert game.legal_notations(again) == []


def test_an_owned_rock_fails_all(tmp_path):
    game = _game(tmp_path)
    blocked = game.make_state({"a1": ("white", "stone"), "b1": ("white", "rock")}, to_move="black")
    assert game.legal_notations(blocked) == []
