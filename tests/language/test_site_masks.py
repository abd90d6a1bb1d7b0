"""Bitmasks of sites (compilation/site_masks.py): a count over a fixed set of sites
in the listers is one AND and a popcount, the sites a leap passes one AND, and
`exists(pieces of X, on_full_line(it))` one mask per declared line. Each must
answer as the loops it replaces: hand-checked positions, and the same actions
listed (the same games played) with the masks switched off."""
import ast
import random

import pytest

from interpreter import load_game
from interpreter.compilation import site_masks
from interpreter.runtime import helpers
from tests.helpers import REPO, drop_where, generated, helper_calls, names_read, stones_and_rocks, write_definition

LINES_OF_ACTION = str(REPO / "benchmarks" / "games" / "lines_of_action")
PENTAGO = str(REPO / "benchmarks" / "games" / "pentago")


def _game(tmp_path, rules: str, yaml: str = stones_and_rocks()):
    return load_game(write_definition(tmp_path, yaml, rules))


def _popcounts(game) -> list:
    return [node for node in generated(game, ast.Attribute, origin=": the legal actions") if node.attr == "bit_count"]


def test_counting_the_pieces_along_a_ray_is_a_popcount(tmp_path):
    game = _game(tmp_path, drop_where("count(ray(to, n), it is occupied) == 2"))
    assert _popcounts(game) and "h_occupied_mask" in names_read(game)
    pieces = {"b3": ("white", "stone"), "b4": ("neutral", "rock"), "c2": ("black", "stone"), "c4": ("black", "stone")}
    # north of b1: b2 (empty), b3, b4; of b2: b3, b4; of c1: c2, c3 (empty), c4
    state = game.make_state(pieces, to_move="white")
    assert sorted(game.legal_notations(state)) == ["b1", "b2", "c1"]


def test_two_counts_of_one_condition_over_disjoint_rays_are_one_popcount(tmp_path):
    game = _game(tmp_path, drop_where("count(ray(to, n), it is occupied) + count(ray(to, s), it is occupied) == 2"))
    assert len(_popcounts(game)) == 1
    pieces = {"b3": ("white", "stone"), "b4": ("neutral", "rock"), "c2": ("black", "stone"), "c4": ("black", "stone")}
    # the pieces of the site's file but its own: two on files b and c
    state = game.make_state(pieces, to_move="white")
    assert sorted(game.legal_notations(state)) == ["b1", "b2", "c1", "c3"]


def test_counts_over_sets_that_share_sites_stay_two(tmp_path):
    game = _game(tmp_path, drop_where("count(ray(to, n), it is occupied) + count(neighbours(to), it is occupied) == 2"))
    assert len(_popcounts(game)) == 2
    state = game.make_state({"b3": ("white", "stone"), "c2": ("black", "stone")}, to_move="white")
    # the pieces north of the site plus those around it: c1 has c2 north and c2
    # around, c3 nothing north and b3, c2 around; b2 has three (b3 north, b3 and
    # c2 around), every other site fewer than two
    assert sorted(game.legal_notations(state)) == ["c1", "c3"]


def test_counting_by_owner_and_by_site(tmp_path):
    game = _game(tmp_path, drop_where("count(neighbours(to), it is enemy or it == a1) >= 2"))
    # (of two players, the enemy's sites are the opponent's list: no walk over every player's)
    assert _popcounts(game) and "h_sites_mask" in names_read(game) and "h_others_mask" not in names_read(game)
    pieces = {"b2": ("black", "stone"), "c3": ("black", "stone"), "a3": ("white", "stone"), "d1": ("neutral", "rock")}
    # white's enemies are b2 and c3 (not the rock), and a1 counts where it is a neighbour
    white = game.make_state(pieces, to_move="white")
    assert sorted(game.legal_notations(white)) == ["a2", "b1", "b3", "c2"]
    # black's enemy is a3: only a2 has it and a1 around
    black = game.make_state(pieces, to_move="black")
    assert game.legal_notations(black) == ["a2"]


def test_a_count_the_condition_of_which_reads_more_than_the_site_is_a_loop(tmp_path):
    game = _game(tmp_path, drop_where("count(neighbours(to), neighbour(it, n) is empty) >= 2"))
    assert not _popcounts(game)


def test_exists_of_a_kind_over_the_neighbours_is_one_mask(tmp_path):
    game = _game(tmp_path, drop_where("exists(neighbours(to), it is rock)"))
    assert "h_kind_mask" in names_read(game)
    pieces = {"a1": ("neutral", "rock"), "d4": ("neutral", "rock"), "c1": ("white", "stone")}
    # (orthogonal) neighbours of a1: a2, b1; of d4: c4, d3 (c1's stone is no rock)
    state = game.make_state(pieces, to_move="white")
    assert sorted(game.legal_notations(state)) == ["a2", "b1", "c4", "d3"]


