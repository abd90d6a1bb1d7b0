"""Drawing one action without listing them all: what random playouts play.

A playout lists every legal action to play one of them. Where a decision's lister
is a sequence of independent candidates — loops over a fixed collection (a drop
on a region, a placement on any empty point) or over a region of the player's,
maybe inside the action's guard (a pool that must not be empty), that give at
most one action per element, and actions offered once (a pass) — a uniform pick
needs no list: draw one candidate of that fixed superset, work out whether (and
which) action it gives, and drop it and draw again when it gives none. Every
listed action is as likely as before (drawing without replacement until a hit is
uniform over the hits), for the work of a few candidates where most of them are
legal.

This pass reads the lister the DecisionWriter has just written — its syntax
tree, whatever the definition — and writes one function `(s, pool, rand)`: the
lister's registers and set-up (once a call), then a loop drawing a candidate out
of `pool` and running its block's body, where `out.append(code)` has become
`return code`. It declines (returns None) when the lister is anything else:
actions compared for their notation, `prefer` tiers, `forbid result` filtering,
loops over the position's pieces, an element giving several actions (but see
write_element_draws, below: a loop over the player's pieces drawn piece by
piece). The engine uses the function in `random_playout`
(compiled.DecisionInfo.draws).

Where one block is a drop onto any empty site of the board (a loop over every
site whose body starts by asking that the site be empty) and the other
candidates are few, the draw takes that block's candidates from the position's
empty sites (`State.empty`, kept by the board writes: board_keys.py) instead of
drawing occupied sites to drop them: a fresh pool of the empty sites and the
other candidates (numbered on from the board's sites: a pass) each call, when
it is given None for its pool (random playouts: DecisionInfo.draws_from_empty;
given a pool, it draws from that, as any draw) — its first candidate read in
place, the pool copied only when that candidate gives no action. The block's
candidates are numbered by their sites for it; candidates are drawn as
uniformly as before.

Where a block is a drop onto the empty sites of another fixed collection (a
region) and the draw is not from the empty sites, a taken site drawn leaves the
pool for good when the draw is given None for `cut`: the engine's playouts do so
where no rule empties a site (RulesInfo.sites_stay_taken,
board_keys.may_empty_a_site), so that a region filling up is not drawn again and
again at its taken sites; and the pool's last candidate (most often the one
the last draw gave, its site taken since) leaves it before any draw when its
site is taken. The pool keeps every candidate that may give an action, so the
draws stay as uniform.
"""
from __future__ import annotations

import ast as py
import copy
from typing import Any, Iterator, NamedTuple, Optional, Sequence

from ..runtime.engine import LIST_BELOW_PER_BOUND
from . import pyast
from .source import Origin, Source


class _Decline(Exception):
    """The lister is not a sequence of independent candidates."""


class _Block(NamedTuple):
    target: Optional[str]  # the loop's variable (None: a block offered once)
    elements: Optional[py.Name]  # the constant the loop goes over (None: once)
    per_player: bool  # whether the constant holds one collection per player (read at `p`)
    body: list[py.stmt]  # one element's work, returning its action
    after: int  # how many set-up statements come before it


# The most candidates besides the empty sites' block that a draw from the empty
# sites copies into its pool at each call (more: the draw goes over the pool it
# is given, which needs no copy).
MAX_BESIDE_EMPTY = 16
# From how many blocks of one candidate each, each a loop over one element (the
# copies of an action for each value on a board of one site, say), the lister is
# kept (not for actions offered once, which a draw returns at once): its set-up asks what each block asks once, and
# then it tests each candidate once; a draw would ask the same set-up, then draw
# and test candidates until one gives an action — more, where few of them do.
MANY_SINGLES = 8


def write_draws(src: Source, lister: Sequence[py.stmt], origin: Origin,
                n_sites: int = 0) -> Optional[tuple[str, int, bool]]:
    """(the name of the draw function, the number of candidates, whether given None
    for its pool it draws from the empty sites) for a lister's
    body (its statements, registers first), or None when it is not made of
    independent candidates. The function, `(s, pool, rand)`, draws candidates
    (numbers below that number) out of `pool` with `rand` until one gives an
    action, which it returns (None once `pool` is empty); the lister's set-up
    runs once a call. `n_sites`: the board's sites (0: the empty sites are not
    drawn from)."""
    try:
        setup, blocks = _blocks(src, lister)
        if not blocks:
            return None
        kept = _checked_setup(setup, blocks)
    except _Decline:
        return None
    kept, blocks = _lazy(kept, blocks)
    onto_empty = next((block for block in blocks if _onto_any_empty_site(src, block, n_sites)), None)
    if onto_empty is not None:
        # (numbered first, so that its candidates are their sites)
        blocks.remove(onto_empty)
        blocks.insert(0, onto_empty)
    pool, rand, cut, index, element, live = (pyast.name(src.fresh("l")) for _ in range(6))
    rows = _element_rows(src, blocks)
    if rows is None:
        return None
    elements, ends, padded = rows
    if not ends[-1]:
        return None  # (nothing to draw: the lister lists nothing but what it offers when stuck)
    if len(blocks) >= MANY_SINGLES and all(end - start <= 1 and block.target is not None
                                           for start, end, block in zip([0, *ends], ends, blocks)):
        return None  # (each candidate its own block: listing them asks no more than a draw)
    by_player = isinstance(elements, list)
    table = src.const(tuple(map(tuple, elements)) if by_player else elements)
    row = pyast.sub(table, pyast.name("p")) if by_player else table
    bodies: list[list[py.stmt]] = []
    for block, end, padding in zip(blocks, ends, padded):
        body = block.body
        if block.target is not None:
            target = pyast.name(block.target)
            skip = [pyast.if_(pyast.is_none(target), [pyast.continue_()])] if padding else []
            start = ends[blocks.index(block) - 1] if blocks.index(block) else 0
            if not by_player and src.value(table)[start:end] == tuple(range(end - start)):
                # (the candidates' numbers are the elements, shifted: no table to read)
                value: py.expr = pyast.binop(element, "-", pyast.num(start)) if start else element
            else:
                value = pyast.sub(row, element)
            body = [pyast.assign(target, value), *skip] + body
        bodies.append(body)

    def dispatched(low: int, high: int) -> list[py.stmt]:
        """The blocks low..high-1 found by halving (as many tests as the blocks'
        number's binary digits, not one per block before)."""
        if high - low == 1:
            return bodies[low]
        middle = (low + high) // 2
        return [pyast.if_(pyast.compare(element, "<", pyast.num(ends[middle - 1])), dispatched(low, middle),
                          dispatched(middle, high))]

    taken_last: list[py.stmt] = []  # (below)
    if onto_empty is None:
        for start, end, block, body in zip([0, *ends], ends, blocks, bodies):
            if _onto_empty_sites(src, block, n_sites):
                if not taken_last:
                    # (the pool's last candidate, where `cut` is None, is most
                    # often the one the last draw gave, its site taken since:
                    # it leaves the pool before any draw)
                    gate = body[-1]
                    assert isinstance(gate, py.If)
                    checked: list[py.stmt] = [*_copied(body[:-1]), pyast.if_(pyast.not_(_copied_expr(gate.test)), [
                        pyast.augment(live, "-", pyast.num(1)),
                        pyast.assign(py.Subscript(value=pool, slice=py.Slice(lower=live, upper=None, step=None),
                                                  ctx=py.Load()), pyast.tuple_())])]
                    if (start, end) != (0, ends[-1]):
                        checked = [pyast.if_(pyast.compare(pyast.num(start), "<=", element, "<", pyast.num(end)),
                                             checked)]
                    taken_last = [pyast.if_(pyast.and_(pyast.is_none(cut), live), [
                        pyast.assign(element, pyast.sub(pool, pyast.binop(live, "-", pyast.num(1)))), *checked])]
                # (a taken site drawn: where `cut` is None (sites stay taken, a
                # playout's own pool) it leaves the pool for good, and the pool
                # keeps every candidate that may give an action)
                gate = body[-1]
                assert isinstance(gate, py.If)
                gate.orelse = [pyast.if_(pyast.is_none(cut), [pyast.assign(
                    py.Subscript(value=pool, slice=py.Slice(lower=live, upper=pyast.add(live, pyast.num(1)),
                                                            step=None), ctx=py.Load()),
                    pyast.tuple_())])]
    dispatch = dispatched(0, len(blocks))
    drawn = pyast.helper("int", pyast.binop(pyast.call(rand), "*", live))
    uncut = _copied(dispatch)  # (for the first draw from the empty sites, below)
    # (drawn at random among the `live` first, whatever their order: the one drawn
    # changes places with the last of them, which are one fewer; so the pool stays
    # all the candidates, in another order, and the next call needs no fresh copy —
    # unless `cut`: then those drawn are cut off when an action is returned, and
    # the next call draws among the rest)
    loop = pyast.while_(live, [
        pyast.assign(index, drawn),
        pyast.assign(element, pyast.sub(pool, index)),
        pyast.augment(live, "-", pyast.num(1)),
        pyast.assign(pyast.sub(pool, index), pyast.sub(pool, live)),
        pyast.assign(pyast.sub(pool, live), element),
        *_cut_before_returns(dispatch, cut, pool, live),
    ])
    name = src.fresh("f")
    first: list[py.stmt] = [pyast.assign(live, pyast.helper("len", pool))]
    from_empty = onto_empty is not None and ends[-1] - n_sites <= MAX_BESIDE_EMPTY
    lazy: list[py.stmt] = taken_last
    if from_empty:
        # (a fresh pool: the empty sites, then the other candidates)
        empty: py.expr = pyast.attr(pyast.name("s"), "empty")
        fresh = pyast.binop(empty, "+", src.const(list(range(n_sites, ends[-1])))) if ends[-1] > n_sites \
            else pyast.sub(empty, py.Slice(lower=None, upper=None, step=None))
        beside = ends[-1] - n_sites
        if beside and not _leaves_loop(uncut):
            # (the empty sites and the others after them, numbered on from the
            # board's sites: each candidate drawn from the pool as before, the
            # first read in place where there is no pool yet — the pool copied
            # only when it gives no action, and changed as the draw would have
            # changed it. One loop: the candidates' work written once, not
            # twice — the passes after this one cost a tenth of a placing game's
            # load when it was)
            first = [pyast.assign(live, pyast.ifexp(
                pyast.binop(pyast.helper("len", empty), "+", pyast.num(beside)), pyast.is_none(pool),
                pyast.helper("len", pool)))]
            swapped = [pyast.assign(pyast.sub(pool, index), pyast.sub(pool, live)),
                       pyast.assign(pyast.sub(pool, live), element)]
            loop = pyast.while_(live, [
                pyast.assign(index, drawn),
                pyast.assign(element, pyast.ifexp(
                    pyast.sub(pool, index), pyast.is_not_none(pool), pyast.ifexp(
                        pyast.sub(pyast.attr(pyast.name("s"), "empty"), index),
                        pyast.compare(index, "<", pyast.binop(live, "-", pyast.num(beside))),
                        pyast.binop(pyast.binop(index, "-", live), "+", pyast.num(ends[-1]))))),
                pyast.augment(live, "-", pyast.num(1)),
                pyast.if_(pyast.is_not_none(pool), copy.deepcopy(swapped)),
                *_cut_before_returns(uncut, cut, pool, live),
                pyast.if_(pyast.is_none(pool), [pyast.assign(pool, fresh), *swapped]),
            ])
        elif not beside and not _leaves_loop(uncut):
            # (the empty sites alone: the first candidate drawn from them as the
            # pool would draw it, and the pool copied only when it gives no action)
            first = [pyast.assign(live, pyast.helper("len", pyast.ifexp(empty, pyast.is_none(pool), pool)))]
            lazy = [pyast.if_(pyast.and_(pyast.is_none(pool), live), [
                pyast.assign(index, drawn),
                pyast.assign(element, pyast.sub(pyast.attr(pyast.name("s"), "empty"), index)),
                *uncut,
                pyast.assign(pool, fresh),
                pyast.augment(live, "-", pyast.num(1)),
                pyast.assign(pyast.sub(pool, index), pyast.sub(pool, live)),
                pyast.assign(pyast.sub(pool, live), element),
            ])]
        else:
            first.insert(0, pyast.if_(pyast.is_none(pool), [pyast.assign(pool, fresh)]))
    src.function(name, ["s", pool.id, rand.id, cut.id], first + _pruned(kept, [loop] + lazy) + lazy + [
        loop, pyast.return_(pyast.none())], origin)
    return name, ends[-1], from_empty


