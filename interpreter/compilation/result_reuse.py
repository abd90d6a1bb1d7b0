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
`exists(pieces of player, it is king and ...)`), or as `h_first(o[X])` (X also
a fixed player's number), the first of X's sites in board order (an anchor
whose test T is true: where the sites not written keep their pieces and no
piece of X is put elsewhere, the first stays first). After a case that writes no
site the parent's evaluation read (the anchors are recorded as read), and
leaves at no site it writes a piece of X passing T,

1. the anchors are the same, in the same order: a site left unwritten keeps its
   piece, and site lists change only by removing and appending sites (what the
   journal covers), which keeps the order of the others;
2. every other read gives the value it gave on the parent;

so the child's evaluation takes the parent's path to the parent's answer.

A search that keeps the path it found (`connected` under `exists`:
expr_connected.witnessed_loop) reads, when the path kept still holds, the
sites of that path alone. The part is recorded on the parent, and where its
search found and kept a new path (reading more than that path), recorded once
more, reading the path now kept. Its answer
on a child that writes none of those sites is the parent's too: the same path
still leads to the same goal, whichever path a search there would take; where
no path was found, the recorded search read every site it reached and their
neighbours, which a child writing none of them reaches alike.

Finer: an expression whose value is used only as a truth value (an `if` test,
an operand of `not`, of `and`/`or` or a branch of `X if T else Y` used so, a
local assigned by `t = E` alone and read only so, the answer: `_truth_only`)
that reads the board at one site alone (every `b[Y]` in it of one index Y) and
nothing else but the players and constants, and reads more of the piece than
whether there is one — a *point test*: `it is enemy and it is knight` on a
knight's square, the first piece on a ray being an enemy rook, an enemy horse
on one of the squares a horse would attack from inside a larger `or` —
is recorded as the test and what it gave, not as a read of the site. A written
site read by point tests alone keeps the answer when each of them gives there
what it gave on the parent (`h_tests_hold`, asked of the board after the case;
before the case, of both things a move answered early may put there — nothing
or a piece of the mover's owner and kind — where the test reads the piece's
owner and kind alone: `h_tests_hold_moving`). The path is the same: a board
read outside point tests still gives its value, a point test its outcome, and
a point test's value goes nowhere but into truth values, which take the
same branches (and give the same answer) for the same outcome. A part
reading anything else — the variables, the position's fields, the action's own
registers (`to`, `piece`...), a site list otherwise, a helper given the position
— is asked for every candidate as before (`plan` answers None).

Finer still: the part's loops over collections fixed when compiling (the
*terms*, result_terms.py) are recorded apart — each run's reads, inputs and
outputs — so that a written site read by terms alone needs only those terms
asked again (runtime/terms.py; the argument there).

A part notes its settled point tests of named sites (reading the piece's owner
and kind alone, asked of a site held in a local) as two bitmasks per test,
where it held and where it did not (runtime/point_masks.py), not as a tuple per
site: the same entry, made with less work (a part with terms too, its terms'
reads and runs last: `terms.parent_answer_terms_masked`). A term that reads the
board through point tests alone is recorded as the part's: never asked again,
it notes no run.

