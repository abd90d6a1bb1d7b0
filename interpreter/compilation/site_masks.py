"""Counts over a fixed set of sites as bitmasks, in the listers; the sites a leap
passes; whether an owner fills a declared line, anywhere.

`count(ray(from, n), it is occupied)`, `count(neighbours(to), it is enemy and
it != from)`: when the set is a constant or one
row of a table of sites by site (a ray, the neighbours, a region), and the
condition asks only what stands on the element (empty, occupied, whose) and
which site it is (`it != X`, `it == X`), the answer is one AND of two bitmasks —
the set's, a constant made when the rules are compiled, and the condition's,
made of the owners' masks of the position — and a popcount, instead of a Python
loop over the sites. A leap's `forbid passing` that asks the same of the site
passed is one AND with the mask of the sites on its way (patterns.leap).

The owners' masks are those of `prefilters.OwnerMasks` (made once per call of
the function, when first read): so this is written only where nothing changes the
position while the function runs, in the conditions the listers ask (a scope with
`listing` set). Either way the answer is the same.

`exists(pieces of X, on_full_line(it))` (a line filled by X's pieces, asked after
every action in games of n in a row) is one mask of X's sites, made where it is
asked, tested against a constant mask per declared line, rather than each line
through each of X's pieces walked site by site.
"""
from __future__ import annotations

import ast as py
from typing import Optional

from ..runtime.helpers import LineGroups
from ..runtime.pieces import KIND
from . import pyast
from .code import Code
from .prefilters import KIND_OF, MAX_MASKED_SITES, OCCUPIED, OwnerMasks, owned_kind
from .source import MAX_LITERAL, Source
from .types import Type

# Up to this many declared lines, `exists(pieces of X, on_full_line(it))` is written out
# as tests of literal masks (SiteMasks._lines_written_out); more, the helper's loop.
MAX_LINES_WRITTEN_OUT = 64


