"""Statements of the rules language → closures that change a position.

A compiled block is a single callable `run(frame)`. Effects keep `frame.pc` (the
acting piece) and `frame.at` (where it stands) up to date, so that later
statements and the `after each action` rules see the piece as it is now.
"""
from __future__ import annotations

from operator import attrgetter
from typing import Callable, Optional

from ..parsing import ast as A
from ..runtime.state import FIRST_ATTRIBUTE, KIND, OWNER, STONES, clear, replace
from .expressions import ExpressionCompiler, RuleError, Scope, Value, describe, name_pos

# How a compiled block ends the game; the engine turns these into a Result.
END_WIN, END_LOSE, END_DRAW, END_SCORE = "win", "lose", "draw", "score"

# Bound for `for each` over a definition-driven collection (sites, players, ...).
MAX_LOOP = 100_000

# How deep procedures may call procedures (each is compiled where it is called).
MAX_CALL_DEPTH = 50


class EffectCompiler:
    def __init__(
        self,
        exprs: ExpressionCompiler,
        procedures: dict[str, A.Procedure],
        decision_index: dict[str, int],
        phase_index: dict[str, int],
        end_game: Callable[[object, str, int], None],
    ):
        self.x = exprs
        self.m = exprs.m
        self.procedures = procedures
        self.decision_index = decision_index
        self.phase_index = phase_index
        # end_game(frame, how, player) records the result on frame.s
        self.end_game = end_game
        self._procedure_stack: list[str] = []
        self.errors: list[RuleError] = []
        self.followups: list[tuple[A.Pos, str]] = []
        # Set while compiling a `drop` action: that it is one, and its pool if any.
        self.in_drop = False
        self.drop_pool_offset: Optional[int] = None

    # ------------------------------------------------------------ blocks
    def block(self, stmts: list[A.Stmt], scope: Scope) -> Callable:
        """Compile statements; errors are collected so that one bad line does not hide the next."""
        fns = []
        for stmt in stmts:
            try:
                fn = self.stmt(stmt, scope)
            except RuleError as err:
                self.errors.append(err)
                continue
            if fn is not None:
                fns.append(fn)
        return _sequence(fns)

    def stmt(self, s: A.Stmt, scope: Scope) -> Optional[Callable]:
        try:
            return getattr(self, "_" + type(s).__name__)(s, scope)
        except RecursionError:
            raise RuleError(s.pos, "this statement is nested too deeply to compile") from None

    def _site(self, e: A.Expr, scope: Scope, what: str) -> Value:
        v = self.x.compile(e, scope)
        if v.type != "site":
            raise RuleError(e.pos, f"{what} must be a piece or a site, found {describe(v)}")
        return v

    def _require(self, scope: Scope, name: str, pos: A.Pos, statement: str) -> None:
        if name not in scope.available:
            raise RuleError(pos, f"'{statement}' needs {name!r}, which has no meaning in {scope.where}")

    # ------------------------------------------------------------ piece movement
    def _MoveStmt(self, s: A.MoveStmt, scope: Scope):
        self._require(scope, "to", s.pos, "move")
        pool_of = self.m.pool_site_of

        def move(f):
            b = f.b
            pc = f.pc
            mine = f.o[pc[OWNER]]
            frm = f.at
            if frm != -1:
                if b[frm] is None:
                    # Only a pool's site is empty under a moving piece: it leaves the pool.
                    f.v[pool_of[frm] + pc[OWNER]] -= 1
                else:
                    b[frm] = None
                    mine.remove(frm)
            to = f.to
            old = b[to]
            if old is not None:
                f.o[old[OWNER]].remove(to)
            b[to] = pc
            mine.append(to)
            f.at = to

        return move

    def _PlaceStmt(self, s: A.PlaceStmt, scope: Scope):
        self._require(scope, "to", s.pos, "place")
        if not self.in_drop:
            raise RuleError(s.pos, "'place' puts a new piece down and belongs to 'drop' actions; a piece that moves uses 'move'")
        offset = self.drop_pool_offset

        def place(f):
            replace(f.s, f.to, f.pc)
            f.at = f.to
            if offset is not None:
                f.v[offset + f.p] -= 1

        return place

    def _RemoveStmt(self, s: A.RemoveStmt, scope: Scope):
        v = self._site(s.what, scope, "what 'remove' removes")
        where = v.fn
        is_acting = isinstance(s.what, A.Name) and s.what.id == "piece"

        def remove(f):
            site = where(f)
            if site != -1:
                clear(f.s, site)
            if is_acting or site == f.at:
                f.at = -1

        return remove

    def _ReturnStmt(self, s: A.ReturnStmt, scope: Scope):
        pool = self._pool(s.pool, name_pos(s.pos, s.pool))
        v = self._site(s.what, scope, "what 'return' sends back")
        where, off = v.fn, pool.offset

        def give_back(f):
            site = where(f)
            p = f.b[site] if site != -1 else None
            if p is None:
                return
            clear(f.s, site)
            if p[OWNER] >= 0:
                f.v[off + p[OWNER]] += 1
            if site == f.at:
                f.at = -1

        return give_back

    def _pool(self, name: str, pos: A.Pos):
        if name not in self.m.pools:
            from ..validation.diagnostics import suggest

            best = suggest(name, list(self.m.pools))
            raise RuleError(pos, f"unknown pool '{name}'", f"did you mean '{best}'?" if best else None)
        return self.m.pools[name]

    def _kind(self, name: str, pos: A.Pos) -> int:
        if name not in self.m.kinds:
            from ..validation.diagnostics import suggest

            best = suggest(name, list(self.m.kinds))
            raise RuleError(pos, f"unknown piece kind '{name}'", f"did you mean '{best}'?" if best else None)
        return self.m.kinds[name].index

    # ------------------------------------------------------------ piece changes
    def _GiveStmt(self, s: A.GiveStmt, scope: Scope):
        attr = self.m.attributes.get(s.marker)
        if attr is None or attr.type != "marker":
            markers = [a.name for a in self.m.attributes.values() if a.type == "marker"]
            from ..validation.diagnostics import suggest

            best = suggest(s.marker, markers)
            raise RuleError(
                s.marker_pos or s.pos,
                f"'{s.marker}' is not a marker attribute (declare it with type: marker)",
                f"did you mean '{best}'?" if best else None,
            )
        v = self._site(s.to, scope, "who gets the marker")
        where, i = v.fn, attr.index

        def give(f):
            site = where(f)
            if site == -1:
                return
            b = f.b
            p = b[site]
            if p is None:
                return
            for t in f.o[p[OWNER]]:
                q = b[t]
                if q[i] and t != site:
                    b[t] = q[:i] + (False,) + q[i + 1 :]
                    if t == f.at:
                        f.pc = b[t]
            if not p[i]:
                b[site] = p[:i] + (True,) + p[i + 1 :]
                if site == f.at:
                    f.pc = b[site]

        return give

    def _PromoteStmt(self, s: A.PromoteStmt, scope: Scope):
        kind = self._kind(s.kind, name_pos(s.pos, s.kind))
        v = self._site(s.what, scope, "what 'promote' changes")
        where = v.fn

        def promote(f):
            site = where(f)
            p = f.b[site] if site != -1 else None
            if p is None:
                return
            new = (p[OWNER], kind) + p[STONES:]
            f.b[site] = new
            if site == f.at:
                f.pc = new

        return promote

    def _needs_stacks(self, pos: A.Pos, what: str) -> None:
        if not self.m.stacks:
            raise RuleError(pos, f"'{what}' works on stacks; declare 'stacks: true' in the YAML")

    def _StackStmt(self, s: A.StackStmt, scope: Scope):
        self._needs_stacks(s.pos, "stack")
        src = self._site(s.source, scope, "the stack to move").fn
        dst = self._site(s.dest, scope, "the stack to put it under").fn

        def stack_under(f):
            a, d = src(f), dst(f)
            b = f.b
            p, q = b[a], b[d]
            if p is None or q is None:
                return
            if s.top_only:
                moved = p[STONES][-1:]
                rest = p[STONES][:-1]
                if rest:
                    # What is left of the stack belongs to the colour now on top.
                    replace(f.s, a, (rest[-1], p[KIND], rest) + p[FIRST_ATTRIBUTE:])
                else:
                    clear(f.s, a)
            else:
                moved = p[STONES]
                clear(f.s, a)
            new = q[:STONES] + (moved + q[STONES],) + q[FIRST_ATTRIBUTE:]
            b[d] = new
            if d == f.at:
                f.pc = new

        return stack_under

    def _ReleaseStmt(self, s: A.ReleaseStmt, scope: Scope):
        self._needs_stacks(s.pos, "release")
        pool = self._pool(s.pool, name_pos(s.pos, s.pool))
        where = self._site(s.what, scope, "the stack to release").fn
        off = pool.offset

        def release(f):
            site = where(f)
            p = f.b[site] if site != -1 else None
            if p is None:
                return
            v = f.v
            for colour in p[STONES]:
                v[off + colour] += 1
            clear(f.s, site)
            if site == f.at:
                f.at = -1

        return release

    def _AddStoneStmt(self, s: A.AddStoneStmt, scope: Scope):
        self._needs_stacks(s.pos, "add stone")
        pool = self._pool(s.pool, s.pool_pos or s.pos)
        where = self._site(s.dest, scope, "the stack that gets the stone").fn
        off = pool.offset

        def add_stone(f):
            site = where(f)
            p = f.b[site] if site != -1 else None
            if p is None:
                return
            owner = p[OWNER]
            if f.v[off + owner] <= 0:
                raise RuleError(s.pos, f"pool '{pool.name}' of {self.m.players[owner]} is empty")
            f.v[off + owner] -= 1
            new = p[:STONES] + ((owner,) + p[STONES],) + p[FIRST_ATTRIBUTE:]
            f.b[site] = new
            if site == f.at:
                f.pc = new

        return add_stone

    # ------------------------------------------------------------ data
    def _LetStmt(self, s: A.LetStmt, scope: Scope):
        v = self.x.compile(s.value, scope)
        if v.type in ("perplayer",):
            raise RuleError(s.value.pos, f"cannot store {describe(v)} in 'let'")
        slot = scope.new_slot()
        scope.locals[s.name] = (slot, v.type)
        fn = v.fn

        def let(f):
            f.loc[slot] = fn(f)

        return let

    def _AssignStmt(self, s: A.AssignStmt, scope: Scope):
        value = self.x.compile(s.value, scope)
        t = s.target
        if isinstance(t, A.Attr):
            return self._assign_attribute(s, t, value, scope)
        if isinstance(t, A.Name):
            var = self.m.variables.get(t.id)
            if var is None:
                if t.id in self.m.pools:
                    raise RuleError(t.pos, f"pool '{t.id}' differs per player: say whose, e.g. {t.id}[player]")
                from ..validation.diagnostics import suggest

                best = suggest(t.id, list(self.m.variables))
                raise RuleError(t.pos, f"'{t.id}' is not a variable (declare it under 'variables' in the YAML)", f"did you mean '{best}'?" if best else None)
            if var.per_player:
                raise RuleError(t.pos, f"variable '{t.id}' differs per player: say whose, e.g. {t.id}[player]")
            return self._assign_slot(s, var.offset, value, var.type)
        # Index: a per-player variable or pool
        assert isinstance(t, A.Index)
        if not isinstance(t.obj, A.Name) or (t.obj.id not in self.m.variables and t.obj.id not in self.m.pools):
            raise RuleError(t.pos, "only per-player variables and pools can be assigned with [player]")
        thing = self.m.variables.get(t.obj.id) or self.m.pools[t.obj.id]
        if getattr(thing, "per_player", True) is False:
            raise RuleError(t.pos, f"variable '{t.obj.id}' is shared, not per player")
        idx = self.x.compile(t.index, scope)
        if idx.type != "player":
            raise RuleError(t.index.pos, f"the index must be a player, found {describe(idx)}")
        off, ifn = thing.offset, idx.fn
        if idx.is_const:
            return self._assign_slot(s, off + idx.const, value, getattr(thing, "type", "int"))
        return self._assign_slot(s, lambda f: off + ifn(f), value, getattr(thing, "type", "int"))

    def _assign_owner(self, s: A.AssignStmt, obj: Value, value: Value):
        """`X.owner = P`: the piece on X changes sides (`none`: it becomes neutral)."""
        if s.op != "=":
            raise RuleError(s.pos, f"'{s.op}' needs a number; an owner is set with '='")
        if value.type not in ("player", "none"):
            raise RuleError(s.value.pos, f"an owner is a player (or none), found {describe(value)}")
        if self.m.stacks:
            raise RuleError(s.pos, "with stacks a figure belongs to the colour of its top stone: change the stones instead")
        where, who = obj.fn, value.fn

        def set_owner(f):
            site = where(f)
            p = f.b[site] if site != -1 else None
            if p is None:
                return
            owner = who(f)
            if owner == p[OWNER]:
                return
            new = (owner,) + p[1:]
            replace(f.s, site, new)
            if site == f.at:
                f.pc = new

        return set_owner

    def _assign_slot(self, s: A.AssignStmt, slot, value: Value, var_type: str):
        """`slot`: a fixed index into the variables, or a closure computing it."""
        vf = value.fn
        if s.op != "=":
            if value.type != "int":
                raise RuleError(s.value.pos, f"'{s.op}' needs a number, found {describe(value)}")
            sign = 1 if s.op == "+=" else -1
            if isinstance(slot, int):
                if value.is_const:
                    step = sign * value.const

                    def bump(f):
                        f.v[slot] += step

                    return bump

                def add_fixed(f):
                    f.v[slot] += sign * vf(f)

                return add_fixed

            def add(f):
                f.v[slot(f)] += sign * vf(f)

            return add
        expected = ("bool", "int") if var_type == "flag" else ("int",)
        if value.type not in expected and not (var_type != "flag" and value.type in ("site", "player")):
            raise RuleError(s.value.pos, f"cannot store {describe(value)} in a {var_type} variable")
        # Flags are stored as 0/1; numbers, sites and players are already ints.
        convert = value.type == "bool"
        if isinstance(slot, int):
            if convert:
                def assign_flag(f):
                    f.v[slot] = 1 if vf(f) else 0

                return assign_flag

            def assign_fixed(f):
                f.v[slot] = vf(f)

            return assign_fixed

        def assign(f):
            x = vf(f)
            f.v[slot(f)] = (1 if x else 0) if convert else x

        return assign

    def _assign_attribute(self, s: A.AssignStmt, t: A.Attr, value: Value, scope: Scope):
        obj = self._site(t.obj, scope, "the piece whose attribute changes")
        if t.name == "owner":
            return self._assign_owner(s, obj, value)
        attr = self.m.attributes.get(t.name)
        if attr is None:
            from ..validation.diagnostics import suggest

            best = suggest(t.name, list(self.m.attributes))
            raise RuleError(name_pos(t.pos, t.name), f"unknown attribute '{t.name}'", f"did you mean '{best}'?" if best else None)
        if attr.type == "marker":
            raise RuleError(t.pos, f"'{t.name}' is a marker: move it with 'give {t.name} to ...'")
        if attr.type == "int" and value.type != "int":
            raise RuleError(s.value.pos, f"attribute '{t.name}' is a number, found {describe(value)}")
        if attr.type == "flag" and value.type != "bool":
            raise RuleError(s.value.pos, f"attribute '{t.name}' is a flag (true or false), found {describe(value)}")
        if s.op != "=" and attr.type != "int":
            raise RuleError(s.pos, f"'{s.op}' needs a number attribute; '{t.name}' is a flag")
        i = attr.index
        where, vf = obj.fn, value.fn
        is_acting = isinstance(t.obj, A.Name) and t.obj.id == "piece"
        op = s.op

        if is_acting and op == "+=":
            if value.is_const:
                c = value.const

                def bump(f):
                    p = f.pc
                    new = p[:i] + (p[i] + c,) + p[i + 1 :]
                    f.pc = new
                    if f.at != -1:
                        f.b[f.at] = new

                return bump
        if is_acting and op == "=" and value.is_const:
            # `piece.mark = false` after a move: no site to look up, no value to compute
            c = value.const

            def set_constant(f):
                p = f.pc
                if p is None:
                    return
                new = p[:i] + (c,) + p[i + 1 :]
                f.pc = new
                if f.at != -1:
                    f.b[f.at] = new

            return set_constant

        def set_attribute(f):
            site = where(f)
            p = f.pc if (is_acting or site == f.at) else (f.b[site] if site != -1 else None)
            if p is None:
                return
            x = vf(f)
            if op == "+=":
                x = p[i] + x
            elif op == "-=":
                x = p[i] - x
            new = p[:i] + (x,) + p[i + 1 :]
            if is_acting or site == f.at:
                f.pc = new
                if f.at != -1:
                    f.b[f.at] = new
            else:
                f.b[site] = new

        return set_attribute

    # ------------------------------------------------------------ control
    def _IfStmt(self, s: A.IfStmt, scope: Scope):
        branches = []
        for cond, body in s.branches:
            c = self.x.boolean(cond, scope)
            branches.append((c, self.block(body, scope.child())))
        otherwise = self.block(s.otherwise, scope.child()) if s.otherwise else None
        if len(branches) == 1:
            (c, then), = branches
            if c.is_const:
                return then if c.const else otherwise
            cf = c.fn
            if otherwise is None:
                def if_(f):
                    if cf(f):
                        then(f)
            else:
                def if_(f):
                    if cf(f):
                        then(f)
                    else:
                        otherwise(f)
            return if_
        tests = [(c.fn, body) for c, body in branches]
        if len(tests) == 2:
            # if/elif (with or without else), the common chain: no loop
            (first, first_body), (second, second_body) = tests
            rest = otherwise if otherwise is not None else _nothing

            def if_elif(f):
                if first(f):
                    first_body(f)
                elif second(f):
                    second_body(f)
                else:
                    rest(f)

            return if_elif

        def if_chain(f):
            for cf, body in tests:
                if cf(f):
                    body(f)
                    return
            if otherwise is not None:
                otherwise(f)

        return if_chain

    def _ForEachStmt(self, s: A.ForEachStmt, scope: Scope):
        coll = self.x.compile(s.iterable, scope)
        elem = {"sites": "site", "players": "player", "dirs": "dir"}.get(coll.type)
        if elem is None:
            raise RuleError(s.iterable.pos, f"'for each' needs a set of sites, players or directions, found {describe(coll)}")
        inner = scope.child()
        slot = inner.new_slot()
        inner.locals[s.var] = (slot, elem)
        body = self.block(s.body, inner)
        cf = coll.fn

        def for_each(f):
            # A copy: the body may move or remove the very pieces being listed.
            items = list(cf(f))
            if len(items) > MAX_LOOP:
                raise RuleError(s.pos, f"'for each' over more than {MAX_LOOP} items")
            loc = f.loc
            for item in items:
                loc[slot] = item
                body(f)

        return for_each

    def _CallStmt(self, s: A.CallStmt, scope: Scope):
        name = s.procedure
        if name not in self.procedures:
            from ..validation.diagnostics import suggest

            best = suggest(name, list(self.procedures))
            hint = f"did you mean '{best}'?" if best else "procedures are declared with 'procedure NAME:'"
            raise RuleError(s.pos, f"unknown procedure or statement '{name}'", hint)
        if name in self._procedure_stack:
            chain = " -> ".join(self._procedure_stack + [name])
            raise RuleError(s.pos, f"procedure '{name}' calls itself ({chain}); procedures cannot recurse")
        if len(self._procedure_stack) >= MAX_CALL_DEPTH:
            raise RuleError(s.pos, f"procedures call procedures more than {MAX_CALL_DEPTH} deep ({self._procedure_stack[0]} -> ... -> {name})")
        self._procedure_stack.append(name)
        try:
            # Compiled in the caller's scope: a procedure is a named piece of its caller.
            return self.block(self.procedures[name].body, scope)
        finally:
            self._procedure_stack.pop()

    def _ThenStmt(self, s: A.ThenStmt, scope: Scope):
        if not scope.followups:
            raise RuleError(s.pos, f"'then' starts a follow-up decision after an action; it has no effect in {scope.where}")
        if s.decision not in self.decision_index:
            from ..validation.diagnostics import suggest

            best = suggest(s.decision, list(self.decision_index))
            raise RuleError(name_pos(s.pos, s.decision), f"unknown decision '{s.decision}'", f"did you mean '{best}'?" if best else None)
        index = self.decision_index[s.decision]
        self.followups.append((s.pos, s.decision))

        def then(f):
            f.followup = index

        return then

    def _NotationStmt(self, s: A.NotationStmt, scope: Scope):
        raise RuleError(s.pos, "'notation' belongs directly inside an action or a case (onto ..., over ..., off board)")

    def _player_or_current(self, e: Optional[A.Expr], scope: Scope):
        if e is None:
            return attrgetter("p")
        v = self.x.compile(e, scope)
        if v.type != "player":
            raise RuleError(e.pos, f"expected a player, found {describe(v)}")
        return v.fn

    def _WinStmt(self, s: A.WinStmt, scope: Scope):
        who = self._player_or_current(s.player, scope)
        end = self.end_game
        pos = s.pos
        return lambda f: end(f, END_WIN, who(f), pos)

    def _LoseStmt(self, s: A.LoseStmt, scope: Scope):
        who = self._player_or_current(s.player, scope)
        end = self.end_game
        pos = s.pos
        return lambda f: end(f, END_LOSE, who(f), pos)

    def _DrawStmt(self, s: A.DrawStmt, scope: Scope):
        end = self.end_game
        pos = s.pos
        return lambda f: end(f, END_DRAW, -1, pos)

    def _EndStmt(self, s: A.EndStmt, scope: Scope):
        end = self.end_game
        pos = s.pos
        return lambda f: end(f, END_SCORE, -1, pos)

    def _StartPhaseStmt(self, s: A.StartPhaseStmt, scope: Scope):
        if s.phase not in self.phase_index:
            from ..validation.diagnostics import suggest

            best = suggest(s.phase, list(self.phase_index))
            known = ", ".join(self.phase_index) or "none"
            raise RuleError(name_pos(s.pos, s.phase), f"unknown phase '{s.phase}'", f"did you mean '{best}'?" if best else f"the phases: {known}")
        index = self.phase_index[s.phase]

        def start_phase(f):
            f.s.next_phase = index

        return start_phase

    def _NextTurnStmt(self, s: A.NextTurnStmt, scope: Scope):
        who = self._player_or_current(s.player, scope)

        def next_turn(f):
            f.s.next_player = who(f)

        return next_turn


def _sequence(fns: list[Callable]) -> Callable:
    # A block inside a block (a procedure, a constant `if`) is spliced in: one call
    # less per statement run.
    fns = [part for fn in fns for part in getattr(fn, "parts", (fn,))]
    if not fns:
        return _nothing
    if len(fns) == 1:
        return fns[0]
    if len(fns) == 2:
        a, b = fns

        def two(f):
            a(f)
            b(f)

        seq = two
    elif len(fns) == 3:
        a, b, c = fns

        def three(f):
            a(f)
            b(f)
            c(f)

        seq = three
    else:
        steps = tuple(fns)

        def many(f):
            for fn in steps:
                fn(f)

        seq = many
    seq.parts = tuple(fns)
    return seq


def _nothing(f):
    return None
