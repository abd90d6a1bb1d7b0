"""The safety check at the root: no move that gives material away for nothing.

In a game where material means something (knowledge.py), every action of the
root is looked at with the look-ahead over material (lookahead.py): the rest of
the mover's turn, every answer of the next player, then captures. An action after
which the balance is lower than it is now — a piece left to be taken, a piece
moved off the board, a threat not parried — is *vetoed* when another action keeps
the balance: the search neither explores nor chooses it (tree.py), unless every
action left is vetoed or lost. This is what the random playouts cannot see with a
few hundred simulations: that one answer among thirty takes a piece.

The look-ahead asks only "is the balance below what it is now?" (a null window),
which an answer that takes something settles at once; the answer that refuted
one action is tried first against the next (lookahead.py's killers), and the
actions that touch what a refutation changed are looked at next (in a threat,
the few answers come early). It makes at most `node_limit` positions. Where it
ran short (a hunt game: 60 actions, each with 80 answers, may take 60,000 positions),
the actions it had no time for are played against the refutations found, one
position each, and vetoed where one still takes material (`_veto_suspects`);
and the action the search chooses is looked at in full after the search if it
was not before (`verify_choice`): a few hundred positions for one action.

The first pass also marks the captures that win material (the balance higher
than now whatever the answer): where the search cannot tell its choice from one
(every playout lost, or won, or too few of them), the capture is played
(`prefer_gains`).
"""
from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from ...analysis.lookahead import EPSILON, Lookahead, OutOfNodes
from ...analysis.material import Material
from ...runtime.pieces import CHANCE, DESTINATION, ORIGIN
from .tree import Node, is_decision, loses_for

if TYPE_CHECKING:
    from ...runtime.pieces import Code
    from ...runtime.state import State
    from ..protocol import FastLayer
    from .evaluation import Escape

DEEPEST = 2  # whole turns of the others searched after the root's action, at most
# a child that wins material is chosen where its mean is within so many standard
# errors of the choice's (`prefer_gains`)
GAIN_Z = 2.0
VERIFY_NODES = 5_000  # positions the look-ahead may make after the search (verify_choice)
WINNERS_KEPT = 16  # wins at once kept for the next look for a forced win (`allows_forced_win`)


def veto_material_losses(engine: FastLayer, material: Material, root: Node, node_limit: int,
                         deadline: Optional[float] = None, deepest: int = DEEPEST,
                         first_deadline: Optional[float] = None,
                         clock: Callable[[], float] = time.perf_counter) -> int:
    """Veto the root's children that lose material while another does not, looking
    one turn of answers deep, then (with what is left of `node_limit` and
    `deadline`) two turns, and so on to `deepest`: a deeper pass vetoes only among
    the children still allowed, and only while one of them keeps the balance. The
    number of positions the look-ahead made. The first pass stops at
    `first_deadline`, the deeper ones at `deadline` (times of `clock`)."""
    me, state, children = _decision(root)
    # (the first pass, mostly on the answers the root's check has made, costs
    # little and may take longer than the deeper ones)
    look = Lookahead(engine, material, me, node_limit=node_limit, clock=clock)
    now = look.balance(state)
    for turns in range(1, deepest + 1):
        look.deadline = deadline if turns > 1 else first_deadline
        # (the children the root's check made: a stub it had no time for is left to verify_choice)
        allowed = [c for c in children
                   if c.materialised and not loses_for(c, me) and c.proven != me and not c.vetoed]
        losing, complete = _losing(look, allowed, me, now, turns)
        if len(losing) < len(allowed):
            for child in losing:
                child.vetoed = True
        if not complete:
            if turns == 1:
                _veto_suspects(look, allowed, me, now)
            break
    root.untried = [c for c in root.untried if not c.vetoed]
    return look.nodes


