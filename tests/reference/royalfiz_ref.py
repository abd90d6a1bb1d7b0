"""RoyalFiz, hand-written reference implementation of the rules as played (games/royalfiz/README.md).

Independent of the interpreter. Fields are ints (see ``NAMES``); colours are
0..3 (red, blue, green, yellow). ``occ[field]`` is the colour of the piece on
it or -1 (a field never holds two pieces: a walk never ends on an own piece and
an opponent's piece is sent home); barricades are a bit mask over fields.

All walks of exactly N steps are precomputed per starting field as
``(end, masks)``: each mask holds the fields passed over by one simple path to
``end`` (the start and the end excluded), so a walk is open when one of its
masks holds no barricade.

Internal actions are ints read according to the phase: the colour (start
event), N (roll), ``from << 7 | to`` or ``PASS`` (move), the field (barricade
placement).
"""

from __future__ import annotations

COLOURS = ("red", "blue", "green", "yellow")
IN_PLAY = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
PIECES = 5

# ---------------------------------------------------------------- the graph
NAMES = ([f"o{k}" for k in range(1, 41)]
         + [f"s{k}{ab}" for k in range(1, 9) for ab in "ab"]
         + [f"i{k}" for k in range(1, 17)]
         + [f"c{k}" for k in range(1, 9)]
         + ["goal"]
         + [f"home_{c}" for c in COLOURS])
INDEX = {name: i for i, name in enumerate(NAMES)}
N_NODES = len(NAMES)
GOAL = INDEX["goal"]
C1 = INDEX["c1"]
HOME = tuple(INDEX[f"home_{c}"] for c in COLOURS)
ENTRY = tuple(INDEX[f"o{k}"] for k in (1, 11, 21, 31))
OUTER = tuple(INDEX[f"o{k}"] for k in range(1, 41))
INNER = tuple(INDEX[f"i{k}"] for k in range(1, 17))
CENTRE = tuple(INDEX[f"c{k}"] for k in range(1, 9))
IS_INNER = [n in INNER for n in range(N_NODES)]
IS_CENTRE = [n in CENTRE for n in range(N_NODES)]
IS_HOME = [n in HOME for n in range(N_NODES)]
JUMP_TO_CENTRE = tuple(c for c in CENTRE if c != C1)  # with a 6, from the inner ring
JUMP_TO_INNER = INNER  # with a 6, from the centre ring
# barricades may be placed on paths, inner and centre ring (c1 included)
PLACEABLE = tuple(n for n in range(N_NODES)
                  if NAMES[n][0] in "sic" and n != GOAL and not IS_HOME[n])
START_BARRICADES = tuple(INDEX[n] for n in
                         [f"s{k}b" for k in range(1, 9)] + ["c3", "c5", "c7"])


def _adjacency():
    adj = [[] for _ in range(N_NODES)]

    def two_way(a, b):
        adj[INDEX[a]].append(INDEX[b])
        adj[INDEX[b]].append(INDEX[a])

    for k in range(1, 41):
        two_way(f"o{k}", f"o{k % 40 + 1}")
    for k in range(1, 9):
        two_way(f"o{5 * k - 2}", f"s{k}a")
        two_way(f"s{k}a", f"s{k}b")
        two_way(f"s{k}b", f"i{2 * k}")
    for k in range(1, 17):
        two_way(f"i{k}", f"i{k % 16 + 1}")
    for k in range(1, 9):
        two_way(f"c{k}", f"c{k % 8 + 1}")
    two_way("goal", "c1")
    for home, entry in zip(HOME, ENTRY):
        adj[home].append(entry)  # one-way: nothing moves into a home
    return tuple(tuple(a) for a in adj)


ADJ = _adjacency()


def _walks(start: int, steps: int):
    """[(end, masks)] for all simple paths of exactly `steps` edges from start
    (start counts as entered; the goal only as the last field)."""
    ends: dict[int, set[int]] = {}

    def dfs(node, visited, passed, left):
        for nxt in ADJ[node]:
            bit = 1 << nxt
            if visited & bit:
                continue
            if left == 1:
                ends.setdefault(nxt, set()).add(passed)
            elif nxt != GOAL:
                dfs(nxt, visited | bit, passed | bit, left - 1)

    dfs(start, 1 << start, 0, steps)
    out = []
    for end in sorted(ends):
        masks = ends[end]
        # a mask that contains another one is never needed
        minimal = sorted(m for m in masks if not any(o != m and o & m == o for o in masks))
        out.append((end, tuple(minimal)))
    return tuple(out)


