"""Values that depend only on the player and a site, looked up instead of worked
out: a pass over the generated functions.

Inside a loop over a constant collection of sites (`for q in k8:`), an expression
whose only names are the loop's variable, the player to move (`p`, loaded once
from the position and never set again) and constant tables — `len(k5[k4[p]][q])
if k2[p][q] else 7 + len(k5[k7[p]][q])`, a define like a sowing game's `place_of(q)`
written with rays and rows — has one value per player and site. It is worked
out once, when the rules are compiled, into a table by player and site, and the
loop reads `k20[p][q]`. Any definition gains where its rules compute such a
value per site of a loop; nothing is recognised but the shape of the generated
expression.

The values are worked out by a small evaluator of the node kinds allowed here
(names of constants, numbers, subscripts, `len`, arithmetic, comparisons,
conditional expressions, `and`/`or`/`not`): no generated code runs while
compiling. An expression that fails for some player and site (an index out of
range, a division by zero) is left as it was, so that it fails where it did.
Only immutable constants are read (tuples, numbers, truth values): a table the
generated code fills as it runs is never folded into another.
"""
from __future__ import annotations

import ast
import copy
import itertools
import operator
import weakref
from typing import Any, Callable, Optional, Sequence

from ..runtime import helpers
from ..runtime.pieces import DESTINATION, JUMPED, NO_SITE, ORIGIN
from . import pyast
from .source import Source

# The most values one table may hold, and the most values all tables of a module.
MAX_TABLE = 20_000
MAX_VALUES = 200_000

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
}
# The most values a part indexing a table may take (`X % C`: C at most this), and
# how the placeholders of such parts are named while a table is made (never
# written into the code: no generated name looks like them).
MAX_BOUND = 64
_BOUND = "bounded_"
# The register of the player to move, and the parameter holding the action code.
PLAYER = "p"
CODE = "code"


class _Unfit(Exception):
    """The expression cannot be worked out here."""


def tabulate(src: Source, players: int, sites: int = 0) -> None:
    """Every generated function of `src` with the expressions described above read
    from tables (`src.functions` rewritten; a function without any is kept;
    `sites`: how many sites the board has, 0 where no site of an action code is
    tabulated)."""
    tabulation = _Tabulation(src, players, sites)
    functions = []
    for function in src.functions:
        if isinstance(function, ast.FunctionDef) and player_fixed(function):
            before = tabulation.replaced
            body = tabulation.function_body(function)
            if tabulation.replaced != before:
                function = ast.FunctionDef(name=function.name, args=function.args, body=body, decorator_list=[],
                                           returns=None, type_comment=None, lineno=0, col_offset=0)
        functions.append(function)
    src.functions = functions


def worked_out(src: Source, node: ast.expr, env: dict[str, Any]) -> Any:
    """The value of `node` with the names of `env` given their values and every
    other name an immutable constant of `src`, by the evaluator below (no
    generated code runs); raises ValueError where it cannot be worked out."""
    return _evaluator(src).value(node, env)


class _Evaluator:
    """`worked_out` for one compilation: which constants are immutable and which
    names each expression reads are found once, not at every call (a proof asks
    the same expressions for every player and site)."""

    def __init__(self, src: Source):
        self.tabulation = _Tabulation(src, 0)
        # by id of an expression: the expression (kept, so that the id stays its
        # own) and the names it reads
        self.names: dict[int, tuple[ast.expr, frozenset[str]]] = {}

    def value(self, node: ast.expr, env: dict[str, Any]) -> Any:
        known = self.names.get(id(node))
        if known is None or known[0] is not node:
            called = {id(n.func) for n in pyast.walk(node) if isinstance(n, ast.Call)}
            known = self.names[id(node)] = (node, frozenset(
                n.id for n in pyast.walk(node) if isinstance(n, ast.Name) and id(n) not in called))
        tabulation = self.tabulation
        if not all(n in env or tabulation._immutable(n) for n in known[1]):
            raise ValueError("not a constant")
        try:
            return tabulation._value(node, env)
        except (_Unfit, ArithmeticError, IndexError, KeyError, TypeError) as exc:
            raise ValueError("cannot be worked out") from exc


