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

from typing import Any, Iterator, Optional, Sequence

from ..parsing import ast
from ..parsing.visit import children, nodes_in, nodes_of, statements_of
from .diagnostics import Diagnostic

_NESTING = (ast.IfStmt, ast.ForEachStmt, ast.RepeatStmt)
_LOOPS = (ast.ForEachStmt, ast.RepeatStmt)
_ADVICE = ("a local cannot be changed, only hidden: keep the value in a variable (format.md 2.11), "
           "or compute it in one expression (count(...))")


def lost_let_warnings(items: Any) -> list[Diagnostic]:
    """Warnings for every nested `let` whose value is lost (see the module's docstring)."""
    trees = [items.phases, list(items.decisions.values()), list(items.chances.values()),
             list(items.procedures.values())]
    found: _Found = {}
    for block in _outer_blocks(trees):
        _check_block(block, {}, found)
    return [_warning(stmt, earlier, consequences) for stmt, earlier, consequences in found.values()]


# a nested `let` (by id) -> (it, the `let` it hides, what the author loses)
_Found = dict[int, tuple[ast.LetStmt, ast.LetStmt, list[str]]]


def _note(found: _Found, stmt: ast.LetStmt, earlier: ast.LetStmt, consequence: str) -> None:
    entry = found.setdefault(id(stmt), (stmt, earlier, []))
    if consequence not in entry[2]:
        entry[2].append(consequence)


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
    if isinstance(stmt, (ast.ForEachStmt, ast.RepeatStmt)):
        return [stmt.body]
    return []


def _check_block(block: Sequence[ast.Stmt], outer: dict[str, ast.LetStmt], found: _Found,
                 loop: Optional[ast.Stmt] = None) -> None:
    """Walk `block`, whose enclosing blocks bind the locals `outer` (by their last
    `let`); `loop` is the loop statement whose body `block` is, if it is one."""
    bound = dict(outer)
    for index, stmt in enumerate(block):
        if isinstance(stmt, ast.LetStmt):
            earlier = outer.get(stmt.name)
            if earlier is not None and bound.get(stmt.name) is earlier:
                _judge(stmt, earlier, loop, found)
            bound[stmt.name] = stmt
        for nested in _nested_blocks(stmt):
            visible = dict(bound)
            if isinstance(stmt, ast.ForEachStmt):
                visible.pop(stmt.var, None)  # (the loop's own name hides the local inside)
            _check_block(nested, visible, found, stmt if isinstance(stmt, _LOOPS) else loop)
            _after_block(nested, visible, block[index + 1:], found)


def _judge(stmt: ast.LetStmt, earlier: ast.LetStmt, loop: Optional[ast.Stmt], found: _Found) -> None:
    """A nested `let` in a loop's body (or an `if` in it) that reads its own name:
    a running total."""
    if loop is not None and _reads(stmt.value, stmt.name):
        _note(found, stmt, earlier,
              f"in every round of the loop it starts again from the value of line {earlier.pos.line}")


def _after_block(nested: Sequence[ast.Stmt], bound: dict[str, ast.LetStmt], rest: Sequence[ast.Stmt],
                 found: _Found) -> None:
    """Nested `let`s of names bound outside that the statements after the nested
    block read (before the outer block binds them again)."""
    for stmt in statements_of(nested):
        if not isinstance(stmt, ast.LetStmt) or stmt.name not in bound:
            continue
        reader = _first_read(rest, stmt.name)
        if reader is not None:
            kept = bound[stmt.name].pos.line
            _note(found, stmt, bound[stmt.name],
                  f"the '{stmt.name}' read at line {reader.line} still has the value of line {kept}")


def _first_read(rest: Sequence[ast.Stmt], name: str) -> Optional[ast.Pos]:
    """Where `rest` first reads the local `name`, if before a `let` at its own level
    binds it again."""
    for stmt in rest:
        if isinstance(stmt, ast.LetStmt):
            if _reads(stmt.value, name):
                return _read_pos(stmt.value, name)
            if stmt.name == name:
                return None
            continue
        for node in nodes_in(list(children(stmt))):
            if _reads(node, name):
                return _read_pos(node, name)
    return None


def _reads(tree: Any, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in nodes_of(tree))


def _read_pos(tree: Any, name: str) -> ast.Pos:
    return next(n.pos for n in nodes_of(tree) if isinstance(n, ast.Name) and n.id == name)


def _warning(stmt: ast.LetStmt, earlier: ast.LetStmt, consequences: list[str]) -> Diagnostic:
    pos = stmt.pos
    message = (f"'let {stmt.name}' here makes a new local that ends with its block, "
               f"hiding the '{stmt.name}' of line {earlier.pos.line}: {'; '.join(consequences)}")
    return Diagnostic(pos.file, pos.line, pos.column, message, "warning", _ADVICE)
