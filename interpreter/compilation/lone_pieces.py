"""A check's loop over a player's pieces of a kind the player has one of: the mover's site alone.

A `forbid result` part such as `exists(pieces of player, it is K and ...)` is a
loop over the owner's site list whose body asks first whether the site's piece
is of kind K (`for i0 in o[p]: if b[i0][1] == K: ...`). Where no player ever
has two pieces of K (single_kinds.py), at most one site of the list passes that
test. A check of a move whose acting piece may be of K — the piece the part is
about moving: a king stepping — asks the part after the move, with the mover
appended at the end of its owner's list, so the loop walks every other piece
first. There the loop goes over the acting piece's site alone (`at`, where the
case left it) when that site holds a piece of the list's owner and of kind K:
the one piece of K the owner has, the only site whose body runs. Otherwise
(the mover promoted, or of another kind) the loop is the same as before.

Exact: the body runs for the same single site, in a loop that visits no other
site whose test holds; the loop's name is read nowhere else (checked), so
which sites it visits besides changes nothing.

For the same reason any such loop of any generated function stops once its
body has run for the piece of that kind (`stop_after_lone`): the sites left
would all fail the kind test — the king found in the middle of the list, and
the part not holding (no check), the rest of the list is not walked.
"""
from __future__ import annotations

import ast as py
from typing import Callable, Optional, Sequence

from ..runtime.pieces import KIND, OWNER
from . import pyast, result_reuse
from .board_keys import CLEARING_WRITERS

# Whether a move that also moves or takes off other pieces (`h_clear` writes in its
# case) keeps its check's answer by code too (`mover_list_kept`).
TWO_PIECE_KEPT = True


def kind_tested(test: py.expr, board: str = "b") -> Optional[tuple[str, int]]:
    """(the loop's name, the kind) where `test` is `b[X][KIND] == K`, or such a
    comparison first in an `and`."""
    if isinstance(test, py.BoolOp) and isinstance(test.op, py.And):
        test = test.values[0]
    if not (isinstance(test, py.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], py.Eq)):
        return None
    left, right = test.left, test.comparators[0]
    if not (isinstance(right, py.Constant) and type(right.value) is int):
        return None
    if not (isinstance(left, py.Subscript) and isinstance(left.slice, py.Constant) and left.slice.value == KIND):
        return None
    site = left.value
    if not (isinstance(site, py.Subscript) and pyast.is_name(site.value, board) and isinstance(site.slice, py.Name)):
        return None
    return site.slice.id, right.value


def lone_anchors(plan: result_reuse.Plan, kinds: frozenset[int]) -> bool:
    """Whether every loop of `plan` (result_reuse.Plan.loops) asks first for
    one of `kinds` (kinds no player has two pieces of) of the piece at its
    site: each list's player has one anchor at most (runtime/kept_answers.py
    looks at a list that held it no more)."""
    if not plan.loops:
        return False
    for _player, local, test, _rest in plan.loops:
        found = kind_tested(test)
        if found is None or found[0] != local or found[1] not in kinds:
            return False
    return True


