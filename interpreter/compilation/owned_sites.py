"""A lister's loop over every site that acts only where a neutral piece stands,
written as a loop over the neutral pieces' sites.

`select sites` with only an `onto neutral` case (a face-down piece to turn over),
or any landing over the whole board asking for a neutral piece first, is lowered
to a walk over all the board's sites, testing each one's occupant:

    for to in K:                 K: every site of the board, ascending
        tg = b[to]
        if tg is not None:
            if tg[0] < 0:        (the neutral owner, runtime/pieces.py)
                <body>

The body runs at the sites holding a neutral piece, in ascending order: exactly
the sites of `o[-1]` (State.occ keeps them, distinct), sorted. The loop becomes

    for to in sorted(o[-1]):
        tg = b[to]
        <body>

— a sort of the few neutral pieces' sites instead of a test of every site. Only
where nothing reads the loop's `to` or `tg` after it before setting them again
(their last values differ: the last site against the last neutral piece's).

A loop over one owner's pieces' sites (`select pieces of player ...` with an
`onto own` case) reads each site's occupant and asks whether it is there and
whose it is:

    for to in o[q]:
        if <filter>:             (none or several, reading nothing they could change)
            tg = b[to]
            if tg is not None:
                if tg[0] == q:
                    <body>

`o[q]` holds exactly the sites of q's pieces (State.occ): both tests hold, and the
body follows the read. The filters may only read (no `:=`, no call handed the
state, the board or the site lists), so nothing between the loop's head and the
tests can have moved a piece.
"""
from __future__ import annotations

import ast as py
from typing import Callable, Optional, Sequence

from ..runtime.pieces import KIND
from . import pyast
from .source import Source

# The neutral pieces' list in `State.occ` (its last).
_NEUTRAL_SITES = pyast.sub(pyast.name("o"), pyast.neg(pyast.num(1)))
# Whether a loop over every piece asking a kind whose pieces are always neutral
# walks the neutral pieces alone (off: for the tests comparing the two).
NEUTRAL_KIND_WALKS = True


def neutral_sites() -> py.expr:
    """`o[-1]`, the neutral pieces' sites, as a node of its own."""
    return pyast.sub(pyast.name("o"), pyast.neg(pyast.num(1)))


# The registers a call must not be handed for a filter to only read (registers.py).
_WRITABLE = frozenset({"s", "b", "o"})


def neutral_sites_walked(src: Source, body: list[py.stmt], n_sites: int) -> list[py.stmt]:
    """`body` (a lister's, registers not loaded yet) with its loops over every site
    that act only at neutral pieces walking the neutral pieces' sites; else `body`."""
    every_site = tuple(range(n_sites))
    found: list[py.For] = []
    kept: set[int] = set()
    _find(src, body, [], every_site, found, kept)
    for loop in found:
        if id(loop) not in kept:
            read, test = loop.body
            inner = test.body[0]  # type: ignore[attr-defined]
            # (every site walked holds a neutral piece: the tests hold)
            walked = pyast.for_(loop.target, pyast.helper("sorted", _NEUTRAL_SITES), [read, *inner.body])
            body = pyast.splice(body, loop, [walked])
    return body


def owner_tests_dropped(src: Source, body: list[py.stmt]) -> list[py.stmt]:
    """`body` (a lister's, registers not loaded yet) with the tests that a site of
    `o[q]` holds a piece of q dropped from its loops over `o[q]` (module docstring)."""
    def change(node: py.AST) -> Optional[py.AST]:
        if not (isinstance(node, py.For) and pyast.is_name(node.target, "to") and not node.orelse
                and isinstance(node.iter, py.Subscript) and pyast.is_name(node.iter.value, "o")
                and isinstance(node.iter.slice, py.Name)):
            return None
        inner = _owner_known(node.body, node.iter.slice.id)
        if inner is None:
            return None
        return py.For(target=node.target, iter=node.iter, body=_read_once(src, inner), orelse=[], type_comment=None)

    return pyast.replace_in(body, change)


def _owner_known(stmts: list[py.stmt], owner: str) -> Optional[list[py.stmt]]:
    """`stmts` (a loop's body over `o[owner]`) without the tests that `tg`, the
    piece at `to`, is there and is `owner`'s, under filters that only read; None
    where `stmts` have not that shape."""
    tg = pyast.name("tg")
    if len(stmts) == 1 and isinstance(stmts[0], py.If) and not stmts[0].orelse and _reads_only(stmts[0].test):
        inner = _owner_known(stmts[0].body, owner)
        return None if inner is None else [py.If(test=stmts[0].test, body=inner, orelse=[])]
    if len(stmts) != 2:
        return None
    read, present = stmts
    if not (pyast.same(read, pyast.assign(tg, pyast.sub(pyast.name("b"), pyast.name("to"))))
            and isinstance(present, py.If) and not present.orelse and pyast.same(present.test, pyast.is_not_none(tg))
            and len(present.body) == 1):
        return None
    owned = present.body[0]
    if not (isinstance(owned, py.If) and not owned.orelse
            and pyast.same(owned.test, pyast.compare(pyast.sub(tg, pyast.num(0)), "==", pyast.name(owner)))):
        return None
    return [read, *owned.body]


