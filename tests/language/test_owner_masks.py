"""Owner masks (compilation/prefilters.py): an `exists` over directions whose every
element first asks a neighbour's owner is skipped, in the listers, where no
neighbour belongs to that owner. The actions listed must be those of the plain
loop, for the player to move, the opponent and "any enemy" of several players."""
import ast
import random

import pytest

from interpreter import load_game
from interpreter.compilation import prefilters, pyast
from interpreter.compilation.source import Source
from interpreter.runtime import helpers
from tests.helpers import REPO, drop_where, generated, names_read, stones_and_rocks, write_definition

REVERSI = str(REPO / "docs" / "examples" / "reversi")
OTHELLO = str(REPO / "benchmarks" / "games" / "othello")

THREE = stones_and_rocks(("white", "black", "red"))

NEXT_TO_AN_ENEMY = drop_where("exists(d in all, neighbour(to, d) is enemy)")


def _game(tmp_path, rules: str, yaml: str = THREE):
    return load_game(write_definition(tmp_path, yaml, rules))


def test_any_enemy_of_three_players_counts_and_a_neutral_piece_does_not(tmp_path):
    game = _game(tmp_path, NEXT_TO_AN_ENEMY)
    assert "h_others_mask" in names_read(game)
    pieces = {"b2": ("white", "stone"), "d4": ("black", "stone"), "a4": ("neutral", "rock")}
    # red's enemies are white and black: the empty neighbours of b2 and d4
    red = game.make_state(pieces, to_move="red")
    assert sorted(game.legal_notations(red)) == ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3", "c4", "d3"]
    # white's only enemy is black's d4 (the rock next to a3 is no one's)
    white = game.make_state(pieces, to_move="white")
    assert sorted(game.legal_notations(white)) == ["c3", "c4", "d3"]


def test_the_enemy_of_two_players_is_the_opponents_list_and_a_neutral_piece_no_one(tmp_path):
    # (of two players `is enemy` is the opponent's: that list's mask, no walk over every player's)
    game = _game(tmp_path, NEXT_TO_AN_ENEMY, yaml=stones_and_rocks())
    assert "h_sites_mask" in names_read(game) and "h_others_mask" not in names_read(game)
    pieces = {"b2": ("white", "stone"), "d4": ("black", "stone"), "a4": ("neutral", "rock")}
    # white's enemy is d4 (the rock next to a3, b3, b4 is no one's); black's is b2, all eight around it
    white = game.make_state(pieces, to_move="white")
    assert sorted(game.legal_notations(white)) == ["c3", "c4", "d3"]
    black = game.make_state(pieces, to_move="black")
    assert sorted(game.legal_notations(black)) == ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]
    lonely = game.make_state({"a1": ("white", "stone"), "a4": ("neutral", "rock")}, to_move="white")
    assert game.legal_notations(lonely) == []


def test_no_enemy_anywhere_near_lists_nothing(tmp_path):
    game = _game(tmp_path, NEXT_TO_AN_ENEMY)
    lonely = game.make_state({"a1": ("white", "stone"), "a4": ("neutral", "rock")}, to_move="white")
    assert game.legal_notations(lonely) == []


def test_the_opponents_and_the_players_own_sites(tmp_path):
    two = stones_and_rocks()
    game = _game(tmp_path, """\
        phase play:
            turn: place
        decision place:
            action near_theirs:
                drop stone on sites
                where exists(d in orthogonal, neighbour(to, d).owner == opponent and to in [a1, a2, a3, a4])
                notation "x{to}"
                onto empty: place
            action near_mine:
                drop stone on sites
                where exists(d in orthogonal, neighbour(to, d).owner == player)
                notation "o{to}"
                onto empty: place
        """, yaml=two)
    assert {"h_sites_mask"} <= names_read(game)
    state = game.make_state({"b2": ("white", "stone"), "b3": ("black", "stone")}, to_move="white")
    assert sorted(game.legal_notations(state)) == ["oa2", "ob1", "oc2", "xa3"]
    black = game.make_state({"b2": ("white", "stone"), "b3": ("black", "stone")}, to_move="black")
    assert sorted(game.legal_notations(black)) == ["oa3", "ob4", "oc3", "xa2"]


