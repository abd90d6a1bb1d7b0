"""Work done once where the generated code would do it again: a pass over the
generated functions.

Two rewritings, both of the generated syntax trees (nothing is recognised but the
kinds of node), run after the functions are written:

- **Loop invariants.** Arithmetic in a `for` loop whose names the loop never sets
  — `l0 // 13` and `l0 % 13` of a formula asked for every site of a loop, `1 + p`
  — is worked out once, into a temporary assigned just before the loop. Only what
  cannot fail is moved: names, whole numbers, `+ - *`, `//` and `%` by a
  constant other than 0, comparisons, `not`, `and`/`or`, conditional expressions
  (no call, no subscript but those below: an index or a helper may fail where
  the loop would not have reached it), and only names that hold a value when the
  loop starts (the function's parameters, names assigned by the statements before
  the loop in the blocks around it, immutable constants). A loop that runs no
  round pays one evaluation. A read of the board at an invariant site, `b[l3]`,
  `b[v[2]]`, a field of the piece there, `(b[l3] or k0)[5]` (k0 the empty piece,
  every piece as long), and a variable read by its place, `v[4]`, cannot fail
  either — a site is a valid index, -1 (none) too — and move out of a loop that
  cannot change the board (the variables): one whose code names `b` (`v`) only to
  read an entry and never names the state `s` (which every helper or generated
  function that writes either is handed). Where the loop also writes entries,
  each at a place written out (`v[15] += 1`, `v[4] = l1`), a read of another
  place written out (`v[1]`) moves all the same.
- **Common parts of one expression.** A part that an expression works out twice
  (`(t0 - l1) % 13 >= 1 and (t0 - l1) % 13 <= n`) is kept the first time it is
  worked out (`(t2 := (t0 - l1) % 13) >= 1 and t2 <= n`) and read afterwards,
  where the first evaluation is sure to have happened before the second (it is
  not behind an `and`, `or` or condition the second does not share). Only parts
  without calls and without `:=` are shared, in expressions that call nothing
  but `len`, `abs`, `min` and `max`: nothing changes between the two evaluations.

Trees are never changed in place (a block may stand in several functions): the
rewritten parts are new nodes.
"""
from __future__ import annotations

import ast
import itertools
from types import MappingProxyType
from typing import Any, Callable, Iterator, Mapping, Optional, Sequence

from ..runtime.pieces import FIRST_ATTRIBUTE, NEUTRAL
from . import pyast
from .counted_masks import counted_at_once
from .early_sums import early_sums
from .extremes import two_way as _two_way
from .source import Source
from .tabulate import (
    MAX_TABLE,
    PLAYER,
    bounded_parts,
    frozen,
    player_fixed,
    read_names,
    site_domain,
    site_registers,
    worked_out,
)

# Node kinds an invariant may be built of (values only, nothing that can fail).
_SAFE_OPS = (ast.Add, ast.Sub, ast.Mult, ast.BitAnd, ast.BitOr, ast.BitXor)
_SAFE_COMPARE = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot)
# Node kinds of a value two `let`s may share (values only: no list, nothing read of one).
_PLAIN = (ast.Name, ast.Constant, ast.Load, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp,
          ast.operator, ast.cmpop, ast.boolop, ast.unaryop)
# The registers of the board and the state (registers.py), and how the empty piece
# starts (expressions.py: no owner, no kind, no stones).
BOARD = "b"
VARIABLES = "v"
STATE = "s"
READ_ONLY = frozenset((BOARD, VARIABLES))  # (what a loop may leave alone, its reads then invariants)
EMPTY_START = (NEUTRAL, -1, ())
# Calls an expression may hold and still have its parts shared (they change nothing).
_PURE_CALLS = frozenset({"len", "abs", "min", "max"})
# The most parts of one expression shared, and the largest expression looked at.
MAX_SHARED = 8
MAX_NODES = 400
_NO_NAMES: Mapping[str, str] = MappingProxyType({})
_NO_NAMES_COUNTED: Mapping[str, int] = MappingProxyType({})
_ABSENT = object()  # (a field not set: `ast.dump` leaves it out)


def _leaf(value: object) -> object:
    """A value of a field that is not a node, as `ast.dump` tells values apart (by
    their `repr`; a text, the most common, by itself: no two texts have one `repr`)."""
    return value if value.__class__ is str else (_ABSENT, repr(value)) if value is not _ABSENT else value


def share_work(src: Source, players: int, sites: int = 0) -> None:
    """Every generated function of `src` with loop invariants worked out before
    their loops and an expression's repeated parts worked out once
    (`src.functions` rewritten; `players`: how many play; `sites`: how many sites
    the board has, 0 where the sites of action codes are not looked at)."""
    functions = []
    memo = _Memo()
    for function in src.functions:
        if isinstance(function, ast.FunctionDef):
            registers = site_registers(function) if sites else frozenset()
            params = frozenset(arg.arg for arg in function.args.args)
            once = frozenset(name for name, n in pyast.store_counts(function).items() if n == 1) - params
            rewriting = _Rewriting(src, players if player_fixed(function) else 0, memo, registers, sites, once,
                                   pyast.name_counts(function))
            body = rewriting.block(function.body, params, params | memo.stored(function.body))
            if rewriting.changed:
                function = ast.FunctionDef(name=function.name, args=function.args, body=body, decorator_list=[],
                                           returns=None, type_comment=None, lineno=0, col_offset=0)
        functions.append(function)
    src.functions = functions


