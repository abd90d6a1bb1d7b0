"""What the generated code's board writes keep up to date: the board's key
(`State.board_key`), the empty sites (`State.empty`) and the groups' records
(`State.chains`: `h_chains_wrote` told of each write at one site that changed the
piece there, `h_chains_forget` after any other; runtime/chains.py).

Where the rules read `board repetitions`, the start of every turn counts the board
as it stands (`State.count_board`). Hashing the whole board for it cost a fifth of
a ply where a stone is placed; instead a board's key is the XOR of `hash((site, piece))` over its occupied sites
(helpers.board_key: Zobrist hashing), and the generated code changes it where it
writes the board. Where a playout's draw takes its candidates from the empty sites
(compilation/draws.py: a drop onto any empty site of the board), the state keeps
the list of them the same way — where every write of the generated code is at
one site (`writes_many_sites`). Made in board order, it stays so where no rule
empties a site (`RulesInfo.sites_stay_taken`): a site taken is then found by
bisection, not by `list.remove`'s scan, and one an undo empties is inserted in
its place; elsewhere it is in no particular order (appended to):

- `b[X] = V`, and a helper that changes the one site it is given as its third
  argument (`h_clear`, `h_replace`, their journaled forms, `h_lift_one`,
  `h_land_one`): `if b[X] is not None: s.board_key ^= h_hash((X, b[X]))` before
  the statement and after it — what stood there leaves the key, what stands there
  now enters it (an empty site is in no key: after `b[X] = None`, nothing); whether the site was empty is noted
  before, and after it the site joins `s.empty` or leaves it when that changed.
  Where the statement leaves the site empty (`b[X] = None`, `h_clear`), all of
  that follows it under one test of what stood there (a local), the board not
  read again. A site worked out by an expression (the journal's `b[t.pop()] = old`) is worked
  out once, into a local, in the order Python evaluates an assignment;
- any other statement that may change the board (a helper given the board or the
  position that is not known to leave the board alone, two writes in one
  statement, a new board): the key and the list are made again from the whole
  board after it.

Every function is rewritten, the `forbid result` checks tried in place too: their
undo writes the board back through the same statements, so the key and the empty
sites come back with it (the list maybe in another order). Functions that never
write the board are left as they are.

Where the rules read `repetitions`, positions are counted at the start of every
turn by a key made of the board's key (`Engine.history_key`), kept the same way;
where they read `repetitions` and not `board repetitions`, nothing reads the key
but the engine between actions, so the compiler leaves the key out of the `forbid
result` checks and deferred `where`s (`keep_board_state(key=False)`): they give the
board back as it was (or play on a copy they drop), and a key not kept through
their writes is the key they leave. (Keeping it there cost more in a perft of 197k
leaves, 0.43 → 0.49 s, than the key saved: benchmarks/PROFILE-NOTES.md, s-zobrist.)
And where keeping it through the writes would cost more than hashing the whole
board where a position is counted (a small board, actions writing many sites:
`keeping_costs_less`), no write keeps it: `Engine.history_key` hashes the board
itself (positions saved with those keys say so: `engine.history_keys`).
"""
from __future__ import annotations

import ast
import copy
from typing import Callable, Optional, Sequence

from . import pyast
from .journal import PURE_HELPERS

# Helpers that change the board at one site, their third argument (after b and o).
ONE_SITE_WRITERS = frozenset({"h_clear", "h_replace", "h_clear_kept", "h_replace_kept", "h_lift_one", "h_land_one"})
# Those of them that always leave their site empty (what stood there is taken off).
CLEARING_WRITERS = frozenset({"h_clear", "h_clear_kept"})
# Helpers given the position that leave its board alone (`h_result_filter` runs
# the `forbid result` checks, generated functions that keep what this module keeps
# and give the board back as it was).
BOARD_LEFT_ALONE = PURE_HELPERS | {"h_end", "h_trial", "h_undo_sites", "h_result_filter", "h_group_kept"}
_KEY = "board_key"
_EMPTY = "empty"
# (the helper asking the groups' records, runtime/chains.py)
_ASKS_CHAINS = ("h_liberties", "h_group_mask")


