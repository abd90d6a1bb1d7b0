"""The functions of a chance event drawing from a set (`outcomes one of SET`,
docs/format.md 3.9): its outcomes are the sites of SET as the position stands,
each as likely, so that the runtime asks the position for them as it asks a
decision for its actions.

Three functions are written per event: the lister (the codes of the members, in
board order; an empty set is an error of the rules when the event comes), the
picker random playouts draw one outcome with (no list made), and the counter
perft's last ply counts them with. Where SET is a filter over pieces (`pieces
where it is deck`: the compiled loop appends the pieces passing the test), the
picker first tries a few pieces drawn at random among all of them and keeps the
first that passes — rejection sampling, each member as likely as with the list
— and builds the list only when none did: a deal from a deck kept as pieces of
nobody then asks the test of a few pieces per card, not of every piece. (A fault
of the test on a piece the draw never tries — a division by zero — is then not
met, as with the walk to the i-th item that stops where it finds it.)
"""
from __future__ import annotations

import ast as py
import copy
from typing import Optional

from ..parsing import ast as rules
from . import pyast
from .code import all_pieces, describe
from .errors import RuleError
from .expressions import ExpressionCompiler
from .registers import with_registers
from .scope import Scope
from .source import Origin, Source
from .types import Type

# Pieces drawn at random before the picker lists the set: with m members among n
# pieces it lists with a chance of (1 - m/n) ** TRIES.
TRIES = 8


def write_member_functions(src: Source, exprs: ExpressionCompiler, scope: Scope, name: str, member_of: rules.Expr,
                           member_pos: rules.Pos, codes: tuple[tuple[int, ...], ...]) -> tuple[str, str, str]:
    """(lister, picker, counter): the names of the event's functions, written into
    `src`; `codes[site]` is the outcome's code of a site. RuleError where SET is no
    set of sites."""
    where = f"the outcomes of chance '{name}'"
    origin = Origin(where, member_pos)
    with src.origin(origin):
        lines, c = exprs.lowered(member_of, scope)
        c = exprs.as_sites(c)
        if c.type is not Type.SITES:
            raise RuleError(member_pos, f"'outcomes one of' needs a set of sites, found {describe(c)}",
                            "e.g. 'outcomes one of sites - pieces' (the empty sites) or 'outcomes one of pieces of "
                            "player'")
        codes_name = src.const(codes)
        message = src.const(f"chance '{name}' has no outcome here: the set it draws from is empty")
        listed, site = pyast.name(src.fresh("l")), pyast.name(src.fresh("l"))
        # (a set of sites holds each site once: nth and the loops read it so)
        lister = src.function(src.fresh("f"), ["s"], with_registers(list(lines) + [
            pyast.assign(listed, pyast.listcomp(pyast.sub(codes_name, site), site, pyast.helper("sorted", c.code))),
            pyast.if_(pyast.not_(listed), [pyast.expr_stmt(pyast.helper("h_fail", src.const(member_pos), message))]),
            pyast.return_(listed),
        ]), origin)

        lines, c = exprs.lowered(member_of, scope)  # (each function its own statements)
        c = exprs.as_sites(c)
        drawn, rand = pyast.name(src.fresh("l")), pyast.name(src.fresh("l"))
        # (every piece: one drawn among the owners' lists, as from their list made)
        draw = pyast.helper("h_random_piece", pyast.name("o"), rand) if pyast.same(c.code, all_pieces()) \
            else pyast.helper("h_drawn_member", c.code, rand)
        body = list(lines) + [
            pyast.assign(drawn, draw),
            pyast.return_(pyast.ifexp(pyast.none(), pyast.compare(drawn, "<", pyast.num(0)),
                                      pyast.sub(codes_name, drawn))),
        ]
        tried = _tried_first(src, lines, c.code, codes_name, rand) or _tried_empty(src, c.code, codes_name, rand)
        picker = src.function(src.fresh("f"), ["s", rand.id], with_registers(tried + body),
                              Origin(where + ", one drawn for random playouts", member_pos))

        lines, c = exprs.lowered(member_of, scope)
        c = exprs.as_sites(c)
        counter = src.function(src.fresh("f"), ["s"], with_registers(
            list(lines) + [pyast.return_(pyast.helper("len", c.code))]),
            Origin(where + ", counted (perft's last ply)", member_pos))
    return lister, picker, counter


