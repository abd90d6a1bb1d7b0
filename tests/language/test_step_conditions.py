"""A condition on each step (`each step A to B where COND`, docs/format.md 3.5 and
3.12.2): the last argument of `connected` or the end of a `walk` pattern, A the
site stepped from and B the site stepped to. Hand-checked positions on a grid and
on a small hexagonal graph (Hive's freedom to move), and the messages."""
import pytest

from interpreter import load_game
from interpreter.validation.diagnostics import DefinitionError
from tests.helpers import drop_where, names_read, stones_and_rocks, write_definition

# A king's flood on a grid that does not squeeze diagonally between two occupied
# squares (the two squares beside a diagonal step are the common orthogonal
# neighbours of its ends).
SQUEEZE = "count(z in neighbours(x), z in neighbours(y) and z is occupied) < 2"


def _drops(tmp_path, where: str, setup: str) -> list:
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=setup), drop_where(where)))
    return game.legal_notations(game.initial_state())


def _all_but(*taken: str) -> list:
    return sorted(f"{f}{r}" for f in "abcd" for r in "1234" if f"{f}{r}" not in taken)


#   4  .  .  .  .
#   3  .  .  .  .
#   2  .  .  .  R
#   1  w  .  R  .
#      a  b  c  d
CORNER = "setup:\n  white:\n    stone: [a1]\n  neutral:\n    rock: [c1, d2]\n"


def test_a_grid_flood_that_may_not_squeeze_between_two_stones(tmp_path):
    reached = "to in connected(a1, all, it is empty or it == a1{})"
    # Without the step condition d1 is reached diagonally from c2; with it, c2-d1
    # passes between the rocks on c1 and d2, and d1 has no other way in.
    assert _drops(tmp_path, reached.format(""), CORNER) == _all_but("a1", "c1", "d2")
    assert _drops(tmp_path, reached.format(f", each step x to y where {SQUEEZE}"), CORNER) == \
        _all_but("a1", "c1", "d2", "d1")


def test_the_first_name_is_the_site_stepped_from(tmp_path):
    #   3  R  .  .  .      (orthogonal neighbours: a grid's)
    #   2  .  .  .  .
    #   1  w  .  R  .
    setup = "setup:\n  white:\n    stone: [a1]\n  neutral:\n    rock: [c1, a3]\n"
    # No step out of b2: a1 reaches a2 and b1, both b2, and nothing beyond b2.
    out_of_b2 = "to in connected(a1, it is empty or it == a1, each step x to y where x != b2)"
    assert _drops(tmp_path, out_of_b2, setup) == ["a2", "b1", "b2"]
    # No step into b2: a2 and b1 lead only into b2 or onto rocks.
    into_b2 = "to in connected(a1, it is empty or it == a1, each step x to y where y != b2)"
    assert _drops(tmp_path, into_b2, setup) == ["a2", "b1"]


def test_a_quantifier_over_a_flood_with_steps_stops_early_and_agrees(tmp_path):
    # exists(...) searches the flood as it goes: the same answers as the set.
    where = f"exists(connected(a1, all, it is empty or it == a1, each step x to y where {SQUEEZE}), it == to)"
    assert _drops(tmp_path, where, CORNER) == _all_but("a1", "c1", "d2", "d1")


# A hexagon of seven cells: o in the middle, its ring ne, e, se, sw, w, nw (each
# ring cell a neighbour of the next and of o).
HEX_YAML = """\
game: hexpatch
title: Hex patch
description: Seven cells.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  graph:
    sites: {o: [0, 0], ne: [0.5, -0.87], e: [1, 0], se: [0.5, 0.87], sw: [-0.5, 0.87], w: [-1, 0], nw: [-0.5, -0.87]}
    edges:
      - [ne, e, se, sw, w, nw, ne]
      - [o, ne]
      - [o, e]
      - [o, se]
      - [o, sw]
      - [o, w]
      - [o, nw]
pieces:
  bug: {symbol: B, description: A bug.}
setup:
  white: {bug: [o]}
  black: {bug: [ne, se]}
"""