class _Write:
    """A write at one site as the upkeep sees it: the site, the local holding what
    stood there before (read once, before the write, for every upkeep), and what
    stands there after it where the statement tells (`b[X] = V` with V a name: the
    piece V, `never_none` when V only ever holds a piece of a constant table, so
    the site is occupied after it; None: read `b[X]` again); `cleared` where the
    site is empty after it (`b[X] = None`, `h_clear`), which the upkeep then need
    not read."""

    def __init__(self, site: ast.expr, was: ast.Name, value: Optional[ast.Name], never_none: bool,
                 cleared: bool = False):
        self.site = site
        self.was = was
        self.value = value
        self.never_none = never_none
        self.cleared = cleared

    def now(self) -> ast.expr:
        """What stands on the site after the write."""
        if self.value is not None:
            return pyast.name(self.value.id)
        return pyast.sub(pyast.name("b"), copy.deepcopy(self.site))


class _Kept:
    """Something the board's writes keep: the statements before and after a write
    at one site, and after any other write."""

    def before(self, write: _Write) -> list[ast.stmt]:
        raise NotImplementedError

    def after(self, write: _Write) -> list[ast.stmt]:
        raise NotImplementedError

    def remade(self) -> ast.stmt:
        raise NotImplementedError


class _BoardKey(_Kept):
    def before(self, write: _Write) -> list[ast.stmt]:
        return [_toggle(write.site, pyast.name(write.was.id), False)]

    def after(self, write: _Write) -> list[ast.stmt]:
        # (an empty site is in no key)
        return [] if write.cleared else [_toggle(write.site, write.now(), write.never_none)]

    def remade(self) -> ast.stmt:
        return _remade()


class _EmptySites(_Kept):
    """`s.empty`: the sites holding nothing (helpers.empty_sites). Where `ordered`,
    kept in board order (as it is made): a site taken is found by bisection
    (`list.remove` compares the sites before it one by one: a few µs on a board of
    200 sites, at every placement), one emptied inserted in its place."""

    def __init__(self, ordered: bool = False) -> None:
        self.ordered = ordered

    def before(self, write: _Write) -> list[ast.stmt]:
        return []

    def _joins(self, site: ast.expr) -> ast.stmt:
        kept = pyast.attr(pyast.name("s"), _EMPTY)
        if self.ordered:
            return pyast.expr_stmt(pyast.helper("h_insort", kept, site))
        return pyast.expr_stmt(pyast.method(kept, "append", site))

    def _leaves(self, site: ast.expr) -> ast.stmt:
        kept = pyast.attr(pyast.name("s"), _EMPTY)
        if self.ordered:
            return pyast.expr_stmt(pyast.method(kept, "pop", pyast.helper("h_bisect", copy.deepcopy(kept), site)))
        return pyast.expr_stmt(pyast.method(kept, "remove", site))

    def after(self, write: _Write) -> list[ast.stmt]:
        if write.cleared:  # (the site joins the empty ones if it held a piece)
            return [pyast.if_(pyast.is_not_none(pyast.name(write.was.id)), [self._joins(copy.deepcopy(write.site))])]
        taken: list[ast.stmt] = [self._leaves(copy.deepcopy(write.site))]
        if not write.never_none:
            taken = [pyast.if_(pyast.is_not_none(write.now()), taken)]
        emptied = [] if write.never_none else [pyast.if_(pyast.is_none(write.now()), [
            self._joins(copy.deepcopy(write.site))])]
        return [pyast.if_(pyast.is_none(pyast.name(write.was.id)), taken, emptied)]

    def remade(self) -> ast.stmt:
        return pyast.assign(pyast.attr(pyast.name("s"), _EMPTY), pyast.helper("h_empty_sites", pyast.name("b")))


