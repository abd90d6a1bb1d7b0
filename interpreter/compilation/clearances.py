"""A drop's clearance: its check's early answer, asked once per listing.

A drop whose board writes are told before it runs is answered by its check
before the case is played where the listed position's answers of the `forbid
result` parts stay as they were (cases.CaseWriter._drop_answered_before): each
found, the drop's places none they read or point-tested, no piece it puts one
the parts' loops visit, no answer that forbids. All of that but the places is
the same for every candidate of the listing. The clearance asks it once and
gives the sites a candidate must not write (the answers' read and tested sites)
with the table, by player and site `to`, of the places the case writes there,
worked out when compiling (tabulate.worked_out); runtime/clearances.py lets a
candidate whose places miss the mask through without calling its check.

Where the check asks conjuncts before the case (asked_before.py), a *screen*
loops over the case's candidates for the listing: the places against the mask,
then those conjuncts (each false one lets the candidate through, as the check
would answer), and the check called only for the rest — no call for the
candidates the conjuncts let through. There, a disjunction of tests of the
kind of the piece on sites from tables by `to` (`solid(x) = x == none or x is
block`, four sites around a block's end) is one bitmask test against the sites
holding that kind, found once per listing from the sites of the pieces
(`kind_masks`), with the tests of a site being none as one table by `to`.

Exact because the clearance asks a stronger condition than the check's early
answer does (no point test at a place at all, where the check asks whether the
tests hold with the pieces put there), and only where the early answer is
"allowed": it is made only where every test but the places reads nothing of
the candidate — the player, the dropped piece, constants — and cannot fail.
Where a place cannot be worked out, its entry holds a bit no site has, which
the mask always holds: the candidate is checked.

A move answered before it is played (cases.CaseWriter._move_clearance_function)
gets a clearance too where its early answer's tests of the moving piece (the
parts' anchors, the guards of its writes) are false for every kind its action
moves: the same mask, the sites' bits for a table, the places being the code's
origin and destination (runtime/clearances.let_through).
"""
from __future__ import annotations

import ast as py
from typing import Any, Callable, Optional, Sequence, Union

from ..runtime.pieces import KIND
from . import kept_paths, owned_sites, pyast, result_reuse
from .actions import cannot_fail
from .source import BUILTIN_NAMES, Source
from .tabulate import worked_out

# Whether drops' checks get clearances (off: for the tests comparing the two).
ENABLED = True
# Whether moves' checks get clearances (off: for the tests comparing the two).
MOVES = True
# Whether a clearance's case gets a screen where its check asks conjuncts before
# the case (off: for the tests comparing the two).
SCREENS = True
# Whether a screen asks its conjuncts as masks of every landing first, its loop left
# out where none is checked (off: for the tests comparing the two).
SCREENED_SITES = True
# Whether a screen asks the places of the landings whose conjuncts hold alone,
# where they are few (runtime/helpers.meeting_within; off: for the tests comparing the two).
MEETING_WITHIN = True
# What a test asked once per listing may read besides constants: the player,
# the opponent and the dropped piece (the same for every candidate).
_PER_LISTING = frozenset({"p", "q", "pc"})


def places_table(src: Source, places: Sequence[py.expr], size: int, players: int) -> Optional[py.Name]:
    """The constant table[p][to] (`to` from 0 to `size` - 1, then -1) of the
    bitmask of the sites `places` (expressions of `to`, `p`, `q` and constants;
    site -1 none) worked out per player and site, the bit `1 << (size + 1)`
    where one cannot be; None where that is so everywhere."""
    unknown = 1 << (size + 1)
    rows = []
    known = False
    for p in range(players):
        env = {"p": p, "to": 0, "frm": -1}
        if players == 2:
            env["q"] = 1 - p
        row = []
        for to in list(range(size)) + [-1]:
            env["to"] = to
            mask = 0
            for place in places:
                try:
                    site = worked_out(src, place, env)
                except ValueError:
                    site = None
                if not isinstance(site, int) or isinstance(site, bool) or not -1 <= site < size:
                    mask = unknown
                    break
                mask |= 1 << site if site >= 0 else 0
            row.append(mask)
            known = known or mask != unknown
        rows.append(tuple(row))
    return src.const(tuple(rows)) if known else None


def per_listing(tests: Sequence[py.expr]) -> bool:
    """Whether `tests` read nothing but the player, the opponent, the dropped
    piece and constants, and cannot fail: asked once per listing, where each
    candidate's check would ask them."""
    for test in tests:
        names = pyast.names_in([pyast.expr_stmt(test)])
        if any(n not in _PER_LISTING and not result_reuse.CONSTANT_NAME.fullmatch(n) and n not in BUILTIN_NAMES
               for n in names):
            return False
    return cannot_fail([pyast.expr_stmt(t) for t in tests])


