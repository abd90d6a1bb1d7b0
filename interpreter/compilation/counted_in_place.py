"""Perft's last ply played on the position itself: a case tried, its child's
actions counted, the case undone.

Perft's last ply needs of each child only the number of its actions. Where a
decision's count needs no listing (`DecisionInfo.counted`), the copy of the
position made for each child — its board, its site lists, twenty fields — and
its freeing cost about as much as the case and the count together. The case's
function (`runs[phase][case]`: the case, its `after` rules, the turn's
sequence) can instead run on the position itself under the journal of a
`forbid result` check (journal.py), which undoes every change it makes, also
when a rule fails:

    def f(s, code, count):
        <the case's registers: b = s.board, frm = code[1], ...>
        <the journals made, the fields kept>
        try:
            for i in (0,):          (once, where the case returns: its `return`s are `break`s)
                <the case, each change journaled>
            return count(s)         (the engine's: the child's count, or 0)
        finally:
            <undone>

`count` is the engine's (Engine.perft): 0 where the child's game is over (it
has no action; it is not played again); PLAYED_ON_A_COPY where it must be
settled (work at its turn's start, no count, a count of 0), and then the child
is played on a copy as before. Only where the journal covers every change the
case can make (journal.in_place; it may set an element of a module constant, a
search's kept last answer), the case returns no value (nor from a loop), writes
nothing in a loop under no test (a loop every action runs, a sowing, journaled
at every turn of it, costs more than a copy of the position; one under a test,
a flag spread along a chain a stone joined, only where it runs), and only where
every decision's count may be asked of a position played in place
(`counts_in_place`: it only reads the position) — no chance event, no listing
filtered by `forbid result` —, so that the child is seldom played twice.

The case is taken as it was before the board's writes kept the board's key, the
empty sites and the groups' records (board_keys.py), and the compiler has its
writes keep those of them the case or its ending's score reads (compiler
`_kept_in_place`): its undo writes the board back through the same statements,
and a record of the board kept by neither is left as it was, the board being as
it was (the empty sites of a placement game, read by the playouts' draws alone).
"""
from __future__ import annotations

import ast as py
from typing import Callable, Optional, Union

from . import pyast
from .journal import CHANGES_LIST, JOURNALED, KEPT_HELPERS, in_place

# What a count asked of a position tried in place may read of it and call: the
# registers' fields, builtins and the codes' maker, which leave nothing on it.
_READ_FIELDS = frozenset({"board", "occ", "vars", "player", "phase", "decision", "step", "carry"})
_CALLS = frozenset({"len", "range", "any", "all", "sum", "min", "max", "abs", "h_make_code",
                    # (helpers that work a value out of their arguments alone; a
                    # division's fails on 0, and the engine says the fault as the listing's)
                    "h_player_after", "h_floordiv", "h_divide", "h_mod"})


def counts_in_place(counter: py.FunctionDef) -> bool:
    """Whether a generated counter (counted_listing.py) leaves nothing on the
    position it counts: it reads only the registers' fields and calls only
    builtins, the codes' maker, helpers that read nothing, and `append` of a list
    it makes itself (`t15 = []`, the cards a player may play gathered) — no helper
    that keeps a record on the position."""
    made = {target.id for node in pyast.walk_all(counter.body) if isinstance(node, py.Assign)
            and isinstance(node.value, py.List) for target in node.targets if isinstance(target, py.Name)}
    # (a list of its own is given a value in one place alone, else it may be another)
    stores = pyast.store_counts(counter)
    for node in pyast.walk_all(counter.body):
        if isinstance(node, py.Attribute) and pyast.is_name(node.value, "s") and node.attr not in _READ_FIELDS:
            return False
        if isinstance(node, py.Call) and not (isinstance(node.func, py.Name) and node.func.id in _CALLS
                                              or _own_append(node.func, made, stores)):
            return False
    return True


