"""A lister's steps onto empty or enemy neighbours, answered per piece from bitmasks.

A `step` whose landing asks only what stands there (`onto empty`, `onto enemy`,
no `where`) is lowered (patterns.py) to a loop over the piece's row of a table
of sites by site, testing each landing's occupant:

    for to in ROWS[frm]:                ROWS: a constant table by site (or by player,
        tg = b[to]                      then by site: `t = K[p]` set once before)
        if tg is None:                  \
            out.append(CODE_E)           | either branch, or both
        else:                            | (`if tg is not None:` for the second alone)
            off = tg[0]                  |
            if off >= 0 and off != p:    |
                out.append(CODE_X)      /

CODE a code `(case, frm, to)` as `CodeTables` makes it. The loop becomes one
lookup: the row's bitmask ANDed with the occupied sites' mask (the empty branch
alone), the enemies' (the enemy branch alone), or with both side by side (the
occupied sites' mask times 2**n plus the enemies': each landing then one of
three states) picks, from a table per site made when compiling, the codes the
loop would have appended, in its order. The masks are the owners' masks of
prefilters.py, made once per call of the function and kept by the position
(`MaskedSites`, State.occ).

Only where nothing needs the loop's own names afterwards (`to`, `tg`, `off`:
each stored again before any read, in the rest of the function and in the
next turns of the loops around it), and where no `forbid result` check plays
cases on the position (the masks would not be kept: made per listing they cost
more than the steps they answer).
"""
from __future__ import annotations

import ast as py
import itertools
from typing import Any, Optional, Sequence

from . import pyast
from .prefilters import OCCUPIED, OCCUPIED_AND_OTHERS, OTHERS, OwnerMasks
from .source import Source

# Rows longer than this (both branches: shorter, see MAX_ENTRIES) keep their loop:
# the table of a site has an entry per subset of its row (per state of each landing).
MAX_ENTRIES = 256
# Rows of fewer sites than this keep their loop: a single landing's test costs
# no more than the mask's lookup.
MIN_ROW = 2
# Boards with more sites than this keep their loops (the masks' ANDs grow with them).
MAX_SITES = 256

_ENEMY_TEST = pyast.and_(pyast.compare(pyast.name("off"), ">=", pyast.num(0)),
                         pyast.compare(pyast.name("off"), "!=", pyast.name("p")))


def masked_steps(src: Source, body: list[py.stmt], owners: OwnerMasks,
                 before: Sequence[py.stmt] = ()) -> list[py.stmt]:
    """`body` (a lister's, or the end of a draw's function after the statements
    `before`) with its step loops rewritten as the module says where they can
    be; else `body` itself."""
    if owners.n_sites > MAX_SITES:
        return body
    return _Rewriter(src, body, list(before) + list(body), owners).rewritten()


