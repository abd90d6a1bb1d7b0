"""`forbid result` answers reused from the position a listing starts from.

A listing checks every candidate action against the `forbid result` conditions
on the position the action would leave (cases.CaseWriter._check, journal.py).
Most candidates change nothing a condition reads: a move away from the king's
lines leaves `in_check` as it was. So a condition part is asked once per listing
on the listed position itself (the *parent*), recording the board sites it read;
a candidate whose case writes none of them, and puts at no site it writes a
piece the part's loops would visit, gets the parent's answer without the part
being asked again (the check then undoes its case as before).

Why that is exact: the part's code is a deterministic function of what it
reads. It may read the board (`b[E]`) and the players' site lists, the latter
only as a loop `for i in o[X]: if T: ...` (X the player or the opponent) whose
test T reads nothing but the site `i` and the piece on it: such a loop visits,
in their order, the sites of X's pieces passing T (the *anchors*: the king of
`exists(pieces of player, it is king and ...)`). After a case that writes no
site the parent's evaluation read (the anchors are recorded as read), and
leaves at no site it writes a piece of X passing T,

1. the anchors are the same, in the same order: a site left unwritten keeps its
   piece, and site lists change only by removing and appending sites (what the
   journal covers), which keeps the order of the others;
2. every other read gives the value it gave on the parent;

so the child's evaluation takes the parent's path to the parent's answer. A part
reading anything else — the variables, the position's fields, the action's own
registers (`to`, `piece`...), a site list otherwise, a helper given the position
— is asked for every candidate as before (`plan` answers None).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Optional, Sequence

from ..runtime.pieces import OWNER
from . import pyast
from .journal import PURE_HELPERS
from .source import BUILTIN_NAMES

# The players a site list may be read for: both fixed while a check runs.
PLAYERS = frozenset({"p", "q"})
# Locals the compiler makes for an expression's own values (temporaries, loop variables).
_OWN_LOCAL = re.compile(r"[ti]\d+")
_CONSTANT = re.compile(r"k\d+")
# The helper a check calls to ask whether the parent's answer holds (runtime/helpers.py),
# the one that finds (or makes) the parent's answer, and the one a recording reads the board with.
KEPT = "h_answer_kept"
MEMO = "h_parent_answer"
NOTE = "h_note_read"


@dataclass
class Plan:
    """How one part is asked on the parent: `record` (statements on the
    registers b, o, p, q ending in `return (answer, sites read)`), and the
    loops over site lists as (player register, site local, test) — see `anchor`."""

    record: list[ast.stmt]
    loops: list[tuple[str, str, ast.expr, Optional[ast.expr]]]

    def anchor(self, piece: ast.expr, site: ast.expr) -> Optional[ast.expr]:
        """Whether `piece` (a name holding a piece, not None) at `site` would be
        visited by one of the part's loops; None when it has none."""
        tests = []
        for player, local, test, _rest in self.loops:

            def on_piece(node: ast.AST, local: str = local) -> Optional[ast.AST]:
                if isinstance(node, ast.Subscript) and pyast.is_name(node.value, "b"):
                    return piece
                if isinstance(node, ast.Name) and node.id == local:
                    return site
                return None

            owner = pyast.compare(pyast.sub(piece, OWNER), "==", pyast.name(player))
            tests.append(pyast.and_(owner, pyast.replace_nodes(test, on_piece, {})))
        return pyast.or_(*tests) if tests else None


def plan(lines: Sequence[ast.stmt], code: ast.expr, fresh_list: str) -> Optional[Plan]:
    """The plan of the part `lines` + `code` (as restrictions.result_check makes
    them), or None where it reads more than the module's docstring allows.
    `fresh_list`: a new local's name, for the sites read."""
    nodes = list(lines) + [pyast.expr_stmt(code)]
    loops = [n for n in pyast.walk_all(nodes)
             if isinstance(n, ast.For) and isinstance(n.iter, ast.Subscript) and pyast.is_name(n.iter.value, "o")]
    shapes = []
    rests: dict[int, Optional[ast.expr]] = {}
    for loop in loops:
        shape = _loop_shape(loop)
        if shape is None:
            return None
        shapes.append(shape)
        rests[id(loop)] = shape[3]
    if not _reads_allowed(nodes, {id(loop) for loop in loops}):
        return None
    rr = pyast.name(fresh_list)
    memo: dict[int, ast.AST] = {}
    ids = {id(loop) for loop in loops}

    def recording(node: ast.AST) -> Optional[ast.AST]:
        if id(node) in ids:
            assert isinstance(node, ast.For) and isinstance(node.body[0], ast.If) and isinstance(node.target, ast.Name)
            shape = next(shape for shape in shapes if shape[1] == node.target.id)
            noted = pyast.expr_stmt(pyast.method(rr, "append", pyast.name(node.target.id)))
            body = pyast.replace_in(node.body[0].body, recording, memo)
            rest = rests[id(node)]
            if rest is not None:  # (`if T and R:` as `if T: if R:`, R's reads recorded)
                body = [pyast.if_(pyast.replace_nodes(rest, recording, memo), body)]
            return pyast.for_(node.target, node.iter, [pyast.if_(shape[2], [noted] + body)])
        if isinstance(node, ast.Subscript) and pyast.is_name(node.value, "b") and isinstance(node.ctx, ast.Load):
            index = pyast.replace_nodes(node.slice, recording, memo)
            return pyast.sub(node.value, pyast.helper(NOTE, rr, index))
        return None

    record = [pyast.assign(rr, pyast.list_())] + pyast.replace_in(lines, recording, memo)
    answer = pyast.replace_nodes(code, recording, memo)
    record.append(pyast.return_(pyast.tuple_(answer, rr)))
    return Plan(record, shapes)