def test_counting_the_enemies_around(tmp_path):
    game = _game(tmp_path, NEXT_TO_AN_ENEMY.replace(
        "exists(d in all, neighbour(to, d) is enemy)", "count(d in all, neighbour(to, d) is enemy) >= 2"))
    assert "h_others_mask" in names_read(game)
    pieces = {"b2": ("white", "stone"), "b4": ("black", "stone"), "d2": ("black", "stone")}
    # red: next to two of b2, b4, d2
    red = game.make_state(pieces, to_move="red")
    assert sorted(game.legal_notations(red)) == ["a3", "b3", "c1", "c2", "c3"]
    # white: next to both of black's
    white = game.make_state(pieces, to_move="white")
    assert sorted(game.legal_notations(white)) == ["c3"]
    alone = game.make_state({"b2": ("white", "stone")}, to_move="black")
    assert game.legal_notations(alone) == []


def test_a_test_that_is_not_first_in_the_loop_gets_no_mask(tmp_path):
    game = _game(tmp_path, NEXT_TO_AN_ENEMY.replace(
        "neighbour(to, d) is enemy", "(to in [a1] or neighbour(to, d) is enemy)"))
    assert not {"h_sites_mask", "h_others_mask"} & names_read(game)
    state = game.make_state({"c3": ("black", "stone")}, to_move="white")
    assert sorted(game.legal_notations(state)) == ["a1", "b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4"]


def test_a_board_too_large_for_masks_asks_every_direction(tmp_path):
    big = stones_and_rocks(("white", "black", "red"), files=26, ranks=40)
    assert 26 * 40 > prefilters.MAX_MASKED_SITES
    game = _game(tmp_path, NEXT_TO_AN_ENEMY, yaml=big)
    assert not {"h_sites_mask", "h_others_mask"} & names_read(game)
    state = game.make_state({"z40": ("black", "stone")}, to_move="white")
    assert sorted(game.legal_notations(state)) == ["y39", "y40", "z39"]


@pytest.mark.parametrize("path", [REVERSI, OTHELLO])
def test_reversi_lists_the_same_actions_with_and_without_masks(path, monkeypatch):
    masked = load_game(path)
    assert "h_sites_mask" in names_read(masked)
    monkeypatch.setattr(prefilters.OwnerMasks, "prefilter", lambda self, loop: None)
    plain = load_game(path)
    assert "h_sites_mask" not in names_read(plain)
    rng = random.Random(3)
    positions = 0
    for _ in range(12):
        state = masked.initial_state()
        while not masked.is_terminal(state):
            listed = masked.legal_notations(state)
            assert listed == plain.legal_notations(state)
            state = masked.apply(state, rng.choice(masked.legal_actions(state)))
            positions += 1
    assert positions > 500


def test_masks_of_sites():
    bits = tuple(1 << site for site in range(10))
    assert helpers.sites_mask(bits, [0, 3, 9]) == 0b1000001001
    assert helpers.sites_mask(bits, []) == 0
    occupancy = [[1], [2, 4], [7], [0]]  # three players, then the neutral pieces
    assert helpers.others_mask(bits, occupancy, 1) == 0b10000010
    assert helpers.others_mask(bits, occupancy, 0) == 0b10010100


def _loop_over(table: str, test, body=None):
    """`for i1, i2 in TABLE[to]: if TEST: t = True` as a syntax tree."""
    target = pyast.tuple_(pyast.name("i1"), pyast.name("i2"))
    inside = body or [pyast.assign(pyast.name("t"), pyast.true())]
    return pyast.for_(target, pyast.sub(pyast.name(table), pyast.name("to")), [pyast.if_(test, inside)])


def _owner_of(column: str, empty: str = "k0"):
    """`(b[COLUMN] or E)[0]`: the owner of what stands on a column's site."""
    return pyast.sub(pyast.or_(pyast.sub(pyast.name("b"), pyast.name(column)), pyast.name(empty)), 0)


OPPONENT = pyast.binop(pyast.num(1), "-", pyast.name("p"))
OTHER = pyast.name("x")