class _Chains(_Kept):
    """`s.chains`: the groups and their liberties (runtime/chains.py), told what
    stood on the site when the write changed it; `adjacent` names the neighbours'
    table they are kept by. Without `liberties` (no rule asks them) only the
    groups' stones are kept (`wrote_stones`); a site left empty is told apart
    (`cleared`: what stood there is known to have been a piece, one call less)."""

    def __init__(self, adjacent: str, liberties: bool):
        self.adjacent = adjacent
        self.helper = "h_chains_wrote" if liberties else "h_chains_stones_wrote"
        self.cleared = "h_chains_cleared" if liberties else "h_chains_stones_cleared"

    def before(self, write: _Write) -> list[ast.stmt]:
        return []

    def after(self, write: _Write) -> list[ast.stmt]:
        was = pyast.name(write.was.id)
        if write.cleared:
            told = pyast.helper(self.cleared, pyast.name("s"), pyast.name("b"), pyast.name(self.adjacent),
                                copy.deepcopy(write.site))
            return [pyast.if_(pyast.is_not_none(was), [pyast.expr_stmt(told)])]
        told = pyast.helper(self.helper, pyast.name("s"), pyast.name("b"), pyast.name(self.adjacent),
                            copy.deepcopy(write.site), copy.deepcopy(was))
        return [pyast.if_(pyast.compare(write.now(), "is not", was), [pyast.expr_stmt(told)])]

    def remade(self) -> ast.stmt:
        return pyast.expr_stmt(pyast.helper("h_chains_forget", pyast.name("s")))


def keep_board_key(function: ast.FunctionDef, fresh: Callable[[str], str]) -> ast.FunctionDef:
    """`function` with the key updated at each board write (a copy; the same
    function when it writes nothing of the board). `fresh` makes new local names."""
    return keep_board_state(function, fresh, key=True, empty=False)


def keep_board_state(function: ast.FunctionDef, fresh: Callable[[str], str], key: bool,
                     empty: bool, chains: Optional[str] = None, liberties: bool = True,
                     value: Optional[Callable[[ast.expr], object]] = None,
                     empty_ordered: bool = False) -> ast.FunctionDef:
    """`function` with the board's key (`key`), the list of empty sites (`empty`)
    and the groups' records (`chains`: the name of the neighbours' table they are
    kept by; their liberties too where `liberties`) kept at each board write (a
    copy; the same function when it writes nothing of the board or keeps nothing).
    `value` gives a constant's value: a write of a name that only ever holds a piece
    of a constant table (`_piece_names`) leaves its site occupied, which its upkeep
    then need not ask. `empty_ordered`: the list kept in board order (where no
    rule empties a site, what it is anyway but after an undo)."""
    kept: list[_Kept] = ([_BoardKey()] if key else []) + ([_EmptySites(empty_ordered)] if empty else []) \
        + ([_Chains(chains, liberties)] if chains else [])
    if not kept or not any(_write(stmt) for stmt in _simple_statements(function.body)):
        return function
    rewritten = pyast.changeable_copy(function)
    pieces = _piece_names(function, value) if value is not None else frozenset()
    rewritten.body = _Rewriter(fresh, kept, pieces).block(rewritten.body)
    if chains:
        _groups_from_records(rewritten, chains)
    return rewritten


def _groups_from_records(function: ast.FunctionDef, adjacent: str) -> None:
    """`h_group(b, ADJ, X)` by the neighbours the records are kept by becomes
    `h_group_kept(s, b, ADJ, X)`: a stone alone in its group (what a capture
    usually takes) is known from the records without a search."""
    for node in pyast.walk(function):
        if isinstance(node, ast.Call) and pyast.is_name(node.func, "h_group") and len(node.args) == 3 \
                and pyast.is_name(node.args[0], "b") and pyast.is_name(node.args[1], adjacent):
            node.func = pyast.name("h_group_kept")
            node.args.insert(0, pyast.name("s"))


def reads_empty_sites(function: ast.AST) -> bool:
    """Whether `function` reads `s.empty` (then the state keeps it, unless some
    function `writes_many_sites`)."""
    return any(isinstance(node, ast.Attribute) and node.attr == _EMPTY and pyast.is_name(node.value, "s")
               for node in pyast.walk(function))


def reads_chains(function: ast.AST) -> bool:
    """Whether `function` asks the groups' records (then every write keeps them)."""
    return pyast.names_any(function, _ASKS_CHAINS) and any(
        isinstance(node, ast.Call) and any(pyast.is_name(node.func, h) for h in _ASKS_CHAINS)
        for node in pyast.walk(function))


