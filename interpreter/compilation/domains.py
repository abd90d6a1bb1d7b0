"""The values a number a notation shows can take, worked out from the rules
without playing (for the fixed action space, `Game.possible_notations`).

A variable can hold its default and whatever its `=` assignments store; an
assignment's value is followed through numbers, options, chance outcomes (in the
chance event's own statements), other variables, `let` names, arithmetic and
`if ... else`, and a procedure's parameter through the arguments its calls give it
(as if the procedure's statements were written at each call, format.md 3.13). A
`let` name holds every value any `let` of that name gives in the same chance event,
procedure or (together) the decisions and phases — more than it may hold at one
place, never fewer. A variable that is counted (`+=`, `-=`), given anything else (a
count, an attribute) or still growing after as many rounds as there are assignments
(`x = x + 1`) has no such set: None, and `lost` keeps the assignment that made it
so, for the message. Sites, players and flags need none of this (every site, every player,
true and false).
"""
from __future__ import annotations

import operator
from typing import Any, Callable, Iterator, Optional, Union

from ..parsing import ast
from ..parsing.visit import nodes_of
from .items import RuleItems, kind_copy_name
from .model import GameModel

# At most this many values are followed per variable or expression (else: unknown).
MAX_VALUES = 1000
Domain = Optional[frozenset[Any]]
# what holds a value: a variable's name, (procedure, parameter), or ("let", where, name)
# with where the chance event's or procedure's name ("" for the decisions and phases)
Key = Union[str, tuple[str, str], tuple[str, str, str]]
_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod,
}