def mover_first(lines: Sequence[py.stmt], after: py.expr, kinds: frozenset[int], fresh: Callable[[str], str],
                owners: str = "o", board: str = "b", mover: str = "at",
                lists: Optional[list[tuple[str, int, py.expr]]] = None) -> list[py.stmt]:
    """`lines` with each loop `for X in o[E]: if <b[X] is of kind K> ...` (no
    `else`, X read nowhere outside it nor in `after`, E a name, K one of `kinds`: kinds no
    player has two pieces of) going over `(at,)` where `b[at]` is E's piece of
    kind K, else over `o[E]` as before — (E, K, that `o[E]`) appended to `lists`
    for each (`mover_list_unchanged`)."""
    stmts = list(pyast.statements_in(lines))
    loops = [stmt for stmt in dict.fromkeys(stmts) if _lone_loop(stmt, kinds, owners, board)]
    # (the loop's name read outside its loop: left as it was)
    loops = [loop for loop in loops if _only_inside(loop, [*lines, after], stmts)]
    if not loops:
        return list(lines)
    changed = list(lines)
    for loop in loops:
        assert isinstance(loop, py.For) and isinstance(loop.iter, py.Subscript)
        owner = loop.iter.slice
        assert isinstance(owner, py.Name)
        found = kind_tested(loop.body[0].test, board)  # type: ignore[attr-defined]
        assert found is not None
        piece = fresh("t")
        there = pyast.and_(
            pyast.is_not_none(pyast.walrus(piece, pyast.sub(pyast.name(board), pyast.name(mover)))),
            pyast.compare(pyast.sub(pyast.name(piece), OWNER), "==", pyast.name(owner.id)),
            pyast.compare(pyast.sub(pyast.name(piece), KIND), "==", pyast.num(found[1])))
        sites = pyast.ifexp(pyast.tuple_(pyast.name(mover)), there, loop.iter)
        if lists is not None:
            lists.append((owner.id, found[1], loop.iter))
        changed = pyast.splice(changed, loop, [pyast.for_(loop.target, sites, loop.body, loop.orelse)])
    return changed


def mover_list_unchanged(body: Sequence[py.stmt], case: Sequence[py.stmt], asked: Sequence[py.stmt],
                         lists: Sequence[tuple[str, int, py.expr]]) -> list[py.stmt]:
    """`body` (a check's: the move `case` pasted, then the parts `asked`, which
    `mover_first` gave the site lists `lists`) with the case's change of the
    mover's own site list (`o[pc[0]].remove(at)`, `o[pc[0]].append(to)`) made
    only where the mover is not the player's piece of the lone kind K those
    loops look for: then `b[at]` holds that piece once the case is played
    (result_reuse.leaves_mover_at_to) and each loop goes over `(at,)`, never
    over the list — so the check's answer is the same, and the journal's
    changes and undo of the list are not paid (a king's or general's own moves,
    one check each per listing). Only where nothing else reads a site list:
    every other `o` in the case a change of a list, under tests or not (a
    captured piece's: journaled as before), in
    the parts only those loops' lists, and no `s` (helpers given the state);
    else `body` as it is."""
    owners = {owner for owner, _, _ in lists}
    kinds = {kind for _, kind, _ in lists}
    if owners != {"p"} or len(kinds) != 1:
        return list(body)
    changes = [stmt for stmt in case if _mover_list_change(stmt, "remove", "at")
               or _mover_list_change(stmt, "append", "to")]
    if len(changes) != 2 or not result_reuse.leaves_mover_at_to(case) \
            or any(pyast.assigns(case, name) for name in ("pc", "p", "to")):
        return list(body)
    # (the case's other site lists: changes alone — any such statement is one — and no `s`)
    changing = [stmt for stmt in pyast.statements_in(case) if _list_change(stmt)]
    if _names(case, "s") or _names(case, "o") != sum(_names([stmt], "o") for stmt in changing):
        return list(body)
    if not _parts_read_loops_alone(asked, lists):
        return list(body)
    kind = kinds.pop()
    lone = pyast.and_(pyast.compare(pyast.sub(pyast.name("pc"), OWNER), "==", pyast.name("p")),
                      pyast.compare(pyast.sub(pyast.name("pc"), KIND), "==", pyast.num(kind)))
    changed = list(body)
    for stmt in changes:
        changed = pyast.splice(changed, stmt, [pyast.if_(pyast.not_(lone), [stmt])])
    return changed


def _parts_read_loops_alone(asked: Sequence[py.stmt], lists: Sequence[tuple[str, int, py.expr]]) -> bool:
    """Whether the parts `asked` read no site list but the lists `lists` of
    their loops (mover_first's), no `s`, and leave `at` where the case left it."""
    return not (sum(_names([node], "s") for node in asked) or pyast.assigns(asked, "at")
                or sum(_names([node], "o") for node in asked) != sum(_names([sites], "o") for _, _, sites in lists))


