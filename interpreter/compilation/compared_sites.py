"""A costly candidate condition that compares the candidate's sites with the sites
it reads, answered once per listing.

Older definitions ask what a move would leave without playing it: `attacked(k,
opponent, from, to)` walks the rays from a site, `from` counting as empty and `to`
as taken (`x == from`, `x != to`). Such a conjunct reads the candidate only in
comparisons `X == C` / `X != C` (C `from` or `to`, X not reading the candidate)
and in the mask of every site but C (`FULL ^ BITS[C]` in an AND of masks,
site_masks.py). It is asked for the first candidate of a listing with each such
comparison given the answer it has for a site no X equals (`==` false, `!=`
true; the mask's AND without C's bit taken out), the bit of each X compared and
the sites of each such AND noted in a mask; that answer and mask are kept in
locals of the lister (per_listing.ListingCache.table). A candidate whose `from` and
`to` are not in the mask keeps the answer; any other is asked the conjunct itself.

Why that is exact: the conjunct asked of a candidate whose C differs from every X
it is compared with takes the same path as the first asking — by induction over
what runs: the board does not change while a decision lists (prefilters.py), every
name read is the position's or set before, so each comparison reached gives what
the first asking gave, the masks lose no bit (C was not among their sites), and
the other code does not read the candidate at all. -1 (no site) has a bit of its
own, past the board's: a site compared with it is never mistaken for another.

Only a conjunct whose rewritten code reads nothing of the candidate is kept so
(what it reads is checked on the generated statements, as per_listing.py does),
and only one the playouts' lister leaves to the drawn candidate (actions.py:
deferred), so that a draw of one candidate does not pay the first asking.
`ENABLED` switches it off for the tests.
"""
from __future__ import annotations

import ast as py
from typing import Callable, Iterable, Optional, cast

from . import pyast
from .code import Stmts
from .per_listing import ListingCache, code_key
from .source import Source

ENABLED = True

# The placeholders of the rewritten conjunct (ComparedSites._names): no generated name looks so.
_NOTED = "_noted"
_BITS = "_bits"
_FULL = "_full"


def _held(i: int) -> str:
    return f"_held{i}"


def _noted_by(i: int) -> str:
    return f"_noted{i}"

# The candidate's sites that the conjunct may compare (registers.py; `from` is -1 for a drop).
_CANDIDATE_SITES = ("frm", "to")
_KEY = "compared sites"