WALKS = [[()] + [_walks(n, k) for k in range(1, 7)] if n != GOAL else [()] * 7
         for n in range(N_NODES)]


def _union(walks):
    mask = 0
    for _, masks in walks:
        for m in masks:
            mask |= m
    return mask


# the fast case: no barricade on any field passed over -> every end is reachable
PASSED_ANY = [[_union(w) for w in row] for row in WALKS]
ENDS = [[tuple(end for end, _ in w) for w in row] for row in WALKS]

# In this graph a walk from the inner ring never ends on the centre ring and a
# walk from the centre never ends on the inner ring, so a jump never has the
# same squares as a walk (the action lists are sets either way).
assert not any(end in JUMP_TO_CENTRE for n in INNER for end, _ in WALKS[n][6])
assert not any(end in JUMP_TO_INNER for n in CENTRE for end, _ in WALKS[n][6])

START, ROLL, MOVE, PLACE, OVER = range(5)
PASS = -1


class State:
    """occ: colour per field or -1; bar: barricade bit mask; home: pieces at home
    per colour; pos: per colour the fields of its pieces on the board; player:
    colour to move (-1 before the start event); phase; roll; turns completed;
    winner: colour or -1."""

    __slots__ = ("occ", "bar", "home", "pos", "player", "phase", "roll", "turns", "winner")

    def __init__(self, occ, bar, home, pos, player, phase, roll=0, turns=0, winner=-1):
        self.occ = occ
        self.bar = bar
        self.home = home
        self.pos = pos
        self.player = player
        self.phase = phase
        self.roll = roll
        self.turns = turns
        self.winner = winner