def mover_list_kept(case: Sequence[py.stmt], asked: Sequence[py.stmt],
                    lists: Sequence[tuple[str, int, py.expr]]) -> bool:
    """Whether a move's check that `mover_list_unchanged` leaves as it is (the
    move `case` changes other site lists than the mover's in ways it does not
    follow: a second piece moved, `h_clear(b, o, X)` then `b[Y] = piece`) may
    still keep its answer by code (runtime/kept_answers.KeptByMove): the parts
    `asked` read no site list but their loops' over the player's lone kind,
    no `s`, and leave `at` alone; the case reads no `s`, writes none of `pc`,
    `p`, `to`, and names `o` only to change a list or to clear a site. The case
    keeps every list as it is played, so the loops are exact; where `at` holds
    the player's piece of the lone kind once the case is played they go over
    it alone and the answer follows from the pieces the check reads — else
    they walk a list, which the noting copy marks as not kept
    (`noting_reads`' `guarded`)."""
    if TWO_PIECE_KEPT is False or {owner for owner, _, _ in lists} != {"p"} or len({k for _, k, _ in lists}) != 1:
        return False
    if not _parts_read_loops_alone(asked, lists) or _names(case, "s") \
            or any(pyast.assigns(case, name) for name in ("pc", "p", "to")):
        return False
    listed = [stmt for stmt in pyast.statements_in(case) if _list_change(stmt) or _clearing(stmt)]
    return _names(case, "o") == sum(_names([stmt], "o") for stmt in listed)


def _clearing(stmt: py.AST) -> bool:
    """`h_clear(b, o, X)` (or journaled, `h_clear_kept(b, o, X, ...)`) as a
    statement, X reading neither a site list nor `s`: the site X emptied, its
    piece taken off its owner's list — no board read that the answer could
    depend on but X's."""
    if isinstance(stmt, py.Expr):
        stmt = stmt.value
    return isinstance(stmt, py.Call) and isinstance(stmt.func, py.Name) and stmt.func.id in CLEARING_WRITERS \
        and len(stmt.args) >= 3 and not stmt.keywords and pyast.is_name(stmt.args[0], "b") \
        and pyast.is_name(stmt.args[1], "o") and not _names(stmt.args[2:], "o") and not _names(stmt.args[2:], "s")


def read_through_board(case: Sequence[py.stmt], parts: Sequence[py.AST], clearing: bool = False) -> bool:
    """Whether a check that `mover_list_unchanged` changed, made of the move
    `case` and the parts `parts` (as `mover_first` left them), gives for a
    mover of the lone kind an answer that follows from the action's code, the
    players and the board's pieces at the sites it reads (runtime/
    kept_answers.KeptByMove keeps it so): every board read a subscript
    `b[...]` (none given whole to a helper, which could read it unseen), no
    variable read by the parts, and the case's variables only set (`v[K] = E`,
    `v[K] += E`: what the case writes on the board never depends on them). The
    site lists and `s` are read by neither (`mover_list_unchanged`). With
    `clearing`, the board may also be given to a statement clearing one site
    (`h_clear(b, o, X)`: `mover_list_kept`), which reads only that site's piece
    to take it off its list — `noting_reads` notes the site."""
    nodes = [*case, *parts]
    boards = sum(_names([node], "b") for node in nodes)
    subscripted = sum(1 for node in nodes for sub in pyast.walk(node)
                      if isinstance(sub, py.Subscript) and pyast.is_name(sub.value, "b")
                      or clearing and isinstance(sub, py.Expr) and _clearing(sub))
    if boards != subscripted or any(_names([node], "v") for node in parts):
        return False
    setting = [stmt for stmt in pyast.statements_in(case) if _sets_variable(stmt)]
    return _names(case, "v") == sum(_names([stmt], "v") for stmt in setting)