def continuing(settled: Sequence[py.stmt]) -> Optional[list[py.stmt]]:
    """The conjuncts a check asks before its case (asked_before.py: statements
    whose `return False` lets the candidate through) with `continue` for that
    return, to stand in a loop over the candidates; None where a return stands in
    a loop of their own or returns anything else, or a `break` or `continue` of
    theirs leaves no loop of theirs."""
    def change(node: py.AST, looped: bool) -> Optional[list[py.stmt]]:
        if isinstance(node, py.Return):
            if looped or not (isinstance(node.value, py.Constant) and node.value.value is False):
                return None
            return [pyast.continue_()]
        if isinstance(node, (py.Break, py.Continue)):
            return [node] if looped else None
        if isinstance(node, (py.FunctionDef, py.AsyncFunctionDef, py.ClassDef, py.Lambda, py.AsyncFor, py.AsyncWith,
                             py.Try, py.With)):
            return None
        if isinstance(node, (py.For, py.While)):
            body = block(node.body, True)
            orelse = block(node.orelse, looped)
            if body is None or orelse is None:
                return None
            if isinstance(node, py.For):
                return [pyast.for_(node.target, node.iter, body, orelse)]
            return [pyast.while_(node.test, body)] if not orelse else None
        if isinstance(node, py.If):
            body = block(node.body, looped)
            orelse = block(node.orelse, looped)
            if body is None or orelse is None:
                return None
            return [pyast.if_(node.test, body, orelse)]
        if any(isinstance(inner, (py.Return, py.Break, py.Continue, py.Lambda)) for inner in pyast.walk(node)):
            return None
        return [node]  # type: ignore[list-item]  # (a simple statement: kept as it is)

    def block(stmts: Sequence[py.stmt], looped: bool) -> Optional[list[py.stmt]]:
        out: list[py.stmt] = []
        for stmt in stmts:
            changed = change(stmt, looped)
            if changed is None:
                return None
            out += changed
        return out

    return block(settled, False)