def _lazy(setup: list[py.stmt], blocks: list[_Block]) -> tuple[list[py.stmt], list[_Block]]:
    """The set-up statements that work out a value only one candidate offered once
    reads (an action's `where` asking nothing of the candidate, worked out before
    the loops in the lister) moved to the start of that candidate's work: a draw
    that does not reach the candidate does not work them out, and one that does
    works them out once, as before (a candidate offered once is drawn once a call).
    The statements go by groups: two are of one group when the later stores what
    the earlier names, or both store one name; a group moves when it stores to
    names only, which no statement outside it names and one block reads."""
    n = len(setup)
    group = list(range(n))

    def find(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    stored = [_assigned([stmt]) for stmt in setup]
    named = [pyast.names_in([stmt]) for stmt in setup]
    for j in range(n):
        for i in range(j):
            if stored[j] & named[i] or stored[i] & stored[j]:
                group[find(i)] = find(j)
    members: dict[int, list[int]] = {}
    for i in range(n):
        members.setdefault(find(i), []).append(i)
    reads = [pyast.names_in(block.body) for block in blocks]
    moved: dict[int, list[int]] = {}
    gone: set[int] = set()
    changed = True
    while changed:  # (a group read only by groups moved to one block follows them: at most n rounds)
        changed = False
        for indices in members.values():
            if indices[0] in gone:
                continue
            names = set().union(*(stored[i] for i in indices))
            if not names or any(isinstance(node, (py.Subscript, py.Attribute)) and isinstance(node.ctx, py.Store)
                                or isinstance(node, (py.Global, py.Nonlocal, py.Return, py.Delete))
                                for node in pyast.walk_all([setup[i] for i in indices])):
                continue
            if any(named[i] & names for i in range(n) if i not in indices and i not in gone):
                continue
            readers = [b for b, block_reads in enumerate(reads) if block_reads & names]
            if len(readers) == 1 and blocks[readers[0]].target is None:
                moved.setdefault(readers[0], []).extend(indices)
                gone.update(indices)
                for i in indices:
                    reads[readers[0]] |= named[i]
                changed = True
    if not moved:
        return setup, blocks
    return [stmt for i, stmt in enumerate(setup) if i not in gone], [
        block._replace(body=_copied([setup[i] for i in sorted(moved.get(b, []))]) + block.body)
        for b, block in enumerate(blocks)]


def _onto_any_empty_site(src: Source, block: _Block, n_sites: int) -> bool:
    """Whether `block` goes over every site of the board in order and gives
    nothing for an occupied one: its body is `if b[X] is None: ...` or `t = b[X]`
    then `if t is None: ...` (X the loop's variable), and nothing else."""
    return _onto_empty_sites(src, block, n_sites) and block.elements is not None \
        and src.value(block.elements) == tuple(range(n_sites))


def _onto_empty_sites(src: Source, block: _Block, n_sites: int) -> bool:
    """Whether `block` goes over a fixed collection of sites of the board (a
    region, the same for every player) and gives nothing for an occupied one, as
    _onto_any_empty_site asks."""
    if not n_sites or block.target is None or block.elements is None or block.per_player:
        return False
    sites = src.value(block.elements)
    if not isinstance(sites, tuple) or not all(type(site) is int and 0 <= site < n_sites for site in sites):
        return False
    body = block.body
    on_site = pyast.sub(pyast.name("b"), pyast.name(block.target))
    if len(body) == 2 and isinstance(body[0], py.Assign) and len(body[0].targets) == 1 \
            and isinstance(body[0].targets[0], py.Name) and pyast.same(body[0].value, on_site):
        tested: py.expr = pyast.name(body[0].targets[0].id)
        body = body[1:]
    else:
        tested = on_site
    return len(body) == 1 and isinstance(body[0], py.If) and not body[0].orelse \
        and pyast.same(body[0].test, pyast.is_none(tested))


def _leaves_loop(stmts: list[py.stmt]) -> bool:
    """Whether `stmts` have a `continue` or `break` of a loop around them."""
    for stmt in stmts:
        if isinstance(stmt, (py.Continue, py.Break)):
            return True
        if isinstance(stmt, (py.For, py.While)):
            if _leaves_loop(stmt.orelse):
                return True
            continue
        for field in ("body", "orelse", "finalbody", "handlers"):
            nested = getattr(stmt, field, None)
            if isinstance(nested, list) and _leaves_loop([n for n in nested if isinstance(n, py.stmt)]):
                return True
    return False


def _cut_before_returns(block: list[py.stmt], cut: py.Name, pool: py.Name, live: py.Name) -> list[py.stmt]:
    """`block` with `if cut: pool[live:] = ()` before each `return` of an action."""
    out: list[py.stmt] = []
    for stmt in block:
        if isinstance(stmt, py.Return):
            cut_off = py.Subscript(value=pool, slice=py.Slice(lower=live, upper=None, step=None), ctx=py.Load())
            out.append(pyast.if_(cut, [pyast.assign(cut_off, pyast.tuple_())]))
        for field in ("body", "orelse"):
            nested = getattr(stmt, field, None)
            if isinstance(nested, list) and nested and isinstance(nested[0], py.stmt):
                setattr(stmt, field, _cut_before_returns(nested, cut, pool, live))
        out.append(stmt)
    return out


def _element_rows(src: Source, blocks: list[_Block]) -> Optional[tuple[Any, list[int], list[bool]]]:
    """The element of every candidate, block after block (-1 for one offered
    once): a tuple, or a list of them by player where some block goes over a
    collection of the player's (each padded with None to the longest player's);
    where each block's candidates end; whether each block is padded."""
    players = {len(src.value(block.elements)) for block in blocks if block.per_player and block.elements is not None}
    if len(players) > 1:
        return None
    rows: list[list[Any]] = [[] for _ in range(players.pop() if players else 1)]
    ends: list[int] = []
    padded: list[bool] = []
    for block in blocks:
        value = src.value(block.elements) if block.elements is not None else None
        collections = [(-1,)] * len(rows) if value is None else list(value) if block.per_player else [value] * len(rows)
        longest = max(len(c) for c in collections)
        for row, collection in zip(rows, collections):
            row.extend(collection)
            row.extend([None] * (longest - len(collection)))
        ends.append(len(rows[0]))
        padded.append(any(len(c) < longest for c in collections))
    if any(block.per_player for block in blocks):
        return rows, ends, padded
    return tuple(rows[0]), ends, padded


def _checked_setup(setup: list[py.stmt], blocks: list[_Block]) -> list[py.stmt]:
    """The set-up the draw function runs first: the lister's, without what sets
    the blocks' loop variables (the draw sets them); declines where running all of
    it before any block would change what a block reads."""
    targets = {block.target for block in blocks if block.target is not None}
    kept = [stmt for stmt in setup if not (isinstance(stmt, py.Assign) and len(stmt.targets) == 1
                                           and isinstance(stmt.targets[0], py.Name) and stmt.targets[0].id in targets)]
    if targets & pyast.names_in(kept):
        raise _Decline
    for block in blocks:
        if _assigned(setup[block.after:]) & pyast.names_in(block.body):
            raise _Decline
        _check_carried(kept, block.body)
    return kept


def _split_lister(lister: Sequence[py.stmt]) -> Optional[tuple[list[py.stmt], list[py.stmt]]]:
    """(the set-up before `out` is made, the statements that list candidates) of a
    lister that makes `out` and returns it, else None. The actions offered only when
    no other is (a last `if not out:`) are left out: a draw that finds no action
    leaves the position to the whole lister, which lists them."""
    start = next((i for i, stmt in enumerate(lister) if _is_out_made(stmt)), None)
    if start is None or not lister or not _returns_out(lister[-1]):
        return None
    chosen = list(lister[start + 1:-1])
    if chosen and _only_if_none(chosen[-1]):
        chosen.pop()
    return list(lister[:start]), chosen


def _blocks(src: Source, lister: Sequence[py.stmt]) -> tuple[list[py.stmt], list[_Block]]:
    """The set-up (registers, guards, preludes) and the blocks of candidates."""
    split = _split_lister(lister)
    if split is None:
        raise _Decline
    setup, chosen = split
    if pyast.uses(setup, "out"):
        raise _Decline
    blocks: list[_Block] = []
    assigned_in_blocks: set[str] = set()
    for stmt in chosen:
        if not pyast.uses([stmt], "out"):
            # set-up between blocks (an action's guard, its prelude): it must not
            # read what a block left behind
            if pyast.names_in([stmt]) & assigned_in_blocks:
                raise _Decline
            if not _repeated(setup, stmt):
                setup.append(stmt)
            continue
        loop = _loop_over_constant(src, stmt)
        if loop is not None:
            target, elements, per_player, guards, body = loop
            returning = _returning(body)
            for test, before in reversed(guards):
                returning = [pyast.if_(test, before + returning)]
            blocks.append(_Block(target, elements, per_player, returning, len(setup)))
            assigned_in_blocks |= {target}
        else:
            blocks.append(_Block(None, None, False, _returning([stmt]), len(setup)))
        assigned_in_blocks |= _assigned(blocks[-1].body)
    return setup, blocks


def _loop_over_constant(src: Source, stmt: py.stmt) -> Optional[
        tuple[str, py.Name, bool, list[tuple[py.expr, list[py.stmt]]], list[py.stmt]]]:
    """When `stmt` is a loop over a constant collection, maybe inside `if`s (an
    action's guard: a pool that must not be empty) whose other statements come
    before it: (its variable, the constant, whether it holds a collection per
    player, read at `p`, the guards as (test, statements before the loop), the
    loop's body); else None."""
    guards: list[tuple[py.expr, list[py.stmt]]] = []
    while isinstance(stmt, py.If) and stmt.body and not stmt.orelse:
        before = stmt.body[:-1]
        if pyast.uses(before, "out"):
            return None
        guards.append((stmt.test, list(before)))
        stmt = stmt.body[-1]
    if not (isinstance(stmt, py.For) and isinstance(stmt.target, py.Name) and not stmt.orelse):
        return None
    collection, per_player = stmt.iter, False
    if isinstance(collection, py.Subscript) and pyast.is_name(collection.slice, "p"):
        # (a collection of the player's: a region by player)
        collection, per_player = collection.value, True
    if not (isinstance(collection, py.Name) and src.is_const_name(collection.id)):
        return None
    if per_player and not all(isinstance(c, (tuple, list)) for c in src.value(collection)):
        return None
    target = stmt.target.id
    for test, before in guards:
        # (what runs before the loop cannot have read its variable)
        if target in pyast.names_in([test, *before]):
            return None
    return target, collection, per_player, guards, stmt.body


def _repeated(setup: list[py.stmt], stmt: py.stmt) -> bool:
    """Whether `stmt` sets a name to a literal the set-up has last set it to (as
    each action's set-up does with `frm = -1`): then it changes nothing."""
    if not (isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name)
            and _is_literal(stmt.value)):
        return False
    name = stmt.targets[0].id
    last = next((earlier for earlier in reversed(setup) if name in _assigned([earlier])), None)
    return last is not None and pyast.same(last, stmt)


