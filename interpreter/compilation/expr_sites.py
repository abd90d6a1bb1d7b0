"""Sites and rays: lists of sites, neighbour(s), ray, beyond, opposite, group, on_full_line.

The board's geometry is read from tables made when the rules are compiled. A
lookup in a constant table from a site to a site (`neighbour(x, n)`) is kept as
such (`site_tables`), so that lookups of lookups compose into one table
(`neighbour(neighbour(x, n), e)`) and a list of lookups at one site becomes a
table of lists (`[neighbour(x, n), neighbour(x, e)]`).
"""
from __future__ import annotations

import ast as py
import copy
from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

from ..parsing import ast
from ..parsing.parser import OFFSET_FORMS
from ..parsing.unparse import expression_text
from . import pyast
from .board import opposite_direction
from .code import Code, Compiling, CountSum, Handler, describe
from .errors import RuleError
from .expr_connected import group_search
from .liberties import adjacency_table
from .necessary import mentions
from .scope import Local, Scope
from .types import Dep, Type

# How many sites of a ray `count(ray(...))` compared with a constant needs to see
# at most, up to which the loop is written out (a site after another).
MAX_UNROLLED = 4
# How many times a sum of such counts compared with a constant may ask the
# condition when written out (two counts and a bound of 4: 14).
MAX_UNROLLED_SUM = 16
# How many entries the tables of rays cut at each site (`ray(X, D, it != Y)`) may
# have together, one per direction, start and site (8 directions of an 8x8 board:
# 33,800): beyond, the ray is walked and cut as it goes.
MAX_CUT_RAYS = 1 << 17


@dataclass(frozen=True)
class RayCount:
    """`count(ray(X, D, COND))` in lowered mode (SiteFamily.ray_length): what it
    wrote, its element's variable, COND's statements and Code, the code of the
    rays' table (`K` the row of a constant direction, or `R[d]`), X's code and the
    cost of the ray itself."""

    written: tuple[py.stmt, ...]
    var: str
    lines: tuple[py.stmt, ...]
    cond: Code
    rays: py.expr
    site: py.expr
    cost: int


# A ray's condition: (the element's variable, the condition) or, in lowered mode,
# (the element's variable, the condition's statements, the condition).
RayCondition = Union[tuple[str, Code], tuple[str, list[py.stmt], Code]]


def _whole(e: ast.Expr) -> bool:
    """A whole number written out (`2`, `-1`): what an offset is made of."""
    return isinstance(e, ast.Num) or (isinstance(e, ast.Neg) and isinstance(e.operand, ast.Num))


