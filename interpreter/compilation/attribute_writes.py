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

Likewise a case's statements that only set variables to values written out
(`halfmoves = 0`, `left_rook[player] = none`, `quiet += 1`; a procedure without
parameters made of such): where none of those variables is read by the parts,
the case's other statements, the `after each action` blocks or the score, the
check plays the case without them, and neither journals nor restores them.
"""
from __future__ import annotations

from typing import Callable, Collection, Iterable, Mapping, Optional

from ..parsing import ast
from ..parsing.visit import nodes_of, reaches

# Whether a check leaves out such statements of its case too (actions.ActionCompiler._checked_statements):
# switched off for the tests
IN_CASES = True
# Whether it leaves out a case's statements setting only variables no check reads (the same):
# switched off for the tests
VARIABLES_IN_CASES = True

# (what may be read by the conditions of such a block: nothing that can fail)
_PLAIN = (ast.Name, ast.Bool, ast.Num, ast.NoneLit, ast.Is, ast.Not, ast.And, ast.Or, ast.Pieces, ast.Attr)
# (what counts positions, telling pieces apart by their attributes too)
_COUNTING = frozenset({"repetitions"})


def _plain(e: Optional[ast.Expr], names: frozenset[str]) -> bool:
    """Whether `e` cannot fail: names that are not `names` (defines), `is`, `not`,
    `and`, `or`, attributes of names."""
    return all(isinstance(node, _PLAIN) and not (isinstance(node, ast.Name) and node.id in names)
               and not (isinstance(node, ast.Attr) and not isinstance(node.obj, ast.Name))
               for node in nodes_of(e))


def _set_only(stmts: Iterable[ast.Stmt], sets: Callable[[ast.AssignStmt], bool], names: frozenset[str],
              procedures: Optional[Mapping[str, ast.Procedure]],
              loops: Optional[Callable[[ast.ForEachStmt], bool]] = None) -> bool:
    """Whether every statement of `stmts` is an assignment `sets` takes, an `if` of
    such asking plain conditions, a `for each` `loops` takes (its body such), or a
    call of a procedure of `procedures` without arguments whose body is such."""
    called: set[str] = set()  # (each procedure looked at once: a call of one calling itself is bounded)

    def only(block: Iterable[ast.Stmt]) -> bool:
        for stmt in block:
            if isinstance(stmt, ast.AssignStmt):
                if not sets(stmt):
                    return False
            elif isinstance(stmt, ast.IfStmt):
                if not all(_plain(cond, names) and only(body) for cond, body in stmt.branches) \
                        or not only(stmt.otherwise):
                    return False
            elif isinstance(stmt, ast.ForEachStmt) and loops is not None:
                if not loops(stmt) or not only(stmt.body):
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

    return only(stmts)


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

    def over_region(e: ast.Expr) -> bool:
        if isinstance(e, ast.Index) and isinstance(e.index, ast.Name) and e.index.id in ("player", "opponent"):
            e = e.obj
        return isinstance(e, ast.Name) and e.id in regions and e.id not in names

    def sets(stmt: ast.AssignStmt) -> bool:
        target = stmt.target
        if not (stmt.op == "=" and isinstance(target, ast.Attr) and isinstance(target.obj, ast.Name)
                and target.obj.id not in names and target.name in declared
                and isinstance(stmt.value, (ast.Bool, ast.Num, ast.Str))):
            return False
        found.add(target.name)
        return True

    def loops(stmt: ast.ForEachStmt) -> bool:
        return stmt.until is None and (isinstance(stmt.iterable, ast.Pieces) and _plain(stmt.iterable, names)
                                       or over_region(stmt.iterable))

    return frozenset(found) if _set_only(stmts, sets, names, procedures, loops) and found else None


def variables_set_only(stmts: Iterable[ast.Stmt], variables: Mapping[str, bool], defines: Iterable[str],
                       procedures: Optional[Mapping[str, ast.Procedure]] = None,
                       small_step: int = 1) -> Optional[frozenset[str]]:
    """The names of the variables `stmts` set, where that is all they do: each
    statement sets one of `variables` (name -> whether it is per player; `X`,
    or `X[player]` / `X[opponent]` where per player) to a value written out
    (`=` a number, flag, text or none; `+=` / `-=` a number of at most
    `small_step`, which is never bounds-checked: nothing can fail), or is an
    `if` of such statements asking conditions that cannot fail (as
    `attributes_set_only`'s), or calls a procedure of `procedures` without
    arguments whose body is such statements; else None."""
    names = frozenset(defines)
    found: set[str] = set()

    def target_of(e: ast.Expr) -> Optional[str]:
        if isinstance(e, ast.Name) and variables.get(e.id) is False:
            return e.id
        if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name) and variables.get(e.obj.id) is True \
                and isinstance(e.index, ast.Name) and e.index.id in ("player", "opponent"):
            return e.obj.id
        return None

    def sets(stmt: ast.AssignStmt) -> bool:
        name = target_of(stmt.target)
        value = stmt.value
        if name is None or not (
                stmt.op == "=" and isinstance(value, (ast.Bool, ast.Num, ast.Str, ast.NoneLit))
                or stmt.op in ("+=", "-=") and isinstance(value, ast.Num) and abs(value.value) <= small_step):
            return False
        found.add(name)
        return True

    return frozenset(found) if _set_only(stmts, sets, names, procedures) and found else None


def calls_written_out(stmts: list[ast.Stmt], procedures: Mapping[str, ast.Procedure],
                      depth: int = 8) -> list[ast.Stmt]:
    """`stmts` with each call of a procedure without parameters among them
    replaced by the procedure's body, so written out again up to `depth`
    levels: a procedure is compiled in its caller's scope
    (statements.StatementCompiler._call_procedure), so the case plays the
    same; a check may then leave out some of its statements alone."""
    if depth <= 0:
        return stmts
    out: list[ast.Stmt] = []
    changed = False
    for stmt in stmts:
        if isinstance(stmt, ast.CallStmt) and not stmt.args and stmt.procedure in procedures \
                and not procedures[stmt.procedure].params:
            out.extend(procedures[stmt.procedure].body)
            changed = True
        else:
            out.append(stmt)
    return calls_written_out(out, procedures, depth - 1) if changed else stmts


def block_reads_names(stmts: object, defines: dict[str, ast.Define], procedures: Mapping[str, ast.Procedure],
                      read: frozenset[str]) -> bool:
    """Whether `stmts` (statements, expressions, any tree of them), the
    procedures they call or the defines they use may read one of the
    variables `read` — any name of theirs, written or read, a local's of the
    same name too — or count positions."""
    looked_at: set[str] = set()
    used: set[str] = set()

    def reads(node: object) -> bool:
        if isinstance(node, ast.CallStmt) and node.procedure in procedures and node.procedure not in looked_at:
            looked_at.add(node.procedure)
            return reaches(procedures[node.procedure].body, defines, reads, used)
        if isinstance(node, ast.BoardRepetitions):
            return True
        name = node.id if isinstance(node, ast.Name) else node.fn if isinstance(node, ast.Call) else None
        return name in read or name in _COUNTING

    return reaches(stmts, defines, reads, used)


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