def _losing(look: Lookahead, children: list[Node], me: int, now: float, turns: int) -> tuple[list[Node], bool]:
    """The children after which the balance falls below `now` within `turns` turns
    of answers, and whether every child was looked at. Once a child is found
    losing, those that touch the sites its refutation changed (the piece taken,
    where the taker came from and went to: fleeing, blocking, taking the taker)
    are looked at next, and so on with each new refutation: in a threat, the few
    answers come early. In the first pass (one turn) the captures come first, and
    each is also asked whether the balance stays higher than `now` (a window above
    it as well): those that win material are marked (`Node.gains`)."""
    losing: list[Node] = []
    queue = list(children)
    if turns == 1:
        queue.sort(key=lambda c: not _captures(look, c, now))
    hot: set[int] = set()  # the sites of the last refutation found
    for index in range(len(queue)):
        child = queue[index]
        # (the rest of the mover's own turn comes free)
        depth = turns + 1 if child.mover == me else turns
        # (the root's check for wins in one has made the position of every child given)
        assert child.state is not None, "a child looked at before it was made"
        capture = turns == 1 and _captures(look, child, now)
        try:
            value = look.value(child.state, depth, now - EPSILON, now + EPSILON if capture else now, _made(child))
        except OutOfNodes:
            return losing, False
        if turns == 1:
            child.checked = True
            child.gains = capture and value > now + EPSILON / 2
        if value < now - EPSILON:
            losing.append(child)
            sites = _refuted_sites(look, child, me)
            if sites and sites != hot:
                hot = sites
                queue[index + 1:] = sorted(queue[index + 1:], key=lambda c: not _touches(c, sites))
    return losing, True


def _captures(look: Lookahead, child: Node, now: float) -> bool:
    """Whether the balance is higher than `now` at once after `child`'s action (made)."""
    state = child.state
    return state is not None and look.balance(state) > now + EPSILON


def alike(chosen: Node, other: Node, me: int, z: float = GAIN_Z) -> bool:
    """Whether the playouts cannot tell `other` from `chosen`: its mean reward for `me`
    within `z` standard errors of the difference of the two means (every playout lost,
    or won, or too few of them)."""
    mean, theirs = chosen.mean(me), other.mean(me)
    pooled = (mean + theirs) / 2
    spread = math.sqrt(pooled * (1.0 - pooled) * (1.0 / max(chosen.visits, 1) + 1.0 / max(other.visits, 1)))
    return theirs >= mean - z * spread


def prefer_room(choose: Callable[[Node], Node], escape: Escape, z: float = GAIN_Z) -> Callable[[Node], Node]:
    """`choose`, turned to the child that leaves the next player's goal pieces the
    least room (`Escape.room`: their forks, then the goal sites they reach in two
    moves, then in one) among those the playouts cannot tell from the choice
    (`alike`), unless the choice wins material (`prefer_gains`'s, where both are on)
    — where every playout is lost to a piece that escapes, the search's order is noise,
    and the piece's room says which actions stand in its way."""

    def choose_hemming(root: Node) -> Node:
        chosen = choose(root)
        me, children = root.mover, root.children
        if chosen.gains or chosen.proven is not None or me is None or not children or chosen.state is None:
            return chosen  # (material won first: a capture whose gain survives every answer stays the choice)
        other = 1 - me
        if escape.room(chosen.state, other) is None:
            return chosen
        found: list[tuple[tuple[int, int, int], int, Node]] = []
        for order, child in enumerate(children):
            if child is chosen or (not child.vetoed and child.state is not None and not loses_for(child, me)
                                   and child.proven is None and alike(chosen, child, me, z)):
                room = escape.room(child.state, other)  # type: ignore[arg-type]
                found.append((room or (0, 0, 0), 0 if child is chosen else 1 + order, child))
        return min(found, key=lambda entry: entry[:2])[2]

    return choose_hemming


def prefer_gains(choose: Callable[[Node], Node], z: float = GAIN_Z) -> Callable[[Node], Node]:
    """`choose`, turned to a child that wins material (`_losing`) where the
    playouts cannot tell it from the choice: its mean reward for the root's mover
    within `z` standard errors of the difference of the two means (every playout
    lost, or won, or too few of them) — there material decides."""

    def choose_gaining(root: Node) -> Node:
        chosen = choose(root)
        me, children = root.mover, root.children
        if chosen.gains or chosen.proven is not None or me is None or not children:
            return chosen
        gaining = [c for c in children if c.gains and not c.vetoed and not loses_for(c, me)]
        if not gaining:
            return chosen
        best = max(gaining, key=lambda c: (c.mean(me), c.visits))
        return best if alike(chosen, best, me, z) else chosen

    return choose_gaining


