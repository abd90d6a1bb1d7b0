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

import ast as py
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import reduce
from typing import Iterable, NamedTuple, Optional, Sequence, Union

from ..parsing import ast
from ..runtime.compiled import CasePattern
from ..runtime.helpers import NotationKeys, TemplateKey, TextKey
from ..runtime.walks import Blockers
from . import patterns, pyast
from .actions import ActionPlan, deferring
from .compiled import CaseCode
from .counted_masks import kind_reads_counted
from .draws import write_draws, write_element_draws, write_nested_draws
from .hoisting import masks_read_made
from .listed_at_once import listed_at_once
from .masked_listing import masked_listing
from .owned_sites import neutral_sites_walked, owner_tests_dropped
from .paired_rows import rows_paired
from .per_listing import ListingCache
from .prefilters import KIND_OF, MAX_MASKED_SITES, OwnerMasks
from .reach import may_land_alike
from .registers import with_registers
from .restrictions import Restrictions
from .rolled_copies import copies_rolled
from .source import Origin, Source
from .told_apart import may_write_alike, site_fields_only, tells_landing

_OUT, _FRM, _PC, _S = pyast.name("out"), pyast.name("frm"), pyast.name("pc"), pyast.name("s")


@dataclass
class DecisionPlan:
    name: str
    tiers: list[list[ActionPlan]]  # in the order offered
    pos: Optional[ast.Pos] = None  # where the decision is declared
    prefer_probes: list[Optional[int]] = field(default_factory=list)  # coverage probe of each tier but the last
    longest: Optional[ast.LongestTurn] = None  # `play the longest turn` (compilation/longest.py)


@dataclass
class Templates:
    """Distinct notation templates, numbered: with the fields each uses, the key
    under which two action codes write the same notation."""

    names: tuple[str, ...] = ()  # the board's site names, which `{from}` and `{to}` write
    ids: dict[tuple[str, ...], int] = field(default_factory=dict)

    def id(self, template: tuple[str, ...]) -> int:
        return self.ids.setdefault(template, len(self.ids))

    def key_table(self, cases: list[CaseCode]) -> NotationKeys:
        """Per case: (template id, uses from, uses to, what else tells its codes
        apart: 0 nothing, 1 the choice, 2 the choice and the values it shows); for
        templates of one decision that may write one text though they differ, a
        key by the text (helpers.NotationKeys); None for a drop's or select's case
        showing its site whose template nothing else of its decision may write."""
        texts, alone = self._compared(cases)
        keys: list[Optional[Union[TemplateKey, TextKey]]] = []
        for n, c in enumerate(cases):
            if n in alone:
                keys.append(None)
            elif (c.decision, c.template) in texts:
                keys.append((-1 - texts[c.decision, c.template], c.template, self.names, 0))
            else:
                keys.append((self.id(c.template), "{from}" in c.template, "{to}" in c.template,
                             2 if c.shown else int("{outcome}" in c.template or "{choice}" in c.template
                                                   or "={choice}" in c.template)))
        return tuple(keys)

    def _compared(self, cases: list[CaseCode]) -> tuple[dict[tuple[int, tuple[str, ...]], int], set[int]]:
        """({(decision, template): its class} for the templates compared by text,
        the cases never compared)."""
        texts: dict[tuple[int, tuple[str, ...]], int] = {}
        alone: set[int] = set()
        by_decision: dict[int, list[int]] = {}
        for n, c in enumerate(cases):
            if c.pattern is not CasePattern.CHANCE:
                by_decision.setdefault(c.decision, []).append(n)
        classes = 0
        for decision, members in by_decision.items():
            off = frozenset(c.template for c in cases if c.off_board)
            for group in alike_templates(sorted({cases[n].template for n in members}), self.names, off):
                if len(group) > 1 and all(site_fields_only(t) for t in group):
                    for t in group:
                        texts[decision, t] = classes
                    classes += 1
                elif len(group) == 1:
                    writing = [n for n in members if cases[n].template == group[0]]
                    if self._told_apart([cases[n] for n in writing]):
                        alone.update(writing)
        return texts, alone

    def _told_apart(self, writing: list[CaseCode]) -> bool:
        """Whether the codes of these cases, which write one template, never write
        one text: each lists a site at most once and shows it (or the board has one
        site), and, when there are several, a number they show is fixed in each and
        differs between them (the copies of an action for each value of its `for
        each`, say)."""
        template = writing[0].template
        if not all(c.pattern in _ONE_PER_SITE for c in writing) or \
                ("{to}" not in template and len(self.names) != 1):
            return False
        if len(writing) == 1:
            return True
        for i in range(len(writing[0].shown)):
            values = [c.shown_values[i] if i < len(c.shown_values) else None for c in writing]
            if all(v is not None and len(v) == 1 for v in values) and \
                    len({v[0] for v in values if v is not None}) == len(values):
                return True
        return False


