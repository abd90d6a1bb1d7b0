"""`first(pieces of P)` read from the list itself where a player has one piece at most.

`h_first(o[N])` (N a player's number) is the site of the player's list that
comes first in board order: a call that asks the list's type and its mask, or
takes its `min`. Where no player ever has two pieces on the board — the kinds
a player's piece can be of are one kind, and single_kinds.py proves no player
ever has two of it —, the list holds one site at most, and that site is its
first: `(o[N][0] if o[N] else -1)`, no call. A last pass over the generated
functions: the passes before recognise the call (kept_paths, result_reuse).
Only where `o` is the position's lists throughout the function (given once,
`o = s.occ`, the position `s` a parameter never given again) and N a whole
number below the number of players: the last list, `o[-1]`, is the neutral
pieces'. A player chosen at run time (`pieces of p` for `p in players`) is
written `h_first(o[X] if X >= 0 else ())` (expr_sets.pieces_of: X a player's
number or -1, none — never the neutral list's): read as `(o[X][0] if X >= 0
and o[X] else -1)`, the same list asked in the same order.
"""
from __future__ import annotations

import ast as py
from typing import Optional

from . import pyast

FIRST = "h_first"
# (off: the calls left as they are — the tests compare the two)
ENABLED = True


def firsts_read(function: py.FunctionDef, players: int) -> py.FunctionDef:
    """`function` with each `h_first(o[N])` (0 <= N < players) read from the
    list; to be asked only where each player's list holds one site at most."""
    if not ENABLED or not pyast.names_any(function, (FIRST,)) or not _lists_throughout(function):
        return function

    def change(node: py.AST) -> Optional[py.AST]:
        if not (isinstance(node, py.Call) and pyast.is_name(node.func, FIRST) and len(node.args) == 1
                and not node.keywords):
            return None
        listed = node.args[0]
        chosen = _player_chosen(listed)
        if chosen is not None:
            return py.IfExp(test=pyast.and_(chosen.test, chosen.body), body=pyast.sub(chosen.body, 0),
                            orelse=pyast.num(-1))
        if not (isinstance(listed, py.Subscript) and pyast.is_name(listed.value, "o")
                and isinstance(listed.slice, py.Constant) and type(listed.slice.value) is int
                and 0 <= listed.slice.value < players):
            return None
        return py.IfExp(test=listed, body=pyast.sub(listed, 0), orelse=pyast.num(-1))

    done = pyast.replace_nodes(function, change)
    assert isinstance(done, py.FunctionDef)
    return done


def _player_chosen(listed: py.expr) -> Optional[py.IfExp]:
    """`listed` where it is `o[X] if X >= 0 else ()` (X a name): the list of the
    player X, or none where X is -1 — the shape expr_sets.pieces_of gives a player
    that is not a number written out."""
    if not (isinstance(listed, py.IfExp) and isinstance(listed.orelse, py.Tuple) and not listed.orelse.elts):
        return None
    body, test = listed.body, listed.test
    if not (isinstance(body, py.Subscript) and pyast.is_name(body.value, "o") and pyast.is_name(body.slice)):
        return None
    assert isinstance(body.slice, py.Name)
    chooser = body.slice.id
    if not (isinstance(test, py.Compare) and pyast.is_name(test.left, chooser) and len(test.ops) == 1
            and isinstance(test.ops[0], py.GtE) and isinstance(test.comparators[0], py.Constant)
            and type(test.comparators[0].value) is int and test.comparators[0].value == 0):
        return None
    return listed


def _lists_throughout(function: py.FunctionDef) -> bool:
    """Whether `o` is the position's lists wherever `function` reads it."""
    counts = pyast.store_counts(function)
    return counts.get("o", 0) == 1 and counts.get("s", 0) == 0 and "s" in [a.arg for a in function.args.args] \
        and any(isinstance(stmt, py.Assign) and len(stmt.targets) == 1
                              and pyast.is_name(stmt.targets[0], "o")
                              and pyast.same(stmt.value, pyast.attr(pyast.name("s"), "occ"))
                              for stmt in function.body)


__all__ = ["firsts_read"]
