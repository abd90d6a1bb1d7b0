"""A value two statements of a block both work out, worked out once before the
first: a pass over the generated functions.

The expression-level sharing (invariants.py) gives a part repeated inside one
expression a `:=` temporary; it does not cross statements. A search's leaf that
asks the strength of its fourth card in two lets works it out twice:

    l29 = max(t73, max(t83, 20 + t94 % 4 if (t93 := (t94 := l27 - 1) // 4) == l16 else ...))
    ...
    l31 = 1 if max(t74, 20 + t96 % 4 if (t95 := (t96 := l27 - 1) // 4) == l16 else ...) > t84 else 0

The two parts are the same up to the names of their own temporaries (each `:=`
inside a part, read nowhere outside it). Such a part becomes a temporary given its
value before the first statement, and both read it:

    t5 = 20 + t94 % 4 if (t93 := (t94 := l27 - 1) // 4) == l16 else ...
    l29 = max(t73, max(t83, t5))
    ...
    l31 = 1 if max(t74, t5) > t84 else 0

Where: the statements are in one block, the later one an assignment, an `if`'s
test, an expression or a `return` (the part in its own expression, not in a block
of it); the part is worked out whenever the first statement runs (not inside a
conditional expression's branch, nor after the first operand of `and`/`or`); it
cannot fail and reads nothing but names (names, numbers, arithmetic with `//` and
`%` by a number other than 0, comparisons, `and`/`or`/`not`, conditional
expressions, `:=` to a name); no statement from the first to the later one gives a
name it reads a value (its own temporaries aside, which nothing outside the part
names); and it is worth a temporary (at least MIN_OPERATIONS operations, on names).
"""
from __future__ import annotations

import ast as py
from typing import Callable, Hashable, Iterable, Iterator, Optional, TypeVar

from . import pyast
from .invariants import cannot_fail_alone

# The statements whose own expression a later occurrence may stand in.
_SIMPLE = (py.Assign, py.AugAssign, py.Expr, py.Return)


def parts_shared_across(function: py.FunctionDef, fresh: Callable[[str], str]) -> py.FunctionDef:
    """`function` with each part two statements of a block work out given a
    temporary before the first (see the module); itself where there is none."""
    counts = pyast.name_counts(function)
    body = _block(function.body, fresh, counts)
    if body is function.body:
        return function
    return py.FunctionDef(name=function.name, args=function.args, body=body, decorator_list=[],
                          returns=None, type_comment=None, lineno=0, col_offset=0)


def _block(stmts: list[py.stmt], fresh: Callable[[str], str], counts: dict[str, int]) -> list[py.stmt]:
    out = [pyast.with_blocks(stmt, lambda block: _block(block, fresh, counts)) for stmt in stmts]
    changed = any(a is not b for a, b in zip(out, stmts))
    if sum(1 for stmt in out if _own_expression(stmt) is not None) < 2:
        return out if changed else stmts
    facts = _Facts(counts)
    # (the shapes two statements hold: most blocks have none, and are left at once)
    facts.printed.update(_met_twice(value for stmt in out for value in facts.prints(stmt)))
    if not facts.printed:
        return out if changed else stmts
    facts.repeated.update(_met_twice(shape for stmt in out for shape in facts.parts(stmt)))
    if not facts.repeated:
        return out if changed else stmts
    index = 0
    while index < len(out) - 1:
        shared = _shared_from(out, index, fresh, facts)
        if shared is not None:
            out, changed = shared, True
        index += 1  # (after a change, the temporary's assignment stands at `index`: the first statement is next)
    return out if changed else stmts


_Value = TypeVar("_Value", bound=Hashable)


def _met_twice(values: Iterable[_Value]) -> set[_Value]:
    """The values met more than once, in one pass."""
    seen: set[_Value] = set()
    twice: set[_Value] = set()
    for value in values:
        if value in seen:
            twice.add(value)
        seen.add(value)
    return twice