def noting_reads(body: Sequence[py.stmt], bits: py.expr, fresh: Callable[[str], str],
                 guarded: bool = False) -> list[py.stmt]:
    """`body` (a check's function's, registers loaded) noting the sites it reads:
    each read `b[E]` becomes `b[x if (r := r | bits[(x := E)]) else x]` (E
    worked out once, `bits` each site's bit, none for site -1), the site a
    clearing statement reads likewise, and each
    `return X` returns `(X, r)` — the sites a `KeptByMove` keeps its answer
    with (runtime/kept_answers.py), noted by the code rather than by a board
    that notes each read in Python (several times the check's cost). With
    `guarded` (`mover_list_kept`), a loop of `mover_first`'s that walks its
    list instead of the mover's site makes `r` -1: an answer read through a
    site list, not to be kept."""
    read = fresh("t")
    site = fresh("t")

    def noting(index: py.expr) -> py.expr:
        bit = pyast.sub(bits, pyast.walrus(site, index))
        return pyast.ifexp(pyast.name(site), pyast.walrus(read, pyast.binop(pyast.name(read), "|", bit)),
                           pyast.name(site))

    def noted(node: py.AST) -> Optional[py.AST]:
        if isinstance(node, py.Subscript) and isinstance(node.ctx, py.Load) and pyast.is_name(node.value, "b"):
            return pyast.sub(pyast.name("b"), noting(pyast.replace_nodes(node.slice, noted)))
        if isinstance(node, py.Call) and _clearing(node):
            args = [pyast.replace_nodes(arg, noted) for arg in node.args]
            args[2] = noting(args[2])
            return py.Call(func=node.func, args=args, keywords=[])
        if guarded and _lone_sites(node):
            assert isinstance(node, py.IfExp)
            listed = pyast.ifexp(node.orelse, pyast.walrus(read, pyast.num(-1)), node.orelse)
            return pyast.ifexp(node.body, pyast.replace_nodes(node.test, noted), listed)
        if isinstance(node, py.Return):
            value = pyast.replace_nodes(node.value, noted) if node.value is not None else pyast.none()
            return pyast.return_(pyast.tuple_(value, pyast.name(read)))
        return None

    return [pyast.assign(pyast.name(read), pyast.num(0)), *(pyast.replace_nodes(stmt, noted) for stmt in body)]


def _lone_sites(node: py.AST) -> bool:
    """`(at,) if <test> else o[E]`, as `mover_first` writes a loop's sites."""
    return isinstance(node, py.IfExp) and isinstance(node.body, py.Tuple) and len(node.body.elts) == 1 \
        and pyast.is_name(node.body.elts[0], "at") and isinstance(node.orelse, py.Subscript) \
        and pyast.is_name(node.orelse.value, "o") and isinstance(node.orelse.slice, py.Name)


