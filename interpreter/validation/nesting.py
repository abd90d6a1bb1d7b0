"""How deep the rules nest what may become loops, every define and procedure
written out where it is used.

Python compiles at most 20 blocks one inside another, and only writing the rules'
code finds where the code passes that (`source.LoopsTooNested`); checking alone
(`pipeline.check_definition`, what `validate` runs at the other board sizes) writes
nothing. It writes the code as well where the rules nest deep enough that it might:
a definition that checks then loads. Counted from the syntax tree alone: each
`for each`, `repeat`, `pieces`, move pattern, step rule and call of a function
(`count`, `exists`, `sum`, ...; a define's call counts as the define written out)
is one level — more than the code's loops, never fewer.
"""
from __future__ import annotations

from typing import Any

from ..parsing import ast
from ..parsing.visit import children
from .expansion import _body, _top_level

# Each such level is at most one block of the code (19 `for each`, `repeat`, `count`,
# `exists` or `sum` one inside another compile, 21 `for each` do not:
# tests/hostile/test_nesting.py), and the code of an action adds a few of its own. The
# bundled games and the outsiders count at most 8 levels (one of them 12, with calls of
# `abs` and the like; its code nests 6 blocks).
DEEP_ENOUGH_TO_WRITE = 10

_LOOPS = (ast.ForEachStmt, ast.RepeatStmt, ast.Pieces, ast.StepRule, ast.Pattern)


def loop_depth(items: Any) -> int:
    """The most levels that may be loops one inside another in any item compiled for
    itself, each define and procedure written out where it is used (a use that
    leads back to the name itself counts nothing: recursion is reported apart)."""
    depths: dict[str, int] = {}
    return max((_depth(item, items, depths, set()) for item in _top_level(items)), default=0)


def _depth(item: Any, items: Any, depths: dict[str, int], on_path: set[str]) -> int:
    """The deepest path of `item` (its uses' depths known or found first). Walked with
    a stack of its own: the parser lets an expression nest 200 levels."""
    local = {p.id for p in getattr(item, "params", ())}
    deepest = 0
    stack: list[tuple[Any, int]] = [(node, 0) for node in children_of(_body(item))]
    while stack:
        node, above = stack.pop()
        level = above + (1 if _is_loop(node, items) else 0)
        used = _used(node, items, local)
        if used is not None and used not in on_path:
            level += _named_depth(used, items, depths, on_path)
        deepest = max(deepest, level)
        stack.extend((below, level) for below in children(node))
    return deepest


def children_of(body: Any) -> list[Any]:
    return list(body) if isinstance(body, (list, tuple)) else [body]


def _named_depth(name: str, items: Any, depths: dict[str, int], on_path: set[str]) -> int:
    if name not in depths:
        # (a chain of defines or procedures is at most 50 long: parsing/expansion bound it)
        item = items.defines.get(name) or items.procedures.get(name)
        depths[name] = _depth(item, items, depths, on_path | {name})
    return depths[name]


def _is_loop(node: Any, items: Any) -> bool:
    return isinstance(node, _LOOPS) or isinstance(node, ast.Call) and node.fn not in items.defines


def _used(node: Any, items: Any, local: set[str]) -> str | None:
    """The define or procedure `node` uses, if any."""
    if isinstance(node, ast.Name) and node.id in items.defines and node.id not in local:
        return node.id
    if isinstance(node, ast.Call) and node.fn in items.defines:
        return node.fn
    if isinstance(node, ast.CallStmt) and node.procedure in items.procedures:
        return node.procedure
    return None
