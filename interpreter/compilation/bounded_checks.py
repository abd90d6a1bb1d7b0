"""A number stored that cannot pass the limit is not checked against it: a pass
over the generated functions.

A computed number stored in a variable or an attribute is checked against the
limit on numbers (`if not -L <= x <= L: h_bounded(...)`, statements.py) right
after the assignment. Where the value assigned is known to lie within the limit
from its shape alone — numbers, the entries of a constant table of numbers (the
tables tabulate.py works out by player and site are made after the statements
were written), `min` and `max` of such, a sum, difference or product of such,
`% c` by a positive number c, `// c` of such by a positive number, a conditional
expression of such — the check can never fail and is dropped. A card's rank
worked out from its site (`card_id(x) % 13`), a count of points made of numbers
(`(2 if total == 15 else 0) + (6 if same == 3 else 0)`) are such values.

A temporary or loop variable the function gives a value once, by `=`, is such a value
where what it is given is; so is the variable of a `for` over `range(A, B)` whose
ends are (it lies from A's least to B's greatest less one). The same knowledge drops
the check that a `for each` over the numbers from A to B runs at most its bound of
rounds, `if last - first + 1 > 100000: h_fail(...)` (statements.py), where the
rounds cannot pass it: the second pair of a deal, `for each b in a + 1 to 8` inside
`for each a in 1 to 7`.
"""
from __future__ import annotations

import ast as py
import re
from typing import Any, Callable, Optional

from ..runtime.helpers import NUMBER_LIMIT
from . import pyast

Interval = tuple[int, int]
_MADE = re.compile(r"[lt]\d+")
# The most numbers of a table looked at for its least and greatest.
MAX_TABLE_NUMBERS = 100_000


def _numbers(value: Any, depth: int, found: list[int]) -> bool:
    """The numbers at `depth` subscripts into the constant `value` (tuples only)
    added to `found`; False where one is not a number or there are too many."""
    if depth == 0:
        if isinstance(value, int) and not isinstance(value, bool):
            found.append(value)
            return len(found) <= MAX_TABLE_NUMBERS
        return False
    if not isinstance(value, tuple):
        return False
    return all(_numbers(item, depth - 1, found) for item in value)


class _Intervals:
    def __init__(self, value_of: Callable[[py.expr], Any], function: Optional[py.FunctionDef] = None):
        self.value_of = value_of
        self.tables: dict[tuple[str, int], Optional[Interval]] = {}
        # (what each name given a value once is given; each `for` variable's range's arguments)
        self.values: dict[str, py.expr] = {}
        self.ranges: dict[str, list[py.expr]] = {}
        self.asked: set[str] = set()  # (names being worked out: a name given itself is not known)
        if function is not None:
            self._names_of(function)

    def _names_of(self, function: py.FunctionDef) -> None:
        # (the compiler's own temporaries and loop variables alone: each is made by one
        # statement, even where a block holding it is pasted into several functions)
        once = {name for name, n in pyast.store_counts(function).items() if n == 1 and _MADE.fullmatch(name)}
        for node in pyast.walk(function):
            if isinstance(node, py.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], py.Name) \
                    and node.targets[0].id in once:
                self.values[node.targets[0].id] = node.value
            elif isinstance(node, py.For) and isinstance(node.target, py.Name) and node.target.id in once \
                    and isinstance(node.iter, py.Call) and pyast.is_name(node.iter.func, "range") \
                    and 1 <= len(node.iter.args) <= 2 and not node.iter.keywords:
                self.ranges[node.target.id] = node.iter.args

    def _name(self, name: str) -> Optional[Interval]:
        if name in self.asked:
            return None
        self.asked.add(name)
        try:
            if name in self.values:
                return self.of(self.values[name])
            if name in self.ranges:
                args = self.ranges[name]
                first = self.of(args[0]) if len(args) == 2 else (0, 0)
                end = self.of(args[-1])
                if first is None or end is None or end[1] - 1 < first[0]:
                    return None
                return first[0], end[1] - 1
            return None
        finally:
            self.asked.discard(name)

    def of(self, e: py.expr) -> Optional[Interval]:
        """The least and greatest number `e` can be, where its shape says (None:
        unknown)."""
        if isinstance(e, py.Constant):
            value = e.value
            return (value, value) if isinstance(value, int) and not isinstance(value, bool) else None
        if isinstance(e, py.UnaryOp) and isinstance(e.op, py.USub):
            inner = self.of(e.operand)
            return (-inner[1], -inner[0]) if inner is not None else None
        if isinstance(e, py.Name):
            return self._name(e.id)
        if isinstance(e, py.Subscript):
            return self._table(e)
        if isinstance(e, py.IfExp):
            body, orelse = self.of(e.body), self.of(e.orelse)
            if body is None or orelse is None:
                return None
            return min(body[0], orelse[0]), max(body[1], orelse[1])
        if isinstance(e, py.Call) and isinstance(e.func, py.Name) and e.func.id in ("min", "max") \
                and len(e.args) >= 2 and not e.keywords:
            parts = [self.of(arg) for arg in e.args]
            if any(part is None or isinstance(arg, py.Starred) for part, arg in zip(parts, e.args)):
                return None
            pick = min if e.func.id == "min" else max
            return pick(p[0] for p in parts if p), pick(p[1] for p in parts if p)
        if isinstance(e, py.BinOp):
            return self._binop(e)
        return None

    def _binop(self, e: py.BinOp) -> Optional[Interval]:
        right = self.of(e.right)
        if isinstance(e.op, py.Mod):
            # (Python's remainder by a positive number lies in 0 .. c - 1, whatever the left)
            return (0, right[0] - 1) if right is not None and right[0] == right[1] and right[0] > 0 else None
        left = self.of(e.left)
        if left is None or right is None:
            return None
        if isinstance(e.op, py.FloorDiv):
            if right[0] == right[1] and right[0] > 0:
                return left[0] // right[0], left[1] // right[0]
            return None
        if isinstance(e.op, py.Add):
            return left[0] + right[0], left[1] + right[1]
        if isinstance(e.op, py.Sub):
            return left[0] - right[1], left[1] - right[0]
        if isinstance(e.op, py.Mult):
            corners = [a * b for a in left for b in right]
            return min(corners), max(corners)
        return None

    def _table(self, e: py.Subscript) -> Optional[Interval]:
        """A constant table of numbers read by subscripts: its least and greatest."""
        depth, table = 0, e
        while isinstance(table, py.Subscript):
            if isinstance(table.slice, py.Slice):
                return None
            depth, table = depth + 1, table.value  # type: ignore[assignment]
        if not isinstance(table, py.Name):
            return None
        key = (table.id, depth)
        if key not in self.tables:
            value = self.value_of(table)
            found: list[int] = []
            ok = value is not None and _numbers(value, depth, found) and found
            self.tables[key] = (min(found), max(found)) if ok else None
        return self.tables[key]

    def within_limit(self, e: py.expr) -> bool:
        span = self.of(e)
        return span is not None and -NUMBER_LIMIT <= span[0] and span[1] <= NUMBER_LIMIT


