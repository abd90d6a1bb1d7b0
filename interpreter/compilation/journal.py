"""`forbid result` checks that try a case on the position itself and undo it.

A check plays a case and asks the `forbid result` conditions of the position it
leaves (cases.CaseWriter._check), once per candidate action. Copying the whole
position for each of them (board, every site list, the variables and the turn's
fields) cost as much as playing the case: instead the check plays the case on
the position itself, keeping a journal of what it changes, and undoes it before
it returns — also when a rule fails on the way (`try: ... finally:`).

The journal is written into the case's code next to each change:

- `b[E] = V`: the site and the piece that stood there, on the board's journal;
- `v[E] = V`, `v[E] op= V`: the index and the value before, on the variables';
- `o[E].remove(X)`, `o[E].append(X)`: the list, the site (and the place it held),
  on the site lists' journal, undone by `helpers.undo_sites`, which puts every
  list back in its order and keeps the neutral pieces' bitmask right;
- `h_clear(b, o, X)`, `h_replace(b, o, X, P)`: their journaled forms
  (`h_clear_kept`, `h_replace_kept`), which write both journals;
- `s.A = V`, and `h_end(...)` (which sets `result` and `ending`): the fields are
  read at the start and set back at the end.

A place fixed for the whole code — `b[frm]`, `b[to]` (and `b[at]` where `at`
still holds one of them), `v[N]` — is not journaled: what stood there is read
once at the start and put back after the journals are undone.

Each journal is undone from its end, so that a site written twice gets its first
piece back; the journals hold different lists, so their order does not matter.
Code is tried in place only when every change it can make is one of these: a
write to anything else (a list it did not make itself, an attribute), a helper
that changes the position otherwise (`h_permute` of `rotate`/`cycle`, the single
stones of stacks) or a call of a generated function make `in_place` answer None,
and the check plays on a copy as before (`h_trial`).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from . import pyast

# Helpers that change no position (they may fill tables of their own or, with
# rule coverage, count: the engine puts the counts back after a check).
PURE_HELPERS = frozenset({
    "h_sites", "h_union", "h_with_site", "h_with_site_distinct", "h_first", "h_minus", "h_without", "h_first_but",
    "h_all_pieces", "h_each_piece", "h_floordiv", "h_divide", "h_mod", "h_bounded",
    "h_one_direction", "h_sum", "h_max", "h_min", "h_unique_max", "h_group", "h_flood", "h_unmarked",
    "h_on_full_line", "h_fail", "h_ahead", "h_behind", "h_along", "h_steps_on", "h_track_path", "h_track_to",
    "h_sites_mask", "h_bits_added", "h_player_after",
    "h_others_mask", "h_kind_mask", "h_hit", "h_board_repetitions", "h_walk_ends", "h_followed",
    "h_rotation", "h_cycle", "h_make_code", "h_marks", "h_path", "h_keep_path",
    "h_path_bits", "h_meetings", "h_meeting_table", "h_meeting_within", "h_failing_sites", "h_region_note",
    "h_shared_notes",
    # (the groups' records it fills are a cache of the board: runtime/chains.py)
    "h_liberties", "h_group_mask",
    # (a listing's answers of the listed position: compilation/result_reuse.py)
    "h_parent_answer", "h_answer_kept", "h_written_sites", "h_tests_hold",
    "h_tests_hold_moving", "h_tests_hold_placing", "h_moving_failures", "h_parent_answer_terms",
    "h_parent_answer_terms_masked", "h_parent_answer_masked", "h_terms_hold", "h_terms_hold_placed",
    # (it sets the player to move and puts it back)
    "h_answer_for_opponent",
})
# A call standing for a test of the board sites the code has written by where it
# stands (result_reuse.py), made by in_place's `written` from the board's journal
# and the fixed places of the board written.
WRITTEN = "h_written_sites"
# Makes that test: (the call, the board's journal or None, the fixed places written).
WrittenTest = Callable[[ast.Call, Optional[ast.expr], list[ast.expr]], ast.expr]
# Helpers that change the board and the site lists, and their journaled forms
# (which take the board's journal and the site lists' after their arguments).
KEPT_HELPERS = {"h_clear": "h_clear_kept", "h_replace": "h_replace_kept"}
# The helper that ends the game, and the fields of the position it sets.
ENDS = "h_end"
ENDING_FIELDS = ("result", "ending")
# Calls whose value is a new container: a local holding only such values may be
# changed freely (it is no part of the position).
NEW_CONTAINERS = frozenset({"list", "sorted", "set", "h_unmarked", "h_marks", "h_sites", "h_union", "h_minus",
                            "h_without", "h_with_site", "h_with_site_distinct",
                            "h_all_pieces"})
# The registers that hold the position and its parts: never bound again in code tried in place.
POSITION = frozenset({"s", "b", "o", "v"})
# The journaled containers: the board and the variables.
JOURNALED = ("b", "v")
# The fields of a position the rules set (the others are the engine's).
FIELDS = frozenset({"result", "ending", "next_player", "next_phase", "carry", "decision", "step", "phase", "player",
                    "turn_start"})
# The registers a case sets before its code (from its action code) and its code
# seldom sets again: a place of the board at one of them is read once at the start.
FIXED = ("frm", "to")
# The locals that may hold a fixed one's value (the acting piece's site).
ALIASED = frozenset({"at"})
# Methods that change nothing, whatever they are asked of (a number's bits, where
# an item stands in a list, how often).
READING_METHODS = frozenset({"bit_count", "index", "count"})
# Methods that change a list.
CHANGES_LIST = frozenset({"append", "remove", "pop"})
_BUILTINS = frozenset({"len", "range", "any", "all", "sum", "min", "max", "abs", "list", "tuple", "sorted", "set",
                       "next", "enumerate", "int"})


@dataclass
class InPlace:
    """A check's code made to run on the position itself: `start` (the journals
    made, the fields kept), then `body` (the code, journaling each change) under
    `try`, `undo` under its `finally`."""

    start: list[ast.stmt]
    body: list[ast.stmt]
    undo: list[ast.stmt]

    def statements(self) -> list[ast.stmt]:
        if not self.undo:  # (nothing is ever changed)
            return self.start + self.body
        return self.start + [pyast.try_finally(self.body, self.undo)]


def in_place(body: Sequence[ast.stmt], fresh: Callable[[str], str],
             aliases: Optional[dict[str, str]] = None, written: Optional[WrittenTest] = None,
             constant: Optional[Callable[[str], bool]] = None) -> Optional[InPlace]:
    """`body` (a check's code: the case, then the conditions) journaled and undone
    as the module's docstring says, or None where it may change something the
    journal does not cover. `fresh` makes new names (Source.fresh); `aliases`:
    locals that hold another's value where the code starts (`at` is `frm`);
    `written` makes the tests standing for calls of WRITTEN (none without it);
    `constant`, where given, tells the module's constants, an element of which
    the code may set: they hold tables and what a search keeps of its last
    answers by what it was asked (masked_reach.py), never a part of a position."""
    nodes = list(pyast.walk_all(body))  # (walked once: the three scans below read them)
    scan = _Scan(_new_containers(nodes), _position_lists(nodes), constant)
    if not all(scan.accepts(node) for node in nodes):
        return None
    writer = _Journaling(fresh, frozenset(r for r in FIXED if not pyast.assigns(body, r)))
    journaled = writer.block(body, {a: f for a, f in (aliases or {}).items() if f in writer.fixed and a in ALIASED})
    if journaled is None:
        return None
    if written is not None:
        journaled = _written_sites_filled(journaled, writer, written)
    fields = sorted(scan.fields)
    kept = {f: fresh("t") for f in fields}
    start: list[ast.stmt] = [pyast.assign(pyast.name(journal), pyast.list_()) for journal in writer.journals.values()]
    start += [pyast.assign(pyast.name(kept[f]), pyast.attr(pyast.name("s"), f)) for f in fields]
    start += [pyast.assign(pyast.name(local), pyast.sub(pyast.name(register), index))
              for (register, _), (index, local) in writer.saved.items()]
    undo: list[ast.stmt] = []
    for register, journal in writer.journals.items():
        if register == "o":
            undo.append(pyast.expr_stmt(pyast.helper("h_undo_sites", pyast.name(journal))))
        else:
            old = pyast.name(fresh("t"))
            entries = pyast.name(journal)
            undo.append(pyast.while_(entries, [
                pyast.assign(old, pyast.method(entries, "pop")),
                pyast.assign(pyast.sub(pyast.name(register), pyast.method(entries, "pop")), old),
            ]))
    # (last: a place journaled too gets back what stood there at the start)
    undo += [pyast.assign(pyast.sub(pyast.name(register), index), pyast.name(local))
             for (register, _), (index, local) in writer.saved.items()]
    undo += [pyast.assign(pyast.attr(pyast.name("s"), f), pyast.name(kept[f])) for f in fields]
    return InPlace(start, journaled, undo)


def _written_sites_filled(body: list[ast.stmt], writer: "_Journaling", written: WrittenTest) -> list[ast.stmt]:
    """`body` with each call of WRITTEN replaced by its test (`written`)."""
    journal = pyast.name(writer.journals["b"]) if "b" in writer.journals else None
    fixed = [index for (register, _), (index, _local) in writer.saved.items() if register == "b"]

    def change(node: ast.AST) -> Optional[ast.AST]:
        if isinstance(node, ast.Call) and pyast.is_name(node.func, WRITTEN):
            return written(node, journal, fixed)
        return None

    return pyast.replace_in(body, change)


def _new_containers(nodes: Sequence[ast.AST]) -> frozenset[str]:
    """The locals given only new containers (`[]`, `[... for ...]`, `list(...)`...),
    each by an assignment of its own name (`nodes`: every node of the code)."""
    made: set[str] = set()
    other: set[str] = set()
    by_assign: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.Assign):
            new = _makes_container(node.value)
            for target in node.targets:
                if isinstance(target, ast.Name):
                    by_assign.add(id(target))
                    (made if new else other).add(target.id)
    for node in nodes:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and id(node) not in by_assign:
            other.add(node.id)  # (a loop variable, `:=`, `+=`, a name unpacked)
    return frozenset(made - other)


def _position_lists(nodes: Sequence[ast.AST]) -> frozenset[str]:
    """The locals given a value that may be one of the position's lists: `o`,
    `b`, `v`, `o[E]`, a field of `s`, a loop's variable over `o` (`nodes`: every
    node of the code)."""

    def may_be_list(value: ast.expr) -> bool:
        return (isinstance(value, ast.Name) and value.id in POSITION
                or isinstance(value, ast.Subscript) and pyast.is_name(value.value, "o")
                or isinstance(value, ast.Attribute) and pyast.is_name(value.value, "s")
                or isinstance(value, (ast.IfExp, ast.BoolOp, ast.NamedExpr)))

    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Assign) and may_be_list(node.value):
            names.update(n.id for t in node.targets for n in pyast.walk_in_order(t) if isinstance(n, ast.Name))
        elif isinstance(node, ast.NamedExpr) and may_be_list(node.value):
            names.add(node.target.id)
        elif isinstance(node, (ast.For, ast.comprehension)) and pyast.is_name(node.iter, "o"):
            names.update(n.id for n in pyast.walk_in_order(node.target) if isinstance(n, ast.Name))
    return frozenset(names)


def _makes_container(value: ast.expr) -> bool:
    if isinstance(value, (ast.List, ast.ListComp)):
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in NEW_CONTAINERS


@dataclass
class _Scan:
    """Whether each node changes only what the journal covers (nodes are met
    parents first); the fields of the position the code sets."""

    new_containers: frozenset[str]
    # the locals that may hold one of the position's lists (the board, the
    # variables, the site lists)
    lists: frozenset[str]
    # the module's constants, where an element of one may be set (in_place's `constant`)
    constant: Optional[Callable[[str], bool]] = None
    fields: set[str] = field(default_factory=set)
    # the targets of assignments found covered (by id): other stores are refused
    covered: set[int] = field(default_factory=set)

    def accepts(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Assign):
            return all(self._target(t) for t in node.targets)
        if isinstance(node, ast.AugAssign):
            # (`x += ...` changes a list in place: not one of the position's)
            if isinstance(node.target, ast.Name) and node.target.id in self.lists:
                return False
            return self._target(node.target)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            return node.id not in POSITION
        if isinstance(node, (ast.Subscript, ast.Attribute, ast.Starred, ast.List)) \
                and isinstance(node.ctx, ast.Store):
            return id(node) in self.covered
        return True

    def _call(self, node: ast.Call) -> bool:
        func = node.func
        if isinstance(func, ast.Name):
            if func.id == ENDS:
                self.fields.update(ENDING_FIELDS)
                return True
            if func.id in KEPT_HELPERS:  # (as statements of their own on b and o: _Journaling checks)
                return len(node.args) >= 2 and pyast.is_name(node.args[0], "b") and pyast.is_name(node.args[1], "o")
            return func.id in PURE_HELPERS or func.id in _BUILTINS
        if isinstance(func, ast.Attribute):
            if func.attr in READING_METHODS:
                return True
            if func.attr not in CHANGES_LIST:
                # (a method of a constant: the walk tables, which change no position)
                return isinstance(func.value, ast.Name) and func.value.id.startswith("k")
            if _is_site_list(func.value):
                return func.attr in ("append", "remove")  # (as statements of their own: _Journaling checks)
            return isinstance(func.value, ast.Name) and func.value.id in self.new_containers
        return False

    def _target(self, target: ast.expr) -> bool:
        """A name, a name of a tuple unpacked, `b[E]`, `v[E]`, an element of a new
        container or (where allowed) of a constant, or a field of the position."""
        if isinstance(target, ast.Name):
            return target.id not in POSITION
        if isinstance(target, ast.Tuple):
            self.covered.add(id(target))
            return all(isinstance(t, ast.Name) and t.id not in POSITION for t in target.elts)
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                and not isinstance(target.slice, ast.Slice) \
                and (target.value.id in JOURNALED or target.value.id in self.new_containers
                     or self.constant is not None and self.constant(target.value.id)):
            self.covered.add(id(target))
            return True
        if isinstance(target, ast.Attribute) and pyast.is_name(target.value, "s") and target.attr in FIELDS:
            self.covered.add(id(target))
            self.fields.add(target.attr)
            return True
        return False


def _changes_site_list(node: ast.AST) -> bool:
    """A call that changes a site list (journaled only as a statement of its own)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in KEPT_HELPERS
    return isinstance(func, ast.Attribute) and _is_site_list(func.value) and func.attr in CHANGES_LIST


