"""A search asked again: the second of two identical first-match loops reads
the first's answer (a pass over the generated functions).

A lowered `beyond(X, D, COND)` (compilation/expr_sites.py) is a first-match
loop — `t = -1` and `for v in R: if C: t = v; break`. A definition that asks the
same search twice — `beyond(first(k, d), d, ...)` after `first(k, d)`, a define
named in another — gets the loop twice; where the second is sure to run after
the first with nothing between that can change what it reads, it becomes `t2 =
t` (nothing is recognised but the kinds of node).

Exact where:
- both loops have that shape, the same iterable R and the same condition C (the
  loop variable aside), and R and C are made of names, constants, subscripts,
  comparisons, `not`/`and`/`or`, arithmetic and conditional expressions alone
  (no call, no `:=`, no attribute): asking them changes nothing, and the second
  asks nothing the first did not ask without failing;
- the second is in the block of the first, after it, or in a branch of an `if`
  after it (at any depth of `if`s), never in a loop's body or a handler;
- no statement between them (the tests of the `if`s on the way included) gives
  a value to a name R or C reads or to the first's answer, or writes a
  subscript or an attribute, or calls anything but `append` on a list the
  function made (`x = []` its only assignments, read only to append to or to be
  returned) — a list of its own, so the board and the tables the search reads
  are left as they were;
- the second's loop variable is named nowhere else in the function (its value
  after the loop is not read).

Trees are never changed in place (a block may stand in several functions).
"""
from __future__ import annotations

import ast
from functools import cached_property
from typing import Optional, Sequence

from . import pyast
from .source import Source

# Node kinds a search's iterable and condition may be built of (they change nothing).
_PLAIN = (ast.Name, ast.Constant, ast.Subscript, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.IfExp,
          ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)

# key of the search -> (its answer's name, the names it reads)
_Known = dict[str, tuple[str, frozenset[str]]]


def share_scans(src: Source) -> None:
    """Every generated function of `src` with a repeated first-match loop reading
    the first's answer (the module's docstring; `src.functions` rewritten)."""
    functions = []
    for function in src.functions:
        if isinstance(function, ast.FunctionDef):
            sharing = _Sharing(function)
            body, _ = sharing.block(function.body, {})
            if sharing.changed:
                function = ast.FunctionDef(name=function.name, args=function.args, body=body, decorator_list=[],
                                           returns=None, type_comment=None, lineno=0, col_offset=0)
        functions.append(function)
    src.functions = functions


def _scan(first: ast.stmt, second: ast.stmt) -> Optional[tuple[str, str, str, ast.expr, ast.expr]]:
    """(answer, loop variable, key, iterable, condition) where `first` and
    `second` are `t = -1` and `for v in R: if C: t = v; break`."""
    if not (isinstance(first, ast.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], ast.Name)
            and isinstance(second, ast.For) and isinstance(second.target, ast.Name) and not second.orelse
            and len(second.body) == 1):
        return None
    value = first.value
    if not (isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub)
            and isinstance(value.operand, ast.Constant) and value.operand.value == 1
            or isinstance(value, ast.Constant) and value.value == -1):
        return None
    answer, var = first.targets[0].id, second.target.id
    test = second.body[0]
    if not (isinstance(test, ast.If) and not test.orelse and len(test.body) == 2
            and isinstance(test.body[1], ast.Break) and isinstance(assign := test.body[0], ast.Assign)
            and len(assign.targets) == 1 and pyast.is_name(assign.targets[0], answer)
            and pyast.is_name(assign.value, var) and answer != var):
        return None
    iterable, condition = second.iter, test.test
    if not all(isinstance(node, _PLAIN) for part in (iterable, condition) for node in pyast.walk(part)):
        return None
    if var in pyast.name_counts(iterable) or answer in pyast.name_counts(condition) \
            or answer in pyast.name_counts(iterable):
        return None
    renamed = pyast.replace_nodes(condition, pyast.renaming(var, " v"))
    return answer, var, pyast.key(iterable) + "|" + pyast.key(renamed), iterable, condition


