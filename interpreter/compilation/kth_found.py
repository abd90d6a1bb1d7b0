"""A loop that looks for the k-th of something stops once it has found it: a pass
over the generated functions.

A deal of the k-th pair of cards left counts the pairs in a local and takes the one
whose count is k (loop_locals.py has put the counter in a local):

    for l1 in range(1, 8):
        if not held(l1):
            for l2 in range(l1 + 1, 9):
                if not held(l2):
                    if t9 == l0:
                        t5 = l1
                        t4 = l2
                    t9 += 1

Once the `if` has run its body the count is past k, and only grows: the body never
runs again, and the rounds left only count. Where nothing else they do can be seen
after the loops, the loops stop there instead:

                    if t9 == l0:
                        t5 = l1
                        t4 = l2
                        break
                    t9 += 1
            else:
                continue
            break

What the pass asks of the outermost loop of the nest, F (not itself inside a loop):
- the `if` (the match) compares a local name, the counter, with `==` to a number or
  a name F writes nowhere; it has no `else`, and its body breaks or continues no loop;
- the statement right after the match adds a positive number to the counter, and
  nothing else in F writes the counter;
- everything in F but the match's body is a `for` over `range(...)`, an `if`, an
  assignment to a local name or `pass`, and asks only what cannot fail (names,
  numbers, the variables at places written out, comparisons, `and`/`or`/`not`,
  `+ - *`, conditional expressions): the rounds skipped raise nothing;
- the names it writes (the counter, the loop variables, temporaries) are read
  nowhere outside F, and the match's body writes none of them: the rounds skipped
  change nothing read later;
- each loop between F and the match is the last statement of the loop around it
  (through `if`s, each the last of its block) and has no `else` of its own: its
  `else: continue` then goes on as the loop's end would.
"""
from __future__ import annotations

import ast as py
from typing import Callable, Iterator, Optional, Union

from . import pyast
from .invariants import cannot_fail_alone

VARIABLES = "v"
# Statements that leave a loop early or a scope: the match's body must have none.
_EXITS = (py.Break, py.Continue, py.Yield, py.YieldFrom, py.Await, py.FunctionDef, py.Lambda)
_Path = list[Union[py.For, py.If]]


def stopped_at_the_kth(function: py.FunctionDef) -> py.FunctionDef:
    """`function` with each loop nest that looks for the k-th match stopping at it
    (see the module); itself where there is none."""
    body = _block(function.body, function)
    if body is function.body:
        return function
    return py.FunctionDef(name=function.name, args=function.args, body=body, decorator_list=[],
                          returns=None, type_comment=None, lineno=0, col_offset=0)


def _block(stmts: list[py.stmt], function: py.FunctionDef) -> list[py.stmt]:
    out: list[py.stmt] = []
    changed = False
    for stmt in stmts:
        if isinstance(stmt, py.For):
            stopped = _stopped(stmt, function)
            changed = changed or stopped is not None
            out.append(stopped if stopped is not None else stmt)
        elif isinstance(stmt, py.If):  # (only through `if`s: a loop inside another runs again)
            inner = pyast.with_blocks(stmt, lambda block: _block(block, function))
            changed = changed or inner is not stmt
            out.append(inner)
        else:
            out.append(stmt)
    return out if changed else stmts


def _stopped(loop: py.For, function: py.FunctionDef) -> Optional[py.For]:
    for match, counter, path in _matches(loop, []):
        if _stops_safely(loop, match, counter, path, function):
            return _with_stops(loop, match)
    return None


def _matches(stmt: py.stmt, path: _Path) -> Iterator[tuple[py.If, str, _Path]]:
    """Each `if` of `stmt` followed by an increase of the name its test compares,
    with that name and the loops and `if`s from the outermost loop down to it."""
    if not isinstance(stmt, (py.For, py.If)):
        return
    inner = path + [stmt]
    for block in (stmt.body, stmt.orelse):
        for index, child in enumerate(block):
            counter = _counter(child, block[index + 1]) if index + 1 < len(block) else None
            if counter is not None:
                assert isinstance(child, py.If)
                yield child, counter, inner
            yield from _matches(child, inner)


def _counter(match: py.stmt, after: py.stmt) -> Optional[str]:
    """The counter the `if` `match` compares with `==`, where `after` adds a
    positive number to it."""
    if not isinstance(match, py.If):
        return None
    test = match.test
    if not (isinstance(test, py.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], py.Eq)):
        return None
    if not (isinstance(after, py.AugAssign) and isinstance(after.target, py.Name) and _adds_a_positive(after)):
        return None
    counter = after.target.id
    return counter if pyast.is_name(test.left, counter) or pyast.is_name(test.comparators[0], counter) else None


def _adds_a_positive(stmt: py.stmt) -> bool:
    return isinstance(stmt, py.AugAssign) and isinstance(stmt.op, py.Add) and isinstance(stmt.value, py.Constant) \
        and type(stmt.value.value) is int and stmt.value.value > 0


