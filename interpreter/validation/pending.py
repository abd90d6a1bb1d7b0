"""Constructs the language has and the interpreter does not run yet.

The grammar, the syntax tree and the schemas already know the constructs of
docs/design/format-reach-3.md (board repetitions, site variables, decimal numbers,
passes with statements, rotations, single stones of stacks, actions for each of
several values, the longest turn, blocked leaps, screens, cases in `prefer`); their
checks and code come with the compiler that follows. Until then a definition that
uses one is refused here, at the place it is written, instead of reaching the
compiler (which would misread it or fail without a location). Each construct leaves
this list when the compiler learns it.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Optional

from ..parsing import ast
from .semantic import walk

DESIGN = "docs/design/format-reach-3.md"
Report = Callable[[tuple, str, Optional[str]], None]


def _not_yet(what: str) -> str:
    return f"{what} is not supported yet"


def pending_in_rules(rules: list[ast.RulesFile]) -> Iterator[tuple[ast.Pos, str]]:
    """(where, message) for every use of a construct the compiler does not run yet."""
    defines = {item.name for f in rules for item in f.items if isinstance(item, ast.Define)}
    for node in walk([f.items for f in rules]):
        yield from _pending_node(node, defines)


def _pending_node(node: Any, defines: set[str]) -> Iterator[tuple[ast.Pos, str]]:
    if isinstance(node, ast.DecimalNum):
        yield node.pos, _not_yet(f"a number with a fractional part ({node.text})")
    elif isinstance(node, ast.BoardRepetitions):
        yield node.pos, _not_yet("'board repetitions'")
    elif isinstance(node, ast.Call) and node.fn == "connected" and node.fn not in defines:
        yield node.pos, _not_yet("'connected(...)'")
    elif isinstance(node, ast.Case) and node.kind == "pass":
        yield node.pos, _not_yet("a pass with statements ('pass:')")


def report_pending_yaml(data: dict, report: Report) -> None:
    """Report the YAML fields of the same constructs: site variables, decimal options."""
    for name, spec in (data.get("variables") or {}).items():
        if isinstance(spec, dict) and spec.get("type") == "site":
            report(("variables", name, "type"), _not_yet("a variable of type 'site'"), f"see {DESIGN}")
    for name, spec in (data.get("options") or {}).items():
        if not isinstance(spec, dict):
            continue
        numbers = [spec.get("default"), spec.get("min"), spec.get("max")] + list(spec.get("values") or [])
        if spec.get("type") == "decimal":
            report(("options", name, "type"), _not_yet("an option of type 'decimal'"), f"see {DESIGN}")
        elif any(isinstance(v, float) for v in numbers):
            report(("options", name), _not_yet("an option with a fractional number"), f"see {DESIGN}")
