"""Values by player and site worked out once, when the rules are compiled, and
read from a table in the loops (compilation/tabulate.py): the tables hold what
the rules say (hand-checked on Kalah's places), and games play exactly as with
the pass switched off."""
import ast
import random

import pytest

from interpreter import load_game
from interpreter.compilation import compiler
from tests.helpers import REPO

TABLE_ORIGIN = "a loop's table"


def _tables(game) -> dict[str, object]:
    rules = game.rules
    return {name: rules.constants[name] for name, origin in rules.source_map.items()
            if TABLE_ORIGIN in str(origin)}


def test_the_older_kalah_reads_each_pits_place_from_a_table():
    # `place_of(q)`: the place of pit q in the round of the player to move, from
    # rays and rows (benchmarks/older/kalah): South's pits a1..f1 (sites 0..5)
    # are its places 0..5, North's f2..a2 (sites 11..6) its places 7..12; North
    # counts from f2. The sowing loop's `(place_of(q) - f) % 13`, with `f =
    # place_of(to)` a local of the site sown: a table by player, `to` and site.
    game = load_game(str(REPO / "benchmarks" / "older" / "kalah"))
    tables = _tables(game)
    places = ((0, 1, 2, 3, 4, 5, 12, 11, 10, 9, 8, 7), (7, 8, 9, 10, 11, 12, 5, 4, 3, 2, 1, 0))
    assert places in tables.values()
    (place,) = (name for name, table in tables.items() if table == places)
    # read for the capture's loop, by the player (the player's row taken once
    # before the loop: compilation/invariants.py)
    reads = [node for node in ast.walk(game.rules.module) if isinstance(node, ast.Subscript)
             and isinstance(node.value, ast.Name) and node.value.id == place]
    assert len(reads) == 1 and isinstance(reads[0].slice, ast.Name) and reads[0].slice.id == "p"
    # whether a pit gets the one more seed, by player, `to` (12 sites, then
    # NO_SITE), `n % 13` (the seeds sown, modulo 13: 0..12) and site: whether the
    # distance from `f` is 1..n % 13 places. South sowing c1 (site 2, place 2) 3
    # seeds: d1, e1, f1; North sowing a2 (site 6, place 5) 3: its store, then a1
    # and b1 (sites 0, 1, places 7 and 8)
    one_more = next(table for table in tables.values() if len(table) == 2 and len(table[0]) == 13
                    and isinstance(table[0][0], tuple) and len(table[0][0]) == 13)
    assert one_more[0][2][3] == (0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0)
    assert one_more[1][6][3] == (1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert all(one_more[p][to][m][q] == (1 if 1 <= (places[p][q] - places[p][to]) % 13 <= m else 0)
               for p in range(2) for to in range(12) for m in range(13) for q in range(12))
    # `f` itself by player and `to` (then NO_SITE): the places again
    assert any(table[0][:12] == places[0] and table[1][:12] == places[1] and len(table[0]) == 13
               for table in tables.values())
    # read in the sowing loop as the row of `to` and `n % 13`, taken once before the loop
    text = ast.unparse(game.rules.module)
    assert any(line.strip().endswith("[p][to][l0 % 13]") and line.strip().startswith("t")
               for line in text.splitlines())


def _playouts(path: str, seeds: range) -> list:
    game = load_game(path)
    engine = game.engine
    out = []
    for seed in seeds:
        s = engine.initial_state()
        engine.random_playout(s, random.Random(seed), 400)
        out.append((tuple(s.board), tuple(s.vars), s.result, s.ply))
    return out


@pytest.mark.parametrize("path", ["benchmarks/older/kalah", "benchmarks/games/quoridor"])
def test_games_play_as_with_the_pass_switched_off(path, monkeypatch):
    full = str(REPO / path)
    assert _tables(load_game(full)), "the pass made no table here"
    with_tables = _playouts(full, range(12))
    monkeypatch.setattr(compiler, "tabulate", lambda src, players, sites=0: None)
    assert not _tables(load_game(full))
    assert _playouts(full, range(12)) == with_tables


def test_a_table_by_site_alone_and_one_left_as_it_was(tmp_path):
    # `count(ray(q, e)) * 2 + 1` by site; `12 // count(ray(q, w))` fails on the a
    # file (no site west), so it is left as it was, asked only where the rules ask it.
    from tests.helpers import stones_and_rocks, write_definition
    rules = """\
        phase play:
            turn: place
        decision place:
            action stone:
                drop stone on sites
                notation "{to}"
                onto empty:
                    place
                    for each q in sites:
                        total += count(ray(q, e)) * 2 + 1
                        if count(ray(q, w)) > 0:
                            total += 12 // count(ray(q, w))
    """
    yaml = stones_and_rocks(extra="variables:\n  total: {type: int, description: A sum.}\n")
    game = load_game(write_definition(tmp_path, yaml, rules))
    tables = list(_tables(game).values())
    assert tuple(2 * (3 - site % 4) + 1 for site in range(16)) in tables
    # (the count west alone is a table too; the division by it stays in the loop)
    assert tuple(site % 4 for site in range(16)) in tables
    assert not any(table[1] == 12 for table in tables)
    s = game.apply(game.initial_state(), "a1")
    # 4 ranks of 7 + 5 + 3 + 1, and of 12 // 1 + 12 // 2 + 12 // 3 (files b, c, d)
    assert game.variables(s)["total"] == 4 * 16 + 4 * 22


# ---------------------------------------------------------------- the sites of the action code
def _tabulated(code: str, constants: tuple, players: int, sites: int, whole: frozenset = frozenset()
               ) -> tuple[str, dict]:
    """`code` (one function; its constants k0, k1, ... are `constants`) after the
    pass and the invariants' (the board has `sites` sites; `whole`: the locals
    holding whole numbers), and the constants."""
    import textwrap

    from interpreter.compilation.invariants import share_work
    from interpreter.compilation.source import Source
    from interpreter.compilation.tabulate import tabulate
    src = Source()
    for value in constants:
        src.const(value)
    src.functions = [ast.parse(textwrap.dedent(code)).body[0]]
    src.whole.update(whole)
    tabulate(src, players, sites)
    share_work(src, players, sites)
    text = ast.unparse(ast.fix_missing_locations(ast.Module(body=src.functions, type_ignores=[])))
    return text, dict(src.namespace)


# four sites in a row; k0: each site's place by player (South counts from site 0,
# North from site 3); k1: the loop's sites
_PLACES = ((0, 1, 2, 3, 0), (3, 2, 1, 0, 0))
_SOWING = """
    def f(s, code):
        b = s.board
        p = s.player
        to = code[2]
        n = b[to]
        f = k0[p][to] + 1
        for q in k1:
            d = k0[p][q]
            b[q] = n + (d - f) % 5 * 2
        b[to] = n + (f + 2) % 5
"""


def test_a_local_of_the_site_of_the_action_is_read_with_the_loops_site_from_one_table():
    text, constants = _tabulated(_SOWING, (_PLACES, (0, 1, 2, 3)), players=2, sites=4)
    loop = text[text.index("for q"):]
    # `(d - f) % 5 * 2` by player, `to` (the four sites, then NO_SITE) and site;
    # `d` is read nowhere else and is left out; the row of `to` is read once
    assert "%" not in loop and "d =" not in text and "f =" in text
    # outside the loop too: `f` and `(f + 2) % 5` by player and `to`
    assert "%" not in text and "+ 1" not in text
    (fixed,) = (line.strip() for line in text.splitlines() if line.strip().startswith("f = "))
    assert constants[fixed.split(" = ")[1].split("[")[0]] == ((1, 2, 3, 4, 1), (4, 3, 2, 1, 1))
    (row,) = (line.strip() for line in text.splitlines() if line.strip().startswith("t0 = "))
    table = constants[row.split(" = ")[1].split("[")[0]]
    assert len(table) == 2 and all(len(by_to) == 5 for by_to in table)
    # South sowing site 1 (f = 2): site 3 (place 3) is (3 - 2) % 5 * 2 = 2 on, site 0 (place 0) 6
    assert table[0][1][3] == 2 and table[0][1][0] == 6
    # North sowing site 3 (place 0, f = 1): site 0 (place 3) 4; NO_SITE reads k0[p][-1] = 0
    assert table[1][3][0] == 4 and table[1][4][2] == (1 - 1) % 5 * 2
    assert all(table[p][to][q] == (_PLACES[p][q] - _PLACES[p][to] - 1) % 5 * 2
               for p in range(2) for to in list(range(4)) + [-1] for q in range(4))


@pytest.mark.parametrize("change", [
    ("to = code[2]", "to = code[4]"),  # the choice: not a site
    ("f = k0[p][to] + 1", "f = k0[p][to] + 1\n        f = f + 1"),  # set twice
    ("f = k0[p][to] + 1", "f = 12 // k2[to]"),  # fails for NO_SITE (k2[-1] is 0)
    ("to = code[2]", "to = code[2]\n        to = to + 0"),  # the register set again
])
def test_a_local_not_fixed_by_the_sites_of_the_code_stays_in_the_loop(change):
    code = _SOWING.replace(*change)
    text, _ = _tabulated(code, (_PLACES, (0, 1, 2, 3), (1, 2, 3, 4, 0)), players=2, sites=4)
    assert "% 5" in text[text.index("for q"):]


def test_havannah_reads_the_sites_around_the_drop_from_a_table():
    # `neighbours(to) + to` (the outsider's Havannah, tests/data/havannah): the
    # drop's site and its neighbours, by site, in board order; a tuple, gone over
    # by the loop that asks each of them
    game = load_game(str(REPO / "tests/data/havannah/havannah4.yaml"))
    (table,) = [t for t in _tables(game).values() if len(t) == 37 + 1]
    assert table[0] == (0, 1, 4, 5)  # a1: b1, a2, b2
    assert table[10] == (4, 5, 9, 10, 11, 16, 17)  # b3: a2, b2, a3, c3, b4, c4
    assert table[-1] == ()  # (none)


# ---------------------------------------------------------------- parts of few values
# Sowing `n` seeds from `to` in closed form (the older Kalah's shape): every place
# gets n // 5, and the n % 5 places after `to`'s one more.
_CLOSED_FORM = """
    def f(s, code):
        b = s.board
        p = s.player
        to = code[2]
        n = b[to]
        f = k0[p][to]
        for q in k1:
            t = n // 5 + (1 if (k0[p][q] - f) % 5 >= 1 and (k0[p][q] - f) % 5 <= n % 5 else 0)
            if t:
                b[q] = b[q] + t
        b[4] = n // 5 + (1 if (4 - f) % 5 >= 1 and (4 - f) % 5 <= n % 5 else 0)
"""


def _run(text: str, constants: dict, player: int, to: int, seeds: int) -> list:
    class State:
        pass
    s = State()
    s.board, s.player = [10, 20, 30, 40, 50], player
    s.board[to] = seeds
    namespace = dict(constants)
    exec(compile(text, "<test>", "exec"), namespace)  # (the test's own code)
    namespace["f"](s, (0, -1, to))
    return s.board


def test_a_whole_number_modulo_a_constant_indexes_a_table_and_the_loop_goes_over_the_sites_it_changes():
    import textwrap
    constants = (_PLACES, (0, 1, 2, 3))
    text, namespace = _tabulated(_CLOSED_FORM, constants, players=2, sites=4, whole=frozenset({"n", "f"}))
    loop = text[text.index("for q"):text.index("b[4]")]
    # `(1 if ... <= n % 5 else 0)` by player, `to` and `n % 5` (0..4), the row taken
    # once before the loop; the loop over the sites it adds to when n // 5 is 0
    assert "%" not in loop.split(":", 1)[1] and "<=" not in text
    header = loop.splitlines()[0]
    assert header.startswith("for q in k1 if n // 5 else k") and header.endswith("[p][to][n % 5]:")
    sparse = namespace[header.split(" else ")[1].split("[")[0]]
    # South sowing site 1 (place 1) with n % 5 == 2: places 2, 3 (sites 2, 3);
    # North sowing site 3 (place 0) with 3: places 1..3 (sites 2, 1, 0), in the loop's order
    assert sparse[0][1][2] == (2, 3) and sparse[1][3][3] == (0, 1, 2) and sparse[0][1][0] == ()
    plain = textwrap.dedent(_CLOSED_FORM)
    plain_namespace = {f"k{i}": value for i, value in enumerate(constants)}
    for player in range(2):
        for to in range(4):
            for seeds in range(-7, 23):
                assert _run(text, namespace, player, to, seeds) == _run(plain, plain_namespace, player, to, seeds)


def test_a_number_not_known_to_be_whole_is_not_an_index():
    # (a decimal number modulo 5 is no index of a table)
    text, _ = _tabulated(_CLOSED_FORM, (_PLACES, (0, 1, 2, 3)), players=2, sites=4, whole=frozenset({"f"}))
    loop = text[text.index("for q"):text.index("b[4]")]
    assert loop.startswith("for q in k1:") and "<=" in loop and "n % 5" in text


def test_an_int_attributes_default_written_with_a_point_is_a_whole_number(tmp_path):
    # (the schema's "integer" lets `4.0` through; the rules type the attribute as whole)
    import shutil
    folder = tmp_path / "kalah"
    shutil.copytree(REPO / "benchmarks" / "older" / "kalah", folder)
    yaml = folder / "kalah.yaml"
    yaml.write_text(yaml.read_text().replace("default: 4}", "default: 4.0}"))
    game = load_game(str(folder))
    pits = [piece for piece in game.initial_state().board if piece is not None]
    assert len(pits) == 12 and all(type(piece[3]) is int for piece in pits)
    assert _playouts(str(folder), range(4)) == _playouts(str(REPO / "benchmarks" / "older" / "kalah"), range(4))


def test_a_position_built_by_hand_holds_whole_numbers_in_int_attributes():
    game = load_game(str(REPO / "benchmarks" / "older" / "kalah"))
    pits = {"a1": ("neutral", "pit", {"seeds": 5.0}), "b1": ("neutral", "pit", {"seeds": 3})}
    state = game.make_state(pits, to_move="south")
    assert type(state.board[0][3]) is int
    # a1's 5 seeds: b1 .. f1 get one each (places 1..5)
    after = game.apply(state, "a1")
    assert [after.board[site][3] for site in (0, 1)] == [0, 4]
    with pytest.raises(ValueError, match="whole number"):
        game.make_state({"a1": ("neutral", "pit", {"seeds": 2.5})})


# ---------------------------------------------------------------- one value over the loop's sites
_DROPS = """
    def f(s):
        b = s.board
        out = []
        for to in k1:
            if b[k0[to]] is None and k0[to] != -1:
                out.append(to)
            t = b[to] and k0[to] != -1
            u = k0[to] != -1 and b[to]
        return out
"""


def test_a_value_alike_at_every_site_of_the_loop_is_that_value():
    # k0: each site's west neighbour (-1 on the a file); the loop goes over sites 1
    # and 2 alone, where there is one: `k0[to] != -1` is True there
    west = (-1, 0, 1, -1, -1)
    text, _ = _tabulated(_DROPS, (west, (1, 2)), players=1, sites=4)
    assert "if b[k0[to]] is None:" in text  # (`x and True` is `x` for a comparison x)
    assert "t = b[to] and True" in text  # (not for another value: `b[to] and True` may be True)
    assert "u = b[to]" in text  # (`True and x` is `x`)
    # over sites 0 to 2 it differs: a table read, as before
    text, constants = _tabulated(_DROPS, (west, (0, 1, 2)), players=1, sites=4)
    assert "True" not in text and "!= -1" not in text


def test_without_neutral_leaves_the_value_of_an_and_or_an_or():
    from interpreter.compilation.tabulate import _without_neutral
    for code, op in [("a and True", ast.And()), ("(x == 1) and True", ast.And()), ("True and a", ast.And()),
                     ("a or False", ast.Or()), ("False or a or b", ast.Or()), ("(not a) or False", ast.Or())]:
        node = ast.parse(code, mode="eval").body
        kept = _without_neutral(op, node.values)
        merged = kept[0] if len(kept) == 1 else ast.BoolOp(op=op, values=kept)
        expression = ast.Expression(body=merged)
        ast.fix_missing_locations(expression)
        for a in (0, 1, 2, "", None):
            for b in (0, 3):
                env = {"a": a, "b": b, "x": a}
                assert eval(compile(expression, "<t>", "eval"), env) == eval(code, env), (code, a)
