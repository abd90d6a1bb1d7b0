"""A check skipped where every search of its parts keeps a path the candidate misses.

A `forbid result` part such as `... and not (exists(connected(S, C), G) and
...)` is false wherever each of its searches finds its goal. A search that
keeps its paths (expr_connected.witnessed_loop: tables of paths by start,
`helpers.keep_path`) proves that on the position after a candidate without
playing it: a kept path from the search's start whose every site meets the
condition C on the listed board and whose end meets G stays whole after a
candidate that writes none of its sites — C and G read nothing but the site's
own piece and constants. So a screen (clearances.py) lets a candidate through
without calling its check where, for every search of the check's parts, one
such path misses the candidate's places (`helpers.paths_missed`).

What the compiler proves first (`skip_plan`): each part of the check is false
wherever the answers of its searches are true (`false_where_found`: the part's
code asked with those answers true and everything else unknown, three-valued),
each search's start reads nothing the candidate changes (a constant site, or
the first site of a player's pieces where no piece the candidate puts is that
player's: a site it empties is not the start, which is on every kept path), C
and G read the board at the site alone. Which tables hold the paths: the
search's own and the one of the path kept before it.
"""
from __future__ import annotations

import ast as py
import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Sequence

from ..runtime.helpers import PathBitsOf
from . import pyast
from .code import Witness
from .tabulate import worked_out

if TYPE_CHECKING:
    from .source import Source

PATHS_MISSED = "h_paths_missed"
KEEPS_PATH = "h_keep_path"
# Whether screens skip the checks their searches' kept paths answer (off: for
# the tests comparing the two).
ENABLED = True

# Nodes a condition of a site may be made of: reads and comparisons, nothing
# that calls, assigns or may fail otherwise than a read.
_PLAIN = (py.BoolOp, py.UnaryOp, py.Compare, py.Name, py.Constant, py.Subscript, py.IfExp, py.Load,
          py.boolop, py.unaryop, py.cmpop, py.BinOp, py.BitOr, py.BitAnd)


@dataclass(frozen=True)
class KeptSearch:
    """A search of `exists(connected(...), G)` that keeps its paths, registered
    by the local of its answer (Source.kept_searches): its witness, the table of
    the paths kept before the last (or None), the quantifier's variable and G."""

    witness: Witness
    before: Optional[py.Name]
    var: str
    goal: py.expr
    start: py.expr  # what the witness's start local is set to

    def shape(self) -> Optional[tuple[str, ...]]:
        """What another search must share with this one for a path either keeps
        to be a path of the other: the start, the neighbours, the condition of a
        site and the goal (the sites' names left out); None without a table of
        neighbours."""
        witness = self.witness
        if witness.neighbours is None:
            return None
        return (py.dump(self.start), witness.neighbours.id, _dump_renamed(witness.cond, witness.site),
                _dump_renamed(self.goal, self.var))


def _dump_renamed(node: py.expr, site: str) -> str:
    """`node` as text with the name `site` written `_`."""
    return py.dump(pyast.replace_nodes(node, pyast.renaming(site, "_"), {}))