# (by compilation: a source and its evaluator live and go together)
_EVALUATORS: weakref.WeakKeyDictionary[Source, _Evaluator] = weakref.WeakKeyDictionary()


def _evaluator(src: Source) -> _Evaluator:
    evaluator = _EVALUATORS.get(src)
    if evaluator is None:
        evaluator = _EVALUATORS[src] = _Evaluator(src)
    return evaluator


def player_fixed(function: ast.FunctionDef) -> bool:
    """Whether `p`, where the function has it, is set once, to the player to move
    (`p = s.player`, a statement of the function's own block), and never changed
    after."""
    if PLAYER in (arg.arg for arg in function.args.args):
        return False
    stores = pyast.store_counts(function).get(PLAYER, 0)
    if not stores:
        return not pyast.name_counts(function).get(PLAYER, 0)
    # (set once: the one statement of the block whose first target is `p`, if any, sets it)
    first = next((stmt for stmt in function.body if isinstance(stmt, ast.Assign)
                  and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == PLAYER
                  and not isinstance(stmt.targets[0].ctx, ast.Load)), None)
    return stores == 1 and first is not None and len(first.targets) == 1 \
        and isinstance(first.value, ast.Attribute) and pyast.is_name(first.value.value, "s") \
        and first.value.attr == "player"


def site_registers(function: ast.FunctionDef) -> frozenset[str]:
    """The names the function sets once, at its start, to a site of the action code
    it is given (`to = code[2]`, `frm = at = code[1]`) and never sets again: each
    holds a site of the board or NO_SITE (-1) wherever it is read after that
    statement (runtime/pieces.py)."""
    if CODE not in (arg.arg for arg in function.args.args):
        return frozenset()
    stores = pyast.store_counts(function)
    if stores.get(CODE, 0):
        return frozenset()
    found: set[str] = set()
    for stmt in function.body:
        if isinstance(stmt, ast.Assign) and _code_site(stmt.value) \
                and all(isinstance(t, ast.Name) and stores[t.id] == 1 for t in stmt.targets):
            found.update(t.id for t in stmt.targets)  # type: ignore[attr-defined]
    return frozenset(found)


def site_domain(sites: int) -> tuple[int, ...]:
    """The values a site register takes, in the order of a table's entries by it:
    the sites, then NO_SITE (-1), read as the last entry."""
    return tuple(range(sites)) + (NO_SITE,)


def _code_site(value: ast.expr) -> bool:
    return isinstance(value, ast.Subscript) and pyast.is_name(value.value, CODE) \
        and isinstance(value.slice, ast.Constant) and type(value.slice.value) is int \
        and value.slice.value in (ORIGIN, DESTINATION, JUMPED)


