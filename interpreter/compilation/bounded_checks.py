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
"""
from __future__ import annotations

import ast as py
from typing import Any, Callable, Optional

from ..runtime.helpers import NUMBER_LIMIT
from . import pyast

Interval = tuple[int, int]
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
    def __init__(self, value_of: Callable[[py.expr], Any]):
        self.value_of = value_of
        self.tables: dict[tuple[str, int], Optional[Interval]] = {}

    def of(self, e: py.expr) -> Optional[Interval]:
        """The least and greatest number `e` can be, where its shape says (None:
        unknown)."""
        if isinstance(e, py.Constant):
            value = e.value
            return (value, value) if isinstance(value, int) and not isinstance(value, bool) else None
        if isinstance(e, py.UnaryOp) and isinstance(e.op, py.USub):
            inner = self.of(e.operand)
            return (-inner[1], -inner[0]) if inner is not None else None
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


def _unchecked(stmts: list[py.stmt], spans: _Intervals) -> list[py.stmt]:
    out: list[py.stmt] = []
    for stmt in stmts:
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
    function.body = _unchecked(function.body, _Intervals(value_of))
    return function


__all__ = ["needless_checks_dropped"]
