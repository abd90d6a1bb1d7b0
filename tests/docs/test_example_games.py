"""The example games in docs/examples (Reversi, English draughts, Hex) play exactly like
small hand-written references: the same legal actions, in every position of random
games, and the same results."""
import random

import pytest

from interpreter import load_game
from interpreter.analysis.perft import perft
from tests.helpers import REPO

EXAMPLES = REPO / "docs" / "examples"
FILES = "abcdefgh"
DIAGONALS = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
LINES = DIAGONALS + [(0, 1), (1, 0), (0, -1), (-1, 0)]


def name(square) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


def on_board(square) -> bool:
    return 0 <= square[0] < 8 and 0 <= square[1] < 8


def step(square, d, n=1):
    return square[0] + n * d[0], square[1] + n * d[1]


class Reversi:
    """Board: square -> 0 (black) or 1 (white). A player who cannot place passes;
    the game ends when neither can."""

    def initial(self):
        return {(3, 3): 1, (4, 4): 1, (3, 4): 0, (4, 3): 0}, 0, False

    def turned(self, board, player, square):
        out = []
        for d in LINES:
            line, at = [], step(square, d)
            while on_board(at) and board.get(at) == 1 - player:
                line.append(at)
                at = step(at, d)
            if line and on_board(at) and board.get(at) == player:
                out += line
        return out

    def placements(self, board, player):
        return [(f, r) for f in range(8) for r in range(8)
                if (f, r) not in board and self.turned(board, player, (f, r))]

    def legal(self, state):
        board, player, over = state
        if over:
            return []
        squares = self.placements(board, player)
        return sorted("@" + name(s) for s in squares) if squares else ["pass"]

    def apply(self, state, action):
        board, player, _ = state
        board = dict(board)
        if action != "pass":
            square = (FILES.index(action[1]), int(action[2:]) - 1)
            for s in self.turned(board, player, square):
                board[s] = player
            board[square] = player
        over = not self.placements(board, 0) and not self.placements(board, 1)
        return board, 1 - player, over

    def result(self, state):
        board = state[0]
        black = sum(1 for v in board.values() if v == 0)
        white = len(board) - black
        return ("black" if black > white else "white" if white > black else None), {"black": black, "white": white}


class Draughts:
    """English draughts, one action per jump; a multi-jump goes on with the same piece."""

    def initial(self):
        board = {}
        for r in range(8):
            for f in range(8):
                if (f + r) % 2 == 0 and r != 3 and r != 4:
                    board[(f, r)] = ("black" if r < 3 else "white", "man")
        return board, "black", None, 0, None

    def directions(self, owner, kind):
        if kind == "king":
            return DIAGONALS
        ahead = 1 if owner == "black" else -1
        return [(1, ahead), (-1, ahead)]

    def jumps(self, board, square):
        owner, kind = board[square]
        out = []
        for d in self.directions(owner, kind):
            over, to = step(square, d), step(square, d, 2)
            if on_board(to) and over in board and board[over][0] != owner and to not in board:
                out.append((square, to, over))
        return out

    def moves(self, state):
        board, player, going_on, turns, winner = state
        if going_on is not None:
            return self.jumps(board, going_on)
        jumps = [j for s, (o, _) in board.items() if o == player for j in self.jumps(board, s)]
        if jumps:
            return jumps
        return [(s, step(s, d), None) for s, (o, k) in board.items() if o == player
                for d in self.directions(o, k) if on_board(step(s, d)) and step(s, d) not in board]

    def legal(self, state):
        if state[4] is not None:
            return []
        return sorted(f"{name(a)}{'x' if over else '-'}{name(b)}" for a, b, over in self.moves(state))

    def apply(self, state, action):
        board, player, _, turns, _ = state
        move = next(m for m in self.moves(state) if f"{name(m[0])}{'x' if m[2] else '-'}{name(m[1])}" == action)
        board = dict(board)
        start, to, over = move
        owner, kind = board.pop(start)
        if over:
            del board[over]
        crowned = kind == "man" and to[1] == (7 if owner == "black" else 0)
        board[to] = (owner, "king" if crowned else kind)
        if over and not crowned and self.jumps(board, to):
            return board, player, to, turns, None
        other = "white" if player == "black" else "black"
        turns += 1
        winner = None
        if turns >= 200:
            winner = "draw"
        elif not self.moves((board, other, None, turns, None)):
            winner = player
        return board, other, None, turns, winner

    def result(self, state):
        winner = None if state[4] == "draw" else state[4]
        return winner, None


class Hex:
    """5 x 5 Hex: red joins ranks 1 and 5, blue files a and e."""

    SIZE = 5
    STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)]

    def initial(self):
        return {}, "red", None

    def legal(self, state):
        board, _, winner = state
        if winner is not None:
            return []
        return sorted("@" + name((f, r)) for f in range(self.SIZE) for r in range(self.SIZE) if (f, r) not in board)

    def apply(self, state, action):
        board, player, _ = state
        board = dict(board)
        square = (FILES.index(action[1]), int(action[2:]) - 1)
        board[square] = player
        chain, todo = {square}, [square]
        while todo:
            f, r = todo.pop()
            for df, dr in self.STEPS:
                other = (f + df, r + dr)
                if other not in chain and board.get(other) == player:
                    chain.add(other)
                    todo.append(other)
        axis = 1 if player == "red" else 0
        joined = {s[axis] for s in chain} >= {0, self.SIZE - 1}
        return board, "blue" if player == "red" else "red", player if joined else None

    def result(self, state):
        return state[2], None


@pytest.mark.parametrize("example,reference", [("reversi", Reversi()), ("checkers", Draughts()), ("hex", Hex())])
def test_random_games_match_the_reference(example, reference):
    game = load_game(str(EXAMPLES / example))
    rng = random.Random(7)
    positions = 0
    for _ in range(6):
        state, theirs = game.initial_state(), reference.initial()
        while True:
            legal = reference.legal(theirs)
            assert game.legal_notations(state) == legal, f"after {positions} positions"
            positions += 1
            if not legal:
                break
            action = rng.choice(legal)
            state, theirs = game.apply(state, action), reference.apply(theirs, action)
        winner, scores = reference.result(theirs)
        result = game.result(state)
        assert result.winner == winner
        if scores is not None:
            assert dict(result.scores) == scores
    assert positions > 100


@pytest.mark.parametrize("example,counts", [
    ("reversi", [4, 12, 56, 244, 1396]), ("checkers", [7, 49, 302, 1469, 7361]), ("hex", [25, 600, 13800])])
def test_perft_of_the_examples(example, counts):
    game = load_game(str(EXAMPLES / example))
    assert perft(game, game.initial_state(), len(counts)) == counts
