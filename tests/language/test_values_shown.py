"""Candidates that cannot write one notation are not compared while listing
(decisions._clashes): an exact number of steps `along` a track lands on one site
from one start (told_apart.one_landing), whatever the notation leaves out; two
copies of one action made for distinct values of its `for each` differ in every
notation that shows the value. Where neither holds they are still compared."""
from interpreter import load_game
from interpreter.runtime.engine import Engine
from tests.helpers import names_read
from tests.language.test_landings_apart import COMPARING
from tests.language.test_reach import make, one_decision

TRACKS = """\
tracks:
  lap: {sites: [a1, b1, c1, d1, e1], loop: false}
variables:
  hi: {}
  lo: {}
"""
RULES = """\
    action run by man for each d in [hi, lo]:
        where d > 0
        along lap distance d
        notation "{from}/{d}"
        onto empty: move
        onto enemy: move
        off board: remove piece
"""
SETUP = "  white:\n    man: [a1, b1]\n  black:\n    man: [c1]\n"


def position(game, pieces, hi, lo):
    return game.make_state(pieces, to_move="white", variables={"hi": hi, "lo": lo})


def notations(game, hi, lo):
    pieces = {"a1": ("white", "man"), "b1": ("white", "man"), "d1": ("black", "man")}
    return sorted(game.legal_notations(position(game, pieces, hi, lo)))


def perft_of_spellings(tmp_path, rules, written, spellings, pieces, hi, lo):
    """Perft 3 from one position of the rules with their notation `written` spelt each way."""
    counts = []
    for i, notation in enumerate(spellings):
        folder = tmp_path / str(i)
        folder.mkdir()
        game = make(folder, one_decision(rules.replace(written, notation)), SETUP, TRACKS)
        engine: Engine = game.engine
        counts.append(engine.perft(position(game, pieces, hi, lo), 3))
    return counts


def test_copies_showing_their_value_are_not_compared(tmp_path):
    game = make(tmp_path, one_decision(RULES), SETUP, TRACKS)
    assert not names_read(game) & COMPARING
    # a1 and b1 by 3 and 1: a1/1 onto own b1 is no case; b1/3 onto e1, a1/3 onto d1 (a capture)
    assert notations(game, 3, 1) == ["a1/3", "b1/1", "b1/3"]
    # equal values: one copy plays (distinct values only), each start once
    assert notations(game, 2, 2) == ["a1/2", "b1/2"]
    # b1 by 4 leaves the track (off board), a1 by 4 lands on e1
    assert notations(game, 4, 0) == ["a1/4", "b1/4"]


def test_copies_whose_notation_hides_the_value_are_compared(tmp_path):
    game = make(tmp_path, one_decision(RULES.replace('"{from}/{d}"', '"{from}"')), SETUP, TRACKS)
    assert names_read(game) & COMPARING
    # b1 by 3 and by 1 writes "b1" twice: listed once (the first value's)
    assert notations(game, 3, 1) == ["a1", "b1"]
    state = game.make_state({"a1": ("white", "man"), "d1": ("black", "man")}, to_move="white",
                            variables={"hi": 3, "lo": 1})
    assert [a.notation for a in game.legal_actions(state)] == ["a1"]
    assert game.apply(state, "a1") is not None


def test_the_perft_counts_of_both(tmp_path):
    pieces = {"a1": ("white", "man"), "b1": ("white", "man"), "e1": ("black", "man")}
    first, second = perft_of_spellings(tmp_path, RULES, '"{from}/{d}"', ('"{from}/{d}"', '"{from}-{to}/{d}"'),
                                       pieces, 2, 1)
    assert first == second


# Copies landing apart (told_apart.lands_by_value): `{from}-{to}` without the value,
# bearing off written with it, as benchmarks/games/backgammon writes them.
LANDING_RULES = """\
    action run by man for each d in [hi, lo]:
        where d > 0
        along lap distance d
        notation "{from}-{to}"
        onto empty: move
        onto enemy: move
        off board:
            notation "{from}-off:{d}"
            remove piece
"""


LANDING_PIECES = {"a1": ("white", "man"), "c1": ("white", "man"), "e1": ("black", "man")}


def landing_notations(game, hi, lo):
    return sorted(game.legal_notations(position(game, LANDING_PIECES, hi, lo)))