# Patterns that list a site at most once per case: their codes never write one
# notation twice when it shows the site.
_ONE_PER_SITE = frozenset({CasePattern.DROP, CasePattern.SELECT})


def alike_templates(templates: list[tuple[str, ...]], names: tuple[str, ...],
                    off: frozenset[tuple[str, ...]]) -> list[list[tuple[str, ...]]]:
    """The templates in groups that may write one text (told_apart.may_write_alike,
    joined transitively), each group in the order given."""
    group_of = list(range(len(templates)))

    def root(i: int) -> int:
        while group_of[i] != i:
            i = group_of[i]
        return i

    for i, a in enumerate(templates):
        for j in range(i + 1, len(templates)):
            if root(i) != root(j) and may_write_alike(a, templates[j], names, off):
                group_of[root(j)] = root(i)
    groups: dict[int, list[tuple[str, ...]]] = {}
    for i, t in enumerate(templates):
        groups.setdefault(root(i), []).append(t)
    return list(groups.values())


@dataclass(frozen=True)
class Variant:
    """Which function of a decision is written: the one play uses; the one that
    keeps every candidate, duplicates of a notation included (`dedup` off: for
    `lint`, which looks for notation clashes); the one listing the first tier's
    candidates before `forbid result` (`candidates_only`: see write)."""

    dedup: bool = True
    candidates_only: bool = False


class Written(NamedTuple):
    name: str  # the function's name
    deduplicated: bool  # whether it compares notations
    # the cases it compares for notations after `forbid result` (its candidates,
    # listed before that check, may hold several of them writing one notation)
    alike_after_check: frozenset[int] = frozenset()
    # the function drawing one candidate at a time (see draws.py), for the variant
    # playouts pick from — the legal actions, or the candidates before `forbid
    # result` — when its actions are independent candidates; else None
    draws: Optional[tuple[str, int, bool]] = None  # (name, number of candidates, drawn from the empty sites)


