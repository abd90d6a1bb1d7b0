"""The values a number a notation shows can take, worked out from the rules
without playing (for the fixed action space, `Game.possible_notations`).

A variable can hold its default and whatever its `=` assignments store; an
assignment's value is followed through numbers, options, chance outcomes (in the
chance event's own statements), other variables, arithmetic and `if ... else`.
A variable that is counted (`+=`, `-=`) or given anything else (a count, an
attribute, a procedure's parameter) has no such set: None. Sites, players and
flags need none of this (every site, every player, true and false).
"""
from __future__ import annotations

import operator
from typing import Any, Callable, Iterator, Optional

from ..parsing import ast
from ..parsing.visit import nodes_of
from .items import RuleItems
from .model import GameModel

# At most this many values are followed per variable or expression (else: unknown).
MAX_VALUES = 1000
Domain = Optional[frozenset[Any]]
_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod,
}


class Domains:
    """The values of the number variables (None: not a fixed set)."""

    def __init__(self, model: GameModel, items: RuleItems, outcomes: dict[str, tuple[Any, ...]]):
        self.model = model
        self.outcomes = outcomes  # chance event -> its outcome values
        # (variable, the value stored, the chance event whose statements store it or None)
        self.stores: list[tuple[str, Optional[ast.Expr], Optional[str]]] = []
        for chance in items.chances.values():
            self._collect(chance.body, chance.name)
        for blocks in _other_blocks(items):
            self._collect(blocks, None)
        self.variables: dict[str, Domain] = {}
        self._solve()

    def _collect(self, stmts: Any, chance: Optional[str]) -> None:
        for node in nodes_of(stmts):
            if not isinstance(node, ast.AssignStmt):
                continue
            target = node.target
            name = target.id if isinstance(target, ast.Name) else \
                target.obj.id if isinstance(target, ast.Index) and isinstance(target.obj, ast.Name) else None
            if name is None or name not in self.model.variables:
                continue
            self.stores.append((name, node.value if node.op == "=" else None, chance))

    def _solve(self) -> None:
        """Each variable's values, grown from its default until nothing changes."""
        values: dict[str, Domain] = {name: frozenset({var.default, *var.defaults})
                                     for name, var in self.model.variables.items()}
        for _ in range(len(self.stores) + 2):
            changed = False
            for name, value, chance in self.stores:
                if values[name] is None:
                    continue
                found = None if value is None else self.of(value, chance, values)
                grown = None if found is None else values[name] | found  # type: ignore[operator]
                if grown is not None and len(grown) > MAX_VALUES:
                    grown = None
                if grown != values[name]:
                    values[name] = grown
                    changed = True
            if not changed:
                break
        self.variables = values

    def of(self, e: ast.Expr, chance: Optional[str] = None, variables: Optional[dict[str, Domain]] = None) -> Domain:
        """The values `e` can take (None: not a fixed set)."""
        variables = self.variables if variables is None else variables
        if isinstance(e, (ast.Num, ast.Bool)):
            return frozenset({e.value})
        if isinstance(e, ast.Name):
            if e.id == "outcome" and chance is not None:
                return frozenset(self.outcomes.get(chance, ()))
            if e.id in variables:
                return variables[e.id]
            if e.id in self.model.options:
                return frozenset({self.model.options[e.id]})
            return None
        if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name) and e.obj.id in variables:
            return variables[e.obj.id]
        if isinstance(e, ast.Neg):
            inner = self.of(e.operand, chance, variables)
            return None if inner is None else frozenset(-v for v in inner)
        if isinstance(e, ast.IfExp):
            a, b = self.of(e.then, chance, variables), self.of(e.otherwise, chance, variables)
            return None if a is None or b is None else a | b
        if isinstance(e, ast.BinOp) and e.op in _ARITHMETIC:
            return self._combine(_ARITHMETIC[e.op], [e.left, e.right], chance, variables, e.op in ("//", "%"))
        if isinstance(e, ast.Call) and e.fn in ("max", "min") and len(e.args) == 2:
            return self._combine(max if e.fn == "max" else min, e.args, chance, variables, False)
        if isinstance(e, ast.Call) and e.fn == "abs" and len(e.args) == 1:
            inner = self.of(e.args[0], chance, variables)
            return None if inner is None else frozenset(abs(v) for v in inner)
        return None

    def _combine(self, op: Callable[[Any, Any], Any], args: list[ast.Expr], chance: Optional[str],
                 variables: dict[str, Domain], divides: bool) -> Domain:
        a, b = (self.of(x, chance, variables) for x in args)
        if a is None or b is None or len(a) * len(b) > MAX_VALUES * 10:
            return None
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in a | b):
            return None
        return frozenset(op(x, y) for x in a for y in b if not (divides and y == 0))


def _other_blocks(items: RuleItems) -> Iterator[Any]:
    """The statements of the rules outside chance events."""
    yield [procedure.body for procedure in items.procedures.values()]
    yield [decision for decision in items.decisions.values()]
    yield items.phases

