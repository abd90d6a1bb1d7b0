"""Sets and quantifiers: `X in SET`, `pieces ... where`, count/exists/all,
sum/max/min/unique_max of an attribute, first.

In lowered mode a quantifier is a loop that stops as soon as it knows; over a
fixed set (of directions, say) the loop goes over rows of the tables its body
reads, looked up when the rules are compiled (`_rows`), and in the listers an
owner's mask may skip it (prefilters.py).
"""
from __future__ import annotations

import ast as py
import copy
from typing import Any, Callable, Optional

from ..parsing import ast
from ..runtime import helpers
from ..runtime.pieces import NEUTRAL
from ..spelling import did_you_mean
from . import counted_reach, pyast
from .code import (
    Code,
    Compiling,
    Flood,
    Handler,
    Stmts,
    all_pieces,
    always_a_player,
    conjuncts,
    is_call,
    iterated,
    name_of,
    site_table,
    when,
)
from .counted_reach import CountedReach
from .cut_pretest import decided_before, early_answer
from .errors import RuleError
from .expr_connected import fused_loop, witnessed_loop
from .expr_pieces import PieceFamily
from .expr_sites import SiteFamily
from .goal_search import goal_order, ordered_loop
from .journal import POSITION, PURE_HELPERS
from .kept_paths import KeptSearch
from .liberties import liberty_test, region_test
from .masked_reach import reach_answer
from .names import CONTEXT_NAMES, reserved_word
from .necessary import mentions
from .prefilters import OwnerMasks
from .scope import Local, Scope
from .tabulate import worked_out
from .types import ELEMENT, NUMBERS, Dep, Type, number_type

# Whether a search keeping its path outside a listing (a `forbid result` check, a
# rule after an action) tries the path kept before the last one too, where the last
# fails (expr_connected.witnessed_loop): for the tests comparing the two.
PATH_BEFORE = True
# Whether a search keeping its path (not as masks) keeps each path's bitmask beside
# it (helpers.keep_path's `bits_beside`), read by subscript: for the tests comparing the two.
PATH_BITS_KEPT = True
# How many paths kept before the last two a search trying its kept paths as masks (in
# a listing) tries too, where those fail (expr_connected.witnessed_loop): a listing's
# drops each cut a path near the last, and the search each makes keeps a path around
# it that the next often cuts too. 0: for the tests comparing.
PATHS_EARLIER = 2
# At most this many columns of tables are looked up for a loop over a fixed set.
MAX_COLUMNS = 8
# Builtins that change nothing (a loop calling only these and PURE_HELPERS keeps
# the position as it is).
_PURE_BUILTINS = frozenset({"len", "abs", "min", "max", "sum", "any", "all", "sorted", "tuple", "list", "set",
                            "range", "int", "bool"})