def _sets_variable(stmt: py.stmt) -> bool:
    """`v[K] = E` or `v[K] op= E`, no name bound inside it (its `v`s flow into `v` alone)."""
    if isinstance(stmt, py.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
    elif isinstance(stmt, py.AugAssign):
        target = stmt.target
    else:
        return False
    return isinstance(target, py.Subscript) and pyast.is_name(target.value, "v") \
        and not any(isinstance(node, py.NamedExpr) for node in pyast.walk(stmt))


def _names(nodes: Sequence[py.AST], name: str) -> int:
    """How often `name` is read or written in `nodes`."""
    return sum(pyast.name_counts(node).get(name, 0) for node in nodes)


def _list_change(stmt: py.stmt) -> bool:
    """`o[E].remove(X)` or `o[E].append(X)` as a statement."""
    if not (isinstance(stmt, py.Expr) and isinstance(stmt.value, py.Call)):
        return False
    func = stmt.value.func
    return isinstance(func, py.Attribute) and func.attr in ("remove", "append") \
        and isinstance(func.value, py.Subscript) and pyast.is_name(func.value.value, "o")


# (the mover's own site list, as a move's code names it)
_MOVER_LIST = pyast.key(pyast.sub(pyast.name("o"), pyast.sub(pyast.name("pc"), pyast.num(OWNER))))


def _mover_list_change(stmt: py.stmt, method: str, site: str) -> bool:
    """`o[pc[0]].<method>(<site>)` as a statement."""
    if not _list_change(stmt):
        return False
    call = stmt.value  # type: ignore[attr-defined]
    return call.func.attr == method and len(call.args) == 1 and not call.keywords \
        and pyast.is_name(call.args[0], site) and pyast.key(call.func.value) == _MOVER_LIST


def stop_after_lone(function: py.FunctionDef, kinds: frozenset[int], owners: str = "o",
                    board: str = "b") -> py.FunctionDef:
    """`function` with each loop `for X in o[E]: if <b[X] is of kind K> ...`
    (no `else` of either, X read nowhere outside it, K one of `kinds`: kinds
    no player has two pieces of) stopped once the `if`'s body has run: `if
    <kind>: [if <the rest of an `and`>: ...] ...; break`. A body that leaves
    the loop anyway (`exists(pieces of X where it is K and ...)`: found, then
    `break`) is stopped where the rest of an `and` fails on the piece of the
    kind: no other piece of the list can pass the test."""
    if not kinds:
        return function
    stmts = list(pyast.statements_in(function.body))
    loops = [stmt for stmt in dict.fromkeys(stmts) if _lone_loop(stmt, kinds, owners, board)
             and not stmt.body[0].orelse  # type: ignore[attr-defined]
             and (not _ends(stmt.body[0].body) or isinstance(stmt.body[0].test, py.BoolOp))  # type: ignore[attr-defined]
             and _only_inside(stmt, [function], stmts)]
    if not loops:
        return function
    body = function.body
    for loop in loops:  # (the loops whose name nothing else reads)
        assert isinstance(loop, py.For)
        kind_if = loop.body[0]
        assert isinstance(kind_if, py.If)
        test = kind_if.test
        inner: list[py.stmt] = list(kind_if.body)
        if isinstance(test, py.BoolOp):  # (`kind and rest`: the rest asked inside)
            rest = test.values[1:]
            inner = [pyast.if_(rest[0] if len(rest) == 1 else pyast.and_(*rest), inner)]
            test = test.values[0]
        stopped = pyast.for_(loop.target, loop.iter, [pyast.if_(test, [*inner, pyast.break_()])])
        body = pyast.splice(body, loop, [stopped])
    return py.FunctionDef(name=function.name, args=function.args, body=body, decorator_list=[], returns=None,
                          type_comment=None, lineno=0, col_offset=0)


def _only_inside(loop: py.stmt, nodes: Sequence[py.AST], stmts: Sequence[py.stmt]) -> bool:
    """Whether every use of `loop`'s name in `nodes` (whose statements are
    `stmts`) is inside it — inside each of its copies: a block compiled once
    stands wherever it is pasted, and `splice` replaces every one."""
    assert isinstance(loop, py.For) and isinstance(loop.target, py.Name)
    name = loop.target.id
    copies = sum(stmt is loop for stmt in stmts)
    return sum(pyast.name_counts(node).get(name, 0) for node in nodes) == copies * pyast.name_counts(loop).get(name, 0)


def _ends(body: Sequence[py.stmt]) -> bool:
    """Whether `body` ends leaving the loop (or the function) anyway."""
    return bool(body) and isinstance(body[-1], (py.Break, py.Return, py.Continue))


def _lone_loop(node: py.AST, kinds: frozenset[int], owners: str, board: str) -> bool:
    if not (isinstance(node, py.For) and not node.orelse and isinstance(node.target, py.Name)):
        return False
    sites = node.iter
    if not (isinstance(sites, py.Subscript) and pyast.is_name(sites.value, owners)
            and isinstance(sites.slice, py.Name)):
        return False
    if len(node.body) != 1 or not isinstance(node.body[0], py.If):
        return False
    found = kind_tested(node.body[0].test, board)
    return found is not None and found[0] == node.target.id and found[1] in kinds