A part may read variables at indices of the players and constants alone
(`v[0 + p]`, `v[0] if p == 0 else v[1]`: a king's square kept by the rules,
outside its terms): a variable holds its value until the rules write it, so a
case that writes none of them (`variables_written`, worked out for every
player: cases.CaseWriter._reusable) leaves them as they were on the parent,
like a site it does not write; a case that may write one asks the part whole.
"""
from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional, Sequence

from ..runtime.kept_answers import MINE, THEIRS
from ..runtime.pieces import KIND, OWNER
from . import owned_sites, pyast
from .journal import FIELDS, PURE_HELPERS
from .source import BUILTIN_NAMES

# The players a site list may be read for: both fixed while a check runs.
PLAYERS = frozenset({"p", "q"})
# Locals the compiler makes for an expression's own values (temporaries, loop variables).
OWN_LOCAL = re.compile(r"[ti]\d+")
CONSTANT_NAME = re.compile(r"k\d+")
# The helper a check calls to ask whether the parent's answer holds (runtime/helpers.py),
# and the one that finds (or makes) the parent's answer.
KEPT = "h_answer_kept"
# The helper a search that keeps its path keeps it with (expr_connected.witnessed_loop).
KEEPS_PATH = "h_keep_path"
MEMO = "h_parent_answer"
# ... for a part with terms (result_terms.py), and the helper asking them again.
MEMO_TERMS = "h_parent_answer_terms"
# ... for a part with terms whose recording also notes settled point tests as bitmasks.
MEMO_TERMS_MASKED = "h_parent_answer_terms_masked"
TERMS_HOLD = "h_terms_hold"
# ... of a drop writing one site, on the listed position: its answers kept with the entry's runs.
TERMS_HOLD_PLACED = "h_terms_hold_placed"
# (off: a drop's terms asked again each time, as a move's — for the tests comparing the two)
PLACED_KEPT = True
# A term as the recording calls it: (its function's name, its inputs, the outputs
# whose values before it are inputs too, its outputs).
TermCall = tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]
# ... for a part without terms whose recording returns, besides its notes, the settled
# point tests of named sites as bitmasks (runtime/point_masks.py).
MASKED_MEMO = "h_parent_answer_masked"
# Whether the listed position's answer of a part reading no variable is kept for
# the listings after it (runtime/kept_answers.py: the call finding it is given the
# part's anchor function, or None): for the tests comparing the two.
KEPT_ACROSS = True
# The helpers asking whether the point tests of written sites still give what
# they gave (runtime/helpers.py).
TESTS_HOLD = "h_tests_hold"
TESTS_HOLD_MOVING = "h_tests_hold_moving"
TESTS_HOLD_PLACING = "h_tests_hold_placing"
MOVING_FAILURES = "h_moving_failures"
# The parameter of a point test's function: the piece on its site (or None).
PIECE = "pc"
# Whether point tests are recorded as such (else as reads of their sites): for the
# tests comparing the two.
POINT_TESTS = True
# Whether terms are recorded as such (result_terms.py): likewise.
TERMS = True
# Whether settled point tests of named sites are noted as bitmasks (else a tuple per
# site): for the tests comparing the two.
MASKED_TESTS = True
# Whether a part with a search keeping its path is recorded at once, again only where
# the search kept a new path (else asked first unrecorded, to keep one): for tests.
ONE_SEARCH = True
# Whether the walk of a search's kept path notes its sites' point tests by the
# path's bitmask where every site passes (else site by site): for the tests.
PATH_BITS = True
# The helper giving a kept path's bitmask (runtime/helpers.py).
PATH_BITS_HELPER = "h_path_bits"
# ... and the one giving the bitmask of the occupied sites where a point test fails.
FAILING_HELPER = "h_failing_sites"
# Whether those sites are found by a function written for the test, its loop over the
# site lists asking the test's expression inline (`failing_finder`), else by
# FAILING_HELPER calling the test's function for each piece: for the tests.
FAILING_INLINE = True


@dataclass
class Plan:
    """How one part is asked on the parent: `record` (statements on the
    registers b, o, p, q ending in `return (answer, the bitmask of the sites
    read, the point tests noted)`), and the
    loops over site lists as (player: a register or a number, site local, test,
    the rest of the loop's test) — a `first(pieces of P)` as one with no local
    and the test `True` — see `anchor`."""

    record: list[ast.stmt]
    loops: list[tuple[ast.expr, str, ast.expr, Optional[ast.expr]]]
    # the point tests as functions to write: (name, the test of `pc`, `p`, `q`)
    tests: list[tuple[str, ast.expr]]
    # the terms the recording notes (result_terms.py: their loops by id), whose
    # functions are to be written; with any, the listed position's answer is
    # found by MEMO_TERMS
    terms: list[int] = field(default_factory=list)
    # the helper finding the answer on the parent of a part without terms (with
    # `record`'s answer as it returns it)
    helper: str = MEMO
    # the indices of the variables the part reads (`v[E]`, E of the players and
    # constants alone): a case that may write one of them asks the part whole
    variables: list[ast.expr] = field(default_factory=list)
    # whether it has a search keeping its path (expr_connected.witnessed_loop)
    keeps_path: bool = False
    # the functions finding the occupied sites where a point test fails, to write
    # (`failing_finder`): (name, the test's function, what passing takes of it)
    finders: list[tuple[str, str, bool]] = field(default_factory=list)

    @property
    def plain_tests(self) -> bool:
        """Whether every point test reads its piece's owner and kind alone."""
        return all(_owner_and_kind_only(test) for _, test in self.tests)

    def kept_argument(self, anchor: str, lone: bool = False) -> list[ast.expr]:
        """The last argument of the call finding the listed position's answer
        (`memo`), the part's anchor function named `anchor` ("" without loops):
        that function, or None, where the answer is kept across listings
        (runtime/kept_answers.py: a part reading no variable); else none. A part
        whose search keeps its path is not kept so: the path it reads is kept
        across listings already, and its recording reads that path alone —
        cheaper than the boards compared. `lone`: the anchors are of a kind no
        player has two of (lone_pieces.lone_anchors)."""
        if self.variables or self.keeps_path or not KEPT_ACROSS:
            return []
        return kept_arguments(anchor or "None", self.anchor_lists, lone)

    @property
    def anchor_lists(self) -> tuple[int, ...]:
        """The site lists the part's loops walk, once each: `MINE` (the
        player's), `THEIRS` (the opponent's) or a player's number
        (runtime/kept_answers.py: an anchor, a piece of that list's player, is
        looked for on those sites alone)."""
        codes: dict[int, None] = {}
        for player, _local, _test, _rest in self.loops:
            if isinstance(player, ast.Name):
                codes[MINE if player.id == "p" else THEIRS] = None
            else:
                assert isinstance(player, ast.Constant) and type(player.value) is int
                codes[player.value] = None
        return tuple(codes)

    @property
    def memo(self) -> str:
        """The helper finding the listed position's answer."""
        if self.terms:
            return MEMO_TERMS_MASKED if self.helper == MASKED_MEMO else MEMO_TERMS
        return self.helper

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

            owner = pyast.compare(pyast.sub(piece, OWNER), "==", player)
            whole = isinstance(test, ast.Constant) and test.value is True  # (every piece of the owner's)
            tests.append(owner if whole else pyast.and_(owner, pyast.replace_nodes(test, on_piece, {})))
        return pyast.or_(*tests) if tests else None


def kept_arguments(kept: str, lists: Sequence[int], lone: bool = False) -> list[ast.expr]:
    """The arguments after the position of the call finding a kept answer
    (cases.ParentAnswer.kept: "None" for a part without loops, else its anchor
    function's name; `lists`: Plan.anchor_lists; `lone`: its anchors are of a
    kind no player has two of — runtime/kept_answers.py looks at a list that
    held one no more)."""
    if kept == "None":
        return [pyast.none()]
    lists_given = [pyast.name(kept), pyast.tuple_(*map(pyast.num, lists))]
    return lists_given + [pyast.true()] if lone else lists_given


def plan(lines: Sequence[ast.stmt], code: ast.expr, fresh: Callable[[str], str], bits: ast.expr,
         terms: Optional[Mapping[int, TermCall]] = None,
         term_rests: Optional[Mapping[int, Sequence[ast.stmt]]] = None,
         term_each: Optional[Mapping[int, ast.expr]] = None) -> Optional[Plan]:
    """The plan of the part `lines` + `code` (as restrictions.result_check makes
    them), or None where it reads more than the module's docstring allows.
    `fresh`: new names, for the bitmask of the sites read, the list of point
    tests asked and the point tests' functions; `bits`: the constant of each
    site's bit (0 for site -1, last), which a read ORs into the bitmask where
    it is made (no call per read, no list to turn into one). `terms`: the
    part's loops asked again alone (result_terms.py), by id, each as
    (its function's name, its inputs, the outputs it takes as inputs, its
    outputs); the recording then returns the sites read outside the terms
    as its second item and a fourth, (the sites the terms read, their runs:
    (the sites the run read, function, inputs, outputs)). `term_rests`: the
    assignments after a term's loop that are part of the term, by the loop's
    id (result_terms.Term.rest); `term_each`: the test telling whether an
    element passed, of a term recorded element by element (its runs' inputs
    the term's and the element, their output that test's value: Term.each)."""
    nodes = list(lines) + [pyast.expr_stmt(code)]
    loops = [n for n in pyast.walk_all(nodes)
             if isinstance(n, ast.For) and isinstance(n.iter, ast.Subscript) and pyast.is_name(n.iter.value, "o")]
    firsts = [n for n in pyast.walk_all(nodes) if _first_of_sites(n)]
    shapes: list[tuple[ast.expr, str, ast.expr, Optional[ast.expr]]] = []
    rests: dict[int, Optional[ast.expr]] = {}
    for loop in loops:
        shape = _loop_shape(loop)
        if shape is None:
            return None
        shapes.append(shape)
        rests[id(loop)] = shape[3]
    for call in firsts:
        assert isinstance(call, ast.Call) and isinstance(call.args[0], ast.Subscript)
        shapes.append((call.args[0].slice, "", pyast.true(), None))
    if not _reads_allowed(nodes, {id(loop.iter) for loop in loops} | {id(call.args[0]) for call in firsts}):  # type: ignore[attr-defined]
        return None
    variables = [n.slice for n in pyast.walk_all(nodes) if isinstance(n, ast.Subscript) and pyast.is_name(n.value, "v")]
    if variables and terms and any(pyast.uses([loop], "v") for loop in pyast.walk_all(nodes)
                                   if isinstance(loop, ast.For) and id(loop) in terms):
        return None  # (a term's function is given its inputs, not the variables)
    rr = pyast.name(fresh("t"))
    rt = pyast.name(fresh("t"))
    memo: dict[int, ast.AST] = {}
    truth = _truth_only(lines, code) if POINT_TESTS else set()
    emptied_once: dict[object, tuple[str, ast.expr]] = {}  # (what a point test gives on an empty site, by shape)
    ids = {id(loop) for loop in loops}
    tests: list[tuple[str, ast.expr]] = []
    after_loops = term_rests or {}
    term_calls = {}
    if TERMS and terms:
        # (the part's nodes by id, and the names it reads: asked of every term)
        by_id = {id(n): n for n in pyast.walk_all(nodes)}
        reads = tuple((i, n.id) for i, n in by_id.items() if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
        term_calls = {key: call for key, call in terms.items()
                      if _truth_valued(by_id, reads, key, call[3], truth, after_loops.get(key, ()))}
    # (the assignments recorded with their term's loop, left out where they stood)
    skipped = {id(stmt) for key in term_calls for stmt in after_loops.get(key, ())}
    # where reads are noted: the part's own, or a term's as it is recorded
    masks: dict[str, ast.Name] = {"read": rr}
    # (the sites the terms read, their runs: named only where there are terms)
    term_reads, runs = (pyast.name(fresh("t")), pyast.name(fresh("t"))) if term_calls else (rr, rt)
    used: list[int] = []
    noted_in: set[str] = set()  # (the bitmasks a read was noted in)
    # (the settled point tests of named sites: function, bitmasks of the sites where it
    # held and where it did not, what it gives on an empty site)
    masked: list[tuple[str, str, str, ast.expr]] = []
    masked_by_test: dict[str, tuple[str, str, str, ast.expr]] = {}  # (by the test's key)

    tried = _tried_paths(nodes) if PATH_BITS else {}
    bits_beside = _path_bits_beside(nodes, bits)
    # (by point test's function and what passing takes of it: the local of the sites where it does not)
    failing_masks: dict[tuple[str, bool], str] = {}
    finders: list[tuple[str, str, bool]] = []  # (Plan.finders)

    def recording(node: ast.AST) -> Optional[ast.AST]:
        if id(node) in skipped:
            return pyast.pass_()
        if id(node) in tried:
            assert isinstance(node, ast.For)
            return walked_by_bits(node)
        if id(node) in term_calls:
            assert isinstance(node, ast.For)
            return recorded_term(node)
        if id(node) in ids:
            assert isinstance(node, ast.For) and isinstance(node.body[0], ast.If) and isinstance(node.target, ast.Name)
            shape = next(shape for shape in shapes if shape[1] == node.target.id)
            noted = pyast.augment(rr, "|", pyast.sub(bits, pyast.name(node.target.id)))
            body = pyast.replace_in(node.body[0].body, recording, memo)
            rest = rests[id(node)]
            if rest is not None:  # (`if T and R:` as `if T: if R:`, R's reads recorded)
                body = [pyast.if_(pyast.replace_nodes(rest, recording, memo), body)]
            return pyast.for_(node.target, node.iter, [pyast.if_(shape[2], [noted] + body)])
        if id(node) in truth and isinstance(node, ast.expr) and (point := _point_test(node)) is not None:
            index, on_piece = point
            plain = _owner_and_kind_only(on_piece)
            # (what it gives on an empty site: an expression of the players and constants where plain)
            emptied = pyast.replace_nodes(on_piece, pyast.replacing(pyast.name(PIECE), pyast.none()), {}) \
                if plain else pyast.false()
            if plain and _safe_when_empty(on_piece):  # (worked out once, at the recording's start)
                known = emptied_once.get(pyast.key(emptied))
                if known is None:
                    known = emptied_once[pyast.key(emptied)] = (fresh("t"), emptied)
                emptied = pyast.name(known[0])
            if MASKED_TESTS and plain and isinstance(emptied, ast.Name) and _named_site(index):
                # (a settled test of a named site: its outcome noted as the site's bit in
                # one of two bitmasks, no tuple per site — runtime/point_masks.py; a test
                # asked again at other sites noted in the same two)
                same = masked_by_test.get(pyast.key(on_piece))
                if same is None:
                    function = fresh("f")
                    tests.append((function, on_piece))
                    same = masked_by_test[pyast.key(on_piece)] = (function, fresh("t"), fresh("t"), emptied)
                    masked.append(same)
                _, gave, failed, _ = same
                return pyast.ifexp(
                    pyast.compare(pyast.walrus(gave, pyast.binop(pyast.name(gave), "|", pyast.sub(bits, index))),
                                  ">=", pyast.num(0)),
                    node,
                    pyast.compare(pyast.walrus(failed, pyast.binop(pyast.name(failed), "|", pyast.sub(bits, index))),
                                  "<", pyast.num(0)))
            function = fresh("f")
            tests.append((function, on_piece))
            # `T` as `rt.append((site, test, (t := T), plain, emptied)) or t` (append gives None: T's value)
            held = fresh("t")
            note = pyast.tuple_(index, pyast.name(function), pyast.walrus(held, node),
                                pyast.true() if plain else pyast.false(), emptied)
            return pyast.or_(pyast.method(rt, "append", note), pyast.name(held))
        if isinstance(node, ast.Subscript) and pyast.is_name(node.value, "b") and isinstance(node.ctx, ast.Load):
            index = pyast.replace_nodes(node.slice, recording, memo)
            return pyast.sub(node.value, noted_read(index))
        if isinstance(node, ast.Call) and _first_of_sites(node):
            return noted_read(node)  # (an anchor: the site is read)
        return None

    def walked_by_bits(loop: ast.For) -> Optional[ast.stmt]:
        """The walk of a kept path (`_tried_paths`: `if not C: break` for each
        site) asked first without noting, where `not C` is a settled point test
        of the walk's site noted as bitmasks, or C a conjunction of such tests and
        of conjuncts that note nothing: where every site passes, each test gave
        at every site of the path what passing takes — noted at once by the
        path's bitmask — and the walk's `else` runs; where one does not, the walk
        is asked again as recorded (noting what it noted before). Where one test
        is noted and the other conjuncts read the site and constants alone, the
        walk itself is left out where no site of the path is one where the test
        would not let it pass (`_walk_skipped`). None (recorded as ever) where
        nothing is noted so."""
        test = loop.body[0]
        assert isinstance(test, ast.If) and isinstance(loop.target, ast.Name)
        site = loop.target.id
        whole = pyast.replace_nodes(test.test, recording, memo)
        notes: list[tuple[str, bool]] = []  # (the bitmask noted where a site passes, what the test gives there)
        plain: list[ast.expr] = []
        single = _noted_masks(whole, test.test, bits, site)
        if single is not None:  # (`not C` one point test: a site passes where it does not hold)
            notes.append((single[1], False))
        else:
            if not (isinstance(whole, ast.UnaryOp) and isinstance(whole.op, ast.Not)
                    and isinstance(test.test, ast.UnaryOp)):
                return None
            cond = test.test.operand
            for part in cond.values if isinstance(cond, ast.BoolOp) and isinstance(cond.op, ast.And) else [cond]:
                done = pyast.replace_nodes(part, recording, memo)  # (as recorded in `whole`: the memo)
                if done is part:
                    plain.append(part)
                    continue
                masks = _noted_masks(done, part, bits, site)
                if masks is None:
                    return None
                notes.append((masks[0], True))
        if not notes:
            return None
        orelse = pyast.replace_in(loop.orelse, recording, memo)
        recorded = pyast.for_(loop.target, loop.iter, [pyast.if_(whole, [pyast.break_()])], orelse)
        # (the path's bitmask kept beside it where its table keeps them: read by its start)
        table, start = tried[id(loop)]
        beside = bits_beside.get(table)
        path = pyast.sub(pyast.name(beside), copy.deepcopy(start)) if beside is not None \
            else pyast.helper(PATH_BITS_HELPER, copy.deepcopy(loop.iter), bits)
        noting = [pyast.assign(pyast.name(mask), pyast.binop(pyast.name(mask), "|", copy.deepcopy(path)))
                  for mask in dict.fromkeys(mask for mask, _ in notes)]
        walked = pyast.for_(copy.deepcopy(loop.target), copy.deepcopy(loop.iter),
                            [pyast.if_(copy.deepcopy(test.test), [recorded, pyast.break_()])],
                            noting + copy.deepcopy(orelse))
        if len(notes) != 1 or not all(_of_site_alone(part, site) for part in plain):
            return walked
        return _walk_skipped(notes[0], walked, path, orelse)

    def _walk_skipped(note: tuple[str, bool], walked: ast.stmt, path: ast.expr,
                      orelse: Sequence[ast.stmt]) -> ast.stmt:
        """`walked` left out where the one test noted lets every site of the path
        pass: it does so on an empty site, and no occupied site of the path is one
        where it does not (found once per recording from the site lists,
        `FAILING_HELPER`); the other conjuncts read the site and constants alone,
        and they held at every site of the path when it was kept (a search keeps
        only sites it went on from)."""
        mask, gives = note
        function, emptied = next((function, emptied) for function, held_at, failed_at, emptied in masked
                                 if (held_at if gives else failed_at) == mask)
        if not isinstance(emptied, ast.Name):
            return walked
        failing = failing_masks.setdefault((function, gives), fresh("t"))
        bitmask = fresh("t")
        if FAILING_INLINE:
            # (a function of its own for the test: no call of the test's function a piece)
            finder = next((name for name, test, holds in finders if (test, holds) == (function, gives)), None)
            if finder is None:
                finder = fresh("f")
                finders.append((finder, function, gives))
            finding = pyast.call(pyast.name(finder), *(pyast.name(n) for n in ("o", "b", "p", "q")))
        else:
            finding = pyast.helper(FAILING_HELPER, pyast.name("o"), pyast.name("b"), pyast.name(function),
                                   pyast.name("p"), pyast.name("q"), bits, pyast.true() if gives else pyast.false())
        found = pyast.ifexp(pyast.name(failing), pyast.compare(pyast.name(failing), ">=", pyast.num(0)),
                            pyast.walrus(failing, finding))
        # `if e and not ((m := path's bits) & failing): noted |= m; else: walked`
        empty = pyast.name(emptied.id) if gives else pyast.not_(pyast.name(emptied.id))
        clear = pyast.and_(empty, pyast.not_(pyast.binop(pyast.walrus(bitmask, copy.deepcopy(path)), "&", found)))
        return pyast.if_(clear, [pyast.assign(pyast.name(mask),
                                              pyast.binop(pyast.name(mask), "|", pyast.name(bitmask)))]
                         + copy.deepcopy(list(orelse)), [walked])

    def recorded_term(loop: ast.For) -> ast.stmt:
        """The term's loop recorded, its reads noted apart (its point tests as
        the part's) and its run noted: (sites read, function, inputs, outputs)."""
        function, inputs, captured, outputs = term_calls[id(loop)]
        if id(loop) in (term_each or {}):
            assert term_each is not None
            return recorded_elements(loop, function, inputs, term_each[id(loop)])
        reads = pyast.name(fresh("t"))
        outer = masks["read"]
        masks["read"] = reads
        body = pyast.replace_in(loop.body, recording, {})  # (its own rewriting: not shared with the part's)
        rest = after_loops.get(id(loop), ())
        skipped.difference_update(id(stmt) for stmt in rest)
        after = pyast.replace_in(rest, recording, {})
        skipped.update(id(stmt) for stmt in rest)
        masks["read"] = outer
        if reads.id not in noted_in:
            # (a term reading the board through point tests alone, noted as the part's, is
            # never asked again: no run to note, no function)
            return pyast.if_(pyast.true(), [pyast.for_(loop.target, loop.iter, body)])
        used.append(id(loop))
        stmts: list[ast.stmt] = [pyast.assign(reads, pyast.num(0))]
        args: ast.expr = pyast.tuple_(*(pyast.name(n) for n in inputs))
        if captured:  # (outputs' values before the loop: taken before it)
            taken = pyast.name(fresh("t"))
            stmts.append(pyast.assign(taken, pyast.tuple_(*(pyast.name(n) for n in (*inputs, *captured)))))
            args = taken
        stmts.append(pyast.for_(loop.target, loop.iter, body))
        stmts += after
        stmts.append(pyast.augment(term_reads, "|", reads))
        run = pyast.tuple_(reads, pyast.name(function), args, pyast.tuple_(*(pyast.name(n) for n in outputs)))
        stmts.append(pyast.expr_stmt(pyast.method(runs, "append", run)))
        return pyast.if_(pyast.true(), stmts)

    def recorded_elements(loop: ast.For, function: str, inputs: Sequence[str], test: ast.expr) -> ast.stmt:
        """An `exists` term recorded element by element (result_terms.Term.each):
        each element's reads noted apart and its run noted, (sites read,
        function, inputs and the element, whether it passed: `test`'s value,
        found once), before its last statement (`if test: out = True; break`)."""
        reads = pyast.name(fresh("t"))
        outer = masks["read"]
        masks["read"] = reads
        body = pyast.replace_in(loop.body[:-1], recording, {})
        passed = pyast.name(fresh("t"))
        body.append(pyast.assign(passed, pyast.replace_nodes(test, recording, {})))
        masks["read"] = outer
        assert isinstance(loop.target, ast.Name)
        last = loop.body[-1]
        assert isinstance(last, ast.If)
        args = pyast.tuple_(*(pyast.name(n) for n in (*inputs, loop.target.id)))
        run = pyast.tuple_(reads, pyast.name(function), args, pyast.tuple_(passed))
        element = [pyast.assign(reads, pyast.num(0)), *body, pyast.augment(term_reads, "|", reads),
                   pyast.expr_stmt(pyast.method(runs, "append", run)), pyast.if_(passed, last.body)]
        used.append(id(loop))
        return pyast.for_(loop.target, loop.iter, element)

    def noted_read(index: ast.expr) -> ast.expr:
        """`index`, its site's bit put in the bitmask of the sites read (the
        part's or the term's being recorded): `x if (rr := rr | bits[(x := index)]) else x`."""
        mask = masks["read"]
        noted_in.add(mask.id)
        at: ast.expr
        first: ast.expr
        if isinstance(index, ast.Name):  # (a name is read twice as cheaply)
            at = first = index
        else:
            site = fresh("t")
            at, first = pyast.name(site), pyast.walrus(site, index)
        noting = pyast.walrus(mask.id, pyast.binop(mask, "|", pyast.sub(bits, first)))
        return pyast.ifexp(at, noting, at)

    searches = pyast.names_in(nodes) & {KEEPS_PATH}
    # (a part with terms: its search asked first unrecorded, its point tests noted one
    # by one — a term's body is recorded apart, by `recording` alone)
    kept = fresh("t") if searches and ONE_SEARCH and not term_calls and _keeps_as_statements(nodes) else ""

    def keeping(node: ast.AST) -> Optional[ast.AST]:
        if kept and isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and pyast.is_name(node.value.func, KEEPS_PATH):  # (`kept = h_keep_path(...) or True`)
            return pyast.assign(pyast.name(kept), pyast.or_(node.value, pyast.true()))
        return recording(node)

    # (a search keeping its path: asked first to keep one, then recorded reading it)
    record = list(lines) + [pyast.expr_stmt(code)] if searches and not kept else []
    recorded = pyast.replace_in(lines, keeping, memo)
    answer = pyast.replace_nodes(code, recording, memo)
    record += [pyast.assign(pyast.name(local), value) for local, value in emptied_once.values()]
    start = [pyast.assign(rr, pyast.num(0)), pyast.assign(rt, pyast.list_())]
    failing_unknown = [pyast.assign(pyast.name(local), pyast.num(-1)) for local in failing_masks.values()]
    start += [pyast.assign(pyast.name(mask), pyast.num(0)) for _, gave, failed, _ in masked for mask in (gave, failed)]
    if used:
        start += [pyast.assign(term_reads, pyast.num(0)), pyast.assign(runs, pyast.list_())]
    if kept:
        # (recorded at once: where its search found a path and kept it, reading more than
        # that path, it is recorded again, reading the path now kept)
        # (the sites where a kept path's test fails are the board's: found by the first
        # recording, they hold for the second, which a search's keeping does not change)
        found = pyast.name(fresh("t"))
        run = start + recorded + [pyast.assign(found, answer)]
        record += [pyast.assign(pyast.name(kept), pyast.false())] + failing_unknown + run \
            + [pyast.if_(pyast.name(kept), run)]
        answer = found
    else:
        record += failing_unknown + start + recorded
    noted_masks = [pyast.tuple_(*(pyast.tuple_(pyast.name(function), pyast.name(gave), pyast.name(failed), emptied)
                                  for function, gave, failed, emptied in masked))] if masked else []
    helper = MASKED_MEMO if masked else MEMO
    if used:  # (terms: no search recorded at once; the terms' reads and runs last)
        assert not kept
        record.append(pyast.return_(pyast.tuple_(answer, rr, rt, *noted_masks, pyast.tuple_(term_reads, runs))))
        return Plan(record, shapes, tests, used, helper=helper, variables=variables, keeps_path=bool(searches),
                    finders=finders)
    record.append(pyast.return_(pyast.tuple_(answer, rr, rt, *noted_masks)))
    return Plan(record, shapes, tests, helper=helper, variables=variables, keeps_path=bool(searches), finders=finders)


FINDER_PARAMS = ("o", "b", "p", "q")


def failing_finder(test: ast.expr, gives: bool, bits: ast.expr, fresh: Callable[[str], str],
                   neutral_kinds: frozenset[int] = frozenset()) -> list[ast.stmt]:
    """The body of `f(o, b, p, q)` (FINDER_PARAMS), a `Plan.finders` entry: the bitmask
    of the occupied sites (`o`'s lists) where the point test `test` (of `pc`, `p`,
    `q`) gives otherwise than `gives` as a truth value — what FAILING_HELPER gives,
    its test's expression asked in the loop instead of its function called a piece.
    Where it fails only for a kind whose pieces are always neutral (`neutral_kinds`),
    the loop walks the neutral pieces' sites alone (owned_sites.neutral_kind_asked)."""
    mask, sites, site = fresh("t"), fresh("t"), fresh("i")
    # (asked for its truth alone: `not X` failing where X holds)
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    asked = copy.deepcopy(test.operand if isinstance(test, ast.UnaryOp) and negated else test)
    fails = asked if gives is negated else pyast.not_(asked)
    added = pyast.binop(pyast.name(mask), "|", pyast.sub(copy.deepcopy(bits), pyast.name(site)))
    body: list[ast.stmt] = [
        pyast.assign(pyast.name(PIECE), pyast.sub(pyast.name("b"), pyast.name(site))),
        pyast.if_(fails, [pyast.assign(pyast.name(mask), added)]),
    ]
    walked = pyast.for_(pyast.name(site), owned_sites.neutral_sites(), body) \
        if owned_sites.neutral_kind_asked(fails, lambda read: pyast.is_name(read, PIECE), neutral_kinds) \
        else pyast.for_(pyast.name(sites), pyast.name("o"), [pyast.for_(pyast.name(site), pyast.name(sites), body)])
    return [pyast.assign(pyast.name(mask), pyast.num(0)), walked, pyast.return_(pyast.name(mask))]


def _path_bits_beside(nodes: Sequence[ast.AST], bits: ast.expr) -> dict[str, str]:
    """By table of kept paths (the first and fifth arguments of a `h_keep_path`
    call), the table of their bitmasks by start kept beside it (the call's
    `bits_beside`, expr_connected.witnessed_loop: a tuple of the two tables' names and
    the sites' bits), where the bits are `bits` and every call keeping paths in
    the table keeps their bitmasks there."""
    beside: dict[str, Optional[str]] = {}
    for node in pyast.walk_all(nodes):
        if not (isinstance(node, ast.Call) and pyast.is_name(node.func, KEEPS_PATH)):
            continue
        rests = node.args[6] if len(node.args) == 7 else None
        names = [name.id for name in rests.elts if isinstance(name, ast.Name)] if isinstance(rests, ast.Tuple) else []
        kept = names if len(names) == 3 and pyast.same(rests.elts[2], bits) else None  # type: ignore[union-attr]
        for index, table in ((0, 0), (4, 1)):
            paths = node.args[index] if len(node.args) > index else None
            if isinstance(paths, ast.Name):
                mask = kept[table] if kept is not None else None
                beside[paths.id] = mask if beside.get(paths.id, mask) == mask else None
    return {table: mask for table, mask in beside.items() if mask is not None}


def _tried_paths(nodes: Sequence[ast.AST]) -> dict[int, tuple[str, ast.expr]]:
    """The loops (by id) walking a search's kept path (expr_connected.witnessed_loop:
    `v = PATHS[start]`, then `if v is not None: for site in v: if not C: break`
    with an `else`), PATHS the first argument of a `h_keep_path` call or its
    fifth, the paths kept before (a search outside a listing tries both): a
    tuple of sites, never changed. Each with PATHS and `start`, where `start`
    is a name or a constant (it reads as the same site right after)."""
    tables = {table.id for node in pyast.walk_all(nodes)
              if isinstance(node, ast.Call) and pyast.is_name(node.func, KEEPS_PATH)
              for table in node.args[0:5:4] if isinstance(table, ast.Name)}
    found: dict[int, tuple[str, ast.expr]] = {}
    blocks = [list(nodes)] + [block for node in pyast.walk_all(nodes)
                              for block in (getattr(node, "body", None), getattr(node, "orelse", None))
                              if isinstance(block, list)]
    for block in blocks:
        for first, then in zip(block, block[1:]):
            if not (isinstance(first, ast.Assign) and len(first.targets) == 1
                    and isinstance(first.targets[0], ast.Name) and isinstance(first.value, ast.Subscript)
                    and isinstance(first.value.value, ast.Name) and first.value.value.id in tables):
                continue
            kept = first.targets[0].id
            if not (isinstance(then, ast.If) and isinstance(then.test, ast.Compare)
                    and pyast.is_name(then.test.left, kept) and len(then.test.ops) == 1
                    and isinstance(then.test.ops[0], ast.IsNot) and isinstance(then.test.comparators[0], ast.Constant)
                    and then.test.comparators[0].value is None and len(then.body) == 1):
                continue
            loop = then.body[0]
            if isinstance(loop, ast.For) and pyast.is_name(loop.iter, kept) and isinstance(loop.target, ast.Name) \
                    and loop.orelse and len(loop.body) == 1 and isinstance(loop.body[0], ast.If) \
                    and isinstance(loop.body[0].test, ast.UnaryOp) and isinstance(loop.body[0].test.op, ast.Not) \
                    and not loop.body[0].orelse and len(loop.body[0].body) == 1 \
                    and isinstance(loop.body[0].body[0], ast.Break) \
                    and not pyast.assigns([loop.body[0].test], kept) \
                    and (isinstance(first.value.slice, ast.Constant) or isinstance(first.value.slice, ast.Name)
                         and not pyast.assigns([loop], first.value.slice.id)):
                found[id(loop)] = (first.value.value.id, first.value.slice)
    return found


def _of_site_alone(node: ast.expr, site: str) -> bool:
    """Whether `node` reads nothing but the name `site` and constants."""
    return all(n == site or CONSTANT_NAME.fullmatch(n) for n in pyast.names_in([pyast.expr_stmt(node)]))


def _noted_masks(done: ast.expr, part: ast.expr, bits: ast.expr, site: str) -> Optional[tuple[str, str]]:
    """The bitmasks `done` notes `part` in, where it holds and where it does not,
    where `done` is `part` as a settled point test of the site `site` noted as
    bitmasks (`(h := h | bits[site]) >= 0 if part else (u := u | bits[site]) < 0`);
    else None."""
    if not (isinstance(done, ast.IfExp) and done.test is part):
        return None
    found = []
    for side, op in ((done.body, ast.GtE), (done.orelse, ast.Lt)):
        if not (isinstance(side, ast.Compare) and len(side.ops) == 1 and isinstance(side.ops[0], op)):
            return None
        noted = side.left
        if not (isinstance(noted, ast.NamedExpr) and isinstance(noted.value, ast.BinOp)
                and isinstance(noted.value.op, ast.BitOr) and pyast.is_name(noted.value.left, noted.target.id)
                and isinstance(noted.value.right, ast.Subscript) and pyast.same(noted.value.right.value, bits)
                and pyast.is_name(noted.value.right.slice, site)):
            return None
        found.append(noted.target.id)
    return found[0], found[1]


def _truth_valued(by_id: dict[int, ast.AST], reads: Sequence[tuple[int, str]], loop: int, outputs: Sequence[str],
                  truth: set[int], rest: Sequence[ast.stmt] = ()) -> bool:
    """Whether the outputs of the term whose loop has the id `loop` (with the
    assignments `rest` after it) are read outside it only as truth values
    (`_truth_only`): a truth value a move rarely changes, where a site (the
    first piece along a line) changes with every move across it, and the term
    would be asked again in vain. (`by_id`: the part's nodes by id; `reads`: the
    ids and names of the names it reads.)"""
    node = by_id.get(loop)
    if node is None:
        return False
    inside = {id(n) for n in pyast.walk_all([node, *rest])}
    names = set(outputs)
    return all(i in truth for i, name in reads if name in names and i not in inside)


def _keeps_as_statements(nodes: Sequence[ast.AST]) -> bool:
    """Whether every call keeping a search's path is a statement of its own."""
    calls = [n for n in pyast.walk_all(nodes) if isinstance(n, ast.Call) and pyast.is_name(n.func, KEEPS_PATH)]
    alone = {id(n.value) for n in pyast.walk_all(nodes) if isinstance(n, ast.Expr)}
    return all(id(call) in alone for call in calls)


def _truth_only(lines: Sequence[ast.stmt], code: ast.expr) -> set[int]:
    """The expressions of the part (by id) whose value goes nowhere but into
    truth values: an `if` test, the operand of `not`, an operand of `and`/`or` or
    a branch of `X if T else Y` whose value is one, a local assigned by `t = E`
    alone and read only as one, the part's answer. A point test there stands for
    its outcome (the module's docstring): the same outcome takes the same branches.
    An expression shared by several places counts where every place is one."""
    stored = [n for n in pyast.walk_all(lines) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    plain = {id(s.targets[0]) for s in pyast.walk_all(lines)
             if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)}
    truth_locals = {n.id for n in stored} - {n.id for n in stored if id(n) not in plain}
    while True:
        total: dict[int, int] = {}
        in_truth: dict[int, int] = {}
        valued: set[str] = set()  # (the locals read for their value somewhere)

        def expression(node: ast.expr, truth: bool) -> None:
            total[id(node)] = total.get(id(node), 0) + 1
            if truth:
                in_truth[id(node)] = in_truth.get(id(node), 0) + 1
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                valued.add(node.id)
            if isinstance(node, ast.BoolOp):
                for value in node.values:
                    expression(value, truth)
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                expression(node.operand, True)
            elif isinstance(node, ast.IfExp):
                expression(node.test, True)
                expression(node.body, truth)
                expression(node.orelse, truth)
            else:
                for child in pyast.child_nodes(node):
                    expression(child, False) if isinstance(child, ast.expr) else other(child)

        def other(node: ast.AST) -> None:
            for child in pyast.walk_in_order(node):
                if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                    valued.add(child.id)

        def statements(block: Sequence[ast.stmt]) -> None:
            for stmt in block:
                if isinstance(stmt, (ast.If, ast.While)):
                    expression(stmt.test, True)
                    statements(stmt.body)
                    statements(stmt.orelse)
                elif isinstance(stmt, ast.For):
                    expression(stmt.iter, False)
                    statements(stmt.body)
                    statements(stmt.orelse)
                elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    expression(stmt.value, stmt.targets[0].id in truth_locals)
                elif isinstance(stmt, (ast.Expr, ast.Return)) and stmt.value is not None:
                    expression(stmt.value, False)
                else:
                    other(stmt)

        statements(lines)
        expression(code, True)
        if not truth_locals & valued:
            return {key for key, count in total.items() if in_truth.get(key) == count}
        truth_locals -= valued


def _point_test(test: ast.expr) -> Optional[tuple[ast.expr, ast.expr]]:
    """(the index Y, the test with `pc` for `b[Y]`) when `test` reads the board
    at one index alone and nothing else but the players and constants (a point
    test: the module's docstring), else None."""
    reads = [n for n in pyast.walk_in_order(test) if isinstance(n, ast.Subscript) and pyast.is_name(n.value, "b")]
    if not POINT_TESTS or not reads or pyast.uses([test], "b") != len(reads):
        return None
    index = reads[0].slice
    if isinstance(index, ast.Slice) or not _reads_plainly(index) or pyast.uses([index], "b") \
            or any(pyast.key(n.slice) != pyast.key(index) or not isinstance(n.ctx, ast.Load) for n in reads):
        return None

    def as_piece(node: ast.AST) -> Optional[ast.AST]:
        if isinstance(node, ast.Subscript) and pyast.is_name(node.value, "b"):
            return pyast.name(PIECE)
        return None

    on_piece = pyast.replace_nodes(test, as_piece, {})
    if not any(isinstance(n, ast.Subscript) and pyast.uses([n.value], PIECE) for n in pyast.walk_in_order(on_piece)):
        return None  # (whether a site is empty: a move changes it wherever it writes; a read of the site)
    for node in pyast.walk_in_order(on_piece):
        if isinstance(node, ast.Name):
            if not (node.id == PIECE or node.id in PLAYERS or CONSTANT_NAME.fullmatch(node.id)):
                return None
        elif isinstance(node, (ast.Call, ast.NamedExpr, ast.Lambda, ast.comprehension)):
            return None
    return index, on_piece


def _named_site(index: ast.expr) -> bool:
    """Whether the site `index` is a name or a constant table's entry by a name
    (`k10[i0]`: a site the loop's anchor names) — read again as cheaply, and
    failing nowhere the test it stands in would not."""
    return isinstance(index, ast.Name) or isinstance(index, ast.Subscript) and isinstance(index.value, ast.Name) \
        and CONSTANT_NAME.fullmatch(index.value.id) is not None and isinstance(index.slice, ast.Name)


def _safe_when_empty(test: ast.expr) -> bool:
    """Whether the point test `test` reads its piece (`pc`) only as `(pc or K)`
    (K a constant: the empty piece) or `pc is None`: with no piece, it reads the
    players and constants alone, which hold from the recording's start."""
    safe = 0
    for node in pyast.walk_in_order(test):
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) == 2 \
                and pyast.is_name(node.values[0], PIECE) and isinstance(node.values[1], ast.Name) \
                and CONSTANT_NAME.fullmatch(node.values[1].id):
            safe += 1
        elif isinstance(node, ast.Compare) and pyast.is_name(node.left, PIECE) and len(node.ops) == 1 \
                and isinstance(node.ops[0], (ast.Is, ast.IsNot)) \
                and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None:
            safe += 1
    return safe == pyast.uses([test], PIECE)


def _owner_and_kind_only(test: ast.expr) -> bool:
    """Whether the point test `test` reads its piece (`pc`) only as its owner and
    kind (`pc[f]`, `(pc or K)[f]`) or whether there is one (`pc is None`)."""
    allowed = 0
    for node in pyast.walk_in_order(test):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and node.slice.value in (OWNER, KIND):
            inner = node.value
            if isinstance(inner, ast.BoolOp) and isinstance(inner.op, ast.Or) and len(inner.values) == 2 \
                    and isinstance(inner.values[1], ast.Name) and CONSTANT_NAME.fullmatch(inner.values[1].id):
                inner = inner.values[0]
            allowed += pyast.is_name(inner, PIECE)
        elif isinstance(node, ast.Compare) and pyast.is_name(node.left, PIECE) and len(node.ops) == 1 \
                and isinstance(node.ops[0], (ast.Is, ast.IsNot)) \
                and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None:
            allowed += 1
    return allowed == pyast.uses([test], PIECE)


def _first_of_sites(node: ast.AST) -> bool:
    """`h_first(o[X])`, X the player, the opponent or a player's number."""
    if not (isinstance(node, ast.Call) and pyast.is_name(node.func, "h_first") and len(node.args) == 1):
        return False
    sites = node.args[0]
    return isinstance(sites, ast.Subscript) and pyast.is_name(sites.value, "o") \
        and (isinstance(sites.slice, ast.Name) and sites.slice.id in PLAYERS
             or isinstance(sites.slice, ast.Constant) and type(sites.slice.value) is int)


def _loop_shape(loop: ast.For) -> Optional[tuple[ast.expr, str, ast.expr, Optional[ast.expr]]]:
    """(player register, site local, test T, the rest of the loop's test or None)
    of the loop `for i in o[X]: if T and ...: ...` when T (at least the first
    operand of an `and`) reads nothing but the site and its piece, else None."""
    if not (isinstance(loop.target, ast.Name) and OWN_LOCAL.fullmatch(loop.target.id)
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
    return loop.iter.slice, site, anchor, rest


def _of_the_piece(test: ast.expr, site: str) -> bool:
    """Whether `test` reads nothing but the site `site` and the piece on it (`b[site]`)."""
    for node in pyast.walk_in_order(test):
        if isinstance(node, ast.Name):
            if not (node.id in ("b", site) or node.id in PLAYERS or CONSTANT_NAME.fullmatch(node.id)):
                return False
        elif isinstance(node, (ast.Call, ast.NamedExpr, ast.Lambda, ast.comprehension)):
            return False
    piece_reads = [n for n in pyast.walk_in_order(test) if isinstance(n, ast.Subscript) and pyast.is_name(n.value, "b")]
    return pyast.uses([test], "b") == len(piece_reads) and all(pyast.is_name(n.slice, site) for n in piece_reads)


def _reads_allowed(nodes: list[ast.stmt], lists: set[int]) -> bool:
    """Whether `nodes` read the position only through `b[E]`, the site lists
    `lists` (`o[X]` by id: those of the anchors) and the variables at indices of
    the players and constants (`v[E]`), and nothing of the case or the listing."""
    own = {n.id for n in pyast.walk_all(nodes) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    if not all(OWN_LOCAL.fullmatch(name) for name in own):
        return False
    board_reads = 0
    variable_reads = 0
    loop_iters = set()
    for node in pyast.walk_all(nodes):
        if id(node) in lists:
            assert isinstance(node, ast.Subscript)
            loop_iters.add(id(node.value))
        if isinstance(node, ast.Subscript) and pyast.is_name(node.value, "b"):
            if not isinstance(node.ctx, ast.Load) or isinstance(node.slice, ast.Slice):
                return False
            board_reads += 1
        elif isinstance(node, ast.Subscript) and pyast.is_name(node.value, "v"):
            if not isinstance(node.ctx, ast.Load) or not _of_players(node.slice):
                return False
            variable_reads += 1
        elif isinstance(node, ast.Call) and not _pure_call(node):
            return False
        elif isinstance(node, (ast.Lambda, ast.FunctionDef)):
            return False
        elif isinstance(node, ast.Name):
            if node.id in ("b", "v") or node.id == "o" and id(node) in loop_iters:
                continue
            if not (node.id in own or node.id in PLAYERS or CONSTANT_NAME.fullmatch(node.id)
                    or node.id in BUILTIN_NAMES or node.id in PURE_HELPERS):
                return False
    return pyast.uses(nodes, "b") == board_reads and pyast.uses(nodes, "v") == variable_reads


def _of_players(index: ast.expr) -> bool:
    """Whether `index` reads nothing but the players and numbers (an index worked
    out for each player when compiling: `0 + p`, `2`)."""
    return all(isinstance(node, (ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop, ast.Constant, ast.expr_context))
               or isinstance(node, ast.Name) and node.id in PLAYERS for node in pyast.walk(index))


def variables_written(stmts: Sequence[ast.stmt]) -> Optional[list[tuple[ast.expr, list[tuple[ast.expr, bool]]]]]:
    """The variables `stmts` may write (`v[E] = V`, `v[E] op= V`, E of the players
    and numbers alone), each as (E, the tests of the `if`s it stands under, each
    with whether its body (True) or its `else` (False) holds it), or None where it
    cannot be told: a variable written at another index, the variables given to a
    call, the players set again."""
    if any(isinstance(node, ast.Name) and node.id in PLAYERS and isinstance(node.ctx, ast.Store)
           for node in pyast.walk_all(stmts)):
        return None
    if pyast.uses(stmts, "v") != sum(1 for node in pyast.walk_all(stmts)
                                     if isinstance(node, ast.Subscript) and pyast.is_name(node.value, "v")):
        return None
    written: list[tuple[ast.expr, list[tuple[ast.expr, bool]]]] = []

    def block(code: Sequence[ast.stmt], guards: list[tuple[ast.expr, bool]]) -> bool:
        for stmt in code:
            if isinstance(stmt, ast.If):
                if not (block(stmt.body, guards + [(stmt.test, True)])
                        and block(stmt.orelse, guards + [(stmt.test, False)])):
                    return False
                continue
            for node in pyast.walk_all([stmt]):
                if isinstance(node, ast.Subscript) and pyast.is_name(node.value, "v") \
                        and isinstance(node.ctx, ast.Store):
                    if not _of_players(node.slice):
                        return False
                    written.append((node.slice, guards))  # (under a loop, a `try`...: the `if`s around it)
        return True

    return written if block(stmts, []) else None


def _pure_call(node: ast.Call) -> bool:
    """A call that reads no more than its arguments: a builtin, a helper that
    changes nothing, a method of a constant or of an own local."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in BUILTIN_NAMES or func.id in PURE_HELPERS
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
        and (CONSTANT_NAME.fullmatch(func.value.id) is not None or OWN_LOCAL.fullmatch(func.value.id) is not None)


# ---------------------------------------------------------------- before the case
# The fixed places a move writes, and the local standing for one of them at first.
FIXED = ("frm", "to")
MOVER = "pc"


def writes_of_mover(stmts: Sequence[ast.stmt]) -> Optional[list[ast.expr]]:
    """For the code of a move (`pc`, the piece on `frm`, goes to `to`): the
    tests of the moving piece's owner and kind under which it may write the
    board elsewhere than at `frm` and `to`, or put there anything but nothing or
    a piece of the mover's owner and kind (each test reads `pc` as it stood
    before the code: false for the moving piece means those writes cannot
    happen) — or None when that cannot be told from the code, or when it may
    fail or call anything but the site lists' changes. With every test false,
    the code writes the board at `frm` and `to` alone, the mover's owner and
    kind or nothing: a check can answer before playing it."""
    found = _mover_writes(stmts)
    return None if found is None or found[1].kinds else found[0]


def promotion_of_mover(stmts: Sequence[ast.stmt]) -> Optional[tuple[list[ast.expr], int]]:
    """For the code of a move that puts a piece of the mover's owner and of
    one other kind K at `to` (a promotion: `(x[OWNER], K) + x[2:]`, x the
    mover): the tests as `writes_of_mover` gives them and K, where with those
    tests false every way through the code leaves `frm` empty and such a piece
    at `to`, and writes no other kind at either place; else None."""
    found = _mover_writes(stmts)
    if found is None:
        return None
    guards, after = found
    if len(after.kinds) != 1 or dict(after.placed) != {"frm": False, "to": Promoted(next(iter(after.kinds)))}:
        return None
    return guards, next(iter(after.kinds))


def places_after_mover(stmts: Sequence[ast.stmt]) -> Optional[dict[str, Placed]]:
    """For the code of a move that `writes_of_mover` (or `promotion_of_mover`)
    can tell, with its tests false: what it leaves at `frm` and `to` by place
    — True a piece of the mover's owner and kind, False nothing, None what was
    there, Promoted(K) a piece of the mover's owner and the kind K — where every
    way through the code leaves the same; else the place is missing."""
    found = _mover_writes(stmts)
    if found is None:
        return None
    return {place: what for place, what in found[1].placed}


def leaves_mover_at_to(stmts: Sequence[ast.stmt]) -> bool:
    """Whether the code of a move (as `writes_of_mover` tells it, under no test
    of the moving piece) always leaves `frm` empty, the mover — a piece of its
    owner and kind — at `to`, and `at` standing for `to`."""
    found = _mover_writes(stmts)
    if found is None:
        return False
    guards, after = found
    return not guards and not after.kinds and after.at == "to" and dict(after.placed) == {"frm": False, "to": True}


def _mover_writes(stmts: Sequence[ast.stmt]) -> Optional[tuple[list[ast.expr], _MoverState]]:
    guards: list[ast.expr] = []
    fixed = frozenset(name for name in (*FIXED, *PLAYERS) if not pyast.assigns(stmts, name))
    state = _MoverState(frozenset({MOVER}), "frm", fixed, (("frm", None), ("to", None)))
    after = _block(stmts, state, guards)
    return None if after is None else (guards, after)


@dataclass(frozen=True)
class Promoted:
    """A piece of the mover's owner and of the kind `kind` (not the mover's)."""
    kind: int


# What a move's code leaves at a place (places_after_mover).
Placed = Optional[object]  # (True, False, None or a Promoted)


@dataclass(frozen=True)
class _MoverState:
    movers: frozenset[str]  # the locals holding a piece of the mover's owner and kind
    at: Optional[str]  # which fixed place `at` stands for, or None
    fixed: frozenset[str]  # the registers the code never sets (`frm`, `to`, the players)
    # what the code has left at each fixed place as far as told (places_after_mover)
    placed: tuple[tuple[str, Placed], ...] = ()
    # the locals holding a piece of the mover's owner and another kind, with it
    promoted: tuple[tuple[str, int], ...] = ()
    # the kinds but the mover's that a way through the code may put at a fixed place
    kinds: frozenset[int] = frozenset()

    def putting(self, place: str, what: Placed) -> tuple[tuple[str, Placed], ...]:
        return tuple(pair for pair in self.placed if pair[0] != place) + ((place, what),)

    def without(self, names: set[str]) -> tuple[tuple[str, int], ...]:
        return tuple(pair for pair in self.promoted if pair[0] not in names)


def _merged(state: _MoverState, *ways: _MoverState) -> tuple[tuple[str, Placed], ...]:
    """The places every way leaves alike (`state`'s order)."""
    return tuple(pair for pair in state.placed if all(pair in way.placed for way in ways))


def _block(stmts: Sequence[ast.stmt], state: _MoverState, guards: list[ast.expr]) -> Optional[_MoverState]:
    for stmt in stmts:
        after = _statement(stmt, state, guards)
        if after is None:
            return None
        state = after
    return state


def _statement(stmt: ast.stmt, state: _MoverState, guards: list[ast.expr]) -> Optional[_MoverState]:
    if isinstance(stmt, ast.If):
        if not _reads_plainly(stmt.test):
            return None
        decided = _decided(stmt.test, state)
        if decided is not None:  # (the other branch never runs)
            return _block(stmt.body if decided else stmt.orelse, state, guards)
        guard = _mover_test(stmt.test, state)
        if guard is not None and not stmt.orelse:
            # (its body may do anything: the check answers before the case only when
            # the test fails, and then the body does nothing)
            if _block(stmt.body, state, []) is None:
                guards.append(guard)
                return state
        body = _block(stmt.body, state, guards)
        orelse = _block(stmt.orelse, state, guards)
        if body is None or orelse is None:
            return None
        return _MoverState(body.movers & orelse.movers, body.at if body.at == orelse.at else None, state.fixed,
                           _merged(body, orelse), tuple(set(body.promoted) & set(orelse.promoted)),
                           body.kinds | orelse.kinds)
    if isinstance(stmt, ast.For):
        if not _reads_plainly(stmt.iter):
            return None
        loop = _killed(state, [stmt])
        after = _block(stmt.body, loop, guards)
        if after is None or stmt.orelse:
            return None
        return _MoverState(loop.movers, loop.at, loop.fixed, _merged(loop, after), loop.promoted,
                           loop.kinds | after.kinds)
    if isinstance(stmt, ast.Assign):
        if not _reads_plainly(stmt.value):
            return None
        value = _piece_of(stmt.value, state)
        movers = set(state.movers)
        at = state.at
        placed = state.placed
        promoted = dict(state.promoted)
        kinds = state.kinds
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                movers.discard(target.id)
                promoted.pop(target.id, None)
                if value is True:
                    movers.add(target.id)
                elif isinstance(value, Promoted):
                    promoted[target.id] = value.kind
                if target.id == "at":
                    at = _fixed(stmt.value, state)
            elif isinstance(target, ast.Subscript) and pyast.is_name(target.value, "b"):
                place = _fixed(target.slice, state)
                if place is None:
                    return None
                if value is None and not (isinstance(stmt.value, ast.Constant) and stmt.value.value is None):
                    return None
                placed = _MoverState(state.movers, at, state.fixed, placed).putting(
                    place, False if value is None else value)
                if isinstance(value, Promoted):
                    kinds = kinds | {value.kind}
            elif isinstance(target, ast.Subscript) and pyast.is_name(target.value, "v"):
                pass
            elif isinstance(target, ast.Attribute) and pyast.is_name(target.value, "s"):
                pass
            else:
                return None
        return _MoverState(frozenset(movers), at, state.fixed, placed, tuple(promoted.items()), kinds)
    if isinstance(stmt, ast.AugAssign):
        if isinstance(stmt.target, ast.Subscript) and pyast.is_name(stmt.target.value, "v") \
                and _reads_plainly(stmt.value):
            return state
        return None
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in ("append", "remove") \
                and isinstance(func.value, ast.Subscript) and pyast.is_name(func.value.value, "o") \
                and all(_reads_plainly(a) for a in call.args):
            return state  # (a site list kept with the board)
        if isinstance(func, ast.Name) and func.id == "h_clear" and len(call.args) == 3 \
                and (place := _fixed(call.args[2], state)) is not None:
            return _MoverState(state.movers, state.at, state.fixed, state.putting(place, False), state.promoted,
                               state.kinds)
        return None
    if isinstance(stmt, (ast.Pass, ast.Break, ast.Continue)):
        return state
    return None


def _killed(state: _MoverState, stmts: Sequence[ast.stmt]) -> _MoverState:
    """`state` with the locals `stmts` may set no longer known."""
    assigned = {n.id for n in pyast.walk_all(stmts) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return _MoverState(state.movers - assigned, None if "at" in assigned else state.at, state.fixed, state.placed,
                       state.without(assigned), state.kinds)


def _fixed(index: ast.expr, state: _MoverState) -> Optional[str]:
    if isinstance(index, ast.Name):
        if index.id in FIXED and index.id in state.fixed:
            return index.id
        if index.id == "at":
            return state.at
    return None


def _piece_of(value: ast.expr, state: _MoverState) -> Placed:
    """What `value` holds as far as told: True a piece of the mover's owner
    and kind (a local holding one, a tuple starting with one's owner and kind,
    a fixed place the code has put one at), Promoted(K) one of the mover's
    owner and the kind K (likewise, or `(M[OWNER], K) + M[2:]` — the piece
    a promotion writes — and `(M[OWNER], K)`, M holding such a piece), else None."""
    if isinstance(value, ast.Name):
        if value.id in state.movers:
            return True
        kind = dict(state.promoted).get(value.id)
        return None if kind is None else Promoted(kind)
    if isinstance(value, ast.Subscript) and pyast.is_name(value.value, "b"):
        place = _fixed(value.slice, state)
        what = dict(state.placed).get(place) if place is not None else None
        return what if what is True or isinstance(what, Promoted) else None
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add) and isinstance(value.right, ast.Subscript) \
            and _piece_of(value.right.value, state) is not None and isinstance(value.right.slice, ast.Slice) \
            and value.right.slice.step is None and value.right.slice.upper is None \
            and isinstance(value.right.slice.lower, ast.Constant) and value.right.slice.lower.value == 2:
        value = value.left  # (the rest of a piece of the mover's owner: its owner and kind decide)
        if not (isinstance(value, ast.Tuple) and len(value.elts) == 2):
            return None
    if isinstance(value, ast.Tuple) and len(value.elts) >= 2:
        owner_read, kind_read = value.elts[:2]
        if not _field_of_mover(owner_read, OWNER, state):
            return None
        if _field_of_mover(kind_read, KIND, state):
            return True
        if len(value.elts) == 2 and isinstance(kind_read, ast.Constant) and type(kind_read.value) is int:
            return Promoted(kind_read.value)
    return None


def _field_of_mover(value: ast.expr, field: int, state: _MoverState) -> bool:
    """Whether `value` is `M[field]`, M a local holding a piece of the mover's
    owner and kind (or, for the owner, of the mover's owner and another kind)."""
    return isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) \
        and isinstance(value.slice, ast.Constant) and value.slice.value == field \
        and (value.value.id in state.movers or field == OWNER and value.value.id in dict(state.promoted))


def _decided(test: ast.expr, state: _MoverState) -> Optional[bool]:
    """What `test` gives whatever the position, where told: a local holding a
    piece (`_piece_of`) is not None; a fixed place or `at` standing for one
    equals itself."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(right, ast.Constant) and right.value is None \
            and isinstance(left, ast.Name) and _piece_of(left, state) is not None:
        return isinstance(op, ast.IsNot)
    if isinstance(op, ast.Eq) and isinstance(left, ast.Name) and isinstance(right, ast.Name) \
            and left.id == right.id and _fixed(left, state) is not None:
        return True
    return None


def _mover_test(test: ast.expr, state: _MoverState) -> Optional[ast.expr]:
    """`test` as asked before the code (the moving piece as it stood: `pc`),
    when it reads nothing but the owner and kind of locals holding the mover's,
    the registers the code never sets and constants."""
    fields = (OWNER, KIND)
    for node in pyast.walk_in_order(test):
        if isinstance(node, ast.Name):
            if not (node.id in state.movers or CONSTANT_NAME.fullmatch(node.id) or node.id in state.fixed):
                return None
        elif isinstance(node, (ast.Call, ast.NamedExpr, ast.Lambda, ast.comprehension)):
            return None
    # each mover read as `M[f]` or `(M or K)[f]`, f the owner or the kind
    reads = 0
    for node in pyast.walk_in_order(test):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value in fields:
            inner = node.value
            if isinstance(inner, ast.BoolOp) and isinstance(inner.op, ast.Or) and len(inner.values) == 2 \
                    and isinstance(inner.values[1], ast.Name) and CONSTANT_NAME.fullmatch(inner.values[1].id):
                inner = inner.values[0]
            if isinstance(inner, ast.Name) and inner.id in state.movers:
                reads += 1
    if reads != sum(pyast.uses([test], m) for m in state.movers):
        return None

    def as_moving(node: ast.AST) -> Optional[ast.AST]:
        if isinstance(node, ast.Name) and node.id in state.movers:
            return pyast.name(MOVER)
        return None

    return pyast.replace_nodes(test, as_moving, {})


def _reads_plainly(value: ast.expr) -> bool:
    """An expression that cannot fail nor change anything: no calls (but a
    constant's table lookups), no `:=`."""
    return not any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Lambda)) for n in pyast.walk_in_order(value))