class SetFamily:
    def __init__(self, x: Compiling, sites: SiteFamily, pieces: PieceFamily, owner_masks: OwnerMasks):
        self.x = x
        self.sites = sites
        self.pieces = pieces
        self.owner_masks = owner_masks
        self.site_masks = x.site_masks
        # count(connected(...)) without one site, where it applies (ConnectedFamily.count_without)
        self.counted_flood: Optional[Callable[[ast.Call, Scope], Optional[Code]]] = None
        self.counted_reach: Optional[CountedReach] = None  # (set once the board's neighbours are known)
        self._symmetric: dict[str, bool] = {}  # (tables of neighbours by name: each site its neighbours' neighbour)
        self._searches: dict[str, int] = {}  # (the score's noted floods, each written one way: their numbers)

    def nodes(self) -> dict[type, Handler]:
        return {ast.In: self.in_, ast.Pieces: self.pieces_of}

    def functions(self) -> dict[str, Handler]:
        return {"count": self.count, "exists": self.exists, "all": self.all, "sum": self.sum,
                "max": self.maximum, "min": self.minimum, "unique_max": self.unique_max, "first": self.first,
                "last": self.last, "nth": self.nth}

    # ------------------------------------------------------------ membership
    def in_(self, e: ast.In, scope: Scope) -> Code:
        x = self.x
        item = x.compile(e.item, scope)
        coll = x.as_sites(x.compile(e.collection, scope))
        if coll.type is Type.PER_PLAYER:
            name = name_of(e.collection)
            raise RuleError(e.collection.pos, f"'{name}' differs per player: say whose, e.g. {name}[player]")
        if coll.type is Type.PLAYERS:
            x.expect(item, (Type.PLAYER,), e.item, "the left side of 'in'")
        elif coll.type is Type.DIRS:
            if item.type is Type.DIRS and item.is_const and len(item.const) == 1:
                item = x.const(item.const[0], Type.DIR)  # (a direction's name: the direction)
            x.expect(item, (Type.DIR,), e.item, "the left side of 'in'")
        elif coll.type is Type.DIR:
            raise RuleError(e.collection.pos, "the right side of 'in' is one direction, not a set",
                            "compare two directions with '==' (d == n); 'in' takes a set of sites, "
                            "players or a set of directions (d in diagonal)")
        else:
            x.expect(coll, (Type.SITES,), e.collection, "the right side of 'in'")
            x.expect(item, (Type.SITE,), e.item, "the left side of 'in'")
        deps, cost = item.deps | coll.deps, item.cost + coll.cost + 1
        code: py.expr
        if coll.mask is not None:
            if item.is_const:
                assert coll.static_sites is not None
                return x.const((item.const in coll.static_sites) != e.negated, Type.BOOL)
            code = pyast.sub(coll.mask, item.code)
        elif coll.region_by_player is not None:
            masks, player = coll.region_by_player
            code = pyast.sub(pyast.sub(masks, player), item.code)
        elif coll.bits is not None and coll.type is Type.SITES:
            # (a named group known as a bitmask: one AND with the site's bit, no
            # walk along its list)
            code = pyast.compare(pyast.binop(coll.bits, "&", pyast.sub(self.site_masks.bits(), item.code)),
                                 "!=", pyast.num(0))
        else:
            code = pyast.compare(item.code, "in", coll.code)
            cost += coll.size
        if e.negated:
            code = pyast.not_(code)
        return Code(code, Type.BOOL, deps, cost=cost)

    # ------------------------------------------------------------ pieces ...
    def pieces_of(self, e: ast.Pieces, scope: Scope) -> Code:
        x = self.x
        deps: frozenset[Dep] = frozenset({Dep.BOARD})
        sites: py.expr
        if e.owner is not None:
            owner = x.expect(x.compile(e.owner, scope), (Type.PLAYER,), e.owner, "the owner after 'pieces of'")
            deps |= owner.deps
            occ = pyast.name("o")
            fixed = owner.const if owner.is_const else _literal(owner.code)  # (a define's argument: a number)
            if fixed is not None:
                sites = pyast.sub(occ, pyast.num(fixed)) if fixed >= 0 else pyast.tuple_()
            elif always_a_player(owner.code, scope):
                sites = pyast.sub(occ, owner.code)
            else:
                first, again = x.share(owner, scope.child(walrus=False))
                sites = pyast.ifexp(pyast.sub(occ, again), pyast.compare(first, ">=", pyast.num(0)), pyast.tuple_())
        else:
            sites = all_pieces()
        where = e.where
        neutral = _neutral_part(e, x.model.kinds)
        if neutral is not None:
            # (the position keeps the neutral pieces' list, owner by owner as the loop
            # over every piece meets them: the same sites in the same order)
            sites, where = pyast.sub(pyast.name("o"), pyast.num(NEUTRAL)), neutral[0]
        size = x.n_sites
        if where is None:
            return Code(sites, Type.SITES, deps, cost=size, size=size, occupied=True, distinct=True)
        var = x.src.fresh("i")
        inner = scope.child()
        inner.locals["it"] = Local(pyast.name(var), Type.SITE, occupied=True)
        element = pyast.name(var)
        if scope.sink is not None:
            lines, cond = x.nested(inner, lambda nested: x.boolean(where, nested))
            t = pyast.name(x.src.fresh("t"))
            written = (
                pyast.assign(t, pyast.list_()),
                pyast.for_(element, iterated(sites), lines + [
                    pyast.if_(cond.code, [pyast.expr_stmt(pyast.method(t, "append", element))])]),
            )
            scope.sink.extend(written)
            deps |= cond.deps - {Dep.LOCALS}
            return Code(t, Type.SITES, deps, cost=size * (1 + cond.cost), size=size, fresh=True, occupied=True,
                        distinct=True,
                        filtered=(written, sites, var, tuple(lines), cond.code))
        cond = x.boolean(where, inner)
        deps |= cond.deps - {Dep.LOCALS}
        return Code(pyast.listcomp(element, element, iterated(sites), cond.code), Type.SITES, deps,
                    cost=size * (1 + cond.cost), size=size, fresh=True, occupied=True, distinct=True,
                    filtered=(None, sites, var, (), cond.code))

    # ------------------------------------------------------------ quantifiers
    def _collection(self, e: ast.Expr, scope: Scope, fn_name: str) -> Code:
        return self._as_collection(self.x.compile(e, scope.child(walrus=False)), e, fn_name)

    def _as_collection(self, compiled: Code, e: ast.Expr, fn_name: str) -> Code:
        c = self.x.as_sites(compiled)
        if c.type is Type.PER_PLAYER:
            raise RuleError(e.pos, f"'{name_of(e)}' differs per player: say whose, e.g. {name_of(e)}[player]")
        return self.x.expect(c, (Type.SITES, Type.PLAYERS, Type.DIRS), e, f"the first argument of '{fn_name}'")

    def _quantified(self, e: ast.Call, scope: Scope) -> tuple[Code, str]:
        """The set of count/exists/all and the name each element goes by: `it`, or
        NAME in `exists(NAME in SET, ...)` (so that an outer `it` stays reachable)."""
        first = e.args[0]
        if isinstance(first, ast.In) and isinstance(first.item, ast.Name) and not first.negated:
            name = first.item.id
            reserved = reserved_word(name)
            if reserved:
                raise RuleError(first.item.pos, reserved, "choose another name")
            # `exists(to in goal)` is a slip for `to in goal`, not a new name for `to`.
            if name in CONTEXT_NAMES or name in self.x.model.board.index:
                raise RuleError(
                    first.item.pos,
                    f"'{name}' already means something here: give the elements of {e.fn}(NAME in SET, ...) a new name",
                )
            return self._collection(first.collection, scope, e.fn), name
        return self._collection(first, scope, e.fn), "it"

    def _element(self, coll: Code, var: str) -> Local:
        return Local(pyast.name(var), ELEMENT[coll.type], always=coll.type is not Type.SITES, occupied=coll.occupied,
                     real=coll.type is Type.SITES)

    def count(self, e: ast.Call, scope: Scope) -> Code:
        if scope.sink is not None and len(e.args) == 1 and is_call(e.args[0], "ray", 3) and "ray" not in self.x.defines:
            return self.sites.ray_length(e.args[0], scope)  # type: ignore[arg-type]
        flood = e.args[0]
        if len(e.args) == 1 and isinstance(flood, ast.Call) and is_call(flood, "connected", 2) \
                and "connected" not in self.x.defines and self.counted_flood is not None:
            counted = self.counted_flood(flood, scope)  # (a count without one site: expr_connected)
            if counted is not None:
                return counted
        tested = _filter_as_test(e)
        if tested is not None:
            return self.count(tested, scope)
        named = self._named_filter(e, scope)
        if named is not None:
            return self.x.within_define(named[0], lambda: self.count(named[1], scope))
        coll, name = self._quantified(e, scope)
        if len(e.args) == 2:
            common = self._common_neighbours("count", e, coll, name, scope)
            if common is not None:
                return common
        if len(e.args) == 1:
            if coll.is_const:
                return self.x.const(len(coll.const), Type.INT)
            if pyast.same(coll.code, all_pieces()):  # (the lists' lengths added, no list of every piece made)
                return Code(pyast.helper("h_piece_count", pyast.name("o")), Type.INT, coll.deps, cost=coll.cost + 1)
            if coll.bits is not None and coll.type is Type.SITES:  # (a named group's bits: a popcount)
                return Code(pyast.method(coll.bits, "bit_count"), Type.INT, coll.deps, cost=2)
            return Code(pyast.helper("len", coll.code), Type.INT, coll.deps, cost=coll.cost + 1)
        return self._quantifier("count", coll, e.args[1], scope, name)

    def _named_filter(self, e: ast.Call, scope: Scope) -> Optional[tuple[ast.Name, ast.Call]]:
        """`exists(NAME)` / `count(NAME)`, NAME a define of `pieces [of P] where C`:
        (NAME, the call on the define's expression), which `_filter_as_test` then
        asks without a list; None otherwise."""
        named = e.args[0] if len(e.args) == 1 else None
        if not isinstance(named, ast.Name) or named.id in scope.locals or named.id in CONTEXT_NAMES:
            return None
        define = self.x.defines.get(named.id)
        if define is None or define.params or not isinstance(define.expr, ast.Pieces) or define.expr.where is None:
            return None
        return named, ast.Call(e.pos, e.fn, [define.expr])

    def exists(self, e: ast.Call, scope: Scope) -> Code:
        asked = liberty_test(self.x, e, scope)  # (liberties: asked of the groups the position keeps)
        if asked is not None:
            return asked
        tested = _filter_as_test(e)
        if tested is not None:
            return self.exists(tested, scope)
        named = self._named_filter(e, scope)
        if named is not None:
            return self.x.within_define(named[0], lambda: self.exists(named[1], scope))
        coll, name = self._quantified(e, scope)
        if len(e.args) == 2:
            common = self._common_neighbours("exists", e, coll, name, scope)
            if common is not None:
                return common
        if len(e.args) == 1:
            if coll.is_const:
                return self.x.const(len(coll.const) > 0, Type.BOOL)
            if coll.bits is not None and coll.type is Type.SITES:  # (a named group's bits)
                return Code(pyast.compare(coll.bits, "!=", pyast.num(0)), Type.BOOL, coll.deps, cost=2)
            return Code(pyast.compare(pyast.helper("len", coll.code), ">", pyast.num(0)), Type.BOOL, coll.deps,
                        cost=coll.cost + 1)
        return self._quantifier("exists", coll, e.args[1], scope, name)

    def all(self, e: ast.Call, scope: Scope) -> Code:
        asked = liberty_test(self.x, e, scope)
        if asked is not None:
            return asked
        coll, name = self._quantified(e, scope)
        return self._quantifier("all", coll, e.args[1], scope, name)

    def _common_neighbours(self, quantifier: str, e: ast.Call, coll: Code, name: str, scope: Scope) -> Optional[Code]:
        """count/exists over `neighbours(A)` whose condition asks first (a conjunct)
        that the element is in `neighbours(B)`, B not about the element: over the
        sites both neighbour, read from a table by A and B (in the order of A's
        neighbours), the rest of the condition asked of them alone — the sites
        beside the edge from A to B, say, without asking each of A's neighbours
        whether B neighbours it. None where the condition does not ask so."""
        x = self.x
        given = e.args[0].collection if isinstance(e.args[0], ast.In) else e.args[0]
        if not is_call(given, "neighbours", 1) or "neighbours" in x.defines:
            return None
        code = coll.code  # (`neighbours` made the table: asking for it again makes nothing)
        if not (isinstance(code, py.Subscript) and isinstance(code.value, py.Name)
                and code.value.id == self.sites.adjacency_table().id):
            return None
        parts = conjuncts(e.args[1])
        first = parts[0]
        if not (isinstance(first, ast.In) and not first.negated and isinstance(first.item, ast.Name)
                and first.item.id == name and is_call(first.collection, "neighbours", 1)):
            return None
        other = first.collection.args[0]  # type: ignore[attr-defined]
        if mentions(other, x.defines, frozenset({name})):
            return None
        b = x.expect(x.compile(other, scope), (Type.SITE,), other, "the argument of 'neighbours'")
        both = Code(pyast.sub(pyast.sub(self._common_table(), code.slice), b.code), Type.SITES, coll.deps | b.deps,
                    cost=coll.cost + b.cost + 2, size=coll.size)
        if len(parts) == 1:
            counted = pyast.helper("len", both.code)
            if quantifier == "count":
                return Code(counted, Type.INT, both.deps, cost=both.cost + 1)
            return Code(pyast.compare(counted, ">", pyast.num(0)), Type.BOOL, both.deps, cost=both.cost + 1)
        rest = parts[1]
        for part in parts[2:]:
            rest = ast.And(part.pos, rest, part)
        return self._quantifier(quantifier, both, rest, scope, name)

    def _common_table(self) -> py.Name:
        """By site A and site B (none, -1, the last row and column): the sites
        neighbouring both, in the order of A's neighbours."""
        adjacent = self.x.model.board.adjacent
        n = self.x.n_sites

        def row(a: int) -> tuple[tuple[int, ...], ...]:
            found: dict[int, list[int]] = {}
            for c in adjacent[a]:
                for b in adjacent[c]:
                    found.setdefault(b, []).append(c)
            return tuple(tuple(found[b]) if b in found else () for b in range(n + 1))
        return self.x.src.const(tuple(row(a) for a in range(n)) + (((),) * (n + 1),), key="common neighbours")

    def _quantifier(self, quantifier: str, coll: Code, e: ast.Expr, scope: Scope, name: str) -> Code:
        """count/exists/all with a condition: a loop where statements can be written,
        else one expression."""
        masked_group = region_test(self.x, quantifier, coll, e, name, scope)  # (a named group's bits: liberties.py)
        if masked_group is not None:
            return masked_group
        if quantifier == "count" and self.counted_reach is not None and counted_reach.ENABLED:
            # (the sites whose flood reaches a goal counted as masks: counted_reach.py)
            counted = self.counted_reach.count(coll, e, scope, name,
                                               lambda: self._element(coll, self.x.src.fresh("i")))
            if counted is not None:
                return counted
        if scope.sink is not None:
            return self._loop(quantifier, coll, e, scope, name)
        x = self.x
        var = x.src.fresh("i")
        inner = scope.child()
        inner.locals[name] = self._element(coll, var)
        cond = x.boolean(e, inner)
        deps = coll.deps | (cond.deps - {Dep.LOCALS})
        element = pyast.name(var)
        code: py.expr
        # (an exists/all as masks only where statements are written, `_written_loop`: a
        # `where` asked as one expression may be deferred to the drawn candidate, which
        # reads no lister's masks)
        masked = self.site_masks.quantified(quantifier, coll, cond.code, var) \
            if scope.listing and quantifier == "count" else None
        if masked is None and quantifier == "exists":
            masked = self.site_masks.full_line(coll, cond.code, var)
        if masked is not None:
            return Code(masked, Type.INT if quantifier == "count" else Type.BOOL, deps, cost=coll.cost + 3)
        if quantifier == "count":
            code = pyast.helper("len", pyast.listcomp(pyast.num(0), element, coll.code, cond.code))
            type_ = Type.INT
        else:
            code = pyast.helper("any" if quantifier == "exists" else "all",
                                pyast.genexp(cond.code, element, coll.code))
            type_ = Type.BOOL
        return Code(code, type_, deps, cost=coll.cost + coll.size * (1 + cond.cost))

    def _loop(self, quantifier: str, coll: Code, e: ast.Expr, scope: Scope, name: str) -> Code:
        """count/exists/all in lowered mode (`_written_loop`), with the regions'
        answers that floods inside keep (`_answered`) made before it: empty
        where nothing the floods read changes while the loop runs (no name they
        read is set in it, nothing in it writes the position), else None (none
        kept)."""
        sink = scope.sink
        assert sink is not None
        head = list(sink)
        memos: list[tuple[str, frozenset[str], Optional[py.expr]]] = []
        code = self._written_loop(quantifier, coll, e, scope, name, memos)
        if memos:
            before = next((i for i, (now, was) in enumerate(zip(sink, head)) if now is not was),
                          min(len(sink), len(head)))
            written = sink[before:]
            stored: set[str] = set()
            for stmt in written:
                stored |= pyast.stored_names(stmt)
            fixed = _writes_nothing(written)
            sink[before:before] = [pyast.assign(pyast.name(memo), pyast.none() if not fixed or reads & stored
                                                else pyast.tuple_() if key is None
                                                else pyast.helper("h_shared_notes", pyast.name("notes"), key,
                                                                  pyast.num(self.x.n_sites + 1)))
                                   for memo, reads, key in memos]
        return code

    def _written_loop(self, quantifier: str, coll: Code, e: ast.Expr, scope: Scope, name: str,
                      memos: list[tuple[str, frozenset[str], Optional[py.expr]]]) -> Code:
        """count/exists/all in lowered mode: a loop that stops as soon as it knows.
        Over `pieces ... where W` it is one loop over the pieces, asking W first,
        rather than a loop building their list and a loop over it. The floods
        inside note their memos in `memos`."""
        x = self.x
        sink = scope.sink
        assert sink is not None
        var = x.src.fresh("i")
        flood = coll.flood if coll.flood is not None and _ends_with(sink, coll.flood.written) else None
        if flood is not None:  # (`connected`: the body runs inside its search)
            del sink[len(sink) - len(flood.written):]
        where: Optional[tuple[Stmts, py.expr]] = None  # (W's statements, W's code) when the loop asks W itself
        filtered = coll.filtered
        if filtered is not None and filtered[0] is not None and _ends_with(sink, filtered[0]):
            del sink[len(sink) - len(filtered[0]):]
            _, sites, var, where_lines, where_code = filtered
            where = (list(where_lines), where_code)
            coll = Code(sites, coll.type, coll.deps, cost=coll.cost, size=coll.size, occupied=True)
        inner = scope.child(region_memos=memos)
        inner.locals[name] = self._element(coll, var)
        lines, cond = x.nested(inner, lambda nested: x.boolean(e, nested))
        t = pyast.name(x.src.fresh("t"))
        deps = coll.deps | (cond.deps - {Dep.LOCALS})
        cost = coll.cost + coll.size * (1 + cond.cost)
        if not lines and flood is None and where is None:
            masked = self.site_masks.quantified(quantifier, coll, cond.code, var) if scope.listing else None
            if masked is not None and quantifier != "count":  # (costs as its loop: see _quantifier)
                return Code(masked, Type.BOOL, deps, cost=cost)
            if masked is None and quantifier == "exists":
                masked = self.site_masks.full_line(coll, cond.code, var)
            if masked is not None:
                return Code(masked, Type.INT if quantifier == "count" else Type.BOOL, deps, cost=coll.cost + 3)

        def body(inside: Stmts) -> Stmts:
            if where is None:
                return inside
            return where[0] + [pyast.if_(where[1], inside)]

        def counted_loop(start: py.stmt, target: py.expr, iterable: py.expr, rows: Stmts) -> int:
            """`start`, then the loop of count or exists, which counts or finds
            nothing where its owner mask (prefilters.py) says no element can pass,
            and otherwise goes over the elements that can, bit by bit of the mask;
            returns where `start` stands in the sink."""
            loop: py.stmt = pyast.for_(target, iterable, rows)
            prefilter = self.owner_masks.prefilter(loop) if scope.listing and where is None else None
            if prefilter is not None:
                made, test, by_bit = prefilter
                sink.append(made)
                if by_bit is not None:
                    targets, table, site, inner_rows = by_bit
                    left, bit = pyast.name(x.src.fresh("l")), pyast.name(x.src.fresh("l"))
                    at = len(sink)
                    sink.extend([start, pyast.assign(left, test), pyast.while_(left, [
                        pyast.assign(bit, pyast.binop(left, "&", pyast.neg(left))),
                        pyast.augment(left, "^", bit),
                        pyast.assign(targets, pyast.sub(pyast.sub(table, site), bit)),
                    ] + inner_rows)])
                    return at
                loop = pyast.if_(test, [loop])
            at = len(sink)
            sink.extend([start, loop])
            return at

        if flood is not None:
            start = len(sink)
            initial = {"count": pyast.num(0), "exists": pyast.false(), "all": pyast.true()}[quantifier]
            counted: Stmts = [pyast.augment(t, "+", pyast.num(1))] if quantifier == "count" \
                else [pyast.assign(t, pyast.true()), pyast.break_()]
            failed: Stmts = [pyast.if_(pyast.not_(cond.code), [pyast.assign(t, pyast.false()), pyast.break_()])]
            sink.append(pyast.assign(t, initial))
            order = goal_order(x.src, flood, var, lines, cond.code, x.model.player_count) \
                if quantifier == "exists" else None
            # (a goal search keeps no sites; a flood whose answers are noted keeps no
            # path: the notes answer each region once a call, and a path kept paid its
            # keeping at every success and a walk at every site where positions change)
            memo = self._region_memo(flood, scope) if order is None else None
            searching, noted = (None, None) if memo is None else self._answered(memo, flood, t)
            written: Stmts
            reached: Optional[tuple[Stmts, py.expr]] = None
            if quantifier == "exists" and flood.witness is not None and memo is None:
                witness = flood.witness
                mask = self.site_masks.failing(witness.cond, witness.site, self.site_masks.kinds) \
                    if scope.listing and not witness.lines else None
                failing = None if mask is None else self._kept_masks(mask)
                # (the flood's start joined to its goal as masks, the goal's side
                # grown once for any start: masked_reach.py)
                reached = reach_answer(x.src, flood, var, lines, cond.code, self.site_masks.bits,
                                       lambda: x.src.const((1 << x.n_sites) - 1)) if failing is None else None
                if reached is not None:
                    written = [flood.seeds[0], *reached[0], pyast.assign(t, reached[1])]
                else:
                    # (outside a listing, where a check asks the search once for each candidate
                    # played, the path kept before the last is tried too: expr_connected)
                    before = None if scope.listing or failing is not None or not PATH_BEFORE \
                        else x.src.const([None] * (x.n_sites + 1))
                    # (each path's bitmask kept beside it: the recording and the screens read it)
                    rests = self._path_bits_kept() if failing is None and PATH_BITS_KEPT else None
                    written = witnessed_loop(flood, var, lambda then: when(lines, cond, then), t, order, searching,
                                             failing, before, rests)
                    first = flood.seeds[0]  # (the start's local set: expr_connected.search)
                    if failing is None and not lines and isinstance(first, py.Assign):
                        x.src.kept_searches[t.id] = KeptSearch(witness, before, var, cond.code, first.value)
                # (too few sites fail the flood's condition to cut any site off
                # from a fixed goal: true without a search, cut_pretest.py)
                early = early_answer(x.src, flood, var, lines, cond.code, self.site_masks.bits)
                if early is not None:
                    written = [written[0], pyast.if_(early, [pyast.assign(t, pyast.true())], written[1:])]
            elif order is not None:
                written = ordered_loop(flood, var, when(lines, cond, counted), order)
            else:
                each = lines + failed if quantifier == "all" else when(lines, cond, counted)
                written = fused_loop(flood, var, each)
                if searching is not None:
                    written = written[:1] + searching(written[1:])
            if memo is not None:
                assert noted is not None
                self._register_answers(written, memo, flood, scope, noted)
            sink.extend(written)
            type_ = Type.INT if quantifier == "count" else Type.BOOL
            # (an answer set in one assignment, not at a site found: no loop to run in)
            found_at = tuple(sink[start:]) if quantifier == "exists" and reached is None else None
            return Code(t, type_, deps, cost=cost, found_loop=found_at)
        if quantifier == "count":
            counted_loop(pyast.assign(t, pyast.num(0)),
                         *self._rows(var, coll, body(when(lines, cond, [pyast.augment(t, "+", pyast.num(1))]))))
            return Code(t, Type.INT, deps, cost=cost)
        if quantifier == "exists":
            found = when(lines, cond, [pyast.assign(t, pyast.true()), pyast.break_()])
            target, iterable, rows = self._rows(var, coll, body(found))
            # (a test that does not change in the loop and answers each element's
            # `not exists(...)` at once: the loop runs only where it fails)
            decided = decided_before(x.src, target, iterable, rows) if where is None else None
            if decided is not None:
                runs, rows = decided
            begin = len(sink)
            start = counted_loop(pyast.assign(t, pyast.false()), target, iterable, rows)
            if decided is None:
                return Code(t, Type.BOOL, deps, cost=cost, found_loop=tuple(sink[start:]))
            loop = sink[begin:start] + sink[start + 1:]
            del sink[begin:]
            sink.extend([pyast.assign(t, pyast.false()), pyast.if_(runs, loop)])
            return Code(t, Type.BOOL, deps, cost=cost)
        fails = pyast.if_(pyast.not_(cond.code), [pyast.assign(t, pyast.false()), pyast.break_()])
        target, iterable, rows = self._rows(var, coll, body(lines + [fails]))
        sink.extend([pyast.assign(t, pyast.true()), pyast.for_(target, iterable, rows)])
        return Code(t, Type.BOOL, deps, cost=cost)

    def _kept_masks(self, mask: py.expr) -> tuple[py.expr, ...]:
        """What expr_connected.witnessed_loop needs to try a kept path and the one
        before it as masks (`mask` the sites failing the flood's condition): the
        table of the paths kept before, what helpers.keep_path keeps their
        bitmasks with, the two tables of bitmasks by start, the table of the
        sites' bits and the local the mask is kept in (the search asks it too);
        then, for each of PATHS_EARLIER, a table of paths kept before those and
        the table of their bitmasks."""
        src, n = self.x.src, self.x.n_sites
        before = src.const([None] * (n + 1))
        masks, before_masks = src.const([0] * (n + 1)), src.const([0] * (n + 1))
        kept_tables = [src.value(masks), src.value(before_masks), src.value(self.site_masks.bits())]
        earlier: list[py.Name] = []
        for _ in range(PATHS_EARLIER):
            earlier += [src.const([None] * (n + 1)), src.const([0] * (n + 1))]
        kept_tables += [src.value(name) for name in earlier]
        kept = src.const(tuple(kept_tables))
        return (mask, before, kept, masks, before_masks, self.site_masks.bits(), pyast.name(src.fresh("t")),
                *earlier)

    def _path_bits_kept(self) -> tuple[py.Name, py.Name, py.expr]:
        """The two tables of bitmasks by start beside a search's tables of kept
        paths (its own and the one kept before) and the sites' bits, that
        helpers.keep_path's `bits_beside` keeps each path's bitmask in."""
        src, n = self.x.src, self.x.n_sites
        return src.const([0] * (n + 1)), src.const([0] * (n + 1)), self.site_masks.bits()

    def _region_memo(self, flood: Flood, scope: Scope) -> Optional[py.Name]:
        """The local keeping the answers of a count/exists/all over `connected(S,
        C)` by region (`_answered`), or None: only inside another such loop,
        for a flood from one site through a fixed table of neighbours where each
        site is the neighbour of its neighbours (then every site the flood finds
        reaches the same sites as S)."""
        witness = flood.witness
        if scope.region_memos is None or witness is None or witness.neighbours is None:
            return None
        table = witness.neighbours.id
        if table not in self._symmetric:
            rows = self.x.src.namespace.get(table)
            self._symmetric[table] = isinstance(rows, tuple) and all(
                isinstance(row, tuple) and all(0 <= n < len(rows) and site in rows[n] for n in row)
                for site, row in enumerate(rows))
        return pyast.name(self.x.src.fresh("l")) if self._symmetric[table] else None

    def _answered(self, memo: py.Name, flood: Flood, t: py.Name) -> tuple[Callable[[Stmts], Stmts], py.If]:
        """For a count/exists/all over `connected(S, C)` (its answer in `t`): a
        search made to read first the answer `memo` holds for S (the flood's start)
        and, where it has none, to note the search's answer for each site found.
        Every site a flood from S finds has S's region (the sites meeting C
        connected to it), so the same answer, as long as the question is the
        same (`_register_answers`). So the score of area, each empty point asking
        what its region reaches, floods each region once."""
        witness = flood.witness
        assert witness is not None
        known = pyast.name(self.x.src.fresh("t"))
        # (a region of one site is asked no more: nothing noted)
        noted = pyast.if_(pyast.and_(pyast.compare(pyast.helper("len", flood.found), ">", pyast.num(1)),
                                     pyast.is_not_none(memo)), [pyast.assign(
            memo, pyast.helper("h_region_note", memo, flood.found, t, pyast.num(self.x.n_sites + 1)))])

        def searching(search: Stmts) -> Stmts:
            return [pyast.assign(known, pyast.ifexp(pyast.sub(memo, witness.start), memo, pyast.none())),
                    pyast.if_(pyast.is_not_none(known), [pyast.assign(t, known)], search + [noted])]
        return searching, noted

    def _register_answers(self, written: Stmts, memo: py.Name, flood: Flood, scope: Scope, noted: py.If) -> None:
        """`memo` registered for the loop around (`_loop`), with the names that
        `written` (S put in the flood's start, then the rest) reads besides S:
        the loop makes it empty (answers kept) where none of them changes while
        it runs, else None (none kept); in the score, the table the players'
        calls share where the flood has a key (`_shared_key`), and then `noted`
        notes regions of one site too."""
        witness = flood.witness
        assert witness is not None and scope.region_memos is not None
        first, rest = written[0], written[1:]
        assert isinstance(first, py.Assign) and pyast.is_name(first.targets[0], witness.start.id)
        stored: set[str] = set()
        for stmt in rest:
            stored |= pyast.stored_names(stmt)
        reads = frozenset(pyast.names_in(rest) - stored - {witness.start.id, memo.id})
        key = None if scope.score_notes is None else self._shared_key(rest, reads, scope.score_notes)
        if key is not None:  # (a region of one site noted too: the other players' calls read it)
            noted.test = pyast.is_not_none(memo)
        scope.region_memos.append((memo.id, reads, key))

    def _shared_key(self, rest: Stmts, reads: frozenset[str], notes: list[int]) -> Optional[py.expr]:
        """In the score: the key under which the regions' answers of a noted flood
        (`rest`, reading `reads`) are kept for every player's call on one position
        (Results.scores gives the calls one table, `notes`), or None where they
        are kept for the call alone. The score changes nothing, so a flood's answers
        hold for every call that searches the same way with the same values: the
        key is the flood's number, the same for floods written alike once the player
        `p` and each part made of it alone (`1 - p`) are left open, and those parts'
        values (none for a flood not reading `p`). Only where the flood reads nothing else that may change from one
        call to the next (the position, constants, helpers and builtins)."""
        fixed = POSITION | _PURE_BUILTINS | {"p"}
        if any(name not in fixed and not name.startswith("h_") and name not in self.x.src.namespace
               for name in reads) or "p" not in reads and "p" in pyast.names_in(rest):
            return None  # (something else read, or a `p` of its own)
        parts: list[py.expr] = []

        def opened(node: py.AST) -> Optional[py.AST]:
            if isinstance(node, py.expr) and _of_player(node):
                parts.append(node)
                return py.Name(id=f"_{len(parts)}", ctx=py.Load())
            return None
        written = pyast.replace_in(rest, opened)
        temporaries: dict[str, str] = {}

        def renamed(node: py.AST) -> Optional[py.AST]:
            if isinstance(node, py.Name) and node.id not in reads and not node.id.startswith("_"):
                return py.Name(id=temporaries.setdefault(node.id, f"_t{len(temporaries)}"), ctx=node.ctx)
            return None
        form = py.dump(py.Module(body=pyast.replace_in(written, renamed), type_ignores=[]))
        number = self._searches.setdefault(form, len(self._searches))
        notes.append(number)
        return pyast.tuple_(pyast.num(number), *(copy.deepcopy(part) for part in parts))

    def _rows(self, var: str, coll: Code, body: Stmts) -> tuple[py.expr, py.expr, Stmts]:
        """(target, iterable, body) of the loop of `var` over `coll`. Over a fixed
        set (of directions, say), the tables its elements index (`k2[i0]`: the
        neighbour of each site in direction i0; `k5[k3[i0]]`: the ray in the
        opposite direction) are looked up once, when the rules are compiled: the
        loop goes over rows of them, one lookup less per use and none of a table's
        name."""
        src = self.x.src
        plain = (pyast.name(var), iterated(coll.code), body)
        if not coll.is_const or not isinstance(coll.const, (tuple, list)):
            return plain
        columns: list[tuple[str, list[Any]]] = []  # (name, its value for each element)
        known = {var: list(coll.const)}
        while len(columns) < MAX_COLUMNS:
            found = self._table_read(body, known)
            if found is None:
                break
            table, index = found
            try:
                values = [src.namespace[table][v] for v in known[index]]
            except (KeyError, IndexError, TypeError):
                return pyast.name(var), iterated(coll.code), body
            column = src.fresh("i")
            columns.append((column, values))
            known[column] = values
            body = pyast.replace_in(body, _reading(table, index, column))
        if not columns:
            return plain
        columns = [(name, values) for name, values in columns if pyast.uses(body, name)]
        if pyast.uses(body, var):
            columns.append((var, list(coll.const)))
        by_site = self._rows_at_one_site(columns, body)
        if by_site is not None:
            return by_site
        rows = tuple(zip(*(values for _, values in columns)))
        if len(columns) == 1:
            return pyast.name(columns[0][0]), src.const(tuple(row[0] for row in rows)), body
        return pyast.tuple_(*(pyast.name(name) for name, _ in columns)), src.const(rows), body

    def _table_read(self, body: Stmts, known: dict[str, list[Any]]) -> Optional[tuple[str, str]]:
        """The first read `kN[iM]` in `body` of a constant table by an element
        variable of `known`: (table, variable)."""
        for node in pyast.walk_all(body):
            if isinstance(node, py.Subscript) and isinstance(node.value, py.Name) and isinstance(node.slice, py.Name):
                table, index = node.value.id, node.slice.id
                if table[0] == "k" and index in known and isinstance(self.x.src.namespace.get(table), tuple):
                    return table, index
        return None

    def _rows_at_one_site(self, columns: list[tuple[str, list[Any]]], body: Stmts) -> Optional[tuple[py.expr, py.expr, Stmts]]:  # noqa: E501
        """When every column is a table read at one and the same site that the loop
        does not change (`i2[to]`), the rows are looked up per site once, when the
        rules are compiled: the loop goes over the rows of that site."""
        site: Optional[str] = None
        for name, values in columns:
            if not all(isinstance(v, tuple) for v in values):
                return None
            indices = _indices_of(body, name)
            if indices is None or len(indices) != 1 or (site is not None and indices != {site}):
                return None
            site = indices.pop()
        if site is None or pyast.assigns(body, site):
            return None
        size = len(columns[0][1][0])
        if any(len(v) != size for _, values in columns for v in values) or size > 100_000:
            return None
        per_site = tuple(tuple(tuple(values[d][s] for _, values in columns) for d in range(len(columns[0][1])))
                         for s in range(size))
        src = self.x.src
        names = [src.fresh("i") for _ in columns]
        for (name, _), new in zip(columns, names):
            body = pyast.replace_in(body, _reading(name, site, new))
        table = src.const(per_site)
        if len(names) == 1:
            table = src.const(tuple(tuple(row[0] for row in rows) for rows in per_site))
            return pyast.name(names[0]), pyast.sub(table, pyast.name(site)), body
        return pyast.tuple_(*(pyast.name(n) for n in names)), pyast.sub(table, pyast.name(site)), body

    # ------------------------------------------------------------ sums and extremes
    def _sites_argument(self, e: ast.Call, scope: Scope, name: str) -> Code:
        return self.x.expect(self._collection(e.args[0], scope, name), (Type.SITES,), e.args[0],
                             f"the first argument of '{name}'")

    def _measure(self, e: ast.Expr, fn_name: str) -> int:
        """The second argument of sum/max/min/unique_max: an attribute name, as the
        index that helpers.measure understands (MEASURE_VALUE, MEASURE_HEIGHT or the
        attribute's index in the piece tuple)."""
        if not isinstance(e, ast.Name):
            raise RuleError(e.pos, f"the second argument of '{fn_name}' is an attribute name, e.g. value or height")
        name = e.id
        if name == "value":
            return helpers.MEASURE_VALUE
        if name == "height":
            return helpers.MEASURE_HEIGHT
        attr = self.x.model.attributes.get(name)
        if attr is None or attr.type != "int":
            ints = [a.name for a in self.x.model.attributes.values() if a.type == "int"] + ["value", "height"]
            raise RuleError(e.pos, f"'{name}' is not a numeric attribute", did_you_mean(name, ints))
        return attr.index

    def sum(self, e: ast.Call, scope: Scope) -> Code:
        x = self.x
        first = e.args[0]
        if isinstance(first, ast.In) and isinstance(first.item, ast.Name) and not first.negated:
            return self._sum_of_values(e, scope)
        coll = self._sites_argument(e, scope, "sum")
        measure = self._measure(e.args[1], "sum")
        fixed = self._fixed_sites(coll)
        if fixed is not None and 0 < len(fixed) <= MAX_SUM_WRITTEN_OUT and measure >= 0:
            # a few fixed sites: one expression, a term per site (an empty site's
            # piece E holds 0 in every number attribute)
            board = pyast.name("b")
            terms = [pyast.sub(pyast.sub(board, pyast.num(site)) if coll.occupied
                               else pyast.or_(pyast.sub(board, pyast.num(site)), x.empty), measure)
                     for site in fixed]
            total_code: py.expr = terms[0]
            for term in terms[1:]:
                total_code = pyast.add(total_code, term)
            return Code(total_code, Type.INT, coll.deps, cost=coll.cost + coll.size)
        if scope.sink is not None and measure >= 0:
            # written out as a loop: an attribute added up piece by piece
            total, site, piece = (pyast.name(x.src.fresh("t")) for _ in range(3))
            board = pyast.name("b")
            if coll.occupied:
                rows: Stmts = [pyast.augment(total, "+", pyast.sub(pyast.sub(board, site), measure))]
            else:
                rows = [pyast.assign(piece, pyast.sub(board, site)),
                        pyast.if_(pyast.is_not_none(piece), [pyast.augment(total, "+", pyast.sub(piece, measure))])]
            scope.sink.extend([pyast.assign(total, pyast.num(0)), pyast.for_(site, coll.code, rows)])
            return Code(total, Type.INT, coll.deps, cost=coll.cost + coll.size)
        return Code(pyast.helper("h_sum", pyast.name("b"), coll.code, pyast.num(measure), self.pieces.values_table()),
                    Type.INT, coll.deps, cost=coll.cost + coll.size)

    def _sum_of_values(self, e: ast.Call, scope: Scope) -> Code:
        """`sum(NAME in SET, EXPR)`: the total of a number worked out for each element
        (of a set of sites, `players` or a set of directions) — the fifteens of a hand
        as the sum over its cards of a count, which `count` would only test."""
        x = self.x
        coll, name = self._quantified(e, scope)
        var = x.src.fresh("i")
        # (no statements written before the sum: they could not read the loop's element)
        inner = scope.child(sink=None)
        inner.locals[name] = self._element(coll, var)
        value = x.expect(x.compile(e.args[1], inner), NUMBERS, e.args[1], "the second argument of 'sum'")
        if coll.is_const and not coll.const:
            return x.const(0, Type.INT)
        code = pyast.helper("sum", pyast.genexp(value.code, pyast.name(var), coll.code))
        return Code(code, value.type, coll.deps | (value.deps - {Dep.LOCALS}),
                    cost=coll.cost + coll.size * (1 + value.cost))

    def _fixed_sites(self, coll: Code) -> Optional[tuple[int, ...]]:
        """The sites of `coll` when they are known while compiling (a region, one
        player's row of a region by player: `row[south]`), else None."""
        if coll.static_sites is not None:
            return coll.static_sites
        try:
            value = worked_out(self.x.src, coll.code, {})
        except ValueError:
            return None
        if isinstance(value, tuple) and all(type(site) is int and 0 <= site < self.x.n_sites for site in value):
            return value
        return None

    def maximum(self, e: ast.Call, scope: Scope) -> Code:
        return self._extreme(e, scope, "max")

    def minimum(self, e: ast.Call, scope: Scope) -> Code:
        return self._extreme(e, scope, "min")

    def _extreme(self, e: ast.Call, scope: Scope, name: str) -> Code:
        x = self.x
        if len(e.args) != 2:
            coll = self._sites_argument(e, scope, name)
        else:
            # Compiled once, as a set's argument is (no `:=` inside): in lowered mode a
            # set's loop lands in the sink, and a second compile would build it again.
            first = x.compile(e.args[0], scope.child(walrus=False))
            if first.type in NUMBERS:
                second = x.expect(x.compile(e.args[1], scope), NUMBERS, e.args[1],
                                  f"the second argument of '{name}'")
                type_ = number_type(first.type, second.type)
                if first.is_const and second.is_const:
                    pick: Callable[[Any, Any], Any] = max if name == "max" else min
                    return x.const(pick(first.const, second.const), type_)
                return Code(pyast.helper(name, first.code, second.code), type_, first.deps | second.deps,
                            cost=first.cost + second.cost + 1)
            coll = x.expect(self._as_collection(first, e.args[0], name), (Type.SITES,), e.args[0],
                            f"the first argument of '{name}'")
        measure = self._measure(e.args[1], name)
        cost = coll.cost + coll.size
        if scope.sink is not None and measure >= 0:
            return Code(self._extreme_loop(coll, measure, name, scope.sink), Type.INT, coll.deps, cost=cost)
        return Code(pyast.helper(f"h_{name}", pyast.name("b"), coll.code, pyast.num(measure),
                                 self.pieces.values_table()), Type.INT, coll.deps, cost=cost)

    def _extreme_loop(self, coll: Code, measure: int, name: str, sink: list[py.stmt]) -> py.expr:
        """max/min of an attribute written out as a loop (a roll or a turn's start
        asks it every ply): no list of the measures, no helper call; 0 for no piece."""
        src = self.x.src
        best, site, piece = (pyast.name(src.fresh("t")) for _ in range(3))
        measured = pyast.sub(piece, measure)
        rows: Stmts = [pyast.assign(piece, pyast.sub(pyast.name("b"), site))]
        if not coll.occupied:
            rows.append(pyast.if_(pyast.is_none(piece), [pyast.continue_()]))
        rows.append(pyast.if_(
            pyast.or_(pyast.is_none(best), pyast.compare(measured, ">" if name == "max" else "<", best)),
            [pyast.assign(best, measured)],
        ))
        sink.extend([
            pyast.assign(best, pyast.none()),
            pyast.for_(site, coll.code, rows),
            pyast.if_(pyast.is_none(best), [pyast.assign(best, pyast.num(0))]),
        ])
        return best

    def unique_max(self, e: ast.Call, scope: Scope) -> Code:
        x = self.x
        coll = self._sites_argument(e, scope, "unique_max")
        measure = self._measure(e.args[1], "unique_max")
        cost = coll.cost + coll.size
        if scope.sink is not None and measure >= 0:
            # written out as a loop (it often runs after every action)
            best, value, tie, site, piece = (pyast.name(x.src.fresh("t")) for _ in range(5))
            measured = pyast.sub(piece, measure)
            rows: Stmts = [pyast.assign(piece, pyast.sub(pyast.name("b"), site))]
            if not coll.occupied:
                rows.append(pyast.if_(pyast.is_none(piece), [pyast.continue_()]))
            rows.append(pyast.if_(
                pyast.or_(pyast.is_none(value), pyast.compare(measured, ">", value)),
                [pyast.assign(best, site), pyast.assign(value, measured), pyast.assign(tie, pyast.false())],
                [pyast.if_(pyast.compare(measured, "==", value), [pyast.assign(tie, pyast.true())])],
            ))
            scope.sink.extend([
                pyast.assign(best, pyast.num(-1)), pyast.assign(value, pyast.none()), pyast.assign(tie, pyast.false()),
                pyast.for_(site, coll.code, rows),
                pyast.if_(tie, [pyast.assign(best, pyast.num(-1))]),
            ])
            return Code(best, Type.SITE, coll.deps, cost=cost)
        return Code(pyast.helper("h_unique_max", pyast.name("b"), coll.code, pyast.num(measure),
                                 self.pieces.values_table()), Type.SITE, coll.deps, cost=cost)

    def first(self, e: ast.Call, scope: Scope) -> Code:
        beside = self._first_piece_beside(e, scope)
        if beside is not None:
            return beside
        coll = self._sites_argument(e, scope, "first")
        if coll.static_sites is not None:  # (a region: known when the rules are compiled)
            return self.x.const(coll.static_sites[0] if coll.static_sites else -1, Type.SITE)
        but = self._first_but(coll)
        if but is not None:
            return but
        table = site_table(self.x, coll.code)
        if table is not None and isinstance(coll.code, py.Subscript):  # (a row of a constant table: its first sites')
            firsts = self.x.src.const(tuple(min(row, default=-1) for row in table))
            return Code(pyast.sub(firsts, coll.code.slice), Type.SITE, coll.deps, cost=coll.cost)
        return Code(pyast.helper("h_first", coll.code), Type.SITE, coll.deps, cost=coll.cost + coll.size)

    def last(self, e: ast.Call, scope: Scope) -> Code:
        """`last(SET)`: the site of the set that comes last in board order (the far
        end of a ray: `last(ray(X, d, it is empty))`), or none."""
        coll = self._sites_argument(e, scope, "last")
        if coll.static_sites is not None:
            return self.x.const(max(coll.static_sites, default=-1), Type.SITE)
        table = site_table(self.x, coll.code)
        if table is not None and isinstance(coll.code, py.Subscript):
            lasts = self.x.src.const(tuple(max(row, default=-1) for row in table))
            return Code(pyast.sub(lasts, coll.code.slice), Type.SITE, coll.deps, cost=coll.cost)
        return Code(pyast.helper("h_last", coll.code), Type.SITE, coll.deps, cost=coll.cost + coll.size)

    def nth(self, e: ast.Call, scope: Scope) -> Code:
        """`nth(SET, N)`: the N-th site of the set in board order (1 the first), or
        none when it has fewer — the card an outcome `1 to K` picks among the K left."""
        x = self.x
        coll = self._sites_argument(e, scope, "nth")
        n = x.expect(x.compile(e.args[1], scope), (Type.INT,), e.args[1], "the second argument of 'nth'")
        deps = coll.deps | n.deps
        if coll.static_sites is not None:
            ordered = tuple(sorted(coll.static_sites))
            if n.is_const:
                return x.const(ordered[n.const - 1] if 0 < n.const <= len(ordered) else -1, Type.SITE)
            return Code(pyast.helper("h_nth_sorted", x.src.const(ordered), n.code), Type.SITE, deps,
                        cost=coll.cost + n.cost)
        return Code(pyast.helper("h_nth", coll.code, n.code), Type.SITE, deps, cost=coll.cost + n.cost + coll.size)

    def _first_piece_beside(self, e: ast.Call, scope: Scope) -> Optional[Code]:
        """`first(pieces where COND)`, a conjunct of COND asking that the piece
        is in `neighbours(X)`, X not about the piece: the first is the least
        site, whatever order the pieces are asked in, so the neighbours of X
        are asked in board order (a table of them sorted) whether a piece
        stands there and the other conjuncts hold, the first that does the
        answer — a few sites, not every piece (the reserves' too). None where
        the set is not so."""
        x = self.x
        arg = e.args[0] if len(e.args) == 1 else None
        if not isinstance(arg, ast.Pieces) or arg.where is None or "neighbours" in x.defines:
            return None
        if arg.owner is not None and not (isinstance(arg.owner, ast.Name) and arg.owner.id not in x.defines):
            return None
        parts = conjuncts(arg.where)
        beside = [part for part in parts if isinstance(part, ast.In) and not part.negated
                  and isinstance(part.item, ast.Name) and part.item.id == "it"
                  and is_call(part.collection, "neighbours", 1)
                  and not mentions(part.collection.args[0], x.defines, frozenset({"it"}))]  # type: ignore[attr-defined]
        if not beside:
            return None
        owner = None
        if arg.owner is not None:  # (a player's pieces: the piece's owner that player, never none)
            owner = x.compile(arg.owner, scope)
            fixed = owner.const if owner.is_const else _literal(owner.code)
            if owner.type is not Type.PLAYER or not (fixed is not None and fixed >= 0 or fixed is None
                                                     and always_a_player(owner.code, scope)):
                return None
        rest = [part for part in parts if part is not beside[0]]
        centre = x.expect(x.compile(beside[0].collection.args[0], scope), (Type.SITE,),  # type: ignore[attr-defined]
                          beside[0], "the argument of 'neighbours'")
        adjacent = x.model.board.adjacent
        ordered = x.src.const(tuple(tuple(sorted(row)) for row in adjacent) + ((),), key="adjacent in board order")
        var = x.src.fresh("i")
        element = pyast.name(var)
        inner = scope.child()
        inner.locals["it"] = Local(element, Type.SITE, occupied=True)
        condition: ast.Expr = rest[0] if rest else ast.Bool(arg.pos, True)
        for part in rest[1:]:
            condition = ast.And(part.pos, condition, part)
        standing: py.expr = pyast.is_not_none(pyast.sub(pyast.name("b"), copy.deepcopy(element)))
        deps = centre.deps | {Dep.BOARD}
        if owner is not None:
            owned = pyast.compare(pyast.sub(pyast.sub(pyast.name("b"), copy.deepcopy(element)), 0), "==", owner.code)
            standing, deps = pyast.and_(standing, owned), deps | owner.deps
        degree = max((len(row) for row in adjacent), default=0)
        if scope.sink is not None:
            lines, cond = x.nested(inner, lambda nested: x.boolean(condition, nested))
            found = pyast.name(x.src.fresh("t"))
            taken: Stmts = [pyast.assign(found, element), py.Break()]
            if not (cond.is_const and cond.const is True):
                taken = [pyast.if_(cond.code, taken)]
            scope.sink.extend([
                pyast.assign(found, pyast.num(-1)),
                pyast.for_(element, pyast.sub(ordered, centre.code), [pyast.if_(standing, lines + taken)]),
            ])
            return Code(found, Type.SITE, deps | (cond.deps - {Dep.LOCALS}),
                        cost=centre.cost + degree * (2 + cond.cost))
        cond = x.boolean(condition, inner)
        if not (cond.is_const and cond.const is True):
            standing = pyast.and_(standing, cond.code)
        listed = pyast.listcomp(element, element, pyast.sub(ordered, centre.code), standing)
        return Code(pyast.helper("h_first", listed), Type.SITE, deps | (cond.deps - {Dep.LOCALS}),
                    cost=centre.cost + degree * (2 + cond.cost))

    def _first_but(self, coll: Code) -> Optional[Code]:
        """`first(T[i] - [X])`, T a constant table of sets of sites: the first site
        of T's row sorted when the rules are compiled that is not X,
        `h_first_but(T'[i], X)`, without the list of the others made first."""
        code = coll.code
        if not (isinstance(code, py.Call) and pyast.is_name(code.func, "h_without")):
            return None
        row, site = code.args
        table = site_table(self.x, row)
        if table is None or not isinstance(row, py.Subscript):
            return None
        ordered = self.x.src.const(tuple(tuple(sorted(r)) for r in table))
        return Code(pyast.helper("h_first_but", pyast.sub(ordered, row.slice), site), Type.SITE, coll.deps,
                    cost=coll.cost)