def _refutations(look: Lookahead, me: int) -> list[Code]:
    """The answers of the others that cut the look-ahead off (killers), latest first."""
    return [code for (mover, _), codes in look.killers.items() if mover != me for code in codes]


def _refuted_sites(look: Lookahead, child: Node, me: int) -> set[int]:
    """The sites the last refutation of `child` changes (empty when it has none)."""
    state = child.state
    assert state is not None, "a child looked at was made"
    engine = look.engine
    for code in _refutations(look, me):
        if code in engine.legal(state):
            after = engine.copy(state)
            engine.apply_in_place(after, code, settle=False)
            return {site for site, (a, b) in enumerate(zip(state.board, after.board)) if a != b}
    return set()


def _touches(child: Node, sites: set[int]) -> bool:
    """Whether `child`'s action starts or ends on one of `sites`."""
    code = child.code
    return len(code) > DESTINATION and (code[ORIGIN] in sites or code[DESTINATION] in sites)


def _veto_suspects(look: Lookahead, children: list[Node], me: int, now: float) -> None:
    """The first pass ran short: veto each child it had no time for after which a
    refutation it found (a killer: the capture that refuted another child) still
    lowers the balance at once — a threat left standing —, as long as some child
    looked at keeps the balance. One position a child and a refutation, past the
    look-ahead's limits: a threat with few answers is settled even when the check
    could not look at every action in full."""
    if not any(c.checked and not c.vetoed for c in children):
        return
    refutations = _refutations(look, me)
    engine = look.engine
    for child in children:
        state = child.state
        if child.checked or child.vetoed or state is None or not is_decision(child) or child.mover == me:
            continue  # (a refutation answers the root's action where the next player acts)
        legal = engine.legal(state)
        for code in refutations:
            if code in legal:
                after = engine.copy(state)
                engine.apply_in_place(after, code)
                if look.balance(after) < now - EPSILON:
                    child.vetoed = True
                    break


def verify_choice(engine: FastLayer, material: Material, root: Node, choose: Callable[[Node], Node],
                  node_limit: int = VERIFY_NODES, deadline: Optional[float] = None,
                  clock: Callable[[], float] = time.perf_counter) -> Node:
    """`choose(root)`, looked at one turn of answers deep if the safety check had
    not (it ran short). When it loses material, it is vetoed and the next actions
    the search prefers are looked at in turn, until one keeps the balance (the
    choice) or `node_limit` positions or the `deadline` are spent: in a threat
    (a hunt game: 5 actions of 107 keep the piece), the check may not have reached
    the few answers before."""
    me, state, children = _decision(root)
    chosen = choose(root)
    if chosen.checked or chosen.proven is not None or not chosen.materialised:
        return chosen
    look = Lookahead(engine, material, me, node_limit=node_limit, deadline=deadline, clock=clock)
    now = look.balance(state)
    candidates = [c for c in children if c.materialised and not c.vetoed and not loses_for(c, me)]
    candidates.sort(key=lambda c: (c is not chosen, -c.visits, -c.mean(me)))
    for child in candidates:
        if child.checked or child.proven is not None:
            return child  # kept the balance in the check (or is certain)
        losing, complete = _losing(look, [child], me, now, 1)
        if not complete:
            break
        if not losing:
            return child
        child.vetoed = True
    return choose(root)


def _decision(root: Node) -> tuple[int, State, list[Node]]:
    """The mover, position and children of `root`: the search checks only a root
    it has expanded, of a game going on."""
    me, state, children = root.mover, root.state, root.children
    assert me is not None and state is not None and children is not None, "the root of a game going on, expanded"
    return me, state, children