# ---------------------------------------------------------------- drops: the places before the case
# Calls a case's code may make as statements of their own and still have its board
# writes told before it runs: they change the board only as `board_writes` reads them.
_WRITING_HELPERS = {"h_replace": 2, "h_clear": 2}  # (the index of the site among the arguments)
_ENDS = "h_end"


def board_writes(stmts: Sequence[ast.stmt], fixed: frozenset[str]) -> Optional[list[tuple[ast.expr, ast.expr]]]:
    """Every place the code `stmts` may write the board at and the piece it may
    put there (`None` for none), each an expression of constants and the
    registers `fixed` (never set by the code) alone, so that it can be worked
    out before the code runs — or None where that cannot be told: a place or a
    piece that depends on the board or on anything the code computes otherwise,
    a change of anything but the board (as these writes), the site lists, the
    variables and the position's fields. Writes under tests are all listed
    (some may not happen: a superset)."""
    before = _teller(stmts, fixed)
    writes: list[tuple[ast.expr, ast.expr]] = []
    for node in pyast.walk_all(stmts):
        if isinstance(node, (ast.While, ast.Return, ast.Try, ast.FunctionDef, ast.Lambda, ast.NamedExpr,
                             ast.Delete, ast.With)):
            return None
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and pyast.is_name(target.value, "b"):
                    site, piece = before(target.slice), before(node.value)
                    if site is None or piece is None:
                        return None
                    writes.append((site, piece))
                elif not (isinstance(target, ast.Name) and target.id not in POSITION_NAMES
                          or isinstance(target, ast.Subscript) and pyast.is_name(target.value, "v")
                          or isinstance(target, ast.Attribute) and pyast.is_name(target.value, "s")
                          and target.attr in FIELDS):
                    return None
        elif isinstance(node, ast.AugAssign):
            if not (isinstance(node.target, ast.Subscript) and pyast.is_name(node.target.value, "v")):
                return None
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in _WRITING_HELPERS:
                at = _WRITING_HELPERS[func.id]
                if len(node.args) <= at or not (pyast.is_name(node.args[0], "b") and pyast.is_name(node.args[1], "o")):
                    return None
                site = before(node.args[at])
                piece = before(node.args[at + 1]) if len(node.args) > at + 1 else pyast.none()
                if site is None or piece is None:
                    return None
                writes.append((site, piece))
            elif isinstance(func, ast.Attribute) and func.attr in ("append", "remove") \
                    and isinstance(func.value, ast.Subscript) and pyast.is_name(func.value.value, "o"):
                continue  # (a site list kept with the board)
            elif not (_pure_call(node) or pyast.is_name(func, _ENDS)):
                return None
    return writes