def false_where_found(lines: Sequence[py.stmt], code: py.expr, found: frozenset[str]) -> bool:
    """Whether the part asked by `lines` then `code` is false wherever every
    answer named in `found` is true: the statements followed with three values
    (True, False, unknown). An answer is true wherever it is read, its
    assignments left out; any
    other statement but an assignment of a name or an `if` (one not asking
    an answer it sets: inside the search) leaves each name it stores unknown.
    A test that is a name unknown is taken as true in the body and false in
    the `else`."""
    Env = dict[str, Optional[bool]]

    def value(node: py.expr, env: Env) -> Optional[bool]:
        if isinstance(node, py.Constant) and isinstance(node.value, bool):
            return node.value
        if isinstance(node, py.Name):
            return True if node.id in found else env.get(node.id)
        if isinstance(node, py.UnaryOp) and isinstance(node.op, py.Not):
            inner = value(node.operand, env)
            return None if inner is None else not inner
        if isinstance(node, py.BoolOp):
            values = [value(v, env) for v in node.values]
            stop = isinstance(node.op, py.Or)  # (the value that decides: True for `or`, False for `and`)
            if stop in values:
                return stop
            return None if None in values else not stop
        return None

    def stored(stmts: Sequence[py.AST]) -> set[str]:
        return {n.id for n in pyast.walk_all(stmts) if isinstance(n, py.Name) and isinstance(n.ctx, py.Store)}

    def forget(env: Env, names: set[str]) -> None:
        for name in names - found:
            env[name] = None

    def run(stmts: Sequence[py.stmt], env: Env) -> Env:
        for stmt in stmts:
            names = stored([stmt])
            if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name) \
                    and not stored([stmt.value]):
                if stmt.targets[0].id not in found:
                    env[stmt.targets[0].id] = value(stmt.value, env)
            elif isinstance(stmt, py.If) and not stored([stmt.test]) \
                    and not (pyast.names_in([stmt.test]) & names & found):
                # (an `if` asking an answer it sets is the search's own: its answer is not known
                # there yet — below, with `else`, whatever it stores forgotten)
                test = value(stmt.test, env)
                if test is not None:
                    env = run(stmt.body if test else stmt.orelse, env)
                    continue
                yes, no = dict(env), dict(env)
                if isinstance(stmt.test, py.Name):
                    yes[stmt.test.id], no[stmt.test.id] = True, False
                yes, no = run(stmt.body, yes), run(stmt.orelse, no)
                env = {name: yes.get(name) if yes.get(name) == no.get(name) else None
                       for name in set(yes) | set(no)}
            else:
                forget(env, names)
        return env

    return value(code, run(lines, {})) is False


def _reads_site_alone(node: py.expr, site: str) -> bool:
    """Whether `node` reads nothing but the board at the site named `site`,
    that site, the player, the opponent and constants."""
    for n in pyast.walk(node):
        if not isinstance(n, _PLAIN):
            return False
        if isinstance(n, py.Subscript) and pyast.is_name(n.value, "b") and not pyast.is_name(n.slice, site):
            return False
        if isinstance(n, py.Name) and n.id not in (site, "b", "p", "q") and not _constant(n.id):
            return False
    return True


def _constant(name: str) -> bool:
    return name.startswith("k") and name[1:].isdigit()


def _start_of(lines: Sequence[py.stmt], start: str) -> Optional[py.expr]:
    """The expression `lines` assign the search's start local `start`, where one assignment does."""
    values = [n.value for n in pyast.walk_all(lines) if isinstance(n, py.Assign) and len(n.targets) == 1
              and pyast.is_name(n.targets[0], start)]
    return values[0] if len(values) == 1 else None


def _start_kept(start: py.expr, pieces: Sequence[py.expr]) -> Optional[list[py.expr]]:
    """The tests, asked once per listing, under which the candidates leave
    `start` as it was: none for a constant site; for `h_first(o[X])` (X the
    player, the opponent or a whole number), that no piece in `pieces` (what
    the candidates put, expressions of constants, `pc`, `p` and `q`) is in
    X's list. None where it cannot be told."""
    if isinstance(start, py.Constant) and type(start.value) is int or isinstance(start, py.Name) \
            and _constant(start.id):
        return []
    if not (isinstance(start, py.Call) and pyast.is_name(start.func, "h_first") and len(start.args) == 1):
        return None
    listed = start.args[0]
    if not (isinstance(listed, py.Subscript) and pyast.is_name(listed.value, "o")):
        return None
    owner = listed.slice
    if not (isinstance(owner, py.Name) and owner.id in ("p", "q")
            or isinstance(owner, py.Constant) and type(owner.value) is int
            or isinstance(owner, py.UnaryOp) and isinstance(owner.op, py.USub)
            and isinstance(owner.operand, py.Constant) and type(owner.operand.value) is int):
        return None
    tests: list[py.expr] = []
    for piece in pieces:
        if isinstance(piece, py.Constant) and piece.value is None:
            continue
        if any(isinstance(n, py.Name) and n.id not in ("pc", "p", "q") and not _constant(n.id)
               for n in pyast.walk(piece)) or not all(isinstance(n, _PLAIN) for n in pyast.walk(piece)):
            return None
        tests.append(pyast.or_(pyast.is_none(copy.deepcopy(piece)), pyast.compare(
            pyast.sub(pyast.name("o"), pyast.sub(copy.deepcopy(piece), pyast.num(0))), "is not",
            copy.deepcopy(listed))))
    return tests