def kind_masks(body: Sequence[py.stmt], src: Source, bits: py.Name,
               neutral_kinds: frozenset[int] = frozenset()) -> tuple[list[py.stmt], list[py.stmt]]:
    """`body` (a screen's conjuncts, `to` the candidate's site) with each test
    in a truth context of the kind of the piece on a site from a table by `to`
    (`(b[T[to]] or k)[1] == K`, `k` the piece of an empty site) read from a
    bitmask of the sites holding kind K, and each disjunction of such tests and
    of tests that such a site is none (`T[to] == -1`) merged into one table by
    `to` each — then the statements finding the bitmasks on the position
    (`bits`: the sites' bits, none for -1); the body as it is, no statements,
    where there is no such test. Exact: the tests read the board alone, cannot
    fail (asked_before.py), and a truth value alone is asked of them. A kind
    whose pieces are always neutral (`neutral_kinds`) is looked for among the
    neutral pieces alone (owned_sites.neutral_kind_asked)."""
    masks: dict[int, tuple[py.Name, py.expr]] = {}  # (by kind: its mask's local, the piece of an empty site)
    to = "to"

    def table(node: py.expr) -> Optional[tuple[int, ...]]:
        """The sites of `T[to]` (or `to`) by `to`, T a table of sites."""
        if pyast.is_name(node, to):
            return None if not isinstance(src.value(bits), tuple) else tuple(range(len(src.value(bits)) - 1)) + (-1,)
        if isinstance(node, py.Subscript) and isinstance(node.value, py.Name) and pyast.is_name(node.slice, to):
            value = src.value(node.value)
            if isinstance(value, tuple) and len(value) == len(src.value(bits)) \
                    and all(type(v) is int and -1 <= v < len(value) - 1 for v in value):
                return value
        return None

    def kind_test(node: py.expr) -> Optional[tuple[int, tuple[int, ...]]]:
        """(K, the sites by `to`) of `(b[T[to]] or k)[1] == K`."""
        if not (isinstance(node, py.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], py.Eq)):
            return None
        left, right = node.left, node.comparators[0]
        if not (isinstance(right, py.Constant) and type(right.value) is int and isinstance(left, py.Subscript)
                and isinstance(left.slice, py.Constant) and left.slice.value == KIND and type(left.slice.value) is int):
            return None
        piece = left.value
        if not (isinstance(piece, py.BoolOp) and isinstance(piece.op, py.Or) and len(piece.values) == 2):
            return None
        on, empty = piece.values
        nothing = src.value(empty)
        if not (isinstance(on, py.Subscript) and pyast.is_name(on.value, "b") and isinstance(nothing, tuple)
                and len(nothing) > KIND and nothing[KIND] != right.value):
            return None
        sites = table(on.slice)
        if sites is None:
            return None
        if right.value not in masks:
            masks[right.value] = (pyast.name(src.fresh("t")), empty)
        return right.value, sites

    def none_test(node: py.expr) -> Optional[tuple[int, ...]]:
        """The sites by `to` of `T[to] == -1`."""
        if not (isinstance(node, py.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], py.Eq)):
            return None
        right = node.comparators[0]
        if isinstance(right, py.UnaryOp) and isinstance(right.op, py.USub) and isinstance(right.operand, py.Constant) \
                and right.operand.value == 1 and type(right.operand.value) is int and not pyast.is_name(node.left, to):
            return table(node.left)
        return None

    def site_bits(sites: Sequence[tuple[int, ...]]) -> py.expr:
        merged = tuple(sum(1 << s for s in {row[i] for row in sites} if s >= 0) for i in range(len(sites[0])))
        return pyast.sub(src.const(merged), pyast.name(to))

    def leaves(node: py.expr) -> list[py.expr]:
        if isinstance(node, py.BoolOp) and isinstance(node.op, py.Or):
            return [leaf for value in node.values for leaf in leaves(value)]
        return [node]

    def truth(node: py.expr) -> py.expr:
        """`node` with its tests read from masks, asked for its truth alone."""
        if isinstance(node, py.UnaryOp) and isinstance(node.op, py.Not):
            return pyast.not_(truth(node.operand))
        if isinstance(node, py.BoolOp) and isinstance(node.op, py.And):
            return pyast.and_(*(truth(v) for v in node.values))
        if isinstance(node, py.BoolOp) and isinstance(node.op, py.Or):
            if any(isinstance(inner, py.NamedExpr) for inner in pyast.walk(node)):
                return node  # (its tests are merged out of order: none may set what another reads)
            nones: list[tuple[int, ...]] = []
            kinds: dict[int, list[tuple[int, ...]]] = {}
            rest: list[py.expr] = []
            for leaf in leaves(node):
                sites = none_test(leaf)
                found = kind_test(leaf) if sites is None else None
                if sites is not None:
                    nones.append(sites)
                elif found is not None:
                    kinds.setdefault(found[0], []).append(found[1])
                else:
                    rest.append(truth(leaf))
            merged: list[py.expr] = []
            if nones:
                edge = tuple(any(row[i] == -1 for row in nones) for i in range(len(nones[0])))
                merged.append(pyast.sub(src.const(edge), pyast.name(to)))
            for kind, rows in kinds.items():
                merged.append(pyast.binop(masks[kind][0], "&", site_bits(rows)))
            return pyast.or_(*merged, *rest) if len(merged) + len(rest) > 1 else (merged + rest)[0]
        found = kind_test(node)
        if found is not None:
            return pyast.binop(masks[found[0]][0], "&", site_bits([found[1]]))
        return node

    def block(stmts: Sequence[py.stmt]) -> list[py.stmt]:
        out: list[py.stmt] = []
        for stmt in stmts:
            if isinstance(stmt, py.If):
                out.append(pyast.if_(truth(stmt.test), block(stmt.body), block(stmt.orelse)))
            else:
                out.append(stmt)
        return out

    if not isinstance(src.value(bits), tuple):
        return list(body), []
    changed = block(body)
    if not masks:
        return list(body), []
    found: list[py.stmt] = []
    for kind, (name, empty) in masks.items():
        sites, site = pyast.name(src.fresh("t")), pyast.name(src.fresh("t"))
        on = pyast.sub(pyast.name("b"), site)
        piece = pyast.or_(on, empty)  # (as the tests read it)
        holds = pyast.compare(pyast.sub(piece, KIND), "==", pyast.num(kind))
        add = [pyast.if_(holds, [pyast.assign(name, pyast.binop(name, "|", pyast.sub(bits, site)))])]
        walked = pyast.for_(site, owned_sites.neutral_sites(), add) \
            if owned_sites.neutral_kind_asked(holds, lambda read: read is on, neutral_kinds) \
            else pyast.for_(sites, pyast.name("o"), [pyast.for_(site, sites, add)])
        found += [pyast.assign(name, pyast.num(0)), walked]
    return changed, found


