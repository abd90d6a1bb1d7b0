"""What a condition about a candidate says about its piece alone: a weaker
condition, implied by it, that reads no candidate.

`where exists(d in orthogonal, two(from, d) is enemy and two(two(from, d), d) == to)`
holds for some landing `to` only where `exists(d in orthogonal, two(from, d) is
enemy)` holds: that test reads the moving piece and the board alone, so it can be
asked once per piece, before its candidates are listed — a piece failing it has
none of them (actions.ActionCompiler._where_levels adds it to the piece's
conditions). The original condition stays where it was: the two together are the
original (it implies the weaker one), so the listing is unchanged.

The weaker condition (`necessary`) is built on the rules' syntax tree, replacing
each part that mentions a candidate name (`to`, `target`, `jumped`, a define's
parameter given one) by "true" where that only weakens the whole:
- a conjunction `A and B and ...` keeps its parts in order up to the first one it
  weakens (that one weakened, those after it left out): whatever the weaker
  condition asks, the original asks too, with the same parts true before it — a
  part that would fail (a division by zero) where an earlier part had kept the
  original from asking it is never asked either;
- a disjunction `A or B` is `weaker(A) or weaker(B)` (true when either is);
- `exists(x in SET, C)` is `exists(x in SET, weaker(C))`, when SET mentions no
  candidate (it stops no later than the original, at an element where the weaker
  C holds, which the original asked too);
- a define called with arguments is written out (its parameters replaced by the
  arguments, where no name of the arguments is one the define's body gives a
  meaning of its own), and weakened;
- anything else mentioning a candidate (`not`, `all`, a comparison, a function)
  is true: nothing is known.

The caller still compiles the result, checks that it reads no candidate, and
keeps it only where its code calls nothing that could fail (it may be asked of a
piece that has no candidate at all). Bounded: a definition's defines cannot make
the walk or the written-out tree grow beyond `MAX_NODES` nodes.
"""
from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, Mapping, Optional

from ..parsing import ast
from ..parsing.visit import children, is_node, nodes_of
from .code import conjuncts, disjuncts

# The context names a candidate gives a value (types.CANDIDATE_DEPS).
CANDIDATE_NAMES = frozenset({"to", "target", "jumped"})
# Quantifiers that can name their elements: `exists(x in SET, ...)`.
_NAMING = frozenset({"count", "exists", "all"})
# The nodes the walk visits and writes, at most (past it, nothing is known).
MAX_NODES = 5_000


class _TooBig(Exception):
    """The walk went past MAX_NODES."""


def necessary(e: ast.Expr, defines: Mapping[str, ast.Define],
              names: frozenset[str] = CANDIDATE_NAMES) -> Optional[ast.Expr]:
    """A condition implied by `e` that mentions none of `names` (and no define
    that does), or None when nothing is known; `e` itself when it mentions none."""
    try:
        return _Weakening(defines).weaker(e, names)
    except _TooBig:
        return None


def mentions(e: ast.Expr, defines: Mapping[str, ast.Define], names: frozenset[str]) -> bool:
    """Whether `e` reads one of `names`, directly or through a define (True
    when the walk goes past MAX_NODES)."""
    try:
        return _Weakening(defines).mentions(e, names)
    except _TooBig:
        return True


