"""`connected(X, COND)` and `connected(X, DIRS, COND)`: the sites reached from X
going from neighbour to neighbour through sites where COND holds (`it` each site
asked about), X's own sites included when they meet COND. A last argument `each
step A to B where STEP` (ast.StepRule) lets the flood take only the steps STEP
allows: asked in the loop that follows a site's neighbours, before the neighbour
is marked, so that one refused from here may be reached from elsewhere (in
lowered mode; elsewhere every step is asked first, as every site is:
`helpers.flood_steps`). A step not about B that cannot fail is asked once of
A, before the loop over its neighbours. The same rule on a `walk` is compiled
in actions.py.

In lowered mode the search is written out as loops (a breadth-first flood: the
list of sites found grows while it is walked, a mark per site asked so that COND
is asked of each site at most once). Where the set is consumed by `count`,
`exists` or `all` with a condition, the quantifier's body runs inside the flood
for each site as it is found (`fused_loop`), so that `exists(connected(X, C),
it in GOAL)` stops as soon as the goal is reached (where GOAL is a set of
sites known when compiling, the flood goes depth first towards it:
goal_search.py). Elsewhere the sites found are sorted into board order, as
every set of sites is. Outside lowered mode (a
`forbid passing` condition, say) COND is asked of every site first and a helper
floods (`helpers.flood`). Either way the work is bounded by the board: each site
is asked once and each edge followed once.
"""
from __future__ import annotations

import ast as py
import copy
from dataclasses import replace
from typing import Callable, Optional, Sequence

from ..parsing import ast
from . import pyast
from .code import Code, Compiling, Flood, Handler, Stmts, Witness, conjuncts, describe
from .errors import RuleError
from .goal_search import ordered_loop
from .names import CONTEXT_NAMES, reserved_word
from .necessary import mentions
from .per_listing import code_key
from .scope import Local, Scope
from .types import Dep, Type


def fused_loop(flood: Flood, var: str, body: Stmts) -> Stmts:
    """The flood with `body` run for each site found (`var` naming it) before its
    neighbours are asked: a `break` in the body ends the search."""
    expand = pyast.replace_in(list(flood.expand), pyast.renaming(flood.current, var))
    return list(flood.seeds) + [pyast.for_(pyast.name(var), flood.found, body + expand)]


def search(x: Compiling, start: Code, neighbours: py.expr, var: str, lines: Stmts, cond: py.expr,
           first: Sequence[py.stmt] = (), keep_path: bool = False,
           step: Optional[tuple[py.Name, Stmts, py.expr]] = None) -> Flood:
    """The parts of a flood from `start` (a site, a set of sites or none) through
    `neighbours` (a table by site) where `cond` holds of `var` (after `lines`),
    nothing written yet: `first` runs before it. With `keep_path` (a single start
    site, a fixed table of neighbours) each site found is marked with the site it
    was reached from, so that `exists` can keep the path to what it found
    (`witnessed_loop`). With `step` (the name of the site stepped from, the
    statements and the condition of the step to `var`), a neighbour is asked
    about only through a step meeting the condition: one refused may be
    reached by another step later (no path is kept: it would not say which
    steps it took)."""
    if step is None:
        seen, found, current = (pyast.name(x.src.fresh("t")) for _ in range(3))
    else:
        (seen, found), current = (pyast.name(x.src.fresh("t")) for _ in range(2)), step[0]
        keep_path = False
    site = pyast.name(var)
    keep_path = keep_path and start.type is Type.SITE and isinstance(neighbours, py.Name)

    def asked(mark: py.expr) -> Stmts:
        return [pyast.assign(pyast.sub(seen, site), mark)] + lines + [
            pyast.if_(cond, [pyast.expr_stmt(pyast.method(found, "append", site))])]

    unseen = pyast.not_(pyast.sub(seen, site))
    marks = pyast.helper("h_marks" if keep_path else "h_unmarked", pyast.num(x.n_sites + 1))
    seeds: Stmts = list(first) + [pyast.assign(seen, marks), pyast.assign(found, pyast.list_())]
    witness = None
    if start.type is Type.SITE:
        origin = start.code
        if keep_path:
            origin = pyast.name(x.src.fresh("t"))
            paths = x.src.const([None] * (x.n_sites + 1))
            witness = Witness(origin, paths, seen, var, tuple(lines), cond,
                              neighbours if isinstance(neighbours, py.Name) else None)
        seeds.append(pyast.assign(site, origin))
        seeds.append(pyast.if_(pyast.compare(site, "!=", pyast.num(-1)), asked(pyast.num(1))))
    elif start.type is not Type.NONE:
        seeds.append(pyast.for_(site, start.code, [pyast.if_(unseen, asked(pyast.num(1)))]))
    reached = pyast.add(current, pyast.num(2)) if keep_path else pyast.num(1)
    then = asked(reached) if step is None else list(step[1]) + [pyast.if_(step[2], asked(reached))]
    loop = pyast.for_(site, pyast.sub(neighbours, current), [pyast.if_(unseen, then)])
    expand: tuple[py.stmt, ...] = (loop,)
    if step is not None and not step[1] and var not in pyast.names_in([step[2]]) and _plain([step[2]]):
        # (a step not about the site stepped to: asked once of the site stepped
        # from, before the loop over its neighbours — skipped where it fails)
        loop.body = [pyast.if_(unseen, asked(reached))]
        expand = (pyast.if_(step[2], [loop]),)
    if witness is not None:
        first_start = [pyast.assign(witness.start, start.code)]
        return Flood((), tuple(first_start + seeds), found, expand, current.id, witness)
    return Flood((), tuple(seeds), found, expand, current.id)