class DecisionWriter:
    """Writes the functions of decisions (see the module docstring)."""

    def __init__(self, src: Source, keys: py.Name, restrictions: Restrictions, coverage: Optional[py.Name],
                 owned_kinds: frozenset[int], owner_masks: OwnerMasks, result_checks: Optional[py.Name] = None,
                 kinds_fixed: bool = True, site_names: tuple[str, ...] = (),
                 off_templates: frozenset[tuple[str, ...]] = frozenset(), checked_after: bool = False,
                 single_kinds: frozenset[int] = frozenset(), per_listing: Optional[ListingCache] = None,
                 setup_counts: Optional[dict[int, int]] = None):
        self.src = src
        # by kind, how many pieces of it the setup places: the loop over a player's
        # pieces tests the kinds of the most pieces first (see _board_pieces)
        self.setup_counts = setup_counts or {}
        self.per_listing = per_listing  # the parts of `where`s worked out once per listing (per_listing.py)
        # the kinds of which a player has one piece at most (single_kinds.py): their
        # actions' candidates start from one site, whatever their notation shows
        self.single_kinds = single_kinds
        # whether candidates are checked after they are listed (`forbid result`, or
        # `where` conditions asked of a drawn candidate: ActionPlan.deferred)
        self.checked_after = checked_after or result_checks is not None
        self.site_names = site_names  # what `{from}` and `{to}` write (see _clashes)
        self.off_templates = off_templates  # the templates of `off board` cases ({to} writes "off")
        # whether no rule changes a piece's owner or kind (the neutral pieces then
        # stay what they were: see _blockers)
        self.kinds_fixed = kinds_fixed
        self.owner_masks = owner_masks  # the masks of owners that the listers' conditions read
        # the constant of the `forbid result` checks, checks[phase][case], or None
        self.result_checks = result_checks
        self.owned_kinds = owned_kinds  # the kinds a player's piece can be of
        self.keys = keys  # the constant of Templates.key_table
        self.restrictions = restrictions  # the forbids: their gates are computed at the top
        self.coverage = coverage  # the coverage counts (None: off)
        self.guards: dict[int, str] = {}  # id(action) -> the local holding its guard (shared by the variants)
        # a guard's code -> its local, for guards that are one expression: actions
        # asking the same (the copies of an action for each value of its `for each`
        # whose `where` does not read the value) ask it once
        self.guard_codes: dict[str, str] = {}

    def write(self, plan: DecisionPlan, variant: Variant = Variant()) -> Written:
        """The function of `plan` in `variant`. The variant listing the first tier's
        actions before `forbid result` (and without the actions offered only when
        nothing else is legal) lets a playout check just the one it picks, and ask
        the whole function when none passes."""
        lister = _Lister(self, variant)
        src = self.src
        name = src.fresh("f")
        tiers = [[deferring(a) for a in tier] for tier in plan.tiers[:1]] if variant.candidates_only else plan.tiers
        tiered = self.coverage is not None and len(tiers) > 1
        tier = pyast.name("tier")
        what = "the candidates" if variant.candidates_only else "every action (duplicates kept)" \
            if not variant.dedup else "the legal actions"
        origin = Origin(f"decision '{plan.name}': {what}", plan.pos)
        with src.origin(origin), src.capture() as body:
            for n, actions in enumerate(tiers):
                with src.if_(pyast.compare(tier, "<=", pyast.num(n))) if tiered else nullcontext():
                    lister.tier(actions)
                if n < len(tiers) - 1:
                    with src.if_(_OUT):
                        if tiered:
                            # The line was offered: did it hide actions of later tiers?
                            assert self.coverage is not None and plan.prefer_probes[n] is not None
                            hidden = pyast.call(pyast.name(name), _S, pyast.num(n + 1))
                            counted = pyast.augment(pyast.sub(self.coverage, plan.prefer_probes[n]),  # type: ignore[arg-type]
                                                    "+", pyast.num(1))
                            src.add(pyast.if_(hidden, [counted]))
                        src.add(pyast.return_(_OUT))
        n_sites = self.owner_masks.n_sites
        body = neutral_sites_walked(src, _without_unread(copies_rolled(src, body, n_sites), "pc"), n_sites)
        body = owner_tests_dropped(src, rows_paired(src, body))
        if self.owner_masks.n_sites <= MAX_MASKED_SITES:
            owners = self.owner_masks
            body = kind_reads_counted(body, src, owners.n_sites, owners.empty_name,
                                      lambda kind: owners.lazy(f"{KIND_OF}{kind}"))
        if self.owner_masks.names:
            body = masks_read_made(body)
        read = pyast.names_in(body)
        # (the masks first: a gate may read one)
        first = self.owner_masks.first_statements(read) + self.restrictions.gate_statements(read)
        if self.per_listing is not None:
            first.extend(self.per_listing.first_statements(read))
        if "wb" in read:
            first.extend(_blockers(self.src, plan, self.kinds_fixed))
        code = with_registers([pyast.assign(_OUT, pyast.list_())] + body + [pyast.return_(_OUT)], first=first)
        # (the draw below is written from the loop as it was: it asks one site at a time)
        listed = listed_at_once(masked_listing(src, code, self.owner_masks.n_sites), src.value)
        if tiered:
            src.function(name, ["s", "tier"], listed, origin, defaults=[pyast.num(0)])
        else:
            src.function(name, ["s"], listed, origin)
        drawn = variant.candidates_only if self.checked_after else variant == Variant()
        draws = None
        # (not with `play the longest turn`: its filter draws for playouts, runtime/longest.py)
        if drawn and self.coverage is None and plan.longest is None:
            drawn_origin = Origin(f"decision '{plan.name}': one candidate, drawn by playouts", plan.pos)
            draws = write_draws(src, code, drawn_origin, len(self.site_names))
            if draws is None and not self.checked_after:
                # (`forbid result`'s checks draw again from a shrinking pool: not this draw)
                draws = write_element_draws(src, code, drawn_origin)
                if draws is None:
                    draws = write_nested_draws(src, code, drawn_origin)
        return Written(name, lister.deduplicated, frozenset(lister.alike_cases), draws)

    def guard(self, action: ActionPlan) -> Optional[str]:
        if action.guard is None:
            return None
        if id(action) not in self.guards:
            if action.guard.cost_free:
                # (the code is the whole condition: read only from the position and
                # the locals set before the listing, which no other action sets again)
                code = pyast.key(action.guard.code)
                self.guards[id(action)] = self.guard_codes.setdefault(code, self.src.fresh("l"))
            else:
                self.guards[id(action)] = self.src.fresh("l")
        return self.guards[id(action)]