def _made(node: Node) -> Optional[list[State]]:
    """The positions after each of `node`'s actions when the search has made them
    all already (the root's check for wins in one does, for the answers), else None."""
    children = node.children
    if not children or any(not c.materialised for c in children):
        return None
    return [c.state for c in children if c.state is not None]  # (all of them: tested above)


class OutOfTime(Exception):
    """The check for forced losses ran past its positions or its deadline."""


def allows_forced_win(engine: FastLayer, child: Node, me: int, node_limit: int,
                      deadline: Optional[float] = None,
                      clock: Callable[[], float] = time.perf_counter,
                      may_win: Optional[Callable[[int], Callable[[Code], bool]]] = None,
                      winners: Optional[list[Code]] = None, threats: Optional[list[Code]] = None) -> bool:
    """Whether after `child` (the root's action, by `me`) the next player has an
    answer after which every reply of `me` lets it win at once: a double threat
    that no reply saves, two moves deep, which the search's few hundred
    simulations may not see and the look-ahead over material weighs as material
    until the end. The game's result only: an answer counts when `me` replies
    next (the turns alternate) and each reply is followed by the same player's
    turn. The winning actions found are tried first after the next reply (in a
    double threat, the same two). False when it ran past `node_limit` positions
    or the `deadline` (nothing is known). With `may_win` (a player -> a test of
    actions: `Tactics.has_won`), only the actions it lets through are tried for a
    win at once: a win of another kind is missed — a forced win not found, never
    one claimed — and a position without one costs a listing and a few tries
    rather than a position for each action (40 to 100 in a game of sliding pieces).
    `winners`: the actions that won at once in earlier calls (latest first; kept by
    the caller across candidates and moves), tried first whatever `may_win` says, and
    added to: a win the full look found is tried by the next look of kinds. The
    answer found to force a win is put first in `threats`, where given."""
    state = child.state
    if state is None or engine.outcome(state) is not None:
        return False
    them = engine.to_move(state)
    if them == me or them == CHANCE:
        return False
    if winners is None:
        winners = []  # the actions that won for `them` at once, latest first
    tried = may_win(them) if may_win is not None and them is not None else None

    make = _counted_maker(engine, node_limit, deadline, clock)

    def wins_at_once(position: State) -> bool:
        legal = engine.legal(position)
        for code in [c for c in winners if c in legal] + [c for c in legal if c not in winners
                                                          and (tried is None or tried(c))]:
            outcome = engine.outcome(make(position, code))
            if outcome is not None and outcome[0] == them:
                if code in winners:
                    winners.remove(code)
                winners.insert(0, code)
                del winners[WINNERS_KEPT:]
                return True
        return False

    def forced(answer: State) -> bool:
        if engine.outcome(answer) is not None or engine.to_move(answer) != me:
            return False  # (a win at once is the root's check's; other turn orders are not looked at)
        for code in engine.legal(answer):
            reply = make(answer, code)
            outcome = engine.outcome(reply)
            if outcome is not None:
                if outcome[0] == them:
                    continue
                return False
            if engine.to_move(reply) != them or not wins_at_once(reply):
                return False
        return True

    answers = child.children
    try:
        # (the answers that forced a win before first: a threat is met by the same answer)
        first = threats or []
        if answers is not None and all(a.materialised for a in answers):
            positions = [(a.code, a.state) for a in answers if a.state is not None]
            positions.sort(key=lambda pair: pair[0] not in first)
            pairs = iter(positions)
        else:
            legal = engine.legal(state)
            pairs = ((code, make(state, code)) for code in [c for c in first if c in legal]
                     + [c for c in legal if c not in first])
        for code, answer in pairs:
            if forced(answer):
                if threats is not None:
                    threats.insert(0, code)
                return True
        return False
    except OutOfTime:
        return False


NET_KILLERS = 4  # actions kept per level of the net's look that ended a branch (tried first there)