def writes_all_made(stmts: Sequence[ast.stmt], fixed: frozenset[str],
                    decided: Callable[[ast.expr], Optional[bool]]) -> bool:
    """Whether every board write `board_writes` lists of the code `stmts` is made
    each time the code runs: a statement of its top level that is the write
    itself, or one under `if` tests that `decided` works out (given each test in
    terms of constants and the registers `fixed`: True where it always holds,
    False where it never does, None where that cannot be told) to lead to it, the
    branch not taken writing nothing. Then the writes told before the code runs
    are the writes it makes (cases.py: a drop's check asks its kept answer once)."""
    before = _teller(stmts, fixed)

    def made(block: Sequence[ast.stmt]) -> bool:
        for stmt in block:
            if not _writes_board([stmt]):
                continue
            if _is_write(stmt):
                continue
            if not isinstance(stmt, ast.If):
                return False
            test = before(stmt.test)
            taken = None if test is None else decided(test)
            if taken is None:
                return False
            if _writes_board(stmt.orelse if taken else stmt.body) or not made(stmt.body if taken else stmt.orelse):
                return False
        return True

    return made(stmts)


def _writes_board(stmts: Sequence[ast.stmt]) -> bool:
    """Whether `stmts` hold a board write (an assignment to `b[...]`, a writing helper's call)."""
    for node in pyast.walk_all(stmts):
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Subscript) and pyast.is_name(t.value, "b") for t in node.targets):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _WRITING_HELPERS:
            return True
    return False


