"""Literals, numbers and arithmetic, comparisons, and `and`/`or`/`not`/`if ... else`.

Constant operands are folded when the rules are compiled. In lowered mode the
right side of `and` and `or` and the branches of `if ... else` keep their
statements under the test that decides whether they run.
"""
from __future__ import annotations

import ast as py
from typing import Callable, Optional, Union

from ..parsing import ast
from ..runtime import helpers
from ..spelling import did_you_mean
from . import pyast
from .code import Code, Compiling, CountSum, Handler, describe, is_cheap, site_table
from .errors import RuleError
from .scope import Local, Scope
from .types import NUMBERS, Dep, Type, comparable, number_type

# Numbers a definition writes or stores are within this bound (see docs/format.md §5).
NUMBER_LIMIT = helpers.NUMBER_LIMIT

KindTest = Callable[[py.expr, frozenset[int], frozenset[Dep]], Code]
BoundedCount = Callable[[Code, str, int, Scope], Optional[Code]]
# `A OP B` is `B MIRRORED[OP] A`.
_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _one_direction(side: Code, other: Code, x: Compiling) -> Code:
    """`side` as the direction it names where it is the name of one direction (`n`,
    compiled as a set of one) compared with a direction (`d == n`); else itself."""
    if other.type is Type.DIR and side.type is Type.DIRS and side.is_const and len(side.const) == 1:
        return x.const(side.const[0], Type.DIR)
    return side