def test_all_and_count_of_a_kind_with_owners_and_emptiness(tmp_path):
    game = _game(tmp_path, drop_where("all(neighbours(to), it is empty or it is rock) "
                                      "and count(ray(to, n), it is stone and it is enemy) == 0"))
    assert "h_kind_mask" in names_read(game)
    pieces = {"a1": ("neutral", "rock"), "b4": ("black", "stone"), "d1": ("white", "stone")}
    # no stone next to the site (a1's rock may be): not a4, b3, c4 (by b4), c1, d2 (by d1);
    # for white, no black stone north of it either: not b1, b2 (b4)
    white = game.make_state(pieces, to_move="white")
    assert sorted(game.legal_notations(white)) == ["a2", "a3", "c2", "c3", "d3", "d4"]
    # for black, white's d1 stands north of no empty site
    black = game.make_state(pieces, to_move="black")
    assert sorted(game.legal_notations(black)) == ["a2", "a3", "b1", "b2", "c2", "c3", "d3", "d4"]


PEBBLES = "  pebble: {symbol: P, description: A pebble of a player's.}\n"


def _owned_kind_masks(game) -> list:
    """The calls making the mask of one player's pieces of a kind: `h_kind_mask(bits, (o[X],), b, K)`."""
    return [call for call in helper_calls(game, "h_kind_mask", ": the legal actions")
            if isinstance(call.args[1], ast.Tuple) and len(call.args[1].elts) == 1]


@pytest.mark.parametrize("whose", ["it is own", "it.owner == opponent", "it is enemy"])
def test_a_players_pieces_of_a_kind_are_one_mask_made_from_that_players_sites(tmp_path, whose):
    game = _game(tmp_path, drop_where(f"not exists(neighbours(to), {whose} and it is pebble)"),
                 stones_and_rocks(extra=PEBBLES))
    # (one walk over the player's sites reading the kinds: neither every piece's walk nor the player's mask;
    # `enemy` of two players is the opponent)
    assert len(_owned_kind_masks(game)) == 1
    assert len(helper_calls(game, "h_kind_mask", ": the legal actions")) == 1
    assert "h_sites_mask" not in names_read(game) and "h_others_mask" not in names_read(game)
    pieces = {"b2": ("white", "pebble"), "c3": ("black", "pebble"), "a4": ("white", "stone"), "d1": ("neutral", "rock")}
    # (orthogonal) neighbours of white's pebble b2: a2, b1, b3, c2; of black's pebble c3: b3, c2, c4, d3;
    # a4's stone and d1's rock are no pebble
    by_white = {"a1", "a3", "b4", "c1", "c4", "d2", "d3", "d4"}
    by_black = {"a1", "a2", "a3", "b1", "b4", "c1", "d2", "d4"}
    white = game.make_state(pieces, to_move="white")
    black = game.make_state(pieces, to_move="black")
    assert sorted(game.legal_notations(white)) == sorted(by_white if whose == "it is own" else by_black)
    assert sorted(game.legal_notations(black)) == sorted(by_black if whose == "it is own" else by_white)


def test_the_enemies_kind_among_three_players_keeps_the_two_masks(tmp_path):
    # (every player's pieces but the mover's: no one player's list; the others' mask and the kind's)
    game = _game(tmp_path, drop_where("not exists(neighbours(to), it is enemy and it is pebble)"),
                 stones_and_rocks(players=("white", "black", "red"), extra=PEBBLES))
    assert not _owned_kind_masks(game)
    assert "h_others_mask" in names_read(game) and len(helper_calls(game, "h_kind_mask", ": the legal actions")) == 1
    pieces = {"b2": ("white", "pebble"), "c3": ("black", "pebble"), "a4": ("red", "pebble"), "d1": ("neutral", "rock")}
    # neighbours of b2: a2, b1, b3, c2; of c3: b3, c2, c4, d3; of a4: a3, b4
    expected = {"white": ["a1", "a2", "b1", "c1", "d2", "d4"], "red": ["a1", "a3", "b4", "c1", "d2", "d4"],
                "black": ["a1", "c1", "c4", "d2", "d3", "d4"]}
    for player, legal in expected.items():
        assert sorted(game.legal_notations(game.make_state(pieces, to_move=player))) == legal


CHESS = str(REPO / "docs" / "examples" / "chess")


