"""Attributes of one piece set one after the other, written as one new piece: a
pass over the generated functions.

Each `X.ATTR = value` of the rules reads the piece on X, builds a new tuple with
the value in the attribute's slot and writes it back (statements.py):

    x0 = b[l3]
    if x0 is not None:
        x1 = <value>
        x0 = (x0[0], x0[1], x0[2], x1, x0[4])
        b[l3] = x0

so a dealt card given its rank, suit and count reads, tests, builds and writes
its piece three times. Where such writes of one site follow each other and the
values after the first read neither the board, nor the state, nor the scratch
`x0`/`x1` (nothing they compute can see the earlier writes), the values are
worked out in order into temporaries and one piece is built and written: the
same piece, the same checks against the limit of numbers in the same order. The
site read again after a write holds what was written (or still nothing), so the
reads but the first are not needed either. Only the plain shape above is joined
(its value stored in `x1`, checked or not, or written straight into the tuple);
trees are not changed in place: the joined blocks are new nodes.

A `promote` is a write of the kind's slot (`x0 = b[l3] = (x0[0], K) + x0[2:]`:
slicing and joining make three tuples), joined with the writes that follow it
(a card played and numbered). Between two writes may stand statements that
cannot fail and see nothing of the piece (no call; neither the board, the state,
the site lists nor the scratch; nothing the earlier values read or the site):
they run first, the joined write after them, so the later values still see what
they set (`ncount += 1` before `s.seq = ncount`).
"""
from __future__ import annotations

import ast as py
from typing import Callable, Optional

from . import pyast

BOARD, STATE, PIECE, VALUE = "b", "s", "x0", "x1"
# (what a value after the first may not name: what the writes before it change or use)
_UNSEEN = frozenset((BOARD, STATE, PIECE, VALUE))
# (what a statement between two writes may not name: the site lists too)
_UNSEEN_BETWEEN = _UNSEEN | {"o"}
KIND_SLOT = 1


class _Write:
    """One block `x0 = b[SITE]; if x0 is not None: ...` that sets one slot."""

    def __init__(self, site: py.expr, slot: int, length: Optional[int], value: py.expr, setup: list[py.stmt]):
        self.site = site  # (a name or a number)
        self.slot = slot
        self.length = length  # (the piece's length; None for a promotion, which does not say it)
        self.value = value  # (what the slot gets: x1 where `setup` assigns it)
        self.setup = setup  # (`x1 = value` and its check, or nothing)


def _site_of(stmt: py.stmt) -> Optional[py.expr]:
    """SITE of `x0 = b[SITE]` (a name or a number), else None."""
    if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], PIECE) \
            and isinstance(stmt.value, py.Subscript) and pyast.is_name(stmt.value.value, BOARD):
        site = stmt.value.slice
        if isinstance(site, py.Name) or isinstance(site, py.Constant) and type(site.value) is int:
            return site
    return None


def _same_site(a: py.expr, b: py.expr) -> bool:
    if isinstance(a, py.Name) and isinstance(b, py.Name):
        return a.id == b.id
    return isinstance(a, py.Constant) and isinstance(b, py.Constant) and a.value == b.value


def _slot_of(piece: py.expr) -> Optional[tuple[int, int, py.expr]]:
    """(the slot, the length, its value) of a tuple `(x0[0], ..., value, ..., x0[n])`
    that copies every slot of x0 but one."""
    if not isinstance(piece, py.Tuple):
        return None
    found = None
    for j, element in enumerate(piece.elts):
        if isinstance(element, py.Subscript) and pyast.is_name(element.value, PIECE) \
                and isinstance(element.slice, py.Constant) and element.slice.value == j:
            continue
        if found is not None:
            return None
        found = j
    return None if found is None else (found, len(piece.elts), piece.elts[found])


