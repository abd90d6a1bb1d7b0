"""`sum(NAME in SET, EXPR)` (docs/format.md 3.12.2): the total of a number worked out
for each element of a set of sites, `players` or a set of directions — where
`count(a in S, count(b in S, ...))` only counts the a with some b (a cribbage
outsider's three aces scored 3 fifteens, not 6)."""
from interpreter import load_game
from tests.helpers import placing, stones_and_rocks, validate_says, write_definition

EXTRA = """\
attributes:
  pips: {type: int}
variables:
  total: {}
setup:
  white:
    stone: [{site: a1, pips: 5}, {site: b1, pips: 5}, {site: c1, pips: 10}, {site: a2, pips: 5}]
  black:
    stone: [{site: d4, pips: 7}]
"""
RULES = placing("total = TOTAL\n")

def _total(tmp_path, total):
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=EXTRA), RULES.replace("TOTAL", total)))
    return game.variables(game.apply(game.initial_state(), "@d1"))["total"]


def test_the_pairs_making_fifteen(tmp_path):
    # each five with the ten (3), the ten with each five (3) — each pair counted from
    # both ends, and no card with itself; the new stone on d1 has no pips
    fifteens = "sum(a in pieces of player, count(b in pieces of player, b != a and a.pips + b.pips == 15))"
    assert _total(tmp_path, fifteens) == 6
    assert _total(tmp_path, fifteens.replace("sum(", "count(").replace("count(b", "count(b", 1)) == 4


def test_over_players_and_directions(tmp_path):
    assert _total(tmp_path, "sum(p in players, count(pieces of p))") == 6
    assert _total(tmp_path, "sum(p in players, sum(pieces of p, pips))") == 32
    # d1's neighbours: c1 and d2 on the board (north and west), none east or south
    assert _total(tmp_path, "sum(d in orthogonal, 1 if neighbour(d1, d) != none else 0)") == 2
    assert _total(tmp_path, "sum(s in [a1, c1], s.pips * 2)") == 30


def test_an_empty_set_sums_to_nothing(tmp_path):
    assert _total(tmp_path, "sum(s in (pieces of player where it.pips > 99), s.pips)") == 0


def test_the_value_must_be_a_number(tmp_path, capsys):
    write_definition(tmp_path, stones_and_rocks(extra=EXTRA), RULES.replace("TOTAL", "sum(s in sites, s)"))
    validate_says(tmp_path, capsys, "the second argument of 'sum' must be a number")
