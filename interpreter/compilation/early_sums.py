"""A count of conditions compared with a number, asked no further than its answer needs.

`(1 if A else 0) + (1 if B else 0) + (1 if C else 0) <= 1` (a define summing
conditions, compared with a limit) works out every term; its answer is known as soon
as the terms so far exceed the limit (false) or cannot reach it with all the terms
left (true). Written so, with the sum so far kept in a temporary:

    (t := (1 if A else 0) + (1 if B else 0)) <= 0 or t <= 1 and t + (1 if C else 0) <= 1

The terms are worked out in the order written, each at most once, so the answer is
the same wherever the terms can be worked out; a term the answer does not need is
not (a term that sets a name, `:=`, is never left out). `<` is `<=` one less.
Nothing is recognised but the shape of the sum: two or more terms `1 if X else 0`
added, compared with a whole number.
"""
from __future__ import annotations

import ast
from typing import Optional

from . import pyast
from .source import Source

_NOT_LOOKED_INTO = (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp, ast.expr_context)


def early_sums(node: ast.expr, src: Source) -> ast.expr:
    """`node` with its counts compared with a number asked term by term."""
    if not any(isinstance(n, ast.Compare) and _shaped(n) for n in pyast.walk(node)):
        return node  # (most expressions: not rewritten, walked once)

    def change(n: ast.AST) -> Optional[ast.AST]:
        if isinstance(n, _NOT_LOOKED_INTO):
            return n  # (a `:=` may not stand in a comprehension's iterable: not looked into)
        if isinstance(n, ast.Compare):
            return _early(n, src)
        return None
    changed = pyast.replace_nodes(node, change)
    assert isinstance(changed, ast.expr)
    return changed


def _shaped(node: ast.Compare) -> bool:
    """A sum compared with a whole number by `<=` or `<`."""
    return len(node.ops) == 1 and isinstance(node.ops[0], (ast.LtE, ast.Lt)) and isinstance(node.left, ast.BinOp) \
        and isinstance(node.left.op, ast.Add) and isinstance(node.comparators[0], ast.Constant)


def counted_terms(node: ast.Compare) -> Optional[tuple[list[ast.IfExp], int]]:
    """`(1 if X else 0) + ... <= n` (or `< n`): its terms `1 if X else 0`, in order,
    and the most of them that may hold; None for anything else, or a count that is
    within the limit or beyond it whatever the terms."""
    if not _shaped(node):
        return None
    limit = node.comparators[0]
    if not (isinstance(limit, ast.Constant) and type(limit.value) is int):
        return None
    terms = _terms(node.left)
    most = limit.value - (1 if isinstance(node.ops[0], ast.Lt) else 0)
    if terms is None or len(terms) < 2 or not 0 <= most < len(terms):
        return None
    return terms, most


def _early(node: ast.Compare, src: Source) -> Optional[ast.expr]:
    counted = counted_terms(node)
    if counted is None:
        return None
    terms: list[ast.expr]
    terms, most = list(counted[0]), counted[1]
    # (the terms the answer may go without set nothing: a later read of what a `:=`
    # of theirs set, hoisting.py, would find it unset)
    first_skipped = next(done for done in range(1, len(terms))
                         if most - (len(terms) - done) >= 0 or done > most)
    if any(isinstance(n, ast.NamedExpr) for term in terms[first_skipped:] for n in pyast.walk(term)):
        return None
    terms = [early_sums(term, src) for term in terms]
    name = src.fresh("t")
    return _asked(terms, 1, terms[0], most, name)


def _asked(terms: list[ast.expr], done: int, total: ast.expr, most: int, name: str) -> ast.expr:
    """The answer of `sum <= most`, `total` the sum of the first `done` terms."""
    count = len(terms)
    if done == count:
        return pyast.compare(total, "<=", pyast.num(most))
    low = most - (count - done)  # (the sum so far at most this: true whatever follows)
    high = done > most  # (the sum so far may exceed the limit: false)
    if low < 0 and not high:
        return _asked(terms, done + 1, pyast.add(total, terms[done]), most, name)
    first = pyast.walrus(name, total)
    rest = _asked(terms, done + 1, pyast.add(pyast.name(name), terms[done]), most, name)
    if low < 0:
        return pyast.and_(pyast.compare(first, "<=", pyast.num(most)), rest)
    if not high:
        return pyast.or_(pyast.compare(first, "<=", pyast.num(low)), rest)
    return pyast.or_(pyast.compare(first, "<=", pyast.num(low)),
                     pyast.and_(pyast.compare(pyast.name(name), "<=", pyast.num(most)), rest))


def _terms(node: ast.expr) -> Optional[list[ast.IfExp]]:
    """The terms `1 if X else 0` of a sum of them, in order (None for anything else)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _terms(node.left), _terms(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.IfExp) and isinstance(node.body, ast.Constant) and isinstance(node.orelse, ast.Constant) \
            and type(node.body.value) is int and type(node.orelse.value) is int \
            and node.body.value == 1 and node.orelse.value == 0:
        return [node]
    return None