def _is_write(stmt: ast.stmt) -> bool:
    """Whether `stmt` is a board write made whenever it runs: `b[X] = V` (its value
    writing nothing else), a writing helper's call standing alone."""
    if isinstance(stmt, ast.Assign):
        return len(stmt.targets) == 1 and not _writes_board([ast.Expr(value=stmt.value)])
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        return isinstance(call.func, ast.Name) and call.func.id in _WRITING_HELPERS \
            and not _writes_board([ast.Expr(value=arg) for arg in call.args])
    return False


def _teller(stmts: Sequence[ast.stmt], fixed: frozenset[str]) -> Callable[[ast.expr], Optional[ast.expr]]:
    """A function giving an expression read in the code `stmts` in terms of
    constants and the registers `fixed` alone (the locals it reads, each set
    once and to one value, written out), or None where it cannot be told."""
    values: dict[str, list[ast.expr]] = {}
    other: set[str] = set()
    plain: set[int] = set()  # (the names assigned by `name = E`, by id)
    for node in pyast.walk_all(stmts):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values.setdefault(node.targets[0].id, []).append(node.value)
            plain.add(id(node.targets[0]))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and id(node) not in plain:
            other.add(node.id)
    for name, assigned in values.items():
        if len({pyast.key(value) for value in assigned}) > 1:
            other.add(name)
    known: dict[str, ast.expr] = {}

    def before(expr: ast.expr, depth: int = 0) -> Optional[ast.expr]:
        """`expr` in terms of constants and the fixed registers, or None."""
        if depth > 8:
            return None
        for node in pyast.walk_in_order(expr):
            if isinstance(node, (ast.Call, ast.NamedExpr, ast.Lambda, ast.comprehension, ast.Attribute)):
                return None
            if isinstance(node, ast.Name) and not (node.id in fixed or CONSTANT_NAME.fullmatch(node.id)):
                if node.id in other or node.id not in values or node.id in POSITION_NAMES:
                    return None
                if node.id not in known:
                    inner = before(values[node.id][0], depth + 1)
                    if inner is None:
                        return None
                    known[node.id] = inner

        def inline(node: ast.AST) -> Optional[ast.AST]:
            if isinstance(node, ast.Name) and node.id in known and node.id not in fixed:
                return known[node.id]
            return None

        return pyast.replace_nodes(expr, inline, {})

    return before