class _Lister:
    """Writes the body of one function of a decision."""

    def __init__(self, writer: DecisionWriter, variant: Variant):
        self.writer = writer
        self.src = writer.src
        self.variant = variant
        self.deduplicated = False  # whether the function compares notations
        # the cases of the actions writing one notation that are compared after
        # `forbid result` (the candidates may hold several of them writing one notation)
        self.alike_cases: set[int] = set()
        self.pairs: set[frozenset[int]] = set()  # the pairs of action ids compared (_clashes), in the tier listed
        self.guards_asked: set[str] = set()  # the locals of the guards asked in the tier listed (shared: once)

    def tier(self, actions: list[ActionPlan]) -> None:
        src = self.src
        self.guards_asked = set()
        clashing, from_free, self.pairs = _clashes(actions, self.writer.site_names, self.writer.off_templates,
                                                   self.writer.single_kinds)
        # With `forbid result`, actions that write one notation are compared among
        # the legal ones (format.md 3.8): after the check, not while listing, so
        # that where the first is forbidden the second is listed.
        after_check = bool(clashing) and self.writer.checked_after
        if after_check:
            self.alike_cases |= {case for a in actions if id(a) in clashing for case, _ in a.case_templates}
        per_piece = clashing if len(clashing) > 1 and not from_free and not after_check else set()
        for action in actions:
            if action.only_if_stuck or self._prepared_inside(action):
                continue  # (asked only when nothing else is legal, below; or in its placement)
            self._prepare(action)
        on_board = [a for a in actions if a.moving and not a.same_piece and (a.kinds is None or a.kinds)]
        if on_board:
            self._board_pieces(on_board, per_piece)
        self._pool_pieces([a for a in actions if a.moving and not a.same_piece and a.pools], per_piece)
        same = [a for a in actions if a.moving and a.same_piece]
        if same:
            carried = pyast.ifexp(pyast.sub(pyast.name("b"), _FRM), pyast.compare(_FRM, "!=", pyast.num(-1)),
                                  pyast.none())
            src.add(pyast.assign(_FRM, pyast.attr(_S, "carry")), pyast.assign(_PC, carried))
            with src.if_(pyast.is_not_none(_PC)):
                self._one_piece(same, per_piece)
        for action in actions:
            if not action.moving and not action.only_if_stuck:
                self._placement(action)
        if from_free and clashing and not after_check and self._compares():
            with src.if_(pyast.compare(pyast.helper("len", _OUT), ">", pyast.num(1))):
                self._dedup(pyast.num(0))
        if self.variant.candidates_only:
            return
        self._filter_results()
        if after_check and self._compares():
            with src.if_(pyast.compare(pyast.helper("len", _OUT), ">", pyast.num(1))):
                self._dedup_alike()
        stuck = [a for a in actions if a.only_if_stuck]
        if stuck:
            with src.if_(pyast.not_(_OUT)):
                for action in stuck:
                    self._prepare(action)
                    self._placement(action)
                self._filter_results()

    def _prepare(self, action: ActionPlan) -> None:
        """An action's guard and prelude, once per position (after the value of
        `for each` it is made for)."""
        self.src.paste(action.values)
        guard = self.writer.guard(action)
        if guard is not None and action.guard is not None and guard not in self.guards_asked:
            self.guards_asked.add(guard)
            action.guard.assign(self.src, guard)
        self.src.paste(action.prelude)

    def _compares(self) -> bool:
        """Whether some case's codes are compared for their notation (a key that is
        not None: Templates.key_table)."""
        return any(key is not None for key in self.src.namespace[self.writer.keys.id])

    def _dedup(self, start: py.expr) -> None:
        """Keep the first of the codes from `start` on that write the same notation."""
        self.deduplicated = True
        self.src.add(pyast.expr_stmt(pyast.helper("h_dedup", _OUT, start, self.writer.keys))
                     if self.variant.dedup else pyast.pass_())

    def _dedup_alike(self) -> None:
        """Keep the first of the legal actions that write the same notation, comparing
        only the cases that may (`alike_cases`, the decision's `alike_keys`), and only
        where two of them are left (helpers.dedup_alike)."""
        self.deduplicated = True
        if not self.variant.dedup:
            self.src.add(pyast.pass_())
            return
        keys = self.src.namespace[self.writer.keys.id]
        alike = tuple(key if case in self.alike_cases else None for case, key in enumerate(keys))
        compared = tuple(int(key is not None) for key in alike)
        self.src.add(pyast.expr_stmt(pyast.helper("h_dedup_alike", _OUT, self.src.const(alike),
                                                  self.src.const(compared))))

    def _filter_results(self) -> None:
        """Keep the actions whose resulting position no `forbid result` forbids."""
        checks = self.writer.result_checks
        if checks is not None:
            args = [_S, _OUT, pyast.sub(checks, pyast.attr(_S, "phase"))]
            if self.writer.coverage is not None:
                args.append(self.writer.coverage)
            self.src.add(pyast.if_(_OUT, [pyast.expr_stmt(pyast.helper("h_result_filter", *args))]))

    def _board_pieces(self, movers: list[ActionPlan], clashing: set[int]) -> None:
        """The loop over the player's pieces on the board, dispatched by kind."""
        src = self.src
        with src.for_(_FRM, pyast.sub(pyast.name("o"), pyast.name("p"))):
            src.add(pyast.assign(_PC, pyast.sub(pyast.name("b"), _FRM)))
            groups: dict[tuple[int, ...], list[int]] = {}
            for k in sorted(self.writer.owned_kinds):
                acting = tuple(id(a) for a in movers if a.kinds is None or k in a.kinds)
                groups.setdefault(acting, []).append(k)
            if len(groups) == 1:
                # Every kind a player can own takes the same actions: no test of the kind.
                (acting, _), = groups.items()
                self._one_piece([a for a in movers if id(a) in acting], clashing)
                return
            kk = pyast.name("kk")
            src.add(pyast.assign(kk, pyast.sub(_PC, 1)))
            # (the groups' kinds are apart, so their tests may come in any order: a piece
            # meets one test per group tested before its own, so the groups of the most
            # pieces of the setup come first — the others in the kinds' order)
            counts = self.writer.setup_counts
            tested = sorted(((a, k) for a, k in groups.items() if a),
                            key=lambda group: -sum(counts.get(kind, 0) for kind in group[1]))
            for n, (acting, kinds) in enumerate(tested):
                test = pyast.compare(kk, "==", pyast.num(kinds[0])) if len(kinds) == 1 \
                    else pyast.compare(kk, "in", src.const(frozenset(kinds)))
                with src.if_(test) if n == 0 else src.elif_(test):
                    self._one_piece([a for a in movers if id(a) in acting], clashing)

    def _pool_pieces(self, movers: list[ActionPlan], clashing: set[int]) -> None:
        """The pieces waiting in pools, each starting from its pool's site (when that
        site is empty and the pool is not)."""
        src = self.src
        pools: dict[tuple[int, tuple[int, ...], str], tuple[py.Name, list[ActionPlan]]] = {}
        for a in movers:
            for offset, sites, pieces in a.pools:
                pools.setdefault((offset, sites, pieces.id), (pieces, []))[1].append(a)
        p = pyast.name("p")
        for (offset, sites, _), (pieces, acting) in pools.items():
            src.add(pyast.assign(_FRM, pyast.sub(src.const(sites), p)))
            waiting = pyast.compare(pyast.sub(pyast.name("v"), pyast.add(pyast.num(offset), p)), ">", pyast.num(0))
            free = pyast.is_none(pyast.sub(pyast.name("b"), _FRM))
            with src.if_(pyast.and_(pyast.compare(_FRM, "!=", pyast.num(-1)), waiting, free)):
                src.add(pyast.assign(_PC, pyast.sub(pieces, p)))
                self._one_piece(acting, clashing)

    def _one_piece(self, actions: list[ActionPlan], clashing: set[int]) -> None:
        """The actions of one piece (`frm`, `pc`), in order; compared for notations
        when two of them that may write the same one both wrote something."""
        src = self.src
        emptied: set[str] = set()  # (a local two actions remember a condition in is emptied once)
        for action in actions:
            for stmt in action.piece_setup:
                if py.dump(stmt) not in emptied:
                    emptied.add(py.dump(stmt))
                    src.paste((stmt,))
        marks: list[py.Name] = []
        # (those that may write a notation of another of this piece's)
        comparing = [a for a in actions if id(a) in clashing
                     and any(frozenset((id(a), id(b))) in self.pairs for b in actions if b is not a)]
        if len(comparing) < 2:
            comparing = []
        partners = _fused_pairs(actions, clashing)
        length = pyast.helper("len", _OUT)
        for action in actions:
            if id(action) in partners and partners[id(action)] is None:
                continue  # listed with its partner
            last_of_two = len(comparing) == 2 and action is comparing[1]
            if comparing and any(a is action for a in comparing) and not last_of_two:
                marks.append(pyast.name(src.fresh("t")))
                second_guard = self.writer.guard(comparing[1]) if len(comparing) == 2 else None
                # (only needed when the second action can run: its guard is known already)
                guarded = second_guard is not None and action is comparing[0]
                with src.if_(pyast.name(second_guard)) if guarded else nullcontext():  # type: ignore[arg-type]
                    src.add(pyast.assign(marks[-1], length))
            guard = self.writer.guard(action)
            with src.if_(pyast.name(guard)) if guard else nullcontext(), \
                    action.piece_where.holds(src) if action.piece_where else nullcontext():
                if last_of_two:
                    self._second_of_two(comparing[0], action, marks[0])
                elif id(action) in partners:
                    partner = partners[id(action)]
                    assert partner is not None
                    self._fused(action, partner)
                else:
                    action.emit(src, None)
        if len(marks) > 1:
            ends: list[py.expr] = [*marks[1:], length]
            compared: list[py.expr] = [pyast.compare(a, "<", b) for a, b in zip(marks, ends)]
            produced = reduce(pyast.add, compared)
            with src.if_(pyast.compare(produced, ">", pyast.num(1))):
                self._dedup(marks[0])

    def _second_of_two(self, first: ActionPlan, action: ActionPlan, start: py.Name) -> None:
        """The second of two actions to compare: only when this one runs, and both listed some."""
        src = self.src
        second = pyast.name(src.fresh("t"))
        src.add(pyast.assign(second, pyast.helper("len", _OUT)))
        alike = self._landing_alike(first, action) if self.variant.dedup else None
        if alike and action.landing is not None and self.writer.coverage is None:
            # Told apart by the landing site alone: what the first lists is not
            # listed again, rather than listed and dropped. (Not with coverage,
            # which counts the candidates' conditions as asked.)
            self.deduplicated = True
            landed = pyast.name(src.fresh("l"))
            src.add(pyast.assign(landed, pyast.helper("h_landings", _OUT, start, second, src.const(alike))))
            action.emit(src, landed)
            return
        action.emit(src, None)
        with src.if_(pyast.compare(start, "<", second, "<", pyast.helper("len", _OUT))):
            self.deduplicated = True
            src.add(self._drop_seen(first, action, start, second) if self.variant.dedup else pyast.pass_())

    @staticmethod
    def _landing_alike(first: ActionPlan, second: ActionPlan) -> Optional[frozenset[int]]:
        """When the second action's cases share one notation that only the landing
        site tells apart: the first's cases of that notation (those whose landing
        sites the second must not list again), else None."""
        templates = {template for _, template in second.case_templates}
        if len(templates) != 1 or not _told_by_landing(templates):
            return None
        template = templates.pop()
        return frozenset(case for case, t in first.case_templates if t == template)

    def _drop_seen(self, first: ActionPlan, second: ActionPlan, start: py.expr, middle: py.expr) -> py.stmt:
        """The statement dropping from out[middle:] (the second action's) what
        out[start:middle] (the first's) writes already. When the second action's
        cases share one notation that only the landing site tells apart, only the
        first's cases of that notation matter, and only their landing sites."""
        templates = sorted({template for _, template in second.case_templates})
        if not _told_by_landing(templates):
            return pyast.expr_stmt(pyast.helper("h_drop_seen", _OUT, start, middle, self.writer.keys))
        if len(templates) == 1:
            alike = self._landing_alike(first, second)
            if not alike:
                return pyast.pass_()  # (no notation in common)
            return pyast.expr_stmt(pyast.helper("h_drop_landing", _OUT, start, middle, self.src.const(alike)))
        # per case: the number of its notation among the second action's, or -1
        number = {t: i for i, t in enumerate(templates)}
        cases = first.case_templates + second.case_templates
        table = [-1] * (1 + max(case for case, _ in cases))
        for case, t in cases:
            table[case] = number.get(t, -1)
        return pyast.expr_stmt(pyast.helper("h_drop_landing_alike", _OUT, start, middle, self.src.const(tuple(table))))

    def _fused(self, first: ActionPlan, second: ActionPlan) -> None:
        assert first.shape is not None and second.shape is not None
        rays = self.writer.restrictions.exprs.model.board.rays
        if "jump" not in (first.shape[0], second.shape[0]):  # (a step onto empty sites, one onto pieces)
            patterns.step_onto_both(self.src, [first.shape[3], second.shape[3]], list(first.shape[2]), rays,
                                    len(rays[0]))
            return
        step, jump = (first, second) if first.shape[0] == "step" else (second, first)
        assert step.shape is not None and jump.shape is not None
        _, k, dirs, step_landing = step.shape
        _, _, _, jump_landing, over_ids = jump.shape
        patterns.step_and_jump(self.src, step_landing, jump_landing, over_ids, list(dirs), rays, len(rays[0]), k)

    def _prepared_inside(self, action: ActionPlan) -> bool:
        """Whether a drop from a pool has its guard and prelude asked in its placement,
        once its pool holds a piece (`_placement`), not with the others' at the
        lister's start: the `where`s of the whole action (a test of the position per
        value of `for each`) are not worked out for a pool that is empty. Not with
        rule coverage (its guards count what they ask)."""
        return (not action.moving and action.placement_test is not None and self.writer.coverage is None
                and not action.only_if_stuck)

    def _placement(self, action: ActionPlan) -> None:
        """A drop, select or pass: once per position."""
        src = self.src
        inside = self._prepared_inside(action)
        with src.if_(action.placement_test) if inside else nullcontext():  # type: ignore[arg-type]
            if inside:
                asked = set(self.guards_asked)
                self._prepare(action)
                # (a guard shared with a later placement is asked again there: this
                # block may not run)
                self.guards_asked = asked
            guard = self.writer.guard(action)
            tests = ([pyast.name(guard)] if guard else []) \
                + ([action.placement_test] if action.placement_test and not inside else [])
            with src.if_(pyast.and_(*tests)) if tests else nullcontext():
                src.paste(action.placement_setup)
                with action.piece_where.holds(src) if action.piece_where else nullcontext():
                    action.emit(src, None)