# The most sites of a fixed set whose `sum` is written out term by term (no loop).
MAX_SUM_WRITTEN_OUT = 8


def _filter_as_test(e: ast.Call) -> Optional[ast.Call]:
    """`exists(pieces [of P] where COND)` as `exists(pieces [of P], COND)` (and
    `count` likewise): `it` is the piece in both, and the quantifier's own loop
    stops at the first piece passing (exists) or counts without a list of them,
    where the filter would make the list first. None for any other call."""
    pieces = e.args[0] if len(e.args) == 1 else None
    if not isinstance(pieces, ast.Pieces) or pieces.where is None:
        return None
    if pieces.owner is None and all(map(_is_neutral_test, conjuncts(pieces.where))):
        return None  # (the neutral pieces are a list the position keeps: its length, no loop)
    return ast.Call(e.pos, e.fn, [ast.Pieces(pieces.pos, pieces.owner, None), pieces.where])


def _neutral_part(e: ast.Pieces, kinds: Any) -> Optional[tuple[Optional[ast.Expr]]]:
    """For `pieces where ... it is neutral ...` (a conjunct of the filter; no
    owner named), the rest of the filter (None where nothing is left), in a
    1-tuple; else None: the pieces of nobody are the neutral pieces' list, which
    the position keeps as it keeps each player's."""
    if e.owner is not None or e.where is None or "neutral" in kinds:
        return None
    parts = conjuncts(e.where)
    kept = [part for part in parts if not _is_neutral_test(part)]
    if len(kept) == len(parts):
        return None
    rest: Optional[ast.Expr] = None
    for part in kept:
        rest = part if rest is None else ast.And(part.pos, rest, part)
    return (rest,)


