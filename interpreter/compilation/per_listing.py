"""What no candidate changes, worked out once per listing.

A lister's `where` conditions are asked in its loops: per piece, per candidate.
A part of one that loops (a flood, a quantifier over the board, `pieces ...
where`) yet reads only the position — not the piece, `from`, `to`, a loop's
element, a define's parameter, `it` — gives the same answer every time it is
asked while the decision lists its actions (nothing changes the position
then: prefilters.py). In lowered mode such a part is kept in a local of the
lister the first time it is asked (`if l9 is None: ...; l9 = VALUE`), and read
from it after: one local per distinct code, shared by every condition of the
lister that works out the same thing (a flood from a fixed site that each action
of each piece asks), set to None at the lister's start
(`first_statements`, as the owner masks are: prefilters.OwnerMasks).
A table of answers noted while the lister lists (`table`: the cut points of a
region, expr_connected.ConnectedFamily.count_without) is such a local too.
The sites a drop or select chooses among, when loops work them out and they
read the position alone, are kept whole (`kept_whole`), behind the action's
guard (ActionCompiler._chosen_sites): worked out by the first drop offered,
read by every other drop naming them alike, never worked out when none is.

What "reads only the position" means is decided on the generated statements
themselves, not on the rules' spelling: every name they read before they set it
is a register of the position (`s`, `b`, `o`, `v`, `p`, `q`), a constant, a
helper, a builtin, an owner mask made once per listing or another such local;
they contain no `return`, no `break`/`continue` out of their own loops, no
function. Asked at the same place as before (the first time only), so a part
that could fail fails where it did. Only a listing condition is compiled so
(`ActionCompiler._where_levels`): a `forbid result` check or an `after`
condition reads the position after the move and never gets a listing's local.
"""
from __future__ import annotations

import ast as py
from typing import Iterable, Iterator, Optional, Sequence

from . import pyast
from .code import Code, Stmts
from .source import BUILTIN_NAMES, Source
from .types import Dep

# The registers of a lister that hold the position (registers.py): set once, before its loops.
_POSITION = frozenset({"s", "b", "o", "v", "p", "q"})
# What a part worked out once per listing may depend on (types.Dep): the position only.
_POSITION_DEPS = frozenset({Dep.BOARD})
# Helpers that go over every player's pieces (`count(pieces)`): a call is a loop.
_LOOPING_HELPERS = frozenset({"h_piece_count"})