def value_after(stmts: Sequence[ast.stmt], register: str, start: ast.expr,
                fixed: frozenset[str]) -> Optional[ast.expr]:
    """The value the register `register` holds after the code `stmts` (`start`
    before it), as an expression of constants and the registers `fixed` alone
    (a choice `X if T else Y` where a test decides whether it is set) — or None
    where that cannot be told: it is set in a loop, or from or under anything
    that cannot be told before the code runs (`_teller`)."""
    before = _teller(stmts, fixed)

    def told(expr: ast.expr, now: ast.expr) -> Optional[ast.expr]:
        return before(pyast.replace_nodes(expr, pyast.replacing(pyast.name(register), now), {}))

    def block(code: Sequence[ast.stmt], now: ast.expr) -> Optional[ast.expr]:
        for stmt in code:
            if not pyast.assigns([stmt], register):
                continue
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], register):
                value = told(stmt.value, now)
            elif isinstance(stmt, ast.If):
                test, body, orelse = told(stmt.test, now), block(stmt.body, now), block(stmt.orelse, now)
                if test is None or body is None or orelse is None:
                    return None
                value = body if pyast.key(body) == pyast.key(orelse) else pyast.ifexp(body, test, orelse)
            else:
                return None
            if value is None:
                return None
            now = value
        return now

    return block(stmts, start)