def _without_unread(body: list[py.stmt], local: str) -> list[py.stmt]:
    """`body` without its assignments to `local` when nothing reads it (a `pass`
    keeps each block they leave empty)."""

    def assigns_it(stmt: py.stmt) -> bool:
        return isinstance(stmt, py.Assign) and len(stmt.targets) == 1 and pyast.is_name(stmt.targets[0], local)

    assignments = sum(1 for stmt in pyast.statements_in(body) if assigns_it(stmt))
    if pyast.uses(body, local) != assignments:
        return body
    return pyast.without(body, assigns_it)


# (the shapes of two actions of a piece listed in one pass: actions.py, `plan.shape`)
_FUSED_SHAPES = ({"step", "jump"}, {"step", "step onto a piece"})


def _fused_pairs(actions: list[ActionPlan], clashing: set[int]) -> dict[int, Optional[ActionPlan]]:
    """id(action) -> the action listed with it in one pass (None for the second of
    a pair): a step and a jump of the same exact distance over the same directions,
    or a step onto empty sites and one onto pieces (distance 1) over the same
    directions; neither with conditions of its own, neither compared for notations."""
    pairs: dict[int, Optional[ActionPlan]] = {}
    for i, a in enumerate(actions):
        if id(a) in pairs or a.shape is None or a.guard or a.piece_where or id(a) in clashing:
            continue
        for b in actions[i + 1:]:
            if id(b) in pairs or b.shape is None or b.guard or b.piece_where or id(b) in clashing:
                continue
            if {a.shape[0], b.shape[0]} in _FUSED_SHAPES and a.shape[1:3] == b.shape[1:3]:
                pairs[id(a)] = b
                pairs[id(b)] = None
                break
    return pairs


