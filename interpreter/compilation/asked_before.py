"""`forbid result` conjuncts asked before the case is played.

A check plays its case on the position and asks the `forbid result` lines of
what it leaves (cases.CaseWriter._check). A line `A and B and C` is false as
soon as one conjunct is; a conjunct that reads no site the case writes and no
register the case sets (or the register's value after the case, when that can
be told before it runs) gives on the position as it is what it would give
after the case. Asked there first, false in every line, it answers the check
without playing the case: the candidate is allowed.

Exact because
- the case is a drop whose board writes are told before it runs
  (result_reuse.board_writes: the sites as expressions of `to` and the player);
- the conjunct reads nothing but the board (`b[E]`), its own locals, constants
  and registers, every `E` an expression of those registers and constants: the
  sites it may read and those the case may write are worked out for every
  player and site `to` when compiling (tabulate.worked_out), and the conjunct
  is asked early only where no site is in both (a table by player and site
  where that holds for some of them only);
- it and every conjunct before it cannot fail (no call but the safe ones, no
  division: actions.cannot_fail): asked where the line would not have asked
  it, it raises nothing; a conjunct before it that the early answer skips
  would have raised nothing either;
- the conjunct is asked again after the case whenever the early answer does
  not settle the check: a true one only lets the check go on as before.
"""
from __future__ import annotations

import ast as py
from itertools import product
from typing import Callable, Optional, Sequence

from ..runtime.compiled import CasePattern
from . import pyast, result_reuse
from .actions import cannot_fail
from .restrictions import ResultPart
from .source import BUILTIN_NAMES, Source
from .tabulate import worked_out

# Whether checks ask conjuncts before playing their case (off: for the tests comparing the two).
ENABLED = True
# The registers a conjunct may read, and those a drop's early answer works out per player and site.
REGISTERS = frozenset({"to", "at", "frm", "pc", "p", "q"})
_VARYING = ("p", "to")


def asked_before(pattern: CasePattern, code: Sequence[py.stmt], condition: list[ResultPart],
                 starts: dict[str, Optional[py.expr]], src: Source, size: int, players: int) -> list[py.stmt]:
    """The statements answering a check before its case `code` (the case and its
    `after each action` rules) is played, where a conjunct of every line settles
    it (see the module's docstring); none where it cannot. `starts`: what each
    register holds before the case."""
    if not ENABLED or pattern is not CasePattern.DROP or players != 2 or not condition:
        return []
    fixed = frozenset(r for r in ("to", "frm", "pc", "p", "q") if not pyast.assigns(code, r))
    if not {"to", "p", "q"} <= fixed:
        return []
    writes = result_reuse.board_writes(code, fixed)
    if writes is None:
        return []
    envs = [{"p": p, "q": 1 - p, "to": to, "frm": -1} for p, to in product(range(players), range(size))]
    written = [_sites([site for site, _ in writes], env, src, size) for env in envs]
    registers: dict[str, tuple[str, py.expr]] = {}  # (a register the case sets: its local, its value after)
    asks: list[tuple[list[py.stmt], py.expr, Optional[py.expr]]] = []
    for _, _, _, gates in condition:
        found = None
        for lines, test in gates:  # (up to the first that may fail: see the module's docstring)
            if not cannot_fail(list(lines) + [pyast.expr_stmt(test)]):
                break
            found = _conjunct_before(lines, test, code, fixed, starts, registers, envs, written, src, size)
            if found is not None:
                break
        if found is None:
            return []
        asks.append(found)
    allowed: list[py.stmt] = [pyast.return_(pyast.false())]
    for lines, test, where in reversed(asks):  # (nested: every line false, each asked where it is told)
        inner: list[py.stmt] = list(lines) + [pyast.if_(pyast.not_(test), allowed)]
        allowed = [pyast.if_(where, inner)] if where is not None else inner
    return [pyast.assign(pyast.name(local), value) for local, value in registers.values()] + allowed