def _is_out_made(stmt: py.stmt) -> bool:
    return isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], "out") \
        and isinstance(stmt.value, py.List) and not stmt.value.elts


def _returns_out(stmt: py.stmt) -> bool:
    return isinstance(stmt, py.Return) and pyast.is_name(stmt.value, "out")


def _only_if_none(stmt: py.stmt) -> bool:
    """Whether `stmt` is `if not out: ...`."""
    return isinstance(stmt, py.If) and isinstance(stmt.test, py.UnaryOp) and isinstance(stmt.test.op, py.Not) \
        and pyast.is_name(stmt.test.operand, "out") and not stmt.orelse


def _appended(stmt: py.stmt) -> Optional[py.expr]:
    """X of the statement `out.append(X)`, else None."""
    if isinstance(stmt, py.Expr) and isinstance(stmt.value, py.Call):
        call = stmt.value
        func = call.func
        if isinstance(func, py.Attribute) and func.attr == "append" and pyast.is_name(func.value, "out") \
                and len(call.args) == 1 and not call.keywords:
            return call.args[0]
    return None


def _returning(body: list[py.stmt]) -> list[py.stmt]:
    """`body` (one element's work) returning the action it appends (where it goes
    on to the next element, the draw does too); declines unless it appends at most
    once per element (outside any inner loop, or in one inner loop it then leaves)
    and never stops the loop over the elements."""
    if pyast.uses(body, "out") != 1:
        raise _Decline
    return _rewritten(_copied(body), loops=0)