def screen_body(settled: Sequence[py.stmt], per_candidate: Sequence[py.stmt], check: str,
                names: tuple[str, str, str, str, str, str],
                screened: Optional[tuple[str, Sequence[py.stmt], py.expr, py.Name]] = None,
                kept: Optional[tuple[Sequence[py.stmt], Sequence[str]]] = None,
                ordered: Optional[str] = None) -> list[py.stmt]:
    """The statements of `screen(s, run, blocked, places, memo, rejected,
    forbidden, ordered)` (`names`: five of those generated names and the local of a line):
    for each candidate `code` of `run` whose places (`places[to]`, after
    `per_candidate` set `to` and what follows from it) meet `blocked`, the
    conjuncts `settled` (`continuing`: a false one lets the candidate through),
    then its check; what the check returns, where it forbids, appended to
    `rejected` and the code to `forbidden` (runtime/clearances.sift). With
    `screened` (a local's name, `screened_sites` of `settled` — the
    statements before it and the expression —, the sites' bits), the
    landings whose places meet `blocked` and whose conjuncts hold found first
    as one bitmask: the candidates' loop runs only where it is not 0, asking
    each candidate its bit instead of its places and conjuncts. With `kept`
    (kept_paths.skip_plan: statements finding each search's kept paths that
    hold on the listed position, and the locals they are in), a candidate whose
    places miss one of each search's is let through without its check: the
    paths found where a candidate first asks them (the first local None until then).
    With `ordered` too (the parameter's name; `screened`'s bit of a site its bit
    `site`), the candidates of a run ascending by landing are looked up by their
    landings' bits where those are few (runtime/clearances.landed), not each tested."""
    run, blocked, places, rejected, forbidden, line = (pyast.name(n) for n in names)
    code = pyast.name("code")
    ask: list[py.stmt] = [pyast.assign(line, pyast.call(pyast.name(check), pyast.name("s"), code, pyast.name("memo")))]
    forbids = pyast.if_(line, [pyast.expr_stmt(pyast.method(rejected, "append", line)),
                               pyast.expr_stmt(pyast.method(forbidden, "append", code))])
    to, rest = per_candidate[0], list(per_candidate[1:])
    assert isinstance(to, py.Assign)
    paths: list[py.stmt] = []
    if kept is not None:
        # (its searches' kept paths found where the first candidate asks them — most listings
        # check none —, asked before the check)
        made = pyast.name(kept[1][0])
        paths = [pyast.assign(made, pyast.none())]
        missed = pyast.helper(kept_paths.PATHS_MISSED, pyast.sub(places, pyast.name("to")),
                              *(pyast.name(m) for m in kept[1]))
        ask[:0] = [pyast.if_(pyast.is_none(made), list(kept[0])), pyast.if_(missed, [pyast.continue_()])]
    if screened is not None:
        # (the landings checked found at once — places meeting the mask, conjuncts holding —:
        # no candidate's loop where there is none, else a bit tested of each candidate)
        need, prelude, sites, bits = pyast.name(screened[0]), screened[1], screened[2], screened[3]
        found = pyast.helper("h_meeting_within", blocked, places, sites) if MEETING_WITHIN \
            else pyast.binop(pyast.helper("h_meeting_table", blocked, places), "&", sites)
        candidates = pyast.helper("h_landed", run, need, pyast.name(ordered)) if ordered is not None else run
        loop = pyast.for_(code, candidates, [pyast.if_(pyast.binop(need, "&", pyast.sub(bits, to.value)),
                                                       [to] + rest + ask + [forbids])])
        return list(prelude) + [pyast.assign(need, found), pyast.if_(need, paths + [loop])]
    met = pyast.binop(blocked, "&", pyast.sub(places, to.value))  # (`to` set where the places meet)
    return paths + [pyast.for_(code, run, [pyast.if_(met, [to] + rest + list(settled) + ask + [forbids])])]