class Domains:
    """The values of the number variables (None: not a fixed set)."""

    def __init__(self, model: GameModel, items: RuleItems, outcomes: dict[str, tuple[Any, ...]]):
        self.model = model
        self.outcomes = outcomes  # chance event -> its outcome values
        self.params = {name: [param.id for param in procedure.params] for name, procedure in items.procedures.items()}
        # (what is stored into, the assignment or call, the value stored (None: counted), the
        # chance event whose statements store it, the procedure whose statements store it)
        self.stores: list[tuple[Key, ast.Stmt, Optional[ast.Expr], Optional[str], Optional[str]]] = []
        for chance in items.chances.values():
            self._collect(chance.body, chance.name, None)
        for name, procedure in items.procedures.items():
            self._collect(procedure.body, None, name)
        for blocks in _other_blocks(items):
            self._collect(blocks, None, None)
        self.lets = {key for key, *_ in self.stores if isinstance(key, tuple) and key[0] == "let"}
        self.variables: dict[Key, Domain] = {}
        # what made a value not a fixed set: the assignment or the call, and what it does
        self.lost: dict[Key, tuple[ast.Pos, str]] = {}
        self._solve()

    def _collect(self, stmts: Any, chance: Optional[str], procedure: Optional[str]) -> None:
        for node in nodes_of(stmts):
            if isinstance(node, ast.CallStmt):
                self._collect_call(node, chance, procedure)
            if isinstance(node, ast.LetStmt):
                self.stores.append((_let_key(node.name, chance, procedure), node, node.value, chance, procedure))
            if not isinstance(node, ast.AssignStmt):
                continue
            target = node.target
            name = target.id if isinstance(target, ast.Name) else \
                target.obj.id if isinstance(target, ast.Index) and isinstance(target.obj, ast.Name) else None
            if name is None or name not in self.model.variables or name in self.params.get(procedure or "", ()):
                continue
            self.stores.append((name, node, node.value if node.op == "=" else None, chance, procedure))

    def _collect_call(self, call: ast.CallStmt, chance: Optional[str], procedure: Optional[str]) -> None:
        """A call's arguments stored into the parameters of the procedure it runs
        (the copy made for the piece kinds it gives, which has the others)."""
        callee = kind_copy_name(call.procedure, call.args, self.model.kinds)
        args = call.args
        if callee is not None and callee in self.params:
            args = [arg for arg in args if not (isinstance(arg, ast.Name) and arg.id in self.model.kinds)]
        else:
            callee = call.procedure
        params = self.params.get(callee)
        if params is None or len(args) != len(params):
            return  # (an error reported elsewhere)
        for param, arg in zip(params, args):
            self.stores.append(((callee, param), call, arg, chance, procedure))

    def _solve(self) -> None:
        """Each variable's and parameter's values, grown from the variable's defaults
        (from nothing for a parameter) until nothing changes."""
        values: dict[Key, Domain] = {name: frozenset({var.default, *var.defaults})
                                     for name, var in self.model.variables.items()}
        values.update({(name, param): frozenset() for name, params in self.params.items() for param in params})
        values.update({key: frozenset() for key in self.lets})
        rounds = 0
        changed = True
        while changed:
            # (after as many rounds as there are stores, a value still growing grows without
            # end, `x = x + 1`: not a fixed set — so that every key settles)
            rounds += 1
            widen = rounds > len(self.stores) + 2
            changed = False
            for key, stmt, value, chance, procedure in self.stores:
                if values[key] is None:
                    continue
                found = None if value is None else self.of(value, chance, values, procedure)
                grown = None if found is None else values[key] | found  # type: ignore[operator]
                if grown is not None and (len(grown) > MAX_VALUES or widen and grown != values[key]):
                    grown = None
                if grown is None:
                    self.lost[key] = self._cause(key, stmt, value, chance, procedure, values, found is not None)
                if grown != values[key]:
                    values[key] = grown
                    changed = True
        self.variables = values

    def _cause(self, key: Key, stmt: ast.Stmt, value: Optional[ast.Expr], chance: Optional[str],
               procedure: Optional[str], values: dict[Key, Domain], grows: bool) -> tuple[ast.Pos, str]:
        """What made `key`'s values not a fixed set: what made those of a name in the
        value stored lost, or this store."""
        what = f"'{key}'" if isinstance(key, str) else f"let name '{key[-1]}'" if key in self.lets \
            else f"parameter '{key[1]}' of procedure '{key[0]}'"
        if grows:
            return stmt.pos, f"{what} takes ever more values (more than {MAX_VALUES}, or without end)"
        if value is not None:
            for key_in in self._keys_in(value, procedure, chance):
                if values.get(key_in, frozenset()) is None and key_in in self.lost:
                    return self.lost[key_in]
        if value is None:
            return stmt.pos, f"{what} is counted ('{getattr(stmt, 'op', '+=')}')"
        return stmt.pos, f"{what} is given a value worked out while playing (a count, an attribute, ...)"

    def _keys_in(self, e: ast.Expr, procedure: Optional[str], chance: Optional[str] = None) -> Iterator[Key]:
        for node in nodes_of(e):
            if isinstance(node, ast.Name):
                if node.id in self.params.get(procedure or "", ()):
                    yield procedure or "", node.id
                elif _let_key(node.id, chance, procedure) in self.lets:
                    yield _let_key(node.id, chance, procedure)
                elif node.id in self.model.variables:
                    yield node.id

    def why(self, e: ast.Expr) -> Optional[str]:
        """Where the values of `e` (a notation's source) were lost, for the message."""
        for key in self._keys_in(e, None):
            if key in self.lost:
                pos, what = self.lost[key]
                return f"{what} at {pos}"
        return None

    def of(self, e: ast.Expr, chance: Optional[str] = None, variables: Optional[dict[Key, Domain]] = None,
           procedure: Optional[str] = None) -> Domain:
        """The values `e` can take (None: not a fixed set), in the statements of
        `chance` or `procedure` when given."""
        variables = self.variables if variables is None else variables
        if isinstance(e, (ast.Num, ast.Bool)):
            return frozenset({e.value})
        if isinstance(e, ast.Name):
            if procedure is not None and e.id in self.params.get(procedure, ()):
                return variables[procedure, e.id]
            if e.id == "outcome" and chance is not None:
                return frozenset(self.outcomes.get(chance, ()))
            if _let_key(e.id, chance, procedure) in variables:
                return variables[_let_key(e.id, chance, procedure)]
            if e.id in variables:
                return variables[e.id]
            if e.id in self.model.options:
                return frozenset({self.model.options[e.id]})
            return None
        if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name) and e.obj.id in variables:
            return variables[e.obj.id]
        if isinstance(e, ast.Neg):
            inner = self.of(e.operand, chance, variables, procedure)
            return None if inner is None else frozenset(-v for v in inner)
        if isinstance(e, ast.IfExp):
            a, b = self.of(e.then, chance, variables, procedure), self.of(e.otherwise, chance, variables, procedure)
            return None if a is None or b is None else a | b
        if isinstance(e, ast.BinOp) and e.op in _ARITHMETIC:
            return self._combine(_ARITHMETIC[e.op], [e.left, e.right], chance, variables, e.op in ("//", "%"),
                                 procedure)
        if isinstance(e, ast.Call) and e.fn in ("max", "min") and len(e.args) == 2:
            return self._combine(max if e.fn == "max" else min, e.args, chance, variables, False, procedure)
        if isinstance(e, ast.Call) and e.fn == "abs" and len(e.args) == 1:
            inner = self.of(e.args[0], chance, variables, procedure)
            return None if inner is None else frozenset(abs(v) for v in inner)
        return None

    def _combine(self, op: Callable[[Any, Any], Any], args: list[ast.Expr], chance: Optional[str],
                 variables: dict[Key, Domain], divides: bool, procedure: Optional[str]) -> Domain:
        a, b = (self.of(x, chance, variables, procedure) for x in args)
        if a is None or b is None or len(a) * len(b) > MAX_VALUES * 10:
            return None
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in a | b):
            return None
        return frozenset(op(x, y) for x in a for y in b if not (divides and y == 0))


def _let_key(name: str, chance: Optional[str], procedure: Optional[str]) -> Key:
    return "let", procedure or chance or "", name


def _other_blocks(items: RuleItems) -> Iterator[Any]:
    """The statements of the rules outside chance events and procedures."""
    yield [decision for decision in items.decisions.values()]
    yield items.phases

