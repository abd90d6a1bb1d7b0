"""An action made once for each region of a list (`action zone for each r in [west,
east, north]:`, docs/format.md 3.4): `r` is that region's set of sites in the
pattern, the conditions and the cases, and `{r}` writes its name."""
import pytest

from interpreter import load_game
from interpreter.frontends.cli import main
from tests.helpers import play, write_definition

YAML = """\
game: zones
title: Zones
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 4, ranks: 4}
regions:
  west: {files: [a, b]}
  east: {files: [c, d]}
  north: {ranks: [4]}
variables:
  taken: {default: 0}
pieces:
  stone: {symbol: S}
"""
# A stone goes into a region where the mover has none; it clears the enemy's
# stones of that region (of that one only: a4 is in west and north).
RULES = """\
phase play:
    turn: claim
    if no action:
        draw

decision claim:
    action zone for each r in [west, east, north]:
        drop stone on r
        where not exists(r, it is own)
        notation "{r}:{to}"
        onto empty:
            place
            for each s in r:
                if s is enemy:
                    remove s
                    taken += 1
"""


@pytest.fixture(scope="module")
def zones(tmp_path_factory):
    return load_game(write_definition(tmp_path_factory.mktemp("zones"), YAML, RULES))


def test_one_copy_per_region_named_in_the_notation(zones):
    state = zones.initial_state()
    listed = zones.legal_notations(state)
    assert sorted(listed) == sorted([f"west:{f}{r}" for f in "ab" for r in "1234"]
                                    + [f"east:{f}{r}" for f in "cd" for r in "1234"]
                                    + [f"north:{f}4" for f in "abcd"])
    # Black, with no stone yet, may play anywhere but a1: 7 + 8 + 4.
    assert len(zones.legal_notations(play(zones, "west:a1"))) == 19


def test_the_region_is_the_one_of_the_copy(zones):
    state = play(zones, "west:a1", "north:a4")
    # White has a stone in west (a1): no west copy; east and north (but a4) are open.
    assert sorted(zones.legal_notations(state)) == sorted([f"east:{f}{r}" for f in "cd" for r in "1234"]
                                                          + ["north:b4", "north:c4", "north:d4"])
    # b4 in north: black's a4 is in north and goes; in west it would have stayed.
    cleared = zones.apply(state, "north:b4")
    assert {p.site: p.owner for p in zones.pieces(cleared)} == {"a1": "white", "b4": "white"}
    assert zones.variables(cleared)["taken"] == 1


def test_perft_counts_every_copy(zones):
    """Depth 2 by hand: 20 x 20 first and second stones, less each second stone on
    the first one's site: a site counts once per region it is in, and the regions
    overlap on a4, b4 (west, north) and c4, d4 (east, north): 400 - (20 + 8)."""
    from tests.helpers import api_perft
    assert api_perft(zones, zones.initial_state(), 2) == 372


@pytest.mark.parametrize("collection, message", [
    ("[west, a1]", "the values of 'for each' are of one type: a set of sites and a site"),
    ("[west, [a1, b1]]", "{r}: a notation shows a region of 'for each' by its name"),
])
def test_a_list_that_is_not_of_regions(tmp_path, capsys, collection, message):
    write_definition(tmp_path, YAML, RULES.replace("[west, east, north]", collection))
    assert main(["validate", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err, err