class ListingCache:
    """The locals holding parts worked out once per listing (see the module docstring)."""

    def __init__(self, src: Source):
        self.src = src
        self.names: dict[str, str] = {}  # the part's code (its own names numbered) -> its local

    def kept(self, lines: Stmts, c: Code, sink: Stmts, masks: Iterable[str]) -> Code:
        """`c` (after `lines`) as read from a local worked out once per listing when
        it may be; else `lines` go to `sink` and `c` is as it was."""
        if not self._worth_keeping(lines, c) or not self._reads_position_only(lines, c.code, masks):
            sink.extend(lines)
            return c
        return self._keep(lines, c, sink)

    def kept_whole(self, lines: Stmts, c: Code, sink: Stmts, masks: Iterable[str]) -> Code:
        """`c` (after `lines`, statements it needs) kept whole in a local when it reads
        the position alone: the sites a drop or select chooses among, worked out by
        loops, which several actions of a decision may name alike (a define that each
        drop names: worked out once, the actions after the first reading the local).
        Else `lines` go to `sink` and `c` is as it was."""
        if not lines or c.is_const or c.deps - _POSITION_DEPS or c.per_player is not None \
                or not self._reads_position_only(lines, c.code, masks):
            sink.extend(lines)
            return c
        return self._keep(lines, c, sink)

    def _keep(self, lines: Stmts, c: Code, sink: Stmts) -> Code:
        key = code_key(lines, c.code)
        name = self.names.get(key)
        if name is None:
            name = self.names[key] = self.src.fresh("l")
        local = pyast.name(name)
        sink.append(pyast.if_(pyast.is_none(local), list(lines) + [pyast.assign(local, c.code)]))
        return Code(local, c.type, c.deps, cost=c.cost, size=c.size)  # (the cost as it was: the same decisions)

    def table(self, key: str) -> py.Name:
        """A local of the lister for a table of answers noted while it lists
        (None at its start, like the kept parts'), one per `key`."""
        name = self.names.get(key)
        if name is None:
            name = self.names[key] = self.src.fresh("l")
        return pyast.name(name)

    def reads_position_only(self, lines: Stmts, code: py.expr, masks: Iterable[str], given: str) -> bool:
        """Whether `code` (after `lines`) reads the position alone besides the name `given`."""
        return self._reads_position_only(lines, code, [*masks, given])

    def read_in(self, nodes: Iterable[py.AST]) -> bool:
        """Whether `nodes` read a local of a part kept once per listing."""
        return bool(pyast.names_in(nodes) & set(self.names.values()))

    def first_statements(self, read: set[str]) -> list[py.stmt]:
        """The first statements of a lister that reads the names `read`: its locals empty."""
        return [pyast.assign(pyast.name(name), pyast.none()) for name in self.names.values() if name in read]

    # ------------------------------------------------------------ what may be kept
    def _worth_keeping(self, lines: Stmts, c: Code) -> bool:
        """A part with a loop that goes to its end (no `break`: a flood, a count,
        `pieces ... where`, a helper going over every piece; not an `exists` that
        may stop at the first element), outside the parts it holds already kept,
        reading the position alone as far as its dependencies say, and not a
        constant."""
        if c.is_const or c.deps - _POSITION_DEPS or c.per_player is not None:
            return False
        kept = set(self.names.values())

        def loops(stmts: Iterable[py.stmt]) -> bool:
            for stmt in stmts:
                if isinstance(stmt, (py.For, py.While)) and not _breaks(stmt.body):
                    return True
                if not _is_kept_block(stmt, kept) and loops(_blocks_of(stmt)):
                    return True
            return False
        return loops(lines) or bool(pyast.names_in([py.Expr(c.code)]) & _LOOPING_HELPERS)

    def _reads_position_only(self, lines: Stmts, code: py.expr, masks: Iterable[str]) -> bool:
        allowed = _POSITION | set(self.names.values()) | set(masks)
        namespace = self.src.namespace
        for name in _read_before_set(lines, code):
            if name not in allowed and name not in namespace and name not in BUILTIN_NAMES \
                    and name not in self.src.later:
                return False
        return _self_contained(lines)


def _is_kept_block(stmt: py.stmt, kept: set[str]) -> bool:
    """`if l9 is None: ...` of a part already kept."""
    return (isinstance(stmt, py.If) and isinstance(stmt.test, py.Compare) and isinstance(stmt.test.left, py.Name)
            and stmt.test.left.id in kept and not stmt.orelse)


def _breaks(body: list[py.stmt]) -> bool:
    """Whether a loop with this body may stop early (a `break` not in a loop inside it)."""
    return any(isinstance(stmt, py.Break) or not isinstance(stmt, (py.For, py.While)) and _breaks(_blocks_of(stmt))
               for stmt in body)


def _blocks_of(stmt: py.stmt) -> list[py.stmt]:
    """The statements of the blocks nested in `stmt`."""
    return [inner for field in ("body", "orelse") for inner in getattr(stmt, field, None) or ()
            if isinstance(inner, py.stmt)]


def code_key(lines: Sequence[py.stmt], code: py.expr) -> str:
    """The code of a part with the names it sets numbered in order of appearance:
    two parts with one key work out the same value from the same position."""
    renamed: dict[str, str] = {}
    for node in pyast.walk_all([*lines, py.Expr(code)]):
        if isinstance(node, py.Name) and isinstance(node.ctx, py.Store) and node.id not in renamed:
            renamed[node.id] = f"_{len(renamed)}"
    module = py.Module(body=[*lines, py.Expr(code)], type_ignores=[])

    # (the part's text with the names renamed: its nodes rebuilt only along the way
    # to a renamed name, not the whole part copied first)
    def rename(node: py.AST) -> Optional[py.AST]:
        if isinstance(node, py.Name) and node.id in renamed:
            return py.Name(id=renamed[node.id], ctx=node.ctx)
        return None
    return py.dump(pyast.replace_nodes(module, rename))


