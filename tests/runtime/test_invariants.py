"""Work the generated code would do again, done once (compilation/invariants.py,
narrowing.py, the computed attribute step, sums over a few fixed sites): what
each pass moves on small functions and rules, where it must not, and games that
play and list exactly as with the passes switched off."""
import ast
import random
import re
import textwrap

import pytest

from interpreter import load_game
from interpreter.compilation import actions, compiler
from interpreter.compilation.invariants import share_work
from interpreter.compilation.source import Source
from tests.helpers import REPO, generated, write_definition


def _shared(code: str, constants: tuple = (), players: int = 0) -> str:
    """`code` (one function; its constants k0, k1, ... are `constants`) after the pass."""
    src = Source()
    for value in constants:
        src.const(value)
    src.functions = [ast.parse(textwrap.dedent(code)).body[0]]
    share_work(src, players)
    return ast.unparse(ast.fix_missing_locations(ast.Module(body=src.functions, type_ignores=[])))


def _loop_of(text: str) -> str:
    """The statements from the first loop on."""
    return text[text.index("for "):]


# ---------------------------------------------------------------- loop invariants
def test_arithmetic_on_what_the_loop_never_sets_is_worked_out_before_it():
    text = _shared("""
        def f(s, n, m):
            b = s.board
            for q in range(12):
                x = n // 13 + (1 if q <= n % 13 else 0) + m * 2
                b[q] = x
    """)
    before, loop = text.split("for q")
    assert "n // 13" in before and "n % 13" in before and "m * 2" in before
    assert "//" not in loop and "%" not in loop and "*" not in loop


def test_a_value_the_loop_changes_stays_in_the_loop():
    text = _shared("""
        def f(s, n):
            b = s.board
            for q in range(12):
                n += 1
                b[q] = n // 2
    """)
    assert "n // 2" in _loop_of(text)


def test_a_name_set_only_in_a_branch_before_the_loop_stays_in_the_loop():
    # (worked out before the loop it could be read before it holds a value)
    text = _shared("""
        def f(s, c):
            b = s.board
            if c:
                n = 3
            for q in range(12):
                if c:
                    b[q] = n // 2
    """)
    assert "n // 2" in _loop_of(text)


def test_what_may_fail_stays_where_it_was():
    # a division by a name, an index, a call: maybe never reached in the loop
    text = _shared("""
        def f(s, n, d, t):
            b = s.board
            for q in range(12):
                if q > 20:
                    b[q] = n // d + t[n] + h_count(n)
    """)
    assert "n // d" in _loop_of(text) and "t[n]" in _loop_of(text)


def test_a_players_row_of_a_constant_table_is_read_once():
    text = _shared("""
        def f(s):
            b = s.board
            p = s.player
            for q in range(2):
                b[q] = k0[p][q]
    """, constants=(((1, 2), (3, 4)),), players=2)
    assert "k0[p]" not in _loop_of(text)
    assert "= k0[p]" in text


def test_a_row_by_player_where_the_player_may_change_stays():
    text = _shared("""
        def f(s, p):
            b = s.board
            for q in range(2):
                b[q] = k0[p][q]
    """, constants=(((1, 2), (3, 4)),), players=2)
    assert "k0[p][q]" in _loop_of(text)


EMPTY_PIECE = (-1, -1, (), 0, 0)  # (no owner, no kind, no stones, two attributes: expressions.py)


def test_a_field_of_the_piece_on_a_site_the_loop_never_sets_is_read_once():
    # (a count of pieces whose value makes 15 with the piece at `a`, the count
    # going on in `v[3]`: the loop writes neither the board nor the variables)
    text = _shared("""
        def f(s, a, cards):
            b = s.board
            v = s.vars
            n = 0
            for i in cards:
                if i != a and (b[i] or k0)[3] + (b[a] or k0)[3] == 15 and (b[i] or k0)[4] > v[3] - 2:
                    n += 1
            return n
    """, constants=(EMPTY_PIECE,))
    before, loop = text.split("for i")
    assert "(b[a] or k0)[3]" in before and "v[3] - 2" in before
    assert "b[a]" not in loop and "v[3]" not in loop