def _read_once(src: Source, stmts: list[py.stmt]) -> list[py.stmt]:
    """A filter reading the piece at `to` before the body reads it into `tg` (`if
    b[to][1] == 0 and ...: tg = b[to]`): the piece read once, into a temporary that
    the filter reads and `tg` takes (`tg` itself is left as it was where the filter
    fails: something after the loop may read it)."""
    at_to = pyast.sub(pyast.name("b"), pyast.name("to"))
    if not (len(stmts) == 1 and isinstance(stmts[0], py.If) and stmts[0].body
            and pyast.same(stmts[0].body[0], pyast.assign(pyast.name("tg"), at_to))):
        return stmts
    test = stmts[0].test
    if not any(pyast.same(node, at_to) for node in py.walk(test)):
        return stmts
    piece = pyast.name(src.fresh("t"))
    read = pyast.replace_nodes(test, pyast.replacing(at_to, piece))
    return [pyast.assign(piece, at_to),
            py.If(test=read, body=[pyast.assign(pyast.name("tg"), piece), *stmts[0].body[1:]], orelse=[])]


def _reads_only(test: py.expr) -> bool:
    """Whether working out `test` cannot change the board, the site lists or a
    name: no `:=`, no call handed the state, the board or the site lists."""
    for node in py.walk(test):
        if isinstance(node, (py.NamedExpr, py.Lambda)):
            return False
        if isinstance(node, py.Call) and (not isinstance(node.func, py.Name) or node.keywords
                                          or pyast.names_in(node.args) & _WRITABLE):
            return False
    return True


def _find(src: Source, stmts: Sequence[py.stmt], after: list[py.stmt], every_site: tuple[int, ...],
          found: list[py.For], kept: set[int]) -> None:
    """The loops of `stmts` to rewrite into `found` (those that may not, though a
    node may stand in several places, into `kept`); `after`: what may run once
    `stmts` have (the rest of the blocks around, the next turns of the loops around)."""
    for i, stmt in enumerate(stmts):
        rest = list(stmts[i + 1:]) + after
        if isinstance(stmt, py.For) and pyast.is_name(stmt.target, "to"):
            if _at_neutral_pieces(src, stmt, every_site) and not _read_before_stored(rest, {"to", "tg"}):
                found.append(stmt)
                continue
            kept.add(id(stmt))
        again = list(stmt.body) if isinstance(stmt, (py.For, py.While)) else []  # (a loop's body runs again)
        for field in ("body", "orelse"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], py.stmt):
                _find(src, block, again + rest, every_site, found, kept)


def _at_neutral_pieces(src: Source, loop: py.For, every_site: tuple[int, ...]) -> bool:
    """Whether `loop` goes over every site and acts only where a neutral piece stands."""
    if loop.orelse or src.value(loop.iter) != every_site or len(loop.body) != 2:
        return False
    read, test = loop.body
    tg = pyast.name("tg")
    if not pyast.same(read, pyast.assign(tg, pyast.sub(pyast.name("b"), pyast.name("to")))):
        return False
    if not (isinstance(test, py.If) and not test.orelse and pyast.same(test.test, pyast.is_not_none(tg))
            and len(test.body) == 1):
        return False
    inner = test.body[0]
    return isinstance(inner, py.If) and not inner.orelse \
        and pyast.same(inner.test, pyast.compare(pyast.sub(tg, pyast.num(0)), "<", pyast.num(0))) \
        and not ({"to", "tg", "b", "o"} & _stored(inner.body))


def _stored(stmts: Sequence[py.stmt]) -> set[str]:
    return {name for stmt in stmts for name in pyast.stored_names(stmt)}


def _read_before_stored(stmts: Sequence[py.stmt], names: set[str]) -> bool:
    """Whether running `stmts` may read one of `names` before setting it (a loop's
    target counts as set inside the loop only: it may run no turn)."""
    live = set(names)
    for stmt in stmts:
        if not live:
            return False
        if isinstance(stmt, py.Assign):
            if pyast.names_in([stmt.value]) & live:
                return True
            for target in stmt.targets:
                if isinstance(target, py.Name):
                    live.discard(target.id)
                elif pyast.names_in([target]) & live:
                    return True
        elif isinstance(stmt, py.For):
            inside = live - pyast.stored_names(stmt.target)
            if pyast.names_in([stmt.iter]) & live or _read_before_stored(stmt.body, inside) \
                    or _read_before_stored(stmt.orelse, live):
                return True
        elif isinstance(stmt, py.If):
            if pyast.names_in([stmt.test]) & live or _read_before_stored(stmt.body, live) \
                    or _read_before_stored(stmt.orelse, live):
                return True
        elif pyast.names_in([stmt]) & live:
            return True
    return False


def neutral_kind_asked(test: py.expr, piece: Callable[[py.expr], bool], neutral_kinds: frozenset[int]) -> bool:
    """Whether `test`, asked for its truth of a piece standing on the board (`piece`
    tells its reads: `b[site]`, or a local holding it), holds only for a piece of a
    kind whose pieces are always neutral (`neutral_kinds`, compiler.neutral_kinds) —
    a test of its kind `(P or E)[KIND] == K` (P is no empty site's: `E` is never
    read), alone or as a conjunct. Such a piece's site is in the last of
    State.occ's lists: a loop over every piece asking the test need walk that list
    alone."""
    if not NEUTRAL_KIND_WALKS:
        return False
    if isinstance(test, py.BoolOp) and isinstance(test.op, py.And):
        return any(neutral_kind_asked(value, piece, neutral_kinds) for value in test.values)
    if not (isinstance(test, py.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], py.Eq)):
        return False
    read, kind = test.left, test.comparators[0]
    if not (isinstance(kind, py.Constant) and type(kind.value) is int and kind.value in neutral_kinds
            and isinstance(read, py.Subscript) and isinstance(read.slice, py.Constant)
            and read.slice.value == KIND and type(read.slice.value) is int):
        return False
    held = read.value
    if isinstance(held, py.BoolOp) and isinstance(held.op, py.Or) and len(held.values) == 2:
        held = held.values[0]
    return piece(held)
