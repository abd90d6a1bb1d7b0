"""A count of conditions asked for every value of a loop over a constant, answered
for all the values at once from masks (compilation/counted_masks.py)."""
import ast
import random
import textwrap

from interpreter.compilation.counted_masks import _by_bytes
from interpreter.compilation.invariants import share_work
from interpreter.compilation.source import Source
from interpreter.runtime.helpers import NAMESPACE, counted_over, hits


def _compiled(code: str, tables: list[tuple[object, ...]]) -> tuple[str, dict[str, object], dict[str, object]]:
    """(the rewritten text, its namespace, the original's namespace)."""
    src = Source()
    for table in tables:
        src.const(table)
    src.functions = [ast.parse(textwrap.dedent(code)).body[0]]
    before = dict(NAMESPACE, **src.namespace)
    exec(compile(ast.fix_missing_locations(ast.Module(body=src.functions, type_ignores=[])), "<old>", "exec"), before)
    share_work(src, 0)
    text = ast.unparse(ast.fix_missing_locations(ast.Module(body=src.functions, type_ignores=[])))
    after = dict(NAMESPACE, **src.namespace)
    exec(compile(text, "<new>", "exec"), after)
    return text, after, before


_COUNT = """
    def f(m, n, limit_hit):
        l0 = -1
        out = []
        for to in k0:
            if k1[to] is not None:
                if (1 if k3[to] & (l0 if l0 >= 0 else (l0 := h_kind_mask(m, n, n, 0))) != 0 or k2[to] else 0) \\
                        + (1 if k4[to] & l0 != 0 else 0) + (1 if k5[to] & n != 0 else 0) {op} {limit}:
                    out.append(to)
        return out
"""


def _tables(rng: random.Random) -> list[tuple[object, ...]]:
    sites = 12
    return [tuple(sorted(rng.sample(range(sites), 8))),  # k0: the values looped over
            tuple(rng.choice((None, 1)) for _ in range(sites)),  # k1
            tuple(rng.random() < 0.2 for _ in range(sites)),  # k2: true or not
            tuple(rng.getrandbits(sites) & rng.getrandbits(sites) for _ in range(sites)),  # k3..k5: masks
            tuple(rng.getrandbits(sites) & rng.getrandbits(sites) for _ in range(sites)),
            tuple(rng.getrandbits(sites) & rng.getrandbits(sites) for _ in range(sites))]


def test_a_count_over_a_loop_gives_the_values_the_sum_gives():
    rng = random.Random(3)
    for op, limit in (("<=", 1), ("<", 1), ("<=", 0), ("<=", 2), ("<", 3)):
        for _ in range(5):
            text, new, old = _compiled(_COUNT.format(op=op, limit=limit), _tables(rng))
            assert "h_counted_over" in text and "h_hits" in text
            for _ in range(30):
                # (h_kind_mask stands for any lazily made mask: here the sites of `m`)
                m, n = [rng.getrandbits(12) for _ in range(2)]
                new["h_kind_mask"] = old["h_kind_mask"] = lambda m, n1, n2, k: m
                assert new["f"](m, n, 0) == old["f"](m, n, 0), (text, m, n)


def test_a_mask_the_loop_changes_keeps_the_sum():
    code = """
    def f(n):
        out = []
        for to in k0:
            n = n + 1
            if (1 if k1[to] & n != 0 else 0) + (1 if k2[to] & n != 0 else 0) <= 1:
                out.append(to)
        return out
    """
    text, _, _ = _compiled(code, [(0, 1, 2), (1, 2, 4), (3, 5, 6)])
    assert "h_counted_over" not in text


def test_a_table_without_an_entry_for_every_value_keeps_the_sum():
    code = """
    def f(n):
        out = []
        for to in k0:
            if (1 if k1[to] & n != 0 else 0) + (1 if k2[to] & n != 0 else 0) <= 1:
                out.append(to)
        return out
    """
    text, _, _ = _compiled(code, [(0, 1, 5), (1, 2, 4), (3, 5, 6, 7, 8, 9)])
    assert "h_counted_over" not in text


def test_the_helpers():
    # (bit 0: values 0 and 1; bit 1: value 2; bit 2: values 1, 2; bit 9: value 3)
    inverse = [0b011, 0b100, 0b110, 0, 0, 0, 0, 0, 0, 0b1000]
    rows = _by_bytes(inverse)
    assert hits(tuple(inverse), rows, 0b1000000111, 0b1001) == 0b011
    assert hits(tuple(inverse), rows, 0b110, 0b111) == 0b110 and hits(tuple(inverse), rows, 0b1000000111, 0) == 0
    assert hits(tuple(inverse), rows, 0b1000000111, 0b1000000010) == 0b1100
    # (many bits: read a byte at a time)
    inverse = [1 << (bit % 5) for bit in range(40)]
    rows = _by_bytes(inverse)
    for mask in (0, 1, 0b1111111111, (1 << 40) - 1, 0x5555555555, 1 << 39 | 0xFF00FF):
        expected = 0
        for bit in range(40):
            if mask >> bit & 1:
                expected |= inverse[bit]
        assert hits(tuple(inverse), rows, (1 << 40) - 1, mask) == expected
    assert _by_bytes([0] * 8 + [1]) == ((), (0, 1) * 128)
    width = 4
    packed = 0b0011 | 0b0110 << width | 0b0101 << 2 * width
    assert counted_over(1, 3, width, packed) == 0b0111
    assert counted_over(0, 3, width, packed) == 0b0111 and counted_over(2, 3, width, packed) == 0


def test_a_mask_read_by_name_before_any_part_made_it_keeps_the_sum():
    code = """
    def f(m):
        l0 = -1
        out = []
        for to in k0:
            if (1 if k1[to] & l0 != 0 else 0) \\
                    + (1 if k2[to] & (l0 if l0 >= 0 else (l0 := h_kind_mask(m))) != 0 else 0) <= 1:
                out.append(to)
        return out
    """
    text, _, _ = _compiled(code, [(0, 1, 2), (1, 2, 4), (3, 5, 6)])
    assert "h_counted_over" not in text