# Generated code that reads and compares: a BinOp passes only with an operator
# of these (no division, no shift: nothing that may fail).
_PLAIN_NODES = (py.BoolOp, py.UnaryOp, py.Compare, py.Name, py.Constant, py.Subscript, py.IfExp, py.Load,
                py.boolop, py.unaryop, py.cmpop, py.BinOp, py.Add, py.Sub, py.Mult, py.BitOr, py.BitAnd, py.BitXor)


def _plain(code: Sequence[py.AST]) -> bool:
    """Whether generated code is expressions that read and compare, nothing
    that calls, divides or assigns: asked elsewhere (or where it was not
    asked), it cannot fail or change anything."""
    return all(isinstance(node, _PLAIN_NODES) for node in pyast.walk_all(code))


def witnessed_loop(flood: Flood, var: str, holds: Callable[[Stmts], Stmts], result: py.Name,
                   order: Optional[py.expr] = None, searching: Optional[Callable[[Stmts], Stmts]] = None,
                   failing: Optional[tuple[py.expr, ...]] = None,
                   before: Optional[py.Name] = None,
                   rests: Optional[tuple[py.Name, py.Name, py.expr]] = None) -> Stmts:
    """`exists` over a flood that keeps paths (`flood.witness`): `result` set to
    whether a site found meets the quantifier's condition (`holds(then)`: the
    statements running `then` when it holds of the site named `var`). The
    path found last from the same start (or the rest of one through it:
    helpers.keep_path) is tried first: when the condition still
    holds of every site on it and `body` of its end, the answer is yes without a
    search (the path is the proof, whatever changed elsewhere); otherwise the
    search runs as ever and keeps the path to the site it stops at. Exact either
    way; a search runs only when the position touched the path. With `order`,
    the search goes towards its goal first (goal_search.py). With `searching`,
    the search's statements are `searching(search)`, run where no kept path
    answers. With `failing` (the mask of the sites where the condition fails:
    site_masks.failing; a second table of paths by start; what keep_path
    needs to keep each path's bitmask, and the two tables of those masks by
    start), the kept path is tried as one AND of its bitmask, kept beside it,
    with that mask rather than site by site, and where it does not answer, so
    is the path kept before it (the search keeps it in the second table when
    it keeps a new one): a listing asks the search with one site after another
    left out (`it != to`), and a path around one of them is often cut by the
    next where the one before is not. More names in `failing`, in pairs (a
    table of paths by start, one of their bitmasks), add a try each, the paths
    kept before those two, the latest first. The mask is then kept in a local (the
    last of `failing`, the one before it the table of the sites' bits), and
    the search asks each site its bit against it, not the condition: one test
    for the condition's parts, on the same position (`site_masks.failing` is
    exact for every site where the condition reads nothing but the site's own
    tests and the position). With `before` instead (a second table of paths by
    start; outside a listing, where a `forbid result` check asks the search once
    for each candidate played), the path kept before the last is walked site by
    site the same way where the last fails: each candidate's search keeps a path
    around what it played, which the next candidate's often cuts where the path
    before it is whole. Exact as the first walk: every site and the end asked.
    With `rests` (two tables of bitmasks by start and the sites' bits; not with
    `failing`), the search keeps each path's bitmask beside it (helpers.keep_path,
    its last argument the tuple of the three names): the readers of a kept
    path's bitmask take it from there (result_reuse, kept_paths)."""
    witness = flood.witness
    assert witness is not None
    kept = pyast.name(var)  # (the path, then its end: `var` is free until the search)
    site = pyast.name(witness.site)
    path = pyast.sub(witness.paths, witness.start)
    walked = [pyast.assign(kept, pyast.sub(kept, pyast.num(-1)))] + holds([pyast.assign(result, pyast.true())])
    keeping: list[py.expr] = [witness.paths, witness.start, witness.marks, pyast.name(var)]
    tries: Stmts
    if failing is None:
        def walk_sites(lines: Sequence[py.stmt], cond: py.expr, then: Stmts) -> py.stmt:
            return pyast.if_(pyast.is_not_none(kept), [pyast.for_(site, kept, list(lines) + [
                pyast.if_(pyast.not_(cond), [pyast.break_()])], then)])
        tries = [walk_sites(witness.lines, witness.cond, walked)]
        if before is not None:  # (the path kept before it, tried the same way: outside a listing)
            keeping.append(before)
            tries.append(pyast.if_(pyast.not_(result), [
                pyast.assign(kept, pyast.sub(before, witness.start)),
                walk_sites(copy.deepcopy(list(witness.lines)), copy.deepcopy(witness.cond), copy.deepcopy(walked))]))
    else:
        made, before_paths, kept_masks, masks, before_masks, site_bits, mask, *earlier = failing
        assert isinstance(mask, py.Name)
        keeping += [before_paths, kept_masks]

        def walk(bits: py.expr) -> py.stmt:
            return pyast.if_(pyast.is_not_none(kept), [pyast.if_(pyast.not_(pyast.binop(
                pyast.sub(bits, witness.start), "&", mask)), copy.deepcopy(walked))])

        def walk_kept(paths: py.expr, bits: py.expr) -> py.stmt:
            return pyast.if_(pyast.not_(result), [pyast.assign(kept, pyast.sub(paths, witness.start)), walk(bits)])
        tries = [pyast.assign(mask, made), walk(masks), walk_kept(before_paths, before_masks)]
        # (the paths kept before those two: helpers.keep_path's pairs of tables)
        tries += [walk_kept(earlier[at], earlier[at + 1]) for at in range(0, len(earlier) - 1, 2)]
    if rests is not None and failing is None:
        if before is None:
            keeping.append(pyast.none())
        keeping += [pyast.none(), pyast.tuple_(*(copy.deepcopy(name) for name in rests))]
    found = [pyast.assign(result, pyast.true()),
             pyast.expr_stmt(pyast.helper("h_keep_path", *keeping)),
             pyast.break_()]
    search = fused_loop(flood, var, holds(found)) if order is None else ordered_loop(flood, var, holds(found), order)
    start, rest = search[0], search[1:]
    if failing is not None:  # (the search's condition asked as the site's bit against the mask)
        fails = pyast.binop(pyast.sub(copy.deepcopy(failing[5]), site), "&", failing[6])
        shape = pyast.key(witness.cond)

        def asked_by_bit(node: py.AST) -> Optional[py.AST]:
            if type(node) is type(witness.cond) and pyast.key(node) == shape:
                return pyast.not_(copy.deepcopy(fails))
            return None
        rest = pyast.replace_in(rest, asked_by_bit)
    return [start, pyast.assign(kept, path)] + tries + [
            pyast.if_(pyast.not_(result), rest if searching is None else searching(rest))]