class _Tabulation:
    def __init__(self, src: Source, players: int, sites: int = 0):
        self.src = src
        self.players = players
        self.sites = sites
        # in the function being rewritten, from the statement being rewritten on: the
        # site registers (None) and the locals set once, at the function's start, to
        # a value of the player, the site registers and constants alone (that value,
        # with such locals written out)
        self.fixed: dict[str, Optional[ast.expr]] = {}
        # how many times the function being rewritten stores to each name; the
        # locals of a loop over sites whose value became a table read
        self.stores: dict[str, int] = {}
        self.tabulated_locals: set[str] = set()
        self.loads: dict[str, int] = {}  # how many times the function being rewritten reads each name
        # the tables made here, by name (their rows by site are gone over where their
        # entries are not 0: `_sparse`)
        self.made: dict[str, Any] = {}
        self.replaced = 0  # expressions read from tables
        self.values = 0  # values in the tables made
        self.frozen: dict[str, bool] = {}  # by constant's name: whether it is immutable
        # by id of an expression: the expression (kept, so that the id stays its own) and
        # the function working it out (_closure)
        self.closures: dict[int, tuple[ast.expr, Callable[[dict[str, Any]], Any]]] = {}

    def function_body(self, function: ast.FunctionDef) -> list[ast.stmt]:
        """The function's statements rewritten, with the site registers and the
        values fixed by them known from their statements on."""
        self.fixed = {}
        self.tabulated_locals = set()
        registers = site_registers(function) if self.sites else frozenset()
        stores = self.stores = pyast.store_counts(function)
        self.loads = {name: n - stores.get(name, 0) for name, n in pyast.name_counts(function).items()
                      if n > stores.get(name, 0)}
        out = []
        for stmt in function.body:
            before = self.replaced
            out.append(self.statement(stmt, None))
            if registers and isinstance(stmt, ast.Assign) \
                    and all(isinstance(t, ast.Name) and stores[t.id] == 1 for t in stmt.targets):
                value: Optional[ast.expr] = None
                if not _code_site(stmt.value):
                    value = self._fixed_value(stmt.value)
                    if value is None:
                        continue
                    if self.replaced == before:
                        # (the local's value itself read from a table by player and registers)
                        table = self._table(stmt.value, None, whole=True)
                        if table is not None:
                            out[-1] = ast.Assign(targets=stmt.targets, value=table, lineno=0, col_offset=0)
                for target in stmt.targets:
                    self.fixed[target.id] = value  # type: ignore[attr-defined]
        self.fixed = {}
        if self.tabulated_locals:
            # (a local of a loop read only where its value was written out: its table
            # read, which cannot fail, is left out)
            read = {n.id for n in pyast.walk_all(out) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            unread = self.tabulated_locals - read
            if unread:
                out = pyast.without(out, lambda stmt: isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                                    and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id in unread)
        return out

    def _fixed_value(self, node: ast.expr) -> Optional[ast.expr]:
        """`node` with the fixed locals it reads written out, when it reads nothing
        but the player, site registers, fixed locals and immutable constants and
        can be worked out for every player and value of the registers it reads;
        else None."""
        expanded = self._expanded(node)
        names = read_names(expanded)
        if not all(n == PLAYER or self._register(n) or self._immutable(n) for n in names):
            return None
        registers = sorted(n for n in names if self._register(n))
        players = range(self.players) if PLAYER in names else range(1)
        domain = site_domain(self.sites)
        if len(players) * len(domain) ** len(registers) > MAX_TABLE:
            return None
        try:
            for player in players:
                for values in itertools.product(domain, repeat=len(registers)):
                    self._value(expanded, {PLAYER: player, **dict(zip(registers, values))})
        except (_Unfit, ArithmeticError, IndexError, KeyError, TypeError, ValueError):
            return None
        return expanded

    def _register(self, name: str) -> bool:
        return name in self.fixed and self.fixed[name] is None

    def _expanded(self, node: ast.expr) -> ast.expr:
        """`node` with the fixed locals it reads written out."""
        fixed = self.fixed
        if not any(fixed.get(n) is not None for n in read_names(node)):
            return node

        def change(n: ast.AST) -> Optional[ast.AST]:
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                return fixed.get(n.id)
            return None
        return pyast.replace_nodes(node, change)

    def block(self, stmts: list[ast.stmt], loop: Optional[tuple[str, tuple[int, ...]]] = None) -> list[ast.stmt]:
        return [self.statement(stmt, loop) for stmt in stmts]

    def statement(self, stmt: ast.stmt, loop: Optional[tuple[str, tuple[int, ...]]]) -> ast.stmt:
        if isinstance(stmt, ast.For):
            sites = self._sites(stmt)
            inner = loop
            if sites is not None and isinstance(stmt.target, ast.Name) \
                    and not _assigns(stmt.body, {stmt.target.id}):
                inner = (stmt.target.id, sites)
            elif loop is not None and (_assigns(stmt.body, {loop[0]}) or loop[0] in _stores(stmt.target)):
                inner = None  # (the outer loop's variable set again: no longer its site)
            body = self._loop_body(stmt.body, inner) if inner is not None and inner is not loop \
                else self.block(stmt.body, inner)
            rewritten = ast.For(target=stmt.target, iter=self.expr(stmt.iter, loop, iterated=True), body=body,
                                orelse=self.block(stmt.orelse, loop), type_comment=None, lineno=0, col_offset=0)
            if inner is not None and inner is not loop:
                return self._sparse(stmt, rewritten, inner) or rewritten
            return rewritten
        if isinstance(stmt, (ast.If, ast.While)):
            cls = type(stmt)
            return cls(test=self.expr(stmt.test, loop), body=self.block(stmt.body, loop),
                       orelse=self.block(stmt.orelse, loop), lineno=0, col_offset=0)
        if loop is None and not self._registers_known() \
                or not isinstance(stmt, (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)):
            return stmt
        if isinstance(stmt, ast.Assign):
            return ast.Assign(targets=stmt.targets, value=self.expr(stmt.value, loop), lineno=0, col_offset=0)
        if isinstance(stmt, ast.AugAssign):
            return ast.AugAssign(target=stmt.target, op=stmt.op, value=self.expr(stmt.value, loop), lineno=0,
                                 col_offset=0)
        if isinstance(stmt, ast.Expr):
            return ast.Expr(value=self.expr(stmt.value, loop), lineno=0, col_offset=0)
        return ast.Return(value=self.expr(stmt.value, loop) if stmt.value is not None else None, lineno=0,
                          col_offset=0)

    def _loop_body(self, stmts: list[ast.stmt], loop: tuple[str, tuple[int, ...]]) -> list[ast.stmt]:
        """The statements of a loop over sites rewritten, with the locals its
        block sets once, to a value of the loop's site, the player, the site
        registers and constants alone, written out where later statements of the
        block read them (in a table read with theirs)."""
        site = loop[0]
        added = []
        out = []
        for stmt in stmts:
            new = self.statement(stmt, loop)
            out.append(new)
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                    and self.stores.get(stmt.targets[0].id) == 1):
                continue
            name = stmt.targets[0].id
            value = self._expanded(stmt.value)
            names = read_names(value)
            if site in names and all(n in (site, PLAYER) or self._register(n) or self._immutable(n) for n in names):
                self.fixed[name] = value
                added.append(name)
                if isinstance(new, ast.Assign) and new.value is not stmt.value and _table_read(new.value):
                    self.tabulated_locals.add(name)
        for name in added:
            del self.fixed[name]
        return out

    def _sparse(self, original: ast.For, loop: ast.For, over: tuple[str, tuple[int, ...]]) -> Optional[ast.For]:
        """`loop` over the sites where its body may do something, when all it does
        is `if T:` or `t = A + T` and `if t:` (`t` read nowhere else) with `T` a
        table made here, read by the loop's site last, of numbers alone, and `A` a
        whole number the loop does not change: over the sites of the loop, in its
        order, where `T` is not 0 when `A` is 0 (`(k8 if A else k30[p][to][m])`),
        else as it was; None when it is not such a loop."""
        site = over[0]
        body = loop.body
        # (the locals of the loop whose values were written out where they are read:
        # read nowhere now, their assignments are left out, see `function_body`)
        while body and isinstance(body[0], ast.Assign) and len(body[0].targets) == 1 \
                and isinstance(body[0].targets[0], ast.Name) and body[0].targets[0].id in self.tabulated_locals \
                and _table_read(body[0].value) and not self._read_outside(body[0].targets[0].id, original) \
                and not any(isinstance(n, ast.Name) and n.id == body[0].targets[0].id
                            and isinstance(n.ctx, ast.Load) for n in pyast.walk_all(body)):
            body = body[1:]
        if loop.orelse or not isinstance(loop.target, ast.Name) or self.stores.get(site) != 1 \
                or self._read_outside(site, original):
            return None
        if len(body) == 2 and isinstance(body[0], ast.Assign) and len(body[0].targets) == 1 \
                and isinstance(body[0].targets[0], ast.Name) and isinstance(body[1], ast.If) and not body[1].orelse \
                and pyast.is_name(body[1].test, body[0].targets[0].id):
            held = body[0].targets[0].id
            if self.stores.get(held) != 1 or self._read_outside(held, original):
                return None
            value = body[0].value
        elif len(body) == 1 and isinstance(body[0], ast.If) and not body[0].orelse:
            value = body[0].test
        else:
            return None
        parts: list[tuple[ast.expr, Optional[ast.expr]]] = [(value, None)]
        if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
            parts += [(value.right, value.left), (value.left, value.right)]
        for read, rest in parts:
            row = self._site_row(read, site)
            if row is not None:
                break
        else:
            return None
        table, indexes = row
        if rest is not None and not _whole(self.src, rest):
            return None
        outside = set().union(*(read_names(index) for index in indexes), read_names(rest) if rest else set())
        if site in outside or _assigns(loop.body, outside):
            return None
        # (the order of the sites: of the collection, or of the player's row of it)
        collection = loop.iter
        by_player = isinstance(collection, ast.Subscript) and pyast.is_name(collection.slice, PLAYER)
        if by_player:
            collection = collection.value  # type: ignore[attr-defined]
            if not (indexes and pyast.is_name(indexes[0], PLAYER)):
                return None
        orders = self.src.value(collection)
        if not by_player:
            orders = (orders,)
        if not all(orders):
            return None  # (a loop of no round: `A` never worked out)

        def kept(part: Any, depth: int, order: tuple[int, ...]) -> Any:
            if depth < len(indexes):
                if type(part) is not tuple:
                    raise _Unfit
                return tuple(kept(item, depth + 1, orders[i] if by_player and depth == 0 else order)
                             for i, item in enumerate(part))
            if type(part) is not tuple or any(type(part[x]) not in (int, bool) for x in order):
                raise _Unfit
            self.values += len(part)
            return tuple(x for x in order if part[x])
        try:
            sparse = kept(table, 0, orders[0])
        except (_Unfit, IndexError):
            return None
        if self.values > MAX_VALUES:
            return None
        read_sparse: ast.expr = self.src.const(sparse)
        for index in indexes:
            read_sparse = pyast.sub(read_sparse, copy.deepcopy(index))
        iterated = read_sparse if rest is None else \
            ast.IfExp(test=copy.deepcopy(rest), body=loop.iter, orelse=read_sparse)
        return ast.For(target=loop.target, iter=iterated, body=body, orelse=[], type_comment=None,
                       lineno=0, col_offset=0)

    def _site_row(self, node: ast.expr, site: str) -> Optional[tuple[Any, list[ast.expr]]]:
        """(the table, the indexes before the site) where `node` reads a table made
        here by the loop's site last."""
        if not (isinstance(node, ast.Subscript) and pyast.is_name(node.slice, site)):
            return None
        indexes: list[ast.expr] = []
        node = node.value
        while isinstance(node, ast.Subscript):
            indexes.append(node.slice)
            node = node.value
        if not (isinstance(node, ast.Name) and node.id in self.made):
            return None
        return self.made[node.id], indexes[::-1]

    def _read_outside(self, name: str, loop: ast.For) -> bool:
        """Whether the function reads `name` outside `loop`."""
        inside = sum(1 for n in pyast.walk(loop) if isinstance(n, ast.Name) and n.id == name
                     and isinstance(n.ctx, ast.Load))
        return self.loads.get(name, 0) != inside

    def _sites(self, loop: ast.For) -> Optional[tuple[int, ...]]:
        """The sites a loop goes over, when it is a constant collection of them or
        the player's row of a constant table of such collections (`k1[p]`: then
        every row's sites)."""
        collection = loop.iter
        by_player = isinstance(collection, ast.Subscript) and pyast.is_name(collection.slice, PLAYER)
        if by_player:
            collection = collection.value  # type: ignore[attr-defined]
        if not (isinstance(loop.target, ast.Name) and isinstance(collection, ast.Name)
                and self.src.is_const_name(collection.id)):
            return None
        value = self.src.value(collection)
        rows = value if by_player else (value,)
        if not (isinstance(rows, tuple) and all(isinstance(r, tuple) for r in rows)
                and (not by_player or len(rows) >= self.players)):
            return None
        sites = tuple(sorted({x for row in rows for x in row}))
        if not (sites and all(type(x) is int and 0 <= x < MAX_TABLE for x in sites)):
            return None
        return sites

    def expr(self, node: ast.expr, loop: Optional[tuple[str, tuple[int, ...]]], iterated: bool = False) -> ast.expr:
        """`node` with its largest parts that are worth a table read from one
        (`iterated`: `node` is what a `for` goes over, which may be a list)."""
        if loop is None and not self._registers_known():
            return node
        table = self._table(node, loop, iterated=iterated)
        if table is not None:
            return table
        if isinstance(node, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp,
                             ast.NamedExpr)):
            return node  # (names bound inside: not looked into)
        fields: dict[str, Any] = {}
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.expr) and not isinstance(value, (ast.Name, ast.Constant)):
                fields[field] = self.expr(value, loop)
            elif isinstance(value, list):
                fields[field] = [self.expr(v, loop) if isinstance(v, ast.expr) else v for v in value]
            else:
                fields[field] = value
        if isinstance(node, ast.BoolOp):
            fields["values"] = _without_neutral(node.op, fields["values"])
            if len(fields["values"]) == 1:
                return fields["values"][0]  # type: ignore[no-any-return]
        return type(node)(**fields)

    def _registers_known(self) -> bool:
        return any(value is None for value in self.fixed.values())

    def _table(self, node: ast.expr, loop: Optional[tuple[str, tuple[int, ...]]],
               whole: bool = False, iterated: bool = False) -> Optional[ast.expr]:
        """`node` read from a table by player, site registers and the loop's site
        (outside loops: by player and site registers, where `node` reads a local
        fixed by them, is the value of one, `whole`, or is what a `for` goes over,
        `iterated`), or None when it is not one of the expressions described above.
        A list (`h_union`'s, say) is kept as a tuple of its items where the value
        is only gone over (`iterated`)."""
        if not _worth(node):
            return None
        site, sites = loop if loop is not None else (None, ())
        node, bounds = bounded_parts(self.src, node, lambda n: n in (site, PLAYER) or n in self.fixed
                                     or self._immutable(n))
        if bounds and not _worth(node):
            return None
        names = read_names(node)
        if not all(n in (site, PLAYER) or n in self.fixed or self._immutable(n) or n in bounds for n in names):
            return None
        if site is None and not whole and not iterated and not bounds \
                and not any(self.fixed.get(n) is not None for n in names):
            return None
        if any(self.fixed.get(n) is not None for n in names):
            # (with the fixed locals written out: maybe a table by player, site
            # register and site)
            node = self._expanded(node)
            names = read_names(node)
            if not all(n in (site, PLAYER) or self._register(n) or self._immutable(n) or n in bounds
                       for n in names):
                return None
        registers = sorted(n for n in names if self._register(n))
        if site not in names if site is not None else not (registers or bounds):
            return None
        by_player = PLAYER in names
        players = range(self.players) if by_player else range(1)
        size = max(sites) + 1 if sites else 1
        domain = site_domain(self.sites)
        # (the table's indexes after the player: the site registers, then the parts
        # with few values, each with the values it takes)
        indexes: list[tuple[str, Sequence[int]]] = [(n, domain) for n in registers]
        indexes += [(n, range(bounds[n][1])) for n in sorted(bounds)]
        count = len(players)
        for _, values in indexes:
            count *= len(values)
        if size * count > MAX_TABLE or self.values + size * count > MAX_VALUES:
            return None

        def entry(env: dict[str, int]) -> Any:
            value = self._value(node, env)
            if isinstance(value, list):
                if not iterated:
                    raise _Unfit
                return tuple(value)
            return value

        def rows(env: dict[str, int], left: list[tuple[str, Sequence[int]]]) -> Any:
            if left:
                name, values = left[0]
                return tuple(rows({**env, name: value}, left[1:]) for value in values)
            if site is None:
                return entry(env)
            row: list[Any] = [None] * size
            for x in sites:
                row[x] = entry({**env, site: x})
            return tuple(row)
        try:
            table = tuple(rows({PLAYER: player}, indexes) for player in players)
        except (_Unfit, ArithmeticError, IndexError, KeyError, TypeError, ValueError):
            return None
        self.replaced += 1
        if site is not None and not registers and not bounds:
            # (one value at every site the loop goes over, for every player: that value)
            alike = {(type(row[x]), row[x]) for row in table for x in sites}
            if len(alike) == 1:
                kind, value = alike.pop()
                if kind in (bool, int, type(None)):
                    return ast.Constant(value=value)
        self.values += size * count
        read: ast.expr = self.src.const(table if by_player else table[0])
        assert isinstance(read, ast.Name)
        self.made[read.id] = table if by_player else table[0]
        for index in ([PLAYER] if by_player else []) + registers:
            read = pyast.sub(read, pyast.name(index))
        for name in sorted(bounds):
            read = pyast.sub(read, bounds[name][0])
        if site is not None:
            read = pyast.sub(read, pyast.name(site))
        return read

    def _immutable(self, name: str) -> bool:
        """Whether `name` is a constant that nothing changes while the rules run."""
        if name not in self.frozen:
            self.frozen[name] = self.src.is_const_name(name) and frozen(self.src.namespace[name], 5)
        return self.frozen[name]

    def _value(self, node: ast.expr, env: dict[str, int]) -> Any:
        """The value of `node` where the names of `env` hold its values and the others
        are constants of the module; raises _Unfit (or what Python would) where it
        cannot be worked out."""
        return self._closure(node)(env)

    def _closure(self, node: ast.expr) -> Callable[[dict[str, Any]], Any]:
        """`node` as a function of `env` (see `_value`), made once per node: a table
        asks the same expression for every player and site."""
        known = self.closures.get(id(node))
        if known is None or known[0] is not node:
            known = self.closures[id(node)] = (node, self._made(node))
        return known[1]

    def _made(self, node: ast.expr) -> Callable[[dict[str, Any]], Any]:
        part = self._closure
        if isinstance(node, ast.Constant):
            constant = node.value
            return lambda env: constant
        if isinstance(node, ast.Name):
            name, src = node.id, self.src
            return lambda env: env[name] if name in env else src.namespace[name]
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            of, at = part(node.value), part(node.slice)
            return lambda env: of(env)[at(env)]
        if isinstance(node, ast.Call) and pyast.is_name(node.func, "len") and len(node.args) == 1 \
                and not node.keywords:
            argument = part(node.args[0])
            return lambda env: len(argument(env))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _SITE_LISTS \
                and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args):
            listing, arguments = _SITE_LISTS[node.func.id], tuple(part(a) for a in node.args)
            return lambda env: listing(*(argument(env) for argument in arguments))
        if isinstance(node, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in node.elts):
            items = tuple(part(e) for e in node.elts)
            return lambda env: tuple(item(env) for item in items)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            binary, left, right = _BINARY[type(node.op)], part(node.left), part(node.right)
            return lambda env: binary(left(env), right(env))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            negated = part(node.operand)
            return lambda env: -negated(env)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            denied = part(node.operand)
            return lambda env: not denied(env)
        if isinstance(node, ast.IfExp):
            test, body, orelse = part(node.test), part(node.body), part(node.orelse)
            return lambda env: body(env) if test(env) else orelse(env)
        if isinstance(node, ast.BoolOp):
            parts = tuple(part(value) for value in node.values)
            conjunction = isinstance(node.op, ast.And)

            def boolean(env: dict[str, Any]) -> Any:
                result: Any = None
                for each in parts:
                    result = each(env)
                    if conjunction != bool(result):
                        return result
                return result
            return boolean
        if isinstance(node, ast.Compare):
            first = part(node.left)
            pairs = tuple((_COMPARE.get(type(op)), part(comparator)) for op, comparator in zip(node.ops,
                                                                                               node.comparators))

            def compare(env: dict[str, Any]) -> Any:
                left = first(env)
                for test, comparator in pairs:
                    if test is None:
                        raise _Unfit
                    right = comparator(env)
                    if not test(left, right):
                        return False
                    left = right
                return True
            return compare

        def unfit(env: dict[str, Any]) -> Any:
            raise _Unfit
        return unfit


