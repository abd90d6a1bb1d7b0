"""A condition of an `if`/`elif` chain whose first conjunct a later condition of
the chain asks again (`elif A and B: ... elif A and C:`).

A later condition is asked only after every condition before it was, and the
first conjunct of each of those always was: its value is known there. Conditions
change nothing (expressions are pure), so asking it again gives the same value.
statements.StatementCompiler._chain compiles such a first conjunct once, before
its `if`, into a local, and each later condition's top-level conjuncts written
the same (`structure`: positions apart) read that local. Only conjuncts that
need statements of their own (loops: `exists`, `count`, ...): a cheap one costs
no more asked twice than read from a local.

The names the local is bound to are not names an author can write (they hold a
space), so only the chain's conditions, which are rewritten to them, read them.
"""
from __future__ import annotations

from collections import Counter, deque
from typing import Any, Callable, Optional

from ..parsing import ast
from ..parsing.visit import structure
from .code import both, conjuncts

# Whether `_chain` keeps a shared first conjunct once (tests compare on and off).
ENABLED = True


def shared_first(cond: ast.Expr, later: list[ast.Expr]) -> Optional[ast.Expr]:
    """The first conjunct of `cond` where a condition of `later` has a top-level
    conjunct written the same; None where none has."""
    first = conjuncts(cond)[0]
    wanted = structure(first)
    if any(structure(part) == wanted for other in later for part in conjuncts(other)):
        return first
    return None


def reading(cond: ast.Expr, shape: Any, name: str, shape_of: Callable[[ast.Expr], Any] = structure) -> ast.Expr:
    """`cond` with each top-level conjunct of structure `shape` read from the
    local `name` (new nodes where one is; `cond` itself, untouched, where none is)."""
    parts = conjuncts(cond)
    if not any(shape_of(part) == shape for part in parts):
        return cond
    return both([ast.Name(part.pos, name) if shape_of(part) == shape else part for part in parts])


class LaterConjuncts:
    """`shared_first` along a chain, each branch's conditions those after the
    branch before: the shape of each conjunct is computed once and the shapes of
    the later conditions' conjuncts are counted, so that the chain costs time
    linear in its length (compared with every later condition, each branch's
    first conjunct cost the square of it: minutes for a chain of a thousand
    `elif`s, half a minute of a 960-branch chain's compilation). `restart` where
    the conditions are not those of the previous call without its first."""

    def __init__(self) -> None:
        self._shapes: dict[int, tuple[ast.Expr, Any]] = {}  # id(node) -> (node, its structure)
        self._later: Counter[Any] = Counter()
        self._after: Optional[deque[ast.Expr]] = None  # the conditions counted in _later

    def shape(self, node: ast.Expr) -> Any:
        known = self._shapes.get(id(node))
        if known is None or known[0] is not node:
            known = (node, structure(node))
            self._shapes[id(node)] = known
        return known[1]

    def restart(self) -> None:
        self._after = None

    def shared_first(self, conds: list[ast.Expr]) -> Optional[ast.Expr]:
        """`shared_first(conds[0], conds[1:])`."""
        after = self._after
        if after is not None and len(after) == len(conds) and after and after[0] is conds[0]:
            self._count(conds[0], -1)  # (the branch after the last: no longer later)
            after.popleft()
        else:
            self._later = Counter()
            after = self._after = deque(conds[1:])
            for cond in after:
                self._count(cond, 1)
        first = conjuncts(conds[0])[0]
        return first if self._later[self.shape(first)] > 0 else None

    def _count(self, cond: ast.Expr, step: int) -> None:
        for part in conjuncts(cond):
            self._later[self.shape(part)] += step