def _is_neutral_test(e: ast.Expr) -> bool:
    """Whether `e` is `it is neutral`."""
    return isinstance(e, ast.Is) and isinstance(e.obj, ast.Name) and e.obj.id == "it" and e.what == "neutral" \
        and not e.negated


def _literal(code: py.expr) -> Optional[int]:
    """The whole number `code` is written as, or None."""
    return code.value if isinstance(code, py.Constant) and type(code.value) is int else None


def _of_player(node: py.expr) -> bool:
    """Whether `node` is made of the player `p` and whole numbers alone (`p`, `1 -
    p`), naming `p`."""
    named = False
    for part in pyast.walk(node):
        if isinstance(part, py.Name):
            if part.id != "p":
                return False
            named = True
        elif not (isinstance(part, (py.BinOp, py.UnaryOp, py.operator, py.unaryop, py.expr_context))
                  or isinstance(part, py.Constant) and type(part.value) is int):
            return False
    return named


def _writes_nothing(stmts: Stmts) -> bool:
    """Whether `stmts` leave the position as it is: they call only helpers that
    change none and builtins, and store into no part of it."""
    for node in pyast.walk_all(stmts):
        if isinstance(node, py.Call):
            func = node.func
            if isinstance(func, py.Name):
                if func.id not in PURE_HELPERS and func.id not in _PURE_BUILTINS:
                    return False
            elif not (isinstance(func, py.Attribute) and func.attr == "append" and isinstance(func.value, py.Name)
                      and func.value.id not in POSITION):
                return False
        elif isinstance(node, (py.Subscript, py.Attribute)) and not isinstance(node.ctx, py.Load):
            if not isinstance(node.value, py.Name) or node.value.id in POSITION:
                return False
        elif isinstance(node, py.Delete):
            return False
    return True


def _ends_with(sink: Stmts, lines: tuple[py.stmt, ...]) -> bool:
    return len(sink) >= len(lines) and all(a is b for a, b in zip(sink[len(sink) - len(lines):], lines))


def _reading(table: str, index: str, new: str) -> Callable[[py.AST], Optional[py.AST]]:
    """A change for pyast.replace_nodes: `table[index]` (two names) becomes the name `new`."""

    def change(node: py.AST) -> Optional[py.AST]:
        if isinstance(node, py.Subscript) and pyast.is_name(node.value, table) and pyast.is_name(node.slice, index):
            return pyast.name(new)
        return None

    return change


def _indices_of(body: Stmts, name: str) -> Optional[set[str]]:
    """The names `name` is indexed by in `body` (`name[to]`), when it is read only
    so (else None)."""
    indices: set[str] = set()
    indexed = 0
    for node in pyast.walk_all(body):
        if isinstance(node, py.Subscript) and pyast.is_name(node.value, name):
            if not isinstance(node.slice, py.Name):
                return None
            indices.add(node.slice.id)
            indexed += 1
    return indices if indexed and indexed == pyast.uses(body, name) else None
