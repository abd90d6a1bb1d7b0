"""Action codes kept in tables: listing reads `(case, frm, to)` from a table per case,
each code made the first time it is listed, within a bound on how many entries a
game may keep."""
import re

from interpreter import load_game
from interpreter.compilation.patterns import MAX_PREBUILT_CODES, CodeTables
from interpreter.compilation.source import Source
from interpreter.runtime.helpers import make_code
from tests.helpers import REPO


def test_a_code_is_made_once_where_the_table_keeps_it():
    table = [[None] * 5 for _ in range(5)]  # four sites, then "no site"
    code = make_code(table, 3, 1, 2)
    assert code == (3, 1, 2) and table[1][2] is code
    assert make_code(table, 3, -1, -1) == (3, -1, -1) and table[4][4] == (3, -1, -1)  # (-1: the last entry)
    assert sum(entry is not None for row in table for entry in row) == 2


def test_codes_are_kept_within_the_bound_and_made_beyond_it():
    small = CodeTables(Source(), 64)
    first = small.code(0, "to")
    table = first[1:first.index("[")]
    assert first == f"({table}[frm][to] or h_make_code({table}, 0, frm, to))"
    assert small.code(0, "-1") == f"({table}[frm][-1] or h_make_code({table}, 0, frm, -1))"  # one table a case
    assert table not in small.code(1, "to")
    sites = int(MAX_PREBUILT_CODES ** 0.5)  # one case's table fills the budget
    large = CodeTables(Source(), sites)
    assert large.code(0, "to") == "(0, frm, to)"


def test_listing_twice_gives_the_same_codes_not_new_ones():
    game = load_game("lielow")
    state = game.initial_state()
    unsettled = state.copy()
    unsettled.legal = None  # listed again
    first, again = game.engine.legal(state), game.engine.legal(unsettled)
    assert first is not again
    assert first == again and all(a is b for a, b in zip(first, again))


def test_a_walks_codes_are_made_fresh_and_the_other_actions_come_from_tables():
    # RoyalFiz: `walk die steps` (ends anywhere on the board: no table) beside
    # `go to` across the moat (a table)
    game = load_game("royalfiz")
    source = game.rules.source
    labels = [case.label for case in game.engine.rules.cases]
    walk = [i for i, label in enumerate(labels) if label.startswith("action 'walk'")]
    jump = [i for i, label in enumerate(labels) if label.startswith("action 'jump_moat'")]
    assert len(walk) == len(jump) == 3
    for case in walk:
        assert f"({case}, frm, to)" in source and not re.search(rf"h_make_code\(k\d+, {case}, frm, to\)", source)
    for case in jump:
        assert re.search(rf"h_make_code\(k\d+, {case}, frm, to\)", source)


def test_actions_from_no_site_read_the_row_of_no_origin():
    tables = CodeTables(Source(), 4)
    moving = tables.code(0, "to")
    table = moving[1:moving.index("[")]
    dropping = tables.without_origin().code(0, "to")
    row = dropping[1:dropping.index("[")]
    assert dropping == f"({row}[to] or h_make_code({table}, 0, frm, to))"
    assert tables.src.namespace[row] is tables.src.namespace[table][-1]  # the same row, filled through the table


def test_a_drop_lists_the_same_codes_twice_from_the_row_of_no_origin():
    game = load_game(str(REPO / "docs" / "examples" / "connect_four"))
    assert re.search(r"out\.append\(\(k\d+\[to\] or h_make_code\(k\d+, \d+, frm, to\)\)\)", game.rules.source)
    state = game.initial_state()
    unsettled = state.copy()
    unsettled.legal = None
    first, again = game.engine.legal(state), game.engine.legal(unsettled)
    assert len(first) == 7 and all(code[1] == -1 for code in first)
    assert all(a is b for a, b in zip(first, again))
