"""Action codes kept in tables: listing reads `(case, frm, to)` from a table per case,
each code made the first time it is listed, within a bound on how many entries a
game may keep."""
import ast

from interpreter import load_game
from interpreter.compilation import pyast
from interpreter.compilation.patterns import MAX_PREBUILT_CODES, CodeTables
from interpreter.compilation.source import Source
from interpreter.runtime.helpers import make_code
from interpreter.runtime.pieces import NO_SITE, ActionCode
from tests.helpers import REPO, generated, helper_calls, is_number

FRM, TO, NOWHERE = pyast.name("frm"), pyast.name("to"), pyast.num(-1)


def _read_or_made(row, table, case: int, destination):
    """`(ROW[destination] or h_make_code(TABLE, case, frm, destination))`."""
    made = pyast.helper("h_make_code", table, pyast.num(case), FRM, destination)
    return pyast.or_(pyast.sub(row, destination), made)


def test_a_code_is_made_once_where_the_table_keeps_it():
    table = [[None] * 5 for _ in range(5)]  # four sites, then "no site"
    code = make_code(table, 3, 1, 2)
    assert code == (3, 1, 2) and table[1][2] is code
    assert make_code(table, 3, -1, -1) == (3, -1, -1) and table[4][4] == (3, -1, -1)  # (-1: the last entry)
    assert sum(entry is not None for row in table for entry in row) == 2


def test_codes_are_kept_within_the_bound_and_made_beyond_it():
    small = CodeTables(Source(), 64)
    first = small.code(0, TO)
    table = first.values[1].args[0]
    assert pyast.same(first, _read_or_made(pyast.sub(table, FRM), table, 0, TO))
    assert pyast.same(small.code(0, NOWHERE), _read_or_made(pyast.sub(table, FRM), table, 0, NOWHERE))  # one a case
    assert table.id not in ast.unparse(small.code(1, TO))
    sites = int(MAX_PREBUILT_CODES ** 0.5)  # one case's table fills the budget
    large = CodeTables(Source(), sites)
    assert pyast.same(large.code(0, TO), pyast.tuple_(pyast.num(0), FRM, TO))


def test_listing_twice_gives_the_same_codes_not_new_ones():
    game = load_game("lielow")
    state = game.initial_state()
    unsettled = state.copy()
    unsettled.legal = None  # listed again
    first, again = game.engine.legal(state), game.engine.legal(unsettled)
    assert first is not again
    assert first == again and all(a is b for a, b in zip(first, again))


def _codes_made_by_table(game, case: int) -> list:
    return [call for call in helper_calls(game, "h_make_code") if is_number(call.args[1], case)]


def _codes_made_fresh(game, case: int) -> list:
    """The tuples `(case, frm, to)` of the generated code."""
    return [node for node in generated(game, ast.Tuple)
            if len(node.elts) == 3 and is_number(node.elts[0], case)
            and pyast.same(node.elts[1], FRM) and pyast.same(node.elts[2], TO)]


def test_a_walks_codes_are_made_fresh_and_the_other_actions_come_from_tables():
    # RoyalFiz: `walk die steps` (ends anywhere on the board: no table) beside
    # `go to` across the moat (a table)
    game = load_game("royalfiz")
    labels = [case.label for case in game.engine.rules.cases]
    walk = [i for i, label in enumerate(labels) if label.startswith("action 'walk'")]
    jump = [i for i, label in enumerate(labels) if label.startswith("action 'jump_moat'")]
    assert len(walk) == len(jump) == 3
    for case in walk:
        assert _codes_made_fresh(game, case) and not _codes_made_by_table(game, case)
    for case in jump:
        assert _codes_made_by_table(game, case) and not _codes_made_fresh(game, case)


def test_actions_from_no_site_read_the_row_of_no_origin():
    tables = CodeTables(Source(), 4)
    moving = tables.code(0, TO)
    table = moving.values[1].args[0]
    dropping = tables.without_origin().code(0, TO)
    row = dropping.values[0].value
    assert pyast.same(dropping, _read_or_made(row, table, 0, TO))
    assert tables.src.value(row) is tables.src.value(table)[-1]  # the same row, filled through the table


def test_a_drop_lists_the_same_codes_twice_from_the_row_of_no_origin():
    game = load_game(str(REPO / "docs" / "examples" / "connect_four"))
    (made,) = helper_calls(game, "h_make_code", origin="legal actions")
    table = made.args[0]
    (read,) = [node for node in generated(game, ast.BoolOp, origin="legal actions") if pyast.same(node.values[1], made)]
    row = read.values[0].value
    assert "decision 'drop'" in str(game.rules.source_map[row.id])  # (a constant the drop's lister made)
    state = game.initial_state()
    unsettled = state.copy()
    unsettled.legal = None
    first, again = game.engine.legal(state), game.engine.legal(unsettled)
    assert len(first) == 7 and all(ActionCode.of(code).origin == NO_SITE for code in first)
    assert all(a is b for a, b in zip(first, again))
    assert not pyast.same(row, pyast.sub(table, FRM))  # (the row of origin -1 itself, by its own name)


def test_a_case_from_no_site_keeps_one_row_within_the_bound():
    # A drop or select starts from no site: its table is the row of -1 alone, so
    # that it fits beside moves' tables a board's size squared each.
    sites = int(MAX_PREBUILT_CODES ** 0.5) - 2  # one move's table all but fills the budget
    tables = CodeTables(Source(), sites)
    tables.code(0, TO)
    drops = tables.without_origin()
    code = drops.code(1, TO)
    table = code.values[1].args[0]
    assert len(drops.src.namespace[table.id]) == 1
    assert not pyast.same(code, pyast.tuple_(pyast.num(1), FRM, TO))
    assert pyast.same(tables.code(2, TO), pyast.tuple_(pyast.num(2), FRM, TO))  # (a second move's: beyond)
    row = [None] * (sites + 1)
    assert make_code([row], 1, -1, 3) == (1, -1, 3) and row[3] == (1, -1, 3)