def bounded_parts(src: Source, node: ast.expr, known: Callable[[str], bool]
                  ) -> tuple[ast.expr, dict[str, tuple[ast.expr, int]]]:
    """`node` with each part that takes few values, `X % C` of a whole number `X`
    and a constant `C` from 1 to MAX_BOUND (one of `range(C)`), reading a name
    `known` refuses, written as a placeholder name (parts alike share one); the
    placeholders, each with its part and `C`. A table by such a part is read with
    the part as its index, worked out where the expression was."""
    bounds: dict[str, tuple[ast.expr, int]] = {}
    if not src.whole:
        return node, bounds
    by_key: dict[str, str] = {}

    def change(n: ast.AST) -> Optional[ast.AST]:
        if isinstance(n, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp, ast.NamedExpr)):
            return n  # (names bound inside: not looked into)
        if not (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) and isinstance(n.right, ast.Constant)
                and type(n.right.value) is int and 0 < n.right.value <= MAX_BOUND and _whole(src, n.left)
                and not all(known(name) for name in read_names(n))):
            return None
        key = pyast.key(n)
        name = by_key.get(key)
        if name is None:
            name = by_key[key] = f"{_BOUND}{len(by_key)}"
            bounds[name] = (n, n.right.value)
        return pyast.name(name)
    changed = pyast.replace_nodes(node, change)
    assert isinstance(changed, ast.expr)
    return changed, bounds