def _clashes(actions: list[ActionPlan], names: tuple[str, ...], off: frozenset[tuple[str, ...]],
             single: frozenset[int] = frozenset()) -> tuple[set[int], bool, set[frozenset[int]]]:
    """(ids of the actions that may write the same notation as another, whether
    some of those notations leave out where the action starts — or are written
    by different templates: both are then compared over the whole list — and the
    pairs of ids that may write one notation). An action moving only the player's
    one piece of a kind in `single` starts from one site: for it (and another such
    action of that kind) the start is told as if the notation showed it. Two copies
    of one action made for distinct values of its `for each` never write alike
    where each notation they share shows the value."""
    clashing: set[int] = set()
    pairs: set[frozenset[int]] = set()
    from_free = False
    for i, a in enumerate(actions):
        one_start = _single_mover(a, single)
        if a.moving and not a.same_piece and one_start is None and any("{from}" not in t for t in a.templates):
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
            if _values_shown(a, b, shared, names, off):
                continue
            without_from = any("{from}" not in t for t in shared)
            # (both moving the player's only piece of one kind: one start, as with {from})
            told_start = not without_from or (one_start is not None and one_start == _single_mover(b, single))
            if shared and (without_from or a.movers is None or b.movers is None or a.movers & b.movers):
                if told_start and not may_land_alike(a.reach, b.reach) or _landings_apart(a, b, names):
                    continue
                clashing |= {id(a), id(b)}
                pairs.add(frozenset((id(a), id(b))))
                from_free |= not told_start
            elif any(ta != tb and site_fields_only(ta) and site_fields_only(tb) and may_write_alike(ta, tb, names, off)
                     for ta in a.templates for tb in b.templates):
                # (compared by the text they write: Templates.key_table)
                clashing |= {id(a), id(b)}
                from_free = True
    return clashing, from_free, pairs