class _Memo:
    """What the pass asks again and again of the same parts, worked out once per
    part (by identity: trees are never changed, and each part is kept here, so
    that its identity is not reused while the pass runs)."""

    def __init__(self) -> None:
        self._names: dict[int, tuple[ast.AST, frozenset[str]]] = {}
        self._has_name: dict[int, tuple[ast.AST, bool]] = {}
        self._size: dict[int, tuple[ast.AST, int]] = {}
        self._pure: dict[int, tuple[ast.AST, bool]] = {}
        self._key: dict[int, tuple[ast.AST, int]] = {}
        # a number per structure met, a structure being its kind and its fields, each
        # child by its number: two parts get one number when `ast.dump` gives them one text
        self._structures: dict[tuple[object, ...], int] = {}
        self._stored: dict[int, tuple[ast.AST, frozenset[str]]] = {}
        # (id, players, site registers, loop variables) -> whether the part cannot fail,
        # for functions where that many play and those names hold sites of the action
        # code, inside loops giving those variables those constants' entries
        self.cannot_fail: dict[tuple[int, int, frozenset[str], frozenset[tuple[str, str]]],
                               tuple[ast.AST, bool]] = {}
        self.constant: dict[str, bool] = {}
        # the structure of an expression (pyast.key) -> it with its repeated parts
        # worked out once, and the names of the temporaries that keeps, in order
        self.shared: dict[int, tuple[ast.expr, tuple[str, ...]]] = {}

    def names(self, node: ast.AST) -> frozenset[str]:
        """The names `node` reads or stores, not those of the functions it calls."""
        known = self._names.get(id(node))
        if known is not None:
            return known[1]
        if isinstance(node, ast.Name):
            found = frozenset((node.id,))
        else:
            found = frozenset().union(*(self.names(child) for child in pyast.child_nodes(node)
                                       if not (isinstance(node, ast.Call) and child is node.func
                                               and isinstance(child, ast.Name))))
        self._names[id(node)] = (node, found)
        return found

    def has_name(self, node: ast.AST) -> bool:
        """Whether `node` holds a name (any: called, read or stored)."""
        known = self._has_name.get(id(node))
        if known is not None:
            return known[1]
        found = isinstance(node, ast.Name) or any(self.has_name(child) for child in pyast.child_nodes(node))
        self._has_name[id(node)] = (node, found)
        return found

    def size(self, node: ast.AST) -> int:
        """How many nodes `pyast.walk(node)` visits."""
        known = self._size.get(id(node))
        if known is not None:
            return known[1]
        found = 1 + sum(self.size(child) for child in pyast.child_nodes(node))
        self._size[id(node)] = (node, found)
        return found

    def pure(self, node: ast.AST) -> bool:
        """Whether `node` holds no `:=`, comprehension, attribute or call (but of `_PURE_CALLS`)."""
        known = self._pure.get(id(node))
        if known is not None:
            return known[1]
        if isinstance(node, (ast.NamedExpr, ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.Attribute)) \
                or isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name)
                                                       and node.func.id in _PURE_CALLS):
            found = False
        else:
            found = all(self.pure(child) for child in pyast.child_nodes(node))
        self._pure[id(node)] = (node, found)
        return found

    def key(self, node: ast.AST) -> int:
        """A number equal for two parts where `pyast.key` (`ast.dump`) is: made of
        the numbers of the part's children, so that a part is not written out again
        for each part around it (the common-part search asks every part of an
        expression, in each of its rounds)."""
        known = self._key.get(id(node))
        if known is not None:
            return known[1]
        fields: list[object] = [node.__class__]
        for field in node._fields:
            value = getattr(node, field, _ABSENT)
            if isinstance(value, ast.AST):
                fields.append(self.key(value))
            elif isinstance(value, list):
                fields.append(tuple(self.key(item) if isinstance(item, ast.AST) else _leaf(item) for item in value))
            else:
                fields.append(_leaf(value))
        structure = tuple(fields)
        found = self._structures.get(structure)
        if found is None:
            found = self._structures[structure] = len(self._structures)
        self._key[id(node)] = (node, found)
        return found

    def stored(self, node: object) -> frozenset[str]:
        """Every name `node` (a node or a list of them) stores to (a statement's
        found once)."""
        if isinstance(node, list):
            return frozenset().union(*(self.stored(item) for item in node if isinstance(item, ast.AST)))
        assert isinstance(node, ast.AST)
        if not isinstance(node, ast.stmt):
            return frozenset(_stored(node))
        known = self._stored.get(id(node))
        if known is not None:
            return known[1]
        parts: list[frozenset[str]] = []
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, ast.AST):
                parts.append(frozenset(_stored(value)))
            elif isinstance(value, list):
                parts.append(self.stored(value))
        found = frozenset().union(*parts)
        self._stored[id(node)] = (node, found)
        return found


