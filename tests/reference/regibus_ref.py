"""Regibus, hand-written reference implementation of the rules as played (games/regibus/README.md).

Independent of the interpreter. Squares are ints 0..63 (``file + 8 * rank``,
``a1`` = 0, ``h8`` = 63); players are 0 (white) and 1 (black), which are also
the stone colours. The board is a list of 64 entries, ``None`` or a figure
tuple ``(owner, rank, white_stones, black_stones, mark)``.

Only the number of stones of each colour in a figure is kept, not their order:
no rule looks below the top stone (which is always the owner's colour), and a
captured figure's stones below the top go to their own colours' pools (`top`)
or all under the capturer (`whole`), so the counts carry everything the rules use.

Internal actions: in the setup phase and for a coronation placement an int (the
site); in the play phase a tuple ``(from, to, captured)`` with ``captured = -1``
for a move or travel.
"""

from __future__ import annotations

PLAYERS = ("white", "black")
NAMES = [f"{'abcdefgh'[sq % 8]}{sq // 8 + 1}" for sq in range(64)]
INDEX = {name: sq for sq, name in enumerate(NAMES)}

KNIGHT, PRINCE, KING, EMPEROR = range(4)
RANKS = ("knight", "prince", "king", "emperor")
POWER = (1, 2, 4, 8)
STONES_PER_COLOUR = 12
SETUP_ACTIONS = 2 * STONES_PER_COLOUR

# directions: N NE E SE S SW W NW (N = towards rank 8)
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
E, W = 2, 6
FORWARD = (0, 4)  # white forward is N, black forward is S
BACKWARD = (4, 0)
SIDEWAYS = (E, W)


def _ray(sq, d):
    f, k = sq % 8, sq // 8
    df, dk = DIRECTIONS[d]
    out = []
    f += df
    k += dk
    while 0 <= f < 8 and 0 <= k < 8:
        out.append(f + 8 * k)
        f += df
        k += dk
    return tuple(out)


