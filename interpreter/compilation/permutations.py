"""A fixed permutation of sites (`rotate` of a fixed block, `cycle` of fixed
sites) written out as statements rather than a call of `h_permute`.

`helpers`' `h_permute` (runtime/moves.permute) reads the moved sites into two
lists and walks them, which for a quarter turn of a 3x3 block costs three times
the statements it stands for. Where the sites are known when compiling, each
moved site is read once into a local and written where it goes, the owners'
site lists kept exactly as `permute` keeps them (in the same order of sites: a
site whose owner changes leaves the old owner's list and joins the new owner's
at its end; a site keeping its owner keeps its place). The writes are plain
`b[X] = V` and `o[E].remove/append(X)`: the journal of `forbid result` checks
tried in place (journal.py) and the board's key (board_keys.py) cover them like
any other write at one site.
"""
from __future__ import annotations

import ast as py
from typing import Callable

from ..runtime.pieces import OWNER
from . import pyast

# Up to this many moved sites a permutation is written out (about six statements
# a site); a larger one calls `h_permute`.
MAX_WRITTEN_OUT = 24


def written_out(sources: tuple[int, ...], dests: tuple[int, ...], fresh: Callable[[str], str]) -> list[py.stmt]:
    """The statements moving what stands on sources[i] to dests[i], at once (the
    dests are the sources in another order); `fresh` makes the locals' names."""
    held = {site: pyast.name(fresh("l")) for site in sources}
    board, occ = pyast.name("b"), pyast.name("o")
    out: list[py.stmt] = [pyast.assign(held[site], pyast.sub(board, pyast.num(site))) for site in sources]
    for source, dest in zip(sources, dests):
        new, old = held[source], held[dest]
        at = pyast.num(dest)

        def sites_of(piece: py.Name) -> py.expr:
            return pyast.sub(occ, pyast.sub(piece, OWNER))

        out.append(pyast.if_(pyast.compare(new, "is not", old), [
            pyast.assign(pyast.sub(board, at), new),
            pyast.if_(pyast.is_none(new), [pyast.expr_stmt(pyast.method(sites_of(old), "remove", at))], [
                pyast.if_(pyast.is_none(old), [pyast.expr_stmt(pyast.method(sites_of(new), "append", at))], [
                    pyast.if_(pyast.compare(pyast.sub(new, OWNER), "!=", pyast.sub(old, OWNER)), [
                        pyast.expr_stmt(pyast.method(sites_of(old), "remove", at)),
                        pyast.expr_stmt(pyast.method(sites_of(new), "append", at)),
                    ])
                ])
            ]),
        ]))
    return out