class _Rewriting:
    def __init__(self, src: Source, players: int, memo: _Memo, registers: frozenset[str] = frozenset(),
                 sites: int = 0, once: frozenset[str] = frozenset(), uses: Mapping[str, int] = _NO_NAMES_COUNTED):
        self.src = src
        # the names the function gives a value in one place alone (not its parameters),
        # and how many times it names each name
        self.once = once
        self.uses = uses
        # how many play, where `p` is the player to move throughout the function (else 0)
        self.players = players
        # the names holding a site of the action code (tabulate.site_registers) and
        # how many sites the board has
        self.registers = registers
        self.sites = sites
        self.memo = memo
        self.changed = False
        # the variables of the loops around the block rewritten that go over a
        # constant tuple of whole numbers and are set nowhere else in their loop:
        # variable -> (the constant, its entries)
        self.loop_values: dict[str, tuple[str, tuple[int, ...]]] = {}

    # ------------------------------------------------------------ statements
    def block(self, stmts: list[ast.stmt], known: frozenset[str], local: frozenset[str]) -> list[ast.stmt]:
        """`stmts` rewritten; `known`: the names sure to hold a value before the
        first of them; `local`: every name the function assigns."""
        out: list[ast.stmt] = []
        for stmt in self._lets_merged(stmts):
            if isinstance(stmt, ast.For):
                counts, stmt = counted_at_once(stmt, self.src, known, self.memo.stored)
                if counts:  # (kept even where nothing else of the function changes)
                    self.changed = True
                before, stmt = self._hoisted(stmt, known, local)
                before = counts + before
                out.extend(before)
                known = known | {target.id for target in _assigned_names(before)}
            out.append(self.statement(stmt, known, local))
            known = known | _surely_assigned(stmt)
        return out

    def statement(self, stmt: ast.stmt, known: frozenset[str], local: frozenset[str]) -> ast.stmt:
        changed: dict[str, object] = {}
        for field in ("test", "value", "iter"):
            value = getattr(stmt, field, None)
            if isinstance(value, ast.expr):
                shared = self.shared(early_sums(value, self.src))
                if shared is not value:
                    changed[field] = shared
        inner = known | _stored(stmt.target) if isinstance(stmt, ast.For) else known
        outer = self.loop_values
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                if field == "body" and isinstance(stmt, ast.For):
                    self.loop_values = self._with_loop_values(stmt)
                try:
                    new = self.block(block, inner if field == "body" else known, local)
                finally:
                    self.loop_values = outer
                if any(a is not b for a, b in zip(new, block)) or len(new) != len(block):
                    changed[field] = new
        if changed:
            self.changed = True
            return _rebuilt(stmt, changed)
        return stmt

    def _lets_merged(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """`stmts` where `Y = E` follows `X = E` in the block (E the same, made of
        names and arithmetic alone, no name of it given a value between them; X and Y
        given a value there alone, Y named nowhere outside the block after it —
        a define's argument given twice: `suit(lead)` of each `strength(c, suit(lead), t)`)
        without the second, Y read as X."""
        memo = self.memo
        first: dict[int, tuple[str, frozenset[str]]] = {}  # shape -> (X, the names E reads)
        renamed: dict[str, str] = {}
        out: list[ast.stmt] = []
        changed = False

        def rename(node: ast.AST) -> Optional[ast.AST]:
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in renamed:
                return pyast.name(renamed[node.id])
            return None

        for i, stmt in enumerate(stmts):
            stored = memo.stored(stmt)
            if stored and first:
                first = {shape: (name, names) for shape, (name, names) in first.items()
                         if name not in stored and not names & stored}
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and stmt.targets[0].id in self.once and _plain_value(stmt.value, memo):
                target = stmt.targets[0].id
                value = pyast.replace_nodes(stmt.value, rename) if renamed else stmt.value
                shape = memo.key(value)
                earlier = first.get(shape)
                if earlier is not None and sum(pyast.name_counts(later).get(target, 0)
                                               for later in stmts[i:]) == self.uses.get(target):
                    renamed[target] = earlier[0]
                    changed = True
                    continue
                first.setdefault(shape, (target, memo.names(value)))
            out.append(pyast.replace_nodes(stmt, rename) if renamed else stmt)
        if changed:
            self.changed = True
            return out
        return stmts

    def _with_loop_values(self, loop: ast.For) -> dict[str, tuple[str, tuple[int, ...]]]:
        """`loop_values` inside `loop`'s body: its variable's, where `loop` goes over a
        constant tuple of whole numbers (`for to in k37:`) and nothing else in the
        body sets the variable, without those of names the body sets."""
        stored = self.memo.stored(loop.body) | _stored(loop.target)
        values = {name: entry for name, entry in self.loop_values.items() if name not in stored}
        target, table = loop.target, loop.iter
        if isinstance(target, ast.Name) and isinstance(table, ast.Name) and self.src.is_const_name(table.id) \
                and target.id not in self.memo.stored(loop.body):
            entries = self.src.namespace.get(table.id)
            if type(entries) is tuple and entries and all(type(e) is int for e in entries):
                values[target.id] = (table.id, entries)
        return values

    # ------------------------------------------------------------ invariants
    def _hoisted(self, loop: ast.For, known: frozenset[str], local: frozenset[str]) -> tuple[list[ast.stmt], ast.For]:
        """(the assignments of the loop's invariants, the loop reading them)."""
        memo = self.memo
        moved, lets, loop = self._lets_moved(loop, known, local)
        known = known | {target.id for target in _assigned_names(moved)}
        set_in_loop = memo.stored(loop)

        def invariant(names: frozenset[str]) -> bool:
            # (a temporary of the pass, assigned before an outer loop, is known)
            return all(name not in set_in_loop and (name in known or name not in local and self._constant(name))
                       for name in names)

        left_alone = _left_alone_asker(loop)

        def fits(node: ast.expr) -> bool:
            # (its names found once, and whether it is invariant asked first: cheaper
            # than whether it can fail, which may work it out for every player)
            if not self._worth_hoisting(node):
                return False
            names = memo.names(node)
            if not invariant(names):
                return False
            if not left_alone(node, names):
                return False
            return self._cannot_fail(node, names)

        found: dict[int, ast.expr] = {}
        for root in _expressions(loop.body, loop.orelse):
            for node in _largest(root, fits):
                found.setdefault(memo.key(node), node)
        if not found:
            return moved, loop
        # (a part a moved `let` holds is read from it)
        names = {shape: lets.get(shape) or self.src.fresh("t") for shape in found}

        def change(node: ast.AST) -> Optional[ast.AST]:
            if isinstance(node, (ast.expr_context, ast.comprehension, ast.Lambda, ast.GeneratorExp, ast.ListComp)):
                return node
            if isinstance(node, ast.expr) and not isinstance(node, (ast.Name, ast.Constant)):
                name = names.get(memo.key(node)) if self._worth_hoisting(node) else None
                if name is not None:
                    return pyast.name(name)
            return None

        body = pyast.replace_in(loop.body, _skipping_targets(change))
        orelse = pyast.replace_in(loop.orelse, _skipping_targets(change))
        self.changed = True
        before: list[ast.stmt] = moved + [pyast.assign(pyast.name(names[shape]), self.shared(node))
                                          for shape, node in found.items() if shape not in lets]
        return before, ast.For(target=loop.target, iter=loop.iter, body=body, orelse=orelse, type_comment=None,
                               lineno=0, col_offset=0)

    def _lets_moved(self, loop: ast.For, known: frozenset[str],
                    local: frozenset[str]) -> tuple[list[ast.stmt], dict[int, str], ast.For]:
        """(the assignments moved before `loop`, the shape of each value they give ->
        its name, the loop without them): `X = E` anywhere in the loop's body (a
        `let`, a define's argument), where X is given a value there alone and read
        nowhere before it in the body, and E reads only names holding a value when
        the loop starts (or given by a statement moved before it) and cannot fail.
        E is then the same in every round, so X holds it wherever the body read it.
        Where E is a name, or the value of an assignment moved before, X is read as
        that name in the body: the parts the define's body works out of its
        arguments (`suit(c) == led`) become invariants of inner loops too; such an X
        named nowhere outside the loop is no longer given a value at all."""
        memo = self.memo
        named_in_loop = pyast.name_counts(loop)
        set_in_loop = memo.stored(loop)
        moved: list[ast.stmt] = []
        dropped: set[int] = set()
        alias: dict[str, str] = {}
        lets: dict[int, str] = {}
        given: set[str] = set()
        read: set[str] = set()

        def renamed(node: ast.AST) -> Optional[ast.AST]:
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in alias:
                return pyast.name(alias[node.id])
            return None

        # (a value read of the board or the variables is the same in every round only
        # where the loop writes neither: `let total = v[k]` before `v[k] += ...`)
        left_alone = _left_alone_asker(loop)

        for stmt in pyast.statements_in(loop.body):
            own = list(_own_expressions(stmt))
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and stmt.targets[0].id in self.once and stmt.targets[0].id not in read:
                target = stmt.targets[0].id
                value = pyast.replace_nodes(stmt.value, renamed) if alias else stmt.value
                names = memo.names(value)
                if all(n in given or n not in set_in_loop and (n in known or n not in local and self._constant(n))
                       for n in names) and left_alone(value, names) and self._cannot_fail(value, names):
                    shape = memo.key(value)
                    dropped.add(id(stmt))
                    if isinstance(value, ast.Name) or shape in lets:
                        alias[target] = value.id if isinstance(value, ast.Name) else lets[shape]
                        value = pyast.name(alias[target])
                        if named_in_loop.get(target) == self.uses.get(target):
                            continue  # (every read of it is in the loop, now reading the other name)
                    else:
                        lets[shape] = target
                    moved.append(pyast.assign(pyast.name(target), value))
                    given.add(target)
                    continue
            for expr in own:
                read |= memo.names(expr)
        if not dropped:
            return [], {}, loop
        # (a body of moved `let`s alone is left empty: the loop still runs its rounds)
        body = pyast.without(loop.body, lambda stmt: id(stmt) in dropped) or [pyast.pass_()]
        if alias:
            body = pyast.replace_in(body, renamed)
        self.changed = True
        return moved, lets, ast.For(target=loop.target, iter=loop.iter, body=body, orelse=loop.orelse,
                                    type_comment=None, lineno=0, col_offset=0)

    def _worth_hoisting(self, node: ast.expr) -> bool:
        """An operation on at least one name (one on numbers alone, `-1`, Python works out itself)."""
        return isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Subscript)) \
            and self.memo.has_name(node) or _two_way(node) and self.memo.has_name(node)

    def _constant(self, name: str) -> bool:
        """Whether `name` is a constant of the module that nothing changes (a number,
        a truth value, a tuple of those)."""
        known = self.memo.constant.get(name)
        if known is None:
            known = self.memo.constant[name] = self.src.is_const_name(name) \
                and frozen(self.src.namespace.get(name), 5)
        return known

    def _cannot_fail(self, node: ast.expr, names: frozenset[str]) -> bool:
        """Whether working `node` (reading `names`) out cannot raise (of the values
        the generated code computes with: whole numbers and truth values; a row by
        player of a constant table, `k4[p]`, where `p` is the player to move)."""
        looped = frozenset((n, self.loop_values[n][0]) for n in names if n in self.loop_values)
        key = (id(node), self.players, self.registers & names, looped)
        known = self.memo.cannot_fail.get(key)
        if known is None:
            known = self.memo.cannot_fail[key] = (node, self._fails_not(node, names))
        return known[1]

    def _fails_not(self, node: ast.expr, names: frozenset[str]) -> bool:
        registers = sorted(self.registers & names)
        by_player = bool(self.players) and PLAYER in names
        looped = sorted(n for n in names if n in self.loop_values)

        def given(n: str) -> bool:
            return n == PLAYER and by_player or n in self.registers or n in self.loop_values or self._constant(n)
        # (parts with few values, `l0 % 13` of a whole number: each value tried; they
        # cannot fail themselves, being made of names that hold values here)
        tried, bounds = bounded_parts(self.src, node, given)
        if bounds:
            names = frozenset(read_names(tried))
            registers = sorted(self.registers & names)
        if (by_player or registers or bounds or looped) and all(given(n) or n in bounds for n in names):
            # (of the player and the action's sites alone: worked out for each player
            # and each value the sites take, it fails for none)
            domain = site_domain(self.sites)
            indexes: list[tuple[str, Sequence[int]]] = [(n, domain) for n in registers]
            indexes += [(n, self.loop_values[n][1]) for n in looped]
            indexes += [(n, range(bounds[n][1])) for n in sorted(bounds)]
            count = max(1, self.players)
            for _, values in indexes:
                count *= len(values)
            if count <= MAX_TABLE:
                try:
                    for player in range(self.players if by_player else 1):
                        for chosen in itertools.product(*(values for _, values in indexes)):
                            worked_out(self.src, tried, {PLAYER: player,
                                                         **dict(zip((n for n, _ in indexes), chosen))})
                    return True
                except ValueError:
                    pass
        for n in pyast.walk(node):
            if isinstance(n, ast.Subscript):
                if not self._player_row(n) and not (n is not node and self._tried(n)) and not _site_read(n) \
                        and not _variable_read_within(n) and not self._piece_field(n):
                    return False
            elif not cannot_fail_alone(n):
                return False
        return True

    def _tried(self, node: ast.Subscript) -> bool:
        """Whether the table read `node`, of loop variables with their values, site
        registers, the player and constants alone, fails for none of their values
        (`k27[k6[to]]` in a loop over the hslots `to`, beside the reads of locals)."""
        names = self.memo.names(node)
        return bool(names & (set(self.loop_values) | self.registers | {PLAYER})) \
            and all(n in self.loop_values or n in self.registers or n == PLAYER or self._constant(n) for n in names) \
            and self._cannot_fail(node, names)

    def _piece_field(self, node: ast.Subscript) -> bool:
        """Whether `node` reads a field of the piece at a site or the empty piece,
        `(b[l3] or k0)[5]`: every piece has the empty piece's length (runtime/pieces.py)."""
        piece, field = node.value, node.slice
        if not (isinstance(piece, ast.BoolOp) and isinstance(piece.op, ast.Or) and len(piece.values) == 2
                and isinstance(piece.values[0], ast.Subscript) and _site_read(piece.values[0])
                and isinstance(piece.values[1], ast.Name) and self._constant(piece.values[1].id)
                and isinstance(field, ast.Constant) and type(field.value) is int):
            return False
        empty = self.src.namespace.get(piece.values[1].id)
        return type(empty) is tuple and len(empty) >= FIRST_ATTRIBUTE and empty[:FIRST_ATTRIBUTE] == EMPTY_START \
            and 0 <= field.value < len(empty)

    def _player_row(self, node: ast.Subscript) -> bool:
        table = node.value
        if not (self.players and pyast.is_name(node.slice, PLAYER) and isinstance(table, ast.Name)
                and self.src.is_const_name(table.id)):
            return False
        value = self.src.namespace.get(table.id)
        return type(value) is tuple and len(value) >= self.players

    # ------------------------------------------------------------ common parts
    def shared(self, root: ast.expr) -> ast.expr:
        """`root` with its repeated parts worked out once (see the module's doc)."""
        memo = self.memo
        if memo.size(root) > MAX_NODES or not _shareable(root):
            return root
        # (what is shared depends on the structure alone, and one expression stands
        # in many functions — a condition written into each case's check —: an
        # expression already rewritten is copied, its temporaries named afresh)
        shape = memo.key(root)
        known = memo.shared.get(shape)
        if known is not None:
            rewritten, temporaries = known
            if not temporaries:
                return _unshared(root) if _shares_nodes(root) else root  # type: ignore[return-value]
            self.changed = True
            return _unshared(rewritten, {name: self.src.fresh("t") for name in temporaries})  # type: ignore[return-value]
        if _shares_nodes(root):
            root = _unshared(root)  # type: ignore[assignment]  # (each node once in the tree: parts are told apart by their identity)
        rounds = 0
        named: list[str] = []
        while rounds < MAX_SHARED:
            rounds += 1
            shared = self._share_one(root, named)
            if shared is None:
                break
            root = shared
            self.changed = True
        memo.shared[shape] = (root, tuple(named))
        return root

    def _share_one(self, root: ast.expr, named: list[str]) -> Optional[ast.expr]:
        """`root` with its largest part worked out twice kept the first time (the
        temporary's name appended to `named`); None where there is none."""
        bound = {node.target.id for node in pyast.walk(root) if isinstance(node, ast.NamedExpr)
                 and isinstance(node.target, ast.Name)}
        memo = self.memo
        paths: dict[int, list[tuple[ast.expr, tuple[tuple[ast.AST, int, bool], ...]]]] = {}
        for node, path in _in_evaluation_order(root):
            if _worth_sharing(node) and not memo.names(node) & bound and memo.pure(node):
                paths.setdefault(memo.key(node), []).append((node, path))
        best: Optional[tuple[int, ast.expr, list[ast.expr]]] = None
        for occurrences in paths.values():
            if len(occurrences) < 2:
                continue
            first, first_path = occurrences[0]
            later = [node for node, path in occurrences[1:] if _dominates(first_path, path)]
            if later and (best is None or memo.size(first) > best[0]):
                best = (memo.size(first), first, later)
        if best is None:
            return None
        _, first, later = best
        name = self.src.fresh("t")
        named.append(name)
        targets: dict[int, ast.expr] = {id(first): ast.NamedExpr(target=ast.Name(id=name, ctx=ast.Store()),
                                                                  value=first)}
        targets.update((id(node), pyast.name(name)) for node in later)
        return pyast.replace_nodes(root, lambda node: targets.get(id(node)))