def _rewritten(block: list[py.stmt], loops: int) -> list[py.stmt]:
    """`block`, `loops` inner loops deep, rewritten (see _returning)."""
    rewritten: list[py.stmt] = []
    for n, stmt in enumerate(block):
        code = _appended(stmt)
        if code is not None:
            # (in an inner loop, only when the loop is left at once: else it
            # could append again)
            if loops > 1 or loops == 1 and not (n + 1 < len(block) and isinstance(block[n + 1], py.Break)):
                raise _Decline
            rewritten.append(pyast.return_(code))
            break  # (what follows never runs)
        if loops == 0 and isinstance(stmt, py.Break):
            raise _Decline
        if isinstance(stmt, (py.Try, py.With, py.Match)):
            raise _Decline  # (never written by the compiler; not looked into)
        for field in ("body", "orelse"):
            nested = getattr(stmt, field, None)
            if isinstance(nested, list) and nested and isinstance(nested[0], py.stmt):
                # (a loop's `else` is not inside it)
                inner = loops + (field == "body" and isinstance(stmt, (py.For, py.While)))
                setattr(stmt, field, _rewritten(nested, inner))
        rewritten.append(stmt)
    return rewritten


def _assigned(stmts: Sequence[py.stmt]) -> set[str]:
    """The names `stmts` store to."""
    return {node.id for node in pyast.walk_all(stmts)
            if isinstance(node, py.Name) and isinstance(node.ctx, py.Store)}


def _check_carried(setup: list[py.stmt], body: list[py.stmt]) -> None:
    """Declines when the lister carries a value from one element to the next other
    than a cache (a name the set-up starts at a constant and the body may fill in,
    worth the same for every element): a draw starts each element afresh."""
    assigned = _assigned(body)
    for stmt in setup:
        if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name):
            if stmt.targets[0].id in assigned and not _is_literal(stmt.value):
                raise _Decline
        elif _assigned([stmt]) & assigned:
            raise _Decline
    for node in pyast.walk_all(body):
        if isinstance(node, py.AugAssign) and isinstance(node.target, py.Name) \
                and node.target.id in _assigned(setup):
            raise _Decline


def _is_literal(value: py.expr) -> bool:
    """A constant, -1 included."""
    if isinstance(value, py.UnaryOp) and isinstance(value.op, py.USub):
        value = value.operand
    return isinstance(value, py.Constant)


def _pruned(setup: list[py.stmt], body: list[py.stmt]) -> list[py.stmt]:
    """`setup` without the plain assignments nothing after them reads."""
    read = pyast.names_in(body)
    kept: list[py.stmt] = []
    for stmt in reversed(setup):
        if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name) \
                and stmt.targets[0].id not in read:
            continue
        kept.append(stmt)
        read |= pyast.names_in([stmt])
    kept.reverse()
    return _copied(kept)


def _copied_expr(expr: py.expr) -> py.expr:
    """A copy of `expr` to put in another statement."""
    copied = _copied([pyast.expr_stmt(expr)])[0]
    assert isinstance(copied, py.Expr)
    return copied.value


def _copied(stmts: Sequence[py.stmt]) -> list[py.stmt]:
    """A deep copy of `stmts` to change, without the name counts pyast keeps on
    statements (they would no longer be true)."""
    return pyast.changeable_copy(list(stmts))


# Where the lister is one loop over the player's pieces whose body may give several
# actions per piece (a piece's moves along its lines), a playout's draw picks a
# piece at random, lists that piece's actions only, and keeps one of them with a
# chance proportional to how many there are (k of at most M, a bound read from
# the body: the appends times the most elements of the loops around them, a loop
# over its own element — a site's rays, then each ray's sites — summed per
# collection; loops one after the other over the sites of one piece, a site they
# share counted once where one asks it empty and the other occupied: an advance and
# a capture as two actions). Each try gives every listed action of the position with the same
# chance (the piece's 1/n, times k/M, times 1/k); a draw that keeps none after as
# many tries as there are pieces leaves the position to the whole lister
# (uniform too). Where a `where` about the piece alone (not its landing) holds
# every action, the first piece drawn that it stops narrows the pool to the
# pieces it lets through (_narrowing: a die naming the piece that moves stops
# most). A try keeps an action with chance k/M: past MAX_PER_ELEMENT the tries
# kept too few where pieces have few of their most actions (slides on a board
# filling up) — measured in benchmarks/PROFILE-NOTES.md ("element draws").
MAX_PER_ELEMENT = 24
# The most values a name or expression may have that the bound is worked out over.
_MAX_VALUES = 50_000


def write_element_draws(src: Source, lister: Sequence[py.stmt], origin: Origin) -> Optional[tuple[str, int, bool]]:
    """(the name of the draw function, minus the bound, False) for a lister that is a loop over a
    list of the position's (`o[...]`: a player's pieces) giving at most
    MAX_PER_ELEMENT actions per element, else None. The function, `(s, pool, rand,
    cut)` like write_draws' (its pool and cut unread), returns an action drawn
    uniformly among the lister's (as often as the lister lists it), or None (then
    the lister lists them)."""
    split = _split_lister(lister)
    if split is None:
        return None
    setup, chosen = split
    if pyast.uses(setup, "out") or not chosen:
        return None
    loop = chosen[-1]
    before = chosen[:-1]
    if pyast.uses(before, "out") or not isinstance(loop, py.For) or not isinstance(loop.target, py.Name) \
            or loop.orelse or not _is_position_list(loop.iter):
        return None
    body = list(loop.body)
    target = loop.target.id
    if not _appends_only(body) or _leaves_loop(body) or any(isinstance(node, (py.Return, py.Yield, py.Global))
                                                          for node in pyast.walk_all(body)):
        return None
    if _kinds_apart(body):
        return None
    setup = setup + before
    if target in pyast.names_in(setup) or pyast.names_in([loop.iter]) & _assigned(body):
        return None
    try:
        _check_carried(setup, body)
        _NAME_VALUES.clear()
        bound = _appends_bound(src, body, [*setup, *body], fixed=_set_once(setup, body, target))
    except _Decline:
        return None
    finally:
        _NAME_VALUES.clear()
    if not 0 < bound <= MAX_PER_ELEMENT:
        return None
    rand, elements, n, tries, u, k = (pyast.name(src.fresh("l")) for _ in range(6))
    out = pyast.name("out")
    pick = pyast.assign(pyast.name(target), pyast.sub(elements, pyast.helper("int", pyast.binop(
        pyast.call(rand), "*", n))))
    if _appends_at_most_once(body):
        # (one action at most a piece: no list. Its keeping test's number is still
        # drawn — below 1 it keeps the one action — so that a try uses the same
        # random numbers as a list's would: the same playouts)
        trial = [
            pick,
            pyast.assign(k, pyast.none()),
            *_appends_stored(_narrowing(src, body, target, elements, n), k),
            pyast.expr_stmt(pyast.call(rand)),
            pyast.if_(pyast.is_not_none(k), [pyast.return_(k)]),
        ]
    else:
        trial = [
            pick,
            pyast.assign(out, pyast.list_()),
            *_narrowing(src, body, target, elements, n),
            pyast.assign(k, pyast.helper("len", out)),
            pyast.if_(pyast.compare(k, ">", pyast.num(bound)), [pyast.return_(pyast.none())]),
            pyast.assign(u, pyast.binop(pyast.call(rand), "*", pyast.num(bound))),
            pyast.if_(pyast.compare(u, "<", k), [pyast.return_(pyast.sub(out, pyast.helper("int", u)))]),
        ]
    name = src.fresh("f")
    pool, cut = src.fresh("l"), src.fresh("l")
    src.function(name, ["s", pool, rand.id, cut], [
        *_pruned(setup, [pyast.expr_stmt(loop.iter), *body]),
        pyast.assign(elements, _copied_expr(loop.iter)),
        pyast.assign(n, pyast.helper("len", elements)),
        pyast.for_(tries, pyast.helper("range", n), trial),
        pyast.return_(pyast.none()),
    ], origin)
    return name, -bound, False