def group_search(x: Compiling, start: Code, neighbours: py.expr) -> Flood:
    """`group(X)` as a flood (nothing written into the sink: its list is made by
    `h_group` unless a quantifier searches it): the sites holding pieces of the
    owner of X's piece, X's included (none when X is empty)."""
    var = x.src.fresh("i")
    at, owner, piece = (pyast.name(x.src.fresh("t")) for _ in range(3))
    # (-2, which no piece has, for an empty start: it is not in its own group)
    first = [pyast.assign(at, start.code), pyast.assign(piece, pyast.sub(pyast.name("b"), at)),
             pyast.assign(owner, pyast.ifexp(pyast.sub(piece, 0), pyast.is_not_none(piece), pyast.num(-2)))]
    on_it = pyast.sub(pyast.name("b"), pyast.name(var))
    same = pyast.and_(pyast.is_not_none(on_it), pyast.compare(pyast.sub(on_it, 0), "==", owner))
    return search(x, Code(at, Type.SITE), neighbours, var, [], same, first)


class ConnectedFamily:
    def __init__(self, x: Compiling, adjacency: Callable[[], py.Name]):
        self.x = x
        self.adjacency = adjacency  # the constant of each site's neighbours (board.adjacent), made when asked
        board = x.model.board
        self.max_degree = max((len(a) for a in board.adjacent), default=0)
        self.mask_names: dict[str, str] = {}  # (the owner masks' locals: prefilters.OwnerMasks.names)
        self._symmetric: Optional[bool] = None

    def nodes(self) -> dict[type, Handler]:
        return {ast.StepRule: self.misplaced_step}

    def functions(self) -> dict[str, Handler]:
        return {"connected": self.connected}

    def misplaced_step(self, e: ast.StepRule, scope: Scope) -> Code:
        raise RuleError(e.pos, "'each step A to B where CONDITION' goes only at the end of a 'walk N steps' "
                               "pattern or as the last argument of 'connected'")

    def step_scope(self, rule: ast.StepRule, scope: Scope, frm: py.expr, to: py.expr) -> Scope:
        """The scope of a step's condition: its two names the sites `frm` and `to`."""
        names = [rule.frm, rule.to]
        for name in names:
            reserved = reserved_word(name)
            if reserved:
                raise RuleError(rule.pos, reserved, "choose another name")
            if name in CONTEXT_NAMES or name in self.x.model.board.index:
                raise RuleError(rule.pos, f"'{name}' already means something here: give the sites of "
                                          "'each step A to B' new names")
        if rule.frm == rule.to:
            raise RuleError(rule.pos, f"'each step {rule.frm} to {rule.to}' names both sites alike: give the site "
                                      "stepped to another name")
        inner = scope.child()
        inner.locals[rule.frm] = Local(frm, Type.SITE, real=True)
        inner.locals[rule.to] = Local(to, Type.SITE, real=True)
        return inner

    def connected(self, e: ast.Call, scope: Scope) -> Code:
        x = self.x
        rule = e.args[-1] if isinstance(e.args[-1], ast.StepRule) else None
        args = e.args[:-1] if rule is not None else e.args
        if len(args) not in (2, 3) or any(isinstance(a, ast.StepRule) for a in args):
            raise RuleError(e.pos, "'connected' takes a site or sites, directions (on a grid, if wanted), a "
                                   "condition and, last, 'each step A to B where CONDITION' if wanted")
        start = x.compile(args[0], scope)
        if start.type not in (Type.SITE, Type.SITES, Type.NONE):
            start = x.as_sites(start)
        if start.type not in (Type.SITE, Type.SITES, Type.NONE):
            raise RuleError(args[0].pos, f"the first argument of 'connected' must be a site or a set of sites, "
                                         f"found {describe(start)}")
        neighbours = self.adjacency() if len(args) == 2 else self._adjacency_by(e, args[1], scope)
        var = x.src.fresh("i")
        inner = scope.child()
        inner.locals["it"] = Local(pyast.name(var), Type.SITE, real=True)
        n = x.n_sites
        if scope.sink is None:
            cond = x.boolean(args[-1], inner)
            deps = start.deps | (cond.deps - {Dep.LOCALS}) | {Dep.BOARD}
            every = pyast.helper("tuple", pyast.genexp(cond.code, pyast.name(var), x.src.const(tuple(range(n)))))
            cost = start.cost + n * (1 + cond.cost + self.max_degree)
            if rule is None:
                code = pyast.helper("h_flood", neighbours, self._seeds(start), every)
            else:
                # (every step asked first, as every site is: a row per site, in
                # the order of its neighbours)
                a, b = pyast.name(x.src.fresh("i")), pyast.name(x.src.fresh("i"))
                step = x.boolean(rule.cond, self.step_scope(rule, scope, a, b))
                row = pyast.helper("tuple", pyast.genexp(step.code, b, pyast.sub(neighbours, a)))
                steps = pyast.helper("tuple", pyast.genexp(row, a, x.src.const(tuple(range(n)))))
                code = pyast.helper("h_flood_steps", neighbours, self._seeds(start), every, steps)
                deps |= step.deps - {Dep.LOCALS}
                cost += n * self.max_degree * (1 + step.cost)
            return Code(code, Type.SITES, deps, cost=cost, size=n, fresh=True)
        lines, cond = x.nested(inner, lambda nested: x.boolean(args[-1], nested))
        stepping = None
        if rule is not None:
            current = pyast.name(x.src.fresh("t"))
            step_lines, step = x.nested(self.step_scope(rule, scope, current, pyast.name(var)),
                                        lambda nested: x.boolean(rule.cond, nested))
            stepping = (current, step_lines, step)
        return self._flood(start, neighbours, var, lines, cond, scope, stepping)

    def count_without(self, e: ast.Call, scope: Scope) -> Optional[Code]:
        """`count(connected(S, C and it != X))` in a lister's `where` (lowered
        mode), S a site, C about `it` and the position alone, X a site not
        about `it`, the board's neighbours going both ways: the sites reached
        from S within the region R of S where C holds, X taken out. Nothing
        changes R while the lister lists, so the first such count floods R and
        finds its cut points in one search (helpers.cut_structure, noted for
        every site of R in a table of the lister); every count after, whatever
        X, reads the answer from it (helpers.count_without): how many sites
        X's removal leaves with S. None where this does not apply (compiled as
        the count of the flood)."""
        x = self.x
        if scope.per_listing is None or scope.sink is None or len(e.args) != 2:
            return None
        parts = conjuncts(e.args[1])
        apart = [p for p in parts if isinstance(p, ast.Compare) and p.op == "!="
                 and any(isinstance(side, ast.Name) and side.id == "it" for side in (p.left, p.right))]
        if len(apart) != 1 or len(parts) < 2:
            return None
        left, right = apart[0].left, apart[0].right
        other = right if isinstance(left, ast.Name) and left.id == "it" else left
        if mentions(other, x.defines, frozenset({"it"})) or not self._both_ways():
            return None
        rest = [p for p in parts if p is not apart[0]]
        region_cond = rest[0]
        for part in rest[1:]:
            region_cond = ast.And(part.pos, region_cond, part)
        var = x.src.fresh("i")
        inner = scope.child(per_listing=None)
        inner.locals["it"] = Local(pyast.name(var), Type.SITE, real=True)
        lines, cond = x.nested(inner, lambda nested: x.boolean(region_cond, nested))
        if cond.deps - {Dep.LOCALS, Dep.BOARD} or not scope.per_listing.reads_position_only(
                lines, cond.code, self.mask_names.values(), var):
            return None
        first: Stmts = []  # (S's and X's statements: written only where this applies)
        start = x.compile(e.args[0], replace(scope, sink=first))
        if start.type is not Type.SITE:
            start = x.as_sites(start)
        without = x.compile(other, replace(scope, sink=first))
        if start.type is not Type.SITE or without.type is not Type.SITE:
            return None
        scope.sink.extend(first)
        neighbours = self.adjacency()
        # (one table per region's condition, whatever names its code has here)
        *asked, last = pyast.replace_in([*lines, py.Expr(cond.code)], pyast.renaming(var, "_it"))
        assert isinstance(last, py.Expr)
        table = scope.per_listing.table("cuts " + code_key(asked, py.Tuple(elts=[last.value, neighbours],
                                                                          ctx=py.Load())))
        seed, cuts = (pyast.name(x.src.fresh("t")) for _ in range(2))
        flood = search(x, Code(seed, Type.SITE), neighbours, var, lines, cond.code)
        region = fused_loop(flood, flood.current, [])
        scope.sink.extend([
            pyast.assign(seed, start.code),
            pyast.if_(pyast.is_none(table), [pyast.assign(table, pyast.helper("h_cut_table"))]),
            pyast.if_(pyast.compare(seed, "in", table), [pyast.assign(cuts, pyast.sub(table, seed))], region + [
                pyast.assign(cuts, pyast.helper("h_cut_structure", neighbours, flood.found, table))]),
        ])
        deps = start.deps | without.deps | (cond.deps - {Dep.LOCALS}) | {Dep.BOARD}
        # (the region flooded once per listing: each count after reads a site's neighbours)
        cost = start.cost + without.cost + 1 + cond.cost + 2 * self.max_degree
        return Code(pyast.helper("h_count_without", cuts, seed, without.code), Type.INT, deps, cost=cost)

    def _both_ways(self) -> bool:
        """Whether each site is its neighbours' neighbour on the board's table."""
        if self._symmetric is None:
            rows = self.x.model.board.adjacent
            self._symmetric = all(site in rows[n] for site, row in enumerate(rows) for n in row)
        return self._symmetric

    def _flood(self, start: Code, neighbours: py.expr, var: str, lines: Stmts, cond: Code, scope: Scope,
               stepping: Optional[tuple[py.Name, Stmts, Code]] = None) -> Code:
        """The flood written into the sink, its sites sorted into board order."""
        x = self.x
        assert scope.sink is not None
        step = None if stepping is None else (stepping[0], stepping[1], stepping[2].code)
        flood = search(x, start, neighbours, var, lines, cond.code, keep_path=True, step=step)
        written = tuple(fused_loop(flood, flood.current, []) + [pyast.assign(flood.found, pyast.helper("sorted",
                                                                                                      flood.found))])
        scope.sink.extend(written)
        deps = start.deps | (cond.deps - {Dep.LOCALS}) | {Dep.BOARD}
        cost = start.cost + x.n_sites * (1 + cond.cost + self.max_degree)
        if stepping is not None:
            deps |= stepping[2].deps - {Dep.LOCALS}
            cost += x.n_sites * self.max_degree * (1 + stepping[2].cost)
        return Code(flood.found, Type.SITES, deps, cost=cost,
                    size=x.n_sites, fresh=True,
                    flood=Flood(written, flood.seeds, flood.found, flood.expand, flood.current, flood.witness))

    def _seeds(self, start: Code) -> py.expr:
        """The sites a flood starts from, as something to loop over (none left out)."""
        if start.type is Type.NONE:
            return pyast.tuple_()
        if start.type is Type.SITE:
            return pyast.helper("h_sites", pyast.tuple_(start.code))
        return start.code

    def _adjacency_by(self, e: ast.Call, arg: ast.Expr, scope: Scope) -> py.expr:
        """Each site's neighbours in the directions of the second argument (a table
        per player when the directions are the player's own, `forward` say)."""
        board = self.x.model.board
        if board.kind != "grid":
            raise RuleError(e.pos, "'connected(site, directions, condition)' needs a grid board: directions are "
                                   "a grid's; on a graph board leave the directions out")
        directions = self.x.compile(arg, scope)
        if directions.type not in (Type.DIRS, Type.DIR):
            raise RuleError(arg.pos, f"the second argument of 'connected' must be directions, "
                                     f"found {describe(directions)}")
        rays = board.rays
        n = self.x.n_sites

        def table(chosen: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
            return tuple(tuple(rays[d][s][0] for d in chosen if rays[d][s]) for s in range(n)) + ((),)

        if directions.is_const:
            chosen = directions.const if directions.type is Type.DIRS else (directions.const,)
            return self.x.src.const(table(chosen))
        per_player = self.x.model.direction_sets.get(arg.id) if isinstance(arg, ast.Name) else None
        if per_player is None:
            raise RuleError(arg.pos, "the directions of 'connected' must be a direction set (e.g. orthogonal, "
                                     "forward)")
        tables = self.x.src.const(tuple(table(chosen) for chosen in per_player))
        return pyast.sub(tables, pyast.name(scope.register("player").site))