def allows_net(engine: FastLayer, child: Node, me: int, moves: int, node_limit: int,
               may_win: Callable[[int], Callable[[Code], bool]], winners: list[Code],
               deadline: Optional[float] = None, clock: Callable[[], float] = time.perf_counter,
               killers: Optional[dict[tuple[bool, int], list[Code]]] = None,
               answers: Optional[list[Code]] = None) -> bool:
    """Whether after `child` (the root's action, by `me`) the next player wins by
    force within `moves` of its own moves: an answer after which every reply of `me`
    leads to the same, one move shorter, down to a win at once — a net of several
    moves around a goal piece, deeper than `allows_forced_win`'s two, which the
    search's few hundred simulations cannot see. A full look, held to its cost by
    two things: a win at once is tried only among the kinds of action that have won
    (`may_win`) and the `winners` found before (kept by the caller, added to), and
    at each level the actions that ended a branch before (the answer that forced,
    the reply that escaped) are tried first — a reply that escapes one answer
    mostly escapes the next, so a safe action costs about one reply per answer
    (three moves in a game of 40 actions a position: ~5,000 positions, where every
    reply to every answer costs 130,000). The turns must alternate: an answer
    after which `me` does not move next, or a reply after which the next player
    does not, ends the line (no net).
    False when it ran past `node_limit` positions or the `deadline` (nothing known).
    `killers`: those actions by level ((an answer?, moves left) -> actions, latest
    first), kept by the caller across the candidates of one decision and added to.
    `answers`: the first moves of the next player looked at (None: all of them) —
    a net missed where its first move is not among them, never one claimed."""
    state = child.state
    if state is None or engine.outcome(state) is not None:
        return False
    them = engine.to_move(state)
    if them == me or them == CHANCE or them is None:
        return False
    tried = may_win(them)
    if killers is None:
        killers = {}

    make = _counted_maker(engine, node_limit, deadline, clock)

    def first(codes: Sequence[Code], front: list[Code]) -> list[Code]:
        kept = [c for c in front if c in codes]
        return kept + [c for c in codes if c not in kept]

    def remember(front: list[Code], code: Code, kept: int) -> None:
        if code in front:
            front.remove(code)
        front.insert(0, code)
        del front[kept:]

    def wins_at_once(position: State) -> bool:
        for code in first([c for c in engine.legal(position) if c in winners or tried(c)], winners):
            outcome = engine.outcome(make(position, code))
            if outcome is not None and outcome[0] == them:
                remember(winners, code, WINNERS_KEPT)
                return True
        return False

    def wins_within(position: State, left: int, only: Optional[list[Code]] = None) -> bool:
        if left == 1:
            return wins_at_once(position)
        front = killers.setdefault((True, left), [])
        legal = engine.legal(position)
        for code in first(legal if only is None else [c for c in only if c in legal], front):
            answer = make(position, code)
            outcome = engine.outcome(answer)
            if outcome is None and engine.to_move(answer) == me and every_reply_loses(answer, left - 1) \
                    or outcome is not None and outcome[0] == them:
                remember(front, code, NET_KILLERS)
                return True
        return False

    def every_reply_loses(answer: State, left: int) -> bool:
        front = killers.setdefault((False, left), [])
        for code in first(engine.legal(answer), front):
            reply = make(answer, code)
            outcome = engine.outcome(reply)
            if outcome is not None and outcome[0] == them:
                continue
            if outcome is not None or engine.to_move(reply) != them or not wins_within(reply, left):
                remember(front, code, NET_KILLERS)
                return False
        return True

    try:
        return wins_within(state, moves, answers)
    except OutOfTime:
        return False


def _counted_maker(engine: FastLayer, node_limit: int, deadline: Optional[float],
                   clock: Callable[[], float]) -> Callable[[State, Code], State]:
    """`make(before, code)`: the position after `code`, a copy; OutOfTime once more
    than `node_limit` positions were made or (asked every 32) past `deadline`."""
    made = 0

    def make(before: State, code: Code) -> State:
        nonlocal made
        made += 1
        if made > node_limit or (deadline is not None and not made % 32 and clock() > deadline):
            raise OutOfTime()
        after = engine.copy(before)
        engine.apply_in_place(after, code)
        return after
    return make