# Hive's freedom to move: a bug slides through the gap between two neighbours
# when exactly one of the two cells beside it (their common neighbours) is
# occupied, its own cell counting as empty.
HEX_RULES = """\
define slides(a, b) = count(c in neighbours(a), c in neighbours(b) and c is occupied and c != from) == 1
phase play:
    turn: move
decision move:
    action step by bug:
        walk {n} steps, each step a to b where b is empty and slides(a, b)
        onto empty: move
    action run by bug:
        go to connected(from, it == from or it is empty, each step a to b where slides(a, b)) - [from]
        notation "{{from}}~{{to}}"
        onto empty: move
"""


def _hex(tmp_path, n: int):
    return load_game(write_definition(tmp_path, HEX_YAML, HEX_RULES.format(n=n)))


def test_a_walk_slides_only_through_gaps_with_one_side_occupied(tmp_path):
    game = _hex(tmp_path, 1)
    # From o: to e between ne and se (both occupied: a gate), to w between sw and
    # nw (both empty: it would lose touch): refused. To sw (beside se and w) and
    # to nw (beside w and ne): one side occupied each.
    assert game.legal_notations(game.initial_state()) == ["o-nw", "o-sw", "o~nw", "o~sw"]


def test_later_steps_count_the_walkers_own_cell_as_empty(tmp_path):
    # Two steps: o-sw-w and o-nw-w pass gaps beside o alone (the walker's own
    # cell: empty) and the edge of the patch; sw-se and nw-ne are occupied. No end.
    game = _hex(tmp_path, 2)
    assert game.legal_notations(game.initial_state()) == ["o~nw", "o~sw"]
    # With black on w too, every gap out of o has both sides occupied: no move.
    state = game.make_state({"o": ("white", "bug"), "ne": ("black", "bug"), "se": ("black", "bug"),
                             "w": ("black", "bug")})
    assert [n for n in game.legal_notations(state) if n.startswith("o")] == []


def test_another_piece_counts_as_occupied(tmp_path):
    # Black's bug on ne: e and nw are beside o only (the patch ends there), o
    # occupied: both slides. The run goes on round o: nw-w and w-sw are beside o.
    game = _hex(tmp_path, 1)
    state = game.make_state({"o": ("white", "bug"), "ne": ("black", "bug"), "se": ("black", "bug")},
                            to_move="black")
    assert [n for n in game.legal_notations(state) if n.startswith("ne")] == \
        ["ne-e", "ne-nw", "ne~e", "ne~nw", "ne~sw", "ne~w"]


@pytest.mark.parametrize("where, message", [
    ("count(sites, each step x to y where true) > 0", "goes only at the end of a 'walk N steps' pattern"),
    ("connected(a1, each step x to y where true) != none", "'connected' takes 2 or 3 argument(s), found 1"),
    ("connected(a1, each step x to y where true, it is empty) != none", 'found ",", expected ")"'),
    ("to in connected(a1, it is empty, each step from to y where true)", "'from' already means something here"),
    ("to in connected(a1, it is empty, each step x to x where true)", "names both sites alike"),
    ("to in connected(a1, it is empty, each step x to y where z != y)", "unknown name 'z'"),
])
def test_misplaced_or_misnamed_steps_are_located_errors(tmp_path, where, message):
    with pytest.raises(DefinitionError) as raised:
        _drops(tmp_path, where, "")
    text = str(raised.value)
    assert message in text
    assert "game.rules:6:" in text


def test_a_walks_steps_know_no_landing_site(tmp_path):
    rules = HEX_RULES.format(n=1).replace("b is empty and slides(a, b)", "b != to")
    with pytest.raises(DefinitionError) as raised:
        load_game(write_definition(tmp_path, HEX_YAML, rules))
    assert "game.rules:6:51: error: 'to' (the landing or chosen site) has no meaning in action 'step', " \
           "'each step' of its walk" in str(raised.value)