class SiteFamily:
    def __init__(self, x: Compiling):
        self.x = x
        board = x.model.board
        self.max_degree = max((len(a) for a in board.adjacent), default=0)
        self.max_ray = max(board.files, board.ranks)
        # Constant tables from a site to a site (-1: none; the last entry, for site
        # -1, is -1): lookups in them compose into one table (site_lookup).
        self._site_tables: set[str] = set()
        # The tables of rays cut at each site (`_cut_ray`), by the name of the rays' table.
        self._cut_tables: dict[str, py.Name] = {}

    def nodes(self) -> dict[type, Handler]:
        return {ast.ListLit: self.list_of_sites, ast.Offset: self.offset_alone}

    def offset_alone(self, e: ast.Offset, scope: Scope) -> Code:
        raise RuleError(e.pos, f"an offset ({e.dx}, {e.dy}) is written only as the second argument of 'neighbour': "
                               f"neighbour(X, ({e.dx}, {e.dy}))")

    def functions(self) -> dict[str, Handler]:
        return {"neighbour": self.neighbour, "neighbours": self.neighbours, "ray": self.ray, "beyond": self.beyond,
                "opposite": self.opposite, "group": self.group, "on_full_line": self.on_full_line,
                "file": self.line_number, "rank": self.line_number}

    # ------------------------------------------------------------ tables
    def neighbour_table(self) -> py.Name:
        """nb[direction][site] = the adjacent site that way or -1 (site -1 included)."""
        rays = self.x.model.board.rays
        return self.x.src.const(tuple(tuple(r[0] if r else -1 for r in per_site) + (-1,) for per_site in rays),
                                key="neighbours")

    def ray_table(self) -> py.Name:
        """rays[direction][site] = the sites along the ray, nearest first (site -1: none)."""
        return self.x.src.const(tuple(tuple(per_site) + ((),) for per_site in self.x.model.board.rays), key="rays")

    def adjacency_table(self) -> py.Name:
        return adjacency_table(self.x)

    def site_lookup(self, code: py.expr) -> Optional[tuple[str, py.expr]]:
        """(table, index code) when `code` reads a site table at one index."""
        if isinstance(code, py.Subscript) and isinstance(code.value, py.Name) and code.value.id in self._site_tables:
            return code.value.id, code.slice
        return None

    # ------------------------------------------------------------ lists of sites
    def list_of_sites(self, e: ast.ListLit, scope: Scope) -> Code:
        x = self.x
        items = [x.compile(item, scope) for item in e.items]
        for item_e, item in zip(e.items, items):
            if item.type in (Type.DIR, Type.DIRS):
                raise RuleError(item_e.pos, f"an element of a list must be a site or piece, found {describe(item)}",
                                "a list in brackets holds sites; name a set of directions in the YAML "
                                "(`directions: {axes: [e, n, ne, nw]}`) and write `d in axes`")
            x.expect(item, (Type.SITE,), item_e, "an element of a list")
        if all(i.is_const for i in items):
            return x.static_sites(i.const for i in items if i.const != -1)
        deps: frozenset[Dep] = frozenset().union(*(i.deps for i in items))
        by_site = self._sites_by_site(items)
        if by_site is not None:
            return Code(by_site, Type.SITES, deps, cost=1, size=len(items))
        return Code(pyast.helper("h_sites", pyast.tuple_(*(i.code for i in items))), Type.SITES, deps,
                    cost=sum(i.cost for i in items), size=len(items))

    def _sites_by_site(self, items: list[Code]) -> Optional[py.expr]:
        """Code of a list of sites whose elements are all lookups of one site in
        site tables (`[neighbour(x, n), neighbour(x, e)]`, say): one table of the
        lists by site, made when the rules are compiled; else None."""
        lookups = [self.site_lookup(i.code) for i in items]
        found = [lookup for lookup in lookups if lookup is not None]
        if len(found) != len(lookups) or len({pyast.key(index) for _, index in found}) != 1:
            return None
        tables = [self.x.src.namespace[table] for table, _ in found]
        rows = tuple(tuple(s for s in (table[site] for table in tables) if s != -1) for site in range(self.x.n_sites))
        return pyast.sub(self.x.src.const(rows + ((),)), found[0][1])

    # ------------------------------------------------------------ neighbours
    def _grid_only(self, e: ast.Call, what: str) -> None:
        if self.x.model.board.kind != "grid":
            raise RuleError(e.pos, what)

    def neighbour(self, e: ast.Call, scope: Scope) -> Code:
        x = self.x
        site = x.expect(x.compile(e.args[0], scope), (Type.SITE,), e.args[0], "the first argument of 'neighbour'")
        self._grid_only(e, "'neighbour(site, direction)' needs a grid board; on a graph use 'neighbours(site)'")
        offset, index = e.args[1], site.code
        if isinstance(offset, ast.ListLit) and offset.items and all(_whole(i) for i in offset.items):
            if len(offset.items) != 2:
                raise RuleError(offset.pos, f"an offset has two numbers (dx, dy), not {len(offset.items)}, "
                                            "and is written in parentheses", OFFSET_FORMS)
            written = ", ".join(expression_text(i) for i in offset.items)
            raise RuleError(offset.pos, f"an offset is written in parentheses: neighbour(X, ({written}))")
        if isinstance(offset, ast.Offset):  # the row of that offset
            row = self._offset_row(offset)
        else:
            direction = self.single_direction(e, scope)
            table = self.neighbour_table()
            if not direction.is_const:
                code = pyast.sub(pyast.sub(table, direction.code), site.code)
                return Code(code, Type.SITE, site.deps | direction.deps, cost=site.cost + direction.cost + 1)
            row = x.src.namespace[table.id][direction.const]  # the row of that direction
        inner = self.site_lookup(site.code)
        if inner is not None:  # a neighbour of a neighbour: one table
            before = x.src.namespace[inner[0]]
            row, index = tuple(row[s] for s in before), inner[1]
        name = x.src.const(row)
        self._site_tables.add(name.id)
        return Code(pyast.sub(name, index), Type.SITE, site.deps, cost=site.cost + 1)

    def _offset_row(self, offset: ast.Offset) -> tuple[int, ...]:
        """For each site (and -1), the site `offset` away, files east and ranks
        north whoever plays, or -1 off the board."""
        if (offset.dx, offset.dy) == (0, 0):
            raise RuleError(offset.pos, "the offset (0, 0) is the site itself, not a neighbour",
                            "an offset is (files east, ranks north), not both 0")
        board = self.x.model.board
        row = []
        for s in range(board.size):
            f, r = board.site_file(s) + offset.dx, board.site_rank(s) + offset.dy
            row.append(r * board.files + f if 0 <= f < board.files and 0 <= r < board.ranks else -1)
        return tuple(row) + (-1,)

    def single_direction(self, e: ast.Call, scope: Scope, argument: int = 1) -> Code:
        """A direction argument of neighbour/ray/beyond/opposite, as code of one
        direction index."""
        x = self.x
        arg = e.args[argument]
        direction = x.compile(arg, scope)
        if direction.type not in (Type.DIRS, Type.DIR):
            which = "the second argument" if argument == 1 else "the argument"
            hint = OFFSET_FORMS if e.fn == "neighbour" and direction.type in (Type.INT, Type.DECIMAL) else None
            if isinstance(arg, ast.Name) and arg.id in self.x.model.direction_sets:
                hint = (f"'{arg.id}' names a direction, but a variable, pool or option of that name "
                        "hides it here: give that another name")
            raise RuleError(arg.pos, f"{which} of '{e.fn}' must be a direction, found {describe(direction)}", hint)
        if direction.type is Type.DIR:
            return direction
        if direction.is_const and len(direction.const) == 1:  # (a direction name passed to a define, say)
            return x.const(direction.const[0], Type.DIR)
        per_player = x.model.direction_sets.get(arg.id) if isinstance(arg, ast.Name) else None
        if per_player is not None and all(len(d) == 1 for d in per_player):
            if all(d == per_player[0] for d in per_player):
                return x.const(per_player[0][0], Type.DIR)
            player = pyast.name(scope.register("player").site)
            return Code(pyast.sub(x.src.const(tuple(d[0] for d in per_player)), player), Type.DIR, direction.deps)
        chosen = self._single_directions(direction.code)
        if chosen is not None:
            return Code(chosen, Type.DIR, direction.deps, cost=direction.cost)
        message = x.src.const(f"'{e.fn}' needs a single direction, not a set of them")
        return Code(pyast.helper("h_one_direction", direction.code, x.src.const(arg.pos), message), Type.DIR,
                    direction.deps)

    def _single_directions(self, code: py.expr) -> Optional[py.expr]:
        """`T[i]` for the code `K[i]` of a fixed table K of direction sets (by player,
        say: a define given `forward`) that each hold one direction, T the table
        of those directions; else None (each is asked at run time)."""
        if not (isinstance(code, py.Subscript) and isinstance(code.value, py.Name)):
            return None
        table = self.x.src.namespace.get(code.value.id)
        if not isinstance(table, tuple) or not table or \
                not all(isinstance(d, tuple) and len(d) == 1 and type(d[0]) is int for d in table):
            return None
        return pyast.sub(self.x.src.const(tuple(d[0] for d in table)), code.slice)

    def neighbours(self, e: ast.Call, scope: Scope) -> Code:
        x = self.x
        site = x.expect(x.compile(e.args[0], scope), (Type.SITE,), e.args[0], "the argument of 'neighbours'")
        return Code(pyast.sub(self.adjacency_table(), site.code), Type.SITES, site.deps, cost=site.cost + 1,
                    size=self.max_degree)

    def line_number(self, e: ast.Call, scope: Scope) -> Code:
        """`file(SITE)` (1 for file a) or `rank(SITE)` (1 for the bottom rank); 0 for none."""
        self._grid_only(e, f"'{e.fn}' needs a grid board: a graph's sites have no files or ranks")
        x = self.x
        site = x.expect(x.compile(e.args[0], scope), (Type.SITE,), e.args[0], f"the argument of '{e.fn}'")
        axis = 0 if e.fn == "file" else 1
        numbers = tuple(int(coords[axis]) + 1 for coords in x.model.board.coords) + (0,)  # (none: -1, the last)
        if site.is_const:
            return x.const(numbers[site.const], Type.INT)
        return Code(pyast.sub(x.src.const(numbers), site.code), Type.INT, site.deps, cost=site.cost + 1)

    def opposite(self, e: ast.Call, scope: Scope) -> Code:
        self._grid_only(e, "'opposite' needs a grid board: directions are a grid's")
        direction = self.single_direction(e, scope, argument=0)
        if direction.is_const:
            return self.x.const(opposite_direction(direction.const), Type.DIR)
        opposites = self.x.src.const(tuple(opposite_direction(d) for d in range(len(self.x.model.board.rays))))
        return Code(pyast.sub(opposites, direction.code), Type.DIR, direction.deps, cost=direction.cost + 1)

    # ------------------------------------------------------------ rays
    def _ray_parts(self, e: ast.Call, scope: Scope, lowered: bool = False) -> tuple[Code, Optional[RayCondition]]:
        """The ray of ray/beyond (the sites from the start, nearest first) and its
        condition, if given (see RayCondition)."""
        x = self.x
        site = x.expect(x.compile(e.args[0], scope), (Type.SITE,), e.args[0], f"the first argument of '{e.fn}'")
        self._grid_only(e, f"'{e.fn}' needs a grid board: directions are a grid's")
        direction = self.single_direction(e, scope)
        rays: py.expr = self.ray_table()
        if direction.is_const:  # the row of that direction
            rays = x.src.const(x.src.namespace[rays.id][direction.const])  # type: ignore[attr-defined]
        else:
            rays = pyast.sub(rays, direction.code)
        ray = Code(pyast.sub(rays, site.code), Type.SITES, site.deps | direction.deps,
                   cost=site.cost + direction.cost + 1, size=self.max_ray)
        if len(e.args) < 3:
            return ray, None
        var = x.src.fresh("i")
        inner = scope.child()
        inner.locals["it"] = Local(pyast.name(var), Type.SITE, real=True)
        if lowered:
            lines, cond = x.nested(inner, lambda nested: x.boolean(e.args[2], nested))
            return ray, (var, lines, cond)
        return ray, (var, x.boolean(e.args[2], inner))

    def _lowered_ray(self, e: ast.Call, scope: Scope) -> tuple[Code, str, list[py.stmt], Code]:
        ray, condition = self._ray_parts(e, scope, lowered=True)
        assert condition is not None and len(condition) == 3
        var, lines, cond = condition
        return ray, var, lines, cond

    def ray_length(self, e: ast.Call, scope: Scope) -> Code:
        """count(ray(X, D, COND)) in lowered mode: how many sites of the ray meet the
        condition before the first that does not. (Compared with a constant, it is
        written again to stop at the bound: compared_ray_count.) A ray cut at a site
        (`_cut_ray`): the length of its row."""
        cut = self._cut_ray(e, scope)
        if cut is not None:
            return Code(pyast.helper("len", cut.code), Type.INT, cut.deps, cost=cut.cost + 1)
        ray, var, lines, cond = self._lowered_ray(e, scope)
        t = pyast.name(self.x.src.fresh("t"))
        assert scope.sink is not None
        written = [
            pyast.assign(t, pyast.num(0)),
            pyast.for_(pyast.name(var), ray.code, lines + [
                pyast.if_(pyast.not_(cond.code), [pyast.break_()]), pyast.augment(t, "+", pyast.num(1))]),
        ]
        scope.sink.extend(written)
        deps = ray.deps | (cond.deps - {Dep.LOCALS})
        assert isinstance(ray.code, py.Subscript)  # (rays[site]: see _ray_parts)
        counted = RayCount(tuple(written), var, tuple(lines), cond, ray.code.value, ray.code.slice, ray.cost)
        return Code(t, Type.INT, deps, cost=ray.cost + self.max_ray * (1 + cond.cost), ray_count=counted)

    def _ray_rows(self, rc: RayCount, row: Callable[[tuple[int, ...]], Any]) -> tuple[py.expr, int]:
        """(code of `row(the ray)`, read in a table made when the rules are compiled;
        the length of the longest ray of that table)."""
        src = self.x.src
        rays = rc.rays
        if isinstance(rays, py.Name):  # (the row of a constant direction)
            per_site = src.namespace[rays.id]
            return pyast.sub(src.const(tuple(row(r) for r in per_site)), rc.site), max(map(len, per_site))
        assert isinstance(rays, py.Subscript) and isinstance(rays.value, py.Name)  # (the table by direction)
        table = src.namespace[rays.value.id]
        rows = src.const(tuple(tuple(row(r) for r in per_site) for per_site in table))
        return pyast.sub(pyast.sub(rows, rays.slice), rc.site), max(len(r) for per_site in table for r in per_site)

    def _longest(self, rc: RayCount) -> int:
        """The length of the longest ray of rc's table."""
        namespace = self.x.src.namespace
        if isinstance(rc.rays, py.Name):
            return max(map(len, namespace[rc.rays.id]))
        assert isinstance(rc.rays, py.Subscript) and isinstance(rc.rays.value, py.Name)
        return max(len(r) for per_site in namespace[rc.rays.value.id] for r in per_site)

    def compared_ray_count(self, counted: Code, op: str, n: int, scope: Scope) -> Optional[Code]:
        """`count(ray(X, D, COND)) OP n` (n a constant) written to look at no more
        sites of the ray than the bound needs: `>= n` asks COND of its first n sites
        (none when the ray is shorter), one by one while it holds; `== n` counts up
        to n + 1. A sum of such counts and constants (CountSum) likewise: see
        _compared_sum. None when the counts' statements are not the last written."""
        summed = counted.ray_count
        terms: tuple[RayCount, ...] = summed.terms if isinstance(summed, CountSum) else (summed,)
        if isinstance(summed, CountSum):
            n -= summed.constant
        sink = scope.sink
        written = tuple(s for term in terms for s in term.written)
        if not terms or sink is None or len(sink) < len(written) or \
                any(a is not b for a, b in zip(sink[len(sink) - len(written):], written)):
            return None
        x = self.x
        del sink[len(sink) - len(written):]
        if len(terms) > 1:
            return self._compared_sum(terms, op, n, counted.deps, sink)
        rc = terms[0]
        var = pyast.name(rc.var)
        t = pyast.name(x.src.fresh("t"))
        deps = counted.deps
        if op in ("==", "!="):
            if n < 0:
                return x.const(op == "!=", Type.BOOL)
            rays, _ = self._ray_rows(rc, lambda r: r[:n + 1])
            sink.extend([pyast.assign(t, pyast.num(0)), pyast.for_(var, rays, list(rc.lines) + [
                pyast.if_(pyast.not_(rc.cond.code), [pyast.break_()]), pyast.augment(t, "+", pyast.num(1))])])
            return Code(pyast.compare(t, op, pyast.num(n)), Type.BOOL, deps,
                        cost=rc.cost + (n + 1) * (1 + rc.cond.cost) + 1)
        least = n if op in (">=", "<") else n + 1  # (count >= least, or its negation)
        negated = op in ("<", "<=")
        rays, longest = self._ray_rows(rc, lambda r: r[:least] if len(r) >= least else None)
        if least <= 0 or least > longest:
            return x.const((least <= 0) != negated, Type.BOOL)
        r = pyast.name(x.src.fresh("l"))
        if least <= MAX_UNROLLED:  # (COND asked of each of the first sites in turn)
            body: list[py.stmt] = [pyast.assign(t, pyast.true())]
            for j in reversed(range(least)):
                lines, cond = (list(rc.lines), rc.cond.code) if j == 0 else \
                    (copy.deepcopy(list(rc.lines)), copy.deepcopy(rc.cond.code))
                body = [pyast.assign(var, pyast.sub(r, j)), *lines, pyast.if_(cond, body)]
            sink.extend([pyast.assign(t, pyast.false()), pyast.assign(r, rays), pyast.if_(pyast.is_not_none(r), body)])
        else:
            sink.extend([pyast.assign(r, rays), pyast.assign(t, pyast.is_not_none(r)), pyast.if_(t, [
                pyast.for_(var, r, list(rc.lines) + [
                    pyast.if_(pyast.not_(rc.cond.code), [pyast.assign(t, pyast.false()), pyast.break_()])])])])
        return Code(pyast.not_(t) if negated else t, Type.BOOL, deps, cost=rc.cost + least * (1 + rc.cond.cost))

    def _compared_sum(self, terms: tuple[RayCount, ...], op: str, n: int, deps: frozenset[Dep],
                      sink: list[py.stmt]) -> Code:
        """`count(ray(a)) + count(ray(b)) + ... OP n`: each count looks at no more
        sites than the bound needs. With `cap` the least total that decides (n for
        `>=`, n + 1 for `>` and for `==`, which needs to tell n + 1 from n), the
        first ray is cut to cap sites and each later one, asked only while the total
        is below cap, to cap less the total so far (a table by that remainder)."""
        x = self.x
        equality = op in ("==", "!=")
        longest = sum(self._longest(rc) for rc in terms)
        if equality and not 0 <= n <= longest:
            return x.const(op == "!=", Type.BOOL)
        cap = n + 1 if op in (">", "<=") or equality else n
        negated = op in ("<", "<=")
        if not equality and cap <= 0:  # (counts are never negative)
            return x.const(not negated, Type.BOOL)
        if not equality and cap > longest:  # (past the longest rays together)
            return x.const(negated, Type.BOOL)
        if not equality and all(not rc.lines for rc in terms) and \
                self._tree_size(len(terms), cap, cap) <= MAX_UNROLLED_SUM:
            return self._unrolled_sum(terms, cap, negated, deps, sink)
        t = pyast.name(x.src.fresh("t"))
        sink.append(pyast.assign(t, pyast.num(0)))
        cost = 0
        for k, rc in enumerate(terms):
            if k == 0:
                rays, _ = self._ray_rows(rc, lambda r: r[:cap])
            else:
                rays, _ = self._ray_rows(rc, lambda r: tuple(r[:m] for m in range(cap + 1)))
                rays = pyast.sub(rays, pyast.binop(pyast.num(cap), "-", t))
            cost += rc.cost + min(self._longest(rc), cap) * (1 + rc.cond.cost)
            loop = pyast.for_(pyast.name(rc.var), rays, list(rc.lines) + [
                pyast.if_(pyast.not_(rc.cond.code), [pyast.break_()]), pyast.augment(t, "+", pyast.num(1))])
            sink.append(loop if k == 0 else pyast.if_(pyast.compare(t, "<", pyast.num(cap)), [loop]))
        if equality:
            return Code(pyast.compare(t, op, pyast.num(n)), Type.BOOL, deps, cost=cost + 1)
        return Code(pyast.compare(t, "<" if negated else ">=", pyast.num(cap)), Type.BOOL, deps, cost=cost + 1)

    def _tree_size(self, terms: int, width: int, need: int) -> int:
        """How many times _unrolled_sum asks a condition: `terms` counts left, the
        first `width` sites of the first of them still to ask, `need` hits wanted."""
        if need == 0 or terms == 0:
            return 0
        if width == 0:
            return self._tree_size(terms - 1, need, need)
        return 1 + self._tree_size(terms, width - 1, need - 1) + self._tree_size(terms - 1, need, need)

    def _unrolled_sum(self, terms: tuple[RayCount, ...], cap: int, negated: bool, deps: frozenset[Dep],
                      sink: list[py.stmt]) -> Code:
        """A sum of counts along rays `>= cap` written out: the condition asked of
        each site in turn (the rays' tables padded with -1 to cap sites), on to the
        next ray at the first site where it fails, true once cap sites held it."""
        x = self.x
        t = pyast.name(x.src.fresh("t"))
        rows = [pyast.name(x.src.fresh("l")) for _ in terms]
        tables = [self._ray_rows(rc, lambda r: tuple(r[:cap]) + (-1,) * (cap - len(r[:cap])))[0] for rc in terms]
        copies = 0

        def tree(k: int, j: int, need: int) -> list[py.stmt]:
            nonlocal copies
            if need == 0:
                return [pyast.assign(t, pyast.true())]
            if k == len(terms):
                return []
            rc = terms[k]
            if j == cap:
                return tree(k + 1, 0, need)
            start = [pyast.assign(rows[k], tables[k])] if j == 0 else []
            var = pyast.name(rc.var)
            cond = rc.cond.code if copies == 0 else copy.deepcopy(rc.cond.code)
            copies += 1
            held = tree(k, j + 1, need - 1)
            missed = tree(k + 1, 0, need)
            test = pyast.and_(pyast.compare(var, "!=", pyast.num(-1)), cond)
            return start + [pyast.assign(var, pyast.sub(rows[k], j)), pyast.if_(test, held, missed)]

        sink.extend([pyast.assign(t, pyast.false()), *tree(0, 0, cap)])
        cost = sum(rc.cost + min(self._longest(rc), cap) * (1 + rc.cond.cost) for rc in terms)
        return Code(pyast.not_(t) if negated else t, Type.BOOL, deps, cost=cost)

    def ray(self, e: ast.Call, scope: Scope) -> Code:
        x = self.x
        cut = self._cut_ray(e, scope)
        if cut is not None:
            return cut
        if scope.sink is not None and len(e.args) == 3:
            ray, var, lines, cond = self._lowered_ray(e, scope)
            t = pyast.name(x.src.fresh("t"))
            scope.sink.extend([
                pyast.assign(t, pyast.list_()),
                pyast.for_(pyast.name(var), ray.code, lines + [
                    pyast.if_(pyast.not_(cond.code), [pyast.break_()]),
                    pyast.expr_stmt(pyast.method(t, "append", pyast.name(var)))]),
            ])
            deps = ray.deps | (cond.deps - {Dep.LOCALS})
            return Code(t, Type.SITES, deps, cost=ray.cost + self.max_ray * (1 + cond.cost), size=self.max_ray)
        ray, condition = self._ray_parts(e, scope)
        if condition is None:
            return ray
        var, cond = condition[0], condition[-1]
        assert isinstance(cond, Code)
        first, again = x.share(ray, scope)
        n = x.src.fresh("i")
        index = pyast.helper("next", pyast.genexp(
            pyast.name(n), pyast.tuple_(pyast.name(n), pyast.name(var)), pyast.helper("enumerate", again),
            pyast.not_(cond.code)), pyast.helper("len", again))
        deps = ray.deps | (cond.deps - {Dep.LOCALS})
        return Code(pyast.sub(first, pyast.slice_(None, index)), Type.SITES, deps,
                    cost=ray.cost + self.max_ray * (1 + cond.cost), size=self.max_ray)

    def _cut_ray(self, e: ast.Call, scope: Scope) -> Optional[Code]:
        """`ray(X, D, it != Y)` (Y a site, not about the element): the sites of the
        ray before Y, all of them where Y is not on it, read from a table by X and
        Y made when the rules are compiled (`k[x][y]`, the rays' rows cut at each
        site) rather than a loop asking each site whether it is Y and a list built
        of those before — the sites a move passes, in the way most rules say it.
        None where the condition is not that."""
        if len(e.args) != 3:
            return None
        cond = e.args[2]
        if not (isinstance(cond, ast.Compare) and cond.op == "!="):
            return None
        if isinstance(cond.left, ast.Name) and cond.left.id == "it":
            other = cond.right
        elif isinstance(cond.right, ast.Name) and cond.right.id == "it":
            other = cond.left
        else:
            return None
        x = self.x
        if "it" in x.defines or mentions(other, x.defines, frozenset({"it"})) or \
                len(self.x.model.board.rays) * (x.n_sites + 1) ** 2 > MAX_CUT_RAYS:
            return None
        ray, _ = self._ray_parts(ast.Call(e.pos, e.fn, e.args[:2]), scope)
        upto = x.compile(other, scope)
        if upto.type is not Type.SITE:
            return None
        assert isinstance(ray.code, py.Subscript)  # (rays[site]: see _ray_parts)
        rays, site = ray.code.value, ray.code.slice
        n = x.n_sites
        src = x.src

        def cut(per_site: tuple[tuple[int, ...], ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
            return tuple(tuple(r[:r.index(y)] if y in r else r for y in range(n)) + (r,) for r in per_site)
        table: py.expr
        if isinstance(rays, py.Name):  # (the row of a constant direction)
            if rays.id not in self._cut_tables:
                self._cut_tables[rays.id] = src.const(cut(src.namespace[rays.id]), key=("cut rays", rays.id))
            table = self._cut_tables[rays.id]
            x.site_masks.ways.add(table.id)  # (its rows by two sites: masks, site_masks.quantified)
        else:
            assert isinstance(rays, py.Subscript) and isinstance(rays.value, py.Name)  # (the table by direction)
            name = rays.value.id
            if name not in self._cut_tables:
                self._cut_tables[name] = src.const(tuple(cut(per_site) for per_site in src.namespace[name]),
                                                   key=("cut rays", name))
            table = pyast.sub(self._cut_tables[name], rays.slice)
        return Code(pyast.sub(pyast.sub(table, site), upto.code), Type.SITES, ray.deps | upto.deps,
                    cost=ray.cost + upto.cost + 1, size=self.max_ray)

    def beyond(self, e: ast.Call, scope: Scope) -> Code:
        x = self.x
        if scope.sink is not None:
            ray, var, lines, cond = self._lowered_ray(e, scope)
            t = pyast.name(x.src.fresh("t"))
            scope.sink.extend([
                pyast.assign(t, pyast.num(-1)),
                pyast.for_(pyast.name(var), ray.code, lines + [
                    pyast.if_(pyast.not_(cond.code), [pyast.assign(t, pyast.name(var)), pyast.break_()])]),
            ])
            deps = ray.deps | (cond.deps - {Dep.LOCALS})
            return Code(t, Type.SITE, deps, cost=ray.cost + self.max_ray * (1 + cond.cost))
        ray, condition = self._ray_parts(e, scope)
        assert condition is not None
        var, cond = condition[0], condition[-1]
        assert isinstance(cond, Code)
        deps = ray.deps | (cond.deps - {Dep.LOCALS})
        code = pyast.helper("next", pyast.genexp(pyast.name(var), pyast.name(var), ray.code, pyast.not_(cond.code)),
                            pyast.num(-1))
        return Code(code, Type.SITE, deps, cost=ray.cost + self.max_ray * (1 + cond.cost))

    # ------------------------------------------------------------ groups and lines
    def group(self, e: ast.Call, scope: Scope) -> Code:
        x = self.x
        site = x.expect(x.compile(e.args[0], scope), (Type.SITE,), e.args[0], "the first argument of 'group'")
        adjacent = self.adjacency_table() if len(e.args) == 1 else self._adjacency_by(e, scope)
        code = pyast.helper("h_group", pyast.name("b"), adjacent, site.code)
        # (a quantifier with a condition searches it instead, stopping as soon as it knows)
        flood = group_search(x, site, adjacent) if scope.sink is not None else None
        return Code(code, Type.SITES, site.deps | {Dep.BOARD}, cost=site.cost + x.n_sites * 2, size=x.n_sites,
                    flood=flood)

    def _adjacency_by(self, e: ast.Call, scope: Scope) -> py.Name:
        """The table of each site's neighbours in the directions of group's second
        argument (the same for every player: a table made once)."""
        self._grid_only(e, "'group(site, directions)' needs a grid board: directions are a grid's")
        arg = e.args[1]
        directions = self.x.compile(arg, scope)
        if directions.type not in (Type.DIRS, Type.DIR):
            raise RuleError(arg.pos, f"the second argument of 'group' must be directions, found {describe(directions)}")
        if not directions.is_const:
            raise RuleError(arg.pos, "the directions of 'group' must be the same for every player "
                                     "(e.g. all, orthogonal)")
        chosen = directions.const if directions.type is Type.DIRS else (directions.const,)
        rays = self.x.model.board.rays
        table = tuple(tuple(rays[d][s][0] for d in chosen if rays[d][s]) for s in range(self.x.n_sites)) + ((),)
        return self.x.src.const(table)

    def on_full_line(self, e: ast.Call, scope: Scope) -> Code:
        x = self.x
        site = x.expect(x.compile(e.args[0], scope), (Type.SITE,), e.args[0], "the argument of 'on_full_line'")
        if not x.model.lines:
            raise RuleError(e.pos, "'on_full_line' needs the board's 'lines' in the YAML")
        through: list[list[tuple[int, ...]]] = [[] for _ in range(x.n_sites + 1)]
        for line in x.model.lines:
            for s in line:
                through[s].append(tuple(line))
        table = x.src.const(tuple(tuple(t) for t in through), key="lines")
        longest = max(len(t) for t in through)
        return Code(pyast.helper("h_on_full_line", pyast.name("b"), table, site.code), Type.BOOL, site.deps,
                    cost=site.cost + longest * 8)