class _Rewriter:
    def __init__(self, src: Source, body: list[py.stmt], scope: list[py.stmt], owners: OwnerMasks):
        self.src = src
        self.body = body
        self.top = scope  # (where the tables' locals are set)
        # the loops not rewritten (a node may stand in several places: each must allow it)
        self.kept: set[int] = set()
        self.owners = owners
        self.n = owners.n_sites

    def rewritten(self) -> list[py.stmt]:
        found: list[tuple[py.stmt, py.stmt]] = []
        self.find(self.body, [], found)
        body = self.body
        for loop, new in found:
            if id(loop) not in self.kept:
                body = pyast.splice(body, loop, [new])
        return body

    def find(self, stmts: Sequence[py.stmt], after: list[py.stmt], found: list[tuple[py.stmt, py.stmt]]) -> None:
        """The step loops of `stmts` and what each becomes; `after`: what may run
        once they have (the rest of the blocks around, the next turns of the
        loops around)."""
        for i, stmt in enumerate(stmts):
            rest = list(stmts[i + 1:]) + after
            if isinstance(stmt, py.For):
                new = self.step_loop(stmt, rest)
                if new is not None:
                    found.append((stmt, new))
                    continue
                self.kept.add(id(stmt))
            # (a loop's body runs again after itself)
            again = list(stmt.body) if isinstance(stmt, (py.For, py.While)) else []
            for field in ("body", "orelse"):
                block = getattr(stmt, field, None)
                if isinstance(block, list) and block and isinstance(block[0], py.stmt):
                    self.find(block, again + rest, found)

    def step_loop(self, loop: py.For, rest: list[py.stmt]) -> Optional[py.stmt]:
        if loop.orelse or not pyast.is_name(loop.target, "to") or not isinstance(loop.iter, py.Subscript) \
                or not isinstance(loop.iter.slice, py.Name):
            return None
        frm = loop.iter.slice.id
        found = self.rows(loop.iter.value)
        if found is None:
            return None
        by_player, tables, source = found
        branches = _branches(loop.body, frm)
        if branches is None:
            return None
        free_case, enemy_case = branches
        if _read_before_stored(rest, {"to", "tg", "off"}):
            return None
        both = free_case is not None and enemy_case is not None
        width = 3 if both else 2
        longest = max((len(row) for table in tables for row in table[:self.n]), default=0)
        if longest < MIN_ROW or width ** longest > MAX_ENTRIES:
            return None
        n = self.n
        entries: list[tuple[tuple[int, ...], tuple[dict[int, tuple[tuple[int, int, int], ...]], ...]]] = []
        for table in tables:
            masks, codes = [], []
            for site, row in enumerate(table[:n]):
                mask = sum(1 << x for x in row)
                masks.append(mask * (1 << n) + mask if both else mask)
                codes.append(_codes_by_key(site, row, n, free_case, enemy_case))
            entries.append((tuple(masks), tuple(codes)))
        # (the lister's and the draw's loops share the tables)
        key_of = ("masked steps", source, free_case, enemy_case)
        if by_player:
            rows_mask: py.expr = pyast.sub(pyast.sub(self.src.const(tuple(m for m, _ in entries), key=key_of + ("masks",)), pyast.name("p")),
                                           pyast.name(frm))
            table_name: py.expr = pyast.sub(self.src.const(tuple(c for _, c in entries), key=key_of), pyast.name("p"))
        else:
            rows_mask = pyast.sub(self.src.const(entries[0][0], key=key_of + ("masks",)), pyast.name(frm))
            table_name = self.src.const(entries[0][1], key=key_of)
        if both:
            mask = self.owners.lazy(OCCUPIED_AND_OTHERS)
        else:
            # (in a game of two players the others are the opponent: one list's mask)
            enemies = "1 - p" if self.owners.players == 2 else OTHERS
            mask = self.owners.lazy(OCCUPIED if enemy_case is None else enemies)
        key = pyast.binop(rows_mask, "&", mask)
        return pyast.augment(pyast.name("out"), "+", pyast.sub(pyast.sub(table_name, pyast.name(frm)), key))

    def rows(self, value: py.expr) -> Optional[tuple[bool, list[Sequence[Sequence[int]]], str]]:
        """(whether by player, the tables of rows by site, the constant's name) of
        the loop's table: a constant, or a local set once to `K[p]` (K a constant
        by player)."""
        table = self.src.value(value)
        if table is not None:
            assert isinstance(value, py.Name)
            return (False, [table], value.id) if self.valid(table) else None
        if isinstance(value, py.Subscript):
            made: py.expr = value
        elif isinstance(value, py.Name):
            sets = [stmt for stmt in pyast.walk_all(self.top)
                    if isinstance(stmt, (py.Assign, py.AugAssign, py.For, py.NamedExpr))
                    and value.id in _stored_names(stmt)]
            if len(sets) != 1 or not isinstance(sets[0], py.Assign) or len(sets[0].targets) != 1:
                return None
            made = sets[0].value
        else:
            return None
        if not (isinstance(made, py.Subscript) and pyast.is_name(made.slice, "p")):
            return None
        per_player = self.src.value(made.value)
        if not isinstance(per_player, (tuple, list)) or not per_player \
                or not all(self.valid(table) for table in per_player):
            return None
        assert isinstance(made.value, py.Name)
        return True, list(per_player), made.value.id

    def valid(self, table: Any) -> bool:
        """Whether `table` holds a row of distinct sites of the board for each site."""
        if not isinstance(table, (tuple, list)) or len(table) < self.n:
            return False
        return all(isinstance(row, tuple) and len(set(row)) == len(row)
                   and all(type(x) is int and 0 <= x < self.n for x in row) for row in table[:self.n])


