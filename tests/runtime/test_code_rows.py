"""Prebuilt action codes: listing reads `(case, frm, to)` from rows made once per
(case, frm), within a bound on how many codes a game may keep ready."""
from interpreter import load_game
from interpreter.compilation.patterns import MAX_PREBUILT_CODES, CodeRows
from interpreter.compilation.source import Source
from interpreter.runtime.helpers import code_row


def test_a_row_holds_the_code_of_every_destination_and_of_no_site_last():
    rows = [None] * 5  # four sites, then "no site"
    row = code_row(rows, 3, 1)
    assert rows[1] is row
    assert row == [(3, 1, 0), (3, 1, 1), (3, 1, 2), (3, 1, 3), (3, 1, -1)]
    assert row[-1] == (3, 1, -1)
    code_row(rows, 3, -1)  # a drop: no site of origin
    assert rows[-1][2] == (3, -1, 2) and rows[:4] == [None, row, None, None]


def test_codes_are_kept_ready_within_the_bound_and_made_beyond_it():
    small = CodeRows(Source(), 64)
    first = small.code(0, "to")
    assert first.startswith("(k") and "h_code_row(" in first and first.endswith("[to]")
    assert small.code(0, "-1") == first[:-len("[to]")] + "[-1]"  # one table per case
    assert small.code(1, "to") != first
    sites = int(MAX_PREBUILT_CODES ** 0.5)  # one case's rows fill the budget
    large = CodeRows(Source(), sites)
    assert large.code(0, "to") == "(0, frm, to)"


def test_listing_twice_gives_the_same_codes_not_new_ones():
    game = load_game("lielow")
    state = game.initial_state()
    unsettled = state.copy()
    unsettled.legal = None  # listed again
    first, again = game.engine.legal(state), game.engine.legal(unsettled)
    assert first is not again
    assert first == again and all(a is b for a, b in zip(first, again))
