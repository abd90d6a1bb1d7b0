"""The larger or smaller of two values written as a comparison: a pass over the
generated functions, the last before they are compiled.

`max(a, b)` and `min(a, b)` of the rules (expr_sets.py) are calls of Python's
builtins, which look for keywords and walk their arguments as an iterable: about
four times what a comparison costs, and a search's leaf may ask several (the
best of four cards, the best score so far). Each call of `max` or `min` with two
plain arguments becomes

    max(A, B)  ->  t1 if (t0 := A) < (t1 := B) else t0
    min(A, B)  ->  t1 if (t0 := A) > (t1 := B) else t0

— A worked out before B, each once, the second kept only where it is larger
(smaller), as the builtins do: the same value, also of two equal values of two
types (`True` and `1`). A name or a number is read again rather than given a
temporary. The passes before this one (bounds, invariants, common parts) still
see the calls; nothing inside a comprehension or a lambda is changed (`:=` may
not stand in a comprehension's iterable). Trees are not changed in place.
"""
from __future__ import annotations

import ast as py
from typing import Callable, Optional

from . import pyast

# what the larger (smaller) value's second argument must pass to be kept
_KEEPS_SECOND = {"max": "<", "min": ">"}
_SCOPES = (py.Lambda, py.GeneratorExp, py.ListComp, py.SetComp, py.DictComp)


def extremes_compared(function: py.FunctionDef, fresh: Callable[[str], str]) -> py.FunctionDef:
    """`function` with each `max(A, B)` and `min(A, B)` written as a comparison
    (itself where it has none); `fresh` gives the temporaries' names."""
    memo: dict[int, py.AST] = {}

    def change(node: py.AST) -> Optional[py.AST]:
        if isinstance(node, _SCOPES):
            return node
        if not two_way(node):
            return None
        assert isinstance(node, py.Call) and isinstance(node.func, py.Name)
        first, second = (pyast.replace_nodes(arg, change, memo) for arg in node.args)
        # (a name the second argument gives a value, `:=`, is read from a temporary)
        first_read, first_given = _read_once(first, fresh, _stored_names(second))
        second_read, second_given = _read_once(second, fresh)
        return pyast.ifexp(second_read, pyast.compare(first_given, _KEEPS_SECOND[node.func.id], second_given),
                           first_read)

    # (a function naming neither is not walked)
    if not pyast.names_any(function, _KEEPS_SECOND) or not any(two_way(node) for node in pyast.walk(function)):
        return function
    body = pyast.replace_in(function.body, change, memo)
    return py.FunctionDef(name=function.name, args=function.args, body=body, decorator_list=[], returns=None,
                          type_comment=None, lineno=0, col_offset=0)


def two_way(node: py.AST) -> bool:
    """Whether `node` calls the builtin `max` or `min` with two arguments and nothing else."""
    return isinstance(node, py.Call) and isinstance(node.func, py.Name) and node.func.id in _KEEPS_SECOND \
        and len(node.args) == 2 and not node.keywords \
        and not any(isinstance(arg, py.Starred) for arg in node.args)


def _stored_names(node: py.AST) -> frozenset[str]:
    return frozenset(n.id for n in pyast.walk(node) if isinstance(n, py.Name) and not isinstance(n.ctx, py.Load))


def _read_once(value: py.expr, fresh: Callable[[str], str],
               changed: frozenset[str] = frozenset()) -> tuple[py.expr, py.expr]:
    """(how `value` is read after it was worked out, how it is worked out the first
    time; `changed`: names given a value before it is read again)."""
    if isinstance(value, py.Constant) or isinstance(value, py.Name) and value.id not in changed:
        return value, value
    temporary = fresh("t")
    return pyast.name(temporary), pyast.walrus(temporary, value)
