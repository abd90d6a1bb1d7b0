"""Every piece taken off the board in one call: a pass over the generated
functions, after the upkeep of the board's key, empty sites and groups.

`for each s in pieces: remove s` is written

    for l7 in tuple(h_all_pieces(o)):
        h_clear(b, o, l7)

— a call a piece, each looking for its site in its owner's list to take it out.
Where nothing else reads `l7`, the loop becomes `h_clear_all(b, o)`: every site of
every list emptied, each list cleared at once (helpers.clear_all): the same board
and the same empty lists. A function that keeps the board's key, the empty sites or
the groups writes more statements a piece (board_keys.py), and a `forbid result`
check the journaled form (journal.py): neither is this loop, so neither changes.
"""
from __future__ import annotations

import ast as py
from typing import Optional

from . import pyast

_EVERY_PIECE = pyast.helper("tuple", pyast.helper("h_all_pieces", pyast.name("o")))


def pieces_cleared_at_once(function: py.FunctionDef) -> py.FunctionDef:
    """`function` with each loop clearing the site of every piece one at a time
    written as one call (module docstring)."""
    # (a function clearing no site one at a time is not walked: most clear none)
    if not pyast.names_any(function, ("h_clear",)):
        return function
    loops = [node for node in pyast.walk(function) if _clears_every_piece(node)]
    counts = pyast.name_counts(function)
    kept = [loop for loop in loops if counts.get(loop.target.id, 0) == 2]  # type: ignore[attr-defined]
    if not kept:
        return function
    cleared = {id(loop) for loop in kept}

    def change(node: py.AST) -> Optional[py.AST]:
        if id(node) in cleared:
            return pyast.expr_stmt(pyast.helper("h_clear_all", pyast.name("b"), pyast.name("o")))
        return None

    return pyast.replace_nodes(function, change)


def _clears_every_piece(node: py.AST) -> bool:
    if not (isinstance(node, py.For) and isinstance(node.target, py.Name) and not node.orelse
            and pyast.same(node.iter, _EVERY_PIECE) and len(node.body) == 1):
        return False
    clear = node.body[0]
    return isinstance(clear, py.Expr) and pyast.same(
        clear.value, pyast.helper("h_clear", pyast.name("b"), pyast.name("o"), pyast.name(node.target.id)))
