"""A decision → the generated function that lists its legal actions.

    def f7(s):                      # one function per decision
        b = s.board; ...            # the registers
        g0 = <gate>                 # forbid conditions asked once per position
        out = []
        l3 = <guard>                # `where` conditions of whole actions
        for frm in o[p]:            # each of the player's pieces, once
            pc = b[frm]
            kk = pc[1]
            if kk == 0:             # the actions its kind may take, in order
                <pattern loops appending codes to out>
        <pieces waiting in pools, the follow-up piece, drops, selects, passes>
        return out

With `prefer:` lines the actions come in tiers: a tier whose actions are legal
returns them at once. Two actions that may write the same notation are compared
while listing: the first keeps it (per piece, or over the whole list when the
notation does not say where the action starts).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from .registers import write_body
from .source import Source
from . import patterns
from .actions import ActionPlan
from .prefilters import OwnerMasks
from .reach import may_land_alike


@dataclass
class DecisionPlan:
    name: str
    tiers: list  # lists of ActionPlan, in the order offered
    prefer_probes: list = field(default_factory=list)  # coverage probe of each tier but the last


@dataclass
class Templates:
    """Distinct notation templates, numbered: with the fields each uses, the key
    under which two action codes write the same notation."""

    ids: dict = field(default_factory=dict)

    def id(self, template: tuple) -> int:
        return self.ids.setdefault(template, len(self.ids))

    def key_table(self, cases: list) -> tuple:
        """Per case: (template id, uses from, uses to, uses choice)."""
        return tuple(
            (self.id(c.template), "{from}" in c.template, "{to}" in c.template,
             "{outcome}" in c.template or "{choice}" in c.template or "={choice}" in c.template)
            for c in cases
        )


class DecisionWriter:
    """Writes the function of one decision (see the module docstring)."""

    def __init__(self, src: Source, keys: str, restrictions, coverage: Optional[str], owned_kinds: frozenset,
                 owner_masks: OwnerMasks, result_checks: Optional[str] = None):
        self.src = src
        self.owner_masks = owner_masks  # the masks of owners that the listers' conditions read
        # the constant of the `forbid result` checks, checks[phase][case], or None
        self.result_checks = result_checks
        self.owned_kinds = owned_kinds  # the kinds a player's piece can be of
        self.keys = keys  # the constant of Templates.key_table
        self.restrictions = restrictions  # the forbids: their gates are computed at the top
        self.coverage = coverage  # the coverage counts (None: off)
        self.guards: dict = {}  # id(action) -> the local holding its guard
        # False while writing the variant that keeps every candidate, duplicates of a
        # notation included (for `lint`, which looks for notation clashes)
        self.dedup = True
        self.deduplicated = False  # whether the function just written compares notations
        # True while writing the variant that lists the first tier's candidates before
        # `forbid result` (see write_candidates)
        self.candidates_only = False

    def write_candidates(self, plan: DecisionPlan) -> str:
        """The variant listing the first tier's actions before `forbid result` (and
        without the actions offered only when nothing else is legal): a playout
        checks just the one it picks, and asks the whole function when none passes."""
        self.candidates_only = True
        try:
            return self.write(plan)
        finally:
            self.candidates_only = False

    def write(self, plan: DecisionPlan) -> str:
        self.deduplicated = False
        src = self.src
        name = src.fresh("f")
        tiers = plan.tiers[:1] if self.candidates_only else plan.tiers
        tiered = self.coverage is not None and len(tiers) > 1
        with src.capture() as body:
            for n, tier in enumerate(tiers):
                with src.block(f"if tier <= {n}:") if tiered else _nothing():
                    self._tier(tier)
                if n < len(tiers) - 1:
                    with src.block("if out:"):
                        if tiered:
                            # The line was offered: did it hide actions of later tiers?
                            with src.block(f"if {name}(s, {n + 1}):"):
                                src.line(f"{self.coverage}[{plan.prefer_probes[n]}] += 1")
                        src.line("return out")
        body = _without_unread(body, "pc")
        words = set(re.findall(r"[A-Za-z_]\w*", "\n".join(body)))
        first = [line for line in self.restrictions.gate_lines() if line.split(" = ", 1)[0] in words]
        if "wb" in words:
            first.extend(_blockers(plan))
        first.extend(self.owner_masks.lines(words))
        with src.block(f"def {name}(s, tier=0):" if tiered else f"def {name}(s):"):
            write_body(src, ["out = []"] + body + ["return out"], first=tuple(first))
        return name

    def _guard(self, action: ActionPlan) -> Optional[str]:
        if action.guard is None:
            return None
        if id(action) not in self.guards:
            self.guards[id(action)] = self.src.fresh("l")
        return self.guards[id(action)]

    def _tier(self, actions: list) -> None:
        src = self.src
        clashing, from_free = _clashes(actions)
        per_piece = clashing if len(clashing) > 1 and not from_free else set()
        for action in actions:
            if action.only_if_stuck:
                continue  # (asked only when nothing else is legal, below)
            guard = self._guard(action)
            if guard is not None:
                action.guard.assign(src, guard)
            for line in action.prelude:
                src.line(line)
        on_board = [a for a in actions if a.moving and not a.same_piece and (a.kinds is None or a.kinds)]
        if on_board:
            self._board_pieces(on_board, per_piece)
        self._pool_pieces([a for a in actions if a.moving and not a.same_piece and a.pools], per_piece)
        same = [a for a in actions if a.moving and a.same_piece]
        if same:
            src.line("frm = s.carry")
            src.line("pc = b[frm] if frm != -1 else None")
            with src.block("if pc is not None:"):
                self._one_piece(same, per_piece)
        for action in actions:
            if not action.moving and not action.only_if_stuck:
                self._placement(action)
        if from_free and clashing:
            with src.block("if len(out) > 1:"):
                self._dedup("0")
        if self.candidates_only:
            return
        self._filter_results()
        stuck = [a for a in actions if a.only_if_stuck]
        if stuck:
            with src.block("if not out:"):
                for action in stuck:
                    guard = self._guard(action)
                    if guard is not None:
                        action.guard.assign(src, guard)
                    for line in action.prelude:
                        src.line(line)
                    self._placement(action)
                self._filter_results()

    def _dedup(self, start: str) -> None:
        """Keep the first of the codes from `start` on that write the same notation."""
        self.deduplicated = True
        self.src.line(f"h_dedup(out, {start}, {self.keys})" if self.dedup else "pass")

    def _filter_results(self) -> None:
        """Keep the actions whose resulting position no `forbid result` forbids."""
        if self.result_checks is not None:
            counts = f", {self.coverage}" if self.coverage is not None else ""
            with self.src.block("if out:"):
                self.src.line(f"h_result_filter(s, out, {self.result_checks}[s.phase]{counts})")

    def _board_pieces(self, movers: list, clashing: set) -> None:
        """The loop over the player's pieces on the board, dispatched by kind."""
        src = self.src
        with src.block("for frm in o[p]:"):
            src.line("pc = b[frm]")
            groups: dict = {}
            for k in sorted(self.owned_kinds):
                acting = tuple(id(a) for a in movers if a.kinds is None or k in a.kinds)
                groups.setdefault(acting, []).append(k)
            if len(groups) == 1:
                # Every kind a player can own takes the same actions: no test of the kind.
                (acting, _), = groups.items()
                self._one_piece([a for a in movers if id(a) in acting], clashing)
                return
            src.line("kk = pc[1]")
            for n, (acting, kinds) in enumerate((a, k) for a, k in groups.items() if a):
                test = f"kk == {kinds[0]}" if len(kinds) == 1 else f"kk in {src.const(frozenset(kinds))}"
                with src.block(f"{'if' if n == 0 else 'elif'} {test}:"):
                    self._one_piece([a for a in movers if id(a) in acting], clashing)

    def _pool_pieces(self, movers: list, clashing: set) -> None:
        """The pieces waiting in pools, each starting from its pool's site (when that
        site is empty and the pool is not)."""
        src = self.src
        pools: dict = {}
        for a in movers:
            for pool in a.pools:
                pools.setdefault(pool, []).append(a)
        for (offset, sites, pieces), acting in pools.items():
            src.line(f"frm = {src.const(sites)}[p]")
            with src.block(f"if frm != -1 and v[{offset} + p] > 0 and b[frm] is None:"):
                src.line(f"pc = {pieces}[p]")
                self._one_piece(acting, clashing)

    def _one_piece(self, actions: list, clashing: set) -> None:
        """The actions of one piece (`frm`, `pc`), in order; compared for notations
        when two of them that may write the same one both wrote something."""
        src = self.src
        for action in actions:
            for line in action.piece_setup:
                src.line(line)
        marks = []
        comparing = [a for a in actions if id(a) in clashing]
        if len(comparing) < 2:
            comparing = []
        partners = _fused_pairs(actions, clashing)
        for action in actions:
            if id(action) in partners and partners[id(action)] is None:
                continue  # listed with its partner
            last_of_two = len(comparing) == 2 and action is comparing[1]
            if comparing and any(a is action for a in comparing) and not last_of_two:
                marks.append(src.fresh("t"))
                second_guard = self._guard(comparing[1]) if len(comparing) == 2 else None
                # (only needed when the second action can run: its guard is known already)
                with src.block(f"if {second_guard}:") if second_guard and action is comparing[0] else _nothing():
                    src.line(f"{marks[-1]} = len(out)")
            guard = self._guard(action)
            with src.block(f"if {guard}:") if guard else _nothing(), \
                    action.piece_where.holds(src) if action.piece_where else _nothing():
                if last_of_two:
                    # Two actions to compare: only when this one runs, and both listed some.
                    second = src.fresh("t")
                    src.line(f"{second} = len(out)")
                    alike = self._landing_alike(comparing[0], action) if self.dedup else None
                    if alike and action.landing is not None and self.coverage is None:
                        # Told apart by the landing site alone: what the first lists is
                        # not listed again, rather than listed and dropped. (Not with
                        # coverage, which counts the candidates' conditions as asked.)
                        self.deduplicated = True
                        landed = src.fresh("l")
                        src.line(f"{landed} = h_landings(out, {marks[0]}, {second}, {src.const(alike)})")
                        action.landing.exclude = landed
                        try:
                            action.emit(src)
                        finally:
                            action.landing.exclude = None
                    else:
                        action.emit(src)
                        with src.block(f"if {marks[0]} < {second} < len(out):"):
                            self.deduplicated = True
                            src.line(self._drop_seen(comparing[0], action, marks[0], second) if self.dedup else "pass")
                elif id(action) in partners:
                    self._fused(action, partners[id(action)])
                else:
                    action.emit(src)
        if len(marks) > 1:
            ends = marks[1:] + ["len(out)"]
            produced = " + ".join(f"({a} < {b})" for a, b in zip(marks, ends))
            with src.block(f"if {produced} > 1:"):
                self._dedup(marks[0])

    @staticmethod
    def _landing_alike(first: ActionPlan, second: ActionPlan) -> Optional[frozenset]:
        """When the second action's cases share one notation that only the landing
        site tells apart: the first's cases of that notation (those whose landing
        sites the second must not list again), else None."""
        templates = {template for _, template in second.case_templates}
        if len(templates) != 1 or not _told_by_landing(templates):
            return None
        template = templates.pop()
        return frozenset(case for case, t in first.case_templates if t == template)

    def _drop_seen(self, first: ActionPlan, second: ActionPlan, start: str, middle: str) -> str:
        """The line dropping from out[middle:] (the second action's) what
        out[start:middle] (the first's) writes already. When the second action's
        cases share one notation that only the landing site tells apart, only the
        first's cases of that notation matter, and only their landing sites."""
        templates = sorted({template for _, template in second.case_templates})
        if not _told_by_landing(templates):
            return f"h_drop_seen(out, {start}, {middle}, {self.keys})"
        if len(templates) == 1:
            alike = self._landing_alike(first, second)
            if not alike:
                return "pass"  # (no notation in common)
            return f"h_drop_landing(out, {start}, {middle}, {self.src.const(alike)})"
        # per case: the number of its notation among the second action's, or -1
        number = {t: i for i, t in enumerate(templates)}
        cases = first.case_templates + second.case_templates
        table = [-1] * (1 + max(case for case, _ in cases))
        for case, t in cases:
            table[case] = number.get(t, -1)
        return f"h_drop_landing_alike(out, {start}, {middle}, {self.src.const(tuple(table))})"

    def _fused(self, first: ActionPlan, second: ActionPlan) -> None:
        step, jump = (first, second) if first.shape[0] == "step" else (second, first)
        _, k, dirs, step_landing = step.shape
        _, _, _, jump_landing, over_ids = jump.shape
        rays = self.restrictions.exprs.model.board.rays
        patterns.step_and_jump(self.src, step_landing, jump_landing, over_ids, list(dirs), rays, len(rays[0]), k)

    def _placement(self, action: ActionPlan) -> None:
        """A drop, select or pass: once per position."""
        src = self.src
        tests = [t for t in (self._guard(action), action.placement_test) if t]
        with src.block(f"if {' and '.join(tests)}:") if tests else _nothing():
            for line in action.placement_setup:
                src.line(line)
            with action.piece_where.holds(src) if action.piece_where else _nothing():
                action.emit(src)