def test_a_flood_asked_in_one_expression_agrees(tmp_path):
    # Where the flood is one expression (a `forbid` condition), every step is asked
    # first (helpers.flood_steps): the same sites as the loops of a `where`.
    flood = f"connected(a1, all, it is empty or it == a1, each step x to y where {SQUEEZE})"
    rules = f"forbid landing where site not in {flood}\n" + drop_where("true")
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=CORNER), rules))
    assert "h_flood_steps" in names_read(game)
    assert game.legal_notations(game.initial_state()) == _all_but("a1", "c1", "d2", "d1")


def test_go_to_a_flood_the_same_for_every_piece(tmp_path):
    # The sites next to white's stones (a flood that steps only out of own
    # sites), worked out once per listing: a1's king neighbours a2, b1 and b2.
    flood = "connected(pieces of player, all, it is own or it is empty, each step x to y where x is own)"
    rules = f"phase play:\n    turn: move\ndecision move:\n    action hop by stone:\n        go to {flood}\n" \
            "        onto empty: move\n"
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=CORNER), rules))
    assert game.legal_notations(game.initial_state()) == ["a1-a2", "a1-b1", "a1-b2"]


@pytest.mark.parametrize("step, ends", [("", ["a1-a3", "a1-b2"]), (", each step x to y where y != b2", ["a1-a3"])])
def test_a_walks_steps_and_forbid_passing_both_apply(tmp_path, step, ends):
    # Two steps from a1 (rocks on c1 and d2 block passing): a1-a2-a3, a1-a2-b2,
    # a1-b1-b2; b1-c1 ends on a rock (no case). No step into b2 leaves a3.
    rules = f"forbid passing where site is rock\nphase play:\n    turn: move\ndecision move:\n" \
            f"    action walk by stone:\n        walk 2 steps{step}\n        onto empty: move\n"
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=CORNER), rules))
    assert game.legal_notations(game.initial_state()) == ends


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_a_walk_of_few_steps_written_as_loops_ends_where_the_helpers_walk_ends(tmp_path, monkeypatch, n):
    # Up to patterns.MAX_UNROLLED_WALK steps, a walk with a condition on each step
    # (and no passing rule) is one loop per step in the lister; compiled with the
    # helper (the limit set to 0) it must list the same moves on random positions
    # of a 5 x 5 grid of orthogonal neighbours (no triangles: a walk that came back
    # to a square it passed would end where no walk of n steps does).
    import random

    from interpreter.compilation import patterns

    rules = ("phase play:\n    turn: move\ndecision move:\n    action walk by stone:\n"
             f"        walk {n} steps, each step x to y where y is empty and x != e5\n        onto empty: move\n")
    yaml = stones_and_rocks(files=5, ranks=5, extra="setup:\n  white:\n    stone: [a1]\n").replace(
        "grid: {files: 5, ranks: 5}", "grid: {files: 5, ranks: 5, neighbours: [n, e, s, w]}")
    unrolled = load_game(write_definition(tmp_path, yaml, rules))
    monkeypatch.setattr(patterns, "MAX_UNROLLED_WALK", 0)
    (tmp_path / "helper").mkdir()
    helper = load_game(write_definition(tmp_path / "helper", yaml, rules))
    assert "h_walk_ends" not in names_read(unrolled) and "h_walk_ends" in names_read(helper)
    rng = random.Random(n)
    sites = [f"{f}{r}" for f in "abcde" for r in "12345"]
    moves = 0
    for _ in range(60):
        chosen = rng.sample(sites, rng.randint(1, 10))
        pieces = {site: (rng.choice(("white", "black")), "stone") for site in chosen[1:]}
        pieces[chosen[0]] = ("white", "stone")
        listed = unrolled.legal_notations(unrolled.make_state(pieces))
        assert listed == helper.legal_notations(helper.make_state(pieces))
        moves += len(listed)
    assert moves > 60
