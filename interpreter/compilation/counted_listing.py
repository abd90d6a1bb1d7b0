"""A lister's actions counted without listing them, for perft's last ply.

Perft's last ply needs only the number of each child's legal actions
(runtime/engine.py `Engine.perft`, `DecisionInfo.counted`). Where a lister only
makes its list and returns it — `out = []`, `out.append(CODE)`, `out = [CODE for
...]`, `out += [...]`, `if not out:` and `return out` — the same function with
`out` a number counts them: each append adds one, a comprehension its length
(its element `1`), and `not out`, `len(out)` and `return out` read the number
where they read the list. The tests, the loops and everything else the lister
does are the same statements in the same order: the count is the listing's
length, and a rule that fails while listing fails while counting. What is not
asked is only the codes themselves, which only read (the codes' maker
`h_make_code` fills a table, on first use: skipping it changes nothing).

A lister whose list goes anywhere else (a call: a `forbid result` filter, a
notation's alike check; a comparison; a subscript) has no counter.
"""
from __future__ import annotations

import ast as py
from typing import Optional

from . import pyast
from .listed_at_once import CODE_MAKER, OUT, only_reads

# The builtin a comprehension's length and `len(out)` are written with.
_LEN = "len"


def counting_body(lister: py.FunctionDef) -> Optional[list[py.stmt]]:
    """The body of a function of the lister's parameters that returns the number
    of actions `lister` lists, or None where its list is used in any other way
    than the module says."""
    rewritten: set[int] = set()

    def count(node: py.AST) -> Optional[py.AST]:
        if isinstance(node, py.Assign) and len(node.targets) == 1 and pyast.is_name(node.targets[0], OUT):
            value = node.value
            if isinstance(value, py.List) and not value.elts:
                new: py.stmt = pyast.assign(pyast.name(OUT), pyast.num(0))
            elif _counted_comprehension(value) is not None:
                new = pyast.assign(pyast.name(OUT), _counted_comprehension(value))  # type: ignore[arg-type]
            else:
                return None
        elif isinstance(node, py.AugAssign) and pyast.is_name(node.target, OUT) and isinstance(node.op, py.Add) \
                and _counted_comprehension(node.value) is not None:
            new = pyast.augment(pyast.name(OUT), "+", _counted_comprehension(node.value))  # type: ignore[arg-type]
        elif isinstance(node, py.Expr) and _appended(node.value) is not None:
            new = pyast.augment(pyast.name(OUT), "+", pyast.num(1))
        elif isinstance(node, py.Call) and pyast.is_name(node.func, _LEN) and len(node.args) == 1 \
                and pyast.is_name(node.args[0], OUT) and not node.keywords:
            return pyast.name(OUT)
        else:
            return None
        rewritten.add(id(new))
        return new

    body = pyast.replace_in(lister.body, count)
    if not rewritten or not _only_counted(body, rewritten):
        return None
    return body


def _appended(node: py.expr) -> Optional[py.expr]:
    """CODE where `node` is `out.append(CODE)` and CODE only reads (or makes a code)."""
    if isinstance(node, py.Call) and len(node.args) == 1 and not node.keywords \
            and pyast.same(node.func, pyast.attr(pyast.name(OUT), "append")) and only_reads(node.args[0], CODE_MAKER):
        return node.args[0]
    return None


def _counted_comprehension(node: py.expr) -> Optional[py.expr]:
    """`len([1 for ...])` where `node` is a list comprehension whose element only
    reads and whose loops and tests do not read `out`."""
    if not (isinstance(node, py.ListComp) and only_reads(node.elt, CODE_MAKER)
            and OUT not in pyast.names_in(node.generators)):
        return None
    return pyast.call(pyast.name(_LEN), py.ListComp(elt=pyast.num(1), generators=node.generators))


def _only_counted(body: list[py.stmt], rewritten: set[int]) -> bool:
    """Whether every `out` left in `body` is in a statement made by the counting,
    `return out`, `not out` or the test of an `if` or `while`."""
    for node in pyast.walk_all(body):
        if id(node) in rewritten:
            continue
        if isinstance(node, py.Return) and pyast.is_name(node.value, OUT):
            continue
        if isinstance(node, py.UnaryOp) and isinstance(node.op, py.Not) and pyast.is_name(node.operand, OUT):
            continue
        if isinstance(node, (py.If, py.While)) and pyast.is_name(node.test, OUT):
            # (its test is the name; its blocks are looked into on their own)
            continue
        if any(pyast.is_name(child, OUT) for child in pyast.child_nodes(node)):
            return False
    return True