def clearance_body(src: Source, entries: Sequence[tuple[str, int, str, str, str, tuple[int, ...], bool]],
                   tests: Sequence[py.expr],
                   table: py.Name, size: int, moving: bool = False,
                   movers: Optional[py.expr] = None, blocked: Optional[py.expr] = None,
                   vacating: bool = False, players: int = 0) -> list[py.stmt]:
    """The statements of `clearance(s, memo)`: each part's answer on the listed
    position found (`entries`: its local, memo slot, recording function, the
    helper finding it with that function and how it keeps it across listings:
    cases.ParentAnswer.kept, the site lists and whether its anchors are lone), and
    where every one is found, none holds and `tests` hold, the mask of the sites
    the answers read or point-tested (with the bit of an unknown place) and the
    player's row of `table` (a name, or the sites' bits as they are for a move,
    whose places are its code's `frm` and `to`: `moving`); else None. With
    `movers` (the pieces a move's mover may be, a list), a point-tested site is
    in the mask only where unsettled or a test there gives otherwise with one of
    them (`h_moving_failures`: what the check's `h_tests_hold_moving` refuses);
    `blocked`, the bitmask of more sites no candidate is let through at.
    `vacating` (one entry, of a part with terms the check asks again before
    the move, its origin emptied and the mover at its destination): the
    answer also gives the sites the part's terms alone read, outside the mask
    made with `entry[5][0]` (the sites read outside the terms) for `entry[1]`,
    and the terms' runs — a move from one of them to a site outside the mask
    is let through where the runs reading its origin give what they gave with
    the move made (runtime/clearances.let_through). With `players` (a move's),
    what it gives is kept by player with the entries it was made of, and given
    again while the entries found are those (the same objects: a listing's
    answers kept across listings, runtime/kept_answers.py) — it reads nothing
    else but the player and constants, and the same object lets
    runtime/clearances.let_through find at once that nothing changed."""
    memo = pyast.name("memo")
    found = [pyast.assign(pyast.name(local), pyast.or_(pyast.sub(memo, slot), pyast.helper(
        helper, memo, pyast.num(slot), pyast.name(record), pyast.name("s"),
        *([] if not kept else result_reuse.kept_arguments(kept, lists, lone)))))
        for local, slot, record, helper, kept, lists, lone in entries]
    holds: list[py.expr] = []
    for local, *_ in entries:
        entry = pyast.name(local)
        holds += [pyast.is_not_none(entry), pyast.not_(pyast.sub(entry, 0))]

    def mask_of(read: Callable[[py.expr], py.expr]) -> py.expr:
        mask: py.expr = src.const(1 << (size + 1))  # (a constant: too large a literal)
        for local, *_ in entries:
            entry = pyast.name(local)
            if movers is None:
                mask = pyast.binop(mask, "|", pyast.binop(read(entry), "|", pyast.sub(entry, 2)))
            else:
                failing = pyast.helper(result_reuse.MOVING_FAILURES, entry, movers, pyast.name("p"), pyast.name("q"))
                mask = pyast.binop(mask, "|", pyast.binop(pyast.binop(read(entry), "|", pyast.sub(entry, 4)),
                                                          "|", failing))
        if blocked is not None:
            mask = pyast.binop(mask, "|", blocked)
        return mask

    if vacating and len(entries) == 1 and moving:
        # (the mask with the sites read outside the terms for those read; the mask itself that with those
        # read, the sites the terms alone read those not in the first: `(m := base | entry[1], table,
        # m ^ base, entry[5][1])`)
        entry = pyast.name(entries[0][0])
        base, whole = src.fresh("t"), src.fresh("t")
        given = [pyast.walrus(whole, pyast.binop(pyast.name(base), "|", pyast.sub(entry, 1))),
                 table, pyast.binop(pyast.name(whole), "^", pyast.name(base)), pyast.sub(pyast.sub(entry, 5), 1)]
        cleared: list[py.stmt]
        if movers is None:
            cleared = [pyast.assign(pyast.name(base), mask_of(lambda e: pyast.sub(pyast.sub(e, 5), 0)))]
        else:
            # (and the sites outside the terms' only where a settled point test there gives otherwise
            # with the mover there — none read outside the terms, none unsettled, none blocked —
            # which a move's origin, emptied, leaves as they were: `(..., base ^ other)`)
            failing, other = src.fresh("t"), src.fresh("t")
            rest: py.expr = pyast.binop(src.const(1 << (size + 1)), "|", pyast.binop(
                pyast.sub(pyast.sub(entry, 5), 0), "|", pyast.sub(entry, 4)))
            if blocked is not None:
                rest = pyast.binop(rest, "|", blocked)
            cleared = [pyast.assign(pyast.name(failing), pyast.helper(
                           result_reuse.MOVING_FAILURES, entry, movers, pyast.name("p"), pyast.name("q"))),
                       pyast.assign(pyast.name(other), rest),
                       pyast.assign(pyast.name(base), pyast.binop(pyast.name(other), "|", pyast.name(failing)))]
            given.append(pyast.binop(pyast.name(base), "^", pyast.name(other)))
        cleared.append(pyast.return_(pyast.tuple_(*given)))
    else:
        cleared = [pyast.return_(pyast.tuple_(mask_of(lambda e: pyast.sub(e, 1)),
                                              table if moving else pyast.sub(table, pyast.name("p"))))]
    if moving and players:
        cleared = _kept_by_entries(src, cleared, [local for local, *_ in entries], players)
    return found + [pyast.if_(pyast.and_(*holds, *tests), cleared), pyast.return_(pyast.none())]


def _kept_by_entries(src: Source, cleared: list[py.stmt], locals_: list[str], players: int) -> list[py.stmt]:
    """`cleared` (ending in the return of what the clearance gives) with what it
    gives kept by player, after the entries (`locals_`) it was made of: `(given,
    entry, ...)` in a list by player, and given again where each entry found is
    the one kept (`is`)."""
    kept, last, given = src.const([None] * players), src.fresh("t"), src.fresh("t")
    ret = cleared[-1]
    assert isinstance(ret, py.Return) and ret.value is not None
    slot = pyast.sub(kept, pyast.name("p"))
    again = pyast.and_(pyast.is_not_none(pyast.walrus(last, slot)),
                       *(pyast.compare(pyast.sub(pyast.name(last), i + 1), "is", pyast.name(local))
                         for i, local in enumerate(locals_)))
    return [pyast.if_(again, [pyast.return_(pyast.sub(pyast.name(last), 0))]), *cleared[:-1],
            pyast.assign(pyast.name(given), ret.value),
            pyast.assign(slot, pyast.tuple_(pyast.name(given), *(pyast.name(local) for local in locals_))),
            pyast.return_(pyast.name(given))]


