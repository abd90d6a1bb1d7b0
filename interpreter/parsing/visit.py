"""Walking the rules' syntax trees: the one walk every pass that reads them shares.

A node is an instance of one of the dataclasses of `ast.py`; its children are the
nodes in its fields, directly or inside lists, tuples and dicts. Positions (`Pos`)
are not nodes. `children` is the one place that knows this; on it stand
`nodes_of` (every node of a tree, in the order written), `statements_of` (the
statements of a block, the nested ones included) and `structure` (a tree without
its positions, equal for one thing written twice).

Their users: validation/semantic.py (what is never used), validation/bounds.py,
compilation/restrictions.py and compiler.py (a forbid or an action written twice),
compilation/budget.py, told_apart.py and domains.py (the values a notation shows),
analysis/static_checks.py.
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional

from .ast import Call, Name, Pos, Stmt


def is_node(value: object) -> bool:
    """Whether `value` is a node of a syntax tree (not a position, not a class)."""
    return is_dataclass(value) and not isinstance(value, (Pos, type))


def nodes_in(value: object) -> Iterator[Any]:
    """The nodes `value` is or holds at its top: itself, or those in a list, tuple
    or dict (of lists ...), in order; nothing for any other value."""
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from nodes_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from nodes_in(item)
    elif is_node(value):
        yield value


def children(node: object) -> Iterator[Any]:
    """The nodes directly below `node`, in the order of its fields."""
    for f in fields(node):  # type: ignore[arg-type]  # (a node is a dataclass instance)
        yield from nodes_in(getattr(node, f.name))


def nodes_of(tree: object) -> Iterator[Any]:
    """Every node of `tree` (a node, or lists, tuples, dicts of them), each before
    the nodes below it, in the order they are written. Depth-first with a stack of
    its own: an expression nested deep does not reach Python's recursion limit."""
    stack = list(nodes_in(tree))
    stack.reverse()
    while stack:
        node = stack.pop()
        yield node
        below = list(children(node))
        below.reverse()
        stack.extend(below)


def reaches(e: object, defines: Mapping[str, Any], test: Callable[[Any], bool],
            seen: Optional[set[str]] = None) -> bool:
    """Whether a node of `e`, or of a define it names (and those name, each once),
    meets `test`: what an expression reads, its defines written out."""
    seen = set() if seen is None else seen
    for node in nodes_of(e):
        if test(node):
            return True
        name = node.id if isinstance(node, Name) else node.fn if isinstance(node, Call) else None
        if name is not None and name in defines and name not in seen:
            seen.add(name)
            if reaches(defines[name].expr, defines, test, seen):
                return True
    return False


def statements_of(block: Iterable[Stmt]) -> Iterator[Stmt]:
    """Every statement of `block`, each followed by those nested in it (the
    branches of an `if`, the body of a loop)."""
    return (node for node in nodes_of(list(block)) if isinstance(node, Stmt))


def structure(node: Any) -> Any:
    """A syntax tree without its source positions (every field whose name ends in
    `pos`): equal for the same condition or statements written twice."""
    if isinstance(node, (list, tuple)):
        return tuple(structure(x) for x in node)
    if is_node(node):
        return (type(node).__name__,) + tuple(
            structure(getattr(node, f.name)) for f in fields(node) if not f.name.endswith("pos")
        )
    return node
