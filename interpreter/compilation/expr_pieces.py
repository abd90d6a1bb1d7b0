"""What stands on a site: attributes (`X.owner`, `X.value`, `X.ATTR`) and `X is ...`.

A piece is a tuple `(owner, kind, stones, attributes...)` or None; a site that may
hold none is read through the empty piece E (code.py), so that one read answers
every question.
"""
from __future__ import annotations

import ast as py

from ..parsing import ast
from ..spelling import did_you_mean
from . import pyast
from .code import Code, Compiling, Handler, describe
from .errors import RuleError, name_pos, unknown
from .names import BUILTIN_PROPERTIES, PIECE_RELATIONS
from .scope import Scope
from .types import Dep, Type


class PieceFamily:
    def __init__(self, x: Compiling):
        self.x = x
        kinds = sorted(x.model.kinds.values(), key=lambda k: k.index)
        self.kind_values = [k.value for k in kinds] + [0]

    def nodes(self) -> dict[type, Handler]:
        return {ast.Attr: self.attribute, ast.Is: self.is_}

    def functions(self) -> dict[str, Handler]:
        return {}

    def values_table(self) -> py.Name:
        """values[kind]: each kind's value (and 0 for no kind)."""
        return self.x.src.const(tuple(self.kind_values))

    def enemy_table(self) -> py.Name:
        """The constant saying, for a player and an owner, whether they are enemies."""
        n = self.x.n_players
        return self.x.src.const(tuple(tuple(o != me for o in range(n)) + (False,) for me in range(n)))

    def piece_read(self, c: Code, scope: Scope) -> py.expr:
        """Code of the piece on site `c`, or of E when there is none: index it."""
        if c.piece is not None and scope.piece_always and pyast.is_name(c.piece, scope.register("piece").piece):
            return c.piece
        if c.occupied:
            return c.piece_code()
        return pyast.or_(c.piece_code(), self.x.empty)

    def attribute(self, e: ast.Attr, scope: Scope) -> Code:
        x = self.x
        obj = x.compile(e.obj, scope)
        if obj.type is not Type.SITE:
            raise RuleError(e.pos, f"'.{e.name}' needs a piece or a site, found {describe(obj)}")
        deps, cost = obj.deps, obj.cost + 1
        name = e.name
        if obj.is_const and obj.const == -1:
            obj = Code(pyast.num(-1), Type.SITE, piece=pyast.none())
        read = self.piece_read(obj, scope)
        if name == "owner":
            return Code(pyast.sub(read, 0), Type.PLAYER, deps, cost=cost)
        if name == "kind":
            raise RuleError(e.pos, "compare kinds with 'is', e.g. 'piece is KIND'")
        if name == "height":
            if x.model.stacks:
                return Code(pyast.helper("len", pyast.sub(read, 2)), Type.INT, deps, cost=cost)
            present = pyast.is_not_none(obj.piece_code())
            return Code(pyast.add(present, pyast.num(0)), Type.INT, deps, cost=cost)
        if name == "value":
            return Code(pyast.sub(self.values_table(), pyast.sub(read, 1)), Type.INT, deps, cost=cost)
        attr = x.model.attributes.get(name)
        if attr is None:
            raise unknown(name_pos(e.pos, name), "attribute", name,
                          list(x.model.attributes) + list(BUILTIN_PROPERTIES))
        type_ = Type.INT if attr.type == "int" else Type.BOOL
        acting = obj.piece is not None and pyast.is_name(obj.piece, scope.register("piece").piece)
        return Code(pyast.sub(read, attr.index), type_, deps, cost=cost, piece_attr=attr.index if acting else None)

    def is_(self, e: ast.Is, scope: Scope) -> Code:
        x = self.x
        obj = x.compile(e.obj, scope)
        if obj.type is not Type.SITE:
            raise RuleError(e.obj.pos, f"'is' needs a piece or a site, found {describe(obj)}")
        what = e.what
        deps, cost = obj.deps, obj.cost + 1
        if obj.is_const and obj.const == -1:
            obj = Code(pyast.num(-1), Type.SITE, piece=pyast.none())
        player = pyast.name(scope.register("player").site)
        if what in x.model.kinds:
            kind = x.model.kinds[what].index
            known = scope.piece_kinds
            acting = isinstance(e.obj, ast.Name) and e.obj.id == "piece" and "piece" not in scope.locals
            if known is not None and acting:
                # The acting piece's kind is known here (the action's `by`).
                if known <= {kind} or kind not in known:
                    return x.const((kind in known) != e.negated, Type.BOOL)
            test = self.kind_test(self.piece_read(obj, scope), frozenset({kind}), deps)
            return test if not e.negated else Code(pyast.not_(test.code), Type.BOOL, deps, cost=cost)
        piece = obj.piece_code()
        code: py.expr
        if what == "empty":
            # No site (`neighbour` beyond the edge) is not an empty site.
            code = pyast.is_none(piece)
            if not obj.real:
                code = pyast.and_(code, pyast.compare(obj.code, "!=", pyast.num(-1)))
        elif what == "occupied":
            code = pyast.is_not_none(piece)
        elif what == "enemy":
            code = pyast.sub(pyast.sub(self.enemy_table(), player), pyast.sub(self.piece_read(obj, scope), 0))
        elif what == "own":
            code = pyast.compare(pyast.sub(self.piece_read(obj, scope), 0), "==", player)
        elif what == "neutral":
            owner = pyast.sub(pyast.or_(piece, x.src.const((-2,))), 0)
            code = pyast.compare(owner, "==", pyast.num(-1))
        else:
            raise RuleError(
                e.what_pos,
                f"'{what}' is neither a piece kind nor one of {', '.join(PIECE_RELATIONS)}",
                did_you_mean(what, list(x.model.kinds) + list(PIECE_RELATIONS)),
            )
        if e.negated:
            code = pyast.not_(code)
        return Code(code, Type.BOOL, deps, cost=cost)

    def kind_test(self, read: py.expr, kinds: frozenset[int], deps: frozenset[Dep]) -> Code:
        """Whether the piece read by `read` (a `(P or E)` form) is of one of `kinds`."""
        code: py.expr
        if len(kinds) == 1:
            (k,) = kinds
            code = pyast.compare(pyast.sub(read, 1), "==", pyast.num(k))
        else:
            member = tuple(i in kinds for i in range(len(self.x.model.kinds))) + (False,)
            code = pyast.sub(self.x.src.const(member), pyast.sub(read, 1))
        return Code(code, Type.BOOL, deps, cost=1, kind_test=(read, kinds))
