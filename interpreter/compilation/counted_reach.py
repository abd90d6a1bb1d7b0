"""`count(s in SET, P1 and P2 and ...)` where some part asks whether a flood
from s reaches a goal — `[not] exists(connected(s, C), G)` — answered as one
popcount of bitmasks instead of a loop flooding region after region.

The flood from s through the sites where C holds (its mask M) finds s's part
of M (nothing where s fails C), so it reaches G exactly when s is one of R's
sites, R the sites of M joined through M to a site of `G & M`
(masked_reach.py grows R for a fixed goal). Here G may be a mask made when the
count runs: a condition of the sites' own (`it.owner == p`), or `exists(
neighbours(it), D)` — the sites having a neighbour where D holds, D's mask
grown by one step of the neighbours' table. R then depends on M and G alone,
the same for every s, so the count is `(SET & P1 & P2 ...).bit_count()`, each
part its mask: a reach part R (its complement under `not`), the others as
site_masks.condition makes them.

Tromp-Taylor's area, `count(s in sites, s is empty and reaches(s, p) and not
reaches(s, opponent))` with `reaches(s, p) = exists(connected(s, it is
empty), exists(neighbours(it), it.owner == p))`, is that: two growths of the
empty sites from the stones' neighbours, a few shifts and masks each. The last
two answers are kept, by M and G, in a table every such count of the rules
shares: the score asks both players' areas on one position, and each asks
the growth the other asked. Nothing here knows a game: the tables, the masks
and the shape of the count only.
"""
from __future__ import annotations

import ast as py
import copy
from dataclasses import dataclass
from typing import Callable, Optional

from ..parsing import ast
from . import pyast
from .code import Code, Compiling
from .masked_reach import MAX_SHIFTS, neighbours_by_distance, symmetric
from .prefilters import MAX_MASKED_SITES
from .scope import Local, Scope
from .site_masks import SiteMasks
from .source import Source
from .types import Dep, Type

# (defines, `not`s and `and`s gone through to find the parts: a bound on the walk)
MAX_PARTS = 16
# (off: such counts flood region by region as before — the tests of that form)
ENABLED = True


@dataclass
class _Part:
    negated: bool
    expr: ast.Expr
    scope: Scope