# The registers holding the position and its parts.
POSITION_NAMES = frozenset({"s", "b", "o", "v"})


def asks_swapped(lines: Sequence[ast.stmt], test: ast.expr, part_lines: Sequence[ast.stmt],
                 part_code: ast.expr) -> bool:
    """Whether `lines` + `test` (code of a game of two players: an `if` test
    of `after each turn`, the mover the player) ask what the `forbid result`
    part `part_lines` + `part_code` asks with the players' roles swapped: the
    same code but for the compiler's own locals, with `p` where the part has
    the opponent and the opponent where it has `p`. Then the test's value on a
    board is the part's on that board for the opponent to move (runtime/
    kept_answers.answer_for_opponent): the part's code reads the board, the
    site lists and the players alone (`plan`), and the opponent of the
    opponent is the player. `lines` must read no local of the compiler's
    they do not set."""
    stored = set().union(*map(pyast.stored_names, lines)) if lines else set()
    read = {node.id for node in pyast.walk_all([*lines, test])
            if isinstance(node, ast.Name) and OWN_LOCAL.fullmatch(node.id)}
    if not read <= stored:
        return False
    ours = _locals_numbered(players_swapped([*lines, ast.Expr(value=test)]))
    theirs = _locals_numbered([*part_lines, ast.Expr(value=part_code)])
    return pyast.same_code(ours, theirs)


