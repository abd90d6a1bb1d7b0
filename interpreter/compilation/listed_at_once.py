"""A lister's loop that only appends, written as one list comprehension.

The commonest lister of a placement game is a drop onto any empty site of a
fixed set:

    out = []
    for to in K:
        tg = b[to]                     (locals set from reads alone, any number)
        if tg is None:                 (a test that reads and calls nothing)
            out.append(CODE)           (CODE reads; its one call `h_make_code`)
    return out

Listing ~200 actions a position (perft's full listing of a placement game on a large board), the
loop's turns cost more than the test: each turn stores `to` and `tg`, jumps and
looks up `out.append`. The same loop as `out = [CODE for to in K if b[to] is
None]` (or `out += [...]` where `out` holds actions already) runs the same
reads in the same order inside the interpreter's comprehension and gives the
same list. What is left out is only what the loop left behind: its variables'
last values. So the loop is rewritten only where nothing after it reads them
before setting them again (a later loop over a constant, non-empty tuple that
sets `to` and its own locals first: the next drop's).
"""
from __future__ import annotations

import ast as py
from typing import Any, Callable, Optional, Sequence

from . import pyast

# The nodes a comprehension's test and element may hold: reads, comparisons and
# arithmetic, nothing that writes or calls (but the code's maker, below).
_PURE = (py.Name, py.Load, py.Constant, py.Subscript, py.Compare, py.BoolOp, py.UnaryOp, py.BinOp, py.Tuple,
         py.cmpop, py.boolop, py.unaryop, py.operator)
# The one call an element may make: the code (case, frm, to) made on first use.
CODE_MAKER = "h_make_code"
OUT = "out"


def listed_at_once(body: list[py.stmt], value: Callable[[py.expr], Any]) -> list[py.stmt]:
    """`body` (a lister's, registers loaded) with each top-level loop that only
    appends to `out` written as a list comprehension, where the module says it
    can be; else `body` itself. `value` gives a constant's value (Source.value)."""
    new: Optional[list[py.stmt]] = None
    for i, stmt in enumerate(body):
        listed = _comprehension(stmt, body[i + 1:], value) if isinstance(stmt, py.For) else None
        if listed is None:
            if new is not None:
                new.append(stmt)
            continue
        done = list(body[:i]) if new is None else new
        fresh = [k for k, before in enumerate(done) if OUT in pyast.names_in([before])]
        if len(fresh) == 1 and pyast.same(done[fresh[0]], pyast.assign(pyast.name(OUT), pyast.list_())):
            # (`out = []` and nothing else before: the list is the comprehension's)
            del done[fresh[0]]
            done.append(pyast.assign(pyast.name(OUT), listed))
        else:
            done.append(pyast.augment(pyast.name(OUT), "+", listed))
        new = done
    return new if new is not None else body


def _comprehension(loop: py.For, after: Sequence[py.stmt], value: Callable[[py.expr], Any]) -> Optional[py.ListComp]:
    if loop.orelse or not isinstance(loop.target, py.Name):
        return None
    stmts = loop.body
    locals_: dict[str, py.expr] = {}
    while len(stmts) > 1 and isinstance(stmts[0], py.Assign) and len(stmts[0].targets) == 1 \
            and isinstance(stmts[0].targets[0], py.Name) and only_reads(stmts[0].value) \
            and not pyast.names_in([stmts[0].value]) & (set(locals_) | {stmts[0].targets[0].id}):
        locals_[stmts[0].targets[0].id] = stmts[0].value
        stmts = stmts[1:]
    if len(stmts) != 1 or not isinstance(stmts[0], py.If) or stmts[0].orelse or len(stmts[0].body) != 1:
        return None
    append = stmts[0].body[0]
    if not (isinstance(append, py.Expr) and isinstance(append.value, py.Call) and len(append.value.args) == 1
            and not append.value.keywords
            and pyast.same(append.value.func, pyast.attr(pyast.name(OUT), "append"))):
        return None
    test, element = stmts[0].test, append.value.args[0]
    if not only_reads(test) or not only_reads(element, CODE_MAKER):
        return None
    target = loop.target.id
    if OUT in pyast.names_in([test, element, loop.iter]) or target in locals_ \
            or pyast.names_in([element]) & set(locals_) or not _unread_after(after, target, set(locals_), value):
        return None
    # (each local read where it was set: a read of the position, asked where the test asks it)
    test = pyast.replace_nodes(test, lambda node: locals_.get(node.id) if isinstance(node, py.Name) else None)
    return pyast.listcomp(element, pyast.name(target), loop.iter, test)