# ---------------------------------------------------------------- what may move
def cannot_fail_alone(n: ast.AST) -> bool:
    """Whether the node `n` itself cannot raise, its parts being values."""
    if isinstance(n, (ast.Name, ast.Load, ast.BoolOp, ast.IfExp, ast.UnaryOp, ast.operator, ast.cmpop, ast.boolop,
                      ast.unaryop)):
        return True
    if isinstance(n, ast.Constant):
        return n.value is None or type(n.value) in (int, bool)
    if isinstance(n, ast.BinOp):
        if isinstance(n.op, (ast.FloorDiv, ast.Mod)):
            return isinstance(n.right, ast.Constant) and type(n.right.value) is int and n.right.value != 0
        return isinstance(n.op, _SAFE_OPS)
    if isinstance(n, ast.Compare):
        return all(isinstance(op, _SAFE_COMPARE) for op in n.ops)
    # (a bitmask's population, `l1.bit_count()`: the generated code asks it of
    # whole numbers alone — a named group's bits, masks; the larger or smaller of
    # two of them, which compares them as `<` would)
    if isinstance(n, ast.Call):
        return isinstance(n.func, ast.Attribute) and n.func.attr == "bit_count" and not n.args \
            and not n.keywords and isinstance(n.func.value, ast.Name) or _two_way(n)
    if isinstance(n, ast.Attribute):
        return n.attr == "bit_count" and isinstance(n.value, ast.Name)
    return False