def _promoted_to(piece: py.expr) -> Optional[py.expr]:
    """K of `(x0[0], K) + x0[2:]` (statements.py `_promote_to`), else None."""
    if not (isinstance(piece, py.BinOp) and isinstance(piece.op, py.Add) and isinstance(piece.left, py.Tuple)
            and len(piece.left.elts) == 2 and isinstance(piece.right, py.Subscript)):
        return None
    owner, rest = piece.left.elts[0], piece.right
    if not (isinstance(owner, py.Subscript) and pyast.is_name(owner.value, PIECE)
            and isinstance(owner.slice, py.Constant) and owner.slice.value == 0):
        return None
    cut = rest.slice
    if not (pyast.is_name(rest.value, PIECE) and isinstance(cut, py.Slice) and cut.upper is None and cut.step is None
            and isinstance(cut.lower, py.Constant) and cut.lower.value == KIND_SLOT + 1):
        return None
    return piece.left.elts[1]


def _promotion(last: py.stmt, site: py.expr) -> Optional[_Write]:
    """The write of the kind that `x0 = b[SITE] = (x0[0], K) + x0[2:]` makes, else None."""
    if not (isinstance(last, py.Assign) and len(last.targets) == 2 and pyast.is_name(last.targets[0], PIECE)):
        return None
    board = last.targets[1]
    if not (isinstance(board, py.Subscript) and pyast.is_name(board.value, BOARD) and _same_site(board.slice, site)):
        return None
    kind = _promoted_to(last.value)
    return None if kind is None else _Write(site, KIND_SLOT, None, kind, [])


def _may_go_first(stmt: py.stmt, run: list[_Write]) -> bool:
    """Whether `stmt`, standing after the writes of `run`, may run before them: it
    calls nothing (so cannot fail), leaves the flow alone and names neither the
    piece's places nor anything the writes' values and site name."""
    names = _names(stmt)
    if names & _UNSEEN_BETWEEN:
        return False
    for write in run:
        if names & (_names(write.value) | _names(write.site)) or any(names & _names(s) for s in write.setup):
            return False
    return not any(isinstance(n, (py.Call, py.Return, py.Break, py.Continue, py.Raise, py.While, py.Yield,
                                  py.YieldFrom, py.Await, py.Lambda, py.FunctionDef, py.Global, py.Nonlocal))
                   for n in pyast.walk(stmt))


def _is_check(stmt: py.stmt) -> bool:
    """`if not -L <= x1 <= L: h_bounded(x1, k)` (statements.py `_check_number`)."""
    return isinstance(stmt, py.If) and not stmt.orelse and len(stmt.body) == 1 \
        and isinstance(stmt.body[0], py.Expr) and isinstance(stmt.body[0].value, py.Call) \
        and pyast.is_name(stmt.body[0].value.func, "h_bounded") \
        and not _names(stmt.test) - {VALUE}


def _names(node: py.AST) -> set[str]:
    return {n.id for n in pyast.walk(node) if isinstance(n, py.Name)}


def _write_of(read: py.stmt, block: py.stmt) -> Optional[_Write]:
    """The write of a slot that `read` (`x0 = b[SITE]`) and `block` (its `if`) make, else None."""
    site = _site_of(read)
    if site is None or not isinstance(block, py.If) or block.orelse:
        return None
    test = block.test
    if not (isinstance(test, py.Compare) and pyast.is_name(test.left, PIECE) and len(test.ops) == 1
            and isinstance(test.ops[0], py.IsNot) and isinstance(test.comparators[0], py.Constant)
            and test.comparators[0].value is None):
        return None
    body = block.body
    last = body[-1]
    if len(body) == 1 and isinstance(last, py.Assign) and len(last.targets) == 2:
        return _promotion(last, site)
    if not (isinstance(last, py.Assign) and len(last.targets) == 1 and isinstance(last.targets[0], py.Subscript)
            and pyast.is_name(last.targets[0].value, BOARD) and _same_site(last.targets[0].slice, site)):
        return None
    if len(body) == 1:  # (`b[SITE] = (x0[0], ..., value, ...)`)
        shaped = _slot_of(last.value)
        return None if shaped is None else _Write(site, shaped[0], shaped[1], shaped[2], [])
    # (`x1 = value`, maybe its check, `x0 = (..., x1, ...)`, `b[SITE] = x0`)
    if not pyast.is_name(last.value, PIECE) or len(body) not in (3, 4):
        return None
    first, built = body[0], body[-2]
    if not (isinstance(first, py.Assign) and len(first.targets) == 1 and pyast.is_name(first.targets[0], VALUE)
            and isinstance(built, py.Assign) and len(built.targets) == 1 and pyast.is_name(built.targets[0], PIECE)):
        return None
    if len(body) == 4 and not _is_check(body[1]):
        return None
    shaped = _slot_of(built.value)
    if shaped is None or not pyast.is_name(shaped[2], VALUE):
        return None
    return _Write(site, shaped[0], shaped[1], first.value, body[:-2])


