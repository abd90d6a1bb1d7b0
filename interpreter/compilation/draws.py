"""Drawing one action without listing them all: what random playouts play.

A playout lists every legal action to play one of them. Where a decision's lister
is a sequence of independent candidates — loops over a fixed collection (a drop
on a region, a placement on any empty point) that give at most one action per
element, and actions offered once (a pass) — a uniform pick needs no list: draw
one candidate of that fixed superset, work out whether (and which) action it
gives, and drop it and draw again when it gives none. Every listed action is as
likely as before (drawing without replacement until a hit is uniform over the
hits), for the work of a few candidates where most of them are legal.

This pass reads the lister the DecisionWriter has just written — its syntax
tree, whatever the definition — and writes, per block of candidates, a function
`(s, element) -> code or None`: the lister's registers and set-up, then the
block's body with `out.append(code)` turned into `return code`. It declines
(returns None) when the lister is anything else: actions compared for their
notation, `prefer` tiers, `forbid result` filtering, loops over the position's
pieces, an element giving several actions. The engine uses the functions in
`random_playout` (compiled.DecisionInfo.draws)."""
from __future__ import annotations

import ast as py
import copy
from typing import Any, Callable, NamedTuple, Optional, Sequence

from . import pyast
from .source import Origin, Source


class Drawn(NamedTuple):
    """One block of candidates: its function and the constant holding the
    collection its elements come from (None: a block offered once, drawn with
    element -1)."""

    function: str
    elements: Optional[str]


class _Decline(Exception):
    """The lister is not a sequence of independent candidates."""


def write_draws(src: Source, lister: Sequence[py.stmt], origin: Origin) -> Optional[list[Drawn]]:
    """The draw functions of a lister's body (its statements, registers first), or
    None when it is not made of independent candidates."""
    try:
        blocks = _blocks(src, lister)
    except _Decline:
        return None
    if not blocks:
        return None
    drawn = []
    for setup, target, elements, body in blocks:
        name = src.fresh("f")
        src.function(name, ["s", target], _pruned(setup, body) + body + [pyast.return_(pyast.none())], origin)
        drawn.append(Drawn(name, elements))
    return drawn


def draw_table(drawn: Optional[list[Drawn]],
               namespace: dict[str, Any]) -> Optional[tuple[tuple[Callable[..., Any], Any], ...]]:
    """The (draw, element) pair of every candidate of the compiled module, in the
    lister's order (compiled.DecisionInfo.draws)."""
    if drawn is None:
        return None
    return tuple((namespace[d.function], element) for d in drawn
                 for element in (namespace[d.elements] if d.elements is not None else (-1,)))


def _blocks(src: Source, lister: Sequence[py.stmt]) -> list[tuple[list[py.stmt], str, Optional[str], list[py.stmt]]]:
    """(set-up, element parameter, collection constant or None, body) per block."""
    start = next((i for i, stmt in enumerate(lister) if _is_out_made(stmt)), None)
    if start is None or not lister or not _returns_out(lister[-1]):
        raise _Decline
    setup = list(lister[:start])
    if pyast.uses(setup, "out"):
        raise _Decline
    blocks = []
    assigned_in_blocks: set[str] = set()
    chosen = list(lister[start + 1:-1])
    if chosen and _only_if_none(chosen[-1]):
        # The actions offered only when no other is legal: a draw that finds no
        # action leaves the position to the whole lister, which lists them.
        chosen.pop()
    for stmt in chosen:
        uses = pyast.uses([stmt], "out")
        if not uses:
            # set-up between blocks (an action's guard, its prelude): it must not
            # read what a block left behind
            if pyast.names_in([stmt]) & assigned_in_blocks:
                raise _Decline
            setup.append(stmt)
            continue
        if isinstance(stmt, py.For) and isinstance(stmt.target, py.Name) and isinstance(stmt.iter, py.Name) \
                and src.is_const_name(stmt.iter.id) and not stmt.orelse:
            body = _returning(stmt.body)
            target, elements = stmt.target.id, stmt.iter.id
        else:
            body = _returning([stmt])
            target, elements = "site", None
            if pyast.uses(body, "site") or pyast.uses(setup, "site"):
                raise _Decline  # (the parameter would hide a local of that name)
        block_setup = _without_target(setup, target)
        _check_carried(block_setup, body, target)
        blocks.append((block_setup, target, elements, body))
        assigned_in_blocks |= _assigned(body) | {target}
    return blocks


def _is_out_made(stmt: py.stmt) -> bool:
    return isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], "out") \
        and isinstance(stmt.value, py.List) and not stmt.value.elts


def _returns_out(stmt: py.stmt) -> bool:
    return isinstance(stmt, py.Return) and pyast.is_name(stmt.value, "out")