def _is_site_list(node: ast.expr) -> bool:
    """`o[E]`: one owner's site list."""
    return isinstance(node, ast.Subscript) and pyast.is_name(node.value, "o")


def _simple(node: ast.expr) -> bool:
    """A name or a number: the same value however often it is read (with no `:=` around)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, (ast.Name, ast.Constant))


def _has_walrus(node: ast.AST) -> bool:
    return any(isinstance(n, ast.NamedExpr) for n in pyast.walk_in_order(node))


class _Journaling:
    """Code with each change of the board, the variables and the site lists
    journaled first (the journals' names by register: `journals`)."""

    def __init__(self, fresh: Callable[[str], str], fixed: frozenset[str]):
        self.fresh = fresh
        self.journals: dict[str, str] = {}
        # the locals that keep their value all along (set before the code: `frm`, `to`)
        self.fixed = fixed
        # locals holding a fixed one's value in the statement being journaled (see block)
        self.aliases: dict[str, str] = {}
        # what stood at a fixed place before the code ran, read at its start and put
        # back last: (register, index) -> the local holding it
        self.saved: dict[tuple[str, str], tuple[ast.expr, str]] = {}

    def journal(self, register: str) -> ast.Name:
        if register not in self.journals:
            self.journals[register] = self.fresh("t")
        return pyast.name(self.journals[register])

    def block(self, stmts: Sequence[ast.stmt], aliases: dict[str, str]) -> Optional[list[ast.stmt]]:
        """`stmts` journaled. `aliases`: locals that hold a fixed local's value where
        the block starts (`at`, the acting piece's site, is `frm` until a statement
        sets it; `at = to` makes it `to`); a statement that sets one, a loop that
        does anywhere, reads it as a local of its own."""
        aliases = dict(aliases)
        out: list[ast.stmt] = []
        for stmt in stmts:
            changed = [name for name in aliases if pyast.assigns([stmt], name)]
            self.aliases = {a: f for a, f in aliases.items() if a not in changed}
            done = self.statement(stmt)
            if done is None:
                return None
            out.extend(done)
            for name in changed:
                del aliases[name]
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and stmt.targets[0].id in ALIASED and isinstance(stmt.value, ast.Name) \
                    and stmt.value.id in self.fixed:
                aliases[stmt.targets[0].id] = stmt.value.id
        return out

    def statement(self, stmt: ast.stmt) -> Optional[list[ast.stmt]]:
        if isinstance(stmt, (ast.If, ast.For, ast.While)):
            aliases = self.aliases
            body, orelse = self.block(stmt.body, aliases), self.block(stmt.orelse, aliases)
            if body is None or orelse is None:
                return None
            if isinstance(stmt, ast.If):
                return [ast.If(test=stmt.test, body=body, orelse=orelse)]
            if isinstance(stmt, ast.For):
                return [ast.For(target=stmt.target, iter=stmt.iter, body=body, orelse=orelse, type_comment=None)]
            return [ast.While(test=stmt.test, body=body, orelse=orelse)]
        if isinstance(stmt, ast.Assign) and any(_journaled(t) for t in stmt.targets):
            return self._assign(stmt)
        if isinstance(stmt, ast.AugAssign) and _journaled(stmt.target):
            return self._augment(stmt)
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                and isinstance(stmt.value.func, ast.Attribute) and _is_site_list(stmt.value.func.value) \
                and stmt.value.func.attr in ("append", "remove"):
            return self._site_list(stmt.value)
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name) \
                and stmt.value.func.id in KEPT_HELPERS:
            call, helper = stmt.value, stmt.value.func.id
            kept = pyast.helper(KEPT_HELPERS[helper], *call.args, self.journal("b"), self.journal("o"))
            return [pyast.expr_stmt(kept)]
        if any(_changes_site_list(n) for n in pyast.walk_in_order(stmt)):
            return None  # (inside an expression)
        return [stmt]

    def _index(self, index: ast.expr, out: list[ast.stmt], fixed: bool) -> ast.expr:
        """`index` as read once: itself when `fixed`, else a new local holding it."""
        if fixed:
            return index
        held = pyast.name(self.fresh("t"))
        out.append(pyast.assign(held, index))
        return held

    def _is_fixed(self, index: ast.expr) -> bool:
        """Whether `index` has one value all along: a number or a fixed local."""
        if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
            index = index.operand
        return isinstance(index, ast.Constant) or isinstance(index, ast.Name) and (
            index.id in self.fixed or self.aliases.get(index.id) in self.fixed)

    def _record(self, target: ast.Subscript, index: ast.expr) -> list[ast.stmt]:
        """`journal += (index, container[index])`; nothing at a fixed place, whose
        value is read once at the start instead (`saved`)."""
        register = target.value.id  # type: ignore[attr-defined]  # (_journaled: a name)
        if self._is_fixed(index):
            if isinstance(index, ast.Name) and index.id in self.aliases:
                index = pyast.name(self.aliases[index.id])
            key = (register, pyast.key(index))
            if key not in self.saved:
                self.saved[key] = (index, self.fresh("t"))
            return []
        return [pyast.augment(self.journal(register), "+",
                              pyast.tuple_(index, pyast.sub(pyast.name(register), index)))]

    def _assign(self, stmt: ast.Assign) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        if len(stmt.targets) == 1 and _simple(stmt.targets[0].slice) and not _has_walrus(stmt.value):  # type: ignore[attr-defined]
            target = stmt.targets[0]
            assert isinstance(target, ast.Subscript)
            return self._record(target, target.slice) + [stmt]
        # Python's order: the value, then each target from the left.
        value = pyast.name(self.fresh("t"))
        out.append(pyast.assign(value, stmt.value))
        for target in stmt.targets:
            if _journaled(target):
                assert isinstance(target, ast.Subscript)
                index = self._index(target.slice, out, self._is_fixed(target.slice))
                out.extend(self._record(target, index))
                out.append(pyast.assign(pyast.sub(target.value, index), value))
            else:
                out.append(ast.Assign(targets=[target], value=value))
        return out

    def _augment(self, stmt: ast.AugAssign) -> list[ast.stmt]:
        target = stmt.target
        assert isinstance(target, ast.Subscript)
        out: list[ast.stmt] = []
        # (Python reads the container and the index before the value)
        index = self._index(target.slice, out, _simple(target.slice))
        out.extend(self._record(target, index))
        changed = ast.Subscript(value=target.value, slice=index, ctx=ast.Store())
        out.append(ast.AugAssign(target=changed, op=stmt.op, value=stmt.value))
        return out

    def _site_list(self, call: ast.Call) -> Optional[list[ast.stmt]]:
        func = call.func
        assert isinstance(func, ast.Attribute)
        if len(call.args) != 1:
            return None
        out: list[ast.stmt] = []
        sites = pyast.name(self.fresh("t"))
        out.append(pyast.assign(sites, func.value))
        site = self._index(call.args[0], out, _simple(call.args[0]) and not _has_walrus(func.value))
        journal = self.journal("o")
        if func.attr == "remove":
            out.append(pyast.expr_stmt(pyast.method(journal, "append", pyast.tuple_(
                sites, site, pyast.method(sites, "index", site)))))
            out.append(pyast.expr_stmt(pyast.method(sites, "remove", site)))
        else:
            out.append(pyast.expr_stmt(pyast.method(sites, "append", site)))
            out.append(pyast.expr_stmt(pyast.method(journal, "append", pyast.tuple_(sites, site))))
        return out


def _journaled(target: ast.expr) -> bool:
    """`b[E]` or `v[E]`: a change the journal keeps."""
    return isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id in JOURNALED