def players_swapped(stmts: Sequence[ast.stmt]) -> list[ast.stmt]:
    """`stmts` (code of a game of two players) with the players' roles swapped:
    `p` becomes the opponent (`1 - p`), the opponent (`1 - p` or `q`) `p`."""

    def swap(found: ast.AST) -> Optional[ast.AST]:
        if isinstance(found, ast.Name) and found.id in PLAYERS:
            return pyast.binop(pyast.num(1), "-", pyast.name("p")) if found.id == "p" else pyast.name("p")
        if isinstance(found, ast.BinOp) and isinstance(found.op, ast.Sub) and pyast.is_name(found.right, "p") \
                and isinstance(found.left, ast.Constant) and found.left.value == 1 and type(found.left.value) is int:
            return pyast.name("p")
        return None

    return pyast.replace_in(stmts, swap)


def _locals_numbered(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """`stmts` with the compiler's own locals renamed by the order they first
    appear in: two blocks alike but for those names become the same."""
    order: dict[str, str] = {}
    for node in pyast.walk_all(stmts):
        if isinstance(node, ast.Name) and OWN_LOCAL.fullmatch(node.id) and node.id not in order:
            order[node.id] = f"t{len(order)}"

    def renamed(found: ast.AST) -> Optional[ast.AST]:
        if isinstance(found, ast.Name) and found.id in order:
            return ast.Name(id=order[found.id], ctx=found.ctx)
        return None

    return pyast.replace_in(stmts, renamed)
