"""Fixed numbers past the limits of docs/format.md, found before the game runs.

`repeat N times`, `for each v in A to B`, `walk N steps` and `along(TRACK, SITE, N)` are bounded when they
run (a located error then); where N is fixed by the rules alone — a number, an
option's value, sums and products of those — it is checked here, so that
`validate` reports it instead of the first game that gets there.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ..compilation.errors import RuleError
from ..compilation.statements import MAX_LOOP
from ..parsing import ast
from ..parsing.visit import nodes_of
from ..runtime.helpers import MAX_ALONG
from ..runtime.walks import MAX_WALK_STEPS

if TYPE_CHECKING:
    from ..compilation.model import GameModel

_HUGE = 10**18


def bound_errors(model: GameModel, items: Any) -> list[RuleError]:
    """An error per fixed count of a `repeat`, `walk` or `along` past its limit."""
    everything = [items.phases, list(items.decisions.values()), list(items.chances.values()),
                  list(items.defines.values()), list(items.procedures.values()), items.forbids, items.score]
    errors = []
    for node in nodes_of(everything):
        if isinstance(node, ast.RepeatStmt):
            found = _over(node.count, MAX_LOOP, model, "'repeat' {n} times is more than the {limit} allowed")
        elif isinstance(node, ast.ForEachStmt) and node.until is not None:
            low, high = fixed_int(node.iterable, model), fixed_int(node.until, model)
            found = None
            if low is not None and high is not None and high - low + 1 > MAX_LOOP:
                found = RuleError(node.pos, f"'for each' over {high - low + 1} numbers is more than the {MAX_LOOP} "
                                            "allowed", "docs/format.md, 'Limits and safety'")
        elif isinstance(node, ast.WalkPattern):
            found = _over(node.steps, MAX_WALK_STEPS, model, "a walk of {n} steps is longer than the {limit} allowed")
        elif isinstance(node, ast.Call) and node.fn == "along" and len(node.args) == 3:
            found = _over(node.args[2], MAX_ALONG, model, "'along' {n} sites is more than the {limit} allowed")
        else:
            continue
        if found is not None:
            errors.append(found)
    return errors


def _over(e: ast.Expr, limit: int, model: GameModel, message: str) -> Optional[RuleError]:
    n = fixed_int(e, model)
    if n is None or n <= limit:
        return None
    return RuleError(e.pos, message.format(n=n, limit=limit), "docs/format.md, 'Limits and safety'")


def fixed_int(e: ast.Expr, model: GameModel) -> Optional[int]:
    """The value of a whole-number expression the rules alone fix: numbers, int
    options, `-`, `+`, `-`, `*` of those; None for anything else."""
    if isinstance(e, ast.Num) and type(e.value) is int:
        return e.value
    if isinstance(e, ast.Name):
        value = model.options.get(e.id)
        return value if type(value) is int else None
    if isinstance(e, ast.Neg):
        inner = fixed_int(e.operand, model)
        return None if inner is None else -inner
    if isinstance(e, ast.BinOp) and e.op in ("+", "-", "*"):
        left, right = fixed_int(e.left, model), fixed_int(e.right, model)
        if left is None or right is None:
            return None
        value = left + right if e.op == "+" else left - right if e.op == "-" else left * right
        return max(-_HUGE, min(_HUGE, value))  # (past any limit: the number itself does not matter)
    return None