def _without_unread(body: list, local: str) -> list:
    """`body` without its assignments to `local` when nothing reads it (a `pass`
    keeps each block they leave empty)."""
    assignment = re.compile(rf"(\s*){local} = [^=]")
    uses = sum(len(re.findall(rf"\b{local}\b", line)) for line in body)
    assignments = [line for line in body if assignment.match(line)]
    if uses != len(assignments):
        return body
    kept = [line for line in body if not assignment.match(line)]
    result = []
    for n, line in enumerate(kept):
        result.append(line)
        if _opens_empty_block(kept, n):
            result.append(_indent(line) + "    pass")
    return result


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip())]


def _opens_empty_block(lines: list, n: int) -> bool:
    """Whether lines[n] opens a block whose body is gone."""
    if not lines[n].rstrip().endswith(":"):
        return False
    return n + 1 == len(lines) or len(_indent(lines[n + 1])) <= len(_indent(lines[n]))


class _nothing:
    """A context manager that does nothing (no block to open)."""

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _fused_pairs(actions: list, clashing: set) -> dict:
    """id(action) -> the action listed with it in one pass (None for the second of
    a pair): a step and a jump of the same exact distance over the same directions,
    neither with conditions of its own, neither compared for notations."""
    pairs: dict = {}
    for i, a in enumerate(actions):
        if id(a) in pairs or a.shape is None or a.guard or a.piece_where or id(a) in clashing:
            continue
        for b in actions[i + 1:]:
            if id(b) in pairs or b.shape is None or b.guard or b.piece_where or id(b) in clashing:
                continue
            if {a.shape[0], b.shape[0]} == {"step", "jump"} and a.shape[1:3] == b.shape[1:3]:
                pairs[id(a)] = b
                pairs[id(b)] = None
                break
    return pairs


