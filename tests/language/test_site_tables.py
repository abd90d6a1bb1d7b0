"""Site tables (compilation/expressions.py): `neighbour(neighbour(x, a), b)` reads
one table made when the rules are compiled, a list of such neighbours of one site
is one table of lists by site, and `it is empty` over the elements of a set of
sites (never none) asks only the board; `group(X, DIRS)` joins through the
neighbours in chosen directions. The sites found must be those the rules say, at
the edges above all, where a neighbour is none."""
import pytest

from interpreter import load_game
from interpreter.validation.diagnostics import DefinitionError
from tests.helpers import drop_where, names_read, stones_and_rocks, write_definition

# A knight's leaps, written as a chess author writes them (docs/examples/chess).
DEFINES = """\
define knight_sites(k) = [neighbour(neighbour(k, n), ne), neighbour(neighbour(k, n), nw),
    neighbour(neighbour(k, e), ne), neighbour(neighbour(k, e), se),
    neighbour(neighbour(k, s), se), neighbour(neighbour(k, s), sw),
    neighbour(neighbour(k, w), sw), neighbour(neighbour(k, w), nw)]
define free(x) = x is empty
"""


def _game(tmp_path, where: str, files: int = 5, ranks: int = 5):
    rules = drop_where(where, before=DEFINES)
    return load_game(write_definition(tmp_path, stones_and_rocks(files=files, ranks=ranks), rules))


def test_a_knights_leap_from_each_site(tmp_path):
    game = _game(tmp_path, "exists(knight_sites(to), it is enemy)")
    assert "h_sites" not in names_read(game)  # (one table of lists by site)
    # black's stone on c3 is a knight's leap from a2 a4 b1 b5 d1 d5 e2 e4
    state = game.make_state({"c3": ("black", "stone")}, to_move="white")
    assert sorted(game.legal_notations(state)) == ["a2", "a4", "b1", "b5", "d1", "d5", "e2", "e4"]
    # from the corner: b3 and c2 only (the other six leaps are off the board)
    corner = game.make_state({"a1": ("black", "stone")}, to_move="white")
    assert sorted(game.legal_notations(corner)) == ["b3", "c2"]


def test_leaps_off_the_board_are_no_sites(tmp_path):
    # Counting the leaps that stay on a 5x5 board: 2 from a corner, 8 from the centre.
    game = _game(tmp_path, "count(knight_sites(to), true) == 2")
    empty = game.make_state({}, to_move="white")
    assert sorted(game.legal_notations(empty)) == ["a1", "a5", "e1", "e5"]
    centre = _game(tmp_path, "count(knight_sites(to), true) == 8")
    assert centre.legal_notations(centre.make_state({}, to_move="white")) == ["c3"]


def test_the_neighbour_of_a_neighbour_beyond_the_edge_is_none(tmp_path):
    # Two steps north of the top two ranks leaves the board: none, not a site.
    game = _game(tmp_path, "neighbour(neighbour(to, n), n) == none", files=3, ranks=4)
    notations = game.legal_notations(game.make_state({}, to_move="white"))
    assert sorted(notations) == ["a3", "a4", "b3", "b4", "c3", "c4"]
    # ... and never empty
    game = _game(tmp_path, "neighbour(neighbour(to, n), e) is empty", files=3, ranks=3)
    state = game.make_state({"b3": ("black", "stone")}, to_move="white")
    # a1 -> b2, b1 -> c2, b2 -> c3 are empty; a2 -> b3 is taken; the c file and
    # the top rank lead off the board
    assert sorted(game.legal_notations(state)) == ["a1", "b1", "b2"]