# A set of sites as a bitmask: worked out (an int) or computed on the position (code).
Mask = Union[int, py.expr]
# The most distinct offsets (a site of a table's entry less its index) a table
# may have for `screened_sites` to find the sites meeting a mask from them: each
# is a masked shift per listing (runtime/helpers.meeting).
MEETING_OFFSETS = 24


def screened_sites(body: Sequence[py.stmt], per_listing: Sequence[py.stmt], src: Source, size: int,
                   landings: frozenset[int], player_tables: int
                   ) -> Optional[tuple[list[py.stmt], list[py.stmt], py.expr]]:
    """The bitmask (bit `s` for site `s`) of the landings `to` of a screen's
    candidates for which `body` (its conjuncts, after `kind_masks`) runs to its
    end — the candidates whose check may be called — as one expression of the
    listed position, or None where `body` holds anything but `if`s and
    `continue`s, or a test anything but, by `to`: a constant table's entry, a
    per-listing local's (set to `K[p]` or `K[q]` before the loop, K a constant
    of `player_tables` tables), `X & T[to]` (X read before the loop, T a
    constant table of bitmasks: the sites whose entry meets X, found by
    `h_meetings` from T's offsets, one call for the tables of one X) and
    `not`, `and`, `or` of those — with the statements before it (those
    calls). Where it is 0, no candidate is checked (exact: each test is the
    same truth value, site by site, as a mask; `landings`, the sites the drop
    may land on, bound it)."""
    every = (1 << size) - 1
    players = {"p", "q"}
    by_player: dict[str, tuple[str, tuple[tuple[int, ...], ...]]] = {}  # local -> (p or q, the tables)
    assigned: set[str] = set()
    for stmt in per_listing:
        for node in pyast.walk(stmt):
            if isinstance(node, (py.Name)) and isinstance(node.ctx, py.Store):
                assigned.add(node.id)

    def entry_table(node: py.expr) -> Optional[tuple[Any, ...]]:
        """The constant table of `T[to]`."""
        if isinstance(node, py.Subscript) and pyast.is_name(node.slice, "to") and isinstance(node.value, py.Name):
            table = src.value(node.value)
            if isinstance(table, tuple) and len(table) >= size:
                return table
        return None

    def player_table(node: py.expr) -> Optional[tuple[str, tuple[tuple[Any, ...], ...]]]:
        """(p or q, the constant tables) of `K[p][to]`, or of `L[to]` where `L = K[p]` before the loop."""
        if not (isinstance(node, py.Subscript) and pyast.is_name(node.slice, "to")):
            return None
        if isinstance(node.value, py.Name):
            return by_player.get(node.value.id)
        return tables_of(node.value)

    def tables_of(node: py.expr) -> Optional[tuple[str, tuple[tuple[Any, ...], ...]]]:
        """(p or q, the tables) of `K[p]` (or `K[q]`), K a constant of a table per player."""
        if isinstance(node, py.Subscript) and isinstance(node.value, py.Name) and isinstance(node.slice, py.Name) \
                and node.slice.id in players and node.slice.id not in assigned:
            tables = src.value(node.value)
            if isinstance(tables, tuple) and len(tables) == player_tables \
                    and all(isinstance(t, tuple) and len(t) >= size for t in tables):
                return node.slice.id, tables
        return None

    def truths(table: Sequence[Any]) -> int:
        return sum(1 << site for site in range(size) if table[site])

    # (by mask read: its local, and for each table asked of it, by offset the landings having it)
    meets: list[tuple[py.expr, str, list[dict[int, int]]]] = []

    def meeting(mask: py.expr, table: Sequence[Any]) -> Optional[py.expr]:
        """The sites whose entry of `table` meets `mask`, or None (not bitmasks; too many offsets)."""
        offsets: dict[int, int] = {}  # (by offset — a site of an entry less its index —, the sites having it)
        for site in range(size):
            bits = table[site]
            if type(bits) is not int or bits < 0:
                return None
            while bits:
                low = bits & -bits
                offset = low.bit_length() - 1 - site
                offsets[offset] = offsets.get(offset, 0) | 1 << site
                bits ^= low
        group = next((g for g in meets if pyast.same(g[0], mask)), None)
        if group is None:
            group = (mask, src.fresh("t"), [])
            meets.append(group)
        if len(set().union(offsets, *group[2])) > MEETING_OFFSETS:
            return None
        group[2].append(offsets)
        return pyast.sub(pyast.name(group[1]), len(group[2]) - 1)

    def per_listing_value(node: py.expr) -> bool:
        names = pyast.names_in([pyast.expr_stmt(node)])
        return "to" not in names and "code" not in names and not any(
            isinstance(inner, (py.NamedExpr, py.Call, py.Lambda)) for inner in pyast.walk(node))

    def joined(op: str, a: Mask, b: Mask) -> Mask:
        if isinstance(a, int) and isinstance(b, int):
            return a & b if op == "&" else a | b
        if op == "&":
            if a == 0 or b == 0:
                return 0
            if a == every:
                return b
            if b == every:
                return a
        else:
            if a == every or b == every:
                return every
            if a == 0:
                return b
            if b == 0:
                return a
        return pyast.binop(code_of(a), op, code_of(b))

    flips: dict[int, py.expr] = {}  # (id of a complement made here -> what it complements)

    def flipped(a: Mask) -> Mask:
        if isinstance(a, int):
            return every ^ a
        if id(a) in flips:
            return flips[id(a)]
        complement = pyast.binop(src.const(every), "^", a)
        flips[id(complement)] = a
        return complement

    def code_of(a: Mask) -> py.expr:
        return (pyast.num(a) if a < 2 ** 30 else src.const(a)) if isinstance(a, int) else a

    def sites(node: py.expr) -> Optional[Mask]:
        """The sites where `node` is true."""
        if isinstance(node, py.UnaryOp) and isinstance(node.op, py.Not):
            inner = sites(node.operand)
            return None if inner is None else flipped(inner)
        if isinstance(node, py.BoolOp):
            op = "&" if isinstance(node.op, py.And) else "|"
            found: Optional[Mask] = None
            for value in node.values:
                part = sites(value)
                if part is None:
                    return None
                found = part if found is None else joined(op, found, part)
            return found
        table = entry_table(node)
        if table is not None:
            return truths(table)
        per_player = player_table(node)
        if per_player is not None:
            whose, tables = per_player
            return pyast.sub(src.const(tuple(truths(t) for t in tables)), pyast.name(whose))
        if isinstance(node, py.BinOp) and isinstance(node.op, py.BitAnd):
            for mask, other in ((node.left, node.right), (node.right, node.left)):
                table = entry_table(other)
                if table is not None and per_listing_value(mask):
                    return meeting(mask, table)
        return None

    def passing(stmts: Sequence[py.stmt]) -> Optional[Mask]:
        """The sites for which `stmts` run to their end."""
        found: Mask = every
        for stmt in stmts:
            if isinstance(stmt, py.Continue):
                return 0
            if not isinstance(stmt, py.If):
                return None
            test = sites(stmt.test)
            then, orelse = passing(stmt.body), passing(stmt.orelse)
            if test is None or then is None or orelse is None:
                return None
            found = joined("&", found, joined("|", joined("&", test, then), joined("&", flipped(test), orelse)))
        return found

    for stmt in per_listing:
        if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name) \
                and (tables := tables_of(stmt.value)) is not None:
            by_player[stmt.targets[0].id] = tables
    if any(name in assigned for name in ("to", "code")):
        return None
    found = passing(body)
    if found is None:
        return None
    # (each mask's tables asked in one call: a shift per offset of any of them, made once —
    # or, for a mask ORed together site by site before the loop, built there alongside it)
    prelude: list[py.stmt] = []
    built_answers: dict[str, list[py.expr]] = {}  # (by local, the answers built beside its mask: read as they are)
    for mask, local, by_table in meets:
        built = _built_alongside(per_listing, mask, by_table, src, size)
        if built is not None:
            per_listing, built_answers[local] = built
            continue
        shifts = sorted(set().union(*by_table))
        rows = tuple(tuple((shifts.index(offset), having) for offset, having in sorted(by_offset.items()))
                     for by_offset in by_table)
        found_all = pyast.helper("h_meetings", mask, src.const((tuple(shifts), rows)))
        prelude.append(pyast.assign(pyast.name(local), found_all))
    screened = code_of(joined("&", found, sum(1 << site for site in landings if 0 <= site < size)))

    def answer_read(node: py.AST) -> Optional[py.AST]:
        if isinstance(node, py.Subscript) and isinstance(node.value, py.Name) and node.value.id in built_answers \
                and isinstance(node.slice, py.Constant) and type(index := node.slice.value) is int:
            answer = built_answers[node.value.id][index]
            assert isinstance(answer, py.Name)
            return pyast.name(answer.id)
        return None
    if built_answers:
        screened = pyast.replace_nodes(screened, answer_read)
    return list(per_listing), prelude, screened