class SiteMasks:
    def __init__(self, src: Source, n_sites: int, owner_masks: OwnerMasks):
        self.src = src
        self.n_sites = n_sites
        self.owner_masks = owner_masks
        self.kinds = True  # (off: no kind's mask, for a condition asked of a drawn candidate)
        # The names of the constant tables of the sites of a ray before a site, by the
        # ray's start and that site (expr_sites._cut_ray): the sites a move passes.
        self.ways: set[str] = set()
        # The names of the tables of masks made of `ways` (what a drawn candidate does
        # not read: actions.py asks it without masks).
        self.way_masks: set[str] = set()
        # (the tables of masks of tables of sites by two sites, by the name of the latter)
        self._nested_masks: dict[str, Optional[py.Name]] = {}
        # (whether a table's rows never hold the site they are read by: _never_holds_index)
        self._own_index: dict[tuple[str, int, int], bool] = {}

    def _full(self) -> py.expr:
        """The mask of every site of the board."""
        return self.src.const((1 << self.n_sites) - 1)

    def quantified(self, quantifier: str, coll: Code, cond: py.expr, var: str) -> Optional[py.expr]:
        """count of `coll` where `cond` holds of its element `var`, as masks, or
        None when either is not one. An `exists` or `all` only where the
        condition asks a piece's kind (`it is wall`): one asking only owners or
        emptiness stops at the first site that tells, mostly after a site or
        two, sooner than the masks of a crowded board are made; a kind's test
        reads the piece's tuple at every site it visits, and its mask (the
        sites of the kind's pieces, made once per call) is mostly sparse."""
        if quantifier not in ("count", "exists", "all") or self.n_sites > MAX_MASKED_SITES \
                or coll.type is not Type.SITES:
            return None
        if quantifier != "count" and not self.kinds:
            return None
        # (or where the set is a move's way, the sites of a ray before a site: a way
        # that is clear, the common case, is looked at site by site to its end)
        if quantifier != "count" and not self._way(coll.code) and not any(
                isinstance(node, py.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], py.Eq)
                and self._kind_test(node, var) is not None for node in pyast.walk(cond)):
            return None
        sites = self.collection(coll)
        if sites is None:
            return None
        holds = self.condition(self._without_own_index(coll.code, cond, var), var, kinds=self.kinds)
        if holds is None:
            return None
        if self._way(coll.code):
            assert isinstance(sites, py.Subscript) and isinstance(sites.value, py.Subscript) \
                and isinstance(sites.value.value, py.Name)
            self.way_masks.add(sites.value.value.id)
        if quantifier == "exists":  # (some site of the set holds it)
            return pyast.compare(pyast.binop(sites, "&", holds), "!=", pyast.num(0))
        if quantifier == "all":  # (no site of the set fails it)
            return pyast.compare(pyast.binop(sites, "&", pyast.binop(self._full(), "^", holds)), "==",
                                 pyast.num(0))
        return pyast.method(pyast.binop(sites, "&", holds), "bit_count")

    def sum_of_counts(self, left: py.expr, right: py.expr) -> Optional[py.expr]:
        """`left + right` as one count where both are counts of this module with one
        condition over rows of one site (`count(ray(s, d), C) + count(ray(s,
        opposite(d)), C)`, the rows never sharing a site): the masks of the two
        tables joined into one. `left` may be a sum ending in such a count."""
        if isinstance(left, py.BinOp) and isinstance(left.op, py.Add):
            merged = self.sum_of_counts(left.right, right)
            return pyast.binop(left.left, "+", merged) if merged is not None else None
        a, b = self._count_parts(left), self._count_parts(right)
        if a is None or b is None or not pyast.same(a[1], b[1]) or not pyast.same(a[2], b[2]):
            return None
        rows_a, rows_b = self.src.value(a[0]), self.src.value(b[0])
        if len(rows_a) != len(rows_b) or any(x & y for x, y in zip(rows_a, rows_b)):
            return None
        joined = self.src.const(tuple(x | y for x, y in zip(rows_a, rows_b)), key=("site masks", a[0].id, b[0].id))
        return pyast.method(pyast.binop(pyast.sub(joined, a[1]), "&", a[2]), "bit_count")

    def _count_parts(self, code: py.expr) -> Optional[tuple[py.Name, py.expr, py.expr]]:
        """(the table of masks, the site, the condition's mask) of a count written by
        `quantified` over a row of a table at a site held by a name."""
        if not (isinstance(code, py.Call) and not code.args and isinstance(code.func, py.Attribute)
                and code.func.attr == "bit_count" and isinstance(code.func.value, py.BinOp)
                and isinstance(code.func.value.op, py.BitAnd)):
            return None
        row, holds = code.func.value.left, code.func.value.right
        if not (isinstance(row, py.Subscript) and isinstance(row.value, py.Name) and isinstance(row.slice, py.Name)):
            return None
        table = self.src.value(row.value)
        if not isinstance(table, tuple) or not all(type(mask) is int for mask in table):
            return None
        return row.value, row.slice, holds

    def full_line(self, coll: Code, cond: py.expr, var: str) -> Optional[py.expr]:
        """`exists(pieces of X, on_full_line(it))` as one test of each declared line
        against the mask of X's sites (a line all of whose sites are X's, which
        holds some of X's pieces), or None when it is not that. Asked anywhere: the
        mask is made where the test is."""
        owned = coll.code
        if isinstance(owned, py.IfExp) and isinstance(owned.orelse, py.Tuple) and not owned.orelse.elts:
            owned = owned.body  # (`o[X] if X >= 0 else ()`: no sites, no line, when X is none)
        if not (isinstance(owned, py.Subscript) and pyast.is_name(owned.value, "o") and coll.occupied):
            return None
        if not (isinstance(cond, py.Call) and pyast.is_name(cond.func, "h_on_full_line") and len(cond.args) == 3
                and pyast.is_name(cond.args[2], var) and isinstance(cond.args[1], py.Name)):
            return None
        through = self.src.value(cond.args[1])
        if not isinstance(through, tuple):
            return None
        lines = {frozenset(line) for per_site in through for line in per_site if line}
        if not lines:
            return None
        bits = self.src.const(tuple(1 << s for s in range(self.n_sites)))
        shortest, groups = line_groups(lines)
        if len(lines) > MAX_LINES_WRITTEN_OUT or (1 << self.n_sites) - 1 > MAX_LITERAL:
            table = self.src.const((shortest, groups), key=("line groups", cond.args[1].id))
            return pyast.helper("h_full_line", table, bits, coll.code)
        return self._lines_written_out(shortest, groups, pyast.helper("h_bits_added", bits, coll.code), coll.code)

    def _lines_written_out(self, shortest: int, groups: tuple[tuple[int, tuple[int, ...]], ...], owned: py.expr,
                           sites: py.expr) -> py.expr:
        """helpers.full_line written out as one expression of the groups' sites and
        lines as literal masks, `len(S) >= 5 and ((m := MASK) & G1 != 0 and (m & L1 == L1
        or ...) or m & G2 != 0 and ...)`: a playout asks it after every action, and the
        helper's loop over the groups and their tuples cost more than the tests."""
        mask = self.src.fresh("t")
        tests = []
        for n, (site, masks) in enumerate(groups):
            held = pyast.walrus(mask, owned) if n == 0 else pyast.name(mask)
            tests.append(pyast.and_(
                pyast.compare(pyast.binop(held, "&", pyast.num(site)), "!=", pyast.num(0)),
                pyast.or_(*(pyast.compare(pyast.binop(pyast.name(mask), "&", pyast.num(line)), "==", pyast.num(line))
                            for line in masks))))
        return pyast.and_(pyast.compare(pyast.helper("len", sites), ">=", pyast.num(shortest)), pyast.or_(*tests))

    def collection(self, coll: Code) -> Optional[py.expr]:
        """The mask of `coll`: a constant, or a row of a table of masks by site made
        of a table of sites by site (`k5[frm]` → `k40[frm]`). Only sets of
        distinct sites of the board (a count counts each once)."""
        if coll.is_const:
            mask = _mask(coll.const, self.n_sites)
            return self.src.const(mask) if mask is not None else None
        code = coll.code
        nested = self._nested(code)
        if nested is not None:
            return nested
        if not (isinstance(code, py.Subscript) and isinstance(code.value, py.Name)):
            return None
        table = self.src.value(code.value)
        if not isinstance(table, tuple) or not table:
            return None
        masks = []
        for row in table:
            # (tuples only: a list may be a table the generated code fills as it runs)
            mask = _mask(row, self.n_sites) if isinstance(row, tuple) else None
            if mask is None:
                return None
            masks.append(mask)
        rows = self.src.const(tuple(masks), key=("site masks", code.value.id))
        index = code.slice
        if isinstance(index, py.Subscript) and isinstance(index.value, py.Name):
            # (a row chosen by a constant table's entry, `k12[k9[to]]`: one table by `to`)
            by = self.src.value(index.value)
            if isinstance(by, tuple) and by and all(type(i) is int and -len(masks) <= i < len(masks) for i in by):
                return pyast.sub(self.src.const(tuple(masks[i] for i in by), key=("site masks", code.value.id,
                                                                                  index.value.id)), index.slice)
        return pyast.sub(rows, index)

    def _way(self, code: py.expr) -> bool:
        """Whether `code` is a row of a table of `ways` (`k4[frm][to]`)."""
        return isinstance(code, py.Subscript) and isinstance(code.value, py.Subscript) \
            and isinstance(code.value.value, py.Name) and code.value.value.id in self.ways

    def _without_own_index(self, code: py.expr, cond: py.expr, var: str) -> py.expr:
        """`cond` without its conjuncts `var != X` that every element of the set `code`
        meets: X a site the set's table is read by (`T[X]`, `T[X][Y]`) whose rows
        never hold it (the neighbours of X, the sites beside the edge from X to Y,
        on a board where no site is its own neighbour) — a mask ANDed for nothing."""
        if not (isinstance(cond, py.BoolOp) and isinstance(cond.op, py.And)):
            return cond
        indices: list[py.expr] = []  # (the table's indices, the last first)
        at = code
        while isinstance(at, py.Subscript):
            indices.append(at.slice)
            at = at.value
        if not isinstance(at, py.Name) or not indices:
            return cond
        levels = len(indices)
        # (an index setting a name is asked where it reads the table, not dropped)
        never = [index for n, index in enumerate(indices) if self._never_holds_index(at.id, levels - n, levels)
                 and not any(isinstance(node, py.NamedExpr) for node in py.walk(index))]
        kept = [part for part in cond.values
                if not any(_differs(part, var, index) for index in never)]
        return pyast.and_(*kept) if kept and len(kept) < len(cond.values) else cond

    def _never_holds_index(self, name: str, depth: int, levels: int) -> bool:
        """Whether no row of the constant table `name`, read by `levels` sites, holds
        the site it is read by at `depth` (1: the first index)."""
        key = (name, depth, levels)
        if key not in self._own_index:
            self._own_index[key] = _never_holds(self.src.value(py.Name(id=name, ctx=py.Load())), depth, levels)
        return self._own_index[key]

    def _nested(self, code: py.expr) -> Optional[py.expr]:
        """The mask of a row of a constant table of sites by two sites (`k4[frm][to]`,
        the sites of a ray before a site: expr_sites._cut_ray) as the same row of
        a table of masks, or None where `code` is not that."""
        if not (isinstance(code, py.Subscript) and isinstance(code.value, py.Subscript)
                and isinstance(code.value.value, py.Name)):
            return None
        name = code.value.value.id
        if name not in self._nested_masks:
            self._nested_masks[name] = self._nested_table(self.src.value(code.value.value), name)
        table_masks = self._nested_masks[name]
        if table_masks is None:
            return None
        return pyast.sub(pyast.sub(table_masks, code.value.slice), code.slice)

    def _nested_table(self, table: object, name: str) -> Optional[py.Name]:
        """The table of masks of a constant table of sites by two sites, or None."""
        if not isinstance(table, tuple) or not table:
            return None
        masks = []
        for rows in table:
            if not isinstance(rows, tuple):
                return None
            row_masks = []
            for row in rows:
                mask = _mask(row, self.n_sites) if isinstance(row, tuple) else None
                if mask is None:
                    return None
                row_masks.append(mask)
            masks.append(tuple(row_masks))
        return self.src.const(tuple(masks), key=("site masks", name))

    def condition(self, cond: py.expr, var: str, kinds: bool = False) -> Optional[py.expr]:
        """The mask of the sites where `cond` holds of `var`, or None; with tests
        of a piece's kind where `kinds` (their mask is made from every piece's
        site: not where a test or two of single sites is all it saves)."""
        if isinstance(cond, py.BoolOp):
            # (a player's ownership and a kind asked together: one mask, `_owned_kind`)
            owned = self._owned_kind(_conjuncts(cond), var) if kinds and isinstance(cond.op, py.And) else None
            values = _conjuncts(cond) if owned is not None else cond.values
            joined, rest = (owned[0], owned[1]) if owned is not None else (None, ())
            parts: list[Optional[py.expr]] = [joined] if joined is not None else []
            parts += [self.condition(value, var, kinds) for value in values
                      if not any(value is asked for asked in rest)]
            if any(part is None for part in parts):
                return None
            op = "&" if isinstance(cond.op, py.And) else "|"
            mask = parts[0]
            for part in parts[1:]:
                mask = pyast.binop(mask, op, part)  # type: ignore[arg-type]
            return mask
        if isinstance(cond, py.UnaryOp) and isinstance(cond.op, py.Not):
            inner = self.condition(cond.operand, var, kinds)
            return pyast.binop(self._full(), "^", inner) if inner is not None else None
        if isinstance(cond, py.Compare) and len(cond.ops) == 1:
            return self._compare(cond, var, kinds)
        if isinstance(cond, py.Subscript):
            return self._owner(cond, var) or self._table(cond, var)
        return None

    def _owned_kind(self, values: list[py.expr], var: str) -> Optional[tuple[py.expr, tuple[py.expr, py.expr]]]:
        """Where the conjuncts `values` ask of `var` a player's ownership (`p`, `1 - p`)
        and a kind K: the mask of that player's pieces of kind K — made by walking
        that player's sites alone, not the sites of every piece of the kind ANDed
        with the mask of all the player's (`it is own and it is pawn`) —, with the
        two conjuncts it stands for; else None."""
        owner = kind = None
        for value in values:
            if owner is None:
                tested = self.owner_masks.owner_test(value)
                if tested is not None and tested[0] == var and tested[1] in ("p", "1 - p"):
                    owner = (value, tested[1])
                    continue
            if kind is None and isinstance(value, py.Compare) and len(value.ops) == 1 \
                    and isinstance(value.ops[0], py.Eq):
                found = self._kind_test(value, var)
                if found is not None:
                    kind = (value, found)
        if owner is None or kind is None:
            return None
        return self.owner_masks.lazy(owned_kind(kind[1], owner[1])), (owner[0], kind[0])

    def failing(self, cond: py.expr, var: str, kinds: bool = False) -> Optional[py.expr]:
        """The mask of the sites where `cond` fails for `var`, or None: as
        `condition` says, but a negation's (a conjunction's) written as the mask
        of what it negates (the union of its parts' failing masks), not as the
        complement of a complement."""
        if isinstance(cond, py.UnaryOp) and isinstance(cond.op, py.Not):
            return self.condition(cond.operand, var, kinds)
        if isinstance(cond, py.BoolOp) and isinstance(cond.op, py.And):
            parts = [self.failing(value, var, kinds) for value in cond.values]
            if any(part is None for part in parts):
                return None
            mask = parts[0]
            for part in parts[1:]:
                mask = pyast.binop(mask, "|", part)  # type: ignore[arg-type]
            return mask
        holds = self.condition(cond, var, kinds)
        if holds is None:
            return None
        if isinstance(holds, py.BinOp) and isinstance(holds.op, py.BitXor) and pyast.same(holds.left, self._full()):
            return holds.right  # (`it != X`: the complement of X's bit)
        return pyast.binop(self._full(), "^", holds)

    def bits(self) -> py.expr:
        """The table of each site's bit (0 for none)."""
        return self.src.const(tuple(1 << s for s in range(self.n_sites)) + (0,), key="bits or none")

    def _compare(self, cond: py.Compare, var: str, kinds: bool) -> Optional[py.expr]:
        left, op, right = cond.left, cond.ops[0], cond.comparators[0]
        if isinstance(op, (py.Is, py.IsNot)) and _reads_board_at(left, var) and pyast.same(right, pyast.none()):
            occupied = self.owner_masks.lazy(OCCUPIED)
            return occupied if isinstance(op, py.IsNot) else pyast.binop(self._full(), "^", occupied)
        if isinstance(op, (py.Eq, py.NotEq)) and pyast.is_name(left, var) and var not in pyast.names_in([right]):
            bit = pyast.sub(self.bits(), right)
            return bit if isinstance(op, py.Eq) else pyast.binop(self._full(), "^", bit)
        if isinstance(op, py.Eq):
            return self._owner(cond, var) or (self._kind(cond, var) if kinds else None)
        return None

    def _kind(self, cond: py.Compare, var: str) -> Optional[py.expr]:
        """The mask of the sites holding kind K where `cond` is `(b[var] or E)[KIND] == K`."""
        kind = self._kind_test(cond, var)
        return None if kind is None else self.owner_masks.lazy(KIND_OF + str(kind))

    def _kind_test(self, cond: py.Compare, var: str) -> Optional[int]:
        """K where `cond` is `(b[var] or E)[KIND] == K` (E the piece of an empty
        site, of another kind)."""
        left, right = cond.left, cond.comparators[0]
        if not (isinstance(right, py.Constant) and type(right.value) is int and isinstance(left, py.Subscript)
                and isinstance(left.slice, py.Constant) and type(left.slice.value) is int
                and left.slice.value == KIND):
            return None
        piece = left.value
        if not (isinstance(piece, py.BoolOp) and isinstance(piece.op, py.Or) and len(piece.values) == 2
                and _reads_board_at(piece.values[0], var) and isinstance(piece.values[1], py.Name)):
            return None
        nothing = self.src.value(piece.values[1])
        if not (isinstance(nothing, tuple) and len(nothing) > KIND and nothing[KIND] != right.value):
            return None
        return right.value

    def _table(self, cond: py.Subscript, var: str) -> Optional[py.expr]:
        """The mask of the sites where a constant table by site (`k18[var]`, a
        tuple of truth values, numbers or none, a row per site) holds a true value."""
        if not (isinstance(cond.value, py.Name) and pyast.is_name(cond.slice, var)):
            return None
        table = self.src.value(cond.value)
        if not isinstance(table, tuple) or len(table) < self.n_sites \
                or any(value is not None and type(value) not in (bool, int) for value in table):
            return None
        return self.src.const(sum(1 << s for s in range(self.n_sites) if table[s]))

    def _owner(self, cond: py.expr, var: str) -> Optional[py.expr]:
        tested = self.owner_masks.owner_test(cond)
        if tested is None or tested[0] != var:
            return None
        return self.owner_masks.lazy(tested[1])


