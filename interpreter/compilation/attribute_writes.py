"""Blocks that only set attributes of pieces, and conditions that never read them.

A `forbid result` check plays its case and the `after each action` rules before
asking its parts (cases.py). Rules that only set attributes of pieces to values
written out (`piece.moved = true`; under `if piece is KIND:`, over `for each s in
pieces of player where it.moved:`) change no owner, kind or site, cannot fail and
end nothing: where no part reads those attributes (nor counts positions, which
tell pieces apart by them), what the parts answer is the same without them, and
the check leaves them out — they would cost a loop and a journal of the sites
written for nothing. Worked out on the rules' syntax trees: a part reads an
attribute only as `X.NAME`, in its own text or in a define it uses.

The same holds of such statements of the case itself (`piece.moved = true`, a
procedure clearing flags of pieces over a region): where neither the parts, the
case's other statements, the `after each action` blocks nor the score read those
attributes, the check plays the case without them. A lone piece's move whose
case also clears flags then writes its two places alone, and its answer is kept
by code (lone_pieces.py, runtime/kept_answers.KeptByMove).
"""
from __future__ import annotations

from typing import Collection, Iterable, Mapping, Optional

from ..parsing import ast
from ..parsing.visit import nodes_of, reaches

# Whether a check leaves out such statements of its case too (actions.ActionCompiler._checked_statements):
# switched off for the tests
IN_CASES = True

# (what may be read by the conditions of such a block: nothing that can fail)
_PLAIN = (ast.Name, ast.Bool, ast.Num, ast.NoneLit, ast.Is, ast.Not, ast.And, ast.Or, ast.Pieces, ast.Attr)
# (what counts positions, telling pieces apart by their attributes too)
_COUNTING = frozenset({"repetitions"})


def attributes_set_only(stmts: Iterable[ast.Stmt], attributes: Iterable[str],
                        defines: Iterable[str], procedures: Optional[Mapping[str, ast.Procedure]] = None,
                        regions: Collection[str] = ()) -> Optional[frozenset[str]]:
    """The names of the attributes `stmts` set, where that is all they do: each
    statement sets one of `attributes` (declared ones, not `owner`) of a piece
    named by a name to a value written out, or is an `if` or a `for each` over
    `pieces ...` or one of `regions` (`R`, `R[player]`, `R[opponent]`: constant
    sites, an empty one's piece left alone) of such statements, asking
    conditions that cannot fail (names that are not `defines`, `is`, `not`,
    `and`, `or`, attributes of names), or calls a procedure of `procedures`
    without arguments whose body is such statements; else None."""
    declared = frozenset(attributes) - {"owner"}
    names = frozenset(defines)
    found: set[str] = set()
    called: set[str] = set()  # (each procedure looked at once: a call of one calling itself is bounded)

    def over_region(e: ast.Expr) -> bool:
        if isinstance(e, ast.Index) and isinstance(e.index, ast.Name) and e.index.id in ("player", "opponent"):
            e = e.obj
        return isinstance(e, ast.Name) and e.id in regions and e.id not in names

    def plain(e: Optional[ast.Expr]) -> bool:
        for node in nodes_of(e):
            if not isinstance(node, _PLAIN) or isinstance(node, ast.Name) and node.id in names \
                    or isinstance(node, ast.Attr) and not isinstance(node.obj, ast.Name):
                return False
        return True

    def only(block: Iterable[ast.Stmt]) -> bool:
        for stmt in block:
            if isinstance(stmt, ast.AssignStmt):
                target = stmt.target
                if not (stmt.op == "=" and isinstance(target, ast.Attr) and isinstance(target.obj, ast.Name)
                        and target.obj.id not in names and target.name in declared
                        and isinstance(stmt.value, (ast.Bool, ast.Num, ast.Str))):
                    return False
                found.add(target.name)
            elif isinstance(stmt, ast.IfStmt):
                if not all(plain(cond) and only(body) for cond, body in stmt.branches) or not only(stmt.otherwise):
                    return False
            elif isinstance(stmt, ast.ForEachStmt):
                if stmt.until is not None or not (isinstance(stmt.iterable, ast.Pieces) and plain(stmt.iterable)
                                                  or over_region(stmt.iterable)) or not only(stmt.body):
                    return False
            elif isinstance(stmt, ast.CallStmt) and procedures is not None and not stmt.args \
                    and stmt.procedure in procedures and not procedures[stmt.procedure].params:
                if stmt.procedure not in called:
                    called.add(stmt.procedure)
                    if not only(procedures[stmt.procedure].body):
                        return False
            else:
                return False
        return True

    return frozenset(found) if only(stmts) and found else None


def reads_attributes(e: ast.Expr, defines: dict[str, ast.Define], attributes: frozenset[str],
                     seen: Optional[set[str]] = None) -> bool:
    """Whether `e` (or a define it uses) may read one of `attributes` of a piece:
    `X.NAME`, or a count of positions (`repetitions`, `board repetitions`)."""
    def reads(node: object) -> bool:
        if isinstance(node, ast.Attr) and node.name in attributes or isinstance(node, ast.BoardRepetitions):
            return True
        return (node.id if isinstance(node, ast.Name) else node.fn if isinstance(node, ast.Call) else None) \
            in _COUNTING

    return reaches(e, defines, reads, seen)


def block_reads_attributes(stmts: object, defines: dict[str, ast.Define], procedures: Mapping[str, ast.Procedure],
                           attributes: frozenset[str]) -> bool:
    """Whether `stmts` (statements, or any tree of them), the procedures they
    call or the defines they use may read one of `attributes` of a piece (as
    `reads_attributes`)."""
    looked_at: set[str] = set()
    used: set[str] = set()

    def reads(node: object) -> bool:
        if isinstance(node, ast.CallStmt) and node.procedure in procedures and node.procedure not in looked_at:
            looked_at.add(node.procedure)
            return reaches(procedures[node.procedure].body, defines, reads, used)
        if isinstance(node, ast.Attr) and node.name in attributes or isinstance(node, ast.BoardRepetitions):
            return True
        return (node.id if isinstance(node, ast.Name) else node.fn if isinstance(node, ast.Call) else None) \
            in _COUNTING

    return reaches(stmts, defines, reads, used)
