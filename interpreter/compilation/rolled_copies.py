"""A lister's copies of one action for each site of a fixed set, asked only at the
sites of the owner their guard names, in one loop.

An action `for each c in SET` over sites is compiled once per value (action_values.py);
where its `where` asks first that the piece on `c` is the player's, each copy's
guard and placement come out as

    l1 = (b[3] or k0)[0] == p and <rest about site 3>
    l2 = (b[7] or k0)[0] == p and <rest about site 7>
    ...
    if l1:
        <body about site 3, case 12>
    if l2:
        <body about site 7, case 13>
    ...

— a guard a site for every site of the set (52 a listing for a deck), though the
player holds a few of them. Where the copies differ only by whole numbers (the site,
the case's number, the value shown in the code), the guards read nothing the bodies
write and cannot fail (reads of a site's piece or the empty piece, of a variable at
a fixed place, arithmetic without division, comparisons), the run becomes

    for l9 in sorted(o[p]):            (the sites of the set ascending: the copies' order)
        l10 = k5[l9]                   (the copy made for that site, -1 for none)
        if l10 >= 0 and <guard with l9 for the site>:
            <body with l9 for the site, k6[l10] for a number that differs>

A site the player holds no piece on fails its guard's first test (the empty piece's
owner is -1; another player's is not p), so the copies left out are copies that list
nothing; the same bodies run in the same order, and a guard asked next to its body
rather than before every body gives the same answer (the bodies leave what it reads
alone). Where the set is every site of the board in order the index is the site.
"""
from __future__ import annotations

import ast as py
import re
from typing import Any, Optional, Sequence

from ..runtime.pieces import OWNER
from . import pyast
from .source import Source

# Fewer copies than this are left as they are (a sort of the owner's sites costs more).
MIN_COPIES = 8
_NUMBER = re.compile(r"Constant\(value=(-?\d+)\)")
# What a guard may be made of to be asked at any time without failing (besides the reads below).
_SAFE_NODES = (py.BoolOp, py.And, py.Or, py.Compare, py.Eq, py.NotEq, py.Lt, py.LtE, py.Gt, py.GtE, py.BinOp,
               py.Add, py.Sub, py.Mult, py.UnaryOp, py.USub, py.Not, py.Name, py.Constant, py.Load)
# The registers a lister's body must leave alone for a guard to read them later (registers.py).
_POSITION = frozenset({"s", "b", "o", "v"})


def copies_rolled(src: Source, body: list[py.stmt], n_sites: int) -> list[py.stmt]:
    """`body` (a lister's, registers not loaded yet) with each run of copies (module
    docstring) listed by one loop over their owner's sites; else `body`."""
    start = 0
    while start < len(body):
        found = _run_at(src, body, start)
        if found is None:
            start += 1
            continue
        first_if, count = found
        rolled = _rolled(src, body, start, first_if, count, n_sites)
        if rolled is None:
            start += 1
            continue
        body = rolled
        start += 1
    return body


def _run_at(src: Source, body: list[py.stmt], start: int) -> Optional[tuple[int, int]]:
    """Where the `if`s of a run of guards starting at `start` begin, and how many
    copies there are: guards `lN = ...` one after the other, then `if lN:` in the
    same order, one after the other, each guard's local named nowhere else."""
    guards: list[str] = []
    i = start
    while i < len(body) and _guard_local(body[i]) is not None:
        guards.append(_guard_local(body[i]))  # type: ignore[arg-type]
        i += 1
    if len(guards) < MIN_COPIES or len(set(guards)) < len(guards):
        return None
    for first_if in range(i, len(body) - len(guards) + 1):
        if _tests(body[first_if], guards[0]):
            break
    else:
        return None
    if not all(_tests(body[first_if + k], g) for k, g in enumerate(guards)):
        return None
    if any(pyast.uses(body, g) != 2 for g in guards):
        return None
    return first_if, len(guards)


def _guard_local(stmt: py.stmt) -> Optional[str]:
    if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name) \
            and stmt.targets[0].id.startswith("l"):
        return stmt.targets[0].id
    return None


def _tests(stmt: py.stmt, local: str) -> bool:
    return isinstance(stmt, py.If) and pyast.is_name(stmt.test, local) and not stmt.orelse


def _rolled(src: Source, body: list[py.stmt], start: int, first_if: int, count: int,
            n_sites: int) -> Optional[list[py.stmt]]:
    guards = [body[start + k].value for k in range(count)]  # type: ignore[attr-defined]
    bodies = [body[first_if + k].body for k in range(count)]  # type: ignore[attr-defined]
    between = body[start + count:first_if]
    shapes = [_shape([py.Expr(value=g), *b]) for g, b in zip(guards, bodies)]
    if any(shape != shapes[0][0] for shape, _ in shapes):
        return None
    owned = _owner_test(src, guards[0])
    if owned is None:
        return None
    owner, empty = owned
    sites = [_owner_site(g, empty) for g in guards]
    if any(s is None for s in sites) or list(sites) != sorted(set(sites)):  # type: ignore[type-var]
        return None
    after = [*between, *(s for b in bodies for s in b)]
    written = set().union(*(pyast.stored_names(s) for s in after))
    if pyast.names_in(guards) & written or owner in written or _changes_position(after) \
            or not all(_safe(g, empty, len(src.namespace[empty])) for g in guards):
        return None
    numbers = list(zip(*(values for _, values in shapes)))  # per place, its number in each copy
    site, index = pyast.name(src.fresh("l")), pyast.name(src.fresh("l"))
    identity = sites == list(range(n_sites))
    picked = site if identity else index

    def place(values: tuple[int, ...]) -> Optional[py.expr]:
        if len(set(values)) == 1:
            return None
        if list(values) == sites:
            return site
        if list(values) == list(range(count)):
            return picked
        return pyast.sub(src.const(values), picked)

    places = [place(values) for values in numbers]
    test, *inner = _numbers_replaced([py.Expr(value=guards[0]), *bodies[0]], places)
    loop_body: list[py.stmt]
    if identity:
        loop_body = [pyast.if_(test.value, inner)]  # type: ignore[attr-defined]
    else:
        where = [-1] * n_sites
        for k, s in enumerate(sites):
            where[s] = k  # type: ignore[index]
        loop_body = [pyast.assign(index, pyast.sub(src.const(tuple(where)), site)),
                     pyast.if_(pyast.and_(pyast.compare(index, ">=", pyast.num(0)), test.value), inner)]  # type: ignore[attr-defined]
    loop = pyast.for_(site, pyast.helper("sorted", pyast.sub(pyast.name("o"), pyast.name(owner))), loop_body)
    return [*body[:start], *between, loop, *body[first_if + count:]]


