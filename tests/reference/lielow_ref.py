"""Lielow, hand-written reference implementation of the rules as played (games/lielow/README.md).

Independent of the interpreter. Squares are ints 0..63 (``file + 8 * rank``,
``a1`` = 0, ``h8`` = 63). The board is a list of 64 signed ints: 0 empty,
``+range`` a White piece, ``-range`` a Black piece. Internal actions are tuples
``(from, to)`` with ``to = OFF`` (-1) for a move off the board.
"""

from __future__ import annotations

PLAYERS = ("white", "black")
SIGN = (1, -1)
OFF = -1
NAMES = [f"{'abcdefgh'[sq % 8]}{sq // 8 + 1}" for sq in range(64)]
INDEX = {name: sq for sq, name in enumerate(NAMES)}
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
MAX_RANGE = 9  # ranges reach at most 8 (7 squares to an empty square, +1)


def _targets(sq: int, r: int):
    """(on-board destinations at distance exactly r, whether some direction leaves the board)."""
    f, k = sq % 8, sq // 8
    on, off = [], False
    for df, dk in DIRECTIONS:
        tf, tk = f + df * r, k + dk * r
        if 0 <= tf < 8 and 0 <= tk < 8:
            on.append(tf + 8 * tk)
        else:
            off = True
    return tuple(on), off


# TARGETS[sq][r] for r in 1 .. MAX_RANGE (index 0 unused)
TARGETS = [[((), False)] + [_targets(sq, r) for r in range(1, MAX_RANGE + 1)] for sq in range(64)]


class State:
    """board: 64 signed ranges; pieces: per player the list of occupied squares;
    kings: per player the king's square or -1; player: 0/1 to move;
    winner: None, 0 or 1; over: game ended."""

    __slots__ = ("board", "pieces", "kings", "player", "winner", "over")

    def __init__(self, board, pieces, kings, player, winner=None, over=False):
        self.board = board
        self.pieces = pieces
        self.kings = kings
        self.player = player
        self.winner = winner
        self.over = over


def _crown(board, squares, kings, q):
    """The crown goes to the unique strictly-greatest range of player q, if any."""
    best = 0
    count = 0
    where = -1
    for sq in squares:
        r = board[sq]
        if r < 0:
            r = -r
        if r > best:
            best, count, where = r, 1, sq
        elif r == best:
            count += 1
    if count == 1:
        kings[q] = where


class Game:
    name = "lielow"
    players = PLAYERS

    def __init__(self, options: dict | None = None):
        if options:
            raise ValueError(f"lielow has no options: {sorted(options)}")

    # ----------------------------------------------------------- fast path
    def fast_initial(self) -> State:
        board = [0] * 64
        for f in range(8):
            board[8 + f] = 1
            board[48 + f] = -1
        return State(board, [list(range(8, 16)), list(range(48, 56))], [-1, -1], 0)

    def position(self, white: dict, black: dict, kings=(None, None), to_move="white") -> State:
        """A position for tests: ``{site: range}`` per player, kings as sites or None."""
        board = [0] * 64
        for site, r in white.items():
            board[INDEX[site]] = r
        for site, r in black.items():
            board[INDEX[site]] = -r
        pieces = [[INDEX[s] for s in white], [INDEX[s] for s in black]]
        k = [-1 if s is None else INDEX[s] for s in kings]
        return State(board, pieces, k, PLAYERS.index(to_move))

    @staticmethod
    def copy(s: State) -> State:
        return State(list(s.board), [list(s.pieces[0]), list(s.pieces[1])], list(s.kings),
                     s.player, s.winner, s.over)

    def fast_legal(self, s: State):
        if s.over:
            return [], None
        board = s.board
        sign = SIGN[s.player]
        moves = []
        append = moves.append
        for sq in s.pieces[s.player]:
            r = board[sq] * sign
            on, off = TARGETS[sq][r]
            for t in on:
                if board[t] * sign <= 0:  # empty or enemy
                    append((sq, t))
            if off:
                append((sq, OFF))
        return moves, None

    def fast_apply(self, s: State, move) -> None:
        frm, to = move
        p = s.player
        o = 1 - p
        board = s.board
        kings = s.kings
        mine = s.pieces[p]
        v = board[frm]
        board[frm] = 0
        mine.remove(frm)
        if to == OFF:
            if kings[p] == frm:  # the mover's own king left the board
                kings[p] = -1
                s.winner = o
                s.over = True
                s.player = o
                return
        else:
            t = board[to]
            if t:  # enemy piece (own squares are never generated)
                s.pieces[o].remove(to)
                board[to] = SIGN[p]
                if kings[o] == to:  # the enemy king as it stood before the move
                    kings[o] = -1
                    mine.append(to)
                    if kings[p] == frm:
                        kings[p] = to
                    s.winner = p
                    s.over = True
                    s.player = o
                    return
            else:
                board[to] = v + SIGN[p]
            mine.append(to)
            if kings[p] == frm:
                kings[p] = to
        _crown(board, mine, kings, p)
        _crown(board, s.pieces[o], kings, o)
        s.player = o

    # ----------------------------------------------------------- notation
    @staticmethod
    def notation(s: State, move) -> str:
        frm, to = move
        if to == OFF:
            return NAMES[frm] + "-off"
        return NAMES[frm] + ("x" if s.board[to] else "-") + NAMES[to]

    # ----------------------------------------------------------- public API
    def initial(self) -> State:
        return self.fast_initial()

    def to_move(self, s: State):
        return None if self.is_terminal(s) else PLAYERS[s.player]

    def legal(self, s: State) -> list[str]:
        moves, _ = self.fast_legal(s)
        return [self.notation(s, m) for m in moves]

    def chance(self, s: State) -> list:
        return []

    def apply(self, s: State, action: str) -> State:
        moves, _ = self.fast_legal(s)
        for m in moves:
            if self.notation(s, m) == action:
                child = self.copy(s)
                self.fast_apply(child, m)
                return child
        raise ValueError(f"lielow: illegal action {action!r}")

    def is_terminal(self, s: State) -> bool:
        # A player to move always has a move (the piece farthest in some
        # direction can always go on or off the board); `not moves` is a guard.
        return s.over or not self.fast_legal(s)[0]

    def result(self, s: State):
        if not self.is_terminal(s):
            raise ValueError("lielow: the game is not over")
        if s.winner is None:
            return None, {"white": 0, "black": 0}
        return PLAYERS[s.winner], {name: int(i == s.winner) for i, name in enumerate(PLAYERS)}