def _site_read(node: ast.Subscript) -> bool:
    """Whether `node` reads the board at a site named, written out or held by a
    variable, `b[l3]`, `b[v[2]]` (the board has an entry for every site and one
    for -1, none: it cannot fail)."""
    where = node.slice
    return pyast.is_name(node.value, BOARD) and isinstance(node.ctx, ast.Load) \
        and (isinstance(where, ast.Name) or isinstance(where, ast.Constant) and type(where.value) is int
             and where.value >= -1 or isinstance(where, ast.Subscript) and _variable_read(where))


def _variable_read(node: ast.Subscript) -> bool:
    """Whether `node` reads a variable of the game by its place, `v[4]` (written
    out: a place the variables have)."""
    where = node.slice
    return pyast.is_name(node.value, VARIABLES) and isinstance(node.ctx, ast.Load) \
        and isinstance(where, ast.Constant) and type(where.value) is int and where.value >= 0


def _variable_read_within(node: ast.Subscript) -> bool:
    """Whether `node` reads a variable at a place known to be among a variable's
    entries (pyast.sub_within: a per-player variable at a player worked out, read
    at an entry of the list even where its guard would not let it run — its first
    entry's place less one at the least, -1)."""
    return pyast.is_name(node.value, VARIABLES) and isinstance(node.ctx, ast.Load) \
        and pyast.places_read(node) is not None


