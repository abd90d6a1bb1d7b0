"""How large the rules become once every define and procedure is written out.

A define is evaluated where it is used, and a procedure runs as if its statements
stood at the call (docs/format.md 3.13): compiling writes each use out in full. A
define that uses another twice, which uses another twice, ... doubles with every
level, so forty short lines could keep the compiler busy for ever. This module
counts, from the syntax tree alone and before anything is compiled, the terms each
item stands for (each define and procedure once, memoised, bottom-up) and refuses
the rules past `MAX_EXPANDED_TERMS`, at the item where the bound is passed, naming
the chain of uses that makes it so large.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

from ..compilation.errors import RuleError
from ..parsing import ast
from .semantic import walk

# Terms (nodes of the syntax tree: names, numbers, operators, statements, ...) the
# rules may stand for with every define and procedure written out where it is used:
# an item alone, and all the rules together. The bundled games and the examples
# stand for at most a few thousand; compiling takes about 30 µs a term.
MAX_EXPANDED_TERMS = 50_000
# Sizes are counted up to this, so that numbers stay small whatever the rules.
_CAP = 10 * MAX_EXPANDED_TERMS


@dataclass
class _Named:
    """A define or a procedure: its own terms and the names it uses, once per use."""

    item: object
    own: int = 0
    uses: list[str] = field(default_factory=list)


def expansion_errors(items) -> list[RuleError]:
    """Errors for the items (and the whole rules) that stand for more than
    MAX_EXPANDED_TERMS terms once written out; [] when all is well."""
    named = _named(items)
    sizes = _sizes(named)
    errors = []
    for name, entry in named.items():
        if sizes[name] > MAX_EXPANDED_TERMS and all(sizes[used] <= MAX_EXPANDED_TERMS for used in entry.uses):
            errors.append(_too_large(entry.item.pos, name, sizes, named))
    if errors:
        return errors
    total = 0
    for item in _top_level(items):
        entry = _read(item, items, [])
        total += _size(entry, sizes)
        if total > MAX_EXPANDED_TERMS:
            what = f"'{item.name}'" if getattr(item, "name", None) else "this item"
            biggest = max(entry.uses, key=lambda used: sizes[used], default=None)
            chain = f" ({_chain(biggest, sizes, named)})" if biggest is not None else ""
            message = (f"the rules stand for more than {MAX_EXPANDED_TERMS} terms with every define and procedure "
                       f"written out where it is used, passed at {what}{chain}")
            return [RuleError(item.pos, message, "each use of a define or procedure is compiled in full: "
                                                 "use the large ones in fewer places")]
    return []


def expanded_size(items) -> int:
    """The terms of all the rules with every define and procedure written out
    where it is used (counted up to ten times MAX_EXPANDED_TERMS an item)."""
    sizes = _sizes(_named(items))
    return sum(_size(_read(item, items, []), sizes) for item in _top_level(items))


def _named(items) -> dict[str, _Named]:
    named = {name: _read(define, items, define.params) for name, define in items.defines.items()}
    named.update({name: _read(proc, items, proc.params) for name, proc in items.procedures.items()})
    return named


def _size(entry: _Named, sizes: dict[str, int]) -> int:
    return min(_CAP, entry.own + sum(sizes.get(used, 1) for used in entry.uses))


def _read(item, items, params: Iterable[ast.Name]) -> _Named:
    """Count `item`'s own terms and collect the defines and procedures it uses."""
    local = {p.id for p in params}
    entry = _Named(item)
    for node in walk(_body(item)):
        entry.own += 1
        if isinstance(node, ast.Name) and node.id in items.defines and node.id not in local:
            entry.uses.append(node.id)
        elif isinstance(node, ast.Call) and node.fn in items.defines:
            entry.uses.append(node.fn)
        elif isinstance(node, ast.CallStmt) and node.procedure in items.procedures:
            entry.uses.append(node.procedure)
    return entry


def _body(item):
    if isinstance(item, ast.Define):
        return item.expr
    if isinstance(item, (ast.Procedure, ast.Chance)):
        return item.body
    return item


def _top_level(items) -> list:
    """The items compiled for themselves (defines and procedures are compiled where used)."""
    found = list(items.phases) + list(items.decisions.values()) + list(items.chances.values()) + list(items.forbids)
    return found + ([items.score] if items.score is not None else [])


def _sizes(named: dict[str, _Named]) -> dict[str, int]:
    """Each name's terms with every use written out; a use that leads back to the name
    itself counts one term (recursion is reported by the compiler)."""
    sizes: dict[str, int] = {}
    on_path: set[str] = set()
    for root in named:
        if root in sizes:
            continue
        stack: list[tuple[str, bool]] = [(root, False)]
        while stack:
            name, done = stack.pop()
            if done:
                on_path.discard(name)
                sizes[name] = _size(named[name], sizes)
                continue
            if name in sizes or name in on_path:
                continue
            on_path.add(name)
            stack.append((name, True))
            stack.extend((used, False) for used in set(named[name].uses) if used not in sizes)
    return sizes


def _chain(name: Optional[str], sizes: dict[str, int], named: dict[str, _Named]) -> str:
    """`d3 -> 2 × d2 -> 2 × d1 -> ...`: from `name` down its largest use."""
    parts = [name]
    seen = {name}
    while name is not None and len(parts) < 6:
        uses = named[name].uses
        if not uses:
            break
        biggest = max(uses, key=lambda used: sizes.get(used, 1))
        if biggest in seen:
            break
        seen.add(biggest)
        count = uses.count(biggest)
        parts.append(f"{count} × {biggest}" if count > 1 else biggest)
        name = biggest
    if name is not None and named[name].uses and len(parts) >= 6:
        parts.append("…")
    return " -> ".join(str(p) for p in parts)


def _too_large(pos: ast.Pos, name: str, sizes: dict[str, int], named: dict[str, _Named]) -> RuleError:
    size = "more than 1000000" if sizes[name] >= _CAP else str(sizes[name])
    return RuleError(pos, f"'{name}' stands for {size} terms with every define and procedure in it written out, "
                          f"more than {MAX_EXPANDED_TERMS} ({_chain(name, sizes, named)})",
                     "each use of a define or procedure is compiled in full: a define used twice in another, "
                     "which is used twice in a third, ... doubles at every level")