def reads_liberties(function: ast.AST) -> bool:
    """Whether `function` asks a group's liberties (`h_liberties`, also where its
    usual answer is read in place: liberties.py); where no function does, the
    records keep only the groups' stones."""
    return pyast.names_any(function, ("h_liberties",)) and any(
        isinstance(node, ast.Call) and pyast.is_name(node.func, "h_liberties") for node in pyast.walk(function))


def writes_board(function: ast.FunctionDef) -> bool:
    """Whether `function` may write the board (then it is rewritten to keep what
    the writes keep)."""
    return any(_write(stmt) for stmt in _simple_statements(function.body))


def writes_many_sites(function: ast.FunctionDef) -> bool:
    """Whether `function` has a statement that may change the board elsewhere than
    at one site (a rotation, a new board): the empty sites would be made again
    from the whole board after it, which costs more than drawing among occupied
    sites saves (a quarter of the board rotated after every placement), so they are not kept."""
    return any(_write(stmt) is True for stmt in _simple_statements(function.body))


def may_empty_a_site(function: ast.FunctionDef, value: Callable[[ast.expr], object]) -> bool:
    """Whether `function` may leave a site empty that held a piece: anything but
    writes `b[X] = V` at one site of a value never None (`V` a name the function
    sets only from a constant table of pieces read at an index, `value` giving a
    constant's value) counts as one."""
    writes = [(stmt, site) for stmt in _simple_statements(function.body) if (site := _write(stmt)) is not None]
    if not writes:
        return False
    if any(site is True for _, site in writes):
        return True
    pieces = _piece_names(function, value)
    return not all(isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                   and _board_target(stmt.targets[0]) is not None and isinstance(stmt.value, ast.Name)
                   and stmt.value.id in pieces for stmt, _ in writes)


def _piece_names(function: ast.FunctionDef, value: Callable[[ast.expr], object]) -> frozenset[str]:
    """The names `function` sets only from a constant table of pieces read at an
    index (`pc = k7[p]`): they never hold None."""
    pieces: dict[str, bool] = {}
    for node in pyast.walk(function):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr, ast.For,
                             ast.comprehension)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in pyast.walk(target):
                    if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                        table = node.value.value if isinstance(node, ast.Assign) and target is name \
                            and isinstance(node.value, ast.Subscript) else None
                        rows = value(table) if table is not None else None
                        never_none = isinstance(rows, (tuple, list)) and bool(rows) \
                            and all(isinstance(row, tuple) for row in rows)
                        pieces[name.id] = pieces.get(name.id, True) and never_none
    return frozenset(name for name, never_none in pieces.items() if never_none)


