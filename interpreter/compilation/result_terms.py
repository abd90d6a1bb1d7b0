"""The terms of a `forbid result` part: loops over constant collections asked again alone.

A part the listed position answers (result_reuse.py) is asked again whole
wherever a candidate writes a site it read. Most such sites are read inside one
loop over a collection fixed when compiling — the rays of `exists(d in
diagonal, ...)`, the leaps of `exists(leaps(k), ...)` — whose value (whether
one element passed) a move changes far less often than the sites it reads: a
piece leaving a ray lets the ray run on, mostly to nothing the test looks
for. Such a loop is a *term*: its code is also written as a
function of the board, the players and the locals it reads (`inputs`), giving
the locals it sets that the part reads elsewhere (`outputs`). The recording
notes each time a term runs: the sites it read and tested, its inputs and its
outputs. After a candidate's case, where every written site the part read was
read by terms alone, those terms are run again on the board as it is, each on
the inputs it had, and the listed position's answer holds where each gives the
outputs it gave (runtime/terms.py).

Why that is exact: the part's code is a deterministic function of what it
reads (result_reuse.py). On the candidate's board, every read outside the
terms gives what it gave on the listed position, so the part takes the same
path up to its first term, which gets the same inputs; a term that read and
tested no written site gives the same outputs, one run again gives them by the
test; a term sets nothing else the part reads (its other locals are read only
inside it), so the path goes on alike to the next term, and so to the answer.

Before a move is played: a move whose code writes the board at `frm` and `to`
alone, with nothing or a piece of the mover's owner and kind, under tests of
the moving piece that fail (result_reuse.writes_of_mover), and leaves at each
place one told thing whichever way it goes (`places_after_mover`), needs not be
played when its places were read by terms alone and its piece is no anchor
there: the two places are set on the board as the move leaves them (the moving
piece itself where it leaves one of its owner and kind), the terms that read
them are asked again and the point tests there asked, and the board is put
back. Exact where the terms and point tests read of a piece its owner and kind
alone (or whether there is one): the board they see then reads as the one the
move leaves, the site lists and everything else the move changes they do not
read (the anchors: as result_reuse.py argues for a move answered before).

Only terms whose outputs the part reads as truth values (result_reuse's
`_truth_only`) are recorded: a site or a number (the first piece along a line)
changes with every move across the line, and its term would be asked in vain.
A loop whose outputs are read otherwise takes with it the plain assignments
right after it in its block (its `rest`, while one reads what the loop or an
earlier one of them set) when then every local they set that the part reads
elsewhere is read there only as a truth value: the first piece along a line and
the test of it (`first_piece(k, d) is leader`) are one term, whose output is
whether that piece is one — a move across the line mostly leaves it. The locals
the rest reads that the loop may leave as they were (the first piece's site
before the loop finds one) start as they do before the loop (a constant
assigned just before it), else the term is not made.

A term that is an `exists` over its collection — a loop whose one output
starts False and is set True by its last statement, `if T: out = True; break`,
with no other way out of an element — whose elements search (a loop before
that statement: a ray's first piece, not one square's test) is recorded
element by element (`Term.each`: the test T): each element's run (the sites
it read, the element among its inputs, T's value) is asked again alone where
a written site was read by it. Exact: the elements asked before the first
whose T held give what they gave, so the loop stops at the same one with the
same output; an element's code reading a local an earlier element left fails
as a function (the local is not bound there), and the part is asked whole.

A loop is a term when its collection reads no site list nor the board (only
constants, the players and locals bound before it), it reads the board, it
changes nothing but its own locals (no calls but builtins and pure helpers, no
stores but to names), and every local it reads or sets that matters outside it
is bound before it in its block or an enclosing one (plain assignments and loop
variables) — else it is left as it is and its reads count as the part's own.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import Optional, Sequence

from ..runtime.pieces import KIND, OWNER
from . import pyast
from .journal import PURE_HELPERS
from .result_reuse import CONSTANT_NAME, OWN_LOCAL, PLAYERS, _truth_only
from .source import BUILTIN_NAMES

# The parameters every term's function takes before its inputs.
PARAMETERS = ("b", "p", "q")
# Names a term may not read: the site lists, the position, the variables.
_OUTSIDE = frozenset({"o", "s", "v"})
# Whether an `exists` term is recorded element by element, and whether a loop takes
# the assignments after it as its rest (the module's docstring): for the tests
# comparing each with its absence.
EACH = True
REST = True


@dataclass(frozen=True)
class Term:
    """A loop of a part asked again alone: the own locals it reads and does
    not set (`inputs`), those it sets that the part reads elsewhere
    (`outputs`), and each output's value before it (a constant assigned just
    before, or None: taken as an input)."""

    loop: ast.For
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    starts: tuple[Optional[ast.expr], ...]
    # the assignments after the loop that are part of the term (the module's
    # docstring), and the locals they read as the loop may leave them, with the
    # constant each holds before the loop
    rest: tuple[ast.stmt, ...] = ()
    inner: tuple[tuple[str, ast.expr], ...] = ()
    # the test telling whether one element passed, where the term is recorded
    # and asked element by element (the module's docstring), else None
    each: Optional[ast.expr] = None

    @property
    def plain(self) -> bool:
        """Whether the term reads of a piece on the board its owner and kind
        alone, or whether there is one: a piece of the same owner and kind
        in its place gives it the same outputs."""
        return _owner_and_kind_only(self.loop) and all(_owner_and_kind_only(stmt) for stmt in self.rest)

    @property
    def captured(self) -> tuple[str, ...]:
        """The outputs whose values before the loop are inputs too."""
        return tuple(name for name, start in zip(self.outputs, self.starts) if start is None)

    def function(self) -> tuple[list[str], list[ast.stmt]]:
        """The term as a function: its parameters and body (element by
        element: the element's code, giving whether it passed)."""
        if self.each is not None:
            assert isinstance(self.loop.target, ast.Name)
            return list(PARAMETERS) + list(self.inputs) + [self.loop.target.id], \
                [*self.loop.body[:-1], pyast.return_(pyast.tuple_(self.each))]
        params = list(PARAMETERS) + list(self.inputs) + list(self.captured)
        body: list[ast.stmt] = [pyast.assign(pyast.name(name), start)
                                for name, start in zip(self.outputs, self.starts) if start is not None]
        body += [pyast.assign(pyast.name(name), start) for name, start in self.inner]
        body.append(self.loop)
        body += self.rest
        body.append(pyast.return_(pyast.tuple_(*(pyast.name(name) for name in self.outputs))))
        return params, body


def find(lines: Sequence[ast.stmt], code: ast.expr) -> dict[int, Term]:
    """The terms of the part `lines` + `code`, by the id of their loop
    (outermost loops only: a term's inner loops are part of it)."""
    # (the names the part reads, by node: every term asks which are outside it)
    reads = tuple((id(n), n.id) for n in pyast.walk_all([*lines, code])
                  if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
    terms: dict[int, Term] = {}
    truth: Optional[set[int]] = None

    def block(stmts: Sequence[ast.stmt], bound: frozenset[str]) -> None:
        nonlocal truth
        known = set(bound)
        skip = 0
        for index, stmt in enumerate(stmts):
            if skip:  # (the rest of a term: its assignments)
                skip -= 1
                known |= _targets(stmt.targets[0]) if isinstance(stmt, ast.Assign) else set()
                continue
            term = _term(stmt, stmts[:index], frozenset(known), reads) if isinstance(stmt, ast.For) else None
            if REST and isinstance(stmt, ast.For) and _follows(stmts, index):
                if truth is None:
                    truth = _truth_only(lines, code)
                if term is None or not _truth_valued(term, reads, truth):
                    grown = _grown(stmt, stmts, index, frozenset(known), reads, truth)
                    if grown is not None:
                        term = grown
                        skip = len(grown.rest)
            if term is not None:
                if EACH and not term.rest:
                    term = replace(term, each=_element_flag(term))
                terms[id(stmt)] = term
            elif isinstance(stmt, ast.For):
                inner = frozenset(known | _targets(stmt.target))
                block(stmt.body, inner)
                block(stmt.orelse, frozenset(known))
            elif isinstance(stmt, (ast.If, ast.While)):
                block(stmt.body, frozenset(known))
                block(stmt.orelse, frozenset(known))
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    known |= _targets(target)

    block(lines, frozenset())
    return terms


def _targets(target: ast.expr) -> set[str]:
    return {n.id for n in pyast.walk(target) if isinstance(n, ast.Name)}


def _element_flag(term: Term) -> Optional[ast.expr]:
    """The test T of a term `for x in C: ...; if T: out = True; break` whose
    one output `out` starts False, whose elements search (a loop in `...`)
    and have no other way out (the module's docstring), else None."""
    loop = term.loop
    if len(term.outputs) != 1 or len(loop.body) < 2 or term.starts[0] is None:
        return None
    start, out, last = term.starts[0], term.outputs[0], loop.body[-1]
    if not (isinstance(start, ast.Constant) and start.value is False and isinstance(last, ast.If)
            and not last.orelse and len(last.body) == 2):
        return None
    if not any(isinstance(n, (ast.For, ast.While)) for n in pyast.walk_all(loop.body[:-1])):
        return None
    setting, leaving = last.body
    if not (isinstance(setting, ast.Assign) and len(setting.targets) == 1 and pyast.is_name(setting.targets[0], out)
            and isinstance(setting.value, ast.Constant) and setting.value.value is True
            and isinstance(leaving, ast.Break)):
        return None
    if pyast.assigns(loop.body[:-1], out) or out in pyast.names_in([last.test]) or not _no_way_out(loop.body[:-1]):
        return None
    return last.test


def _no_way_out(stmts: Sequence[ast.stmt]) -> bool:
    """Whether no `break` or `continue` in `stmts` leaves the loop they are the body of."""
    for stmt in stmts:
        if isinstance(stmt, (ast.Break, ast.Continue)):
            return False
        if isinstance(stmt, (ast.For, ast.While)):
            if not _no_way_out(stmt.orelse):
                return False
        elif isinstance(stmt, ast.If):
            if not (_no_way_out(stmt.body) and _no_way_out(stmt.orelse)):
                return False
        elif isinstance(stmt, (ast.Try, ast.With)):
            return False
    return True


def _follows(stmts: Sequence[ast.stmt], index: int) -> bool:
    """Whether the statement after the loop at `index` is a plain assignment
    (a rest a term may take: the module's docstring)."""
    return index + 1 < len(stmts) and _plain_assignment(stmts[index + 1])


def _plain_assignment(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)


def _truth_valued(term: Term, reads: Sequence[tuple[int, str]], truth: set[int]) -> bool:
    """Whether the part (`reads`: the ids and names of the names it reads) reads the
    outputs of `term` outside it as truth values alone."""
    inside = {id(n) for n in pyast.walk_all([term.loop, *term.rest])}
    names = set(term.outputs)
    return all(node in truth for node, name in reads if name in names and node not in inside)


def _grown(loop: ast.For, stmts: Sequence[ast.stmt], index: int, bound: frozenset[str],
           reads: Sequence[tuple[int, str]], truth: set[int]) -> Optional[Term]:
    """The term of the loop at `index` with the plain assignments after it
    that read what it (or one before them) set, the first whose outputs are
    read as truth values alone; None if none is."""
    rest: list[ast.stmt] = []
    stored = {n.id for n in pyast.walk_in_order(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    for stmt in stmts[index + 1:]:
        if not _plain_assignment(stmt):
            return None
        assert isinstance(stmt, ast.Assign)
        if not {n.id for n in pyast.walk_in_order(stmt.value) if isinstance(n, ast.Name)} & stored:
            return None
        rest.append(stmt)
        stored |= _targets(stmt.targets[0])
        term = _term(loop, stmts[:index], frozenset(bound), reads, tuple(rest))
        if term is not None and _truth_valued(term, reads, truth):
            return term
    return None


def _term(loop: ast.For, before: Sequence[ast.stmt], bound: frozenset[str],
          reads: Sequence[tuple[int, str]], rest: tuple[ast.stmt, ...] = ()) -> Optional[Term]:
    if loop.orelse or not isinstance(loop.target, ast.Name) or not _collection(loop.iter, bound):
        return None
    group: list[ast.AST] = [loop, *rest]
    inside = {id(n) for n in pyast.walk_all(group)}
    stored: set[str] = set()
    loaded: set[str] = set()
    reads_board = False
    for node in pyast.walk_all(group):
        if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom, ast.Lambda, ast.FunctionDef, ast.Try,
                             ast.With, ast.Delete, ast.Global, ast.Nonlocal, ast.comprehension)):
            return None
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and _pure(node.func.id)):
            return None
        if isinstance(node, (ast.Subscript, ast.Attribute)) and not isinstance(node.ctx, ast.Load):
            return None
        if isinstance(node, ast.AugAssign) and not isinstance(node.target, ast.Name):
            return None
        if isinstance(node, ast.Name):
            if node.id in _OUTSIDE:
                return None
            if isinstance(node.ctx, ast.Store):
                if not OWN_LOCAL.fullmatch(node.id):
                    return None
                stored.add(node.id)
            elif node.id == "b":
                reads_board = True
            elif OWN_LOCAL.fullmatch(node.id):
                loaded.add(node.id)
            elif not (node.id in PLAYERS or CONSTANT_NAME.fullmatch(node.id) or _pure(node.id)):
                return None
    if not reads_board:
        return None
    outside = {name for node, name in reads if node not in inside}
    outputs = tuple(sorted(stored & outside))
    inputs = tuple(sorted(loaded - stored))
    # (an output the rest sets whatever happens, read nowhere in the term, needs no value
    # before it — nor a binding: the term's first statement sets it, and the part's own
    # assignment follows the loop as it does without the term)
    set_after = set().union(*(_targets(stmt.targets[0]) for stmt in rest if isinstance(stmt, ast.Assign)))
    if not set(inputs) <= bound or not set(outputs) - (set_after - loaded) <= bound:
        return None
    if not rest:
        return Term(loop, inputs, outputs, tuple(_start(name, before) for name in outputs))
    # (a local the rest reads that the loop sets: its constant before the loop)
    starts = tuple(pyast.none() if name in set_after and name not in loaded else _start(name, before)
                   for name in outputs)
    looped = {n.id for n in pyast.walk_in_order(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    read_after = {n.id for n in pyast.walk_all(rest) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    inner: list[tuple[str, ast.expr]] = []
    for name in sorted((looped & read_after) - set(outputs) - {loop.target.id}):
        start = _signed_start(name, before)
        if start is None:
            return None
        inner.append((name, start))
    if loop.target.id in read_after:
        return None
    return Term(loop, inputs, outputs, starts, tuple(rest), tuple(inner))


def _collection(iterable: ast.expr, bound: frozenset[str]) -> bool:
    """Whether the loop's collection is fixed but for the players and locals bound before it."""
    for node in pyast.walk_in_order(iterable):
        if isinstance(node, ast.Name):
            if not (node.id in bound or node.id in PLAYERS or CONSTANT_NAME.fullmatch(node.id) or _pure(node.id)):
                return False
        elif isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and _pure(node.func.id)):
                return False
        elif isinstance(node, (ast.NamedExpr, ast.Lambda, ast.comprehension)):
            return False
    return True


def _pure(name: str) -> bool:
    return name in BUILTIN_NAMES or name in PURE_HELPERS


def _start(name: str, before: Sequence[ast.stmt]) -> Optional[ast.expr]:
    """The constant `name` holds before the loop when the last statement before
    it in its block that sets it is `name = constant`, else None."""
    for stmt in reversed(before):
        if pyast.assigns([stmt], name):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], name) \
                    and isinstance(stmt.value, ast.Constant):
                return stmt.value
            return None
    return None


def _signed_start(name: str, before: Sequence[ast.stmt]) -> Optional[ast.expr]:
    """As `_start`, a negative number too (`t = -1`: no site)."""
    for stmt in reversed(before):
        if pyast.assigns([stmt], name):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], name):
                value = stmt.value
                if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
                    value = value.operand
                if isinstance(value, ast.Constant):
                    return stmt.value
            return None
    return None


def _owner_and_kind_only(node: ast.AST) -> bool:
    """Whether every `b[E]` in `node` is read as `b[E] is (not) None`, `b[E][f]`
    or `(b[E] or K)[f]` (f the owner or the kind, K a constant)."""
    allowed: set[int] = set()
    for n in pyast.walk_in_order(node):
        if isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.Is, ast.IsNot)) \
                and isinstance(n.comparators[0], ast.Constant) and n.comparators[0].value is None:
            allowed.add(id(n.left))
        elif isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant) and n.slice.value in (OWNER, KIND):
            inner = n.value
            if isinstance(inner, ast.BoolOp) and isinstance(inner.op, ast.Or) and len(inner.values) == 2 \
                    and isinstance(inner.values[1], ast.Name) and CONSTANT_NAME.fullmatch(inner.values[1].id):
                inner = inner.values[0]
            allowed.add(id(inner))
    return all(id(n) in allowed for n in pyast.walk_in_order(node)
               if isinstance(n, ast.Subscript) and pyast.is_name(n.value, "b"))
