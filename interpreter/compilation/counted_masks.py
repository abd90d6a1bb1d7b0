"""A count of conditions asked for every value of a loop, answered for all of them at once.

In a loop over a constant tuple of whole numbers (`for to in k37:`), a count of
conditions compared with a number,

    (1 if k67[to] or k13[to] & M != 0 else 0) + (1 if k16[to] & M != 0 else 0) + ... <= 1

whose conditions read the loop's variable only as the index of constant tables
(`C[to]`, true or not; `T[to] & M != 0`, `T` a table of bitmasks and `M` a mask
the loop does not change), is the same question for every value: which values
have more than the limit. Each condition's values are found from `M` by a table
made when compiling (for each bit, the values whose `T[to]` holds it; for each
byte of `M`, by its value, those whose `T[to]` holds one of its bits: a read a bit
of `M` when it has few, else a byte), the counts over the
values as masks (runtime/helpers.counted_over), all once, the first time a round
of the loop asks; each round then reads one bit:

    not (t5 if t5 >= 0 else (t5 := h_counted_over(1, (k90 | h_hits(k91, k92, M), ...)))) & k93[to]

`t5 = -1` is set just before the loop. Every mask is worked out where the first
round asking works the count out (a condition the sum would have skipped, behind
`or`, included: masks cannot fail); a mask read by its plain name must follow a
part of the count that makes it (hoisting.py's lazily made masks) or hold its value
before the loop. Nothing is recognised but the kinds of node.
"""
from __future__ import annotations

import ast
from typing import Any, Callable, Optional

from ..runtime.pieces import KIND
from . import pyast
from .early_sums import counted_terms
from .hoisting import lazy_mask
from .source import Source

_NOT_LOOKED_INTO = (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp, ast.expr_context)
# The largest value a loop may have, and the most bits the masks may reach (the
# bitmasks of the values and the tables by byte stay small).
MAX_VALUES = 1024
MAX_BITS = 1024


def counted_at_once(loop: ast.For, src: Source, known: frozenset[str],
                    stored: Callable[[object], frozenset[str]]) -> tuple[list[ast.stmt], ast.For]:
    """(the temporaries' first values, `loop` with its counts asked at once)."""
    target, table = loop.target, loop.iter
    if not (isinstance(target, ast.Name) and isinstance(table, ast.Name) and src.is_const_name(table.id)):
        return [], loop
    entries = src.namespace.get(table.id)
    if not (type(entries) is tuple and entries and all(type(e) is int and 0 <= e < MAX_VALUES for e in entries)):
        return [], loop
    set_in_loop = stored(loop)
    if target.id in stored(loop.body):
        return [], loop
    finder = _Finder(src, target.id, entries, known, set_in_loop)
    body = pyast.replace_in(loop.body, finder.change)
    if not finder.names:
        return [], loop
    before: list[ast.stmt] = [pyast.assign(pyast.name(name), pyast.num(-1)) for name in finder.names]
    return before, ast.For(target=loop.target, iter=loop.iter, body=body, orelse=loop.orelse, type_comment=None,
                           lineno=0, col_offset=0)