@pytest.mark.parametrize("writes, board_read_out, variable_read_out", [
    ("b[i] = None", False, True),
    ("h_clear(b, o, i)", False, True),  # (a helper handed the board may write it)
    ("v[3] += 1", True, False),
    ("v[0] = v[3]", True, True),  # (another variable written: v[3] stays what it was)
    ("v[i] = 0", True, False),  # (a place not written out: it may be v[3])
    ("h_add(v, 3)", True, False),  # (a helper handed the variables may write any)
    ("h_end(s, 0)", False, False),  # (one handed the state, either)
    ("n = h_first(o[0])", True, True),
])
def test_a_read_of_what_the_loop_may_change_stays_in_the_loop(writes, board_read_out, variable_read_out):
    text = _shared(f"""
        def f(s, a, cards):
            b = s.board
            v = s.vars
            o = s.occ
            for i in cards:
                if (b[a] or k0)[3] + v[3] == 15:
                    {writes}
    """, constants=(EMPTY_PIECE,))
    loop = _loop_of(text)
    assert ("b[a]" not in loop) == board_read_out
    assert ("v[3]" not in loop.replace("v[3] +=", "")) == variable_read_out


def test_variables_the_loop_does_not_write_are_read_once_before_it():
    # (a pair of cards not yet dealt, asked of every hand's variable; the loops
    # write two of them and a counter, each at a place written out)
    text = _shared("""
        def f(s, k):
            v = s.vars
            for a in range(1, 8):
                if not (v[0] == a or v[1] == a or v[2] == a):
                    for c in range(a + 1, 9):
                        if not (v[0] == c or v[1] == c or v[2] == c):
                            if v[5] == k:
                                v[0] = a
                                v[1] = c
                            v[5] += 1
    """)
    before, loop = text.split("for a")
    assert re.search(r"t\d+ = v\[2\]", before) and "v[2]" not in loop
    assert "v[0] == a" in loop and "v[1] == c" in loop and "v[5] == k" in loop
    assert "v[0]" not in before and "v[1]" not in before and "v[5]" not in before


def test_a_field_past_the_pieces_end_and_a_field_of_a_piece_that_may_be_missing_stay_in_the_loop():
    # (`b[a][3]` fails where `a` is empty; `(b[a] or k0)[9]` past every piece's end)
    text = _shared("""
        def f(s, a, cards):
            b = s.board
            n = 0
            for i in cards:
                if b[i][3] == b[a][3] or (b[i] or k0)[4] == (b[a] or k0)[9]:
                    n += 1
            return n
    """, constants=(EMPTY_PIECE,))
    loop = _loop_of(text)
    assert re.search(r"== (b\[a\]|t\d+)\[3\]", loop) and re.search(r"== (\(b\[a\] or k0\)|t\d+)\[9\]", loop)


# ---------------------------------------------------------------- common parts
def test_a_part_worked_out_twice_in_one_expression_is_kept_the_first_time():
    text = _shared("""
        def f(s, t, f, n):
            return 1 if (t - f) % 13 >= 1 and (t - f) % 13 <= n else 0
    """)
    assert text.count("(t - f) % 13") == 1 and ":=" in text


def test_a_part_behind_an_or_is_not_read_where_it_may_not_have_been_worked_out():
    # (the first `(t - f) % 13` is asked only when `n` is false)
    text = _shared("""
        def f(s, t, f, n):
            return (n or (t - f) % 13 > 2) and (t - f) % 13 < 5
    """)
    assert text.count("(t - f) % 13") == 2 and ":=" not in text


def test_parts_are_not_shared_across_a_call():
    # (a call may change what the parts read)
    text = _shared("""
        def f(s, b, x):
            return b[x[1][2]] + h_move(b) + b[x[1][2]]
    """)
    assert ":=" not in text


