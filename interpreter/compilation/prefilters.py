"""Owner masks: one test in front of an `exists` over a fixed set of directions.

`exists(d in all, neighbour(to, d).owner == opponent and ...)` asks, for each
direction, first of all whom the neighbour belongs to. When every element is
asked that first (the whole body of the loop stands under the one test), a single
AND of bitmasks tells whether any element can pass: the neighbours of `to` (a
constant per site, made when the rules are compiled) against the sites of that
owner's pieces. Where it gives 0 the loop is skipped. Otherwise, on boards of up
to MAX_BIT_BY_BIT_SITES sites and when each bit stands for one element (no two
share a neighbour), the loop goes over the set bits only, each read back as its
element from a table per site, and without the owner's test, which those elements
pass; else it runs over every element as before. Either way the answer is the same.

The owner's mask is made once per call of the function, when a prefilter first
needs it (the lister's first statements set it to -1, "not made yet": a condition
asked seldom, behind other conditions that mostly fail, costs nothing until it is
asked). So the prefilter is written only where nothing changes the position while
the function runs: in the conditions the listers ask (compiled in a scope with
`listing` set). The listers' writer puts the statements `first_statements` first.
"""
from __future__ import annotations

import ast as py
from typing import Any, Callable, Optional

from . import pyast
from .source import Source

# Boards with more sites than this get no masks (their bit tables grow with the
# square of the number of sites).
MAX_MASKED_SITES = 1024
# Boards with more sites than this test the mask but loop over every element: the
# bit-by-bit loop does three operations on the mask each time round, which cost
# more than the owner's test they save once masks are this many bits long.
MAX_BIT_BY_BIT_SITES = 256

# The owner whose sites are every player's but the deciding one's (`is enemy`);
# the others are the code of a player: `p`, or `1 - p` (`opponent`, only in
# games of two players: never -1, the owner of the empty piece E)
OTHERS = "others"
# Not an owner: the sites of every piece (site_masks.py: `it is occupied`, `it is empty`).
OCCUPIED = "occupied"
# Not an owner: the sites of the pieces of one kind, whoever owns them (site_masks.py:
# `it is K`), the kind's code after this prefix.
KIND_OF = "kind "
# Not an owner: the sites of one player's pieces of one kind (site_masks.py: `it is own and
# it is K`), written by `owned_kind`.
OWNED_KIND = "owned kind "
# What a prefilter gives: (the statement making the mask when not made yet, the
# test, the rows by bit: (the loop's targets, the table of rows by bit, the site,
# the loop's body) or None).
Prefilter = tuple[py.stmt, py.expr, Optional[tuple[py.expr, py.Name, py.expr, list[py.stmt]]]]


