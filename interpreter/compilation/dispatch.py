"""A chain of `if X == c:` branches that each store a constant in one place is
a look-up in a table.

`if k == 1: then pick1 elif k == 2: then pick2 elif ...` — the way format.md
3.9 starts the chance event for the count of items left, one event per count —
compiles to `fu = 5` in each branch: one comparison per branch tried, up to
32 in a game with 32 face-down pieces. Where every test compares one variable
X (a whole number, whatever the rules store in it) or a local name holding a
whole number (`let k = count(...)`) with a whole number, the numbers are
consecutive and distinct, and every branch is one assignment of a whole
number to the same target (a name or a variable's slot), the chain is

    if LOW <= X <= HIGH:
        TARGET = TABLE[X - LOW]
    else:
        (the chain's `else`, when it has one)

one comparison and an index, whatever the branch taken. Shorter chains stay
as they are (a comparison or two costs less than the range test and the index).
"""
from __future__ import annotations

import ast as py
from typing import Optional

from . import pyast
from .source import Source

# The fewest branches a table replaces (three comparisons cost about one range
# test and an index).
MIN_BRANCHES = 4
# The widest range of numbers a table covers (one entry each).
MAX_SPAN = 1024


def _whole(node: py.expr) -> Optional[int]:
    """The whole number `node` writes (`pyast.num`'s forms), else None."""
    if isinstance(node, py.UnaryOp) and isinstance(node.op, py.USub):
        inner = _whole(node.operand)
        return None if inner is None else -inner
    if isinstance(node, py.Constant) and type(node.value) is int:
        return node.value
    return None


def _branch(stmt: py.If) -> Optional[tuple[py.expr, int, py.expr, int]]:
    """(X, c, TARGET, value) of `if X == c: TARGET = value`, else None."""
    test = stmt.test
    if not (isinstance(test, py.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], py.Eq)):
        return None
    number = _whole(test.comparators[0])
    if number is None or len(stmt.body) != 1:
        return None
    body = stmt.body[0]
    if not (isinstance(body, py.Assign) and len(body.targets) == 1):
        return None
    value = _whole(body.value)
    if value is None:
        return None
    return test.left, number, body.targets[0], value


def _is_slot(target: py.expr) -> bool:
    """A local name, or a variable's slot by a constant index (`v[3]`)."""
    if isinstance(target, py.Name):
        return True
    return _is_variable(target)


def _is_variable(code: py.expr) -> bool:
    """A variable's slot, `v[3]` (a whole number, a flag, a site or a player: an
    int, never a decimal number a local may hold, so an index of a table)."""
    return isinstance(code, py.Subscript) and pyast.is_name(code.value, "v") and _whole(code.slice) is not None


def dispatched(chain: py.stmt, src: Source, whole: Optional[py.expr] = None) -> Optional[py.stmt]:
    """The table look-up standing for `chain` (see the module), or None where the
    chain is not of that form. `whole`: a local name known to hold a whole number,
    which X may be as well as a variable."""
    if not isinstance(chain, py.If):
        return None
    entries: dict[int, int] = {}
    subject: Optional[py.expr] = None
    target: Optional[py.expr] = None
    node: py.stmt = chain
    orelse: list[py.stmt] = []
    for _ in range(MAX_SPAN + 1):  # (a chain of more branches stays as it is)
        if not isinstance(node, py.If):
            return None
        branch = _branch(node)
        if branch is None:
            return None
        x, number, stored, value = branch
        if subject is None:
            subject, target = x, stored
        elif not (pyast.same(x, subject) and pyast.same(stored, target)):
            return None
        if number in entries:
            return None
        entries[number] = value
        orelse = node.orelse
        if len(orelse) == 1 and isinstance(orelse[0], py.If):
            node = orelse[0]
            continue
        break
    else:
        return None
    if subject is None or target is None or not _is_slot(target) \
            or not (_is_variable(subject) or whole is not None and pyast.same(subject, whole)):
        return None
    if orelse and not (len(orelse) == 1 and isinstance(orelse[0], py.Assign) and len(orelse[0].targets) == 1
                       and pyast.same(orelse[0].targets[0], target)):
        return None  # (an `else` of other statements: the chain stays)
    low, high = min(entries), max(entries)
    if len(entries) < MIN_BRANCHES or high - low + 1 != len(entries):
        return None
    table = src.const(tuple(entries[number] for number in range(low, high + 1)))
    index = subject if low == 0 else pyast.binop(subject, "-", pyast.num(low))
    in_range = pyast.compare(pyast.num(low), "<=", subject, "<=", pyast.num(high))
    return pyast.if_(in_range, [pyast.assign(target, pyast.sub(table, index))], orelse)