def line_groups(lines: set[frozenset[int]]) -> LineGroups:
    """The lines as helpers.full_line reads them (helpers.LineGroups): grouped
    greedily by the site most of the lines left pass, so that one test of that
    site's bit skips the whole group."""
    left = sorted(lines, key=sorted)
    groups = []
    while left:
        counts: dict[int, int] = {}
        for line in left:
            for s in line:
                counts[s] = counts.get(s, 0) + 1
        site = min(counts, key=lambda s: (-counts[s], s))
        group = [line for line in left if site in line]
        left = [line for line in left if site not in line]
        groups.append((1 << site, tuple(sum(1 << s for s in sorted(line)) for line in group)))
    return min(len(line) for line in lines), tuple(groups)


def _mask(sites: object, n_sites: int) -> Optional[int]:
    if not isinstance(sites, (tuple, list)):
        return None
    mask = 0
    for s in sites:
        if type(s) is not int or not 0 <= s < n_sites or mask >> s & 1:
            return None
        mask |= 1 << s
    return mask


def _conjuncts(cond: py.BoolOp) -> list[py.expr]:
    """The conjuncts of the conjunction `cond`, those of the conjunctions in it too
    (`A and B and C` is read `(A and B) and C`)."""
    values: list[py.expr] = []
    for value in cond.values:
        if isinstance(value, py.BoolOp) and isinstance(value.op, py.And):
            values.extend(_conjuncts(value))
        else:
            values.append(value)
    return values