def _left_alone_asker(loop: ast.For) -> Callable[[ast.expr, frozenset[str]], bool]:
    """Whether `loop` cannot change what an expression (reading the names given)
    reads of the board and the variables: each register looked at once per loop."""
    written: dict[str, Optional[frozenset[int]]] = {}

    def left_alone(node: ast.expr, names: frozenset[str]) -> bool:
        for register in READ_ONLY & names:
            if register not in written:
                written[register] = _places_written(loop, register)
            places = written[register]
            if places is None or places and not _reads_outside(node, register, places):
                return False
        return True
    return left_alone


def _places_written(loop: ast.For, register: str) -> Optional[frozenset[int]]:
    """The entries of `register` (the board, the variables) that `loop` (its
    iterable, body and else) may change, each written out, `v[15] += 1`: empty
    where it names the register only to read one of its entries; None where
    anything may change — it writes an entry not written out, names the register
    otherwise than to read or write an entry, or names the state (what writes
    either — a helper, another generated function — is handed one or the other)."""
    # (counted, not told by identity: a store's subscript may share its name node
    # with a read's, pyast.as_store)
    entries = named = 0
    places: set[int] = set()
    for node in pyast.walk(loop):
        if isinstance(node, ast.Subscript) and pyast.is_name(node.value, register):
            if not isinstance(node.ctx, ast.Load):
                place = _place(node)
                if place is None:
                    return None
                places.add(place)
            entries += 1
        elif isinstance(node, ast.Name) and node.id in (register, STATE):
            if node.id == STATE:
                return None
            named += 1
    return frozenset(places) if named == entries else None