def _stored_names(node: py.AST) -> set[str]:
    return {n.id for n in pyast.walk_all([node]) if isinstance(n, py.Name) and isinstance(n.ctx, py.Store)}


def _codes_by_key(site: int, row: Sequence[int], n: int, free_case: Optional[int],
                  enemy_case: Optional[int]) -> dict[int, tuple[tuple[int, int, int], ...]]:
    """The codes the loop appends at `site`, by the key its landings' states give."""
    both = free_case is not None and enemy_case is not None
    # a landing's states: (occupied, enemy)
    states = [(False, False), (True, True), (True, False)] if both else [(False, False), (True, True)]
    by_key: dict[int, tuple[tuple[int, int, int], ...]] = {}
    for chosen in itertools.product(states, repeat=len(row)):
        key = 0
        codes = []
        for to, (occupied, enemy) in zip(row, chosen):
            if both:
                key |= (occupied << (to + n)) | (enemy << to)
            else:
                key |= (occupied if enemy_case is None else enemy) << to
            if not occupied and free_case is not None:
                codes.append((free_case, site, to))
            elif enemy and enemy_case is not None:
                codes.append((enemy_case, site, to))
        by_key[key] = tuple(codes)
    return by_key


def _branches(body: Sequence[py.stmt], frm: str) -> Optional[tuple[Optional[int], Optional[int]]]:
    """(the case appended onto an empty landing, the case onto an enemy), None
    where the loop's body is not of the module's shape."""
    if len(body) != 2 or not pyast.same(body[0], pyast.assign(pyast.name("tg"),
                                                                 pyast.sub(pyast.name("b"), pyast.name("to")))):
        return None
    test = body[1]
    if not isinstance(test, py.If):
        return None
    none = pyast.none()
    if pyast.same(test.test, pyast.compare(pyast.name("tg"), "is", none)):
        free = _appended_case(test.body, frm)
        if free is None:
            return None
        if not test.orelse:
            return free, None
        enemy = _enemy_case(test.orelse, frm)
        return None if enemy is None else (free, enemy)
    if pyast.same(test.test, pyast.compare(pyast.name("tg"), "is not", none)) and not test.orelse:
        enemy = _enemy_case(test.body, frm)
        return None if enemy is None else (None, enemy)
    return None


def _enemy_case(stmts: Sequence[py.stmt], frm: str) -> Optional[int]:
    """The case of `off = tg[0]; if off >= 0 and off != p: out.append(CODE)`."""
    if len(stmts) != 2 or not pyast.same(stmts[0], pyast.assign(pyast.name("off"),
                                                                   pyast.sub(pyast.name("tg"), pyast.num(0)))):
        return None
    test = stmts[1]
    if not isinstance(test, py.If) or test.orelse or not pyast.same(test.test, _ENEMY_TEST):
        return None
    return _appended_case(test.body, frm)


