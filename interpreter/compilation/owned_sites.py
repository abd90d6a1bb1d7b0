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
"""
from __future__ import annotations

import ast as py
from typing import Sequence

from . import pyast
from .source import Source

# The neutral pieces' list in `State.occ` (its last).
_NEUTRAL_SITES = pyast.sub(pyast.name("o"), pyast.neg(pyast.num(1)))


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