class _Rewriter:
    def __init__(self, fresh: Callable[[str], str], kept: Sequence[_Kept], pieces: frozenset[str]):
        self.fresh = fresh
        self.kept = kept
        self.pieces = pieces  # (the names that only ever hold a piece: never None)

    def _remade(self) -> list[ast.stmt]:
        return [k.remade() for k in self.kept]

    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            out.extend(self.statement(stmt))
        return out

    def statement(self, stmt: ast.stmt) -> list[ast.stmt]:
        blocks = [field for field in ("body", "orelse", "finalbody") if isinstance(getattr(stmt, field, None), list)]
        if blocks or isinstance(stmt, ast.Try):
            for field in blocks:
                setattr(stmt, field, self.block(getattr(stmt, field)) if getattr(stmt, field) else [])
            for handler in getattr(stmt, "handlers", ()):
                handler.body = self.block(handler.body)
            if any(_write(part) for part in _headers(stmt)):
                # (a write in a test or an iterable: made again in every block and after)
                for field in blocks:
                    setattr(stmt, field, self._remade() + getattr(stmt, field))
                return [stmt, *self._remade()]
            return [stmt]
        write = _write(stmt)
        if write is None:
            return [stmt]
        if isinstance(stmt, ast.Return) and stmt.value is not None:
            # (the value worked out first, then the key made again, then returned)
            value = pyast.name(self.fresh("t"))
            return [pyast.assign(value, stmt.value), *self._remade(), ast.Return(value=value)]
        site = write if isinstance(write, ast.expr) else None
        if site is None or isinstance(stmt, ast.Raise):
            return [stmt, *self._remade()]
        first: list[ast.stmt] = []
        if not _simple(site) or _rebinds(stmt, site):
            first, site = self._hoisted(stmt, site)
        cleared = isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant) and stmt.value.value is None \
            or isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id in CLEARING_WRITERS
        # (`b[X] = V`, V a name: V stands on the site after it)
        written = stmt.value if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Name) \
            and any(_board_target(target) is site for target in stmt.targets) \
            and not _rebinds(stmt, stmt.value) else None
        write = _Write(site, pyast.name(self.fresh("t")), written, written is not None and written.id in self.pieces,
                       cleared)
        before: list[ast.stmt] = [pyast.assign(pyast.name(write.was.id), pyast.sub(pyast.name("b"),
                                                                                    copy.deepcopy(site)))]
        after: list[ast.stmt] = []
        for kept in self.kept:
            before += kept.before(write)
            after += kept.after(write)
        if cleared:
            # (each upkeep of a site left empty reads only what stood there, kept in
            # its local, and does nothing where that was nothing: all of it after
            # the write, under one test)
            return first + before[:1] + [stmt] + _one_test(before[1:] + after)
        return first + before + [stmt] + after

    def _hoisted(self, stmt: ast.stmt, site: ast.expr) -> tuple[list[ast.stmt], ast.expr]:
        """Locals for the written site (and, for `b[E] = V`, the value first, as Python
        evaluates them), so that the site is worked out once."""
        local = pyast.name(self.fresh("t"))
        written = [i for i, target in enumerate(stmt.targets) if _board_target(target) is site] \
            if isinstance(stmt, ast.Assign) else []
        if written:
            assert isinstance(stmt, ast.Assign)
            value = pyast.name(self.fresh("t"))
            first: list[ast.stmt] = [pyast.assign(value, stmt.value), pyast.assign(local, site)]
            stmt.value = value
            stmt.targets[written[0]] = pyast.as_store(pyast.sub(pyast.name("b"), local))
            return first, local
        assert isinstance(stmt, (ast.Expr, ast.Assign)) and isinstance(stmt.value, ast.Call)  # (a one-site helper)
        stmt.value.args[2] = local
        return [pyast.assign(local, site)], local