def _reads_outside(node: ast.expr, register: str, places: frozenset[int]) -> bool:
    """Whether `node` names `register` only to read entries written out, none of
    them among `places` (`v[3]` where a loop writes `v[15]` alone)."""
    entries = named = 0
    for n in pyast.walk(node):
        if isinstance(n, ast.Subscript) and pyast.is_name(n.value, register):
            read = pyast.places_read(n)
            if read is None or not isinstance(n.ctx, ast.Load) \
                    or any(read[0] <= place <= read[1] for place in places):
                return False
            entries += 1
        elif pyast.is_name(n, register):
            named += 1
    return named == entries


def _place(node: ast.Subscript) -> Optional[int]:
    """The entry `node` reads or writes where written out as a whole number, `v[4]`."""
    where = node.slice
    return where.value if isinstance(where, ast.Constant) and type(where.value) is int and where.value >= 0 else None


def _worth_sharing(node: ast.expr) -> bool:
    """Whether reading a local costs less than working `node` out again."""
    if isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Call)):
        return True
    # (a subscript of a subscript: `(b[k3[to]] or k0)[3]`, `k5[k4[p]][to]`)
    return isinstance(node, ast.Subscript) and any(isinstance(n, ast.Subscript) for n in pyast.walk(node.value))




def _shareable(root: ast.expr) -> bool:
    """Whether nothing in `root` can change what its parts read between two of
    them (only calls of `len`, `abs`, `min` and `max`; nothing looked into in comprehensions)."""
    for n in pyast.walk(root):
        if isinstance(n, ast.Call) and not (isinstance(n.func, ast.Name) and n.func.id in _PURE_CALLS):
            return False
        if isinstance(n, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
            return False
    return True


def _largest(root: ast.expr, fits: Callable[[ast.expr], bool]) -> Iterator[ast.expr]:
    """The largest parts of `root` for which `fits` holds (not inside comprehensions)."""
    if isinstance(root, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp, ast.NamedExpr)):
        return
    if fits(root):
        yield root
        return
    for child in pyast.child_nodes(root):
        if isinstance(child, ast.expr):
            yield from _largest(child, fits)


def _expressions(*blocks: list[ast.stmt]) -> Iterator[ast.expr]:
    """The expressions the statements of `blocks` read (not their targets)."""
    for block in blocks:
        for stmt in pyast.statements_in(block):
            for field in ("test", "value", "iter"):
                value = getattr(stmt, field, None)
                if isinstance(value, ast.expr):
                    yield value
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] \
                if isinstance(stmt, ast.AugAssign) else []
            for target in targets:
                if isinstance(target, ast.Subscript):
                    yield target.slice


def _plain_value(value: ast.expr, memo: _Memo) -> bool:
    """Whether `value` is worked out (not a name or a number alone: reading the other
    name would cost as much) of names, whole numbers and arithmetic alone (nothing
    read of a list or the position, which a statement between may change; no list
    made, which two names must not share)."""
    return isinstance(value, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp)) and memo.has_name(value) \
        and memo.pure(value) and all(isinstance(n, _PLAIN) for n in pyast.walk(value))


def _own_expressions(stmt: ast.stmt) -> Iterator[ast.expr]:
    """The expressions `stmt` itself reads (not those of the blocks inside it)."""
    for field in ("test", "value", "iter"):
        value = getattr(stmt, field, None)
        if isinstance(value, ast.expr):
            yield value
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] \
        if isinstance(stmt, (ast.AugAssign, ast.For)) else []
    for target in targets:
        if isinstance(target, ast.Subscript):
            yield target
        elif isinstance(target, ast.Name) and isinstance(stmt, ast.AugAssign):
            yield target