def only_reads(node: py.expr, call: Optional[str] = None) -> bool:
    """Whether `node` only reads (a call of `call` aside)."""
    for part in pyast.walk_in_order(node):
        if isinstance(part, py.Call):
            if call is None or not pyast.is_name(part.func, call) or part.keywords:
                return False
        elif not isinstance(part, _PURE):
            return False
    return True


def _unread_after(after: Sequence[py.stmt], target: str, locals_: set[str], value: Callable[[py.expr], Any]) -> bool:
    """Whether no statement after the loop reads its variables before they are set
    again: the first statement naming one is a loop over a constant, non-empty
    tuple with the same target, setting each local it names first."""
    names = locals_ | {target}
    for k, stmt in enumerate(after):
        named = pyast.names_in([stmt])
        if not named & names:
            continue
        if not (isinstance(stmt, py.For) and pyast.is_name(stmt.target, target) and isinstance(stmt.iter, py.Name)
                and isinstance(value(stmt.iter), tuple) and value(stmt.iter)):
            return False
        rest = pyast.names_in(after[k:])
        set_first: set[str] = set()
        for first in stmt.body:
            if not (isinstance(first, py.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], py.Name)):
                break
            if pyast.names_in([first.value]) & (locals_ - set_first):
                break
            set_first.add(first.targets[0].id)
        return not (locals_ & rest) - set_first
    return True


def empty_sites_listed(function: py.FunctionDef,
                       value: Callable[[py.expr], Any]) -> Optional[tuple[tuple[int, ...], ...]]:
    """(K1, K2, ...) where a lister is only `out = [CODE for to in K1 if b[to] is
    None]`, then `out += [...]` alike over K2, ... (each K a constant tuple of
    distinct sites, `b` the board; copies of one drop for several choices list the
    same sites again), after registers and constants read, and locals set to
    constants between them: then it lists one action for each empty site of each
    K and nothing else, so their number is the sum of each K's empty sites (perft's
    last ply counts them without listing: DecisionInfo.counted). Else None."""
    stmts = function.body
    if len(stmts) < 2 or not pyast.same(stmts[-1], pyast.return_(pyast.name(OUT))):
        return None
    made = next((k for k, stmt in enumerate(stmts) if _makes_out(stmt)), None)
    if made is None or not isinstance(stmts[made], py.Assign):
        return None
    listed: list[tuple[int, ...]] = []
    for stmt in stmts[made:-1]:
        if _makes_out(stmt):
            sites = _empty_sites_of(stmt.value, value)  # type: ignore[attr-defined]
            if sites is None:
                return None
            listed.append(sites)
        elif not (isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name)
                  and stmt.targets[0].id not in (OUT, "b") and only_reads(stmt.value)
                  and OUT not in pyast.names_in([stmt.value])):
            # (between the comprehensions: a local the next case sets, read by its codes alone)
            return None
    boards = 0
    for stmt in stmts[:made]:
        # (before it only the registers and locals set to constants or reads)
        if not (isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name)):
            return None
        if stmt.targets[0].id == "b":
            boards += 1
            if not pyast.same(stmt.value, pyast.attr(pyast.name("s"), "board")):
                return None
        elif stmt.targets[0].id == OUT or not (only_reads(stmt.value) or isinstance(stmt.value, py.Attribute)
                                                and pyast.is_name(stmt.value.value, "s")):
            return None
    return tuple(listed) if boards == 1 else None


def _makes_out(stmt: py.stmt) -> bool:
    """Whether `stmt` is `out = X` or `out += X`."""
    if isinstance(stmt, py.Assign):
        return len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], OUT)
    return isinstance(stmt, py.AugAssign) and pyast.is_name(stmt.target, OUT) and isinstance(stmt.op, py.Add)


def _empty_sites_of(made: py.expr, value: Callable[[py.expr], Any]) -> Optional[tuple[int, ...]]:
    """K where `made` is `[CODE for to in K if b[to] is None]` (K a constant tuple
    of distinct sites, CODE only reads or makes a code), else None."""
    if not (isinstance(made, py.ListComp) and len(made.generators) == 1):
        return None
    loop = made.generators[0]
    sites = value(loop.iter)
    if loop.is_async or not isinstance(loop.target, py.Name) or len(loop.ifs) != 1 \
            or not isinstance(sites, tuple) or not sites or len(set(sites)) != len(sites) \
            or not all(type(x) is int and x >= 0 for x in sites) or not only_reads(made.elt, CODE_MAKER):
        return None
    tested = pyast.compare(pyast.sub(pyast.name("b"), pyast.name(loop.target.id)), "is", pyast.none())
    return sites if pyast.same(loop.ifs[0], tested) else None
