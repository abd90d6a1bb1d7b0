"""A loop that looks for the i-th item of a set stops once it has found it.

format.md 3.9 draws one of the items left by an index, and finds the item by
walking the set with a counter (`if idx == i: ...` then `idx += 1`). The rounds
after the one that found it cannot find another (the counter only grows) and
what they count is written over after the loop: statements.py decides that
from the rules (`_walk_to_index`); here the generated loop is given its `break`,
in the branch that tests the counter against the index. An item drawn among 52
cards is found, on average, halfway through the walk.
"""
from __future__ import annotations

import ast as py
from typing import Optional

from . import pyast


def _tests_counter(test: py.expr, offset: int) -> bool:
    """`v[offset] == X` or `X == v[offset]`."""
    if not (isinstance(test, py.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], py.Eq)):
        return False
    return any(isinstance(side, py.Subscript) and pyast.is_name(side.value, "v")
               and isinstance(side.slice, py.Constant) and side.slice.value == offset
               for side in (test.left, test.comparators[0]))


def _counter_tests(stmts: list[py.stmt], offset: int, found: list[py.If]) -> None:
    """The `if`s of `stmts` (in branches, not in a nested loop or function) that
    test the counter at `offset`."""
    for stmt in stmts:
        if isinstance(stmt, py.If):
            if _tests_counter(stmt.test, offset):
                found.append(stmt)
            _counter_tests(stmt.body, offset, found)
            _counter_tests(stmt.orelse, offset, found)


def stops_when_found(loop: py.stmt, offset: int) -> Optional[py.stmt]:
    """`loop` (a `for`) with a `break` at the end of the one branch that tests the
    counter (the variable at `offset`), or None where there is not exactly one."""
    if not isinstance(loop, py.For) or loop.orelse:
        return None
    found: list[py.If] = []
    _counter_tests(loop.body, offset, found)
    if len(found) != 1:
        return None
    match = found[0]
    stopped = pyast.if_(match.test, [*match.body, pyast.break_()], match.orelse)
    body = pyast.replace_in(loop.body, lambda node: stopped if node is match else None)
    return pyast.for_(loop.target, loop.iter, body)