def _whole(src: Source, node: ast.expr) -> bool:
    """Whether `node` is surely a whole number (an int or a truth value): whole
    numbers, locals `src.whole` names, and `+ - *` of them."""
    if isinstance(node, ast.Name):
        return node.id in src.whole
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, bool)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        return _whole(src, node.left) and _whole(src, node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.FloorDiv, ast.Mod)):
        return _whole(src, node.left) and isinstance(node.right, ast.Constant) \
            and type(node.right.value) is int and node.right.value != 0
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _whole(src, node.operand)
    return False


def _without_neutral(op: ast.boolop, values: list[ast.expr]) -> list[ast.expr]:
    """The operands of an `and` (`or`) without the constants True (False) that
    leave its value alone: one before the last operand (`True and x` is `x`), or
    the last where every other operand gives a truth value (`x and True` is `x`
    for a comparison `x`)."""
    neutral = isinstance(op, ast.And)

    def constant(v: ast.expr) -> bool:
        return isinstance(v, ast.Constant) and v.value is neutral

    def truth_valued(v: ast.expr) -> bool:
        return isinstance(v, ast.Compare) or isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.Not)

    kept = [v for v in values[:-1] if not constant(v)]
    last = values[-1]
    if not (constant(last) and kept and all(truth_valued(v) for v in kept)):
        kept.append(last)
    return kept