def _appends_at_most_once(stmts: Sequence[py.stmt]) -> bool:
    """Whether one run of `stmts` appends to `out` once at most, read from their
    shape alone: no append in a loop, the appends one after the other counted,
    those of an `if`'s two branches the more of them."""
    return _most_appends(stmts) <= 1


def _most_appends(stmts: Sequence[py.stmt]) -> int:
    """The most `out.append`s one run of `stmts` makes, by their shape (2 for
    any in a loop: more than once, maybe)."""
    most = 0
    for stmt in stmts:
        if _appended(stmt) is not None:
            most += 1
        elif isinstance(stmt, py.If):
            most += max(_most_appends(stmt.body), _most_appends(stmt.orelse))
        elif pyast.uses([stmt], "out"):
            most += 2 if isinstance(stmt, (py.For, py.While)) else _most_appends(
                [inner for field in ("body", "orelse") for inner in getattr(stmt, field, [])])
    return most


def _appends_stored(stmts: list[py.stmt], found: py.Name) -> list[py.stmt]:
    """`stmts` with each `out.append(X)` become `found = X`."""
    def change(node: py.AST) -> Optional[py.AST]:
        code = _appended(node) if isinstance(node, py.stmt) else None
        return pyast.assign(pyast.name(found.id), code) if code is not None else None
    return pyast.replace_in(stmts, change)