def unread_masks_dropped(per_listing: Sequence[py.stmt], after: Sequence[py.stmt]) -> list[py.stmt]:
    """`per_listing` without the locals set to 0 and then only ORed with themselves
    (`m = m | X`, X reading nothing `per_listing` changes) that nothing else there
    nor in `after` reads: a mask whose tables' answers `_built_alongside` made
    beside it, left with no reader — its ORs are work a listing does for nothing."""
    def updates(stmt: py.stmt, name: str) -> bool:
        return isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], name) \
            and (isinstance(stmt.value, py.Constant) and stmt.value.value == 0 and type(stmt.value.value) is int
                 or isinstance(stmt.value, py.BinOp) and isinstance(stmt.value.op, py.BitOr)
                 and pyast.is_name(stmt.value.left, name) and not pyast.uses([stmt.value.right], name)
                 and _pure_read(stmt.value.right))

    statements = list(pyast.statements_in(per_listing))
    stored = {target.id for stmt in statements if isinstance(stmt, py.Assign) for target in stmt.targets
              if isinstance(target, py.Name)}
    kept = list(per_listing)
    for name in sorted(stored):
        if pyast.uses(after, name):
            continue
        # (the simple statements naming it, all its start and updates: where they name it as
        # often as the whole does, no other statement — nor a loop's or `if`'s own head — reads it)
        mine = [stmt for stmt in statements if not isinstance(stmt, (py.For, py.If, py.While, py.With, py.Try))
                and pyast.uses([stmt], name)]
        if not all(updates(stmt, name) for stmt in mine) \
                or pyast.uses(kept, name) != sum(pyast.uses([stmt], name) for stmt in mine):
            continue
        kept = pyast.without(kept, lambda stmt, name=name: updates(stmt, name))  # type: ignore[misc]
    return kept