class _Weakening:
    def __init__(self, defines: Mapping[str, ast.Define]):
        self.defines = defines
        self.nodes = 0

    def _count(self, n: int = 1) -> None:
        self.nodes += n
        if self.nodes > MAX_NODES:
            raise _TooBig

    def weaker(self, e: ast.Expr, names: frozenset[str]) -> Optional[ast.Expr]:
        self._count()
        if not self.mentions(e, names):
            return e
        if isinstance(e, ast.And):
            kept: list[ast.Expr] = []
            for part in conjuncts(e):
                w = self.weaker(part, names)
                if w is part:
                    kept.append(part)
                    continue
                if w is not None:
                    kept.append(w)
                break
            return _joined(kept, ast.And)
        if isinstance(e, ast.Or):
            either = [self.weaker(part, names) for part in disjuncts(e)]
            if any(w is None for w in either):
                return None
            return _joined(either, ast.Or)  # type: ignore[arg-type]  # (none is None)
        if isinstance(e, ast.Call) and e.fn == "exists" and len(e.args) == 2 and e.fn not in self.defines:
            first, cond = e.args
            collection = first.collection if _names_element(first) else first  # type: ignore[attr-defined]
            if self.mentions(collection, names):
                return None
            bound = first.item.id if _names_element(first) else "it"  # type: ignore[attr-defined]
            w = self.weaker(cond, names - {bound})
            return None if w is None else replace(e, args=[first, w])
        if isinstance(e, ast.Call) and e.fn in self.defines or isinstance(e, ast.Name) and e.id in self.defines:
            body = self._written_out(e)
            return None if body is None else self.weaker(body, names)
        return None

    def _written_out(self, e: ast.Expr) -> Optional[ast.Expr]:
        """The define's body with its parameters replaced by the call's
        arguments, or None where a name of an argument could change meaning."""
        fn = e.fn if isinstance(e, ast.Call) else e.id  # type: ignore[attr-defined]
        define = self.defines[fn]
        args = e.args if isinstance(e, ast.Call) else []
        params = [p.id for p in define.params]
        if len(args) != len(params):
            return None
        if not params:
            return define.expr
        taken = self._bound_names(define.expr) | {"it"}
        kinds = {node.what for node in nodes_of(define.expr) if isinstance(node, ast.Is)}
        if (taken | kinds) & set(params) or any(taken & self._names_in(arg) for arg in args):
            return None
        return self._substituted(define.expr, dict(zip(params, args)))

    def mentions(self, e: object, names: frozenset[str]) -> bool:
        """Whether `e` reads one of `names`, directly or through a define."""
        self._count()
        if not names:
            return False
        if isinstance(e, ast.Name):
            if e.id in names:
                return True
            define = self.defines.get(e.id)
            return define is not None and not define.params and self.mentions(define.expr, names)
        if isinstance(e, ast.Call) and e.fn in self.defines:
            define = self.defines[e.fn]
            params = {p.id for p in define.params}
            given = frozenset(p.id for p, arg in zip(define.params, e.args) if self.mentions(arg, names))
            return bool(given) or self.mentions(define.expr, (names - params) | given)
        return any(self.mentions(child, names) for child in children(e))

    def _names_in(self, e: object) -> set[str]:
        self._count()
        found = {e.id} if isinstance(e, ast.Name) else set()
        for child in children(e):
            found |= self._names_in(child)
        return found

    def _bound_names(self, e: object) -> set[str]:
        """The names `exists(x in ...)` and its kind give a meaning inside `e`."""
        self._count()
        found: set[str] = set()
        if isinstance(e, ast.Call) and e.fn in _NAMING and e.args and _names_element(e.args[0]):
            found.add(e.args[0].item.id)  # type: ignore[attr-defined]
        for child in children(e):
            found |= self._bound_names(child)
        return found

    def _substituted(self, e: ast.Expr, by: dict[str, ast.Expr]) -> ast.Expr:
        self._count()
        if isinstance(e, ast.Name) and e.id in by:
            return by[e.id]
        changes: dict[str, Any] = {}
        for f in fields(e):
            value = getattr(e, f.name)
            if is_node(value) and isinstance(value, ast.Expr):
                changes[f.name] = self._substituted(value, by)
            elif isinstance(value, list) and all(isinstance(item, ast.Expr) for item in value):
                changes[f.name] = [self._substituted(item, by) for item in value]
        return replace(e, **changes)


def _names_element(first: ast.Expr) -> bool:
    return isinstance(first, ast.In) and isinstance(first.item, ast.Name) and not first.negated


def _joined(parts: list[ast.Expr], op: type[ast.And] | type[ast.Or]) -> Optional[ast.Expr]:
    if not parts:
        return None
    joined = parts[0]
    for part in parts[1:]:
        joined = op(joined.pos, joined, part)
    return joined
