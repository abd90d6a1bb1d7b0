"""A group named by `let` (`let g = group(X)`) is also kept as a bitmask of its
sites, read from the groups the position keeps (runtime/chains.py), and the
questions whether its sites are in a region — `exists(g, it in R)`, `count(g, it
in R)`, `all(g, it in R)`, `it not in R`, R a region or a define's parameter given
one — are one AND with the region's mask (compilation/liberties.py:
`group_stones`, `region_test`); so are `X in g` (with the site's bit), `count(g)`
(a popcount) and `exists(g)` (compilation/expr_sets.py). Checked on hand-made Havannah positions (the
definition an outsider wrote from the docs: tests/data/havannah) and against the
loops they replace over random games."""
import random

import pytest

from interpreter import load_game
from interpreter.compilation import expr_sets, statements
from tests.helpers import REPO, helper_calls, play, random_games_seen, stones_and_rocks, write_definition

HAVANNAH4 = str(REPO / "tests/data/havannah/havannah4.yaml")


@pytest.fixture(scope="module")
def havannah():
    return load_game(HAVANNAH4)


def _ends(game, moves):
    """The state before the last move (still going) and after it."""
    before = play(game, *moves[:-1])
    assert not game.is_terminal(before)
    return before, game.apply(before, moves[-1])


def test_havannah_asks_the_group_as_a_bitmask(havannah):
    assert helper_calls(havannah, "h_group_mask")
    # (the list of the group's sites is made nowhere: only the bitmask is asked)
    assert not helper_calls(havannah, "h_group") and not helper_calls(havannah, "h_group_kept")


def test_a_group_joining_two_corners_wins(havannah):
    # white: a1 b1 c1 d1 (a1 and d1 are corners); black scattered
    moves = ["@a1", "@d4", "@b1", "@c4", "@c1", "@e4", "@d1"]
    _, after = _ends(havannah, moves)
    assert havannah.is_terminal(after) and havannah.result(after).winner == "white"


def test_a_group_joining_three_sides_wins(havannah):
    # white: b1 (side 0), a2 (side 5), e2 (side 1), joined by b2 c2 d2; no corner
    moves = ["@b1", "@d5", "@b2", "@b4", "@a2", "@f5", "@c2", "@c6", "@d2", "@g6", "@e2"]
    before, after = _ends(havannah, moves)
    assert havannah.is_terminal(after) and havannah.result(after).winner == "white"
    # two sides are not enough: the same group without e2 is not a win
    assert not havannah.is_terminal(before)


def test_a_ring_wins(havannah):
    # white closes a ring around the empty d4; black's stones are lone corners
    moves = ["@c3", "@a1", "@d3", "@g7", "@e4", "@a4", "@e5", "@g4", "@d5", "@d7", "@c4"]
    _, after = _ends(havannah, moves)
    assert havannah.is_terminal(after) and havannah.result(after).winner == "white"


RULES = """\
    phase play:
        turn: place
        if no action:
            draw

    define touches(g, side) = 1 if exists(g, it in side) else 0

    decision place:
        action stone:
            drop stone on sites
            onto empty:
                place
                let g = group(to)
                if count(g, it in corners) >= 2 or touches(g, top) + touches(g, bottom) + touches(g, left) >= 3:
                    win
                elif all(g, it in middle) and count(g, it not in middle) == 0 and count(g, it in middle) >= 4:
                    win
                elif exists(g, it not in middle) and count(g, it in top) >= 3 and not all(g, it not in left):
                    lose
"""
REGIONS = """\
regions:
  corners: [a1, e1, a5, e5]
  top: [a5, b5, c5, d5, e5]
  bottom: [a1, b1, c1, d1, e1]
  left: [a1, a2, a3, a4, a5]
  middle: [b2, c2, d2, b3, c3, d3, b4, c4, d4]
"""