class ComparedSites:
    """Rewrites a lister's conjuncts as the module docstring says."""

    def __init__(self, src: Source, per_listing: ListingCache, n_sites: int):
        self.src = src
        self.per_listing = per_listing
        self.n_sites = n_sites

    def kept(self, lines: Stmts, code: py.expr, masks: Iterable[str]) -> Optional[tuple[list[py.stmt], py.expr]]:
        """(statements, condition) asking `code` (after `lines`) once per listing as the
        module docstring says, or None where it may not be."""
        if not ENABLED:
            return None
        names = pyast.names_in([*lines, py.Expr(code)])
        compared = [c for c in _CANDIDATE_SITES if c in names]
        if not compared:
            return None
        # (written with placeholders, named once kept: a conjunct left as it was takes
        # no fresh name and no constant, and the code of other definitions stays the same)
        rewriter = _Rewriter(self.src, set(compared), self.n_sites)
        memo: dict[int, py.AST] = {}
        base_lines = [pyast.replace_nodes(stmt, rewriter.change, memo) for stmt in lines]
        base_code = pyast.replace_nodes(code, rewriter.change, memo)
        if not rewriter.held and not rewriter.compared_any \
                or pyast.names_in([*base_lines, py.Expr(base_code)]) & set(compared):
            return None
        first = [pyast.assign(pyast.name(_NOTED), pyast.num(0)), *base_lines]
        if not self.per_listing.reads_position_only(first, base_code, [*masks, _BITS, _FULL], _NOTED):
            return None
        named = self._names(rewriter.held)
        first = [pyast.replace_nodes(stmt, named) for stmt in first]
        base_code = pyast.replace_nodes(base_code, named)
        noted = named(pyast.name(_NOTED)).id  # type: ignore[union-attr]
        key = code_key(first, base_code)
        mask = self.per_listing.table(f"{_KEY}: the mask of {key}")
        answer = self.per_listing.table(f"{_KEY}: the answer of {key}")
        asked = pyast.name(self.src.fresh("t"))
        bits = self._bits()
        candidate: py.expr = pyast.sub(bits, pyast.name(compared[0]))
        for name in compared[1:]:
            candidate = pyast.binop(candidate, "|", pyast.sub(bits, pyast.name(name)))
        statements: list[py.stmt] = [
            pyast.if_(pyast.is_none(mask), [*first, pyast.assign(answer, base_code),
                                            pyast.assign(mask, pyast.name(noted))]),
            pyast.if_(pyast.binop(mask, "&", candidate), [*lines, pyast.assign(asked, code)],
                      [pyast.assign(asked, answer)]),
        ]
        return statements, asked

    def kept_parts(self, prefix: Stmts, negated: bool, parts: list[tuple[list[py.stmt], py.expr]],
                   masks: Iterable[str]) -> Optional[tuple[list[py.stmt], py.expr]]:
        """(statements, condition) asking `[not] (D1 or D2 or ...)` (each disjunct's
        statements and code in `parts`, after `prefix`) once per listing, each
        disjunct noting its own mask: a candidate in the mask of one disjunct asks
        that one again and takes the first asking's answer of the others. Exact as
        the module docstring says, disjunct by disjunct: each reads nothing of the
        others (compiled apart), only the prefix, which reads no candidate. A
        disjunct the first asking did not reach (one before it held) has every bit
        in its mask. None where the parts may not be so asked."""
        if not ENABLED or len(parts) < 2:
            return None
        names = pyast.names_in([*prefix, *(stmt for lines, code in parts for stmt in [*lines, py.Expr(code)])])
        compared = [c for c in _CANDIDATE_SITES if c in names]
        if not compared or pyast.names_in(prefix) & set(compared):
            return None
        held = 0
        compared_any = False
        based: list[tuple[list[py.stmt], py.expr]] = []
        for i, (lines, code) in enumerate(parts):
            rewriter = _Rewriter(self.src, set(compared), self.n_sites, _noted_by(i), held)
            memo: dict[int, py.AST] = {}
            base_lines = [pyast.replace_nodes(stmt, rewriter.change, memo) for stmt in lines]
            base_code = pyast.replace_nodes(code, rewriter.change, memo)
            if pyast.names_in([*base_lines, py.Expr(base_code)]) & set(compared):
                return None
            compared_any = compared_any or rewriter.compared_any or rewriter.held > held
            held = rewriter.held
            based.append((base_lines, base_code))
        if not compared_any:
            return None
        noted = [_noted_by(i) for i in range(len(parts))]
        found = pyast.name(_NOTED)  # (a placeholder of its own: the first asking's running answer)
        first = [*prefix, *self._first_chain(based, noted, found)]
        if not self.per_listing.reads_position_only(first, found, [*masks, _BITS, _FULL, *noted], _NOTED):
            return None
        named = self._names(held, [_NOTED, *noted])
        key = code_key([pyast.replace_nodes(stmt, named) for stmt in first], pyast.replace_nodes(found, named))
        whole_mask = self.per_listing.table(f"{_KEY}: the mask of {key}")
        whole_answer = self.per_listing.table(f"{_KEY}: the answer of {key}")
        part_masks = [self.per_listing.table(f"{_KEY}: the mask of part {i} of {key}") for i in range(len(parts))]
        part_answers = [self.per_listing.table(f"{_KEY}: the answer of part {i} of {key}") for i in range(len(parts))]
        keep = _Keeping(found, whole_mask, part_masks, part_answers, noted)
        prefix_kept, prefix_again = self._prefix_kept(prefix, key)
        first = [*prefix, *prefix_kept, *self._first_chain(based, noted, found, keep)]
        first = [pyast.replace_nodes(stmt, named) for stmt in first]
        found_named = cast(py.Name, named(found))
        asked_code: py.expr = pyast.not_(found_named) if negated else found_named
        candidate = pyast.name(self.src.fresh("t"))
        bits = self._bits()
        candidate_bits: py.expr = pyast.sub(bits, pyast.name(compared[0]))
        for name in compared[1:]:
            candidate_bits = pyast.binop(candidate_bits, "|", pyast.sub(bits, pyast.name(name)))
        asked = pyast.name(self.src.fresh("t"))
        again: list[py.stmt] = []
        for i in reversed(range(len(parts))):
            lines, code = parts[i]
            one: list[py.stmt] = [pyast.if_(pyast.binop(part_masks[i], "&", candidate),
                                            [*lines, pyast.assign(found_named, code)],
                                            [pyast.assign(found_named, part_answers[i])])]
            again = one + ([pyast.if_(pyast.not_(found_named), again)] if again else [])
        statements: list[py.stmt] = [
            pyast.if_(pyast.is_none(whole_mask), [
                *[pyast.assign(mask, pyast.num(-1)) for mask in part_masks[1:]],
                *first, pyast.assign(whole_answer, asked_code)]),
            pyast.if_(pyast.binop(whole_mask, "&", pyast.walrus(candidate.id, candidate_bits)),
                      [*prefix_again, *again, pyast.assign(asked, asked_code)],
                      [pyast.assign(asked, whole_answer)]),
        ]
        return statements, asked

    def _prefix_kept(self, prefix: Stmts, key: str) -> tuple[list[py.stmt], list[py.stmt]]:
        """(what the first asking keeps of the prefix, the prefix as asked again): a
        local the prefix sets at its top level (`t = E`) is kept in a local of the
        lister and read from it again — the prefix reads the position alone, so its
        values hold for the listing (another action's first asking, with names of its
        own, may have kept them: the key is the code's)."""
        kept: list[py.stmt] = []
        again: list[py.stmt] = []
        for i, stmt in enumerate(prefix):
            if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name):
                table = self.per_listing.table(f"{_KEY}: line {i} of the prefix of {key}")
                kept.append(pyast.assign(table, pyast.name(stmt.targets[0].id)))
                again.append(pyast.assign(pyast.name(stmt.targets[0].id), table))
            else:
                again.append(stmt)
        return kept, again

    @staticmethod
    def _first_chain(based: list[tuple[list[py.stmt], py.expr]], noted: list[str], found: py.Name,
                     keep: Optional["_Keeping"] = None) -> list[py.stmt]:
        """The first asking of the disjuncts in turn, each after the ones before failed:
        `noted_i = 0; ...; found = D_i` (and, with `keep`, its answer and mask kept)."""
        chain: list[py.stmt] = []
        for i in reversed(range(len(based))):
            lines, code = based[i]
            one = [pyast.assign(pyast.name(noted[i]), pyast.num(0)), *lines, pyast.assign(found, code)]
            if keep is not None:
                one += keep.statements(i)
            chain = one + ([pyast.if_(pyast.not_(found), chain)] if chain else [])
        return chain

    def _names(self, held: int, noted: Iterable[str] = (_NOTED,)) -> Callable[[py.AST], Optional[py.Name]]:
        """The placeholders' replacements: fresh locals, the constants."""
        names = {name: self.src.fresh("t") for name in noted}
        names.update({_held(i): self.src.fresh("t") for i in range(held)})
        constants: dict[str, py.Name] = {}
        if held:
            constants[_FULL] = self.src.const((1 << self.n_sites) - 1)
        constants[_BITS] = self._bits()

        def change(node: py.AST) -> Optional[py.Name]:
            if not isinstance(node, py.Name):
                return None
            if node.id in names:
                return py.Name(id=names[node.id], ctx=node.ctx)
            return constants.get(node.id)
        return change

    def _bits(self) -> py.Name:
        """Each site's bit, and one past the board's for -1 (no site)."""
        n = self.n_sites
        return self.src.const(tuple(1 << s for s in range(n)) + (1 << n,), key="bits with none's own")


