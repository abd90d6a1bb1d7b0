"""Which actions' children perft can count without playing them.

perft's last ply counts the legal actions of every child of the positions one
ply above it (`Engine.perft`). Where a case, whatever the position and the code,
only writes the board, the site lists and the registers and then hands the turn
on to a decision of the same turn, and that decision's actions do not depend on
the position (its lister reads nothing of it: a choice among fixed passes, or a
chance event), every child of that case has the same number of legal actions:
perft counts them without copying the position, playing the case and listing
the child. This module tells both from the generated functions' trees (so that
it holds however a definition spells the rules); nothing here runs generated
code.

A case qualifies only if it cannot end the game, end the turn, fail or depend
on what it does for where the game goes on: its statements are assignments,
`if`s and `for` loops over what the generated code reads, list appends and
removals (`pop` at a place `bisect` found), `hash`, and exactly one
`s.decision = N` (with `s.step = M`) at its top level. Anything else — a helper
call (a rule that may fail, a turn's end, `h_end`), a `return` (a follow-up
decision), a division, a `while` — leaves the case out, and perft plays it as before.
"""
from __future__ import annotations

import ast as py
from typing import Callable, Iterable, Optional

from . import pyast

# Fields of the position a qualifying case may set, besides `decision` and `step`
# (set once, at its top level): where a follow-up acts and the board's key, which
# no fixed listing reads.
_FIELDS_SET = frozenset({"carry", "board_key"})
# Methods and builtins a qualifying case may call: none fails on the lists and
# values generated code gives them.
_METHODS = frozenset({"append", "remove", "pop"})
# (h_hash: `hash`, as the board's key calls it; h_bisect and h_insort: the bisect module's,
# keeping the empty sites in board order, compilation/board_keys.py)
_BUILTINS = frozenset({"hash", "h_hash", "len", "h_bisect", "h_insort"})
# Operators that cannot fail on whole numbers.
_SAFE_OPS = (py.Add, py.Sub, py.Mult, py.BitOr, py.BitAnd, py.BitXor)


def fixed_listing(lister: py.FunctionDef) -> bool:
    """Whether a decision's lister lists the same actions in every position: it
    reads nothing of the position it is given (its one argument)."""
    if len(lister.args.args) != 1:
        return False
    position = lister.args.args[0].arg
    return not any(isinstance(node, py.Name) and node.id == position for node in pyast.walk_all(lister.body))


def next_decision(run: py.FunctionDef, is_constant: Callable[[str], bool]) -> Optional[int]:
    """The decision a case's function always leaves the game at, within the turn,
    the game going on and nothing failing on the way; None when that is not sure.
    `is_constant`: whether a name is a constant of the module (what a loop may go
    over: a loop over a list the loop itself may grow is not bounded)."""
    if [a.arg for a in run.args.args] != ["s", "code"]:
        return None
    decision: Optional[int] = None
    for stmt in run.body:
        target = _field_set(stmt)
        if target in ("decision", "step"):
            assert isinstance(stmt, py.Assign)  # (what _field_set recognises)
            value = stmt.value
            if not (isinstance(value, py.Constant) and type(value.value) is int):
                return None
            if target == "decision":
                if decision is not None:
                    return None
                decision = value.value
            continue
        if not _plain([stmt], is_constant):
            return None
    return decision


def _field_set(stmt: py.stmt) -> Optional[str]:
    """The field of the position `stmt` sets (`s.F = ...`), or None."""
    if isinstance(stmt, py.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        if isinstance(target, py.Attribute) and pyast.is_name(target.value, "s"):
            return target.attr
    return None


def _plain(stmts: Iterable[py.stmt], is_constant: Callable[[str], bool]) -> bool:
    """Whether the statements change only the board, the site lists, locals and
    the fields of `_FIELDS_SET`, and cannot fail, stop early or run unbounded."""
    for stmt in stmts:
        if isinstance(stmt, py.Assign):
            if not all(_target(t) for t in stmt.targets) or not _expression(stmt.value):
                return False
        elif isinstance(stmt, py.AugAssign):
            if not isinstance(stmt.op, _SAFE_OPS) or not _target(stmt.target) or not _expression(stmt.value):
                return False
        elif isinstance(stmt, py.Expr):
            if not _expression(stmt.value):
                return False
        elif isinstance(stmt, py.If):
            if not _expression(stmt.test) or not _plain(stmt.body, is_constant) \
                    or not _plain(stmt.orelse, is_constant):
                return False
        elif isinstance(stmt, py.For):
            if stmt.orelse or not isinstance(stmt.target, py.Name) or not _constant(stmt.iter, is_constant) \
                    or not _expression(stmt.iter) or not _plain(stmt.body, is_constant):
                return False
        elif not isinstance(stmt, (py.Pass, py.Break, py.Continue)):
            return False
    return True


def _constant(expr: py.expr, is_constant: Callable[[str], bool]) -> bool:
    """Whether `expr` is a constant of the module or an entry of one (`k3[p][to]`)."""
    while isinstance(expr, py.Subscript):
        expr = expr.value
    return isinstance(expr, py.Name) and is_constant(expr.id)


def _target(target: py.expr) -> bool:
    if isinstance(target, py.Name):
        return target.id != "s"
    if isinstance(target, py.Attribute):
        return pyast.is_name(target.value, "s") and target.attr in _FIELDS_SET
    if isinstance(target, py.Subscript):
        return _expression(target.value) and _expression(target.slice)
    if isinstance(target, py.Tuple):
        return all(_target(t) for t in target.elts)
    return False


def _expression(expr: py.expr) -> bool:
    for node in pyast.walk_in_order(expr):
        if isinstance(node, py.Call):
            func = node.func
            if node.keywords or not (
                    isinstance(func, py.Attribute) and func.attr in _METHODS
                    or isinstance(func, py.Name) and func.id in _BUILTINS):
                return False
        elif isinstance(node, py.BinOp):
            if not isinstance(node.op, _SAFE_OPS):
                return False
        elif isinstance(node, py.Attribute):
            # (the position's fields read, or a method called: checked with its call)
            if not (pyast.is_name(node.value, "s") or node.attr in _METHODS):
                return False
        elif isinstance(node, (py.Lambda, py.NamedExpr, py.Await, py.Yield, py.YieldFrom, py.ListComp,
                               py.SetComp, py.DictComp, py.GeneratorExp, py.Starred)):
            return False
    return True