def _set_once(setup: Sequence[py.stmt], body: Sequence[py.stmt], target: str) -> frozenset[str]:
    """The names `setup` sets once, plainly, that nothing else sets (`body`, the
    loop over the pieces by `target`): the same for every piece."""
    stores: dict[str, int] = {}
    for node in pyast.walk_all([*setup, *body]):
        if isinstance(node, py.Name) and isinstance(node.ctx, py.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
    plain = {stmt.targets[0].id for stmt in setup if isinstance(stmt, py.Assign) and len(stmt.targets) == 1
             and isinstance(stmt.targets[0], py.Name)}
    return frozenset(name for name in plain if stores.get(name) == 1 and name != target)


# Where the lister's actions come from loops inside a loop, each over a list of the
# position's (`o[...]`, or it sorted) that no loop around it chooses (a card of the
# player's and a lower card of the same hand: `for each` over sites, a `select` of
# the player's pieces inside), a playout's draw picks an element of each list —
# every combination as likely as any other —, runs the innermost body for it and
# keeps one of its actions with chance k/M (M the most that body gives for one
# combination). Each try gives every listed action with the same chance (the
# combination's 1/(n1·n2·…), times 1/M), so the first action kept is uniform among
# the listed ones, as often as the lister lists it; after as many tries as the
# lists hold elements together (a listing asks their product), the position is left
# to the lister (uniform too). Measured in benchmarks/PROFILE-NOTES.md ("s-cards6").
def write_nested_draws(src: Source, lister: Sequence[py.stmt], origin: Origin) -> Optional[tuple[str, int, bool]]:
    """(the name of the draw function, minus the bound, False) for a lister that is
    loops nested in a loop, each over a list of the position's that the loops
    around leave alone, every action appended in the innermost loop, at most
    MAX_PER_ELEMENT a combination; else None. The function, `(s, pool, rand, cut)`
    like write_element_draws' (pool and cut unread), returns an action drawn
    uniformly among the lister's, or None (then the lister lists them)."""
    shape = _nested_shape(src, lister)
    if shape is None:
        return None
    setup, loops, bound = shape
    rand = pyast.name(src.fresh("l"))
    elements, sizes, made = _lists_read(src, loops)
    targets = [loop.target.id for loop in loops if isinstance(loop.target, py.Name)]
    picks = [pyast.assign(pyast.name(target), pyast.sub(each, pyast.helper("int", pyast.binop(
        pyast.call(rand), "*", size)))) for target, each, size in zip(targets, elements, sizes)]
    innermost = loops[-1].body
    out = pyast.name("out")
    if bound == 1 and not any(isinstance(stmt, (py.For, py.While)) for stmt in pyast.statements_in(innermost)):
        # (one action at most: the first appended is the one kept)
        try:
            block, made_out, kept = _rewritten(_copied(innermost), loops=0), [], []
        except _Decline:
            return None
    else:
        k, u = pyast.name(src.fresh("l")), pyast.name(src.fresh("l"))
        block, made_out = _copied(innermost), [pyast.assign(out, pyast.list_())]
        kept = [
            pyast.assign(k, pyast.helper("len", out)),
            pyast.if_(pyast.compare(k, ">", pyast.num(bound)), [pyast.return_(pyast.none())]),
            pyast.assign(u, pyast.binop(pyast.call(rand), "*", pyast.num(bound))),
            pyast.if_(pyast.compare(u, "<", k), [pyast.return_(pyast.sub(out, pyast.helper("int", u)))]),
        ]
    for around, loop, pick in zip(reversed(loops[:-1]), reversed(loops[1:]), reversed(picks[1:])):
        block = pyast.splice(around.body, loop, [pick, *block])
    total: py.expr = sizes[0]
    for size in sizes[1:]:
        total = pyast.binop(total, "+", size)
    name = src.fresh("f")
    pool, cut, tries = src.fresh("l"), src.fresh("l"), pyast.name(src.fresh("l"))
    src.function(name, ["s", pool, rand.id, cut], [
        *_pruned(setup, [*made, *loops[0].body]),
        *made,
        pyast.if_(pyast.or_(*(pyast.not_(size) for size in dict.fromkeys(sizes))), [pyast.return_(pyast.none())]),
        pyast.for_(tries, pyast.helper("range", total), [picks[0], *made_out, *_copied(block), *kept]),
        pyast.return_(pyast.none()),
    ], origin)
    return name, -bound, False


def _nested_shape(src: Source, lister: Sequence[py.stmt]) -> Optional[tuple[list[py.stmt], list[py.For], int]]:
    """(the set-up, the nested loops outermost first, the most actions one
    combination gives) of a lister write_nested_draws can draw from, else None."""
    split = _split_lister(lister)
    if split is None:
        return None
    setup, chosen = split
    if not chosen or pyast.uses([*setup, *chosen[:-1]], "out"):
        return None
    setup += chosen[:-1]
    loops = _nested_loops(chosen[-1])
    if loops is None:
        return None
    outer, innermost = loops[0].body, loops[-1].body
    targets = [loop.target.id for loop in loops if isinstance(loop.target, py.Name)]
    if len(set(targets)) < len(loops) or set(targets) & pyast.names_in(setup) \
            or not _appends_only(outer) or pyast.uses(innermost, "out") != pyast.uses(outer, "out") \
            or any(isinstance(node, (py.Break, py.Continue, py.Return, py.Yield, py.Global))
                   for node in pyast.walk_all(outer)):
        return None
    chosen_around = _assigned(outer) | set(targets)
    if any(pyast.names_in([loop.iter]) & chosen_around for loop in loops):
        return None  # (a list a loop around chooses: the combinations would not be alike)
    try:
        _check_carried(setup, outer)
        for around, loop in zip(loops, loops[1:]):
            _check_carried([*setup, *_outside(around.body, loop)], loop.body)
        _NAME_VALUES.clear()
        bound = _appends_bound(src, innermost, [*setup, *outer], fixed=_set_once(setup, outer, targets[-1]))
    except _Decline:
        return None
    finally:
        _NAME_VALUES.clear()
    return (setup, loops, bound) if 0 < bound <= MAX_PER_ELEMENT else None


def _lists_read(src: Source, loops: list[py.For]) -> tuple[list[py.Name], list[py.Name], list[py.stmt]]:
    """The names holding each loop's list and its length (one list two loops go
    over read once: a card and another of the same hand), and the statements
    reading them."""
    elements: list[py.Name] = []
    sizes: list[py.Name] = []
    made: list[py.stmt] = []
    lists = [_listed(loop.iter) for loop in loops]
    for n, listed in enumerate(lists):
        assert listed is not None  # (_nested_loops: each over a list of the position's)
        earlier = next((i for i in range(n) if pyast.same(lists[i], listed)), None)
        if earlier is not None:
            elements.append(elements[earlier])
            sizes.append(sizes[earlier])
            continue
        elements.append(pyast.name(src.fresh("l")))
        sizes.append(pyast.name(src.fresh("l")))
        made += [pyast.assign(elements[-1], _copied_expr(listed)),
                 pyast.assign(sizes[-1], pyast.helper("len", elements[-1]))]
    return elements, sizes, made


def _nested_loops(loop: py.stmt) -> Optional[list[py.For]]:
    """`loop` and the loops inside it, outermost first, where each is over a list
    of the position's and every action of each is appended in the next (the loop
    the last statement of its block, reached through `if`s last in theirs); None
    unless there are two or more."""
    loops: list[py.For] = []
    current: Optional[py.stmt] = loop
    while isinstance(current, py.For) and isinstance(current.target, py.Name) and not current.orelse \
            and _listed(current.iter) is not None:
        loops.append(current)
        current = _loop_appending(current.body)
    return loops if len(loops) >= 2 else None


def _loop_appending(block: list[py.stmt]) -> Optional[py.stmt]:
    """The loop last in `block`, or in the body of an `if` last in it, that makes
    every `out.append` of `block`; else None."""
    if not block or pyast.uses(block[:-1], "out"):
        return None
    last = block[-1]
    if isinstance(last, py.For):
        return last
    if isinstance(last, py.If) and not pyast.uses(last.orelse, "out") and not pyast.uses([last.test], "out"):
        return _loop_appending(last.body)
    return None


def _listed(iterable: py.expr) -> Optional[py.expr]:
    """The list of the position's that a loop over `iterable` goes over, in some
    order (`o[X]`, or `sorted(o[X])`), else None."""
    if isinstance(iterable, py.Call) and pyast.is_name(iterable.func, "sorted") and len(iterable.args) == 1 \
            and not iterable.keywords:
        iterable = iterable.args[0]
    return iterable if _is_position_list(iterable) else None


def _outside(block: list[py.stmt], loop: py.For) -> list[py.stmt]:
    """What `block` runs besides `loop` (found by _loop_appending): its other
    statements, and the tests of the `if`s around `loop`."""
    found: list[py.stmt] = []
    for stmt in block:
        if stmt is loop:
            continue
        if isinstance(stmt, py.If) and stmt is block[-1] \
                and any(node is loop for node in pyast.statements_in(stmt.body)):
            found.append(pyast.expr_stmt(stmt.test))
            found.extend(_outside(stmt.body, loop))
            found.extend(stmt.orelse)
            continue
        found.append(stmt)
    return found


def _narrowing(src: Source, body: list[py.stmt], target: str, elements: py.Name, n: py.Name) -> list[py.stmt]:
    """A try's copy of `body`; where every action of `body` is under one last `if
    TEST:` (a `where` about the piece and the position, not the landing: a piece
    failing it has no action), a piece drawn that fails it narrows the draw's
    pool to the pieces passing it, once, and the draw goes on from those —
    unless they are too few to hold LIST_BELOW_PER_BOUND·M actions: then the
    lister lists them (the draw gives None), and the playout lists the positions
    after until a listing gives that many (runtime/engine.py):

        <body before the if>
        if TEST:
            <its body>
        else:
            pool = []
            for frm in elements:
                <body before the if>
                if TEST:
                    pool.append(frm)
            elements = pool
            n = len(pool)
            if n < LIST_BELOW_PER_BOUND:
                return None
            continue

    A narrowed pool holds every piece with an action, each once, so a try keeps
    each of the position's actions with the same chance 1/(n·M) as before, and
    which pool a try draws from depends only on the tries before it: uniform.
    A gate that pieces mostly pass costs nothing (the pool is narrowed only
    once a piece fails it); one that most fail (a rolled number naming the
    piece) is asked of each piece once, not a try each, and a draw that would
    fail its tries on the pieces it stops leaves the position to the lister at
    once (measured in benchmarks/PROFILE-NOTES.md, "s-draw3")."""
    gate = body[-1] if body else None
    if not isinstance(gate, py.If) or gate.orelse or pyast.uses(body[:-1], "out") \
            or pyast.uses([gate.test], "out"):
        return _copied(body)
    prefix = body[:-1]
    pool = pyast.name(src.fresh("l"))
    element = pyast.name(target)
    narrowed = [
        pyast.assign(pool, pyast.list_()),
        pyast.for_(element, elements, [
            *_copied(prefix),
            pyast.if_(_copied_expr(gate.test), [pyast.expr_stmt(pyast.method(pool, "append", element))]),
        ]),
        pyast.assign(elements, pool),
        pyast.assign(n, pyast.helper("len", pool)),
        pyast.if_(pyast.compare(n, "<", pyast.num(LIST_BELOW_PER_BOUND)), [pyast.return_(pyast.none())]),
        pyast.continue_(),
    ]
    return [*_copied(prefix), pyast.if_(_copied_expr(gate.test), _copied(gate.body), narrowed)]


def _kinds_apart(body: list[py.stmt]) -> bool:
    """Whether every action of `body` is under a test of the piece's kind (`kk`,
    decisions.py): pieces of other kinds give none, and a draw over all of them
    would mostly draw those (a follow-up decision of one kind, among many)."""
    tested = [stmt for stmt in body if isinstance(stmt, py.If) and "kk" in pyast.names_in([stmt.test])]
    return bool(tested) and sum(pyast.uses(stmt.body + stmt.orelse, "out") for stmt in tested) \
        == pyast.uses(body, "out")


def _is_position_list(iterable: py.expr) -> bool:
    """`o[X]`: a list of sites of the position's, which a draw can index."""
    return isinstance(iterable, py.Subscript) and pyast.is_name(iterable.value, "o") \
        and not isinstance(iterable.slice, py.Slice)


def _appends_only(body: list[py.stmt]) -> bool:
    """Whether `out` is read in `body` only as `out.append(X)`."""
    appends = sum(1 for node in pyast.walk_all(body) if isinstance(node, py.Expr) and _appended(node) is not None)
    return appends > 0 and pyast.uses(body, "out") == appends


class _Landing(NamedTuple):
    """What a loop over sites (`site` its variable) is asked under: whether the
    site is empty (else occupied), and the names holding `b[site]` (a loop's
    `tg = b[to]`)."""
    site: str
    empty: bool
    aliases: frozenset[str]


def _appends_bound(src: Source, stmts: Sequence[py.stmt], scope: Sequence[py.stmt],
                   known: Optional[dict[str, list[Any]]] = None, fixed: frozenset[str] = frozenset(),
                   landing: Optional[_Landing] = None) -> int:
    """The most `out.append`s `stmts` make in one run (declines where unbounded
    or not known): loops count their elements' most, from the values their
    collection may have (`scope`: where the names it reads are set; `known`: the
    values of the variables of the loops around). A loop whose body loops over
    its element (the rays of a site, then the sites of each ray) counts each
    collection's elements' bounds, summed: the most a site's rays hold, not
    the longest ray times the most rays. Loops one after the other over sites
    of tables read at the same indices (two actions' steps from one piece) are
    bounded by site (_per_site_bound): a site both reach counts once where their
    appends there ask it empty in one and occupied in the other. `fixed`: the
    names set once before the loops, the same for all of them; `landing`: what
    `stmts` run under (where they are a loop's body: its site empty or not), so
    that a branch asking the contrary is not counted."""
    known = known or {}
    total = 0
    i = 0
    while i < len(stmts):  # (each round moves on by one statement or more)
        stmt = stmts[i]
        if landing is not None:
            landing = _landing_after(stmt, landing)
        if _appended(stmt) is not None:
            total += 1
        elif isinstance(stmt, py.If):
            branches = [_appends_bound(src, branch, scope, known, fixed, landing)
                        for branch, ruled_out in ((stmt.body, _is_false(stmt.test, landing)),
                                                  (stmt.orelse, _is_true(stmt.test, landing))) if not ruled_out]
            total += max(branches, default=0)
        elif isinstance(stmt, py.For):
            group = _shared_sites(src, stmts, i, scope, fixed)
            shared = _per_site_bound(src, group, scope, known, fixed) if group is not None else None
            if group is not None and shared is not None:
                total += shared
                i += len(group)
                continue
            if isinstance(stmt.target, py.Name) and _loops_over(stmt.body, stmt.target.id):
                values = _values_after(src, stmt.iter, stmts[:i], scope, known)
                total += _summed_bound(src, stmt.body, scope, known, stmt.target.id, values)
            else:
                inner = _appends_bound(src, stmt.body, scope, known, fixed)
                if inner:
                    values = _values_after(src, stmt.iter, stmts[:i], scope, known)
                    total += max((len(value) for value in values), default=0) * inner
            total += _appends_bound(src, stmt.orelse, scope, known, fixed)
        elif pyast.uses([stmt], "out"):
            raise _Decline  # (a `while`, or anything else appending)
        i += 1
    return total


def _landing_after(stmt: py.stmt, landing: _Landing) -> Optional[_Landing]:
    """`landing` as it holds once `stmt` has run (None: no longer known)."""
    if landing.site in _assigned([stmt]) or "b" in _assigned([stmt]):
        return None
    if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], py.Name) \
            and pyast.same(stmt.value, pyast.sub(pyast.name("b"), pyast.name(landing.site))):
        return landing._replace(aliases=landing.aliases | {stmt.targets[0].id})
    stored = _assigned([stmt])
    return landing._replace(aliases=landing.aliases - stored) if stored & landing.aliases else landing


