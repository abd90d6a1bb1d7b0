"""Expressions of the syntax tree back to rules text (for labels people read:
rule coverage rows name the condition of a branch)."""
from __future__ import annotations

from . import ast

# Binding strength of the operators, loosest first (docs/format.md 3.12).
_LEVEL = {ast.IfExp: 1, ast.Or: 2, ast.And: 3, ast.Not: 4, ast.Compare: 5, ast.Is: 5, ast.In: 5}


def expression_text(e: ast.Expr) -> str:
    """`e` as it could be written in a rules file."""
    return _text(e)


def _level(e: ast.Expr) -> int:
    if isinstance(e, ast.BinOp):
        return 6 if e.op in "+-" else 7
    if isinstance(e, ast.Neg):
        return 8
    return _LEVEL.get(type(e), 9)


def _sub(e: ast.Expr, parent: int) -> str:
    text = _text(e)
    return f"({text})" if _level(e) < parent else text


def _text(e: ast.Expr) -> str:
    if isinstance(e, ast.Num):
        return str(e.value)
    if isinstance(e, ast.Str):
        return f'"{e.value}"'
    if isinstance(e, ast.Bool):
        return "true" if e.value else "false"
    if isinstance(e, ast.NoneLit):
        return "none"
    if isinstance(e, ast.DecimalNum):
        return e.text
    if isinstance(e, ast.NoLegalAction):
        return "no legal action"
    if isinstance(e, ast.BoardRepetitions):
        return "board repetitions"
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attr):
        return f"{_sub(e.obj, 9)}.{e.name}"
    if isinstance(e, ast.Index):
        return f"{_sub(e.obj, 9)}[{_text(e.index)}]"
    if isinstance(e, ast.Call):
        return f"{e.fn}({', '.join(_text(a) for a in e.args)})"
    if isinstance(e, ast.StepRule):
        return f"each step {e.frm} to {e.to} where {_text(e.cond)}"
    if isinstance(e, ast.ListLit):
        return "[" + ", ".join(_text(a) for a in e.items) + "]"
    if isinstance(e, ast.Offset):
        return f"({e.dx}, {e.dy})"
    if isinstance(e, ast.BinOp):
        level = _level(e)
        return f"{_sub(e.left, level)} {e.op} {_sub(e.right, level + 1)}"
    if isinstance(e, ast.Neg):
        return f"-{_sub(e.operand, 8)}"
    if isinstance(e, ast.Compare):
        return f"{_sub(e.left, 6)} {e.op} {_sub(e.right, 6)}"
    if isinstance(e, ast.Is):
        return f"{_sub(e.obj, 6)} is {'not ' if e.negated else ''}{e.what}"
    if isinstance(e, ast.In):
        return f"{_sub(e.item, 6)} {'not in' if e.negated else 'in'} {_sub(e.collection, 6)}"
    if isinstance(e, ast.Not):
        return f"not {_sub(e.operand, 4)}"
    if isinstance(e, ast.And):
        return f"{_sub(e.left, 3)} and {_sub(e.right, 4)}"
    if isinstance(e, ast.Or):
        return f"{_sub(e.left, 2)} or {_sub(e.right, 3)}"
    if isinstance(e, ast.IfExp):
        return f"{_sub(e.then, 2)} if {_sub(e.cond, 2)} else {_sub(e.otherwise, 1)}"
    if isinstance(e, ast.Pieces):
        text = "pieces"
        if e.owner is not None:
            text += f" of {_sub(e.owner, 9)}"
        if e.where is not None:
            text += f" where {_text(e.where)}"
        return text
    return type(e).__name__