def _checked(stmt: py.stmt) -> Optional[py.expr]:
    """The number `if not -L <= X <= L: h_bounded(X, ...)` checks (X), or None."""
    if not (isinstance(stmt, py.If) and not stmt.orelse and len(stmt.body) == 1
            and isinstance(stmt.test, py.UnaryOp) and isinstance(stmt.test.op, py.Not)):
        return None
    call = stmt.body[0]
    if isinstance(call, py.Expr) and isinstance(call.value, py.Call) and pyast.is_name(call.value.func, "h_bounded") \
            and call.value.args:
        return call.value.args[0]
    return None


def _rounds_checked(stmt: py.stmt) -> Optional[tuple[py.expr, int]]:
    """(the rounds, the bound) `if ROUNDS > BOUND: h_fail(...)` checks, or None."""
    if not (isinstance(stmt, py.If) and not stmt.orelse and len(stmt.body) == 1
            and isinstance(stmt.test, py.Compare) and len(stmt.test.ops) == 1 and isinstance(stmt.test.ops[0], py.Gt)):
        return None
    bound, call = stmt.test.comparators[0], stmt.body[0]
    if isinstance(bound, py.Constant) and type(bound.value) is int and isinstance(call, py.Expr) \
            and isinstance(call.value, py.Call) and pyast.is_name(call.value.func, "h_fail"):
        return stmt.test.left, bound.value
    return None


def _unchecked(stmts: list[py.stmt], spans: _Intervals) -> list[py.stmt]:
    out: list[py.stmt] = []
    for stmt in stmts:
        rounds = _rounds_checked(stmt)
        if rounds is not None:
            span = spans.of(rounds[0])
            if span is not None and span[1] <= rounds[1]:
                continue
        checked = _checked(stmt)
        if checked is not None and out:
            last = out[-1]
            if isinstance(last, py.Assign) and len(last.targets) == 1 and pyast.same(last.targets[0], checked) \
                    and spans.within_limit(last.value):
                continue
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block:
                setattr(stmt, field, _unchecked(block, spans))
        for handler in getattr(stmt, "handlers", ()):
            handler.body = _unchecked(handler.body, spans)
        out.append(stmt)
    return out


def needless_checks_dropped(function: py.FunctionDef, value_of: Callable[[py.expr], Any]) -> py.FunctionDef:
    """`function` without the checks against the limit of numbers that cannot pass it
    (changed in place: the pass runs on the functions as written, before sharing)."""
    function.body = _unchecked(function.body, _Intervals(value_of, function))
    return function


__all__ = ["needless_checks_dropped"]
