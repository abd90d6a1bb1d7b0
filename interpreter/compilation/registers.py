"""The registers of a generated function: the locals its body reads the state by.

Every generated function starts by loading what its body uses of

    b = s.board     o = s.occ     v = s.vars     p = s.player
    q = 1 - p       (the opponent, in a game of two: `opponent` compiles to `(1 - p)`)

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

import re

from .source import Source

_WORD = re.compile(r"[A-Za-z_]\w*")
OPPONENT = "(1 - p)"
_LOADS = (("b", "b = s.board"), ("o", "o = s.occ"), ("v", "v = s.vars"), ("p", "p = s.player"))


def write_body(src: Source, body: list, board: bool = False, player_loaded: bool = False, first: tuple = ()) -> None:
    """Write the loads of the registers `body` reads, the lines `first`, then
    `body` (the board also when `board`; the player not when `player_loaded`: a
    parameter already)."""
    body = [line.replace(OPPONENT, "q") for line in list(first) + body]
    words = set(_WORD.findall("\n".join(body)))
    if "q" in words:
        words.add("p")
    for register, line in _LOADS:
        if register == "p" and player_loaded:
            continue
        if register in words or register == "b" and board:
            src.line(line)
    if "q" in words:
        src.line("q = 1 - p")
    src.paste(body)