def _worth(node: ast.expr) -> bool:
    """Whether working `node` out costs more than reading a table by player and
    site: a call, a choice, or arithmetic on what it reads."""
    return isinstance(node, (ast.Call, ast.IfExp, ast.BinOp, ast.BoolOp, ast.Compare)) \
        and sum(1 for _ in pyast.walk(node)) > 4


def frozen(value: Any, depth: int) -> bool:
    """Whether `value` cannot change: numbers, truth values, None, tuples of those
    (nested at most `depth` deep)."""
    if value is None or type(value) in (int, bool):
        return True
    if type(value) is not tuple or depth == 0:
        return False
    return all(frozen(element, depth - 1) for element in value)


# The helpers making lists of sites that are worked out here (pure functions of
# their arguments): a table holds their lists as tuples, read only where they are
# gone over.
_SITE_LISTS: dict[str, Callable[..., Any]] = {"h_sites": helpers.sites, "h_union": helpers.union,
                                               "h_with_site": helpers.with_site,
                                               "h_with_site_distinct": helpers.with_site_distinct}


def _table_read(node: ast.expr) -> bool:
    """Whether `node` is a table read by names (`k20[p][to][q]`)."""
    while isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name):
        node = node.value
    return isinstance(node, ast.Name)


def read_names(node: ast.expr) -> set[str]:
    """The names `node` reads, not those of the functions it calls."""
    nodes = list(pyast.walk(node))
    called = {id(n.func) for n in nodes if isinstance(n, ast.Call)}
    return {n.id for n in nodes if isinstance(n, ast.Name) and id(n) not in called}


def _assigns(stmts: list[ast.stmt], names: set[str]) -> set[str]:
    """Which of `names` `stmts` store to."""
    return {node.id for stmt in stmts for node in pyast.walk(stmt)
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and node.id in names}


def _stores(target: ast.expr) -> set[str]:
    return {node.id for node in pyast.walk(target) if isinstance(node, ast.Name)}
