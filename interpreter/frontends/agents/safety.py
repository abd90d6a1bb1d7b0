"""The safety check at the root: no move that gives material away for nothing.

In a game where material means something (knowledge.py), every action of the
root is looked at with the look-ahead over material (lookahead.py): the rest of
the mover's turn, every answer of the next player, then captures. An action after
which the balance is lower than it is now — a piece left to be taken, a piece
moved off the board, a threat not parried — is *vetoed* when another action keeps
the balance: the search neither explores nor chooses it (tree.py), unless every
action left is vetoed or lost. This is what the random playouts cannot see with a
few hundred simulations: that one answer among thirty takes a piece.

The look-ahead asks only "is the balance below what it is now?" (a null window),
which an answer that takes something settles at once; it makes at most
`node_limit` positions, and actions it had no time for are not vetoed.
"""
from __future__ import annotations

from typing import Any, Optional

from ...analysis.lookahead import EPSILON, Lookahead, OutOfNodes
from ...analysis.material import Material
from .tree import Node, loses_for

REPLY_TURNS = 1  # whole turns of the others searched after the root's action


def veto_material_losses(engine: Any, material: Material, root: Node, node_limit: int,
                         deadline: Optional[float] = None) -> int:
    """Veto the root's children that lose material while another does not; the
    number of positions the look-ahead made (within `node_limit` and `deadline`)."""
    me = root.mover
    look = Lookahead(engine, material, me, node_limit=node_limit, deadline=deadline)
    now = look.balance(root.state)
    candidates = [c for c in root.children if not loses_for(c, me) and c.proven != me]
    losing = []
    kept = False
    for child in candidates:
        same = child.mover == me
        try:
            value = look.value(child.state, REPLY_TURNS + 1 if same else REPLY_TURNS, now - EPSILON, now)
        except OutOfNodes:
            kept = True  # (the rest are not known to lose: they stay)
            break
        if value < now - EPSILON:
            losing.append(child)
        else:
            kept = True
    if kept and len(losing) < len(candidates):
        for child in losing:
            child.vetoed = True
        root.untried = [c for c in root.untried if not c.vetoed]
    return look.nodes