def test_a_part_worked_out_twice_in_a_maximum_is_kept_the_first_time():
    # (`max` and `min` change nothing between the two evaluations)
    text = _shared("""
        def f(s, a, b, c):
            return max(a, (c - 1) // 4 * 2 + (c - 1) // 4)
    """)
    assert text.count("(c - 1) // 4") == 1 and ":=" in text


# ---------------------------------------------------------------- lets moved and merged
def test_a_let_of_an_invariant_leaves_the_loop_and_its_copies_are_read_as_it():
    # (a define's argument bound to a temporary in each call, `suit(c0)` given as `led`:
    # moved before the inner loop, the copies of it read as it, so that what the body
    # works out of them is an invariant too)
    text = _shared("""
        def f(s, n):
            b = s.board
            for q in range(4):
                a = (q - 1) // 4
                for r in range(4):
                    led = a
                    if r > 0:
                        led2 = a
                        b[r] = (r // 4 == led) + (q % 4 if q // 4 == led2 else 0)
    """)
    inner = text[text.index("for r"):]
    assert "led" not in text and "q % 4" not in inner and "q // 4" not in inner
    assert text.count("(q - 1) // 4") == 1


def test_a_let_read_before_it_is_given_or_given_twice_stays_in_the_loop():
    text = _shared("""
        def f(s, n):
            b = s.board
            for q in range(4):
                b[q] = x if q > 0 else 0
                x = n + 1
                y = n + 2
                b[q] = y
                y = n + 3
    """)
    loop = _loop_of(text)
    assert "x = " in loop and loop.count("y = ") == 2


def test_two_lets_of_one_value_in_a_block_are_one():
    text = _shared("""
        def f(s, c):
            b = s.board
            t1 = (c - 1) // 4
            t2 = (c - 1) // 4
            b[0] = t1 + t2
    """)
    assert "t2" not in text and "b[0] = t1 + t1" in text


def test_lets_of_one_value_stay_two_where_it_may_differ_or_is_a_list():
    text = _shared("""
        def f(s, c, d):
            b = s.board
            t1 = (c - 1) // 4
            c = d
            t2 = (c - 1) // 4
            j1 = []
            j2 = []
            j1.append(t1)
            b[0] = t1 + t2 + len(j2)
    """)
    assert "t2 = " in text and "j2 = []" in text


# ---------------------------------------------------------------- in games
KALAH = str(REPO / "benchmarks" / "older" / "kalah")


def test_one_expression_in_several_functions_gets_temporaries_of_its_own_in_each():
    # (the rewriting of an expression is kept by its structure and copied: each copy
    # names its temporaries afresh, in the order the pass names them)
    body = "    return (n - m) % 13 >= 1 and (n - m) % 13 <= 7 and n * m + 1 > 0 and n * m + 1 < 9\n"
    src = Source()
    src.functions = [ast.parse(f"def {name}(n, m):\n" + body.replace("+ 1", one)).body[0]
                     for name, one in (("f", "+ 1"), ("g", "+ 1"), ("h", "+ 2"))]
    share_work(src, 0)
    f, g, h = (ast.unparse(ast.fix_missing_locations(function)).splitlines()[1] for function in src.functions)
    assert f == "    return (t0 := ((n - m) % 13)) >= 1 and t0 <= 7 and ((t1 := (n * m + 1)) > 0) and (t1 < 9)"
    assert g == f.replace("t1", "t3").replace("t0", "t2")
    assert h == "    return (t4 := ((n - m) % 13)) >= 1 and t4 <= 7 and ((t5 := (n * m + 2)) > 0) and (t5 < 9)"


def test_the_older_kalah_works_its_sowing_constants_out_once():
    game = load_game(KALAH)
    sowing = next(f for f in game.rules.module.body if "action 'pit'" in str(game.rules.source_map.get(f.name)))
    loop = next(node for node in sowing.body if isinstance(node, ast.For))
    body = ast.Module(body=loop.body, type_ignores=[])
    # `n // 13` and `n % 13` of the `sown` formula: before the loop over every site
    # (the loop's sites worked out once from them: compilation/tabulate.py, `_sparse`)
    assert not any(isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv) for node in ast.walk(body))
    assert isinstance(loop.iter, ast.IfExp)
    # `(p - f) % 13`, asked twice in the formula: read from tables by player, `to`
    # and site (compilation/tabulate.py; `f` is `place_of(to)`), each row once
    assert not any(isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) for node in ast.walk(body))
    # a pit that gets no seed is not written: the step is asked first
    assert any(isinstance(node, ast.If) and isinstance(node.test, ast.Name) for node in ast.walk(body))


