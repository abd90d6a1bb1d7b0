"""`first(pieces where ... it in neighbours(X) ...)`: the least site, so the
neighbours of X are asked in board order, not every piece (expr_sets
SetFamily._first_piece_beside); and a flood's step not about the site stepped
to, asked once of the site stepped from (expr_connected.search). The same moves
as the forms not so compiled, on random positions and a hand-checked one."""
import ast
import random

from interpreter import load_game
from tests.helpers import drop_where, helper_calls, stones_and_rocks, write_definition

# A stone goes where the first piece beside it (not a rock) is white's, or
# where the first piece beside b2 but `to` is black's.
BESIDE = ("first(pieces where it in neighbours(to) and (it.owner == white or it.owner == black))",
          "first(pieces where it != to and it in neighbours(b2))",
          "first(pieces of player where it in neighbours(to))", "first(pieces of black where it in neighbours(c3))")
# The same sets, `neighbours` asked the other way round (a grid's go both ways).
ASKED = ("first(pieces where to in neighbours(it) and (it.owner == white or it.owner == black))",
         "first(pieces where it != to and b2 in neighbours(it))",
         "first(pieces of player where to in neighbours(it))", "first(pieces of black where c3 in neighbours(it))")
WHERE = "({0}).owner == white or ({1}).owner == black or ({2}) == b3 or ({3}) == d3"


def _game(tmp_path, name: str, where: str, setup: str = ""):
    folder = tmp_path / name
    folder.mkdir()
    return load_game(write_definition(folder, stones_and_rocks(files=5, ranks=5, extra=setup), drop_where(where)))


def test_the_first_piece_beside_as_every_piece_asked(tmp_path):
    beside, asked = _game(tmp_path, "beside", WHERE.format(*BESIDE)), _game(tmp_path, "asked", WHERE.format(*ASKED))
    assert not helper_calls(beside, "h_each_piece") and helper_calls(asked, "h_each_piece")
    rng, listed_any = random.Random(5), 0
    squares = [f"{f}{r}" for f in "abcde" for r in "12345"]
    for _ in range(60):
        chosen = rng.sample(squares, rng.randint(2, 12))
        placed = {sq: ("neutral", "rock") if owner == "neutral" else (owner, "stone")
                  for sq, owner in ((sq, rng.choice(["white", "black", "neutral"])) for sq in chosen)}
        for player in ("white", "black"):
            moves = [g.legal_notations(g.make_state(placed, to_move=player)) for g in (beside, asked)]
            assert moves[0] == moves[1], placed
            listed_any += len(moves[0])
    assert listed_any > 100


def test_the_least_site_beside_wins(tmp_path):
    #   3  .  .  .          c2's neighbours: b2 (black), c3 (white), d2 (rock),
    #   2  b  .  R          c1 (empty). The first piece not a rock is b2's
    #   1  .  .  .          (black); with `it.owner == white`, c3.
    #      a  b  c  d
    setup = "setup:\n  white:\n    stone: [c3]\n  black:\n    stone: [b2]\n  neutral:\n    rock: [d2]\n"
    black = "to == c2 and first(pieces where it in neighbours(c2) and (it.owner == white or it.owner == black)) == b2"
    white = "to == c2 and first(pieces where it.owner == white and it in neighbours(c2)) == c3"
    none = "to == c2 and first(pieces where it in neighbours(c2) and it.owner == black and it != b2) == none"
    for where in (black, white, none):
        game = _game(tmp_path, f"least{len(where)}", where, setup)
        assert game.legal_notations(game.initial_state()) == ["c2"], where


# A flood through empty sites that leaves no site beside a black stone (a step
# about the site stepped from alone, hoisted), against the same step with a
# condition on the site stepped to that always holds (asked in the loop).
# test_step_conditions.py's `x != b2` is hoisted too, its answer checked by hand.
FLOOD = "to in connected(a1, it is empty or it == a1, each step x to y where {})"


def test_a_step_about_the_site_stepped_from_asked_once_of_it(tmp_path):
    hoisted, looped = (_game(tmp_path, name, FLOOD.format(step)) for name, step in (
        ("hoisted", "x.owner != black"), ("looped", "x.owner != black and y != none")))
    assert _tests_around_loops(hoisted) > _tests_around_loops(looped) == 0
    rng = random.Random(3)
    squares = [f"{f}{r}" for f in "abcde" for r in "12345" if f"{f}{r}" != "a1"]
    for _ in range(40):
        chosen = rng.sample(squares, rng.randint(2, 12))
        placed = {sq: (rng.choice(["white", "black"]), "stone") for sq in chosen}
        moves = [g.legal_notations(g.make_state(placed, to_move="white")) for g in (hoisted, looped)]
        assert moves[0] == moves[1], placed


def _tests_around_loops(game) -> int:
    """How many `if` statements of the generated code hold one loop and nothing else."""
    return sum(1 for node in ast.walk(game.rules.module)
               if isinstance(node, ast.If) and len(node.body) == 1 and isinstance(node.body[0], ast.For))


def test_in_one_expression_as_every_piece_asked(tmp_path):
    # (a `forbid` condition is one expression: the neighbours' list made, its least site taken)
    forbid = ("define fp(x) = first(pieces where it != c2 and {} and (it.owner == white or it.owner == black))\n"
              "forbid landing where fp(site) == c1\n")
    games = []
    for name, beside in (("one", "it in neighbours(x)"), ("every", "x in neighbours(it)")):
        folder = tmp_path / name
        folder.mkdir()
        games.append(load_game(write_definition(folder, stones_and_rocks(files=5, ranks=5),
                                                drop_where("true", before=forbid.format(beside)))))
    assert not helper_calls(games[0], "h_each_piece") and helper_calls(games[1], "h_each_piece")
    rng = random.Random(8)
    squares = [f"{f}{r}" for f in "abcde" for r in "12345"]
    for _ in range(40):
        chosen = rng.sample(squares, rng.randint(2, 12))
        placed = {sq: ("neutral", "rock") if owner == "neutral" else (owner, "stone")
                  for sq, owner in ((sq, rng.choice(["white", "black", "neutral"])) for sq in chosen)}
        moves = [g.legal_notations(g.make_state(placed, to_move="white")) for g in games]
        assert moves[0] == moves[1], placed


def test_a_hoisted_step_in_a_search_towards_a_goal(tmp_path):
    # (`exists(..., it == e5)`: depth first towards e5, the step's test kept around the loop)
    goal = "exists(connected(a1, it is empty or it == a1, each step x to y where {}), it == e5)"
    hoisted, looped = (_game(tmp_path, name, goal.format(step)) for name, step in (
        ("hoisted", "x.owner != black"), ("looped", "x.owner != black and y != none")))
    assert all(any(isinstance(node, ast.While) for node in ast.walk(g.rules.module)) for g in (hoisted, looped))
    rng, answers = random.Random(4), set()
    squares = [f"{f}{r}" for f in "abcde" for r in "12345" if f"{f}{r}" not in ("a1", "e5")]
    for _ in range(60):
        chosen = rng.sample(squares, rng.randint(2, 10))
        placed = {sq: (rng.choice(["white", "black"]), "stone") for sq in chosen}
        moves = [g.legal_notations(g.make_state(placed, to_move="white")) for g in (hoisted, looped)]
        assert moves[0] == moves[1], placed
        answers.add(bool(moves[0]))
    assert answers == {True, False}