def _self_contained(lines: Stmts) -> bool:
    """No `return`, no function or lambda, no `break`/`continue` out of its own loops."""
    def fine(stmts: list[py.stmt], in_loop: bool) -> bool:
        for stmt in stmts:
            if isinstance(stmt, (py.Return, py.FunctionDef, py.AsyncFunctionDef, py.ClassDef, py.Global,
                                 py.Nonlocal, py.Yield, py.Try, py.With, py.Delete)):
                return False
            if isinstance(stmt, (py.Break, py.Continue)) and not in_loop:
                return False
            loop = isinstance(stmt, (py.For, py.While))
            for field in ("body", "orelse"):
                block = getattr(stmt, field, None)
                if isinstance(block, list) and block and isinstance(block[0], py.stmt):
                    if not fine(block, in_loop or (loop and field == "body")):
                        return False
        return True
    # (the whole walked once, not each nested block again with the statement around it)
    return fine(list(lines), False) and not any(isinstance(n, (py.Lambda, py.Yield, py.YieldFrom, py.Await))
                                                for n in pyast.walk_all(lines))


def _read_before_set(lines: Stmts, code: Optional[py.expr]) -> Iterator[str]:
    """The names read (somewhere) before anything in `lines` sets them, in the
    order Python runs them (a value before the name it is assigned to, a loop's
    collection before its variable); a name set in one branch counts as set after it."""
    seen: set[str] = set()

    def expr(node: py.AST) -> Iterator[str]:
        if isinstance(node, py.Name):
            if isinstance(node.ctx, py.Load) and node.id not in seen:
                yield node.id
            elif isinstance(node.ctx, py.Store):
                seen.add(node.id)
            return
        if isinstance(node, py.NamedExpr):
            yield from expr(node.value)
            seen.add(node.target.id)
            return
        if isinstance(node, (py.ListComp, py.SetComp, py.GeneratorExp, py.DictComp)):
            for gen in node.generators:
                yield from expr(gen.iter)
                yield from expr(gen.target)
                for test in gen.ifs:
                    yield from expr(test)
            if isinstance(node, py.DictComp):
                yield from expr(node.key)
                yield from expr(node.value)
            else:
                yield from expr(node.elt)
            return
        for child in pyast.child_nodes(node):
            yield from expr(child)

    def stmts(block: list[py.stmt]) -> Iterator[str]:
        for stmt in block:
            if isinstance(stmt, py.Assign):
                yield from expr(stmt.value)
                for target in stmt.targets:
                    yield from expr(target)
            elif isinstance(stmt, py.AugAssign):
                yield from expr(stmt.value)
                if isinstance(stmt.target, py.Name):
                    if stmt.target.id not in seen:
                        yield stmt.target.id
                else:
                    yield from expr(stmt.target)
            elif isinstance(stmt, py.AnnAssign):
                if stmt.value is not None:
                    yield from expr(stmt.value)
                yield from expr(stmt.target)
            elif isinstance(stmt, py.For):
                yield from expr(stmt.iter)
                yield from expr(stmt.target)
                yield from stmts(stmt.body)
                yield from stmts(stmt.orelse)
            elif isinstance(stmt, (py.While, py.If)):
                yield from expr(stmt.test)
                yield from stmts(stmt.body)
                yield from stmts(stmt.orelse)
            else:
                for child in pyast.child_nodes(stmt):
                    if isinstance(child, py.stmt):
                        yield from stmts([child])
                    else:
                        yield from expr(child)

    yield from stmts(list(lines))
    if code is not None:
        yield from expr(code)


__all__ = ["ListingCache", "code_key"]