class CountedReach:
    def __init__(self, x: Compiling, site_masks: SiteMasks, adjacency: Callable[[], py.Name],
                 bound_arguments: Callable[[ast.Call, Scope], Optional[tuple[ast.Expr, Scope]]]):
        self.x = x
        self.site_masks = site_masks
        self.adjacency = adjacency  # (the board's table of neighbours, made when asked)
        self.bound_arguments = bound_arguments  # (a define's call: its expression and scope, expr_names)

    def count(self, coll: Code, e: ast.Expr, scope: Scope, name: str,
              element: Callable[[], Local]) -> Optional[Code]:
        """The count as masks (its statements written into the sink), or None
        where it is not one: no part a reach, a part not a mask, a table not
        symmetric or irregular, the set not a fixed one. (`element` makes the
        local of the set's element. Nothing is compiled where no part is written
        as a reach: other counts' code stays as it was.)"""
        x = self.x
        n = x.n_sites
        if scope.sink is None or n > MAX_MASKED_SITES or coll.type is not Type.SITES or not self._written_as_reach(e):
            return None
        sites = self.site_masks.collection(coll)
        if sites is None:
            return None
        local = element()
        var = local.code
        assert isinstance(var, py.Name)
        inner = scope.child()
        inner.locals[name] = local
        parts = self._parts(e, inner)
        if parts is None:
            return None
        grown: list[py.stmt] = []
        masks: list[py.expr] = []
        deps = coll.deps | {Dep.BOARD}
        reaches = 0
        for part in parts:
            reached = self._reach(part, var, grown)
            if reached is not None:
                mask, part_deps = reached
                reaches += 1
            else:
                plain = self._plain(part, var)
                if plain is None:
                    return None
                mask, part_deps = plain
            masks.append(pyast.binop(self._full(), "^", mask) if part.negated else mask)
            deps |= part_deps - {Dep.LOCALS}
        if not reaches:
            return None
        counted = sites
        for mask in masks:
            counted = pyast.binop(counted, "&", mask)
        # (the owners' masks made afresh: the count may run between two writes)
        read = pyast.names_in(grown + [py.Expr(counted)])
        scope.sink.extend(self.site_masks.owner_masks.first_statements(read) + grown)
        return Code(pyast.method(counted, "bit_count"), Type.INT, deps, cost=coll.cost + 8 * len(masks))

    def _written_as_reach(self, e: ast.Expr) -> bool:
        """Whether some part of `e` (through defines, `not`s, `and`s and `or`s: a
        first look, `_parts` decides) is an `exists` over `connected`, nothing
        compiled."""
        defines = self.x.defines
        todo = [e]
        for _ in range(MAX_PARTS * 4):
            if not todo:
                return False
            expr = todo.pop()
            if isinstance(expr, ast.Not):
                todo.append(expr.operand)
            elif isinstance(expr, (ast.And, ast.Or)):
                todo += [expr.right, expr.left]
            elif isinstance(expr, ast.Name) and expr.id in defines and not defines[expr.id].params:
                todo.append(defines[expr.id].expr)
            elif isinstance(expr, ast.Call) and expr.fn in defines:
                todo.append(defines[expr.fn].expr)
            elif isinstance(expr, ast.Call) and expr.fn == "exists" and len(expr.args) == 2 \
                    and isinstance(expr.args[0], ast.Call) and expr.args[0].fn == "connected":
                return True
        return False

    def _parts(self, e: ast.Expr, scope: Scope) -> Optional[list[_Part]]:
        """The conjuncts of `e` (through defines, `not`s and `and`s), each with
        whether it is negated and the scope of its names; None where a define's
        arguments would need statements or there are too many."""
        x = self.x
        parts: list[_Part] = []
        todo = [_Part(False, e, scope)]
        for _ in range(MAX_PARTS * 4):
            if not todo:
                return parts
            part = todo.pop()
            expr, negated, at = part.expr, part.negated, part.scope
            if isinstance(expr, ast.Not):
                todo.append(_Part(not negated, expr.operand, at))
            elif isinstance(expr, ast.And) and not negated or isinstance(expr, ast.Or) and negated:
                # (`not (A or B)` is `not A and not B`)
                todo += [_Part(negated, expr.right, at), _Part(negated, expr.left, at)]
            elif isinstance(expr, ast.Name) and expr.id in x.defines and expr.id not in at.locals \
                    and not x.defines[expr.id].params:
                todo.append(_Part(negated, x.defines[expr.id].expr, at))
            elif isinstance(expr, ast.Call) and expr.fn in x.defines:
                sink: list[py.stmt] = []
                bound = self.bound_arguments(expr, at.child(sink=sink))
                if bound is None or sink:
                    return None
                todo.append(_Part(negated, bound[0], bound[1].child(sink=None)))
            else:
                parts.append(part)
                if len(parts) > MAX_PARTS:
                    return None
        return None

    def _plain(self, part: _Part, var: py.Name) -> Optional[tuple[py.expr, frozenset[Dep]]]:
        """The mask of a part about the element alone (what it holds, which site
        it is), or None."""
        lines, cond = self.x.nested(part.scope, lambda nested: self.x.boolean(part.expr, nested))
        if lines:
            return None
        mask = self.site_masks.condition(cond.code, var.id, kinds=True)
        return None if mask is None or _reads_a_loop(mask) else (mask, cond.deps)

    def _reach(self, part: _Part, var: py.Name, grown: list[py.stmt]) -> Optional[tuple[py.expr, frozenset[Dep]]]:
        """R, the mask of the starts whose flood reaches the goal, for a part
        `exists(connected(var, C), G)` (the statements growing it added to
        `grown`), or None where the part is not that."""
        x = self.x
        e = part.expr
        if not (isinstance(e, ast.Call) and e.fn == "exists" and len(e.args) == 2 and "exists" not in x.defines):
            return None
        flood = e.args[0]
        if not (isinstance(flood, ast.Call) and flood.fn == "connected" and len(flood.args) == 2
                and "connected" not in x.defines):
            return None
        start = x.compile(flood.args[0], part.scope.child(sink=None))
        if start.type is not Type.SITE or not pyast.same(start.code, var):
            return None
        table_name = self.adjacency()
        table = x.src.namespace.get(table_name.id)
        n = x.n_sites
        if not (isinstance(table, tuple) and len(table) == n + 1 and symmetric(table, n)):
            return None
        steps = neighbours_by_distance(table, n)
        if len(steps) > MAX_SHIFTS:
            return None
        it = pyast.name(x.src.fresh("i"))
        within = self._about(flood.args[1], part.scope, "it", it)
        goal = self._goal(e.args[1], part.scope, it, table_name.id)
        if within is None or goal is None:
            return None
        allowed, allowed_deps = within
        goal_mask, goal_deps, stepped = goal
        found = self._grow(steps, allowed, goal_mask, stepped, grown)
        return found, allowed_deps | goal_deps

    def _about(self, cond: ast.Expr, scope: Scope, name: str, var: py.Name) -> Optional[tuple[py.expr, frozenset[Dep]]]:
        """The mask of the sites where `cond` holds of `name` (standing for `var`), or None."""
        inner = scope.child(sink=None)
        inner.locals[name] = Local(var, Type.SITE, real=True)
        lines, code = self.x.nested(inner, lambda nested: self.x.boolean(cond, nested))
        if lines:
            return None
        mask = self.site_masks.condition(code.code, var.id, kinds=True)
        return None if mask is None or _reads_a_loop(mask) else (mask, code.deps)

    def _goal(self, goal: ast.Expr, scope: Scope, it: py.Name,
              table: str) -> Optional[tuple[py.expr, frozenset[Dep], bool]]:
        """The mask the flood's goal is made of, what it reads, and whether the
        goal is that mask one step of the table grown: a condition of the
        site's own (not grown), or `exists(neighbours(it), D)` (`exists(m in
        neighbours(it), D)`) over the board's neighbours (D's mask, grown)."""
        plain = self._about(goal, scope, "it", it)
        if plain is not None:
            return plain[0], plain[1], False
        x = self.x
        inner = scope.child(sink=None)
        inner.locals["it"] = Local(it, Type.SITE, real=True)
        expanded = self._expanded(goal, inner)
        if expanded is None:
            return None
        goal, scope = expanded
        if not (isinstance(goal, ast.Call) and goal.fn == "exists" and len(goal.args) == 2):
            return None
        around, name = goal.args[0], "it"
        if isinstance(goal.args[0], ast.In) and isinstance(goal.args[0].item, ast.Name) and not goal.args[0].negated:
            around, name = goal.args[0].collection, goal.args[0].item.id
        inner = scope.child(sink=None)
        if not (isinstance(around, ast.Call) and around.fn == "neighbours" and len(around.args) == 1
                and "neighbours" not in x.defines):
            return None
        rows = x.compile(around, inner)
        if not (isinstance(rows.code, py.Subscript) and pyast.is_name(rows.code.value, table)
                and pyast.same(rows.code.slice, it)):
            return None
        neighbour = pyast.name(x.src.fresh("i"))
        held = self._about(goal.args[1], scope, name, neighbour)
        if held is None:
            return None
        return held[0], held[1] | rows.deps, True

    def _expanded(self, e: ast.Expr, scope: Scope) -> Optional[tuple[ast.Expr, Scope]]:
        """`e` with the defines it is written as replaced by their expressions
        (and the scope their parameters stand in); None where an argument would
        need statements."""
        defines = self.x.defines
        for _ in range(MAX_PARTS):
            if isinstance(e, ast.Name) and e.id in defines and e.id not in scope.locals and not defines[e.id].params:
                e = defines[e.id].expr
            elif isinstance(e, ast.Call) and e.fn in defines:
                sink: list[py.stmt] = []
                bound = self.bound_arguments(e, scope.child(sink=sink))
                if bound is None or sink:
                    return None
                e, scope = bound[0], bound[1].child(sink=None)
            else:
                return e, scope
        return None

    def _grow(self, steps: dict[int, int], allowed: py.expr, goal: py.expr, stepped: bool,
              grown: list[py.stmt]) -> py.Name:
        """Statements (added to `grown`) leaving R in a fresh local: the sites of
        `allowed` joined through them to a site of the goal (`goal`, or the sites
        one step from it where `stepped`) in `allowed`, a step of the table at a
        time. The last two answers are kept by `allowed` and `goal` in a table
        all such counts share (one for stepped goals, one for the others): the
        goal grown only where they do not answer."""
        src = self.x.src
        mask, target, last, before, fresh, found = (pyast.name(src.fresh("t")) for _ in range(6))
        cache = src.const([(-1, -1, 0), (-1, -1, 0)], key=("counted reach answers", stepped))
        start = _step(src, steps, target) if stepped else target

        def answers(entry: py.expr) -> py.expr:
            return pyast.and_(pyast.compare(pyast.sub(entry, 0), "==", mask),
                              pyast.compare(pyast.sub(entry, 1), "==", target))
        growth = [pyast.assign(found, pyast.binop(start, "&", mask)), pyast.assign(fresh, found),
                  pyast.while_(fresh, [
                      pyast.assign(fresh, pyast.binop(_step(src, steps, fresh), "&", pyast.binop(mask, "^", found))),
                      pyast.assign(found, pyast.binop(found, "|", fresh))]),
                  pyast.assign(pyast.sub(cache, 1), last),
                  pyast.assign(pyast.sub(cache, 0), pyast.tuple_(mask, target, found))]
        grown += [pyast.assign(mask, allowed), pyast.assign(target, goal),
                  pyast.assign(last, pyast.sub(cache, 0)), pyast.assign(before, pyast.sub(cache, 1)),
                  pyast.if_(answers(last), [pyast.assign(found, pyast.sub(last, 2))], [
                      pyast.if_(answers(before), [pyast.assign(found, pyast.sub(before, 2))], growth)])]
        return found

    def _full(self) -> py.expr:
        return self.x.src.const((1 << self.x.n_sites) - 1)


def _reads_a_loop(mask: py.expr) -> bool:
    """Whether a mask reads a loop's variable (`it != m` about the flood's site
    and its neighbour): not one mask for every site then."""
    return any(name[0] == "i" and name[1:].isdigit() for name in pyast.names_in([mask]))


def _step(src: Source, steps: dict[int, int], mask: py.expr) -> py.expr:
    """The sites one step of the table from a site of `mask` (a symmetric table:
    also the sites having a neighbour in it), as ANDs and shifts by distance."""
    near: Optional[py.expr] = None
    for d, sites in sorted(steps.items()):
        shifted = pyast.binop(copy.deepcopy(mask), "&", src.const(sites))
        part = pyast.binop(shifted, "*" if d > 0 else "//", src.const(1 << abs(d)))
        near = part if near is None else pyast.binop(near, "|", part)
    assert near is not None
    return near