def _one_test(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """`stmts` with each run of `if T: ...` (no `else`) under one test T written as
    one `if`: T must read only a local that none of them sets (the write's `was`)."""
    out: list[ast.stmt] = []
    for stmt in stmts:
        last = out[-1] if out else None
        if isinstance(stmt, ast.If) and not stmt.orelse and isinstance(last, ast.If) and not last.orelse \
                and ast.dump(stmt.test) == ast.dump(last.test):
            out[-1] = pyast.if_(last.test, [*last.body, *stmt.body])
        else:
            out.append(stmt)
    return out


def _simple_statements(stmts: list[ast.stmt]) -> list[ast.AST]:
    """The statements without blocks of `stmts`, nested ones included, and the
    tests and iterables of those with blocks."""
    found: list[ast.AST] = []
    for stmt in pyast.statements_in(stmts):
        if isinstance(stmt, (ast.If, ast.For, ast.While, ast.Try, ast.With)):
            found.extend(_headers(stmt))
        else:
            found.append(stmt)
    return found


def _headers(stmt: ast.stmt) -> list[ast.AST]:
    if isinstance(stmt, (ast.If, ast.While)):
        return [stmt.test]
    if isinstance(stmt, ast.For):
        return [stmt.target, stmt.iter]
    if isinstance(stmt, ast.With):
        return list(stmt.items)
    return []


def _write(node: ast.AST) -> Optional[object]:
    """What `node` may write of the board: None (nothing), the site (an expression)
    of its only write at one site, or True (anything else)."""
    sites: list[ast.expr] = []
    other = False
    for part in pyast.walk(node):
        if isinstance(part, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = part.targets if isinstance(part, (ast.Assign, ast.Delete)) else [part.target]
            for target in targets:
                for element in pyast.walk(target):
                    site = _board_target(element)
                    if site is not None:
                        if isinstance(part, ast.Assign) and target is element and _others_named(part, target, site):
                            sites.append(site)
                        else:
                            other = True
                    elif isinstance(element, ast.Attribute) and element.attr == "board":
                        other = True  # (a new board)
        elif isinstance(part, ast.Call):
            func = part.func
            if isinstance(func, ast.Name) and func.id in ONE_SITE_WRITERS and len(part.args) > 2 \
                    and pyast.is_name(part.args[0], "b") and isinstance(node, (ast.Expr, ast.Assign)) \
                    and node.value is part:
                sites.append(part.args[2])
            elif isinstance(func, ast.Name) and func.id in ONE_SITE_WRITERS:
                other = True
            elif isinstance(func, ast.Name) and func.id.startswith("h_") and func.id not in BOARD_LEFT_ALONE:
                if any(pyast.is_name(n, "b") or pyast.is_name(n, "s") for arg in part.args for n in pyast.walk(arg)):
                    other = True
            elif isinstance(func, ast.Attribute) and pyast.is_name(func.value, "b") and func.attr not in ("index",
                                                                                                         "count"):
                other = True
    if other or len(sites) > 1:
        return True
    return sites[0] if sites else None


def _others_named(stmt: ast.Assign, target: ast.expr, site: ast.expr) -> bool:
    """Whether the targets of `stmt` besides `target` (`x0 = b[at] = V`) are locals
    the site is not read from: then it writes the board at one site."""
    others = [t for t in stmt.targets if t is not target]
    names = {t.id for t in others if isinstance(t, ast.Name)}
    return len(names) == len(others) and not any(isinstance(n, ast.Name) and n.id in names for n in pyast.walk(site))


def _board_target(node: ast.AST) -> Optional[ast.expr]:
    """The site of `b[site]` when `node` is one."""
    if isinstance(node, ast.Subscript) and pyast.is_name(node.value, "b"):
        return node.slice
    return None


def _simple(site: ast.expr) -> bool:
    return isinstance(site, (ast.Name, ast.Constant))


def _rebinds(stmt: ast.stmt, site: ast.expr) -> bool:
    """Whether `stmt` binds the name the site is read from (then read before it)."""
    if not isinstance(site, ast.Name):
        return False
    targets = stmt.targets if isinstance(stmt, ast.Assign) else []
    return any(isinstance(n, ast.Name) and n.id == site.id and isinstance(n.ctx, ast.Store) for target in targets
               for n in pyast.walk(target))


def _toggle(site: ast.expr, on_site: ast.expr, occupied: bool) -> ast.stmt:
    """`if P is not None: s.board_key ^= h_hash((site, P))` (h_hash: the builtin
    `hash`), P what stands on the site (a local or `b[site]`): the piece enters or
    leaves the key. An empty site is in no key, so that placing a piece or taking
    one off hashes one piece, not two (hashing costs ten times the test); where P
    is sure to be a piece (`occupied`), no test."""
    toggled = pyast.augment(pyast.attr(pyast.name("s"), _KEY), "^", pyast.helper(
        "h_hash", pyast.tuple_(copy.deepcopy(site), copy.deepcopy(on_site))))
    return toggled if occupied else pyast.if_(pyast.is_not_none(on_site), [toggled])


def _remade() -> ast.stmt:
    """`s.board_key = h_board_key(b)`: the key made again from the whole board."""
    return pyast.assign(pyast.attr(pyast.name("s"), _KEY), pyast.helper("h_board_key", pyast.name("b")))



# What a write's upkeep of the key costs (two hashes of a site and its piece, the
# tests around them), in sites of a board hashed whole in one call
# (`hash(tuple(board))`, Engine.history_key): ~0.6 µs against ~0.1 µs a site.
WRITE_IN_SITES = 6


def keeping_costs_less(functions: Sequence[ast.FunctionDef], sites: int) -> bool:
    """Whether keeping the board's key through the writes of `functions` costs less
    than hashing the whole board of `sites` sites where a position is counted (where
    only `repetitions` reads it, at the start of each turn): an action is taken to
    write as often as the function with the most writes has them, a write in a loop
    once (a sowing game's action, a write in a loop and two besides, on a board of 12
    sites: benchmarks/PROFILE-NOTES.md)."""
    return sites > WRITE_IN_SITES * max(map(_writes, functions), default=0)


def _writes(function: ast.FunctionDef) -> int:
    """How many statements of `function` may write the board (a test or iterable
    that writes it counted too)."""
    return sum(1 for stmt in _simple_statements(function.body) if _write(stmt) is not None)
