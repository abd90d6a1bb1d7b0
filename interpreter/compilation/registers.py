"""The registers of a generated function: the locals its body reads the state by.

Every generated function starts by loading what its body uses of

    b = s.board     o = s.occ     v = s.vars     p = s.player
    q = 1 - p       (the opponent, in a game of two: `opponent` compiles to `1 - p`)

so that the body reads locals, Python's fastest names, and loads nothing it does
not read. The other registers hold what the rules call an action's context
(scope.DEFAULT_REGISTERS maps the rules' names to them):

    frm   the site the action starts from (-1: none, as for a drop)
    at    where the acting piece stands now (-1 once it has left the board)
    pc    the acting piece (a tuple, runtime/pieces.py)
    to    the landing site;  tg  what stood there when the action was listed
    js    the jumped site;   jp  the piece jumped
    ov    a chance event's outcome value;  fu  the follow-up decision asked for
    out   the list of action codes a decision's function returns

Short names on purpose: they are read millions of times per second, and only by
generated code, whose every name source.py checks.
"""
from __future__ import annotations

import ast
from typing import Optional, Sequence

from . import pyast

# `opponent` in a game of two, as expressions write it; a function's body reads it
# from the register `q` instead.
OPPONENT = pyast.binop(pyast.num(1), "-", pyast.name("p"))
_LOADS = (("b", "board"), ("o", "occ"), ("v", "vars"), ("p", "player"))


def opponent(player: str) -> ast.expr:
    """The other player of a game of two, `player` being one."""
    return pyast.binop(pyast.num(1), "-", pyast.name(player))


def with_registers(body: Sequence[ast.stmt], board: bool = False, player_loaded: bool = False,
                   first: Sequence[ast.stmt] = ()) -> list[ast.stmt]:
    """The loads of the registers `first` and `body` read, then `first`, then
    `body` (the board also when `board`; the player not when `player_loaded`: a
    parameter already); `1 - p` is read from `q`."""
    stmts = pyast.replace_in(list(first) + list(body), _opponent_read_from_q)
    read = pyast.names_in(stmts)
    if "q" in read:
        read.add("p")
    loads: list[ast.stmt] = []
    for register, attribute in _LOADS:
        if register == "p" and player_loaded:
            continue
        if register in read or register == "b" and board:
            loads.append(pyast.assign(pyast.name(register), pyast.attr(pyast.name("s"), attribute)))
    if "q" in read:
        loads.append(pyast.assign(pyast.name("q"), opponent("p")))
    return loads + stmts


def _opponent_read_from_q(node: ast.AST) -> Optional[ast.AST]:
    """A change for pyast.replace_nodes: `1 - p` becomes `q` (a statement that
    does not name `p` stays as it is)."""
    if isinstance(node, ast.stmt) and "p" not in pyast.name_counts(node):
        return node
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and pyast.is_name(node.right, "p") \
            and isinstance(node.left, ast.Constant) and node.left.value == 1 and type(node.left.value) is int:
        return pyast.name("q")
    return None
