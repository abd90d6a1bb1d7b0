"""A condition made of parts, each with the statements that must run before it.

Compiled in lowered mode (expressions.ExpressionCompiler.lowered), a condition is
statements — the loops of its quantifiers — and an expression reading their
results. A conjunction of such conditions (the `where` lines of an action, one
per conjunct) is asked part by part, so that the statements of a later part run
only when the earlier parts hold.
"""
from __future__ import annotations

import ast
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator, Optional, Sequence

from . import pyast
from .source import Source

# One part: (the statements to run first, the expression that must hold).
Part = tuple[tuple[ast.stmt, ...], ast.expr]


@dataclass(frozen=True)
class Condition:
    parts: tuple[Part, ...]  # all must hold, asked in order
    # The last part is an `exists` whose loop can hold what runs when the condition
    # does (expressions.Code.found_loop), or None.
    found_loop: Optional[tuple[ast.stmt, ...]] = None

    @staticmethod
    def of(parts: Sequence[tuple[Sequence[ast.stmt], ast.expr]],
           found_loop: Optional[tuple[ast.stmt, ...]] = None) -> Optional["Condition"]:
        """The conjunction of (statements, expression) parts, or None when there are none."""
        if not parts:
            return None
        return Condition(tuple((tuple(lines), code) for lines, code in parts), found_loop)

    def replaced(self, old: ast.expr, new: ast.expr) -> "Condition":
        """The condition with the code `old` written `new` (for a place where the
        two are known to be equal)."""
        return self._changed(pyast.replacing(old, new))

    def _replaced_all(self, facts: Sequence[tuple[ast.expr, ast.expr]]) -> "Condition":
        """`replaced` for every fact at once (one walk of the trees)."""
        kinds = {type(old) for old, _ in facts}
        sizes = {_size(old) for old, _ in facts}
        news = {pyast.key(old): new for old, new in facts}

        def change(node: ast.AST) -> Optional[ast.AST]:
            # (the size first: a tree's text is made only for the few of a fact's size)
            return news.get(pyast.key(node)) if type(node) in kinds and _size(node) in sizes else None

        return self._changed(change)

    def _changed(self, change: Callable[[ast.AST], Optional[ast.AST]]) -> "Condition":
        """The condition with each node `change` gives a replacement for replaced."""
        memo: dict[int, ast.AST] = {}  # (the found loop is the end of the last part's statements: shared)
        parts = tuple((tuple(pyast.replace_in(lines, change, memo)), pyast.replace_nodes(code, change, memo))
                      for lines, code in self.parts)
        loop = None if self.found_loop is None else tuple(pyast.replace_in(self.found_loop, change, memo))
        return Condition(parts, loop)

    def knowing(self, facts: Sequence[tuple[ast.expr, ast.expr]]) -> "Condition":
        """The condition where each fact's code `old` is known to equal `new` (a
        landing known empty or taken): written so, each part's leading constants
        folded (pyast.folded), and the parts that then always hold and need no
        statements left out (none left: no parts, it always holds)."""
        known = self._replaced_all(facts)
        parts = tuple((lines, pyast.folded(code)) for lines, code in known.parts)
        if known.found_loop is None:
            parts = tuple((lines, code) for lines, code in parts
                          if lines or not (isinstance(code, ast.Constant) and code.value is True))
        return Condition(parts, known.found_loop)

    @property
    def cost_free(self) -> bool:
        """Whether no part needs statements (the condition is one expression)."""
        return not any(lines for lines, _ in self.parts)

    @property
    def code(self) -> ast.expr:
        """The condition as one expression (only when `cost_free`)."""
        return pyast.and_(*(code for _, code in self.parts))

    @contextmanager
    def holds(self, src: Source) -> Iterator[None]:
        """Open `if` blocks such that what is written inside runs when it holds.
        When the last part is an `exists`, what is written inside runs in its loop,
        at the element found, before the loop stops: no flag to set and test."""
        with ExitStack() as stack:
            pending: list[ast.expr] = []
            last = len(self.parts) - 1
            for i, (lines, code) in enumerate(self.parts):
                loop = self._found_loop(lines, code) if i == last else None
                if lines:
                    if pending:
                        stack.enter_context(src.if_(pyast.and_(*pending)))
                        pending = []
                    src.paste(list(lines[: len(lines) - len(loop)] if loop else lines))
                if loop is not None:
                    if pending:
                        stack.enter_context(src.if_(pyast.and_(*pending)))
                    assert isinstance(code, ast.Name)
                    found = _found(loop, code.id)
                    with src.capture() as inside:
                        yield
                    # (without `t = False`, and `t = True` replaced by what runs there)
                    src.paste(pyast.splice(loop[1:], found, inside))
                    return
                pending.append(code)
            stack.enter_context(src.if_(pyast.and_(*pending)))
            yield

    def _found_loop(self, lines: tuple[ast.stmt, ...], code: ast.expr) -> Optional[tuple[ast.stmt, ...]]:
        """The `exists` loop ending `lines` whose flag is `code`, when there is one."""
        loop = self.found_loop
        if loop is None or not isinstance(code, ast.Name) or not _sets(loop[0], code.id, False):
            return None
        if len(lines) < len(loop) or any(a is not b for a, b in zip(lines[len(lines) - len(loop):], loop)):
            return None
        if sum(1 for node in pyast.walk_all(loop) if isinstance(node, ast.stmt) and _sets(node, code.id, True)) != 1:
            return None
        return loop

    def assign(self, src: Source, name: str) -> None:
        """`name = <whether it holds>`."""
        if self.cost_free:
            src.add(pyast.assign(pyast.name(name), self.code))
            return
        src.add(pyast.assign(pyast.name(name), pyast.false()))
        with self.holds(src):
            src.add(pyast.assign(pyast.name(name), pyast.true()))


def _sets(stmt: ast.AST, flag: str, value: bool) -> bool:
    """Whether `stmt` is `flag = value`."""
    return (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], flag)
            and isinstance(stmt.value, ast.Constant) and stmt.value.value is value)


def _found(loop: tuple[ast.stmt, ...], flag: str) -> ast.stmt:
    """The statement `flag = True` of the loop."""
    return next(node for node in pyast.walk_all(loop) if isinstance(node, ast.stmt) and _sets(node, flag, True))


@contextmanager
def all_hold(src: Source, *conditions: Optional[Condition]) -> Iterator[None]:
    """Open blocks for several conditions (None: none to ask) in order."""
    with ExitStack() as stack:
        for condition in conditions:
            if condition is not None:
                stack.enter_context(condition.holds(src))
        yield


def _size(node: ast.AST) -> tuple[int, int]:
    """A BoolOp's operands and a Compare's operators, with the kinds of the first
    two operands: cheap to tell, equal for equal trees."""
    if isinstance(node, ast.BoolOp):
        return len(node.values), hash((type(node.values[0]), type(node.values[1])))
    if isinstance(node, ast.Compare):
        return len(node.ops), hash((type(node.left), type(node.comparators[0])))
    return 0, 0
