"""Every player's score in one generated function (`Results.scores`).

A game that ends by its scores asks the score rule of each player: one call of the
score function per player, gathered in a list, is a good part of a short playout's
end (a twentieth of a four-player card game's playouts, its rule itself a variable read).
The function written here runs the score's body once per player, in the players'
order, with the player's index written in for `p`, and returns the tuple of the
values. What the index makes constant is worked out when the rules are compiled:
a comparison of two numbers, `and`/`or`/`not` of constants, `A if C else B` and an
`if` whose test is a constant — so `v[14] if p == 0 or p == 2 else 0 - v[14]` is
`v[14]` for players 0 and 2. The registers the body loads first (`v = s.vars`) are
loaded once.

Only where the score takes no table (`notes`, compilation/expr_sets.py), never
assigns `p`, returns at its end alone, and is small enough to be written out once
per player; else the runtime calls the score function for each player as before.
"""
from __future__ import annotations

import ast as py
import operator
from typing import Any, Callable, Optional

from . import pyast

# (the size of the score's body, in nodes, times the players, above which it is not written out)
_LARGEST = 4000

_COMPARED: dict[type, Callable[[Any, Any], bool]] = {
    py.Eq: operator.eq, py.NotEq: operator.ne, py.Lt: operator.lt, py.LtE: operator.le,
    py.Gt: operator.gt, py.GtE: operator.ge,
}


def scores_at_once(score: py.FunctionDef, players: int, name: str,
                   fresh: Callable[[str], str]) -> Optional[py.FunctionDef]:
    """The function `name(s)` returning the tuple of `score(s, p)` for p = 0 to
    players - 1, or None where the score cannot be written out so (see the module)."""
    if [a.arg for a in score.args.args] != ["s", "p"] or not score.body:
        return None
    *lines, last = score.body
    if not isinstance(last, py.Return) or last.value is None:
        return None
    for node in pyast.walk_all(score.body):
        if isinstance(node, (py.Return, py.Yield, py.YieldFrom)) and node is not last \
                or isinstance(node, py.Name) and node.id == "p" and not isinstance(node.ctx, py.Load) \
                or isinstance(node, (py.FunctionDef, py.Lambda, py.Global, py.Nonlocal)):
            return None
    if sum(1 for _ in pyast.walk_all(score.body)) * players > _LARGEST:
        return None
    loads = _register_loads(lines)
    # (loaded once only where nothing after gives them another value)
    stores = pyast.store_counts(score)
    if any(stores.get(load.targets[0].id, 0) > 1 for load in loads):  # type: ignore[attr-defined]
        loads = []
    rest = lines[len(loads):]
    body: list[py.stmt] = list(pyast.changeable_copy(loads))
    values: list[py.expr] = []
    for player in range(players):
        written = [_folded(stmt) for stmt in _with_player(rest, player)]
        value = _folded_expr(_with_player([py.Expr(value=last.value)], player)[0].value)  # type: ignore[attr-defined]
        body.extend(stmt for stmts in written for stmt in stmts)
        if rest and player < players - 1 and not _plain(value, loads):
            # (worked out before the next player's lines run: they may assign its names)
            kept = fresh("t")
            body.append(pyast.assign(pyast.name(kept), value))
            value = pyast.name(kept)
        values.append(value)
    body.append(pyast.return_(pyast.tuple_(*values)))
    return pyast.function(name, ["s"], body)


def _register_loads(lines: list[py.stmt]) -> list[py.stmt]:
    """The leading `X = s.attribute` of the score's body (they do not read the player)."""
    loads: list[py.stmt] = []
    for stmt in lines:
        if not (isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name)
                and isinstance(stmt.value, py.Attribute) and pyast.is_name(stmt.value.value, "s")):
            break
        loads.append(stmt)
    return loads


def _plain(value: py.expr, loads: list[py.stmt]) -> bool:
    """A number, or a register loaded first (the lines after cannot change them)."""
    return isinstance(value, py.Constant) or isinstance(value, py.Name) and any(
        pyast.is_name(load.targets[0], value.id) for load in loads)  # type: ignore[attr-defined]


def _with_player(stmts: list[py.stmt], player: int) -> list[py.stmt]:
    """A copy of `stmts` with the number `player` for every read of `p`."""
    copied: list[py.stmt] = pyast.changeable_copy(stmts)
    return pyast.replace_in(copied, lambda node: pyast.num(player)
                            if isinstance(node, py.Name) and node.id == "p" else None)


def _folded(stmt: py.stmt) -> list[py.stmt]:
    """`stmt` (a copy, changed in place) with its constant parts worked out; an `if`
    whose test is constant is the block it runs (none: no statement)."""
    _fold_fields(stmt)
    if isinstance(stmt, py.If):
        truth = _constant_truth(stmt.test)
        if truth is not None:
            return list(stmt.body if truth else stmt.orelse)
    return [stmt]


def _fold_fields(node: py.AST) -> None:
    for field in node._fields:
        value = getattr(node, field, None)
        if isinstance(value, list):
            items: list[Any] = []
            for item in value:
                if isinstance(item, py.stmt):
                    items.extend(_folded(item))
                elif isinstance(item, py.expr):
                    items.append(_folded_expr(item))
                else:
                    if isinstance(item, py.AST):
                        _fold_fields(item)
                    items.append(item)
            if value and all(isinstance(item, py.stmt) for item in value) and not items:
                items = [pyast.pass_()]
            setattr(node, field, items)
        elif isinstance(value, py.expr):
            setattr(node, field, _folded_expr(value))
        elif isinstance(value, py.AST):
            _fold_fields(value)


def _folded_expr(node: py.expr) -> py.expr:
    _fold_fields(node)
    if isinstance(node, py.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARED:
        left, right = node.left, node.comparators[0]
        if _number(left) and _number(right):
            return pyast.literal(_COMPARED[type(node.ops[0])](left.value, right.value))  # type: ignore[attr-defined]
    if isinstance(node, (py.BoolOp, py.UnaryOp)):
        return pyast.folded(node)
    if isinstance(node, py.IfExp):
        truth = _constant_truth(node.test)
        if truth is not None:
            return node.body if truth else node.orelse
    return node


def _number(node: py.expr) -> bool:
    return isinstance(node, py.Constant) and type(node.value) is int


def _constant_truth(node: py.expr) -> Optional[bool]:
    if isinstance(node, py.Constant) and type(node.value) is bool:
        return node.value
    return None