def _appended_case(stmts: Sequence[py.stmt], frm: str) -> Optional[int]:
    """The case of `out.append(ROW[frm][to] or h_make_code(ROW, case, frm, to))` (or
    of `out.append((case, frm, to))`)."""
    if len(stmts) != 1 or not isinstance(stmts[0], py.Expr):
        return None
    call = stmts[0].value
    if not (isinstance(call, py.Call) and len(call.args) == 1 and not call.keywords
            and pyast.same(call.func, pyast.attr(pyast.name("out"), "append"))):
        return None
    code = call.args[0]
    if isinstance(code, py.Tuple):
        parts = code.elts
    elif isinstance(code, py.BoolOp) and isinstance(code.op, py.Or) and len(code.values) == 2 \
            and isinstance(code.values[1], py.Call) and pyast.is_name(code.values[1].func, "h_make_code") \
            and len(code.values[1].args) == 4 \
            and pyast.same(code.values[0], pyast.sub(pyast.sub(code.values[1].args[0], pyast.name(frm)),
                                                     pyast.name("to"))):
        parts = code.values[1].args[1:]
    else:
        return None
    if not (len(parts) == 3 and isinstance(parts[0], py.Constant) and type(parts[0].value) is int
            and pyast.is_name(parts[1], frm) and pyast.is_name(parts[2], "to")):
        return None
    return parts[0].value


def _read_before_stored(stmts: Sequence[py.stmt], names: set[str]) -> bool:
    """Whether running `stmts` may read one of `names` before storing it (a loop's
    target counts as stored inside the loop only: it may run no turn)."""
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
            if pyast.names_in([stmt.iter]) & live:
                return True
            if _read_before_stored(stmt.body, live - _stored_names(stmt.target)) \
                    or _read_before_stored(stmt.orelse, live):
                return True
        elif isinstance(stmt, py.If):
            if pyast.names_in([stmt.test]) & live or _read_before_stored(stmt.body, live) \
                    or _read_before_stored(stmt.orelse, live):
                return True
        elif pyast.names_in([stmt]) & live:
            return True
    return False


def listed_at_once(stmts: list[py.stmt]) -> list[py.stmt]:
    """`stmts` where `out = []` is followed at once by `out += X` and nothing after
    them in the block adds to `out` (a draw's try): `out = X`, no list made."""
    changed = False
    new: list[py.stmt] = []
    for i, stmt in enumerate(stmts):
        if i and _adds_table(stmt) and pyast.same(new[-1], pyast.assign(pyast.name("out"), pyast.list_())) \
                and not _changes_out(stmts[i + 1:]):
            assert isinstance(stmt, py.AugAssign)
            new[-1] = pyast.assign(pyast.name("out"), stmt.value)
            changed = True
            continue
        fields: dict[str, list[py.stmt]] = {}
        for field in ("body", "orelse"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], py.stmt):
                inner = listed_at_once(block)
                if inner is not block:
                    fields[field] = inner
        if fields:
            stmt = py.For(**{**{f: getattr(stmt, f) for f in stmt._fields}, **fields}) if isinstance(stmt, py.For) \
                else type(stmt)(**{**{f: getattr(stmt, f) for f in stmt._fields}, **fields})
            changed = True
        new.append(stmt)
    return new if changed else stmts


def _adds_table(stmt: py.stmt) -> bool:
    return isinstance(stmt, py.AugAssign) and pyast.is_name(stmt.target, "out") and isinstance(stmt.op, py.Add) \
        and isinstance(stmt.value, py.Subscript)


def _changes_out(stmts: Sequence[py.stmt]) -> bool:
    """Whether `stmts` add to `out` or hand it on (anything but `len(out)` and `out[i]`)."""
    allowed: set[int] = set()
    for node in pyast.walk_all(stmts):
        if isinstance(node, py.Call) and pyast.is_name(node.func, "len") and len(node.args) == 1:
            allowed.add(id(node.args[0]))
        elif isinstance(node, py.Subscript) and isinstance(node.ctx, py.Load):
            allowed.add(id(node.value))
    return any(isinstance(node, py.Name) and node.id == "out" and id(node) not in allowed
               for node in pyast.walk_all(stmts))