class _Facts:
    """What the pass asks of a block's statements and parts, each worked out once."""

    def __init__(self, counts: dict[str, int]) -> None:
        self.counts = counts
        self._shapes: dict[int, str] = {}
        self._parts: dict[int, dict[str, list[py.expr]]] = {}
        self._stores: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
        self.repeated: set[str] = set()  # (the shapes more than one statement of the block holds)
        self._prints: dict[int, dict[int, list[py.expr]]] = {}
        self.printed: set[int] = set()  # (the prints more than one statement of the block holds)

    def shape(self, node: py.expr) -> str:
        known = self._shapes.get(id(node))
        if known is None:
            known = self._shapes[id(node)] = _shape(node, self.counts)
        return known

    def prints(self, stmt: py.stmt) -> dict[int, list[py.expr]]:
        """The parts of the statement's own expression by their print: a hash of the
        structure, every name given a value by `:=` in it taken as one (parts of
        one shape have one print; walked once, where shapes walk every part)."""
        known = self._prints.get(id(stmt))
        if known is None:
            known = self._prints[id(stmt)] = {}
            expression = _own_expression(stmt)
            if expression is not None:
                own = {n.target.id for n in pyast.walk(expression)
                       if isinstance(n, py.NamedExpr) and isinstance(n.target, py.Name)}
                _print(expression, own, known)
        return known

    def parts(self, stmt: py.stmt) -> dict[str, list[py.expr]]:
        """The parts of the statement's own expression that may be shared, by shape
        (only those whose print another statement of the block has: `self.printed`)."""
        known = self._parts.get(id(stmt))
        if known is None:
            known = self._parts[id(stmt)] = {}
            for value, nodes in self.prints(stmt).items():
                if value in self.printed:
                    for node in nodes:
                        shape = self.shape(node)
                        if shape:
                            known.setdefault(shape, []).append(node)
        return known

    def stores(self, stmt: py.stmt) -> tuple[frozenset[str], frozenset[str]]:
        """The names the statement (its blocks too) gives a value: with `:=`, and in all."""
        known = self._stores.get(id(stmt))
        if known is None:
            walrus = frozenset(n.target.id for n in pyast.walk(stmt)
                               if isinstance(n, py.NamedExpr) and isinstance(n.target, py.Name))
            stored = frozenset(n.id for n in pyast.walk(stmt) if isinstance(n, py.Name)
                               and not isinstance(n.ctx, py.Load))
            known = self._stores[id(stmt)] = (walrus, walrus | stored)
        return known


def _shared_from(stmts: list[py.stmt], index: int, fresh: Callable[[str], str],
                 facts: _Facts) -> Optional[list[py.stmt]]:
    """`stmts` with the first part of `stmts[index]` that a later statement works out
    too given a temporary before it, or None where there is none."""
    value = _own_expression(stmts[index])
    if value is None or not facts.repeated.intersection(facts.parts(stmts[index])):
        return None
    for part in _always_worked_out(value):
        shape = facts.shape(part)
        if shape not in facts.repeated:
            continue
        read = _read(part)
        if _gives(stmts[index], part, outside=True):
            continue
        later: list[tuple[int, py.expr]] = []
        for at in range(index + 1, len(stmts)):
            walrus, stored = facts.stores(stmts[at])
            if walrus & read:
                break
            later.extend((at, node) for node in facts.parts(stmts[at]).get(shape, ()))
            if stored & read:
                break
        if later:
            return _with_temporary(stmts, index, part, later, fresh("t"))
    return None


def _own_expression(stmt: py.stmt) -> Optional[py.expr]:
    if isinstance(stmt, py.If):
        return stmt.test
    if isinstance(stmt, _SIMPLE):
        return stmt.value
    return None


def _always_worked_out(root: py.expr) -> Iterator[py.expr]:
    """The parts of `root`, largest first, worked out whenever `root` is."""
    yield root
    if isinstance(root, py.IfExp):
        yield from _always_worked_out(root.test)
        return
    if isinstance(root, py.BoolOp):
        yield from _always_worked_out(root.values[0])
        return
    if isinstance(root, (py.Lambda, py.GeneratorExp, py.ListComp, py.SetComp, py.DictComp)):
        return
    for child in pyast.child_nodes(root):
        if isinstance(child, py.expr):
            yield from _always_worked_out(child)