def _conjunct_before(lines: Sequence[py.stmt], test: py.expr, code: Sequence[py.stmt], fixed: frozenset[str],
                     starts: dict[str, Optional[py.expr]], registers: dict[str, tuple[str, py.expr]],
                     envs: list[dict[str, int]], written: list[Optional[set[int]]], src: Source,
                     size: int) -> Optional[tuple[list[py.stmt], py.expr, Optional[py.expr]]]:
    """The conjunct `lines` + `test` as asked before the case (its statements,
    its test, where it may be asked: None everywhere, or a table lookup), or
    None where it reads what the case may change."""
    nodes = list(lines) + [pyast.expr_stmt(test)]
    own = {n.id for n in pyast.walk_all(nodes) if isinstance(n, py.Name) and isinstance(n.ctx, py.Store)}
    if not all(result_reuse.OWN_LOCAL.fullmatch(name) for name in own):
        return None
    reads = [n for n in pyast.walk_all(nodes) if isinstance(n, py.Subscript) and pyast.is_name(n.value, "b")]
    if any(not isinstance(n.ctx, py.Load) or isinstance(n.slice, py.Slice) for n in reads) \
            or pyast.uses(nodes, "b") != len(reads):
        return None
    after: dict[str, py.expr] = {}  # (each register the case sets: its value after the case)
    for name in pyast.names_in(nodes) - own:
        if name == "b" or result_reuse.CONSTANT_NAME.fullmatch(name) or name in BUILTIN_NAMES:
            continue
        if name not in REGISTERS or name == "pc":
            return None
        if name not in fixed:
            start = starts.get(name)
            value = result_reuse.value_after(code, name, start, fixed) if start is not None else None
            if value is None:
                return None
            after[name] = value
    # the sites it may read, per player and site `to`, none of which the case may write
    indices = [pyast.replace_nodes(n.slice, _values(after), {}) for n in reads]
    if any(pyast.names_in([pyast.expr_stmt(i)]) & (own | {"b"}) for i in indices):
        return None
    told = [w is not None and (r := _sites(indices, env, src, size)) is not None and not r & w
            for env, w in zip(envs, written)]
    if not any(told):
        return None
    renamed: dict[str, py.expr] = {}
    for name, value in after.items():
        if all(_value(value, env, src) == env["to"] for env in envs):
            renamed[name] = pyast.name("to")  # (the register stands for `to` wherever it is asked)
            continue
        if name not in registers:
            registers[name] = (src.fresh("t"), value)
        renamed[name] = pyast.name(registers[name][0])
    change = _values(renamed)
    lines = pyast.replace_in(list(lines), change, {})
    test = pyast.replace_nodes(test, change, {})
    if all(told):
        return lines, test, None
    table = src.const(tuple(tuple(told[p * size + to] for to in range(size)) for p in range(2)))
    return lines, test, pyast.sub(pyast.sub(table, pyast.name("p")), pyast.name("to"))


def _values(values: dict[str, py.expr]) -> Callable[[py.AST], Optional[py.AST]]:
    """A change for `pyast.replace_nodes`: each name of `values` read becomes its value."""

    def change(node: py.AST) -> Optional[py.AST]:
        if isinstance(node, py.Name) and isinstance(node.ctx, py.Load) and node.id in values:
            return values[node.id]
        return None

    return change


def _value(expr: py.expr, env: dict[str, int], src: Source) -> Optional[int]:
    try:
        value = worked_out(src, expr, env)
    except ValueError:
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _sites(indices: Sequence[py.expr], env: dict[str, int], src: Source, size: int) -> Optional[set[int]]:
    """The board's slots `indices` give (site -1 its last, `size`), or None
    where one cannot be worked out or lies off the board."""
    sites = set()
    for index in indices:
        value = _value(index, env, src)
        if value is None or not -1 <= value <= size:
            return None
        sites.add(value % (size + 1))
    return sites
