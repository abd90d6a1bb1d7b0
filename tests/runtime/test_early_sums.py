"""Counts of conditions compared with a number asked term by term
(compilation/early_sums.py), owner masks read as names where they are made already
(compilation/hoisting.py), and table reads at a loop's variable over a constant
worked out before an inner loop (compilation/invariants.py)."""
import ast
import itertools
import textwrap

from interpreter.compilation.early_sums import early_sums
from interpreter.compilation.hoisting import masks_read_made
from interpreter.compilation.invariants import share_work
from interpreter.compilation.source import Source


def _early(code: str) -> str:
    return ast.unparse(ast.fix_missing_locations(early_sums(ast.parse(code, mode="eval").body, Source())))


def test_a_count_compared_with_a_number_gives_the_same_answer_for_every_truth_of_its_terms():
    for count in range(2, 5):
        terms = " + ".join(f"(1 if a{i} else 0)" for i in range(count))
        for limit in range(-1, count + 2):
            for op in ("<=", "<"):
                text = _early(f"{terms} {op} {limit}")
                for values in itertools.product((False, True), repeat=count):
                    env = {f"a{i}": v for i, v in enumerate(values)}
                    assert eval(text, dict(env)) == eval(f"{terms} {op} {limit}", dict(env)), (text, env)


def test_the_terms_the_answer_does_not_need_are_not_worked_out():
    text = _early("(1 if f(0) else 0) + (1 if f(1) else 0) + (1 if f(2) else 0) <= 1")
    asked = []

    def f(i):
        asked.append(i)
        return False
    assert eval(text, {"f": f}) is True and asked == [0, 1]
    asked.clear()
    assert eval(text, {"f": lambda i: asked.append(i) or True}) is False and asked == [0, 1]


def test_a_term_that_sets_a_name_is_never_left_out():
    code = "(1 if a else 0) + (1 if b else 0) + (1 if (m := c) else 0) <= 1"
    assert _early(code) == ast.unparse(ast.parse(code, mode="eval").body)


def test_other_sums_stay():
    for code in ("(1 if a else 0) + 2 <= 1", "(1 if a else 0) + (1 if b else 0) >= 1", "(1 if a else 0) <= 0",
                 "(1 if a else 0) + (1 if b else 0) <= n"):
        assert _early(code) == ast.unparse(ast.parse(code, mode="eval").body)


_MASK = "(l0 if l0 >= 0 else (l0 := h_kind_mask(k1, o, b, 1)))"


def _masks(code: str) -> str:
    body = ast.parse(textwrap.dedent(code)).body
    return ast.unparse(ast.fix_missing_locations(ast.Module(body=masks_read_made(body), type_ignores=[])))


def test_a_mask_read_after_a_read_sure_to_make_it_is_a_name():
    text = _masks(f"""
        x = k2[to] & {_MASK}
        for q in k3:
            y = k4[q] & {_MASK}
    """)
    assert text.count(":=") == 1 and "y = k4[q] & l0" in text


def test_a_mask_read_behind_a_condition_makes_nothing_sure():
    text = _masks(f"""
        x = a or k2[to] & {_MASK}
        if c:
            z = {_MASK}
        for q in k3:
            y = k4[q] & {_MASK}
    """)
    assert text.count(":=") == 3  # (nothing made earlier than before)
    text = _masks(f"""
        x = (1 if a or k2[to] & {_MASK} else 0) + (1 if k3[to] & {_MASK} else 0) + (1 if k4[to] & {_MASK} else 0)
    """)
    assert text.count(":=") == 2 and text.endswith("k4[to] & l0 else 0)")


def test_table_reads_at_a_loop_variable_over_a_constant_are_worked_out_before_an_inner_loop():
    src = Source()
    src.const((0, 1, 2))  # k0: the sites looped over
    src.const((1, 2, -1, 0))  # k1: a neighbour by site
    src.const((1, 2, 4, 8))  # k2: a mask by site
    src.functions = [ast.parse(textwrap.dedent("""
        def f(s, m):
            for to in k0:
                for p in s.players:
                    if not p.mask & (m | k2[to] | k2[k1[to]]):
                        return to
    """)).body[0]]
    share_work(src, 0)
    text = ast.unparse(ast.fix_missing_locations(ast.Module(body=src.functions, type_ignores=[])))
    inner = text[text.index("for p"):]
    assert "k2[" not in inner and "m | k2[to] | k2[k1[to]]" in text


def test_a_table_read_that_may_fail_for_a_value_of_the_loop_stays_in_the_loop():
    src = Source()
    src.const((0, 1, 2))
    src.const((1, 7, -1, 0))  # (k2[7] would fail)
    src.const((1, 2, 4, 8))
    src.functions = [ast.parse(textwrap.dedent("""
        def f(s, m):
            for to in k0:
                for p in s.players:
                    if not p.mask & (m | k2[k1[to]]):
                        return to
    """)).body[0]]
    share_work(src, 0)
    text = ast.unparse(ast.fix_missing_locations(ast.Module(body=src.functions, type_ignores=[])))
    assert "k2[" in text[text.index("for p"):]