class Game:
    name = "royalfiz"

    def __init__(self, options: dict | None = None):
        options = dict(options or {})
        n = int(options.pop("players", 4))
        if n not in IN_PLAY:
            raise ValueError(f"royalfiz: players must be 2, 3 or 4, not {n!r}")
        self.max_turns = int(options.pop("max_turns", 1000))
        if options:
            raise ValueError(f"royalfiz: unknown options {sorted(options)}")
        self.colours = IN_PLAY[n]
        self.players = tuple(COLOURS[c] for c in self.colours)
        nxt = [-1] * 4
        for i, c in enumerate(self.colours):
            nxt[c] = self.colours[(i + 1) % n]
        self.next = tuple(nxt)
        self._start_chance = [("start:" + COLOURS[c], 1 / n) for c in self.colours]

    # ----------------------------------------------------------- states
    def fast_initial(self) -> State:
        bar = 0
        for f in START_BARRICADES:
            bar |= 1 << f
        home = [PIECES if c in self.colours else 0 for c in range(4)]
        phase = START if self.max_turns > 0 else OVER
        return State([-1] * N_NODES, bar, home, [[], [], [], []], -1, phase)

    @staticmethod
    def copy(s: State) -> State:
        return State(list(s.occ), s.bar, list(s.home), [list(p) for p in s.pos], s.player,
                     s.phase, s.roll, s.turns, s.winner)

    def position(self, pieces: dict, to_move: str, roll: int | None = None,
                 barricades=None, turns: int = 0) -> State:
        """A position for tests: ``{field: colour}``; every other piece of a
        colour in play is at home; ``roll`` None means the roll is next."""
        s = self.fast_initial()
        s.phase = ROLL if roll is None else MOVE
        s.roll = roll or 0
        s.turns = turns
        s.player = COLOURS.index(to_move)
        if barricades is not None:
            s.bar = 0
            for f in barricades:
                s.bar |= 1 << INDEX[f]
        for field, colour in pieces.items():
            c = COLOURS.index(colour)
            f = INDEX[field]
            s.occ[f] = c
            s.pos[c].append(f)
            s.home[c] -= 1
        return s

    # ----------------------------------------------------------- legal actions
    def fast_legal(self, s: State):
        phase = s.phase
        if phase == MOVE:
            moves = self._moves(s)
            return (moves or [PASS]), None
        if phase == ROLL:
            return [1, 2, 3, 4, 5, 6], None
        if phase == PLACE:
            occ = s.occ
            bar = s.bar
            return [f for f in PLACEABLE if occ[f] < 0 and not bar >> f & 1], None
        if phase == START:
            return list(self.colours), None
        return [], None

    def _moves(self, s: State) -> list:
        me = s.player
        n = s.roll
        occ = s.occ
        bar = s.bar
        moves = []
        add = moves.append
        starts = s.pos[me]
        if s.home[me]:
            starts = [HOME[me]] + starts
        for st in starts:
            base = st << 7
            if not PASSED_ANY[st][n] & bar:
                for end in ENDS[st][n]:
                    if occ[end] != me:
                        add(base | end)
            else:
                for end, masks in WALKS[st][n]:
                    if occ[end] == me:
                        continue
                    for m in masks:
                        if not m & bar:
                            add(base | end)
                            break
            if n == 6:
                if IS_INNER[st]:
                    for t in JUMP_TO_CENTRE:
                        if occ[t] != me:
                            add(base | t)
                elif IS_CENTRE[st]:
                    for t in JUMP_TO_INNER:
                        if occ[t] != me:
                            add(base | t)
        return moves

    # ----------------------------------------------------------- applying
    def fast_apply(self, s: State, a: int) -> None:
        phase = s.phase
        if phase == MOVE:
            if a == PASS:
                self._end_turn(s)
                return
            me = s.player
            frm = a >> 7
            to = a & 127
            occ = s.occ
            mine = s.pos[me]
            if IS_HOME[frm]:
                s.home[me] -= 1
            else:
                occ[frm] = -1
                mine.remove(frm)
            victim = occ[to]
            if victim >= 0:  # an opponent: sent home
                s.home[victim] += 1
                s.pos[victim].remove(to)
            occ[to] = me
            mine.append(to)
            if to == GOAL:
                s.winner = me
                s.phase = OVER
                return
            if s.bar >> to & 1:  # barricade taken: the mover places it next
                s.bar ^= 1 << to
                s.phase = PLACE
                return
            self._end_turn(s)
        elif phase == ROLL:
            s.roll = a
            s.phase = MOVE
        elif phase == PLACE:
            s.bar |= 1 << a
            self._end_turn(s)
        elif phase == START:
            s.player = a
            s.phase = ROLL
        else:
            raise ValueError("royalfiz: the game is over")

    def _end_turn(self, s: State) -> None:
        s.turns += 1
        if s.turns >= self.max_turns:
            s.phase = OVER
        else:
            s.player = self.next[s.player]
            s.phase = ROLL

    # ----------------------------------------------------------- notation
    @staticmethod
    def notation(s: State, a: int) -> str:
        phase = s.phase
        if phase == MOVE:
            if a == PASS:
                return "pass"
            frm = a >> 7
            to = a & 127
            taken = s.occ[to] >= 0 or s.bar >> to & 1  # opponent piece or barricade
            return NAMES[frm] + ("x" if taken else "-") + NAMES[to]
        if phase == ROLL:
            return f"roll:{a}"
        if phase == PLACE:
            return "@" + NAMES[a]
        if phase == START:
            return "start:" + COLOURS[a]
        raise ValueError("royalfiz: the game is over")

    # ----------------------------------------------------------- public API
    def initial(self) -> State:
        return self.fast_initial()

    def to_move(self, s: State):
        if s.phase == OVER:
            return None
        if s.phase in (START, ROLL):
            return "chance"
        return COLOURS[s.player]

    def legal(self, s: State) -> list[str]:
        actions, _ = self.fast_legal(s)
        return [self.notation(s, a) for a in actions]

    def chance(self, s: State) -> list:
        if s.phase == START:
            return list(self._start_chance)
        if s.phase == ROLL:
            return [(f"roll:{k}", 1 / 6) for k in range(1, 7)]
        return []

    def apply(self, s: State, action: str) -> State:
        actions, _ = self.fast_legal(s)
        for a in actions:
            if self.notation(s, a) == action:
                child = self.copy(s)
                self.fast_apply(child, a)
                return child
        raise ValueError(f"royalfiz: illegal action {action!r}")

    def is_terminal(self, s: State) -> bool:
        return s.phase == OVER

    def result(self, s: State):
        if s.phase != OVER:
            raise ValueError("royalfiz: the game is not over")
        if s.winner < 0:
            return None, {name: 0 for name in self.players}
        return COLOURS[s.winner], {COLOURS[c]: int(c == s.winner) for c in self.colours}