class LogicFamily:
    def __init__(self, x: Compiling):
        self.x = x
        # `piece is A or piece is B` fuses into one test (expr_pieces.PieceFamily.kind_test)
        self.kind_test: Optional[KindTest] = None
        # a count along a ray compared with a constant (expr_sites.SiteFamily.compared_ray_count)
        self.bounded: Optional[BoundedCount] = None

    def nodes(self) -> dict[type, Handler]:
        return {
            ast.Num: self.number, ast.DecimalNum: self.decimal, ast.Str: self.text, ast.Bool: self.truth,
            ast.NoneLit: self.nothing,
            ast.NoLegalAction: self.no_legal_action, ast.Neg: self.negative, ast.BinOp: self.arithmetic,
            ast.Compare: self.comparison, ast.And: self.and_, ast.Or: self.or_, ast.Not: self.not_,
            ast.IfExp: self.if_else,
        }

    def functions(self) -> dict[str, Handler]:
        return {"abs": self.abs, "player_after": self.player_after, "same_team": self.same_team}

    # ------------------------------------------------------------ literals
    def number(self, e: ast.Num, scope: Scope) -> Code:
        if abs(e.value) > NUMBER_LIMIT:
            raise RuleError(e.pos, f"numbers in the rules are at most {NUMBER_LIMIT:.0e} in size")
        return self.x.const(e.value, Type.INT)

    def decimal(self, e: ast.DecimalNum, scope: Scope) -> Code:
        """A number written with a point (`7.5`): exact, of type decimal even when whole."""
        if abs(e.value) > NUMBER_LIMIT:
            raise RuleError(e.pos, f"numbers in the rules are at most {NUMBER_LIMIT:.0e} in size")
        return self.x.const(e.value, Type.DECIMAL)

    def text(self, e: ast.Str, scope: Scope) -> Code:
        return self.x.const(e.value, Type.STR)

    def truth(self, e: ast.Bool, scope: Scope) -> Code:
        return self.x.const(e.value, Type.BOOL)

    def nothing(self, e: ast.NoneLit, scope: Scope) -> Code:
        return self.x.const(-1, Type.NONE)

    def no_legal_action(self, e: ast.NoLegalAction, scope: Scope) -> Code:
        if "no legal action" not in scope.available:
            raise RuleError(e.pos, f"'no legal action' has no meaning in {scope.where}: "
                                   "it is asked in 'before each turn'")
        return Code(pyast.name("stuck"), Type.BOOL)

    # ------------------------------------------------------------ numbers
    def negative(self, e: ast.Neg, scope: Scope) -> Code:
        c = self.x.expect(self.x.compile(e.operand, scope), NUMBERS, e.operand, "the operand of '-'")
        if c.is_const:
            return self.x.const(-c.const, c.type)
        return Code(pyast.neg(c.code), c.type, c.deps, cost=c.cost + 1)

    def arithmetic(self, e: ast.BinOp, scope: Scope) -> Code:
        x = self.x
        left = x.compile(e.left, scope)
        right = x.compile(e.right, scope)
        if left.type is Type.SITES and e.op in "+-":
            x.expect(right, (Type.SITES, Type.SITE), e.right, f"the right side of '{e.op}'")
            return self._site_set_op(e.op, left, right)
        if left.type is Type.SITE and right.type in (Type.SITES, Type.SITE) and e.op in "+-":
            raise RuleError(e.left.pos, f"the left side of '{e.op}' is a site, and '{e.op}' joins sets of sites",
                            f"a list makes a set of it: [X] {e.op} ... (format.md 3.12.1)")
        x.expect(left, NUMBERS, e.left, f"the left side of '{e.op}'")
        x.expect(right, NUMBERS, e.right, f"the right side of '{e.op}'")
        if e.op in ("//", "%", "/") and right.is_const and right.const == 0:
            raise RuleError(e.right.pos, "division by zero")
        if e.op == "/":
            return self._quotient(e, left, right)
        # (the whole number below a quotient is whole, decimal or not)
        type_ = Type.INT if e.op == "//" else number_type(left.type, right.type)
        deps, cost = left.deps | right.deps, left.cost + right.cost + 1
        if left.is_const and right.is_const:
            value = helpers.ARITHMETIC[e.op](left.const, right.const)
            return x.const(int(value) if type_ is Type.INT else value, type_)
        if e.op in ("//", "%") and not right.is_const:
            # A zero divisor at run time is a mistake of the rules: say where.
            helper = "h_floordiv" if e.op == "//" else "h_mod"
            checked: py.expr = pyast.helper(helper, left.code, right.code, x.src.const(e.pos))
            if is_cheap(right.code):
                # (a divisor read twice for nothing: the helper's call only when it
                # is zero — a bit mask walked `mask // bit % 2` divides every round)
                checked = pyast.ifexp(pyast.binop(left.code, e.op, right.code), right.code, checked)
            return Code(checked, type_, deps, cost=cost)
        joined = x.site_masks.sum_of_counts(left.code, right.code) if e.op == "+" else None
        if joined is not None:  # (two counts of one condition over disjoint sets: one count)
            return Code(joined, type_, deps, cost=cost)
        return Code(pyast.binop(left.code, e.op, right.code), type_, deps, cost=cost,
                    ray_count=self._count_sum(e.op, left, right))

    def _quotient(self, e: ast.BinOp, left: Code, right: Code) -> Code:
        """`A / B`: the exact quotient, a decimal number even when whole (a whole
        number is `A // B`); a zero divisor at run time is a located error."""
        if left.is_const and right.is_const:
            return self.x.const(helpers.divide(left.const, right.const, e.pos), Type.DECIMAL)
        code = pyast.helper("h_divide", left.code, right.code, self.x.src.const(e.pos))
        return Code(code, Type.DECIMAL, left.deps | right.deps, cost=left.cost + right.cost + 3)

    @staticmethod
    def _count_sum(op: str, left: Code, right: Code) -> Optional[CountSum]:
        """`A + B` or `A - N`, each side a count along a ray, a sum of them or a
        whole constant: the counts and the constant (compared with a constant, each
        count stops at the bound: expr_sites.compared_ray_count); None otherwise."""
        def parts(c: Code) -> Optional[tuple[tuple[object, ...], int]]:
            if isinstance(c.ray_count, CountSum):
                return c.ray_count.terms, c.ray_count.constant
            if c.ray_count is not None:
                return (c.ray_count,), 0
            if c.is_const and type(c.const) is int:
                return (), c.const
            return None
        a, b = parts(left), parts(right)
        if a is None or b is None or op not in ("+", "-") or (op == "-" and b[0]):
            return None
        return CountSum(a[0] + b[0], a[1] + b[1] if op == "+" else a[1] - b[1])

    def _site_set_op(self, op: str, left: Code, right: Code) -> Code:
        if right.type is Type.SITE:
            right = self.site_as_set(right)
        if left.static_sites is not None and right.static_sites is not None:
            a, b = set(left.static_sites), set(right.static_sites)
            return self.x.static_sites(a | b if op == "+" else a - b)
        if right.static_sites is not None:
            looked_up = self._row_of_table_joined(op, left, set(right.static_sites))
            if looked_up is not None:
                return looked_up
        if op == "-":
            without = self._without(left, right)
            if without is not None:
                return without
        deps, cost = left.deps | right.deps, left.cost + right.cost + left.size + right.size
        if op == "+" and not (isinstance(left.code, py.Call) and pyast.is_name(left.code.func, "h_union")):
            one, other = (_one_site(right.code), left) if _one_site(right.code) is not None \
                else (_one_site(left.code), right)
            if one is not None:
                # (`S + [X]`: the sites of S and X sorted in one step, no set of X made first)
                return Code(pyast.helper(_with_one_site(other), other.code, one), Type.SITES, deps, cost=cost,
                            distinct=True,
                            size=min(left.size + right.size, self.x.n_sites), fresh=True)
        helper = "h_union" if op == "+" else "h_minus"
        size = left.size + right.size if op == "+" else left.size
        joined = [left.code, right.code]
        if op == "+" and isinstance(left.code, py.Call) and pyast.is_name(left.code.func, "h_union"):
            # (a + b + c: one union of the three, sorted once)
            joined = [*left.code.args, right.code]
        return Code(pyast.helper(helper, *joined), Type.SITES, deps, cost=cost, size=min(size, self.x.n_sites))

    def _row_of_table_joined(self, op: str, left: Code, fixed: set[int]) -> Optional[Code]:
        """`T[i] - R` or `T[i] + R`, T a constant table of sets of sites (the
        neighbours by site, a region by player, ...) and R a fixed set: the row of
        the table with R taken out (or joined, sorted as `+` sorts) when the rules
        are compiled, `T'[i]`; None when the left side is no such row."""
        code = left.code
        table = site_table(self.x, code)
        if table is None or not isinstance(code, py.Subscript):
            return None
        if op == "-":
            rows = tuple(tuple(site for site in row if site not in fixed) for row in table)
        else:
            rows = tuple(tuple(sorted(set(row) | fixed)) for row in table)
        size = max((len(row) for row in rows), default=0)
        return Code(pyast.sub(self.x.src.const(rows), code.slice), Type.SITES, left.deps, cost=left.cost,
                    size=size)

    def _without(self, left: Code, right: Code) -> Optional[Code]:
        """`S - [X]` (or `S - X`), X one site: the sites of S but X,
        `h_without(S, X)`, without a set made of X first; None for anything else."""
        one = _one_site(right.code)
        if one is None:
            return None
        return Code(pyast.helper("h_without", left.code, one), Type.SITES, left.deps | right.deps,
                    cost=left.cost + right.cost + left.size, size=left.size, fresh=True)

    def site_as_set(self, c: Code) -> Code:
        if c.is_const:
            return self.x.static_sites(() if c.const == -1 else (c.const,))
        return Code(pyast.helper("h_sites", pyast.tuple_(c.code)), Type.SITES, c.deps, cost=c.cost, size=1)

    def abs(self, e: ast.Call, scope: Scope) -> Code:
        c = self.x.expect(self.x.compile(e.args[0], scope), NUMBERS, e.args[0], "the argument of 'abs'")
        if c.is_const:
            return self.x.const(abs(c.const), c.type)
        return Code(pyast.helper("abs", c.code), c.type, c.deps, cost=c.cost + 1)

    def player_after(self, e: ast.Call, scope: Scope) -> Code:
        x = self.x
        who = x.expect(x.compile(e.args[0], scope), (Type.PLAYER,), e.args[0], "the first argument of 'player_after'")
        places = x.expect(x.compile(e.args[1], scope), (Type.INT,), e.args[1], "the second argument of 'player_after'")
        count = x.n_players
        if len(e.args) == 3:
            return self._first_player_after(e, who, places, scope)
        if who.is_const and places.is_const:
            return x.const(helpers.player_after(who.const, places.const, count), Type.PLAYER)
        deps, cost = who.deps | places.deps, who.cost + places.cost + 2
        if who.is_const and who.const >= 0:
            # (a player named: never none, so the helper's test is not needed — a deal
            # going round from the first player, `player_after(p0, dealt // 6)`)
            after = places.code if who.const == 0 else pyast.binop(places.code, "+", pyast.num(who.const))
            return Code(pyast.binop(after, "%", pyast.num(count)), Type.PLAYER, deps, cost=cost)
        return Code(pyast.helper("h_player_after", who.code, places.code, pyast.num(count)), Type.PLAYER, deps,
                    cost=cost)

    def same_team(self, e: ast.Call, scope: Scope) -> Code:
        """`same_team(P, Q)`: one side — the same player, or two players of one team
        (a partner's bid doubled by the other side only); none is on no side."""
        x = self.x
        who = [x.expect(x.compile(arg, scope), (Type.PLAYER, Type.NONE), arg, f"the {nth} argument of 'same_team'")
               for arg, nth in zip(e.args, ("first", "second"))]
        side = list(range(x.n_players))
        for number, members in enumerate(x.model.teams.values()):
            for member in members:
                side[member] = x.n_players + number
        pairs = frozenset((p, q) for p in range(x.n_players) for q in range(x.n_players) if side[p] == side[q])
        if who[0].is_const and who[1].is_const:
            return x.const((who[0].const, who[1].const) in pairs, Type.BOOL)
        code = pyast.compare(pyast.tuple_(who[0].code, who[1].code), "in", x.src.const(pairs))
        return Code(code, Type.BOOL, who[0].deps | who[1].deps, cost=who[0].cost + who[1].cost + 2)

    def _first_player_after(self, e: ast.Call, who: Code, places: Code, scope: Scope) -> Code:
        """`player_after(P, N, COND)`: the first player, from the one N places after P
        on, round the turn order once, for which COND holds (`it` each player); none
        when none does or P is none — the next player in turn who can play."""
        x = self.x
        count = x.n_players
        var = x.src.fresh("i")
        # (no statements written before the expression: they could not read the loop's player)
        inner = scope.child(sink=None)
        inner.locals["it"] = Local(pyast.name(var), Type.PLAYER, always=True)
        cond = x.boolean(e.args[2], inner)
        # the players from each one on, round the order; none (-1) starts from no one
        rounds = x.src.const(tuple(tuple((p + k) % count for k in range(count)) for p in range(count)) + ((),))
        start = pyast.helper("h_player_after", who.code, places.code, pyast.num(count))
        element = pyast.name(var)
        code = pyast.helper("next", pyast.genexp(element, element, pyast.sub(rounds, start), cond.code), pyast.num(-1))
        deps = who.deps | places.deps | (cond.deps - {Dep.LOCALS})
        return Code(code, Type.PLAYER, deps, cost=who.cost + places.cost + 2 + count * (1 + cond.cost))

    # ------------------------------------------------------------ comparisons
    def comparison(self, e: ast.Compare, scope: Scope) -> Code:
        x = self.x
        left = x.compile(e.left, scope)
        right = x.compile(e.right, scope)
        op = e.op
        left, right = _one_direction(left, right, x), _one_direction(right, left, x)
        if op in ("<", "<=", ">", ">="):
            x.expect(left, NUMBERS, e.left, f"the left side of '{op}'")
            x.expect(right, NUMBERS, e.right, f"the right side of '{op}'")
        elif not comparable(left.type, right.type):
            self._check_flag_option(e)
            raise RuleError(e.pos, f"cannot compare {describe(left)} with {describe(right)}",
                            x.shadowed_option(e.left, left) or x.shadowed_option(e.right, right))
        if Type.STR in (left.type, right.type):
            self._check_option_value(e)
        if left.is_const and right.is_const:
            return x.const(helpers.COMPARISONS[op](left.const, right.const), Type.BOOL)
        bounded = self._bounded_count(left, op, right, scope)
        if bounded is not None:
            return bounded
        return Code(pyast.compare(left.code, op, right.code), Type.BOOL, left.deps | right.deps,
                    cost=left.cost + right.cost + 1)

    def _bounded_count(self, left: Code, op: str, right: Code, scope: Scope) -> Optional[Code]:
        """`count(ray(...)) OP N` or `N OP count(ray(...))`, N a whole number: the
        ray looked at no further than N needs (expr_sites.compared_ray_count)."""
        if right.ray_count is not None and left.is_const:
            left, op, right = right, _MIRRORED[op], left
        if left.ray_count is None or not right.is_const or type(right.const) is not int or self.bounded is None:
            return None
        return self.bounded(left, op, right.const, scope)

    def _check_option_value(self, e: ast.Compare) -> None:
        """`capture == "tpo"` is always false: catch the misspelt option value."""
        for side, other in ((e.left, e.right), (e.right, e.left)):
            if isinstance(side, ast.Name) and side.id in self.x.model.option_specs and isinstance(other, ast.Str):
                spec = self.x.model.option_specs[side.id]
                if spec.values is not None and other.value not in spec.values:
                    allowed = ", ".join(str(v) for v in spec.values)
                    raise RuleError(
                        other.pos,
                        f"option '{side.id}' is never \"{other.value}\" (its values: {allowed})",
                        did_you_mean(other.value, [str(v) for v in spec.values]),
                    )

    def _check_flag_option(self, e: ast.Compare) -> None:
        """`extra == "true"` with a true/false option: say what to write."""
        for side, other in ((e.left, e.right), (e.right, e.left)):
            if isinstance(side, ast.Name) and isinstance(other, ast.Str):
                spec = self.x.model.option_specs.get(side.id)
                if spec is not None and spec.type == "flag":
                    raise RuleError(other.pos, f"option '{side.id}' is true or false, never \"{other.value}\"",
                                    f"a flag option is a condition: write '{side.id}' or 'not {side.id}'")

    # ------------------------------------------------------------ and, or, not, if-else
    def and_(self, e: ast.And, scope: Scope) -> Code:
        return self._connective(e, scope, "and")

    def or_(self, e: ast.Or, scope: Scope) -> Code:
        return self._connective(e, scope, "or")

    def _connective(self, e: Union[ast.And, ast.Or], scope: Scope, keyword: str) -> Code:
        lowered = self._short_circuit(e, scope, keyword)
        if lowered is not None:
            return lowered
        return self.combine(keyword, self.x.boolean(e.left, scope), self.x.boolean(e.right, scope))

    def _short_circuit(self, e: Union[ast.And, ast.Or], scope: Scope, keyword: str) -> Optional[Code]:
        """`and`/`or` whose right side needs statements (lowered mode): they run only
        when the right side is evaluated. None when the plain form will do."""
        sink = scope.sink
        if sink is None:
            return None
        x = self.x
        left = x.boolean(e.left, scope)
        lines, right = x.nested(scope, lambda inner: x.boolean(e.right, inner))
        if not lines or left.is_const or right.is_const:
            sink.extend(lines)
            return self.combine(keyword, left, right)
        t = x.src.fresh("t")
        flag = pyast.name(t)
        written = [
            pyast.assign(flag, left.code),
            pyast.if_(flag if keyword == "and" else pyast.not_(flag), lines + [pyast.assign(flag, right.code)]),
        ]
        sink.extend(written)
        guarded = (tuple(written), left.code, lines, right) if keyword == "and" else None
        return Code(flag, Type.BOOL, left.deps | right.deps, cost=left.cost + right.cost, guarded=guarded)

    def combine(self, keyword: str, left: Code, right: Code) -> Code:
        const = self.x.const
        if keyword == "and":
            if left.is_const:
                return right if left.const else const(False, Type.BOOL)
            if right.is_const:
                return left if right.const else const(False, Type.BOOL)
        else:
            if left.is_const:
                return const(True, Type.BOOL) if left.const else right
            if right.is_const:
                return const(True, Type.BOOL) if right.const else left
            a, b = left.kind_test, right.kind_test
            if a is not None and b is not None and self.kind_test is not None and pyast.same(a[0], b[0]):
                # `piece is A or piece is B`: one test against a set of kinds
                return self.kind_test(a[0], a[1] | b[1], left.deps | right.deps)
        joined = pyast.and_(left.code, right.code) if keyword == "and" else pyast.or_(left.code, right.code)
        return Code(joined, Type.BOOL, left.deps | right.deps, cost=left.cost + right.cost)

    def not_(self, e: ast.Not, scope: Scope) -> Code:
        c = self.x.boolean(e.operand, scope)
        if c.is_const:
            return self.x.const(not c.const, Type.BOOL)
        return Code(pyast.not_(c.code), Type.BOOL, c.deps, cost=c.cost)

    def if_else(self, e: ast.IfExp, scope: Scope) -> Code:
        x = self.x
        cond = x.boolean(e.cond, scope)
        sink = scope.sink
        if sink is not None:
            lines_a, a = x.nested(scope, lambda inner: x.compile(e.then, inner))
            lines_b, b = x.nested(scope, lambda inner: x.compile(e.otherwise, inner))
        else:
            lines_a, a = [], x.compile(e.then, scope)
            lines_b, b = [], x.compile(e.otherwise, scope)
        if not comparable(a.type, b.type):
            raise RuleError(e.pos, f"both branches must have the same type: {describe(a)} / {describe(b)}")
        if cond.is_const:
            if sink is not None:
                sink.extend(lines_a if cond.const else lines_b)
            return a if cond.const else b
        type_ = a.type if a.type is not Type.NONE else b.type
        if a.type in NUMBERS and b.type in NUMBERS:
            type_ = number_type(a.type, b.type)
        deps, cost, size = cond.deps | a.deps | b.deps, cond.cost + max(a.cost, b.cost), max(a.size, b.size)
        if sink is not None and (lines_a or lines_b):
            t = x.src.fresh("t")
            sink.append(pyast.if_(cond.code, lines_a + [pyast.assign(pyast.name(t), a.code)],
                                  lines_b + [pyast.assign(pyast.name(t), b.code)]))
            return Code(pyast.name(t), type_, deps, cost=cost, size=size)
        return Code(pyast.ifexp(a.code, cond.code, b.code), type_, deps, cost=cost, size=size)


def _with_one_site(sites: Code) -> str:
    """The helper joining one site to `sites`: where they list each site once (the
    sites of pieces), no set is made to drop a second one."""
    return "h_with_site_distinct" if sites.distinct else "h_with_site"


def _one_site(code: py.expr) -> Optional[py.expr]:
    """X of `h_sites((X,))`, the set of one site (none: no site) as `[X]` or a
    site used as a set compile it; None for any other code."""
    if (isinstance(code, py.Call) and pyast.is_name(code.func, "h_sites") and len(code.args) == 1
            and isinstance(code.args[0], py.Tuple) and len(code.args[0].elts) == 1):
        return code.args[0].elts[0]
    return None
