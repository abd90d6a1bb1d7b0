"""A temporary copied into another and read nowhere else is written under the
other's name (a pass over the generated functions).

A lowered `or`/`and` whose right side needs statements keeps its value in a
flag of its own (`t2 = t0`, then `if not t2: ... t2 = t1`), and a chain of them
copies each flag into the next (`t4 = t2`): two stores and two loads a link,
paid for every candidate of a lister. Where a copy `tX = tY` (both temporaries
`t<n>`) is the last the block does with `tY` — every other occurrence of `tY`
in the function is in the statements of the same block before the copy, the
first of them setting `tY` from something else — and
`tX` is named in none of those statements from that one on, those
statements are written with `tX` for `tY` and the copy is left out: `tX` then
holds, after them, what the copy gave it, and nothing read it in between.

Not where a `break` or `continue` of the block's own loop stands among those
statements (it would skip the copy), nor in a function with a handler, a nested
function or a lambda. Nothing is recognised but the kinds of node. Trees are
never changed in place (a block may stand in several functions): a function
with a copy left out is rewritten from a deep copy.
"""
from __future__ import annotations

import ast
import copy
import re
from collections import Counter
from typing import Optional

_TEMPORARY = re.compile(r"t[0-9]+\Z")
# Statements with blocks of their own: the blocks a copy may stand in.
_BLOCKS = ("body", "orelse")


def coalesced(function: ast.FunctionDef) -> ast.FunctionDef:
    """`function` with its temporaries' last copies left out (the module's
    docstring): the function itself where there is none."""
    if any(isinstance(node, (ast.Try, ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
           and node is not function for node in ast.walk(function)):
        return function
    if not any(_copy(node) for node in ast.walk(function)):
        return function
    function = copy.deepcopy(function)
    counts = Counter(node.id for node in ast.walk(function) if isinstance(node, ast.Name))
    while _coalesce_one(function, counts):
        pass
    return function


def _copy(node: ast.AST) -> Optional[tuple[str, str]]:
    """(tX, tY) where `node` is `tX = tY`, two temporaries."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(target := node.targets[0], ast.Name) \
            and isinstance(node.value, ast.Name) and _TEMPORARY.match(target.id) \
            and _TEMPORARY.match(node.value.id) and target.id != node.value.id:
        return target.id, node.value.id
    return None


def _coalesce_one(function: ast.FunctionDef, counts: Counter[str]) -> bool:
    """Leave out one copy that may be (in place: `function` is this pass's own)."""
    for node in ast.walk(function):
        for field in _BLOCKS if not isinstance(node, ast.FunctionDef) else ("body",):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for i, stmt in enumerate(block):
                names = _copy(stmt)
                if names is None:
                    continue
                x, y = names
                first = _first_naming(block, i, y, counts[y] - 1)
                if first is None:
                    continue
                between = block[first:i]
                start = between[0]
                if not (isinstance(start, ast.Assign) and len(start.targets) == 1
                        and isinstance(start.targets[0], ast.Name) and start.targets[0].id == y
                        and y not in _names(ast.Expr(start.value))):
                    continue  # (y set first, from something else: it holds nothing from before)
                if any(x in _names(s) for s in between) or any(_leaves_block(s) for s in between):
                    continue
                for s in between:
                    for name in ast.walk(s):
                        if isinstance(name, ast.Name) and name.id == y:
                            name.id = x
                del block[i]
                counts[x] += counts[y] - 2  # (y's namings but the copy's become x's; the copy named x once)
                counts[y] = 0
                return True
    return False


def _first_naming(block: list[ast.stmt], end: int, name: str, others: int) -> Optional[int]:
    """The index of the first statement of `block[:end]` naming `name`, when those
    statements hold all `others` of its occurrences (the copy's aside)."""
    first = None
    seen = 0
    for j in range(end):
        n = sum(1 for node in ast.walk(block[j]) if isinstance(node, ast.Name) and node.id == name)
        if n and first is None:
            first = j
        seen += n
    return first if first is not None and seen == others else None


def _names(stmt: ast.stmt) -> set[str]:
    return {node.id for node in ast.walk(stmt) if isinstance(node, ast.Name)}


def _leaves_block(stmt: ast.stmt) -> bool:
    """Whether `stmt` holds a `break` or `continue` outside the loops it holds
    (one that would leave the block's own loop before the copy)."""
    if isinstance(stmt, (ast.Break, ast.Continue)):
        return True
    if isinstance(stmt, (ast.For, ast.While)):
        return any(_leaves_block(s) for s in stmt.orelse)
    return any(_leaves_block(s) for field in _BLOCKS for s in getattr(stmt, field, None) or ()
               if isinstance(s, ast.stmt))