# The largest part looked at (its nodes): larger ones are rare, and each part's
# shape is worked out by walking it.
MAX_PART = 200
# The fewest operations a part shared holds: a smaller one (`l2 is None`, `(l1 - 1) // 4`)
# costs about what the temporary's store and reads cost.
MIN_OPERATIONS = 4
_OPERATIONS = (py.BinOp, py.UnaryOp, py.Compare, py.BoolOp, py.IfExp)


def _shape(node: py.expr, counts: dict[str, int]) -> str:
    """The structure of `node` with its own temporaries named by their order, where
    it may be shared (see the module); else ''."""
    if isinstance(node, (py.Name, py.Constant, py.NamedExpr)):
        return ""
    own: dict[str, str] = {}
    size = operations = 0
    named = False
    for part in pyast.walk_in_order(node):
        size += 1
        if size > MAX_PART:
            return ""
        if isinstance(part, py.NamedExpr):
            if not isinstance(part.target, py.Name):
                return ""
            own.setdefault(part.target.id, f"_{len(own)}")
        elif isinstance(part, py.Name):
            named = True
        elif not (cannot_fail_alone(part) or isinstance(part, py.expr_context)):
            return ""
        operations += isinstance(part, _OPERATIONS)
    if not named or operations < MIN_OPERATIONS:
        return ""
    # (its own temporaries named nowhere else in the function)
    if own and any(counts.get(name, 0) != _count_in(node, name) for name in own):
        return ""

    def rename(n: py.AST) -> Optional[py.AST]:
        if isinstance(n, py.Name) and n.id in own:
            return py.Name(id=own[n.id], ctx=n.ctx)
        return None

    return pyast.key(pyast.replace_nodes(node, rename))


def _print(node: py.AST, own: set[str], prints: dict[int, list[py.expr]]) -> int:
    """The print of `node` (see _Facts.prints), each expression's added to `prints`."""
    if isinstance(node, py.Name):
        value = hash(("n", "" if node.id in own else node.id))
    elif isinstance(node, py.Constant):
        value = hash(("c", repr(node.value)))
    else:
        value = hash((type(node).__name__, tuple(_print(child, own, prints) for child in pyast.child_nodes(node))))
    if isinstance(node, py.expr) and not isinstance(node, (py.Name, py.Constant)):
        prints.setdefault(value, []).append(node)
    return value


def _count_in(node: py.AST, name: str) -> int:
    return sum(1 for n in pyast.walk(node) if isinstance(n, py.Name) and n.id == name)


def _read(part: py.expr) -> set[str]:
    """The names `part` reads that it does not give a value itself."""
    own = {n.target.id for n in pyast.walk(part) if isinstance(n, py.NamedExpr) and isinstance(n.target, py.Name)}
    return {n.id for n in pyast.walk(part) if isinstance(n, py.Name) and isinstance(n.ctx, py.Load)} - own


def _gives(stmt: py.stmt, part: py.expr, walrus_only: bool = False, outside: bool = False) -> bool:
    """Whether `stmt` (its blocks too) gives a name `part` reads a value (with `:=`
    alone, if `walrus_only`; outside `part` itself, if `outside`)."""
    names = _read(part)
    inside = {id(n) for n in pyast.walk(part)} if outside else set()
    for n in pyast.walk(stmt):
        if id(n) in inside:
            continue
        if isinstance(n, py.NamedExpr) and isinstance(n.target, py.Name) and n.target.id in names:
            return True
        if not walrus_only and isinstance(n, py.Name) and not isinstance(n.ctx, py.Load) and n.id in names:
            return True
    return False


def _with_temporary(stmts: list[py.stmt], index: int, part: py.expr, later: list[tuple[int, py.expr]],
                    name: str) -> list[py.stmt]:
    replaced = {id(part)} | {id(node) for _, node in later}

    def change(node: py.AST) -> Optional[py.AST]:
        return pyast.name(name) if id(node) in replaced else None

    changed_at = {index} | {at for at, _ in later}
    out = stmts[:index] + [pyast.assign(pyast.name(name), part)]
    out += [pyast.replace_nodes(stmt, change) if at in changed_at else stmt
            for at, stmt in enumerate(stmts) if at >= index]
    return out
