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

from typing import Any, Optional

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


def reading(cond: ast.Expr, shape: Any, name: str) -> ast.Expr:
    """`cond` with each top-level conjunct of structure `shape` read from the
    local `name` (new nodes where one is; `cond` itself, untouched, where none is)."""
    parts = conjuncts(cond)
    if not any(structure(part) == shape for part in parts):
        return cond
    return both([ast.Name(part.pos, name) if structure(part) == shape else part for part in parts])