def _values_shown(a: ActionPlan, b: ActionPlan, shared: set[tuple[str, ...]], names: Sequence[str] = (),
                  off: frozenset[tuple[str, ...]] = frozenset()) -> bool:
    """Whether `a` and `b` are copies of one action for two values of its `for each`
    (distinct: action_values.distinct_from_earlier) and each template they share
    shows the value — or, for copies landing on two sites from one start
    (`lands_by_value`), shows where it starts and lands and is no `off board`
    case's (two copies may both leave the board) — a drop's or select's copies
    choosing apart, where it lands: their notations differ there.
    Where a copy's template may write the text of another template of the other
    copy (compared by text: Templates.key_table), the landing is not enough."""
    if a.each is None or b.each is None or a.pos != b.pos or a.name != b.name:
        return False
    (name, i), (other, j) = a.each, b.each
    if name != other or i == j or not shared:
        return False
    shown = "{" + name + "}"
    if all(shown in t for t in shared):
        return True
    # (a drop's or select's copies choose apart: the site chosen tells them, there is no start)
    started = a.moving or b.moving
    if not (a.lands_by_value and b.lands_by_value) or \
            not all(shown in t or ("{from}" in t or not started) and "{to}" in t and t not in off for t in shared):
        return False
    return not any(ta != tb and site_fields_only(ta) and site_fields_only(tb) and may_write_alike(ta, tb, names, off)
                   for ta in a.templates for tb in b.templates)