def _only_if_none(stmt: py.stmt) -> bool:
    """Whether `stmt` is `if not out: ...`."""
    return isinstance(stmt, py.If) and isinstance(stmt.test, py.UnaryOp) and isinstance(stmt.test.op, py.Not) \
        and pyast.is_name(stmt.test.operand, "out") and not stmt.orelse


def _appended(stmt: py.stmt) -> Optional[py.expr]:
    """X of the statement `out.append(X)`, else None."""
    if isinstance(stmt, py.Expr) and isinstance(stmt.value, py.Call):
        call = stmt.value
        func = call.func
        if isinstance(func, py.Attribute) and func.attr == "append" and pyast.is_name(func.value, "out") \
                and len(call.args) == 1 and not call.keywords:
            return call.args[0]
    return None


def _returning(body: list[py.stmt]) -> list[py.stmt]:
    """`body` (one element's work) returning the action it appends and None where
    it goes on to the next element; declines unless it appends at most once per
    element (outside any inner loop, or in one inner loop it then leaves) and
    never stops the loop over the elements."""
    if pyast.uses(body, "out") != 1:
        raise _Decline
    return _rewritten(_copied(body), loops=0)


def _rewritten(block: list[py.stmt], loops: int) -> list[py.stmt]:
    """`block`, `loops` inner loops deep, rewritten (see _returning)."""
    rewritten: list[py.stmt] = []
    for n, stmt in enumerate(block):
        code = _appended(stmt)
        if code is not None:
            # (in an inner loop, only when the loop is left at once: else it
            # could append again)
            if loops > 1 or loops == 1 and not (n + 1 < len(block) and isinstance(block[n + 1], py.Break)):
                raise _Decline
            rewritten.append(pyast.return_(code))
            break  # (what follows never runs)
        if loops == 0:
            if isinstance(stmt, py.Continue):
                rewritten.append(pyast.return_(pyast.none()))
                break
            if isinstance(stmt, py.Break):
                raise _Decline
        if isinstance(stmt, (py.Try, py.With, py.Match)):
            raise _Decline  # (never written by the compiler; not looked into)
        for field in ("body", "orelse"):
            nested = getattr(stmt, field, None)
            if isinstance(nested, list) and nested and isinstance(nested[0], py.stmt):
                # (a loop's `else` is not inside it)
                inner = loops + (field == "body" and isinstance(stmt, (py.For, py.While)))
                setattr(stmt, field, _rewritten(nested, inner))
        rewritten.append(stmt)
    return rewritten


def _assigned(stmts: Sequence[py.stmt]) -> set[str]:
    """The names `stmts` store to."""
    return {node.id for node in pyast.walk_all(stmts)
            if isinstance(node, py.Name) and isinstance(node.ctx, py.Store)}


def _check_carried(setup: list[py.stmt], body: list[py.stmt], target: str) -> None:
    """Declines when the lister carries a value from one element to the next other
    than a cache (a name the set-up starts at a constant and the body may fill in,
    worth the same for every element): a draw starts each element afresh."""
    assigned = _assigned(body)
    for stmt in setup:
        if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name):
            if stmt.targets[0].id in assigned and not _is_literal(stmt.value):
                raise _Decline
        elif _assigned([stmt]) & assigned:
            raise _Decline
    for node in pyast.walk_all(body):
        if isinstance(node, py.AugAssign) and isinstance(node.target, py.Name) \
                and node.target.id in _assigned(setup):
            raise _Decline


def _is_literal(value: py.expr) -> bool:
    """A constant, -1 included."""
    if isinstance(value, py.UnaryOp) and isinstance(value.op, py.USub):
        value = value.operand
    return isinstance(value, py.Constant)


def _without_target(setup: list[py.stmt], target: str) -> list[py.stmt]:
    """The set-up of a block without its plain assignments to the element's name
    (the loop gives it its value before the body runs); declines when another
    statement of it names it."""
    kept = [stmt for stmt in setup if not (isinstance(stmt, py.Assign) and len(stmt.targets) == 1
                                          and pyast.is_name(stmt.targets[0], target))]
    if target in pyast.names_in(kept):
        raise _Decline
    return kept


def _pruned(setup: list[py.stmt], body: list[py.stmt]) -> list[py.stmt]:
    """`setup` without the plain assignments nothing after them reads."""
    read = pyast.names_in(body)
    kept: list[py.stmt] = []
    for stmt in reversed(setup):
        if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name) \
                and stmt.targets[0].id not in read:
            continue
        kept.append(stmt)
        read |= pyast.names_in([stmt])
    kept.reverse()
    return _copied(kept)


def _copied(stmts: Sequence[py.stmt]) -> list[py.stmt]:
    """A deep copy of `stmts` to change, without the name counts pyast keeps on
    statements (they would no longer be true)."""
    copied = copy.deepcopy(list(stmts))
    for node in pyast.walk_all(copied):
        node.__dict__.pop("_name_counts", None)
    return copied