def _stops_safely(loop: py.For, match: py.If, counter: str, path: _Path, function: py.FunctionDef) -> bool:
    if match.orelse or any(isinstance(node, _EXITS) for node in pyast.walk_all(match.body)):
        return False
    written: set[str] = set()
    for stmt in _statements_but(loop, match):
        if not _plain(stmt):
            return False
        names = _written(stmt)
        if counter in names and not _adds_a_positive(stmt):
            return False
        written |= names
    by_match = {node.id for node in pyast.walk_all(match.body) if isinstance(node, py.Name)
                and not isinstance(node.ctx, py.Load)} | \
        {node.target.id for node in pyast.walk_all(match.body) if isinstance(node, py.NamedExpr)}
    test = match.test
    assert isinstance(test, py.Compare)
    sought = test.comparators[0] if pyast.is_name(test.left, counter) else test.left
    if not (isinstance(sought, py.Constant) and type(sought.value) is int
            or isinstance(sought, py.Name) and sought.id not in written | by_match):
        return False
    return counter not in (VARIABLES, "s") and not written & by_match \
        and not _read_outside(function, loop, written) and _tails(path)


def _statements_but(loop: py.For, match: py.If) -> Iterator[py.stmt]:
    """Every statement of `loop` (itself included) but those of the match's body."""
    yield loop
    todo: list[py.stmt] = [loop]
    while todo:
        stmt = todo.pop()
        if stmt is match:
            continue
        for block in (getattr(stmt, "body", None), getattr(stmt, "orelse", None)):
            if isinstance(block, list):
                for child in block:
                    if isinstance(child, py.stmt):
                        yield child
                        todo.append(child)


def _plain(stmt: py.stmt) -> bool:
    """Whether `stmt` is a kind the skipped rounds may run, asking only what cannot
    fail (its blocks are asked one by one)."""
    if isinstance(stmt, py.For):
        iterable = stmt.iter
        return isinstance(stmt.target, py.Name) and not stmt.orelse and isinstance(iterable, py.Call) \
            and pyast.is_name(iterable.func, "range") and 1 <= len(iterable.args) <= 3 and not iterable.keywords \
            and all(_cannot_fail(arg) for arg in iterable.args)
    if isinstance(stmt, py.If):
        return _cannot_fail(stmt.test)
    if isinstance(stmt, py.Assign):
        return all(isinstance(target, py.Name) for target in stmt.targets) and _cannot_fail(stmt.value)
    if isinstance(stmt, py.AugAssign):
        return isinstance(stmt.target, py.Name) and isinstance(stmt.op, (py.Add, py.Sub, py.Mult)) \
            and _cannot_fail(stmt.value)
    return isinstance(stmt, py.Pass)


def _cannot_fail(node: py.expr) -> bool:
    for part in pyast.walk(node):
        if isinstance(part, py.NamedExpr):
            return False
        if isinstance(part, py.Subscript):
            # (a variable read at a place written out: the list has it)
            if not (pyast.is_name(part.value, VARIABLES) and isinstance(part.slice, py.Constant)
                    and type(part.slice.value) is int and part.slice.value >= 0):
                return False
        elif not (cannot_fail_alone(part) or isinstance(part, py.expr_context)):
            return False
    return True


def _written(stmt: py.stmt) -> set[str]:
    """The names the statement itself gives a value (not those of its blocks)."""
    if isinstance(stmt, (py.For, py.AugAssign)):
        return {stmt.target.id} if isinstance(stmt.target, py.Name) else set()
    if isinstance(stmt, py.Assign):
        return {target.id for target in stmt.targets if isinstance(target, py.Name)}
    return set()


def _read_outside(function: py.FunctionDef, loop: py.For, names: set[str]) -> bool:
    inside = {id(node) for node in pyast.walk(loop)}
    return any(isinstance(node, py.Name) and node.id in names and isinstance(node.ctx, py.Load)
               and id(node) not in inside for node in pyast.walk(function))


def _tails(path: _Path) -> bool:
    """Whether each loop below the outermost is the last statement of the loop
    around it, through `if`s each the last of their block."""
    loops = [index for index, stmt in enumerate(path) if isinstance(stmt, py.For)]
    for index in range(1, loops[-1] + 1):
        outer, inner = path[index - 1], path[index]
        block = outer.body if any(stmt is inner for stmt in outer.body) else outer.orelse
        if block[-1] is not inner:
            return False
    return True


def _with_stops(loop: py.For, match: py.If) -> py.For:
    """`loop` with the match's body ending in `break`, and each loop around it
    within `loop` followed by a `break` that its `else: continue` passes over."""

    def change(stmt: py.stmt) -> py.stmt:
        if stmt is match:
            return py.If(test=match.test, body=match.body + [pyast.break_()], orelse=[])
        return pyast.with_blocks(stmt, lambda block: _changed_block(block, change))

    changed = change(loop)
    assert isinstance(changed, py.For)
    return changed


def _changed_block(block: list[py.stmt], change: Callable[[py.stmt], py.stmt]) -> list[py.stmt]:
    out: list[py.stmt] = []
    for stmt in block:
        new = change(stmt)
        if isinstance(stmt, py.For) and new is not stmt:
            # (a loop holding the match, below the outermost: it stops the loop around it)
            assert isinstance(new, py.For)
            out.append(pyast.for_(new.target, new.iter, new.body, [pyast.continue_()]))
            out.append(pyast.break_())
        else:
            out.append(new)
    return out
