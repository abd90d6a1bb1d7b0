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
from typing import Optional, Union

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


def _is_counter(node: py.AST, offset: int) -> bool:
    return isinstance(node, py.Subscript) and pyast.is_name(node.value, "v") \
        and isinstance(node.slice, py.Constant) and node.slice.value == offset


def _hands_on_the_position(loop: py.For) -> bool:
    """Whether something in `loop` gives the position or its variables whole to a
    function (which could read the counter there)."""
    return any(isinstance(node, py.Call) and any(
        pyast.is_name(arg, "s") or pyast.is_name(arg, "v")
        for arg in [*node.args, *(keyword.value for keyword in node.keywords)])
        for node in pyast.walk(loop))


def stops_when_found(loop: py.stmt, offset: int, local: str) -> Union[py.stmt, list[py.stmt], None]:
    """`loop` (a `for`) with a `break` at the end of the one branch that tests the
    counter (the variable at `offset`), or None where there is not exactly one.

    The counter is counted in the local `local` meanwhile — read before the loop,
    stored where it is found, before what is done there — unless something in the
    loop gives the position whole to a function: the rounds read and step a local
    rather than the list of variables. The rounds that do not find it leave the
    variable as it was; the rules set it to a fixed value right after the loop
    (statements._walk_to_index), so nothing sees the difference."""
    if not isinstance(loop, py.For) or loop.orelse:
        return None
    found: list[py.If] = []
    _counter_tests(loop.body, offset, found)
    if len(found) != 1:
        return None
    match = found[0]
    if _hands_on_the_position(loop):
        stopped = pyast.if_(match.test, [*match.body, pyast.break_()], match.orelse)
        body = pyast.replace_in(loop.body, lambda node: stopped if node is match else None)
        return pyast.for_(loop.target, loop.iter, body)
    counter = pyast.sub(pyast.name("v"), offset)

    def counted(node: py.AST) -> Optional[py.AST]:
        return py.Name(id=local, ctx=node.ctx) if _is_counter(node, offset) else None  # type: ignore[attr-defined]

    memo: dict[int, py.AST] = {}
    test = pyast.replace_nodes(match.test, counted, memo)
    stored = pyast.assign(counter, pyast.name(local))
    stopped = pyast.if_(test, [stored, *pyast.replace_in(match.body, counted, memo), pyast.break_()],
                        pyast.replace_in(match.orelse, counted, memo))
    body = pyast.replace_in(loop.body, lambda node: stopped if node is match else counted(node), memo)
    return [pyast.assign(pyast.name(local), counter), pyast.for_(loop.target, loop.iter, body)]