def skip_plan(parts: Sequence[tuple[Sequence[py.stmt], py.expr]], src: "Source",
              pieces: Sequence[py.expr], bits: py.Name, size: int) -> Optional[tuple[list[py.stmt], list[str]]]:
    """For a check asking `parts` (each its lines and code), on candidates that
    put `pieces`: the statements, asked once per listing, that find for each
    search of the parts the bitmasks of its kept paths that hold (in locals,
    one list a search: none where the candidates may change a start) and those
    locals' names; None where a part may be true with its searches' answers
    true, or a search cannot be asked so."""
    found: list[KeptSearch] = []
    tests: list[py.expr] = []
    prelude: list[py.stmt] = []
    masks: list[str] = []
    # (by condition of a site, and the sites where it fails when empty, the local of the
    # sites where it fails on the listed board: found once for the searches asking the
    # same condition, all in `prelude` in turn)
    failing: dict[str, str] = {}
    for lines, code in parts:
        stored = {n.id for n in pyast.walk_all(lines) if isinstance(n, py.Name) and isinstance(n.ctx, py.Store)}
        searches = src.kept_searches
        answers = frozenset(name for name in stored if name in searches)
        if not answers or not false_where_found(lines, code, answers):
            return None
        for answer in sorted(answers):
            search = searches[answer]
            witness = search.witness
            start = _start_of(lines, witness.start.id)
            if witness.lines or start is None or not _reads_site_alone(witness.cond, witness.site) \
                    or not _reads_site_alone(search.goal, search.var):
                return None
            kept = _start_kept(start, pieces)
            if kept is None:
                return None
            tests += kept
            shape = search.shape()
            if shape is None:
                return None
            tables = src.bound_later(src.fresh("k"))
            src.kept_tables[tables.id] = (shape, bits.id)
            found.append(search)
            prelude += _valid_paths(search, tables, start, bits, src, masks, _failing_empty(search, src, size),
                                    failing)
    if not found:
        return None
    made = [pyast.assign(pyast.name(m), pyast.list_()) for m in masks]
    return made + ([pyast.if_(pyast.and_(*tests), prelude)] if tests else prelude), masks



def tables_bound(src: "Source") -> dict[str, tuple[tuple[Any, Any], ...]]:
    """The values of the names `skip_plan` made to be bound once the module is
    written: for each, the tables of paths by start (a search's own and the one
    of the paths kept before) of every search of its shape (`KeptSearch.shape`:
    the listing's recording of the part, each case's check) that the module
    keeps paths in — `helpers.keep_path`'s first and fifth arguments —, each once,
    each with the table of its paths' bitmasks by start: the one every call
    keeping paths in it keeps them in (its last argument, `bits_beside`, with the same
    sites' bits), else one working them out (`helpers.PathBitsOf`)."""
    kept: set[str] = set()
    beside: dict[str, Optional[tuple[str, str]]] = {}  # (by table: its bitmasks' table and their bits)
    # (a function not naming the helper is not walked: most keep no path)
    keeping = [function for function in src.functions if pyast.names_any(function, (KEEPS_PATH,))]
    for node in pyast.walk_all(keeping):
        if isinstance(node, py.Call) and pyast.is_name(node.func, KEEPS_PATH):
            rests = node.args[6] if len(node.args) == 7 else None
            names = [n.id for n in rests.elts if isinstance(n, py.Name)] if isinstance(rests, py.Tuple) else []
            for i, table in ((0, 0), (4, 1)):
                arg = node.args[i] if len(node.args) > i else None
                if isinstance(arg, py.Name):
                    kept.add(arg.id)
                    found = (names[table], names[2]) if len(names) == 3 else None
                    beside[arg.id] = found if beside.get(arg.id, found) == found else None
    by_shape: dict[tuple[str, ...], dict[str, None]] = {}
    for search in src.kept_searches.values():
        shape = search.shape()
        if shape is not None:
            tables = by_shape.setdefault(shape, {})
            for table in (search.witness.paths, search.before):
                if table is not None and table.id in kept:
                    tables[table.id] = None

    def with_bits(table: str, bits: str) -> tuple[Any, Any]:
        masks = beside.get(table)
        return src.namespace[table], src.namespace[masks[0]] if masks is not None and masks[1] == bits \
            else PathBitsOf(src.namespace[table], src.namespace[bits])
    return {name: tuple(with_bits(table, bits) for table in by_shape.get(shape, {}))
            for name, (shape, bits) in src.kept_tables.items()}