def test_the_older_kalah_lists_the_players_row_only():
    game = load_game(KALAH)
    assert not any(node.id == "h_all_pieces" for node in generated(game, ast.Name, ": the legal actions"))
    # playouts draw a pit of the row instead of listing them all
    assert game.engine._playout_tables[8]


def _playouts(path: str, seeds: range) -> list:
    game = load_game(path)
    out = []
    for seed in seeds:
        s = game.engine.initial_state()
        game.engine.random_playout(s, random.Random(seed), 300)
        out.append((tuple(s.board), tuple(s.vars), s.result, s.ply))
    return out


@pytest.mark.parametrize("path", ["benchmarks/older/kalah", "benchmarks/older/chess", "benchmarks/older/amazons",
                                  "docs/examples/kalah", "benchmarks/games/quoridor", "games/regibus"])
def test_games_play_as_with_the_work_done_again(path, monkeypatch):
    full = str(REPO / path)
    shared = _playouts(full, range(8))
    monkeypatch.setattr(compiler, "share_work", lambda src, players, sites=0: None)
    assert _playouts(full, range(8)) == shared


def test_the_narrowed_pieces_give_the_same_actions(monkeypatch):
    # listed in the row's order rather than the pieces', the same actions along the same random games
    def legal_sets(path: str) -> list:
        game = load_game(path)
        engine, rng, out = game.engine, random.Random(5), []
        for _ in range(6):
            s = engine.initial_state()
            while s.result is None:
                legal = sorted(engine.legal(s))
                out.append(legal)
                engine.apply_in_place(s, legal[int(rng.random() * len(legal))])
        return out

    narrowed = legal_sets(KALAH)
    monkeypatch.setattr(actions, "pieces_in_fixed_set", lambda exprs, e, scope: None)
    assert len(narrowed) > 100 and legal_sets(KALAH) == narrowed


YAML = """game: probe
title: Probe
description: Counters on a row.
rules: game.rules
players:
  - {name: white}
  - {name: black}
board:
  grid: {files: 4, ranks: 2}
regions:
  row:
    per_player:
      white: {ranks: [1]}
      black: {ranks: [2]}
pieces:
  pot: {symbol: o, owner: neutral}
attributes:
  beans: {type: int, default: 1}
setup:
  neutral:
    pot: [a1, b1, d1, a2, b2, c2, d2]
"""


def test_a_sum_over_a_few_fixed_sites_is_one_expression_and_empty_sites_add_nothing(tmp_path):
    rules = """
        phase play:
            turn: take
            after each turn:
                if sum(row[white], beans) == 0:
                    end game
        decision take:
            action pot:
                select pieces where it in row[player] and it.beans > 0
                notation "{to}"
                onto neutral:
                    to.beans -= 1
        score: sum(row[player], beans)
    """
    game = load_game(write_definition(tmp_path, YAML, rules))
    # the end of the turn, after taking a bean: no loop (the row's three pots and c1, empty)
    assert not list(generated(game, ast.For, "action 'pot'"))
    state = game.initial_state()
    # white's row: a1, b1, d1 (c1 empty); each player takes from its own pots only
    assert sorted(game.legal_notations(state)) == ["a1", "b1", "d1"]
    for notation in ["a1", "a2", "b1"]:
        state = game.apply(state, notation)
        assert not game.is_terminal(state)
    assert sorted(game.legal_notations(state)) == ["b2", "c2", "d2"]
    state = game.apply(game.apply(state, "b2"), "d1")
    assert game.is_terminal(state)
    assert game.current_scores(state) == {"white": 0, "black": 2}