def _landings_apart(a: ActionPlan, b: ActionPlan, names: Sequence[str]) -> bool:
    """Whether two actions written with one notation that tells the landing site
    (`told_apart.tells_landing`) never land on one site in one position: each
    lands only onto what its cases name (`onto empty`, `onto enemy`, ...), read on
    the board the candidates are listed on, and no content is named by both (a
    slide onto empty sites and a capture over a screen onto enemies). Not for a
    walk (no known reach: a walk may come back to its own start, which it leaves
    empty). A drop or select moves nothing before it lands: it lands onto what
    the site holds when the candidates are listed."""
    templates = set(a.templates) | set(b.templates)
    if any(plan.moving and plan.reach is None for plan in (a, b)) or len(templates) != 1 \
            or not tells_landing(next(iter(templates)), names):
        return False
    contents = []
    for plan in (a, b):
        if not plan.case_keys or any(kind != "onto" for (kind, _), _ in plan.case_keys):
            return False
        contents.append({what for (_, what), _ in plan.case_keys})
    return contents[0].isdisjoint(contents[1])


def _single_mover(action: ActionPlan, single: frozenset[int]) -> Optional[int]:
    """The kind an action moves when it moves only pieces of that kind on the board
    and a player has one of them at most (`single`); else None."""
    if not action.moving or action.same_piece or action.pools or action.kinds is None or len(action.kinds) != 1:
        return None
    kind = action.kinds[0]
    return kind if kind in single else None


def _blockers(src: Source, plan: DecisionPlan, kinds_fixed: bool) -> list[py.stmt]:
    """The statements setting `wb`, the bitmask of blocking pieces, for the walks
    of the decision. When the blocking kinds are the neutral kinds and no rule
    changes an owner or a kind (`kinds_fixed`), the blocking pieces are the
    neutral ones: the position keeps their sites' mask (made once, kept by the
    moves)."""
    wb, b, o = pyast.name("wb"), pyast.name("b"), pyast.name("o")
    for tier in plan.tiers:
        for action in tier:
            if action.walk_blocking is not None:
                neutral_only = action.walk_blockers_neutral and kinds_fixed
                with src.origin(Origin(f"action '{action.name}': the pieces that block its walks", action.pos)):
                    blockers = src.const(Blockers(action.walk_blocking, neutral_only),
                                         key=("blockers", action.walk_blocking, neutral_only))
                made = pyast.call(blockers, b, o)
                if neutral_only:
                    return [pyast.assign(wb, pyast.attr(pyast.sub(o, -1), "mask")),
                            pyast.if_(pyast.is_none(wb), [pyast.assign(wb, made)])]
                return [pyast.assign(wb, made)]
    return [pyast.assign(wb, pyast.num(0))]


def _told_by_landing(templates: Iterable[tuple[str, ...]]) -> bool:
    """Whether actions written with these notation templates are told apart by
    their landing site (the templates show it, and no choice, outcome or value)."""
    return all("{to}" in t and not any(part == "={choice}" or part.startswith("{") and part not in ("{from}", "{to}")
                                       for part in t) for t in templates)