def _failing_empty(search: KeptSearch, src: "Source", size: int) -> Optional[int]:
    """The bitmask of the sites of a board of `size` sites where the search's
    condition fails with the site empty, worked out (it reads the site's piece
    and constants alone), or None where it cannot be."""
    site = search.witness.site
    empty = (None,) * (size + 1)
    mask = 0
    try:
        for at in range(size):
            if not worked_out(src, search.witness.cond, {site: at, "b": empty}):
                mask |= 1 << at
    except ValueError:
        return None
    return mask


def _valid_paths(search: KeptSearch, tables: py.Name, start: py.expr, bits: py.Name, src: "Source",
                 masks: list[str], failing_empty: Optional[int], failing: dict[str, str]) -> list[py.stmt]:
    """The statements putting in a new local (its name appended to `masks`) the
    bitmasks of the paths `tables` (bound later: `tables_bound`) keep from
    `start` whose sites meet the search's condition and whose end its goal: a
    kept path holds each site it was kept through, or (a table keeping whole
    paths by their sites: helpers.keep_path's masks) a path through the start,
    which proves the rest from there. With `failing_empty` (the sites where the
    condition fails when empty), the sites where it fails on the listed board
    found first as one bitmask — those, less the occupied ones, and the
    occupied ones where it fails — and each path asked as its bitmask against
    it, not site by site — that bitmask found once for the searches of one
    condition (`failing`: by the condition, the local holding it, set before)."""
    fresh = src.fresh
    witness = search.witness
    kept, at, path, table, beside = (pyast.name(fresh("t")) for _ in range(5))
    site, end = pyast.name(witness.site), pyast.name(search.var)
    masks.append(kept.id)
    # (each table with the bitmasks of its paths by start: `tables_bound`)
    found = pyast.sub(beside, at)
    each = pyast.tuple_(table, beside)
    whole = [pyast.assign(end, pyast.sub(path, pyast.num(-1))),
             pyast.if_(copy.deepcopy(search.goal), [pyast.expr_stmt(pyast.method(kept, "append", found))])]
    if failing_empty is None:
        walk: py.stmt = pyast.for_(site, path, [pyast.if_(pyast.not_(copy.deepcopy(witness.cond)),
                                                          [pyast.break_()])], whole)
        return [pyast.assign(at, copy.deepcopy(start)), pyast.for_(each, tables, [
            pyast.assign(path, pyast.sub(table, at)), pyast.if_(pyast.is_not_none(path), [walk])])]
    condition = f"{failing_empty} {_dump_renamed(witness.cond, witness.site)}"
    known = failing.get(condition)
    fails, listed, bit, made = (pyast.name(known or fresh("t")), *(pyast.name(fresh("t")) for _ in range(3)))
    whole[1] = pyast.if_(copy.deepcopy(search.goal), [pyast.expr_stmt(pyast.method(kept, "append", made))])
    # (an occupied site: its bit set where the condition fails there, else cleared)
    occupied = pyast.for_(listed, pyast.name("o"), [pyast.for_(site, listed, [
        pyast.assign(bit, pyast.sub(bits, site)),
        pyast.if_(copy.deepcopy(witness.cond),
                  [pyast.assign(fails, pyast.binop(pyast.binop(fails, "|", bit), "^", bit))],
                  [pyast.assign(fails, pyast.binop(fails, "|", bit))])])])
    # (the path's bitmask made once: asked, then kept)
    walk = pyast.if_(pyast.and_(pyast.is_not_none(path), pyast.not_(pyast.binop(
        pyast.walrus(made.id, found), "&", fails))), whole)
    paths = [pyast.assign(at, copy.deepcopy(start)), pyast.for_(each, tables, [
        pyast.assign(path, pyast.sub(table, at)), walk])]
    if known is not None:
        return paths
    failing[condition] = fails.id
    return [pyast.assign(fails, src.const(failing_empty)), occupied] + paths