class OwnerMasks:
    """The owners' masks the listers read, and the prefilters that read them."""

    def __init__(self, src: Source, n_sites: int, empty: py.Name, enemy_table: Callable[[], py.Name],
                 n_players: int = 0):
        self.src = src
        self.n_sites = n_sites
        self._empty = empty  # the constant E (whose owner is none)
        self._enemy_table = enemy_table  # makes the table of `is enemy`
        # (two: `is enemy` is the opponent's, `1 - p` — one list walked, and a kind
        # asked with it one mask of that list, site_masks._owned_kind; 0: not known)
        self._n_players = n_players
        self._enemy: Optional[py.Name] = None
        self.names: dict[str, str] = {}  # owner ("p", "1 - p", OTHERS) -> the local holding its mask
        self._bits: Optional[py.Name] = None
        # whether any code reads a mask (then the position keeps them: State.occ)
        self.made = False
        # (table, column) -> the constant of its rows by bit, made once: the same
        # loop written many times in the rules shares one
        self._rows_by_bit: dict[tuple[str, int], py.Name] = {}

    @property
    def empty_name(self) -> str:
        """The name of the constant E (the empty piece)."""
        return self._empty.id

    def prefilter(self, loop: py.stmt) -> Optional[Prefilter]:
        """What skips `loop` (`for i4, i5 in k4[to]:`) when its body stands wholly
        under a test of one column's owner (see Prefilter). The test is the bitmask
        of the sites in that column owned by the owner; the rows by bit, when no
        two rows of a site share that column's site, are (the loop's targets, a
        table by site of {bit of the column's site: row}, the site, the body
        without the owner's test when that is all it asks), so that the loop can
        go over those rows only."""
        if self.n_sites > MAX_MASKED_SITES or not isinstance(loop, py.For):
            return None
        head = _table_loop(loop)
        body = loop.body
        if head is None or len(body) != 1 or not isinstance(body[0], py.If) or body[0].orelse:
            return None
        columns, table, site = head
        first = body[0]
        conjuncts = first.test.values if isinstance(first.test, py.BoolOp) and isinstance(first.test.op, py.And) \
            else [first.test]
        tested = self._owner_test(conjuncts[0])
        if tested is None or tested[0] not in columns:
            return None
        column, owner = columns.index(tested[0]), tested[1]
        per_site = self.src.namespace.get(table)
        if not isinstance(per_site, tuple):
            return None
        neighbours = []
        by_bit: Optional[list[dict[int, Any]]] = [] if self.n_sites <= MAX_BIT_BY_BIT_SITES else None
        for rows in per_site:
            mask = 0
            rows_here: dict[int, Any] = {}
            for row in rows:
                value = row[column] if len(columns) > 1 else row
                if type(value) is not int or value >= self.n_sites:
                    return None
                if value >= 0:
                    mask |= 1 << value
                    if by_bit is not None and 1 << value in rows_here:
                        by_bit = None  # (two rows at one bit: the loop goes over every row)
                    rows_here[1 << value] = row
            neighbours.append(mask)
            if by_bit is not None:
                by_bit.append(rows_here)
        name, made = self._name(owner), self._made(owner)
        rows_by_bit = None
        if by_bit is not None:
            # (the elements the mask lets through pass the owner's test: when it is
            # the whole test, the loop over them needs it no more)
            inner: list[py.stmt] = first.body if len(conjuncts) == 1 \
                else [pyast.if_(pyast.and_(*conjuncts[1:]), first.body)]
            made_rows = self._rows_by_bit.get((table, column))
            if made_rows is None:
                made_rows = self._rows_by_bit[(table, column)] = self.src.const(tuple(by_bit))
            rows_by_bit = (loop.target, made_rows, site, inner)
        not_made = pyast.if_(pyast.compare(name, "<", pyast.num(0)), [pyast.assign(name, made)])
        test = pyast.binop(pyast.sub(self.src.const(tuple(neighbours)), site), "&", name)
        return not_made, test, rows_by_bit

    def _name(self, owner: str) -> py.Name:
        """The local holding the mask of `owner` (-1 until made)."""
        if owner not in self.names:
            self.names[owner] = self.src.fresh("l")
        return pyast.name(self.names[owner])

    def _made(self, owner: str) -> py.expr:
        """The code making the mask of `owner` from the position."""
        if self._bits is None:
            self._bits = self.src.const(tuple(1 << s for s in range(self.n_sites)))
        occ = pyast.name("o")
        if owner.startswith(OWNED_KIND):  # (the player's sites alone walked, their pieces' kinds read)
            kind, _, player = owner[len(OWNED_KIND):].partition(" of ")
            return pyast.helper("h_kind_mask", self._bits, pyast.tuple_(pyast.sub(occ, _owner_code(player))),
                                pyast.name("b"), pyast.num(int(kind)))
        if owner.startswith(KIND_OF):  # (found from the board: the sites' lists need keep no mask)
            return pyast.helper("h_kind_mask", self._bits, occ, pyast.name("b"), pyast.num(int(owner[len(KIND_OF):])))
        self.made = True
        if owner == OTHERS:
            return pyast.helper("h_others_mask", self._bits, occ, pyast.name("p"))
        if owner == OCCUPIED:
            return pyast.helper("h_occupied_mask", self._bits, occ)
        return pyast.helper("h_sites_mask", self._bits, pyast.sub(occ, _owner_code(owner)))

    def lazy(self, owner: str) -> py.expr:
        """The mask of `owner` (or OCCUPIED) as an expression that makes it the first
        time it is read in a call: `(l1 if l1 >= 0 else (l1 := made))`."""
        name = self._name(owner)
        return pyast.ifexp(name, pyast.compare(name, ">=", pyast.num(0)), pyast.walrus(name.id, self._made(owner)))

    def owner_test(self, code: py.expr) -> Optional[tuple[str, str]]:
        return self._owner_test(code)

    def _owner_test(self, code: py.expr) -> Optional[tuple[str, str]]:
        """(the column read, whose pieces pass) when `code` tests a column's owner:
        `(b[i4] or E)[0] == p` (or `== 1 - p`), or `enemy[p][(b[i4] or E)[0]]` —
        every player's but p's (OTHERS), in a game of two players `1 - p`'s: the
        enemy table says the same of every owner (a neutral piece's, -1, no one's)."""
        if self._enemy is None:
            self._enemy = self._enemy_table()
        if isinstance(code, py.Compare) and len(code.ops) == 1 and isinstance(code.ops[0], py.Eq):
            column = self._owner_of_column(code.left)
            player = code.comparators[0]
            if column is not None and pyast.is_name(player, "p"):
                return column, "p"
            if column is not None and pyast.same(player, pyast.binop(pyast.num(1), "-", pyast.name("p"))):
                return column, "1 - p"
            return None
        if isinstance(code, py.Subscript) and isinstance(code.value, py.Subscript) \
                and pyast.same(code.value, pyast.sub(self._enemy, pyast.name("p"))):
            column = self._owner_of_column(code.slice)
            if column is None:
                return None
            return column, "1 - p" if self._n_players == 2 else OTHERS
        return None

    def _owner_of_column(self, code: py.expr) -> Optional[str]:
        """The column `i4` when `code` is `(b[i4] or E)[0]`."""
        if not (isinstance(code, py.Subscript) and isinstance(code.slice, py.Constant) and code.slice.value == 0
                and type(code.slice.value) is int):
            return None
        read = code.value
        if not (isinstance(read, py.BoolOp) and isinstance(read.op, py.Or) and len(read.values) == 2
                and pyast.is_name(read.values[1], self._empty.id)):
            return None
        piece = read.values[0]
        if isinstance(piece, py.Subscript) and pyast.is_name(piece.value, "b") and isinstance(piece.slice, py.Name) \
                and _is_loop_variable(piece.slice.id):
            return piece.slice.id
        return None

    def first_statements(self, read: set[str]) -> list[py.stmt]:
        """The first statements of a lister that reads the names `read`: its masks not made."""
        return [pyast.assign(pyast.name(name), pyast.num(-1)) for name in self.names.values() if name in read]


