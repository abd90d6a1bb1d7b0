"""A warning for a `let` whose value is lost: a local rebound inside a nested block.

A local cannot be assigned (format.md, "Variables and local names"): a `let` inside
an `if` or a loop makes a new local that ends with that block. An author who
writes

    let total = 0
    for each s in sites:
        let total = total + 1

expects `total` to count, and it does not: after the loop `total` is still 0, and
inside it every round starts again from 0. Nothing fails, so the rules play a
different game in silence. This check warns where a nested `let` rebinds a local of
an enclosing block and that local is read again after the nested block, or the
nested block is a loop body whose `let` reads the name it rebinds (a running
total): in both the nested value is what the author meant to keep.
"""
from __future__ import annotations

from bisect import bisect_left
from typing import Any, Iterator, Optional, Sequence

from ..parsing import ast
from ..parsing.visit import children, nodes_of, statements_of
from .diagnostics import Diagnostic

_LOOPS = (ast.ForEachStmt, ast.RepeatStmt)
_ADVICE = ("a local cannot be changed, only hidden: keep the value in a variable (format.md 2.11), "
           "or compute it in one expression (count(...))")


def lost_let_warnings(items: Any) -> list[Diagnostic]:
    """Warnings for every nested `let` whose value is lost (see the module's docstring)."""
    trees = [items.phases, list(items.decisions.values()), list(items.chances.values()),
             list(items.procedures.values())]
    walk = _Walk()
    for block in _outer_blocks(trees):
        walk.block(block, {}, None)
    return [_warning(stmt, earlier, consequences) for stmt, earlier, consequences in walk.found.values()]


def _outer_blocks(trees: Any) -> Iterator[list[ast.Stmt]]:
    """Every block of statements that is not nested in a statement (a case's body,
    a procedure's, `after each turn`, ...)."""
    for node in nodes_of(trees):
        if isinstance(node, ast.Stmt):
            continue
        for field_value in vars(node).values():
            if isinstance(field_value, list) and field_value and all(isinstance(s, ast.Stmt) for s in field_value):
                yield field_value


def _nested_blocks(stmt: ast.Stmt) -> list[list[ast.Stmt]]:
    if isinstance(stmt, ast.IfStmt):
        return [body for _, body in stmt.branches] + [stmt.otherwise]
    if isinstance(stmt, _LOOPS):
        return [stmt.body]
    return []


class _Walk:
    """One walk over the rules' blocks, gathering the lost `let`s."""

    def __init__(self) -> None:
        # a nested `let` (by id) -> (it, the `let` it hides, what the author loses)
        self.found: dict[int, tuple[ast.LetStmt, ast.LetStmt, list[str]]] = {}
        self._events: dict[int, dict[str, tuple[list[int], list[Optional[ast.Pos]]]]] = {}

    def block(self, block: Sequence[ast.Stmt], outer: dict[str, ast.LetStmt], loop: Optional[ast.Stmt]) -> None:
        """Walk `block`, whose enclosing blocks bind the locals `outer` (by their last
        `let`); `loop` is the loop whose body holds `block`, if one does."""
        bound = dict(outer)
        for index, stmt in enumerate(block):
            if isinstance(stmt, ast.LetStmt):
                earlier = outer.get(stmt.name)
                if earlier is not None and bound.get(stmt.name) is earlier and loop is not None \
                        and _reads(stmt.value, stmt.name):
                    self._note(stmt, earlier, "in every round of the loop it starts again "
                                              f"from the value of line {earlier.pos.line}")
                bound[stmt.name] = stmt
            for nested in _nested_blocks(stmt):
                visible = dict(bound)
                if isinstance(stmt, ast.ForEachStmt):
                    visible.pop(stmt.var, None)  # (the loop's own name hides the local inside)
                self.block(nested, visible, stmt if isinstance(stmt, _LOOPS) else loop)
                self._read_after(nested, visible, block, index + 1)

    def _read_after(self, nested: Sequence[ast.Stmt], bound: dict[str, ast.LetStmt],
                    block: Sequence[ast.Stmt], start: int) -> None:
        """Nested `let`s of names bound outside that `block` reads from `start` on,
        before a `let` of its own binds them again."""
        for stmt in statements_of(nested):
            if isinstance(stmt, ast.LetStmt) and stmt.name in bound:
                reader = self._first_read(block, start, stmt.name)
                if reader is not None:
                    kept = bound[stmt.name].pos.line
                    self._note(stmt, bound[stmt.name],
                               f"the '{stmt.name}' read at line {reader.line} still has the value of line {kept}")

    def _first_read(self, block: Sequence[ast.Stmt], start: int, name: str) -> Optional[ast.Pos]:
        """Where `block` first reads `name` from statement `start` on (None where a
        `let` at its own level binds it first). Each block's reads and rebindings
        are listed once, so that a long block asked again and again costs no more."""
        events = self._events.get(id(block))
        if events is None:
            events = self._events[id(block)] = _reads_and_rebindings(block)
        if name not in events:
            return None
        indices, positions = events[name]
        at = bisect_left(indices, start)
        return positions[at] if at < len(indices) else None

    def _note(self, stmt: ast.LetStmt, earlier: ast.LetStmt, consequence: str) -> None:
        entry = self.found.setdefault(id(stmt), (stmt, earlier, []))
        if consequence not in entry[2]:
            entry[2].append(consequence)


def _reads_and_rebindings(block: Sequence[ast.Stmt]) -> dict[str, tuple[list[int], list[Optional[ast.Pos]]]]:
    """For each name, the indices of the statements of `block` that read it (with
    the first read's position) or bind it with a `let` (None), in order."""
    events: dict[str, tuple[list[int], list[Optional[ast.Pos]]]] = {}

    def add(name: str, index: int, pos: Optional[ast.Pos]) -> None:
        indices, positions = events.setdefault(name, ([], []))
        if not indices or indices[-1] != index:
            indices.append(index)
            positions.append(pos)

    for index, stmt in enumerate(block):
        read = stmt.value if isinstance(stmt, ast.LetStmt) else list(children(stmt))
        for node in nodes_of(read):
            if isinstance(node, ast.Name):
                add(node.id, index, node.pos)
        if isinstance(stmt, ast.LetStmt):
            add(stmt.name, index, None)
    return events


def _reads(tree: Any, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in nodes_of(tree))


def _warning(stmt: ast.LetStmt, earlier: ast.LetStmt, consequences: list[str]) -> Diagnostic:
    pos = stmt.pos
    message = (f"'let {stmt.name}' here makes a new local that ends with its block, "
               f"hiding the '{stmt.name}' of line {earlier.pos.line}: {'; '.join(consequences)}")
    return Diagnostic(pos.file, pos.line, pos.column, message, "warning", _ADVICE)