class _Sharing:
    def __init__(self, function: ast.FunctionDef) -> None:
        self.function = function
        self.changed = False

    # (what follows is read only once a search is met: most functions have none)
    @cached_property
    def counts(self) -> dict[str, int]:
        return pyast.name_counts(self.function)

    @cached_property
    def own_lists(self) -> frozenset[str]:
        """The names whose every assignment is `x = []`, read only to append to or to
        be returned: lists of the function's own."""
        function = self.function
        made: set[int] = set()
        for node in pyast.walk(function):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and isinstance(node.value, ast.List) and not node.value.elts:
                made.add(id(node.targets[0]))
        lists: dict[str, bool] = {arg.arg: False for arg in pyast.walk(function) if isinstance(arg, ast.arg)}
        for node in pyast.walk(function):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                lists[node.id] = lists.get(node.id, True) and id(node) in made
        # (read only to append to or to be returned: never another name for the board or a table)
        appended = {id(node.func.value) for node in pyast.walk(function)
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "append" and isinstance(node.func.value, ast.Name)}
        returned = {id(node) for ret in pyast.walk(function) if isinstance(ret, ast.Return) and ret.value is not None
                    for node in pyast.walk(ret.value)}
        for node in pyast.walk(function):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and id(node) not in appended \
                    and id(node) not in returned:
                lists[node.id] = False
        return frozenset(n for n, own in lists.items() if own)

    def block(self, stmts: Sequence[ast.stmt], known: _Known) -> tuple[list[ast.stmt], _Known]:
        """`stmts` rewritten, and what is known after them (`known`: before)."""
        known = dict(known)
        out: list[ast.stmt] = []
        i = 0
        while i < len(stmts):
            stmt = stmts[i]
            scan = _scan(stmt, stmts[i + 1]) if i + 1 < len(stmts) else None
            if scan is not None:
                answer, var, key, iterable, condition = scan
                earlier = known.get(key)
                loop = stmts[i + 1]
                if earlier is not None and earlier[0] != answer and self.counts.get(var, 0) == pyast.uses([loop], var):
                    out.append(pyast.assign(pyast.name(answer), pyast.name(earlier[0])))
                    self.changed = True
                    _forget(known, frozenset((answer,)))
                else:
                    out.extend((stmt, loop))
                    _forget(known, frozenset((answer, var)))
                    reads = frozenset(pyast.name_counts(iterable)) | (frozenset(pyast.name_counts(condition)) - {var})
                    known[key] = (answer, reads)
                i += 2
                continue
            if isinstance(stmt, ast.If):
                self._settle(stmt.test, known)
                body, after_body = self.block(stmt.body, known)
                orelse, after_else = self.block(stmt.orelse, known)
                if any(a is not b for a, b in zip(body, stmt.body)) or len(body) != len(stmt.body) \
                        or any(a is not b for a, b in zip(orelse, stmt.orelse)) or len(orelse) != len(stmt.orelse):
                    stmt = ast.If(test=stmt.test, body=body, orelse=orelse)
                known = {k: v for k, v in known.items() if after_body.get(k) == v and after_else.get(k) == v}
            elif isinstance(stmt, ast.Try) and not stmt.handlers and not stmt.orelse:
                # (the body runs after what is before it; the final block may follow any part of it)
                body, _ = self.block(stmt.body, known)
                final, _ = self.block(stmt.finalbody, {})
                if len(body) != len(stmt.body) or any(a is not b for a, b in zip(body, stmt.body)) \
                        or len(final) != len(stmt.finalbody) or any(a is not b for a, b in zip(final, stmt.finalbody)):
                    stmt = ast.Try(body=body, handlers=[], orelse=[], finalbody=final)
                self._settle(stmt, known)
            elif isinstance(stmt, (ast.For, ast.While)):
                body, _ = self.block(stmt.body, {})
                orelse, _ = self.block(stmt.orelse, {})
                if len(body) != len(stmt.body) or any(a is not b for a, b in zip(body, stmt.body)) \
                        or len(orelse) != len(stmt.orelse) or any(a is not b for a, b in zip(orelse, stmt.orelse)):
                    if isinstance(stmt, ast.For):
                        stmt = ast.For(target=stmt.target, iter=stmt.iter, body=body, orelse=orelse, type_comment=None)
                    else:
                        stmt = ast.While(test=stmt.test, body=body, orelse=orelse)
                self._settle(stmt, known)
            else:
                self._settle(stmt, known)
            out.append(stmt)
            i += 1
        return out, known

    def _settle(self, node: ast.AST, known: _Known) -> None:
        """Forget in `known` what `node` may change."""
        if not known:
            return
        stored: set[str] = set()
        for part in pyast.walk(node):
            if isinstance(part, (ast.Subscript, ast.Attribute)) and isinstance(part.ctx, (ast.Store, ast.Del)):
                known.clear()
                return
            if isinstance(part, ast.Call):
                if not (isinstance(part.func, ast.Attribute) and part.func.attr == "append"
                        and isinstance(part.func.value, ast.Name) and part.func.value.id in self.own_lists):
                    known.clear()
                    return
                stored.add(part.func.value.id)  # (the list changed: a search reading it is forgotten)
            if isinstance(part, (ast.Lambda, ast.Global, ast.Nonlocal, ast.Delete)):
                known.clear()
                return
            if isinstance(part, ast.Name) and isinstance(part.ctx, (ast.Store, ast.Del)):
                stored.add(part.id)
        if stored:
            _forget(known, frozenset(stored))


def _forget(known: _Known, stored: frozenset[str]) -> None:
    for key in [k for k, (answer, reads) in known.items() if answer in stored or reads & stored]:
        del known[key]