def _asks_empty(test: py.expr, landing: _Landing) -> Optional[bool]:
    """True where `test` is `X is None` (X the site's occupant), False where it is
    `X is not None`, else None."""
    if isinstance(test, py.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (py.Is, py.IsNot)) \
            and isinstance(test.comparators[0], py.Constant) and test.comparators[0].value is None:
        left = test.left
        if isinstance(left, py.Name) and left.id in landing.aliases \
                or pyast.same(left, pyast.sub(pyast.name("b"), pyast.name(landing.site))):
            return isinstance(test.ops[0], py.Is)
    return None


def _is_true(test: py.expr, landing: Optional[_Landing]) -> bool:
    """Whether `test` holds wherever `landing` does."""
    if landing is None:
        return False
    if isinstance(test, py.UnaryOp) and isinstance(test.op, py.Not):
        return _is_false(test.operand, landing)
    if isinstance(test, py.BoolOp):
        held = [_is_true(value, landing) for value in test.values]
        return all(held) if isinstance(test.op, py.And) else any(held)
    return _asks_empty(test, landing) is landing.empty


def _is_false(test: py.expr, landing: Optional[_Landing]) -> bool:
    """Whether `test` fails wherever `landing` holds."""
    if landing is None:
        return False
    if isinstance(test, py.UnaryOp) and isinstance(test.op, py.Not):
        return _is_true(test.operand, landing)
    if isinstance(test, py.BoolOp):
        failed = [_is_false(value, landing) for value in test.values]
        return any(failed) if isinstance(test.op, py.And) else all(failed)
    asked = _asks_empty(test, landing)
    return asked is not None and asked is not landing.empty


class _SitesLoop(NamedTuple):
    loop: py.For
    site: str  # its variable
    table: Any  # the constant the loop's collection is read from
    indices: tuple[str, ...]  # the names it is read at, outermost first


def _shared_sites(src: Source, stmts: Sequence[py.stmt], i: int, scope: Sequence[py.stmt],
                  fixed: frozenset[str]) -> Optional[list[_SitesLoop]]:
    """The loops from `stmts[i]` on, one after the other (two or more), each over
    sites of the board read from a constant table at the same names (`t[frm]`,
    `t = k5[p]`: its table k5, read at p then frm), each site once, whose bodies
    leave those names, their site and the board alone: None where there are no
    such loops. The board (`b`) must be set once in `scope` and never written."""
    group: list[_SitesLoop] = []
    for stmt in stmts[i:]:
        if not (isinstance(stmt, py.For) and isinstance(stmt.target, py.Name) and not stmt.orelse
                and not _loops_over(stmt.body, stmt.target.id) and stmt.target.id not in _assigned(stmt.body)):
            break
        chain = _table_chain(src, stmt.iter, scope, fixed, depth=4)
        if chain is None or group and chain[1] != group[0].indices:
            break
        group.append(_SitesLoop(stmt, stmt.target.id, *chain))
    if len(group) < 2:
        return None
    stored = _assigned([item.loop for item in group])
    if stored & (set(group[0].indices) | pyast.names_in([item.loop.iter for item in group])) \
            or not _board_read_only(scope):
        return None
    return group


def _board_read_only(scope: Sequence[py.stmt]) -> bool:
    """Whether `b` is set once in `scope`, to the position's board, and no
    statement writes into it."""
    sets = [node for node in pyast.walk_all(scope) if isinstance(node, py.Assign)
            and any(pyast.is_name(target, "b") for target in node.targets)]
    stores = [node for node in pyast.walk_all(scope) if isinstance(node, py.Name) and node.id == "b"
              and isinstance(node.ctx, py.Store)]
    written = any(isinstance(node, (py.Subscript, py.Attribute)) and isinstance(node.ctx, (py.Store, py.Del))
                  and pyast.is_name(node.value, "b") for node in pyast.walk_all(scope))
    return len(sets) == 1 and len(stores) == 1 and len(sets[0].targets) == 1 and not written \
        and pyast.same(sets[0].value, pyast.attr(pyast.name("s"), "board"))


def _table_chain(src: Source, expr: py.expr, scope: Sequence[py.stmt], fixed: frozenset[str],
                 depth: int) -> Optional[tuple[Any, tuple[str, ...]]]:
    """(the constant, the names it is read at) for `expr`, a constant read at
    names (`k5[p][frm]`) or a name set once in `scope` to one read at `fixed`
    names (`t = k5[p]`, then `t[frm]`); else None."""
    indices: list[str] = []
    while isinstance(expr, py.Subscript) and isinstance(expr.slice, py.Name):
        indices.insert(0, expr.slice.id)
        expr = expr.value
    if not isinstance(expr, py.Name):
        return None
    if src.is_const_name(expr.id):
        return src.value(expr), tuple(indices)
    sets = [node for node in pyast.walk_all(scope) if isinstance(node, py.Assign)
            and any(pyast.is_name(target, expr.id) for target in node.targets)]
    stores = sum(1 for node in pyast.walk_all(scope) if isinstance(node, py.Name) and node.id == expr.id
                 and isinstance(node.ctx, py.Store))
    if depth <= 0 or len(sets) != 1 or stores != 1 or len(sets[0].targets) != 1:
        return None
    inner = _table_chain(src, sets[0].value, scope, fixed, depth - 1)
    if inner is None or not set(inner[1]) <= fixed:
        return None
    return inner[0], inner[1] + tuple(indices)


def _per_site_bound(src: Source, group: list[_SitesLoop], scope: Sequence[py.stmt],
                    known: dict[str, list[Any]], fixed: frozenset[str]) -> Optional[int]:
    """The most appends of `group`'s loops together: at each joint index into
    their tables (all of one shape), each site reached counts the appends of the
    loops reaching it, those asked with the site empty and those asked with it
    occupied apart, the larger of the two (a site is one or the other, the same
    in every loop: the board is not written) — the sum of all the loops' where
    they do not ask it. None where the tables differ in shape or hold other
    than sites (the loops are then bounded one by one)."""
    per_landing = [tuple(_appends_bound(src, item.loop.body, scope, known, fixed,
                                        _Landing(item.site, empty, frozenset()))
                         for empty in (True, False)) for item in group]
    most = 0
    try:
        for sites in _joint_leaves([item.table for item in group], len(group[0].indices)):
            on_empty: dict[int, int] = {}
            on_taken: dict[int, int] = {}
            for collection, (if_empty, if_taken) in zip(sites, per_landing):
                if not isinstance(collection, (tuple, list)) or len(on_empty) + len(collection) > _MAX_VALUES:
                    return None
                for site in collection:
                    if type(site) is not int:
                        return None
                    on_empty[site] = on_empty.get(site, 0) + if_empty
                    on_taken[site] = on_taken.get(site, 0) + if_taken
            most = max(most, sum(max(on_empty[site], on_taken[site]) for site in on_empty))
    except _Decline:
        return None
    return most