RAYS = [[_ray(sq, d) for d in range(8)] for sq in range(64)]
ROME = [NAMES[sq] in ("d4", "e4", "d5", "e5") for sq in range(64)]
MIDDLE = [sq // 8 in (3, 4) for sq in range(64)]  # ranks 4 and 5
EDGE = [sq % 8 in (0, 7) or sq // 8 in (0, 7) for sq in range(64)]
EDGE_SQUARES = tuple(sq for sq in range(64) if EDGE[sq])
HALF = (tuple(range(0, 32)), tuple(range(32, 64)))  # ranks 1-4, ranks 5-8
OPP_BASELINE = ([sq // 8 == 7 for sq in range(64)], [sq // 8 == 0 for sq in range(64)])
# coronation placement: opponent's half, not Rome
CROWN_SITES = tuple(tuple(sq for sq in HALF[1 - p] if not ROME[sq]) for p in (0, 1))


class State:
    """board: 64 figures or None; figs: per player the occupied squares;
    pools: stones off the board per colour; player: 0/1 who decides;
    placed: setup placements made (play phase when 24); pending: square of an
    emperor awaiting its coronation placement, or -1; pending_capture: whether
    that turn's move captured; crowned: per player; quiet: turns without capture;
    over: the game has ended."""

    __slots__ = ("board", "figs", "pools", "player", "placed", "pending", "pending_capture",
                 "crowned", "quiet", "over")

    def __init__(self, board, figs, pools, player, placed, pending=-1, pending_capture=False,
                 crowned=None, quiet=0, over=False):
        self.board = board
        self.figs = figs
        self.pools = pools
        self.player = player
        self.placed = placed
        self.pending = pending
        self.pending_capture = pending_capture
        self.crowned = crowned if crowned is not None else [False, False]
        self.quiet = quiet
        self.over = over


class Game:
    name = "regibus"
    players = PLAYERS

    def __init__(self, options: dict | None = None):
        options = dict(options or {})
        capture = options.pop("capture", "top")
        if capture not in ("top", "whole"):
            raise ValueError(f"regibus: capture must be top or whole, not {capture!r}")
        travel_min = int(options.pop("travel_min", 3))
        if travel_min not in (2, 3):
            raise ValueError(f"regibus: travel_min must be 2 or 3, not {travel_min!r}")
        quiet_limit = int(options.pop("quiet_limit", 40))
        if options:
            raise ValueError(f"regibus: unknown options {sorted(options)}")
        self.whole = capture == "whole"
        self.travel_min = travel_min
        self.quiet_limit = quiet_limit

    # ----------------------------------------------------------- states
    def fast_initial(self) -> State:
        return State([None] * 64, [[], []], [STONES_PER_COLOUR, STONES_PER_COLOUR], 0, 0)

    @staticmethod
    def copy(s: State) -> State:
        return State(list(s.board), [list(s.figs[0]), list(s.figs[1])], list(s.pools), s.player,
                     s.placed, s.pending, s.pending_capture, list(s.crowned), s.quiet, s.over)

    def position(self, figures: dict, to_move="white", crowned=(False, False), quiet=0,
                 pools=None) -> State:
        """A play-phase position for tests. ``figures``: site -> (owner, rank) or
        (owner, rank, stones) or (owner, rank, stones, mark) with names for owner and
        rank; stones an int (all the owner's colour) or (white, black) counts.
        Pools default to 12 minus the stones on the board."""
        board = [None] * 64
        figs = [[], []]
        on_board = [0, 0]
        for site, spec in figures.items():
            owner = PLAYERS.index(spec[0])
            rank = RANKS.index(spec[1])
            stones = spec[2] if len(spec) > 2 else 1
            mark = bool(spec[3]) if len(spec) > 3 else False
            if isinstance(stones, int):
                nw, nb = (stones, 0) if owner == 0 else (0, stones)
            else:
                nw, nb = stones
            sq = INDEX[site]
            board[sq] = (owner, rank, nw, nb, mark)
            figs[owner].append(sq)
            on_board[0] += nw
            on_board[1] += nb
        if pools is None:
            pools = [STONES_PER_COLOUR - on_board[0], STONES_PER_COLOUR - on_board[1]]
        return State(board, figs, list(pools), PLAYERS.index(to_move), SETUP_ACTIONS,
                     crowned=list(crowned), quiet=quiet)

    # ----------------------------------------------------------- move generation
    def fast_legal(self, s: State):
        if s.over:
            return [], None
        board = s.board
        if s.placed < SETUP_ACTIONS:
            return [sq for sq in HALF[s.player] if board[sq] is None], None
        if s.pending >= 0:
            return [sq for sq in CROWN_SITES[s.player] if board[sq] is None], None
        moves = self._play_moves(s)
        if not moves:
            s.over = True
        return moves, None

    def _play_moves(self, s: State) -> list:
        # A deliberately inlined hot loop (one function, locals bound once): it is
        # the baseline `regelwerk bench` compares the interpreter with.
        board = s.board
        me = s.player
        closed = s.crowned[0] or s.crowned[1]
        # After the first coronation only a king of a player who has not crowned and
        # has at least 3 kings may land on Rome (and is crowned).
        king_may_land = not closed or (
            not s.crowned[me] and sum(1 for q in s.figs[me] if board[q][1] == KING) >= 3)
        fwd = FORWARD[me]
        back = BACKWARD[me]
        knight_dirs = (fwd, E, W)
        moves = []
        add = moves.append
        for sq in s.figs[me]:
            fig = board[sq]
            rank = fig[1]
            rays = RAYS[sq]
            if rank <= PRINCE:
                if rank == KNIGHT:
                    single = knight_dirs
                else:
                    single = SIDEWAYS
                    for d in (fwd, back):  # exactly two forward / backward
                        ray = rays[d]
                        if len(ray) < 2:
                            continue
                        mid = ray[0]
                        if board[mid] is not None or (closed and ROME[mid]):
                            continue
                        t = ray[1]
                        g = board[t]
                        if g is None:
                            if not (closed and ROME[t]):
                                add((sq, t, -1))
                        elif (g[0] != me and g[1] != EMPEROR and len(ray) > 2
                              and board[ray[2]] is None
                              and not (closed and (ROME[t] or ROME[ray[2]]))):
                            add((sq, ray[2], t))
                # one square (knight: forward and sideways; prince: sideways)
                for d in single:
                    ray = rays[d]
                    if not ray:
                        continue
                    t = ray[0]
                    g = board[t]
                    if g is None:
                        if not (closed and ROME[t]):
                            add((sq, t, -1))
                    elif (g[0] != me and g[1] != EMPEROR and len(ray) > 1
                          and board[ray[1]] is None
                          and not (closed and (ROME[t] or ROME[ray[1]]))):
                        add((sq, ray[1], t))
                continue
            # king or emperor
            height = fig[2] + fig[3]
            if rank == KING:
                steps, reach, may_land = 1, height, king_may_land
            else:
                steps, reach, may_land = 2, 8, not closed
            stepped = []
            for d in range(8):
                ray = rays[d]
                n = len(ray)
                for i in range(n if n < reach else reach):
                    t = ray[i]
                    g = board[t]
                    if g is None:
                        if closed and ROME[t]:  # never passed over; landed on only by exception
                            if i < steps and may_land:
                                add((sq, t, -1))
                                stepped.append(t)
                            break
                        if i < steps:
                            add((sq, t, -1))
                            stepped.append(t)
                        continue
                    # the first figure on the line, at distance i + 1 <= reach
                    if g[0] != me and i + 1 < n:
                        land = ray[i + 1]
                        if board[land] is None and not (
                                closed and (ROME[t] or (ROME[land] and not may_land))):
                            add((sq, land, t))
                    break
            if EDGE[sq] and height >= self.travel_min:
                for t in EDGE_SQUARES:
                    if board[t] is None and t != sq and t not in stepped:
                        add((sq, t, -1))
        return moves

    # ----------------------------------------------------------- applying
    def fast_apply(self, s: State, action) -> None:
        # A deliberately inlined hot loop, like _play_moves: the bench baseline.
        board = s.board
        me = s.player
        if s.placed < SETUP_ACTIONS:  # setup: a knight of the mover's colour
            board[action] = (me, KNIGHT, 1, 0, False) if me == 0 else (me, KNIGHT, 0, 1, False)
            s.figs[me].append(action)
            s.pools[me] -= 1
            s.placed += 1
            s.player = 1 - me  # after 24 placements: White, the play phase starts
            return
        if s.pending >= 0:  # coronation placement: not a move
            frm = s.pending
            figs = s.figs[me]
            figs[figs.index(frm)] = action
            board[action] = board[frm]
            board[frm] = None
            s.pending = -1
            self._end_turn(s, s.pending_capture)
            return
        frm, to, cap = action
        _, rank, nw, nb, mark = board[frm]
        board[frm] = None
        figs = s.figs[me]
        figs[figs.index(frm)] = to
        captured = cap >= 0
        if captured:
            owner, _, cw, cb, _ = board[cap]
            board[cap] = None
            s.figs[owner].remove(cap)
            if self.whole:
                nw += cw
                nb += cb
            else:  # top stone under the capturer, the rest to their pools
                pools = s.pools
                if owner == 0:
                    nw += 1
                    pools[0] += cw - 1
                    pools[1] += cb
                else:
                    nb += 1
                    pools[0] += cw
                    pools[1] += cb - 1
            if rank == KNIGHT:
                rank = PRINCE
        if OPP_BASELINE[me][to]:
            if rank <= PRINCE:
                rank = KING
                mark = False  # a new king starts unmarked
            elif rank == KING:
                if mark and s.pools[me]:  # ransom
                    s.pools[me] -= 1
                    if me == 0:
                        nw += 1
                    else:
                        nb += 1
                mark = False
        elif rank == KING and MIDDLE[to]:
            mark = True
        if (rank == KING and ROME[to] and not s.crowned[me]
                and sum(1 for q in figs if q != to and board[q][1] == KING) + 1 >= 3):
            board[to] = (me, EMPEROR, nw, nb, False)
            s.crowned[me] = True
            s.pending = to
            s.pending_capture = captured
            return
        board[to] = (me, rank, nw, nb, mark)
        self._end_turn(s, captured)

    def _end_turn(self, s: State, captured: bool) -> None:
        s.quiet = 0 if captured else s.quiet + 1
        s.player = 1 - s.player
        if s.quiet >= self.quiet_limit:
            s.over = True

    # ----------------------------------------------------------- notation
    def notation(self, s: State, action) -> str:
        if s.placed < SETUP_ACTIONS or s.pending >= 0:
            return "@" + NAMES[action]
        frm, to, cap = action
        return NAMES[frm] + ("x" if cap >= 0 else "-") + NAMES[to]

    # ----------------------------------------------------------- public API
    def initial(self) -> State:
        return self.fast_initial()

    def to_move(self, s: State):
        return None if self.is_terminal(s) else PLAYERS[s.player]

    def legal(self, s: State) -> list[str]:
        actions, _ = self.fast_legal(self.copy(s))
        return [self.notation(s, a) for a in actions]

    def chance(self, s: State) -> list:
        return []

    def apply(self, s: State, action: str) -> State:
        child = self.copy(s)
        actions, _ = self.fast_legal(child)
        for a in actions:
            if self.notation(s, a) == action:
                self.fast_apply(child, a)
                return child
        raise ValueError(f"regibus: illegal action {action!r}")

    def is_terminal(self, s: State) -> bool:
        return s.over or not self.fast_legal(self.copy(s))[0]

    def power(self, s: State) -> list[int]:
        power = [0, 0]
        for sq in range(64):
            fig = s.board[sq]
            if fig is not None:
                power[fig[0]] += POWER[fig[1]]
        return power

    def result(self, s: State):
        if not self.is_terminal(s):
            raise ValueError("regibus: the game is not over")
        p = self.power(s)
        winner = None if p[0] == p[1] else PLAYERS[0 if p[0] > p[1] else 1]
        return winner, {"white": p[0], "black": p[1]}