@pytest.mark.parametrize("knight, short, long", [
    ("g3=black", False, True),   # it attacks f1, which the short castling crosses
    ("g3=white", True, True),    # the mover's own knight attacks nothing of its king's
    ("b2=black", True, False),   # it attacks d1, which the long castling crosses
    ("c2=black", False, False),  # it attacks e1: check
    ("a3=black", True, True),    # it attacks b1, which only the rook crosses
])
def test_an_enemy_knight_keeps_the_docs_king_from_castling_across_its_squares(knight, short, long):
    # (the docs chess asks `exists(knight_sites(k), it is enemy and it is knight)` as a mask while listing:
    # in a game of two players, the opponent's knights alone)
    game = load_game(CHESS)
    site, owner = knight.split("=")
    pieces = {"e1": ("white", "king", {}), "a1": ("white", "rook", {"castling": True}),
              "h1": ("white", "rook", {"castling": True}), "e8": ("black", "king", {}), site: (owner, "knight", {})}
    assert len(_owned_kind_masks(game)) >= 1
    legal = game.legal_notations(game.make_state(pieces, to_move="white"))
    assert ("e1g1" in legal, "e1c1" in legal) == (short, long)
    # (the same mirrored, Black to castle)
    mirrored = {f"{site[0]}{9 - int(site[1])}": ("black" if whose == "white" else "white", kind, flags)
                for site, (whose, kind, flags) in pieces.items()}
    legal = game.legal_notations(game.make_state(mirrored, to_move="black"))
    assert ("e8g8" in legal, "e8c8" in legal) == (short, long)


def test_a_players_kind_beside_other_conjuncts_and_without_a_player(tmp_path):
    game = _game(tmp_path, drop_where("exists(neighbours(to), it is own and it != b1 and it is pebble)"),
                 stones_and_rocks(extra=PEBBLES))
    assert len(_owned_kind_masks(game)) == 1
    pieces = {"b2": ("white", "pebble"), "b1": ("white", "pebble"), "c3": ("black", "pebble")}
    # next to white's b2 (a2, b3, c2 empty); not a1, c1: their own pebble is at b1; for black, next to c3
    white = game.make_state(pieces, to_move="white")
    assert sorted(game.legal_notations(white)) == ["a2", "b3", "c2"]
    black = game.make_state(pieces, to_move="black")
    assert sorted(game.legal_notations(black)) == ["b3", "c2", "c4", "d3"]
    # a kind asked of every owner: no player's mask
    other = _game(tmp_path, drop_where("exists(neighbours(to), it is pebble)"), stones_and_rocks(extra=PEBBLES))
    assert not _owned_kind_masks(other) and len(helper_calls(other, "h_kind_mask", ": the legal actions")) == 1


def test_a_kind_test_of_a_single_site_is_no_mask(tmp_path):
    game = _game(tmp_path, drop_where("neighbour(to, n) is rock"))
    assert "h_kind_mask" not in names_read(game)


LEAP_TWO = """\
    forbid passing where site is enemy
    phase play:
        turn: move
    decision move:
        action hop:
            leap n distance 2
            onto empty: move
    """


def test_a_leap_passes_no_enemy_and_tests_its_way_as_one_mask(tmp_path):
    game = _game(tmp_path, LEAP_TWO)
    ways = [node for node in generated(game, ast.For, origin=": the legal actions")
            if isinstance(node.target, ast.Tuple)]
    assert ways, "the landing sites come with the masks of their ways"
    pieces = {"a1": ("white", "stone"), "a2": ("black", "stone"), "b1": ("white", "stone"), "b2": ("white", "stone"),
              "c1": ("white", "stone"), "c2": ("neutral", "rock"), "d1": ("white", "stone")}
    state = game.make_state(pieces, to_move="white")
    # a1 would pass black's a2; b1 passes its own b2, b2 the empty b3, c1 a rock
    # (no one's, no enemy), d1 nothing
    assert sorted(game.legal_notations(state)) == ["b1-b3", "b2-b4", "c1-c3", "d1-d3"]


@pytest.fixture
def without_masks(monkeypatch):
    """Load games with the masks of site_masks.py switched off (the loops instead)."""
    def load_plain(path):
        with monkeypatch.context() as m:
            m.setattr(site_masks.SiteMasks, "condition", lambda self, cond, var, kinds=False: None)
            m.setattr(site_masks.SiteMasks, "full_line", lambda self, coll, cond, var: None)
            return load_game(path)
    return load_plain


def test_lines_of_action_lists_the_same_moves_with_and_without_masks(without_masks):
    masked = load_game(LINES_OF_ACTION)
    plain = without_masks(LINES_OF_ACTION)
    assert _popcounts(masked) and not _popcounts(plain)
    rng = random.Random(5)
    positions = 0
    for _ in range(3):
        state = masked.initial_state()
        while not masked.is_terminal(state) and positions < 600:
            listed = masked.legal_notations(state)
            assert listed == plain.legal_notations(state)
            state = masked.apply(state, rng.choice(masked.legal_actions(state)))
            positions += 1
    assert positions > 300