def _joint_leaves(tables: list[Any], depth: int) -> Iterator[list[Any]]:
    """The items of `tables` `depth` indices deep, read at the same indices in
    every table (each table a tuple or list of one length at every level above:
    else declines); at most _MAX_VALUES of them."""
    stack = [(tables, depth)]
    given = 0
    while stack:  # (each joint index once)
        level, left = stack.pop()
        if not left:
            given += 1
            if given > _MAX_VALUES:
                raise _Decline
            yield level
            continue
        if not all(isinstance(table, (tuple, list)) for table in level) or len({len(t) for t in level}) != 1:
            raise _Decline
        stack.extend(([table[k] for table in level], left - 1) for k in range(len(level[0])))


def _loops_over(stmts: Sequence[py.stmt], name: str) -> bool:
    """Whether a loop in `stmts` goes over a collection that reads `name`."""
    return any(isinstance(node, py.For) and name in pyast.names_in([node.iter]) for node in pyast.walk_all(stmts))


def _summed_bound(src: Source, body: Sequence[py.stmt], scope: Sequence[py.stmt], known: dict[str, list[Any]],
                  target: str, collections: list[Any]) -> int:
    """The most appends of a loop of `target` over any of `collections`: each
    element's bound (`body` run with `target` that element), summed."""
    per_element: dict[int, int] = {}
    most = 0
    for collection in collections:
        if len(per_element) + len(collection) > _MAX_VALUES:
            raise _Decline
        summed = 0
        for element in collection:
            if id(element) not in per_element:
                per_element[id(element)] = _appends_bound(src, body, scope, {**known, target: _distinct([element])})
            summed += per_element[id(element)]
        most = max(most, summed)
    return most


def _values_after(src: Source, expr: py.expr, before: Sequence[py.stmt], scope: Sequence[py.stmt],
                  known: Optional[dict[str, list[Any]]] = None) -> list[Any]:
    """_values of `expr` evaluated after the statements `before` (a straight run):
    a name they last set plainly, and nothing after that sets, has the values of
    that assignment (so worked out in turn), not those of all its assignments;
    a name of `known` not set there, those values."""
    env: dict[str, list[Any]] = dict(known or {})
    for name in pyast.names_in([expr]):
        if src.is_const_name(name):
            continue
        last = next((j for j in range(len(before) - 1, -1, -1) if name in _assigned([before[j]])), None)
        if last is None:
            continue
        stmt = before[last]
        if isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], name) \
                and name not in {node.id for node in pyast.walk_all([stmt.value])
                                 if isinstance(node, py.Name) and isinstance(node.ctx, py.Store)}:
            env[name] = _values_after(src, stmt.value, before[:last], scope, known)
    return _values(src, expr, scope, set(), env)


def _values(src: Source, expr: py.expr, scope: Sequence[py.stmt], open_names: set[str],
            env: Optional[dict[str, list[Any]]] = None) -> list[Any]:
    """Every value `expr` may have (distinct objects), from the constants it reads
    and the assignments of the names it reads in `scope`; declines where not known."""
    if isinstance(expr, py.Constant):
        return _distinct([expr.value])
    if isinstance(expr, py.Name):
        if src.is_const_name(expr.id):
            return _distinct([src.value(expr)])
        if env is not None and expr.id in env:
            return env[expr.id]
        return _name_values(src, expr.id, scope, open_names)
    if isinstance(expr, py.IfExp):
        return _distinct(_values(src, expr.body, scope, open_names, env)
                         + _values(src, expr.orelse, scope, open_names, env))
    if isinstance(expr, py.Subscript) and not isinstance(expr.slice, py.Slice):
        return _indexed(_values(src, expr.value, scope, open_names, env), expr.slice)
    raise _Decline


def _indexed(collections: list[Any], index: py.expr) -> list[Any]:
    """The values `collection[index]` may have, for each of `collections`: the
    item at a constant whole-number index, else any item."""
    at = index.value if isinstance(index, py.Constant) and type(index.value) is int else None
    found: list[Any] = []
    for value in collections:
        if not isinstance(value, (tuple, list)):
            continue  # (never indexed in a run: it would fail)
        if at is not None:
            if -len(value) <= at < len(value):
                found.append(value[at])
        else:
            found.extend(value)
        if len(found) > _MAX_VALUES:
            raise _Decline
    return _distinct(found)


def _name_values(src: Source, name: str, scope: Sequence[py.stmt], open_names: set[str]) -> list[Any]:
    """The values of a local `name`: those of every plain assignment to it in
    `scope` (the name set no other way); one that reads the name itself is
    applied until no value is new. Worked out once per scope (its loops ask
    the same names)."""
    key = (id(scope), name)
    if key in _NAME_VALUES:
        return _NAME_VALUES[key]
    values = _NAME_VALUES[key] = _name_values_found(src, name, scope, open_names)
    return values


# What _name_values found, by (scope, name), while write_element_draws works out
# one bound (emptied before and after: a scope's id is its own only while it lives).
_NAME_VALUES: dict[tuple[int, str], list[Any]] = {}


def _name_values_found(src: Source, name: str, scope: Sequence[py.stmt], open_names: set[str]) -> list[Any]:
    """_name_values, worked out."""
    sources: list[py.expr] = []
    for node in pyast.walk_all(scope):
        if isinstance(node, py.Assign) and any(pyast.is_name(t, name) for t in node.targets):
            if len(node.targets) != 1:
                raise _Decline
            sources.append(node.value)
        elif isinstance(node, py.Name) and node.id == name and isinstance(node.ctx, py.Store):
            if not any(isinstance(a, py.Assign) and node in a.targets for a in pyast.walk_all(scope)):
                raise _Decline  # (a loop's variable, a walrus, an unpacking)
    if name in open_names or not sources:
        raise _Decline
    plain = [e for e in sources if name not in pyast.names_in([e])]
    recursive = [e for e in sources if name in pyast.names_in([e])]
    inner = open_names | {name}
    values = _distinct([v for e in plain for v in _values(src, e, scope, inner)])
    known = {id(v) for v in values}
    new = values
    for _ in range(8):  # (tables nest a few levels at most)
        if not recursive:
            return values
        # (the assignments reading the name applied to the values found last)
        frontier, new = new, []
        for e in recursive:
            for v in _values_with(src, e, name, frontier, scope, inner):
                if id(v) not in known:
                    known.add(id(v))
                    new.append(v)
        if not new:
            return values
        values = values + new
        if len(values) > _MAX_VALUES:
            raise _Decline
    raise _Decline


def _values_with(src: Source, expr: py.expr, name: str, values: list[Any], scope: Sequence[py.stmt],
                 open_names: set[str]) -> list[Any]:
    """_values of `expr` where `name` has `values`."""
    if isinstance(expr, py.Name) and expr.id == name:
        return values
    if isinstance(expr, py.IfExp):
        return _distinct(_values_with(src, expr.body, name, values, scope, open_names)
                         + _values_with(src, expr.orelse, name, values, scope, open_names))
    if isinstance(expr, py.Subscript) and not isinstance(expr.slice, py.Slice) and name in pyast.names_in([expr.value]):
        return _indexed(_values_with(src, expr.value, name, values, scope, open_names), expr.slice)
    return _values(src, expr, scope, open_names)


def _distinct(values: list[Any]) -> list[Any]:
    """`values`' tuples and lists, once each: a number or none can be neither
    indexed nor looped over in a run, so it bounds nothing; any other collection
    (a set, a text) is not looked into (declines)."""
    seen: set[int] = set()
    kept = []
    for v in values:
        if isinstance(v, (tuple, list)):
            if id(v) not in seen:
                seen.add(id(v))
                kept.append(v)
        elif not (v is None or isinstance(v, (int, float))):
            raise _Decline
    return kept