def test_copies_landing_apart_are_not_compared(tmp_path):
    game = make(tmp_path, one_decision(LANDING_RULES), SETUP, TRACKS)
    assert not names_read(game) & COMPARING
    # a1 by 3 onto d1, by 1 onto b1; c1 by 3 leaves the track (off: 3), by 1 onto d1
    assert landing_notations(game, 3, 1) == ["a1-b1", "a1-d1", "c1-d1", "c1-off:3"]
    # c1 bears off by 4 and by 3, each written with its value; a1 by 4 takes e1
    assert landing_notations(game, 4, 3) == ["a1-d1", "a1-e1", "c1-off:3", "c1-off:4"]
    # equal values: one copy; a1 by 2 onto its own c1 is no case
    assert landing_notations(game, 2, 2) == ["c1-e1"]


def test_copies_bearing_off_alike_are_compared(tmp_path):
    # Bearing off without the value: c1 by 4 and by 3 both write "c1-off", listed once.
    game = make(tmp_path, one_decision(LANDING_RULES.replace('"{from}-off:{d}"', '"{from}-off"')), SETUP, TRACKS)
    assert names_read(game) & COMPARING
    assert landing_notations(game, 4, 3) == ["a1-d1", "a1-e1", "c1-off"]
    assert landing_notations(game, 3, 1) == ["a1-b1", "a1-d1", "c1-d1", "c1-off"]


def test_copies_round_a_loop_are_compared(tmp_path):
    # Round a looping track of five, 6 steps land where 1 does: "a1-b1" once.
    game = make(tmp_path, one_decision(LANDING_RULES), SETUP, TRACKS.replace("loop: false", "loop: true"))
    assert names_read(game) & COMPARING
    assert landing_notations(game, 6, 1) == ["a1-b1", "c1-d1"]


def test_the_perft_counts_of_copies_landing_apart(tmp_path):
    first, second = perft_of_spellings(tmp_path, LANDING_RULES, '"{from}-{to}"', ('"{from}-{to}"', '"{from}-{to}/{d}"'),
                                       LANDING_PIECES, 3, 1)
    assert first == second


HOP = """\
    action hop by man for each d in [n, e, s, w]:
        where neighbour(from, d) is occupied
        go to beyond(START, d, it is occupied)
        onto empty: move
"""


def test_copies_going_along_their_directions_rays_are_not_compared(tmp_path):
    # A hop over a line of men in each direction lands on the ray of its own
    # direction from the start: no two copies land alike (the rays of n, e, s and
    # w from one square share none), so no listing compares their notations.
    setup = "  white:\n    man: [c3, a1]\n  black:\n    man: [c4, d3, e3, a2]\n"
    game = make(tmp_path, one_decision(HOP.replace("START", "from")), setup)
    assert not names_read(game) & COMPARING
    # c3 over c4 to c5, over d3 and e3 off the board (no landing); a1 over a2 to a3
    assert sorted(game.legal_notations(game.initial_state())) == ["a1-a3", "c3-c5"]
    # Not from the piece's own square (here its neighbour's, which may be the
    # same for two copies): compared as before.
    (tmp_path / "other").mkdir()
    other = make(tmp_path / "other", one_decision(HOP.replace("START", "neighbour(from, n)")), setup)
    assert names_read(other) & COMPARING


DROPS_YAML = """\
game: drops
title: Drops
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
pieces:
  stone: {symbol: S}
"""
# A stone into a region, its notation the site alone; no stone beside a stone of
# one's own (a `forbid result`: notations compared after it, helpers.dedup_alike).
DROPS_RULES = """\
phase play:
    turn: put
    if no action:
        draw

forbid lonely:
    result where exists(pieces of player, exists(d in all, neighbour(it, d) is own))

decision put:
    action zone for each r in [REGIONS]:
        drop stone on r
        notation "@{to}"
        onto empty: place
"""


def _drops(tmp_path, regions):
    from tests.helpers import write_definition
    return load_game(write_definition(tmp_path, DROPS_YAML, DROPS_RULES.replace("REGIONS", regions)))


def test_copies_of_a_drop_choosing_apart_are_not_compared(tmp_path):
    # west and east share no site: a site tells the copy, nothing is compared.
    game = _drops(tmp_path, "west, east")
    assert not names_read(game) & (COMPARING | {"h_dedup_alike"})
    assert sorted(game.legal_notations(game.initial_state())) == sorted(f"@{f}{r}" for f in "abcd" for r in "1234")
    state = game.apply(game.initial_state(), "@b2")
    assert len(game.legal_notations(game.apply(state, "@c3"))) == 16 - 2 - 7


def test_copies_of_a_drop_choosing_alike_are_compared(tmp_path):
    # west and north share a4 and b4: each is listed once (the first copy's).
    game = _drops(tmp_path, "west, north")
    assert "h_dedup_alike" in names_read(game)
    listed = game.legal_notations(game.initial_state())
    assert sorted(listed) == sorted({f"@{f}{r}" for f in "ab" for r in "1234"} | {f"@{f}4" for f in "abcd"})