def test_pentago_ends_its_games_alike_with_and_without_line_masks(without_masks):
    masked = load_game(PENTAGO)
    plain = without_masks(PENTAGO)
    assert _lines_written_out(masked) and not _lines_written_out(plain)
    assert helper_calls(plain, "h_on_full_line") and not helper_calls(masked, "h_on_full_line")
    rng = random.Random(8)
    endings = set()
    for _ in range(40):
        a, b = masked.initial_state(), plain.initial_state()
        while not masked.is_terminal(a):
            assert not plain.is_terminal(b)
            action = rng.choice(masked.legal_notations(a))
            a, b = masked.apply(a, action), plain.apply(b, action)
        assert plain.is_terminal(b) and masked.result(a) == plain.result(b)
        endings.add(masked.result(a).winner)
    assert len(endings) >= 2  # (wins of both colours or a draw, not a single kind of end)


FIVE = """\
    define five(p) = exists(pieces of p, on_full_line(it))
    phase play:
        turn: place
        after each action:
            if five(player):
                win
    decision place:
        action stone:
            drop stone on sites
            notation "{to}"
            onto empty: place
    """


def _lines_written_out(game) -> bool:
    """Whether a line test is written out as literal masks (SiteMasks._lines_written_out):
    the owner's mask made by h_bits_added, no helper looping over the lines."""
    return bool(helper_calls(game, "h_bits_added")) and not helper_calls(game, "h_full_line")


@pytest.mark.parametrize("written_out", [True, False])
def test_a_full_line_of_the_player_wins_and_a_broken_one_does_not(tmp_path, monkeypatch, written_out):
    lines = "lines:\n  - [a1, b1, c1]\n  - [a1, b2, c3]\n  - [c1, c2, c3]\n"
    if not written_out:  # (more lines than are written out: the helper's loop)
        monkeypatch.setattr(site_masks, "MAX_LINES_WRITTEN_OUT", 2)
    game = _game(tmp_path, FIVE, stones_and_rocks(files=3, ranks=3, extra=lines))
    assert _lines_written_out(game) == written_out and not helper_calls(game, "h_on_full_line")
    assert bool(helper_calls(game, "h_full_line")) != written_out
    pieces = {"a1": ("white", "stone"), "b2": ("white", "stone"), "c1": ("black", "stone"),
              "c2": ("black", "stone")}
    state = game.make_state(pieces, to_move="white")
    assert game.result(game.apply(state, "c3")).winner == "white"  # a1 b2 c3
    assert game.result(game.apply(state, "b1")) is None  # a1 b1, but c1 is black's
    black = game.make_state(pieces, to_move="black")
    assert game.result(game.apply(black, "c3")).winner == "black"  # c1 c2 c3
    assert game.result(game.apply(black, "b1")) is None  # c1 b1, a1 is white's


def test_line_groups_hold_each_line_once_under_a_site_it_passes():
    lines = {frozenset(line) for line in ([0, 1, 2], [3, 4, 5], [0, 3, 6], [1, 4, 7], [0, 4, 8], [2, 4, 6])}
    shortest, groups = site_masks.line_groups(lines)
    assert shortest == 3
    grouped = [(site, line) for site, masks in groups for line in masks]
    assert sorted(line for _, line in grouped) == sorted(sum(1 << s for s in line) for line in lines)
    assert all(line & site for site, line in grouped)
    assert groups[0][0] == 1 << 4  # the centre: four of the six lines pass it
    bits = tuple(1 << s for s in range(9))
    assert helpers.full_line((shortest, groups), bits, [2, 4, 6, 7])
    assert not helpers.full_line((shortest, groups), bits, [2, 4, 7])
    assert not helpers.full_line((shortest, groups), bits, [0, 1])  # fewer sites than a line has


def test_the_neighbours_of_a_neighbour_are_one_table_of_masks(tmp_path):
    game = _game(tmp_path, drop_where("exists(neighbours(neighbour(to, n)), it is rock)"))
    masks = [node for node in generated(game, ast.BinOp, origin=": the legal actions")
             if isinstance(node.op, ast.BitAnd)]
    # (`MASKS[to] & ROCKS`, the row chosen by `to` alone: no table read inside the index)
    assert masks and all(isinstance(node.left, ast.Subscript) and isinstance(node.left.slice, ast.Name)
                         for node in masks)
    state = game.make_state({"b4": ("neutral", "rock"), "d1": ("white", "stone")}, to_move="white")
    # the sites next to b4 are a4, c4 and b3: north of a3, c3 and b2 (d1's stone is no rock)
    assert sorted(game.legal_notations(state)) == ["a3", "b2", "c3"]