def _loop_shape(loop: ast.For) -> Optional[tuple[str, str, ast.expr, Optional[ast.expr]]]:
    """(player register, site local, test T, the rest of the loop's test or None)
    of the loop `for i in o[X]: if T and ...: ...` when T (at least the first
    operand of an `and`) reads nothing but the site and its piece, else None."""
    if not (isinstance(loop.target, ast.Name) and _OWN_LOCAL.fullmatch(loop.target.id)
            and isinstance(loop.iter, ast.Subscript) and isinstance(loop.iter.slice, ast.Name)
            and loop.iter.slice.id in PLAYERS and not loop.orelse
            and len(loop.body) == 1 and isinstance(loop.body[0], ast.If) and not loop.body[0].orelse):
        return None
    site = loop.target.id
    test = loop.body[0].test
    operands = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    anchored = 0
    while anchored < len(operands) and _of_the_piece(operands[anchored], site):
        anchored += 1
    if not anchored:
        return None
    anchor = pyast.and_(*operands[:anchored])
    rest = pyast.and_(*operands[anchored:]) if anchored < len(operands) else None
    return loop.iter.slice.id, site, anchor, rest


def _of_the_piece(test: ast.expr, site: str) -> bool:
    """Whether `test` reads nothing but the site `site` and the piece on it (`b[site]`)."""
    for node in pyast.walk_in_order(test):
        if isinstance(node, ast.Name):
            if not (node.id in ("b", site) or node.id in PLAYERS or _CONSTANT.fullmatch(node.id)):
                return False
        elif isinstance(node, (ast.Call, ast.NamedExpr, ast.Lambda, ast.comprehension)):
            return False
    piece_reads = [n for n in pyast.walk_in_order(test) if isinstance(n, ast.Subscript) and pyast.is_name(n.value, "b")]
    return pyast.uses([test], "b") == len(piece_reads) and all(pyast.is_name(n.slice, site) for n in piece_reads)


def _reads_allowed(nodes: list[ast.stmt], loops: set[int]) -> bool:
    """Whether `nodes` read the position only through `b[E]` and the loops
    `loops` (by id), and nothing of the case or the listing."""
    own = {n.id for n in pyast.walk_all(nodes) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    if not all(_OWN_LOCAL.fullmatch(name) for name in own):
        return False
    board_reads = 0
    loop_iters = set()
    for node in pyast.walk_all(nodes):
        if id(node) in loops:
            assert isinstance(node, ast.For)
            loop_iters.add(id(node.iter.value))  # type: ignore[attr-defined]
        if isinstance(node, ast.Subscript) and pyast.is_name(node.value, "b"):
            if not isinstance(node.ctx, ast.Load) or isinstance(node.slice, ast.Slice):
                return False
            board_reads += 1
        elif isinstance(node, ast.Call) and not _pure_call(node):
            return False
        elif isinstance(node, (ast.Lambda, ast.FunctionDef)):
            return False
        elif isinstance(node, ast.Name):
            if node.id == "b" or node.id == "o" and id(node) in loop_iters:
                continue
            if not (node.id in own or node.id in PLAYERS or _CONSTANT.fullmatch(node.id)
                    or node.id in BUILTIN_NAMES or node.id in PURE_HELPERS):
                return False
    return pyast.uses(nodes, "b") == board_reads


def _pure_call(node: ast.Call) -> bool:
    """A call that reads no more than its arguments: a builtin, a helper that
    changes nothing, a method of a constant or of an own local."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in BUILTIN_NAMES or func.id in PURE_HELPERS
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
        and (_CONSTANT.fullmatch(func.value.id) is not None or _OWN_LOCAL.fullmatch(func.value.id) is not None)