def _joined(writes: list[_Write], fresh: Callable[[str], str]) -> list[py.stmt]:
    """One read, one test, the values in order, one piece built and written."""
    site, length = writes[0].site, _length(writes)
    assert length is not None
    slots: dict[int, py.expr] = {}
    body: list[py.stmt] = []
    for write in writes:
        # (each value into a temporary, in the order written: worked out and checked
        # as before; a number needs none)
        if not write.setup and isinstance(write.value, py.Constant):
            slots[write.slot] = write.value
            continue
        name = fresh("t")
        if write.setup:
            body.extend(pyast.replace_in(write.setup, lambda n, name=name: py.Name(id=name, ctx=n.ctx)  # type: ignore[misc]
                                         if isinstance(n, py.Name) and n.id == VALUE else None))
        else:
            body.append(pyast.assign(pyast.name(name), write.value))
        slots[write.slot] = pyast.name(name)
    piece = pyast.tuple_(*(slots[j] if j in slots else pyast.sub(pyast.name(PIECE), j) for j in range(length)))
    body.append(pyast.assign(pyast.name(PIECE), piece))
    body.append(pyast.assign(pyast.sub(pyast.name(BOARD), site), pyast.name(PIECE)))
    return [pyast.assign(pyast.name(PIECE), pyast.sub(pyast.name(BOARD), site)),
            pyast.if_(pyast.is_not_none(pyast.name(PIECE)), body)]


def _length(writes: list[_Write]) -> Optional[int]:
    """The length of the piece the writes build (told by any but a promotion), or
    None where they tell two or none."""
    lengths = {w.length for w in writes if w.length is not None}
    return next(iter(lengths)) if len(lengths) == 1 else None


def _block(stmts: list[py.stmt], fresh: Callable[[str], str]) -> list[py.stmt]:
    out: list[py.stmt] = []
    i = 0
    while i < len(stmts):
        write = _write_of(stmts[i], stmts[i + 1]) if i + 1 < len(stmts) else None
        if write is None:
            out.append(_nested(stmts[i], fresh))
            i += 1
            continue
        run, between = [write], []
        j = i + 2
        while True:
            k = j  # (past the statements that may run before the joined write)
            while k < len(stmts) and _may_go_first(stmts[k], run):
                k += 1
            more = _write_of(stmts[k], stmts[k + 1]) if k + 1 < len(stmts) else None
            if more is None or not _same_site(more.site, write.site) or _length(run + [more]) is None \
                    and more.length is not None \
                    or _names(more.value) & _UNSEEN or any(_names(s) & (_UNSEEN - {VALUE}) for s in more.setup):
                break
            between.extend(stmts[j:k])
            run.append(more)
            j = k + 2
        if len(run) == 1 or _length(run) is None or isinstance(write.site, py.Name) and any(
                write.site.id in pyast.stored_names(s) for w in run for s in w.setup):
            out.extend(stmts[i:i + 2])
            i += 2
            continue
        out.extend(between)
        out.extend(_joined(run, fresh))
        i = j
    return out


def _nested(stmt: py.stmt, fresh: Callable[[str], str]) -> py.stmt:
    """`stmt` with its blocks joined (a new node where one changed)."""
    return pyast.with_blocks(stmt, lambda block: _block(block, fresh))


def piece_writes_joined(function: py.FunctionDef, fresh: Callable[[str], str]) -> py.FunctionDef:
    """`function` with consecutive writes of attributes of one site joined (see the
    module's doc); the same function where there are none."""
    body = _block(function.body, fresh)
    if len(body) == len(function.body) and all(a is b for a, b in zip(body, function.body)):
        return function
    return py.FunctionDef(name=function.name, args=function.args, body=body, decorator_list=[], returns=None,
                          type_comment=None, lineno=0, col_offset=0)


__all__ = ["piece_writes_joined"]