def _clashes(actions: list) -> tuple[set, bool]:
    """(ids of the actions that may write the same notation as another, whether
    some of those notations leave out where the action starts)."""
    clashing: set = set()
    from_free = False
    for i, a in enumerate(actions):
        if a.moving and not a.same_piece and any("{from}" not in t for t in a.templates):
            # Without its origin in the notation, one action moving two pieces can
            # write the same thing twice (not one acting with the same piece only).
            clashing.add(id(a))
            from_free = True
        if a.untold:
            # One start, several landing sites, one text: compared over the whole list.
            clashing.add(id(a))
            from_free = True
        for b in actions[:i]:
            shared = set(a.templates) & set(b.templates)
            without_from = any("{from}" not in t for t in shared)
            if shared and (without_from or a.movers is None or b.movers is None or a.movers & b.movers):
                if not without_from and not may_land_alike(a.reach, b.reach):
                    continue
                clashing |= {id(a), id(b)}
                from_free |= without_from
    return clashing, from_free


def _blockers(plan: DecisionPlan) -> list[str]:
    """The lines setting `wb`, the bitmask of blocking pieces, for the walks of the
    decision."""
    for tier in plan.tiers:
        for action in tier:
            if action.walk_blockers is not None:
                blockers = action.walk_blockers
                if action.walk_blockers_neutral:
                    # The position keeps the neutral sites' mask (made once, kept by
                    # the moves); were the blockers no longer the neutral pieces (the
                    # compiler decides this later), nothing ever sets it.
                    return ["wb = o[-1].mask", f"if wb is None: wb = {blockers}(b, o)"]
                return [f"wb = {blockers}(b, o)"]
    return ["wb = 0"]


def _told_by_landing(templates) -> bool:
    """Whether actions written with these notation templates are told apart by
    their landing site (the templates show it, and no choice or outcome)."""
    return all("{to}" in t and not {"{choice}", "={choice}", "{outcome}"} & set(t) for t in templates)