def owned_kind(kind: int, owner: str) -> str:
    """The key of the mask of the sites of `owner`'s (`p`, `1 - p`) pieces of `kind`."""
    return f"{OWNED_KIND}{kind} of {owner}"


def _owner_code(owner: str) -> py.expr:
    return pyast.name("p") if owner == "p" else pyast.binop(pyast.num(1), "-", pyast.name("p"))


def _is_loop_variable(identifier: str) -> bool:
    return identifier[0] == "i" and identifier[1:].isdigit()


def _table_loop(loop: py.For) -> Optional[tuple[list[str], str, py.expr]]:
    """(the loop's variables, the table, the site) of `for i4, i5 in k4[to]:`."""
    target, iterable = loop.target, loop.iter
    elements = target.elts if isinstance(target, py.Tuple) else [target]
    if not all(isinstance(e, py.Name) and _is_loop_variable(e.id) for e in elements):
        return None
    if not (isinstance(iterable, py.Subscript) and isinstance(iterable.value, py.Name)
            and iterable.value.id[0] == "k" and iterable.value.id[1:].isdigit()):
        return None
    site = iterable.slice
    if isinstance(site, py.Name) or isinstance(site, py.Constant) and type(site.value) is int and site.value >= 0:
        return [e.id for e in elements if isinstance(e, py.Name)], iterable.value.id, site
    return None