def _reads_board_at(code: py.expr, var: str) -> bool:
    """`b[var]`."""
    return isinstance(code, py.Subscript) and pyast.is_name(code.value, "b") and pyast.is_name(code.slice, var)


def _differs(part: py.expr, var: str, index: py.expr) -> bool:
    """Whether `part` is `var != index` or `index != var`."""
    if not (isinstance(part, py.Compare) and len(part.ops) == 1 and isinstance(part.ops[0], py.NotEq)):
        return False
    left, right = part.left, part.comparators[0]
    return (pyast.is_name(left, var) and pyast.same(right, index)) \
        or (pyast.is_name(right, var) and pyast.same(left, index))


def _never_holds(table: object, depth: int, levels: int) -> bool:
    """Whether `table` (tuples of sites, `levels` deep) never holds, in a row read
    by an index at `depth`, that index's value (either way Python reads that row:
    n or n - len, so the last row, read by -1, holds no -1 either)."""
    def rows(value: object, level: int, read_by: tuple[int, ...]) -> bool:
        if not isinstance(value, tuple):
            return False
        if level > levels:
            return all(type(site) is int and site not in read_by for site in value)
        return all(rows(row, level + 1, (n, n - len(value)) if level == depth else read_by)
                   for n, row in enumerate(value))
    return rows(table, 1, ())