def test_the_first_piece_along_a_ray_and_its_kind(tmp_path):
    # `beyond(to, d, it is empty)`: the first site that is not empty (none at the
    # edge); kinds asked of it with `or` are one test.
    game = _game(tmp_path, "exists(d in orthogonal, beyond(to, d, it is empty) is stone "
                           "or beyond(to, d, it is empty) is rock)", files=4, ranks=1)
    state = game.make_state({"a1": ("black", "stone"), "d1": ("neutral", "rock")}, to_move="white")
    assert sorted(game.legal_notations(state)) == ["b1", "c1"]
    alone = game.make_state({"a1": ("black", "stone")}, to_move="white")
    assert sorted(game.legal_notations(alone)) == ["b1", "c1", "d1"]
    nothing = game.make_state({}, to_move="white")
    assert game.legal_notations(nothing) == []


def test_each_element_of_a_set_is_a_site(tmp_path):
    # Over the elements of a set, `it is empty` holds exactly for the empty ones;
    # a define's parameter given a neighbour (none beyond the edge) is asked as such.
    game = _game(tmp_path, "count(d in all, free(neighbour(to, d))) == 1 "
                           "and count(neighbours(to), free(it)) == 1", files=2, ranks=2)
    state = game.make_state({"a1": ("black", "stone"), "b1": ("black", "stone")}, to_move="white")
    assert sorted(game.legal_notations(state)) == ["a2", "b2"]


def _group_rules(directions: str) -> str:
    """Pick one of the player's stones whose group through `directions` has three."""
    return (f"phase play:\n    turn: pick\ndecision pick:\n    action stone:\n        select pieces of player\n"
            f"        where count(group(to, {directions})) == 3\n        notation \"{{to}}\"\n"
            f"        onto own: remove to\n")


def test_a_group_joined_through_chosen_directions(tmp_path):
    # group(X) joins orthogonal neighbours; group(X, all) diagonal ones too.
    pieces = {"a1": ("white", "stone"), "b2": ("white", "stone"), "c3": ("white", "stone"),
              "c2": ("black", "stone")}
    yaml = stones_and_rocks(files=4, ranks=4)
    diagonal = load_game(write_definition(tmp_path, yaml, _group_rules("all")))
    assert sorted(diagonal.legal_notations(diagonal.make_state(pieces, to_move="white"))) == ["a1", "b2", "c3"]
    straight = load_game(write_definition(tmp_path, yaml, _group_rules("orthogonal")))
    assert straight.legal_notations(straight.make_state(pieces, to_move="white")) == []
    column = {"a1": ("white", "stone"), "a2": ("white", "stone"), "a3": ("white", "stone"), "c3": ("white", "stone")}
    state = straight.make_state(column, to_move="white")
    assert sorted(straight.legal_notations(state)) == ["a1", "a2", "a3"]


def test_a_groups_directions_are_the_same_for_every_player(tmp_path):
    yaml = stones_and_rocks(files=4, ranks=4).replace("  - {name: white}\n  - {name: black}\n",
                                                      "  - {name: white, forward: n}\n  - {name: black, forward: s}\n")
    with pytest.raises(DefinitionError) as caught:
        load_game(write_definition(tmp_path, yaml, _group_rules("forward")))
    assert "the directions of 'group' must be the same for every player (e.g. all, orthogonal)" in str(caught.value)


def test_a_direction_given_to_a_define(tmp_path):
    # `line(n)`: the pieces on the whole line through a site, a direction passed on
    # to ray and opposite (Lines of Action's move length).
    rules = drop_where("line(n) == 2 and line(e) == 0", before="define line(d) = count(ray(to, d), it is occupied) "
                                                               "+ count(ray(to, opposite(d)), it is occupied)\n")
    game = load_game(write_definition(tmp_path, stones_and_rocks(files=3, ranks=3), rules))
    state = game.make_state({"a1": ("black", "stone"), "a3": ("white", "stone"), "c2": ("neutral", "rock")},
                            to_move="white")
    assert game.legal_notations(state) == []  # (a2: two on its file, but c2 on its rank)
    state = game.make_state({"a1": ("black", "stone"), "a3": ("white", "stone"), "c3": ("neutral", "rock")},
                            to_move="white")
    assert game.legal_notations(state) == ["a2"]