@pytest.mark.parametrize("test, owner, rest", [
    (pyast.compare(_owner_of("i1"), "==", pyast.name("p")), "p", None),
    (pyast.compare(_owner_of("i2"), "==", OPPONENT), "1 - p", None),
    (pyast.and_(pyast.compare(_owner_of("i1"), "==", pyast.name("p")), OTHER), "p", OTHER),
    (pyast.sub(pyast.sub(pyast.name("kE"), pyast.name("p")), _owner_of("i1")), "others", None),
    # not a loop that asks an owner first:
    (pyast.or_(pyast.compare(_owner_of("i1"), "==", pyast.name("p")), OTHER), None, None),
    (pyast.and_(OTHER, pyast.compare(_owner_of("i1"), "==", pyast.name("p"))), None, None),
    (pyast.compare(_owner_of("i1"), "==", pyast.name("q")), None, None),
    (pyast.compare(_owner_of("i1", empty="k9"), "==", pyast.name("p")), None, None),
    (pyast.compare(_owner_of("to"), "==", pyast.name("p")), None, None),
])
def test_a_loop_whose_elements_first_ask_a_columns_owner_is_prefiltered(test, owner, rest):
    src = Source()
    assert src.const("the empty piece").id == "k0"
    table = src.const(((), ((1, 2), (2, 0)), ()))
    masks = prefilters.OwnerMasks(src, 3, pyast.name("k0"), lambda: pyast.name("kE"))
    found = masks.prefilter(_loop_over(table.id, test))
    if owner is None:
        assert found is None
        return
    assert list(masks.names) == [owner]
    made, mask_test, by_bit = found
    assert by_bit is not None
    targets, rows, site, inner = by_bit
    assert pyast.same(site, pyast.name("to"))
    if rest is None:  # (the owner's test is all it asks: the loop over the bits needs it no more)
        assert pyast.same_code(inner, [pyast.assign(pyast.name("t"), pyast.true())])
    else:
        assert len(inner) == 1 and pyast.same(inner[0].test, rest)


def _bit_by_bit_loops(game) -> list:
    """The generated loops `while m: bit = m & -m; m ^= bit; ...` over the set bits of a mask."""
    loops = []
    for loop in generated(game, ast.While, origin=": the legal actions"):
        mask = loop.test
        first, second = loop.body[:2]
        lowest = pyast.assign(first.targets[0], pyast.binop(mask, "&", pyast.neg(mask)))
        if pyast.same(first, lowest) and pyast.same(second, pyast.augment(mask, "^", first.targets[0])):
            loops.append(loop)
    return loops


def test_the_loop_goes_over_the_owners_neighbours_only(tmp_path):
    game = _game(tmp_path, NEXT_TO_AN_ENEMY)
    assert len(_bit_by_bit_loops(game)) == 1


def test_rows_sharing_a_site_are_looped_over_all():
    # Each bit must stand for one row: where two rows of a site read the same
    # neighbour, the loop keeps going over every row (under the mask's test).
    src = Source()
    distinct = src.const(((), ((1, "a"), (2, "b")), ()))
    shared = src.const(((), ((1, "a"), (1, "b")), ()))
    masks = prefilters.OwnerMasks(src, 3, pyast.name("k0"), lambda: pyast.name("kE"))
    test = pyast.compare(_owner_of("i1"), "==", pyast.name("p"))
    made, mask_test, by_bit = masks.prefilter(_loop_over(distinct.id, test))
    assert by_bit is not None and src.value(by_bit[1])[1] == {2: (1, "a"), 4: (2, "b")}
    made, mask_test, by_bit = masks.prefilter(_loop_over(shared.id, test))
    assert by_bit is None and src.value(mask_test.left.value)[1] == 1 << 1  # (site 1 once in the mask)


def test_a_large_board_tests_the_mask_and_loops_over_every_direction(tmp_path):
    large = stones_and_rocks(("white", "black", "red"), files=20, ranks=20)
    assert prefilters.MAX_BIT_BY_BIT_SITES < 20 * 20 <= prefilters.MAX_MASKED_SITES
    game = _game(tmp_path, NEXT_TO_AN_ENEMY, yaml=large)
    assert "h_others_mask" in names_read(game) and not _bit_by_bit_loops(game)
    state = game.make_state({"t20": ("black", "stone"), "a1": ("red", "stone")}, to_move="white")
    assert sorted(game.legal_notations(state)) == ["a2", "b1", "b2", "s19", "s20", "t19"]


def test_the_same_loop_twice_shares_its_table_of_rows(tmp_path):
    # (each table is a dict per site: a definition repeating a condition many times
    # must not make one each time)
    twice = NEXT_TO_AN_ENEMY + NEXT_TO_AN_ENEMY.split("decision place:\n")[1].replace(
        "action stone:", "action again:").replace('"{to}"', '"x{to}"')
    game = _game(tmp_path, twice)
    # the rows of a site's set bit: `i4, i5 = ROWS[to][bit]`, in each loop
    tables = [loop.body[2].value.value.value.id for loop in _bit_by_bit_loops(game)]
    assert len(tables) == 2 and len(set(tables)) == 1
