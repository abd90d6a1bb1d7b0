"""The example games in docs/examples (Reversi, English draughts, Hex, Kalah, Amazons,
Connect Four) play exactly like small hand-written references: the same legal
actions, in every position of random games, and the same results. Chess has its own
file (test_example_chess.py)."""
import random

import pytest

from interpreter import load_game
from interpreter.analysis.perft import perft
from tests.helpers import REPO

EXAMPLES = REPO / "docs" / "examples"
FILES = "abcdefghij"
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


class Kalah:
    """OpenSpiel's mancala: pits 1..6 (South, b1..g1) and 8..13 (North, g2..b2),
    stores 7 (South, h1) and 0 (North, a2); four seeds a pit. Over when either
    side's pits are empty (or after 1000 moves); store and pits are counted."""

    SITES = {**{p: f"{'abcdefg'[p]}1" for p in range(1, 7)}, **{p: f"{'abcdefg'[14 - p]}2" for p in range(8, 14)}}

    def initial(self):
        return [0] + [4] * 6 + [0] + [4] * 6, 0, 0

    def pits(self, player):
        return range(1, 7) if player == 0 else range(8, 14)

    def over(self, state):
        board, _, moves = state
        return moves > 1000 or not any(board[1:7]) or not any(board[8:14])

    def legal(self, state):
        board, player, _ = state
        if self.over(state):
            return []
        return sorted(self.SITES[p] for p in self.pits(player) if board[p])

    def apply(self, state, action):
        board, player, moves = list(state[0]), state[1], state[2]
        pit = next(p for p, site in self.SITES.items() if site == action)
        seeds, board[pit] = board[pit], 0
        own_store, their_store = (7, 0) if player == 0 else (0, 7)
        while seeds:
            pit = (pit + 1) % 14
            if pit != their_store:
                board[pit] += 1
                seeds -= 1
        if pit in self.pits(player) and board[pit] == 1 and board[14 - pit] > 0:
            board[own_store] += 1 + board[14 - pit]
            board[pit] = board[14 - pit] = 0
        return board, player if pit == own_store else 1 - player, moves + 1

    def result(self, state):
        board = state[0]
        south, north = sum(board[1:8]), sum(board[8:14]) + board[0]
        winner = "south" if south > north else "north" if north > south else None
        return winner, {"south": south, "north": north}


class Amazons:
    """10 x 10: a turn is a queen's move of an amazon (`a4-a6`), then an arrow shot
    like a queen from where it landed (`@b7`). Who cannot move loses."""

    SIZE = 10

    def initial(self):
        board = {}
        for owner, sites in (("x", ["a4", "j4", "d1", "g1"]), ("o", ["a7", "j7", "d10", "g10"])):
            for site in sites:
                board[(FILES.index(site[0]), int(site[1:]) - 1)] = owner
        return board, "x", None, None

    def reach(self, board, square):
        out = []
        for d in LINES:
            at = step(square, d)
            while 0 <= at[0] < self.SIZE and 0 <= at[1] < self.SIZE and at not in board:
                out.append(at)
                at = step(at, d)
        return out

    def moves(self, state):
        board, player, shooter, _ = state
        if shooter is not None:
            return [(None, to) for to in self.reach(board, shooter)]
        return [(s, to) for s, owner in board.items() if owner == player for to in self.reach(board, s)]

    def notation(self, move):
        start, to = move
        return f"@{name(to)}" if start is None else f"{name(start)}-{name(to)}"

    def legal(self, state):
        if state[3] is not None:
            return []
        return sorted(self.notation(m) for m in self.moves(state))

    def apply(self, state, action):
        board, player, _, _ = state
        start, to = next(m for m in self.moves(state) if self.notation(m) == action)
        board = dict(board)
        if start is None:
            board[to] = "arrow"
            other = "o" if player == "x" else "x"
            state = board, other, None, None
            return state if self.moves(state) else (board, other, None, player)
        board[to] = board.pop(start)
        return board, player, to, None

    def result(self, state):
        return state[3], None


class ConnectFour:
    """7 x 6; a disc falls to the lowest empty cell of its column (`@d1`, the
    cell); four in a row wins, a full board draws."""

    def initial(self):
        return {}, "x", None

    def legal(self, state):
        board, _, winner = state
        if winner is not None:
            return []
        cells = [(f, min(r for r in range(6) if (f, r) not in board)) for f in range(7)
                 if any((f, r) not in board for r in range(6))]
        return sorted("@" + name(c) for c in cells)

    def run(self, board, cell, d):
        """The player's discs in a row from `cell` (not counted) in direction d."""
        count, at = 0, step(cell, d)
        while board.get(at) == board[cell]:
            count, at = count + 1, step(at, d)
        return count

    def apply(self, state, action):
        board, player, _ = state
        board = dict(board)
        cell = (FILES.index(action[1]), int(action[2:]) - 1)
        board[cell] = player
        four = any(self.run(board, cell, d) + self.run(board, cell, (-d[0], -d[1])) >= 3
                   for d in [(1, 0), (0, 1), (1, 1), (1, -1)])
        winner = player if four else ("draw" if len(board) == 42 else None)
        return board, "o" if player == "x" else "x", winner

    def result(self, state):
        return (None if state[2] == "draw" else state[2]), None


@pytest.mark.parametrize("example,reference", [
    ("reversi", Reversi()), ("checkers", Draughts()), ("hex", Hex()),
    ("kalah", Kalah()), ("amazons", Amazons()), ("connect_four", ConnectFour())])
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
    ("reversi", [4, 12, 56, 244, 1396]), ("checkers", [7, 49, 302, 1469, 7361]), ("hex", [25, 600, 13800]),
    # OpenSpiel's counts: mancala; amazons in regelwerk's actions (a move, a shot).
    ("kalah", [6, 35, 185, 942, 4690]), ("amazons", [80, 2176, 168420]), ("connect_four", [7, 49, 343, 2401])])
def test_perft_of_the_examples(example, counts):
    game = load_game(str(EXAMPLES / example))
    assert perft(game, game.initial_state(), len(counts)) == counts


def test_kalah_last_seed_in_the_store_plays_again():
    game = load_game(str(EXAMPLES / "kalah"))
    # d1's four seeds go to e1, f1, g1 and the store h1.
    state = game.apply(game.initial_state(), "d1")
    assert game.to_move(state) == "south"
    assert [p.attributes["seeds"] for p in game.pieces(state) if p.site in ("d1", "e1", "h1", "g2")] == [0, 5, 1, 4]


def test_kalah_last_seed_in_an_empty_pit_takes_the_seeds_opposite():
    game = load_game(str(EXAMPLES / "kalah"))
    pits = {f"{f}{r}": ("neutral", "pit", {"seeds": 0}) for f in "bcdefg" for r in (1, 2)}
    pits["b1"] = ("neutral", "pit", {"seeds": 1})
    pits["c2"] = ("neutral", "pit", {"seeds": 5})
    pits["g2"] = ("neutral", "pit", {"seeds": 2})
    stores = {"h1": ("neutral", "store", {"seeds": 10}), "a2": ("neutral", "store", {"seeds": 0})}
    state = game.apply(game.make_state({**pits, **stores}, to_move="south"), "b1")
    seeds = {p.site: p.attributes["seeds"] for p in game.pieces(state)}
    assert seeds["c1"] == 0 and seeds["c2"] == 0 and seeds["h1"] == 16
    # South's pits are empty now: the game is over, North has the seeds on its side.
    assert game.result(state).scores == {"south": 16, "north": 2}