def _pure_read(node: py.expr) -> bool:
    """Whether `node` only reads names, constants and subscripts of them (nothing it could change)."""
    return all(isinstance(part, (py.Name, py.Load, py.Constant, py.Subscript)) for part in pyast.walk(node))


def _built_alongside(per_listing: Sequence[py.stmt], mask: py.expr, by_table: list[dict[int, int]], src: Source,
                     size: int) -> Optional[tuple[list[py.stmt], list[py.expr]]]:
    """`per_listing` with, where `mask` is a local set to 0 once and then only ORed
    with the sites' bits (`mask = mask | BITS[site]`, BITS each site's bit: the
    masks `kind_masks` finds), a local per table set beside it — ORed with the
    landings whose entry holds that site (a table made here from the offsets) —,
    and those locals: each table's landings meeting the mask, without a shift."""
    if not isinstance(mask, py.Name) or any(isinstance(node, py.NamedExpr) and node.target.id == mask.id
                                            for node in pyast.walk_all(per_listing)):
        return None
    starts: list[py.stmt] = []
    adds: list[py.Assign] = []
    for stmt in pyast.statements_in(per_listing):
        if isinstance(stmt, (py.Assign, py.AugAssign, py.AnnAssign, py.For)) and mask.id in pyast.stored_names(stmt) \
                and not isinstance(stmt, py.For):
            if isinstance(stmt, py.Assign) and isinstance(stmt.value, py.Constant) and stmt.value.value == 0 \
                    and type(stmt.value.value) is int:
                starts.append(stmt)
                continue
            value = stmt.value if isinstance(stmt, py.Assign) else None
            if not (isinstance(value, py.BinOp) and isinstance(value.op, py.BitOr)
                    and pyast.is_name(value.left, mask.id) and isinstance(value.right, py.Subscript)
                    and isinstance(value.right.value, py.Name) and isinstance(value.right.slice, py.Name)):
                return None
            bits = src.value(value.right.value)
            if not (isinstance(bits, tuple) and len(bits) == size + 1 and bits[size] == 0
                    and all(bits[site] == 1 << site for site in range(size))):
                return None
            adds.append(stmt)  # type: ignore[arg-type]  # (an Assign: tested above)
        elif isinstance(stmt, py.For) and pyast.is_name(stmt.target, mask.id):
            return None
    if len(starts) != 1 or not adds:
        return None
    answers = [pyast.name(src.fresh("t")) for _ in by_table]
    holding = []  # (by table, by site: the landings whose entry holds the site, then none for -1)
    for by_offset in by_table:
        rows = [0] * (size + 1)
        for offset, having in by_offset.items():
            while having:
                low = having & -having
                landing = low.bit_length() - 1
                if 0 <= landing + offset < size:
                    rows[landing + offset] |= low
                having ^= low
        holding.append(src.const(tuple(rows)))
    result = pyast.splice(per_listing, starts[0], [starts[0]] + [pyast.assign(a, pyast.num(0)) for a in answers])
    for add in adds:
        site = add.value.right.slice  # type: ignore[attr-defined]  # (tested above)
        result = pyast.splice(result, add, [add] + [pyast.assign(a, pyast.binop(a, "|", pyast.sub(table, site)))
                                                    for a, table in zip(answers, holding)])
    return result, list(answers)