def _skipping_targets(change: Callable[[ast.AST], Optional[ast.AST]]) -> Callable[[ast.AST], Optional[ast.AST]]:
    """`change` for the expressions read, not for the names stored to."""
    def skipping(node: ast.AST) -> Optional[ast.AST]:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            return node
        return change(node)
    return skipping


# ---------------------------------------------------------------- names


def _stored(node: object) -> set[str]:
    """Every name `node` (a node or a list of them) stores to."""
    nodes: list[ast.AST] = node if isinstance(node, list) else [node]  # type: ignore[list-item]
    return {identifier for part in nodes for identifier in pyast.store_counts(part)}


def _assigned_names(stmts: list[ast.stmt]) -> Iterator[ast.Name]:
    for stmt in stmts:
        if isinstance(stmt, ast.Assign):
            yield from (t for t in stmt.targets if isinstance(t, ast.Name))


def _surely_assigned(stmt: ast.stmt) -> frozenset[str]:
    """The names a statement always gives a value when it runs to its end (a plain
    assignment; nothing inside a block, which may not run)."""
    if isinstance(stmt, ast.Assign):
        return frozenset(_stored(stmt.targets))
    return frozenset()


# ---------------------------------------------------------------- evaluation order
def _evaluated(node: ast.AST) -> Sequence[tuple[ast.AST, bool]]:
    """The children of `node` in the order Python works them out, each with whether
    it is worked out whenever `node` is."""
    if isinstance(node, ast.BoolOp):
        return [(v, i == 0) for i, v in enumerate(node.values)]
    if isinstance(node, ast.IfExp):
        return [(node.test, True), (node.body, False), (node.orelse, False)]
    if isinstance(node, ast.Compare):
        return [(node.left, True)] + [(c, i == 0) for i, c in enumerate(node.comparators)]
    if isinstance(node, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
        return []
    return [(child, True) for child in pyast.child_nodes(node) if isinstance(child, ast.expr)]


def _in_evaluation_order(root: ast.expr) -> Iterator[tuple[ast.expr, tuple[tuple[ast.AST, int, bool], ...]]]:
    """Every part of `root` in the order it is worked out, with its path: (the
    parent, the child's place among those worked out, whether it always is)."""
    stack: list[tuple[ast.expr, tuple[tuple[ast.AST, int, bool], ...]]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        yield node, path
        children = _evaluated(node)
        for i in range(len(children) - 1, -1, -1):
            child, always = children[i]
            if isinstance(child, ast.expr):
                stack.append((child, path + ((node, i, always),)))


def _dominates(first: tuple[tuple[ast.AST, int, bool], ...], later: tuple[tuple[ast.AST, int, bool], ...]) -> bool:
    """Whether the part at path `first` is surely worked out, before, whenever the
    part at path `later` is (paths of `_in_evaluation_order`, `first` coming first)."""
    depth = 0
    while depth < len(first) and depth < len(later) and first[depth][1] == later[depth][1]:
        depth += 1
    if depth >= len(first) or depth >= len(later):
        return False  # (one inside the other: not two occurrences)
    parent, place, _ = first[depth]
    later_place = later[depth][1]
    if place >= later_place:
        return False
    if isinstance(parent, ast.IfExp) and place != 0:
        return False  # (the two branches: one or the other)
    # (a later operand of `and`/`or`/a comparison is worked out only after the earlier ones)
    return all(always for _, _, always in first[depth + 1:])


def _rebuilt(stmt: ast.stmt, changed: dict[str, object]) -> ast.stmt:
    """A new statement of the kind of `stmt` with the `changed` fields."""
    kind: Any = type(stmt)
    return kind(**{f: changed.get(f, getattr(stmt, f, None)) for f in stmt._fields}, lineno=0,  # type: ignore[no-any-return]
                col_offset=0)




def _unshared(node: ast.AST, renamed: Mapping[str, str] = _NO_NAMES) -> ast.AST:
    """A copy of `node` in which no node object stands twice (`copy.deepcopy` keeps
    what was shared shared), with the names in `renamed` renamed."""
    fields: dict[str, object] = {}
    for field in node._fields:
        value = getattr(node, field, None)
        if isinstance(value, ast.AST) and not isinstance(value, (ast.expr_context, ast.operator, ast.cmpop,
                                                                   ast.boolop, ast.unaryop)):
            fields[field] = _unshared(value, renamed)
        elif isinstance(value, list):
            fields[field] = [_unshared(item, renamed) if isinstance(item, ast.AST) and not isinstance(item, ast.cmpop)
                             else item for item in value]
        else:
            fields[field] = value
    if renamed and isinstance(node, ast.Name):
        fields["id"] = renamed.get(node.id, node.id)
    copied = type(node)(**fields)
    pyast.kept_places(node, copied)
    return copied


def _shares_nodes(root: ast.AST) -> bool:
    """Whether one node object stands twice in `root` (then its copies are told apart by a copy)."""
    seen: set[int] = set()
    for node in pyast.walk(root):
        if id(node) in seen:
            return True
        seen.add(id(node))
    return False