def _shape(stmts: Sequence[py.stmt]) -> tuple[str, tuple[int, ...]]:
    """The statements' structure with their whole numbers left out, and the numbers
    in the order the structure writes them."""
    text = "".join(py.dump(s) for s in stmts)
    return _NUMBER.sub("Constant(value=#)", text), tuple(int(n) for n in _NUMBER.findall(text))


def _numbers_replaced(stmts: Sequence[py.stmt], places: Sequence[Optional[py.expr]]) -> list[py.stmt]:
    """`stmts` with their n-th whole number (in `py.dump`'s order) replaced by
    `places[n]` where that is not None."""
    counter = iter(places)

    def rebuilt(node: Any) -> Any:
        if isinstance(node, list):
            return [rebuilt(item) for item in node]
        if not isinstance(node, py.AST):
            return node
        if isinstance(node, py.Constant) and type(node.value) is int:
            replacement = next(counter)
            return node if replacement is None else replacement
        fields = {f: rebuilt(getattr(node, f)) for f in node._fields if hasattr(node, f)}
        return type(node)(**fields)

    return [rebuilt(s) for s in stmts]


def _owner_test(src: Source, guard: py.expr) -> Optional[tuple[str, str]]:
    """The owner a guard asks first the piece on its site to be (`(b[S] or E)[0] ==
    q`, E the empty piece), and E's name; None for any other guard."""
    first = guard.values[0] if isinstance(guard, py.BoolOp) and isinstance(guard.op, py.And) else guard
    if not (isinstance(first, py.Compare) and len(first.ops) == 1 and isinstance(first.ops[0], py.Eq)
            and isinstance(first.comparators[0], py.Name) and isinstance(first.left, py.Subscript)
            and _is_number(first.left.slice, OWNER) and isinstance(first.left.value, py.BoolOp)
            and isinstance(first.left.value.op, py.Or) and len(first.left.value.values) == 2):
        return None
    empty = first.left.value.values[1]
    if not isinstance(empty, py.Name):
        return None
    piece = src.namespace.get(empty.id)
    if not (isinstance(piece, tuple) and piece and piece[OWNER] == -1):
        return None
    return first.comparators[0].id, empty.id


def _owner_site(guard: py.expr, empty: str) -> Optional[int]:
    """The site whose owner a guard (of `_owner_test`'s shape) asks about."""
    first = guard.values[0] if isinstance(guard, py.BoolOp) else guard
    read = first.left.value.values[0]  # type: ignore[attr-defined]
    if isinstance(read, py.Subscript) and pyast.is_name(read.value, "b") and isinstance(read.slice, py.Constant) \
            and type(read.slice.value) is int:
        return read.slice.value
    return None


def _changes_position(stmts: Sequence[py.stmt]) -> bool:
    """Whether `stmts` may write the position: an entry or attribute stored or
    deleted, or a call handed one of the position's registers."""
    for node in pyast.walk_all(stmts):
        if isinstance(node, (py.Subscript, py.Attribute)) and not isinstance(node.ctx, py.Load):
            return True
        if isinstance(node, py.Call) and any(isinstance(a, py.Name) and a.id in _POSITION for a in node.args):
            return True
    return False


def _safe(node: py.AST, empty: str, length: int) -> bool:
    """Whether asking `node` cannot fail nor change anything: reads at a fixed place
    of a site's piece or the empty piece (`empty`, as long as every piece), of a
    variable, whole numbers and flags compared, added, subtracted, multiplied."""
    if isinstance(node, py.Subscript):
        return _safe_read(node, empty, length)
    if not isinstance(node, _SAFE_NODES):
        return False
    if isinstance(node, py.Constant) and type(node.value) not in (int, bool):
        return False
    return all(_safe(child, empty, length) for child in py.iter_child_nodes(node))


def _safe_read(node: py.Subscript, empty: str, length: int) -> bool:
    if not (isinstance(node.slice, py.Constant) and type(node.slice.value) is int and node.slice.value >= 0):
        return False
    if pyast.is_name(node.value, "v"):
        return True
    piece = node.value
    return (node.slice.value < length and isinstance(piece, py.BoolOp) and isinstance(piece.op, py.Or)
            and len(piece.values) == 2 and isinstance(piece.values[0], py.Subscript)
            and pyast.is_name(piece.values[0].value, "b") and isinstance(piece.values[0].slice, py.Constant)
            and type(piece.values[0].slice.value) is int and pyast.is_name(piece.values[1], empty))


def _is_number(node: py.AST, value: int) -> bool:
    return isinstance(node, py.Constant) and type(node.value) is int and node.value == value