class _Keeping:
    """What the first asking of the parts keeps in the lister's locals."""

    def __init__(self, found: py.Name, whole_mask: py.Name, part_masks: list[py.Name], part_answers: list[py.Name],
                 noted: list[str]):
        self.found = found
        self.whole_mask = whole_mask
        self.part_masks = part_masks
        self.part_answers = part_answers
        self.noted = noted

    def statements(self, i: int) -> list[py.stmt]:
        noted = pyast.name(self.noted[i])
        mask: py.expr = noted if i == 0 else pyast.binop(self.whole_mask, "|", noted)
        return [pyast.assign(self.part_answers[i], self.found), pyast.assign(self.part_masks[i], noted),
                pyast.assign(self.whole_mask, mask)]


class _Rewriter:
    """The conjunct as its first asking runs it (the module docstring), written with
    placeholders for the locals and constants it needs."""

    def __init__(self, src: Source, compared: set[str], n_sites: int, noted: str = _NOTED, held: int = 0):
        self.src = src  # (read only: its constants' values)
        self.compared = compared
        self.n_sites = n_sites
        self.noted = noted
        self.compared_any = False  # (a comparison rewritten)
        self.held = held  # (the masks' values held: the placeholders numbered so far)

    def change(self, node: py.AST) -> Optional[py.AST]:
        if isinstance(node, py.BoolOp):
            return self._noted_last(node)
        if isinstance(node, py.Compare):
            return self._comparison(node)
        if isinstance(node, py.BinOp) and isinstance(node.op, py.BitAnd):
            return self._masks(node)
        return None

    def _reads_candidate(self, node: py.AST) -> bool:
        return bool(pyast.names_in([py.Expr(node)] if isinstance(node, py.expr) else [node]) & self.compared)

    def _note(self, value: py.expr) -> py.expr:
        """`noted := noted | value`."""
        return pyast.walrus(self.noted, pyast.binop(pyast.name(self.noted), "|", value))

    def _comparison(self, node: py.Compare) -> Optional[py.expr]:
        if len(node.ops) != 1 or not isinstance(node.ops[0], (py.Eq, py.NotEq)):
            return None
        left, right = node.left, node.comparators[0]
        if isinstance(right, py.Name) and right.id in self.compared:
            other = left
        elif isinstance(left, py.Name) and left.id in self.compared:
            other = right
        else:
            return None
        if self._reads_candidate(other):
            return None
        if isinstance(other, py.Constant) and not (isinstance(other.value, int) and -1 <= other.value < self.n_sites):
            return None
        self.compared_any = True
        # (`==` false, `!=` true: the noted mask is never negative)
        noted = self._note(pyast.sub(pyast.name(_BITS), other))
        return pyast.compare(noted, "<" if isinstance(node.ops[0], py.Eq) else ">=", pyast.num(0))

    def _noted_last(self, node: py.BoolOp) -> Optional[py.expr]:
        """`X != C and R...` as `R... and X != C` (`or` with `X == C` alike): X is
        noted only where the rest holds (fails), the one case where C's answer
        changes the whole's. The same value for a candidate whose C is no X noted:
        where the rest fails (holds), so does the whole, whatever the comparison
        gives, and what is passed over sets no name and calls nothing."""
        values = _operands(node)
        wanted = py.NotEq if isinstance(node.op, py.And) else py.Eq
        moved = [i for i, value in enumerate(values) if self._moveable(value, wanted)]
        if not moved or any(_sets_or_calls(value) for value in values[moved[0]:]):
            return None
        memo: dict[int, py.AST] = {}
        rest = [pyast.replace_nodes(value, self.change, memo) for i, value in enumerate(values) if i not in moved]
        noted = [self._comparison(cast(py.Compare, values[i])) for i in moved]
        ordered = [*rest, *noted]
        return ordered[0] if len(ordered) == 1 else py.BoolOp(op=node.op, values=ordered)  # type: ignore[arg-type]

    def _moveable(self, node: py.expr, op: type) -> bool:
        """`X op C` of a candidate's site C, X reading no candidate."""
        if not (isinstance(node, py.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], op)):
            return False
        left, right = node.left, node.comparators[0]
        for one, other in ((left, right), (right, left)):
            if isinstance(one, py.Name) and one.id in self.compared and not self._reads_candidate(other):
                return not (isinstance(other, py.Constant) and not (
                    isinstance(other.value, int) and -1 <= other.value < self.n_sites))
        return False

    def _masks(self, node: py.BinOp) -> Optional[py.expr]:
        """An AND of masks with a candidate's mask of every site but its own: the
        AND with every site, its sites noted."""
        leaves = _and_leaves(node)
        without = [leaf for leaf in leaves if self._every_site_but_candidate(leaf)]
        if not without:
            return None
        others = [leaf for leaf in leaves if not any(leaf is w for w in without)]
        memo: dict[int, py.AST] = {}
        rewritten = [pyast.replace_nodes(leaf, self.change, memo) for leaf in others]
        value: py.expr = pyast.name(_FULL)
        for leaf in rewritten:
            value = pyast.binop(value, "&", leaf)
        held = _held(self.held)
        self.held += 1
        # (`(m := V) | ((noted := noted | m) & 0)`: V, its sites noted)
        return pyast.binop(pyast.walrus(held, value), "|",
                           pyast.binop(self._note(pyast.name(held)), "&", pyast.num(0)))

    def _every_site_but_candidate(self, node: py.expr) -> bool:
        """`FULL ^ BITS[C]`: FULL the board's mask, BITS each site's bit (0 for -1)."""
        if not (isinstance(node, py.BinOp) and isinstance(node.op, py.BitXor)):
            return False
        index = node.right
        if not (isinstance(index, py.Subscript) and isinstance(index.slice, py.Name)
                and index.slice.id in self.compared):
            return False
        if self.src.value(node.left) != (1 << self.n_sites) - 1:
            return False
        table = self.src.value(index.value)
        return isinstance(table, tuple) and len(table) == self.n_sites + 1 and table[-1] == 0 \
            and all(table[s] == 1 << s for s in range(self.n_sites))


def _operands(node: py.BoolOp) -> list[py.expr]:
    """The operands of `node` with those of the same operator nested in it
    (`(a and b) and c` is `a and b and c`: the same value, asked in the same order)."""
    values: list[py.expr] = []
    for value in node.values:
        if isinstance(value, py.BoolOp) and type(value.op) is type(node.op):
            values.extend(_operands(value))
        else:
            values.append(value)
    return values


def _sets_or_calls(node: py.expr) -> bool:
    return any(isinstance(inner, (py.NamedExpr, py.Call, py.Lambda)) for inner in pyast.walk(node))


def _and_leaves(node: py.expr) -> list[py.expr]:
    """The operands of a chain of `&`."""
    if isinstance(node, py.BinOp) and isinstance(node.op, py.BitAnd):
        return _and_leaves(node.left) + _and_leaves(node.right)
    return [node]


__all__ = ["ComparedSites", "ENABLED"]
