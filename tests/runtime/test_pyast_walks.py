"""The compiler's own tree walks (compilation/pyast.py: `walk`, `child_nodes`,
`walk_in_order`) give exactly the nodes, in exactly the order, of the walks they
stand for — `ast.walk`, `ast.iter_child_nodes`, and the written order of
`ast.unparse` — on generated modules and on hand-built trees holding every kind of
field that is not a node (names, flags, a constant's value, lists of names)."""
from __future__ import annotations

import ast
from typing import Iterator

import pytest

from interpreter.api import load_game
from interpreter.compilation import pyast
from tests.helpers import REPO

SOURCE = '''
from m import a as b
def f(x, *ys, k=1, **kw) -> int:
    global g
    y = {i: j for i, j in kw.items() if i}
    z = [q async for q in ys] if x else (x := 3)
    w = f"{x!r:>{k}}" + b"u".decode()
    del y[0], z[1:2:3]
    try:
        pass
    except E as e:
        raise
    match x:
        case {"a": 1, **rest}: pass
        case C(1, k=2) | [1, *others] | None as n: pass
    return lambda v=1, /, *, u: v
'''


def reference_in_order(node: ast.AST) -> Iterator[ast.AST]:
    """The written order as the compiler had it before (children by `_fields`, but
    `IfExp` body, test, orelse and `DictComp` key, value, generators)."""
    order = {ast.IfExp: ("body", "test", "orelse"), ast.DictComp: ("key", "value", "generators")}
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        children: list[ast.AST] = []
        for field in order.get(type(current), current._fields):
            value = getattr(current, field, None)
            if isinstance(value, ast.AST):
                children.append(value)
            elif isinstance(value, list):
                children.extend(item for item in value if isinstance(item, ast.AST))
        stack.extend(reversed(children))


def trees() -> list[ast.AST]:
    hand = ast.parse(SOURCE)
    games = [load_game(str(REPO / path)).rules.module
             for path in ("docs/examples/chess", "benchmarks/games/go", "games/regibus")]
    return [hand, *games]


@pytest.mark.parametrize("tree", trees(), ids=["hand-built", "chess", "go", "regibus"])
def test_walks_give_the_same_nodes_in_the_same_order(tree: ast.AST) -> None:
    expected = list(ast.walk(tree))
    found = list(pyast.walk(tree))
    assert len(found) == len(expected) > 50
    assert all(a is b for a, b in zip(found, expected))
    for node in expected:
        assert [id(c) for c in pyast.child_nodes(node)] == [id(c) for c in ast.iter_child_nodes(node)]
    in_order = list(pyast.walk_in_order(tree))
    assert [id(n) for n in in_order] == [id(n) for n in reference_in_order(tree)]


def test_walk_in_order_follows_the_written_text() -> None:
    tree = ast.parse("a if b else c\n{k: v for k in d}\n")
    names = [n.id for n in pyast.walk_in_order(tree) if isinstance(n, ast.Name)]
    assert names == ["a", "b", "c", "k", "v", "k", "d"]