class _Finder:
    def __init__(self, src: Source, variable: str, entries: tuple[int, ...], known: frozenset[str],
                 set_in_loop: frozenset[str]):
        self.src = src
        self.variable = variable
        self.entries = entries
        self.known = known
        self.set_in_loop = set_in_loop
        self.names: list[str] = []
        self.width = 0

    def change(self, node: ast.AST) -> Optional[ast.AST]:
        if isinstance(node, _NOT_LOOKED_INTO):
            return node
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            return node
        if isinstance(node, ast.Compare):
            return self._at_once(node)
        return None

    def _at_once(self, node: ast.Compare) -> Optional[ast.expr]:
        counted = counted_terms(node)
        if counted is None:
            return None
        terms, most = [term.test for term in counted[0]], counted[1]
        made: set[str] = set()  # (the lazily made masks the count works out so far)
        self.width = max(self.entries) + 1
        constant = 0
        groups: dict[str, tuple[ast.expr, list[int]]] = {}  # mask -> (as first read, inverse table)
        for offset, term in enumerate(terms):
            found = self._values(term, made, offset * self.width, groups)
            if found is None:
                return None
            constant |= found
        if any(len(inverse) > MAX_BITS for _, inverse in groups.values()):
            return None
        name = self.src.fresh("t")
        self.names.append(name)
        packed: ast.expr = self.src.const(constant)
        for mask, inverse in groups.values():
            within = 0
            for bit, values in enumerate(inverse):
                if values:
                    within |= 1 << bit
            hit = pyast.helper("h_hits", self.src.const(tuple(inverse)), self.src.const(_by_bytes(inverse)),
                                 self.src.const(within), mask)
            packed = pyast.binop(packed, "|", hit)
        count = pyast.helper("h_counted_over", pyast.num(most), pyast.num(len(terms)), pyast.num(self.width), packed)
        lazily = pyast.ifexp(pyast.name(name), pyast.compare(pyast.name(name), ">=", pyast.num(0)),
                             pyast.walrus(name, count))
        bits = self.src.const(tuple(1 << e for e in range(self.width)))
        return pyast.not_(pyast.binop(lazily, "&", pyast.sub(bits, pyast.name(self.variable))))

    def _values(self, node: ast.expr, made: set[str], offset: int,
                groups: dict[str, tuple[ast.expr, list[int]]]) -> Optional[int]:
        """The values for which `node` holds whatever the position (bits from `offset`),
        the values for which a part of it holds added to `groups`, by its mask (the
        table of bits and the values whose table's mask holds it); None: not known so."""
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            found = 0
            for value in node.values:
                part = self._values(value, made, offset, groups)
                if part is None:
                    return None
                found |= part
            return found
        table = self._table(node)
        if table is not None:
            return sum(1 << (offset + e) for e in self.entries if table[e])
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.NotEq) \
                and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value == 0 \
                and type(node.comparators[0].value) is int \
                and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.BitAnd):
            masks = self._table(node.left.left)
            mask = node.left.right
            if masks is None or not all(type(masks[e]) is int and masks[e] >= 0 for e in self.entries) \
                    or not self._invariant(mask, made):
                return None
            lazy = lazy_mask(mask)
            if lazy is not None:
                key = "name " + lazy
            else:
                key = "name " + mask.id if isinstance(mask, ast.Name) else pyast.key(mask)
            inverse = groups.setdefault(key, (mask, []))[1]
            for e in self.entries:
                bits = masks[e]
                while bits:
                    low = bits & -bits
                    bit = low.bit_length() - 1
                    if bit >= len(inverse):
                        inverse.extend([0] * (bit + 1 - len(inverse)))
                    inverse[bit] |= 1 << (offset + e)
                    bits ^= low
            return 0
        return None

    def _table(self, node: ast.expr) -> Optional[tuple[Any, ...]]:
        """The constant tuple `node` reads at the loop's variable (`k13[to]`), if it is one
        that holds an entry for every value of the loop."""
        if not (isinstance(node, ast.Subscript) and pyast.is_name(node.slice, self.variable)
                and isinstance(node.value, ast.Name) and self.src.is_const_name(node.value.id)):
            return None
        table = self.src.namespace.get(node.value.id)
        if type(table) is not tuple or len(table) <= max(self.entries):
            return None
        if not all(type(table[e]) in (int, bool, tuple) or table[e] is None for e in self.entries):
            return None
        return table

    def _invariant(self, node: ast.expr, made: set[str]) -> bool:
        """Whether the mask `node` is the same in every round: a lazily made mask, or
        names the loop does not set that hold a value before it (or a mask made by
        an earlier part of the count), combined by bit operations."""
        lazy = lazy_mask(node)
        if lazy is not None:
            made.add(lazy)
            return True
        if isinstance(node, ast.Name):
            if node.id in made:
                return True
            if node.id in self.set_in_loop:
                return False
            return node.id in self.known or self.src.is_const_name(node.id) \
                and type(self.src.namespace.get(node.id)) is int
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr)):
            return self._invariant(node.left, made) and self._invariant(node.right, made)
        return False


def _by_bytes(inverse: list[int]) -> tuple[tuple[int, ...], ...]:
    """`inverse` (the values by bit) read a byte at a time: the n-th row, by the value
    of the n-th byte of a mask, the values of its bits (an empty row where no bit of
    the byte has values)."""
    rows: list[tuple[int, ...]] = []
    for start in range(0, len(inverse), 8):
        bits = inverse[start:start + 8]
        if not any(bits):
            rows.append(())
            continue
        row = [0] * 256
        for byte in range(1, 256):
            low = (byte & -byte).bit_length() - 1
            row[byte] = row[byte & (byte - 1)] | (bits[low] if low < len(bits) else 0)
        rows.append(tuple(row))
    return tuple(rows)


def kind_reads_counted(body: list[ast.stmt], src: Source, n_sites: int, empty: str,
                       kind_mask: Callable[[int], ast.expr]) -> list[ast.stmt]:
    """A lister's `body` with the kind tests of sites read from a constant table at a
    loop's variable (`(b[k12[to]] or E)[1] == 3`, in a loop over a constant tuple of
    whole numbers) written as masks (`k80[to] & M != 0`, `k80` the sites' bits, 0 for
    none, `M` the kind's mask as `kind_mask` reads it) where they stand in a count of
    conditions every term of which `counted_at_once` can then answer for all the
    values at once. Elsewhere nothing changes: a board read is cheaper than a mask
    made for it. The position does not change while a lister lists."""
    writer = _KindReads(src, n_sites, empty, kind_mask)
    return pyast.replace_in(body, writer.change)