def _own_append(func: py.expr, made: set[str], stores: dict[str, int]) -> bool:
    return isinstance(func, py.Attribute) and func.attr == "append" and isinstance(func.value, py.Name) \
        and func.value.id in made and stores.get(func.value.id) == 1


def counting_in_place(run: py.FunctionDef, fresh: Callable[[str], str],
                      once: Callable[[], py.expr], constant: Callable[[str], bool]) -> Optional[py.FunctionDef]:
    """The function `f(s, code, count)` of the module's docstring for the case's
    function `run`, named by `fresh`, or None where the journal does not cover
    what it does or it returns a value or returns from inside a loop. `once`
    makes a constant tuple of one element (only where the case returns);
    `constant` tells the module's constants (a search's kept last answer may be
    set: journal.in_place)."""
    if [a.arg for a in run.args.args] != ["s", "code"]:
        return None
    body = run.body
    start = 0
    while start < len(body) and _register(body[start]):
        start += 1
    registers, rest = body[:start], body[start:]
    for node in pyast.walk_all(rest):
        if isinstance(node, py.Return) and node.value is not None:
            return None
        if isinstance(node, (py.For, py.While)) and any(isinstance(n, py.Return) for n in pyast.walk_all(node.body)):
            return None
    if any(_writes(n) for loop in _unconditional_loops(rest) for n in pyast.walk_all(loop.body)):
        # (a write in a loop every action runs, journaled as often as it runs: a
        # copy of the position costs less; a loop under a test, run by few actions
        # — a flag spread along a chain that a stone joined — costs only where it runs)
        return None
    if any(isinstance(node, py.Return) for node in pyast.walk_all(rest)):
        rest = [pyast.for_(pyast.name(fresh("i")), once(),
                           pyast.replace_in(rest, lambda node: py.Break() if isinstance(node, py.Return) else None))]
    aliases = {stmt.targets[0].id: stmt.value.id for stmt in registers  # type: ignore[attr-defined]
               if isinstance(stmt.value, py.Name)}  # type: ignore[attr-defined]
    tried = in_place(rest, fresh, aliases, constant=constant)
    if tried is None:
        return None
    count = fresh("l")
    counted = pyast.return_(pyast.call(pyast.name(count), pyast.name("s")))
    code = tried.start + ([pyast.try_finally(tried.body + [counted], tried.undo)] if tried.undo
                          else tried.body + [counted])
    return pyast.function(fresh("f"), ["s", "code", count], registers + code)


def _unconditional_loops(stmts: list[py.stmt]) -> list[Union[py.For, py.While]]:
    """The loops of `stmts` under no `if` (in other loops too)."""
    found: list[Union[py.For, py.While]] = []
    for stmt in stmts:
        if isinstance(stmt, (py.For, py.While)):
            found.append(stmt)
            found += _unconditional_loops(stmt.body + stmt.orelse)
        elif isinstance(stmt, py.Try):
            found += _unconditional_loops(stmt.body + stmt.finalbody)
    return found


def _writes(node: py.AST) -> bool:
    """Whether `node` writes the board, the variables or a site list (what the journal records)."""
    if isinstance(node, (py.Assign, py.AugAssign)):
        targets = node.targets if isinstance(node, py.Assign) else [node.target]
        return any(isinstance(t, py.Subscript) and isinstance(t.value, py.Name) and t.value.id in JOURNALED
                   for t in targets)
    if isinstance(node, py.Call):
        func = node.func
        if isinstance(func, py.Name):
            return func.id in KEPT_HELPERS
        return isinstance(func, py.Attribute) and func.attr in CHANGES_LIST \
            and isinstance(func.value, py.Subscript) and pyast.is_name(func.value.value, "o")
    return False


def _register(stmt: py.stmt) -> bool:
    """`X = READ`: a register or local set, before the case, from the position or
    the action's code (nothing called)."""
    return isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name) \
        and not any(isinstance(node, (py.Call, py.NamedExpr)) for node in pyast.walk(stmt.value))