def test_the_masks_answer_what_the_loops_answer(tmp_path, monkeypatch):
    path = write_definition(tmp_path, stones_and_rocks(files=5, ranks=5, extra=REGIONS), RULES)
    game = load_game(path)
    assert helper_calls(game, "h_group_mask") and not helper_calls(game, "h_group")
    # (wins and losses both came: each question answered yes and no)
    _plays_as_without(game, path, monkeypatch, expr_sets, "region_test")


def test_a_group_also_read_as_a_list_keeps_its_list(tmp_path):
    rules = RULES.replace("let g = group(to)", "let g = group(to)\n                let n = count(g, it is own)")
    path = write_definition(tmp_path, stones_and_rocks(files=5, ranks=5, extra=REGIONS), rules)
    game = load_game(path)
    assert helper_calls(game, "h_group_mask")
    assert helper_calls(game, "h_group") or helper_calls(game, "h_group_kept")


CAPTURES = RULES.replace("""            onto empty:
                place
""", """            onto enemy:
                remove target
                if count(neighbours(to), it is own) >= 2:
                    place
            onto empty:
                place
""")


def test_records_without_liberties_follow_captures(tmp_path, monkeypatch):
    # No rule asks liberties: the records keep the groups' stones only
    # (runtime/chains.py `wrote_stones`), through placements that join groups,
    # pieces taken off and pieces replaced by the other owner's. Playouts played
    # in place (the records kept from ply to ply) end as those searching groups.
    path = write_definition(tmp_path, stones_and_rocks(files=5, ranks=5, extra=REGIONS), CAPTURES)
    game = load_game(path)
    assert helper_calls(game, "h_chains_stones_wrote") and not helper_calls(game, "h_chains_wrote")
    # (`remove target` leaves its site empty: told so, `cleared_stones`)
    assert helper_calls(game, "h_chains_stones_cleared") and not helper_calls(game, "h_chains_cleared")
    with monkeypatch.context() as patched:
        patched.setattr(expr_sets, "region_test", lambda *args: None)
        searched = load_game(path)
    assert not helper_calls(searched, "h_group_mask")

    def ends(g):
        out = []
        for seed in range(80):
            s = g.initial_state()
            plies = g.engine.random_playout(s, random.Random(seed), 200)
            out.append((plies, s.board[:], g.result(s).winner if g.is_terminal(s) else None))
        return out

    played = ends(game)
    assert played == ends(searched)
    assert {winner for _, _, winner in played} >= {"white", "black"}
    # (stones were taken off: fewer on the board than placed)
    assert any(sum(piece is not None for piece in board) < plies for plies, board, _ in played)


MEMBERS = """\
    phase play:
        turn: place
        if no action:
            draw

    decision place:
        action stone:
            drop stone on sites
            onto empty:
                place
                let g = group(to)
                if count(g) >= 7:
                    win
                elif exists(g) and count(neighbours(to), it in g) >= 3 and \\
                        exists(connected(c3, it == c3 or it not in g), it in top):
                    lose
"""


def test_membership_count_and_exists_of_a_named_group_read_its_bits(tmp_path, monkeypatch):
    path = write_definition(tmp_path, stones_and_rocks(files=5, ranks=5, extra=REGIONS), MEMBERS)
    game = load_game(path)
    # (no list of the group made: `in`, `count` and `exists` read the bitmask)
    assert helper_calls(game, "h_group_mask")
    assert not helper_calls(game, "h_group") and not helper_calls(game, "h_group_kept")
    _plays_as_without(game, path, monkeypatch, statements, "group_stones")


def _plays_as_without(game, path, monkeypatch, module, mechanism):
    """The same 60 random games as the definition at `path` loaded with `module.mechanism`
    switched off (no group bitmask then), both players winning some."""
    with monkeypatch.context() as patched:
        patched.setattr(module, mechanism, lambda *args: None)
        without = load_game(path)
    assert not helper_calls(without, "h_group_mask")
    seeds = range(60)
    games = random_games_seen(game, seeds)
    assert games == random_games_seen(without, seeds)
    assert {winner for _, winner, _ in games} >= {"white", "black"}