class _KindReads:
    def __init__(self, src: Source, n_sites: int, empty: str, kind_mask: Callable[[int], ast.expr]):
        self.src = src
        self.n_sites = n_sites
        self.empty = empty
        self.kind_mask = kind_mask
        self.bits: dict[str, ast.expr] = {}  # table -> the table of its sites' bits

    def change(self, node: ast.AST) -> Optional[ast.AST]:
        if not isinstance(node, ast.For):
            return None
        target, table = node.target, node.iter
        if not (isinstance(target, ast.Name) and isinstance(table, ast.Name) and self.src.is_const_name(table.id)):
            return None
        entries = self.src.namespace.get(table.id)
        if not (type(entries) is tuple and entries and all(type(e) is int and 0 <= e < MAX_VALUES for e in entries)):
            return None
        variable = target.id

        def counts(inner: ast.AST) -> Optional[ast.AST]:
            if isinstance(inner, _NOT_LOOKED_INTO):
                return inner
            if isinstance(inner, ast.For):
                return self.change(inner)  # (its own variable; None: looked into as it is)
            if isinstance(inner, ast.Compare):
                return self._count(inner, variable, entries)
            return None

        body = pyast.replace_in(node.body, counts)
        if all(a is b for a, b in zip(body, node.body)):
            return None
        return ast.For(target=node.target, iter=node.iter, body=body, orelse=node.orelse, type_comment=None,
                       lineno=0, col_offset=0)

    def _count(self, node: ast.Compare, variable: str, entries: tuple[int, ...]) -> Optional[ast.expr]:
        counted = counted_terms(node)
        if counted is None:
            return None
        reads: list[tuple[ast.expr, ast.expr]] = []
        for term in counted[0]:
            if not self._term(term.test, variable, entries, reads):
                return None
        if not reads:
            return None
        changes = {id(old): new for old, new in reads}
        return pyast.replace_nodes(node, lambda n: changes.get(id(n)))

    def _term(self, node: ast.expr, variable: str, entries: tuple[int, ...],
              reads: list[tuple[ast.expr, ast.expr]]) -> bool:
        """Whether `node` is made of what `counted_at_once` answers as masks (or kind
        tests it will once written as masks: added to `reads`)."""
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            return all(self._term(value, variable, entries, reads) for value in node.values)
        if _read_at(node, variable, self.src) is not None:
            return True
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)) \
                and _read_at(node.left, variable, self.src) is not None and _constant(node.comparators[0]):
            return True  # (a table's entry against a constant: a constant table once folded)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.NotEq) \
                and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.BitAnd) \
                and _read_at(node.left.left, variable, self.src) is not None:
            return True  # (counted_at_once asks the rest)
        made = self._kind_read(node, variable, entries)
        if made is None:
            return False
        reads.append((node, made))
        return True

    def _kind_read(self, node: ast.expr, variable: str, entries: tuple[int, ...]) -> Optional[ast.expr]:
        """`T2[v] & M != 0` for `(b[T[v]] or E)[1] == K`, T's entries sites or -1 (none)."""
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)
                and isinstance(node.comparators[0], ast.Constant) and type(node.comparators[0].value) is int):
            return None
        kind = node.comparators[0].value
        read = node.left
        if not (isinstance(read, ast.Subscript) and isinstance(read.slice, ast.Constant) and read.slice.value == KIND
                and type(read.slice.value) is int):
            return None
        piece = read.value
        if not (isinstance(piece, ast.BoolOp) and isinstance(piece.op, ast.Or) and len(piece.values) == 2
                and pyast.is_name(piece.values[1], self.empty)):
            return None
        square = piece.values[0]
        if not (isinstance(square, ast.Subscript) and pyast.is_name(square.value, "b")):
            return None
        table = _read_at(square.slice, variable, self.src)
        if table is None or not isinstance(square.slice, ast.Subscript) or not isinstance(square.slice.value, ast.Name):
            return None
        if len(table) <= max(entries) \
                or not all(type(t) is int and -1 <= t < self.n_sites for t in table):
            return None
        name = square.slice.value.id
        if name not in self.bits:
            self.bits[name] = self.src.const(tuple(0 if t < 0 else 1 << t for t in table))
        bits = pyast.sub(self.bits[name], pyast.name(variable))
        return pyast.compare(pyast.binop(bits, "&", self.kind_mask(kind)), "!=", pyast.num(0))


def _read_at(node: ast.expr, variable: str, src: Source) -> Optional[tuple[Any, ...]]:
    """The constant tuple `node` reads at `variable` (`k13[to]`)."""
    if not (isinstance(node, ast.Subscript) and pyast.is_name(node.slice, variable)
            and isinstance(node.value, ast.Name) and src.is_const_name(node.value.id)):
        return None
    table = src.namespace.get(node.value.id)
    return table if type(table) is tuple else None


def _constant(node: ast.expr) -> bool:
    """Whether `node` is a number written out (`3`, `-1`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int