def _tried_first(src: Source, lines: list[py.stmt], members: py.expr, codes: py.Name,
                 rand: py.Name) -> list[py.stmt]:
    """Statements drawing up to TRIES pieces among all of them and returning the
    code of the first that passes the set's test, where the set is built as

        t = []
        for i in POOL:            (every piece's site, or one player's pieces)
            if TEST:              (nested tests, no else)
                t.append(i)

    and the set is `t`; else no statements."""
    if len(lines) != 2 or not isinstance(members, py.Name):
        return []
    start, loop = lines
    if not (isinstance(start, py.Assign) and len(start.targets) == 1 and pyast.is_name(start.targets[0], members.id)
            and isinstance(start.value, py.List) and not start.value.elts):
        return []
    if not (isinstance(loop, py.For) and isinstance(loop.target, py.Name) and not loop.orelse):
        return []
    pool = _pool(loop.iter)
    if pool is None:
        return []
    element = loop.target.id
    test = _test_returning(loop.body, members.id, element, pyast.return_(pyast.sub(codes, pyast.name(element))))
    if test is None:
        return []
    tries = pyast.name(src.fresh("l"))
    if pool is ALL_PIECES:  # (one piece drawn among every owner's lists, no list of them made)
        return [pyast.for_(tries, pyast.helper("range", pyast.num(TRIES)), [
            pyast.assign(pyast.name(element), pyast.helper("h_random_piece", pyast.name("o"), rand)),
            pyast.if_(pyast.compare(pyast.name(element), "<", pyast.num(0)), [py.Break()]),
            *test])]
    pool_name = pyast.name(src.fresh("l"))
    drawn = pyast.sub(pool_name, pyast.helper("int", pyast.binop(pyast.call(rand), "*",
                                                                 pyast.helper("len", pool_name))))
    return [
        pyast.assign(pool_name, pool),
        pyast.if_(pool_name, [pyast.for_(tries, pyast.helper("range", pyast.num(TRIES)), [
            pyast.assign(pyast.name(element), drawn), *test])]),
    ]


def _tried_empty(src: Source, members: py.expr, codes: py.Name, rand: py.Name) -> list[py.stmt]:
    """Where the set is the empty sites of a fixed set (`sites - pieces`, `region -
    pieces`: `h_minus(SITES, h_all_pieces(o))`), statements drawing up to TRIES
    of its sites at random and returning the code of the first empty one (each
    empty site as likely as with the list, which is made only when none was);
    else no statements."""
    if not (isinstance(members, py.Call) and pyast.is_name(members.func, "h_minus") and len(members.args) == 2
            and pyast.same(members.args[1], all_pieces())):
        return []
    fixed = members.args[0]
    sites = src.value(fixed)
    if not isinstance(sites, tuple) or not sites or not all(type(site) is int and site >= 0 for site in sites):
        return []
    site, tries = pyast.name(src.fresh("l")), pyast.name(src.fresh("l"))
    index = pyast.helper("int", pyast.binop(pyast.call(rand), "*", pyast.num(len(sites))))
    # (the board's sites in their order, the deck of a card game: the index drawn is the site)
    drawn = index if sites == tuple(range(len(sites))) else pyast.sub(copy.deepcopy(fixed), index)
    return [pyast.for_(tries, pyast.helper("range", pyast.num(TRIES)), [
        pyast.assign(site, drawn),
        pyast.if_(pyast.is_none(pyast.sub(pyast.name("b"), site)), [pyast.return_(pyast.sub(codes, site))])])]


# `_pool`'s answer for a loop over every piece
ALL_PIECES = py.Constant(value=None)


def _pool(iterable: py.expr) -> Optional[py.expr]:
    """What `iterable` goes over, each site once: ALL_PIECES (every piece's), or
    one player's pieces (a site list the position keeps); else None."""
    if pyast.same(iterable, pyast.helper("h_each_piece", pyast.name("o"))):
        return ALL_PIECES
    if isinstance(iterable, py.Subscript) and pyast.is_name(iterable.value, "o"):
        return iterable
    return None


def _test_returning(body: list[py.stmt], members: str, element: str, found: py.stmt) -> Optional[list[py.stmt]]:
    """`body` (nested `if`s without `else` around `members.append(element)` alone)
    with the append replaced by `found`; None where the body is otherwise."""
    if len(body) != 1:
        return None
    stmt = body[0]
    if isinstance(stmt, py.If) and not stmt.orelse:
        inner = _test_returning(stmt.body, members, element, found)
        if inner is None or _writes(stmt.test):
            return None
        return [py.If(test=copy.deepcopy(stmt.test), body=inner, orelse=[])]
    if isinstance(stmt, py.Expr) and isinstance(stmt.value, py.Call) and isinstance(stmt.value.func, py.Attribute) \
            and stmt.value.func.attr == "append" and pyast.is_name(stmt.value.func.value, members) \
            and len(stmt.value.args) == 1 and pyast.is_name(stmt.value.args[0], element):
        return [found]
    return None


def _writes(test: py.expr) -> bool:
    """Whether a test assigns a name (`:=`): asked of a few pieces only, what it
    leaves behind would differ from the loop's."""
    return any(isinstance(node, py.NamedExpr) for node in py.walk(test))
