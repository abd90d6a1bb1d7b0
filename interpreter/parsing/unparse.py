"""Expressions of the syntax tree back to rules text (for labels people read:
rule coverage rows name the condition of a branch)."""
from __future__ import annotations

from . import ast as A

# Binding strength of the operators, loosest first (docs/format.md 3.12).
_LEVEL = {A.IfExp: 1, A.Or: 2, A.And: 3, A.Not: 4, A.Compare: 5, A.Is: 5, A.In: 5}


def expression_text(e: A.Expr) -> str:
    """`e` as it could be written in a rules file."""
    return _text(e)


def _level(e: A.Expr) -> int:
    if isinstance(e, A.BinOp):
        return 6 if e.op in "+-" else 7
    if isinstance(e, A.Neg):
        return 8
    return _LEVEL.get(type(e), 9)


def _sub(e: A.Expr, parent: int) -> str:
    text = _text(e)
    return f"({text})" if _level(e) < parent else text


def _text(e: A.Expr) -> str:
    if isinstance(e, A.Num):
        return str(e.value)
    if isinstance(e, A.Str):
        return f'"{e.value}"'
    if isinstance(e, A.Bool):
        return "true" if e.value else "false"
    if isinstance(e, A.NoneLit):
        return "none"
    if isinstance(e, A.NoLegalAction):
        return "no legal action"
    if isinstance(e, A.Name):
        return e.id
    if isinstance(e, A.Attr):
        return f"{_sub(e.obj, 9)}.{e.name}"
    if isinstance(e, A.Index):
        return f"{_sub(e.obj, 9)}[{_text(e.index)}]"
    if isinstance(e, A.Call):
        return f"{e.fn}({', '.join(_text(a) for a in e.args)})"
    if isinstance(e, A.ListLit):
        return "[" + ", ".join(_text(a) for a in e.items) + "]"
    if isinstance(e, A.BinOp):
        level = _level(e)
        return f"{_sub(e.left, level)} {e.op} {_sub(e.right, level + 1)}"
    if isinstance(e, A.Neg):
        return f"-{_sub(e.operand, 8)}"
    if isinstance(e, A.Compare):
        return f"{_sub(e.left, 6)} {e.op} {_sub(e.right, 6)}"
    if isinstance(e, A.Is):
        return f"{_sub(e.obj, 6)} is {'not ' if e.negated else ''}{e.what}"
    if isinstance(e, A.In):
        return f"{_sub(e.item, 6)} {'not in' if e.negated else 'in'} {_sub(e.collection, 6)}"
    if isinstance(e, A.Not):
        return f"not {_sub(e.operand, 4)}"
    if isinstance(e, A.And):
        return f"{_sub(e.left, 3)} and {_sub(e.right, 4)}"
    if isinstance(e, A.Or):
        return f"{_sub(e.left, 2)} or {_sub(e.right, 3)}"
    if isinstance(e, A.IfExp):
        return f"{_sub(e.then, 2)} if {_sub(e.cond, 2)} else {_sub(e.otherwise, 1)}"
    if isinstance(e, A.Pieces):
        text = "pieces"
        if e.owner is not None:
            text += f" of {_sub(e.owner, 9)}"
        if e.where is not None:
            text += f" where {_text(e.where)}"
        return text
    return type(e).__name__
