"""How a regelwerk notation and an OpenSpiel move name the same move.

Each adapter maps both sides to a common *key*: a position's legal moves agree when
the two sets of keys are equal. A move is usually one OpenSpiel action; where
OpenSpiel splits what regelwerk plays as one action (an amazon is chosen, then
moved), it is the sequence of OpenSpiel actions. Everything game-specific about the
comparison lives here, in one place: the notation mappings and OpenSpiel's player
numbers.
"""
from __future__ import annotations

import re


class Adapter:
    """Identity mapping: both sides write moves the same way."""

    # OpenSpiel's name for the game, played with its default parameters but for
    # `spiel_params`.
    spiel_name = ""
    spiel_params: dict = {}
    # OpenSpiel's player number of each regelwerk player (index), when they differ.
    spiel_players: tuple[int, ...] = (0, 1)

    def __init__(self, spiel_name: str, **spiel_params) -> None:
        self.spiel_name = spiel_name
        self.spiel_params = spiel_params

    def start(self, game, spiel_game, position: str | None = None):
        """OpenSpiel's state, regelwerk's state and the tracker (per-game bookkeeping
        of a game in progress: python-chess's board) at the start, or at a
        `position` written as the game's adapter reads it."""
        if position is not None:
            raise ValueError(f"{self.spiel_name}: no positions other than the start")
        return spiel_game.new_initial_state(), game.engine.initial_state(), None

    def spiel_moves(self, spiel_state) -> list[tuple[int, ...]]:
        """OpenSpiel's legal moves, each the sequence of actions regelwerk plays as one."""
        return [(action,) for action in spiel_state.legal_actions()]

    def spiel_key(self, tracker, spiel_state, move: tuple[int, ...]) -> str:
        return spiel_state.action_to_string(spiel_state.current_player(), move[0])

    def regel_key(self, notation: str) -> str:
        return notation

    def regel_moves(self, engine, state) -> dict[str, tuple]:
        """regelwerk's legal moves by key, each the sequence of action codes that
        makes the move (one code, unless regelwerk plays an OpenSpiel action as
        several: backgammon's two checker moves)."""
        keys: dict[str, tuple] = {}
        for code in engine.legal(state):
            key = self.regel_key(engine.notation(code))
            if key in keys:
                raise ValueError(f"two regelwerk actions have the key {key!r}")
            keys[key] = (code,)
        return keys

    def spiel_applied(self, tracker, spiel_state, action: int) -> None:
        """Called before `action` is applied to `spiel_state`."""

    def board_text(self, spiel_state) -> str | None:
        """OpenSpiel's board alone, for a game that ends when a board recurs
        whoever is to move; None for the others."""
        return None


class Turns(Adapter):
    """OpenSpiel's action is a turn of several regelwerk decisions (Pentago: a
    marble placed, then a quarter turned): the key is their notations joined
    (`a1` and `s`: `a1s`). A definition that plays the turn as one action is keyed
    by its notation, as the identity adapter does."""

    def regel_moves(self, engine, state):
        keys: dict[str, tuple] = {}
        for key, codes in self._turns(engine, state, (), ""):
            if key in keys:
                raise ValueError(f"two regelwerk moves have the key {key!r}")
            keys[key] = codes
        return keys

    def _turns(self, engine, state, codes: tuple, text: str):
        player = engine.to_move(state)
        for code in engine.legal(state):
            after = engine.copy(state)
            # (a position where another player acts, or the game is over, ends the
            # turn: it is not listed — perft's last level would list every one)
            engine.apply_in_place(after, code, settle=False)
            notation = text + engine.notation(code)
            if after.result is None and engine.actor(after) == player and engine.to_move(after) == player:
                yield from self._turns(engine, after, codes + (code,), notation)
            else:
                yield notation, codes + (code,)

    def regel_depth(self, engine, spiel_depth: int) -> int:
        """regelwerk's perft depth for OpenSpiel's: the decisions of a turn each."""
        start = engine.initial_state()
        return spiel_depth * len(engine.phases[start.phase].turn)


class ConnectFour(Adapter):
    """OpenSpiel names a column by player symbol and number (`x3`); regelwerk drops
    on the landing site (`@d1`): the key is the file."""

    def spiel_key(self, tracker, spiel_state, move):
        return "abcdefg"[move[0]]

    def regel_key(self, notation):
        return notation[1]


def _site(row: int, column: int, rows: int) -> str:
    """A site from OpenSpiel's 0-based row (0 at the top) and column."""
    return f"{chr(ord('a') + column)}{rows - row}"


class Amazons(Adapter):
    """OpenSpiel plays a turn as three actions: `X From (7, 1)`, `X To (5, 1)`,
    `X Shoot: (4, 2)` (1-based row from the top, column); regelwerk as two: the
    move `a4-a6` and the shot `@b7`. An OpenSpiel choice and move together are one
    move, keyed as regelwerk writes it."""

    _COORD = re.compile(r"\((\d+), (\d+)\)")

    def _site_of(self, spiel_state, action: int) -> str:
        text = spiel_state.action_to_string(spiel_state.current_player(), action)
        row, column = self._COORD.search(text).groups()
        return _site(int(row) - 1, int(column) - 1, 10)

    def _choosing(self, spiel_state) -> bool:
        legal = spiel_state.legal_actions()
        return bool(legal) and "From" in spiel_state.action_to_string(spiel_state.current_player(), legal[0])

    def spiel_moves(self, spiel_state):
        if not self._choosing(spiel_state):
            return super().spiel_moves(spiel_state)
        return [(chosen, to) for chosen in spiel_state.legal_actions()
                for to in spiel_state.child(chosen).legal_actions()]

    def spiel_key(self, tracker, spiel_state, move):
        if len(move) == 1:
            return "@" + self._site_of(spiel_state, move[0])
        return f"{self._site_of(spiel_state, move[0])}-{self._site_of(spiel_state.child(move[0]), move[1])}"


class Kalah(Adapter):
    """OpenSpiel numbers the pits 1..6 (South, west to east) and 8..13 (North, east
    to west); regelwerk selects the pit's site (b1..g1, g2..b2)."""

    def spiel_key(self, tracker, spiel_state, move):
        pit = move[0]
        if pit <= 6:
            return f"{chr(ord('a') + pit)}1"
        return f"{chr(ord('a') + 14 - pit)}2"


# OpenSpiel's points 0..23, read row by row from the top left, as morris sites.
MORRIS_POINTS = (
    "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1".split()
)


class Morris(Adapter):
    """OpenSpiel: `Point 3` (a placement or a removal), `Move 0 -> 1`; regelwerk:
    `@b6`, `xb6`, `a7-d7`."""

    def spiel_key(self, tracker, spiel_state, move):
        text = super().spiel_key(tracker, spiel_state, move)
        numbers = [MORRIS_POINTS[int(n)] for n in re.findall(r"\d+", text)]
        return "-".join(numbers)

    def regel_key(self, notation):
        return notation.lstrip("@x")


class Chess(Adapter):
    """OpenSpiel writes SAN (`Nf3`, `O-O`, `e8=Q`, a drop `N@f3`); regelwerk writes
    UCI (`g1f3`, `e1g1`, `e7e8q`, `N@f3`). A python-chess board (of the variant's
    class: `board` names it in `chess.variant`) follows the game to translate."""

    # OpenSpiel's chess numbers Black 0 and White 1.
    spiel_players = (1, 0)

    def __init__(self, spiel_name: str, board: str = "", **spiel_params) -> None:
        super().__init__(spiel_name, **spiel_params)
        self.board = board
        # OpenSpiel's crazyhouse writes a promoted piece with a letter of its own.
        self.letters_promoted = board == "CrazyhouseBoard"

    def tracker(self, fen: str | None = None):
        """A python-chess board of this game, at the start or at `fen`."""
        import chess
        import chess.variant

        board = getattr(chess.variant, self.board) if self.board else chess.Board
        return board() if fen is None else board(fen)

    def start(self, game, spiel_game, position=None):
        """`position`: a FEN (its position has no history: repetitions count from it)."""
        if position is None:
            return spiel_game.new_initial_state(), game.engine.initial_state(), self.tracker()
        return spiel_game.new_initial_state(position), chess_state_from_fen(game, position), self.tracker(position)

    def spiel_key(self, tracker, spiel_state, move):
        san = spiel_state.action_to_string(spiel_state.current_player(), move[0])
        return self.parse_san(tracker, san).uci()

    def spiel_applied(self, tracker, spiel_state, action):
        tracker.push(self.parse_san(tracker, spiel_state.action_to_string(spiel_state.current_player(), action)))

    # OpenSpiel's crazyhouse writes a promoted piece with a letter of its own.
    _PROMOTED = {"E": "Q", "C": "R", "A": "B", "H": "N"}
    _SAN = re.compile(r"^([KQRBNECAH])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([QRBNK]))?[+#]?$")

    def parse_san(self, tracker, san: str):
        """python-chess's move for OpenSpiel's SAN, resolved here rather than by
        python-chess: OpenSpiel's crazyhouse tells promoted pieces (`Exb2`, a queen
        that was a pawn) from others, and its antichess counts an en-passant capture
        as a quiet move, so that python-chess's antichess calls some of its moves
        illegal."""
        import chess

        found = self._SAN.match(san)
        if found is None:  # castling, a drop
            return tracker.parse_san(san)
        letter, file, rank, square, promotion = found.groups()
        promoted = letter in self._PROMOTED
        kind = chess.Piece.from_symbol(self._PROMOTED.get(letter, letter)).piece_type if letter else chess.PAWN
        to = chess.parse_square(square)
        promote_to = chess.Piece.from_symbol(promotion).piece_type if promotion else None

        def matching(moves):
            return [
                m for m in moves
                if m.to_square == to and m.drop is None and m.promotion == promote_to
                and tracker.piece_type_at(m.from_square) == kind
                and (not self.letters_promoted
                     or bool(tracker.promoted & chess.BB_SQUARES[m.from_square]) == promoted)
                and (file is None or chess.square_file(m.from_square) == ord(file) - ord("a"))
                and (rank is None or chess.square_rank(m.from_square) == int(rank) - 1)
            ]

        candidates = matching(tracker.legal_moves) or matching(tracker.generate_pseudo_legal_moves())
        if len(candidates) != 1:
            raise ValueError(f"OpenSpiel's {san!r} is {len(candidates)} python-chess moves here")
        return candidates[0]


def chess_state_from_fen(game, fen: str):
    """The regelwerk chess position of a FEN (for perft from the standard test
    positions): a castling right is a rook's `castling` flag, the en-passant square
    the `en_passant` flag of the pawn that just stepped over it. The position has
    no history (threefold repetition counts from here)."""
    import chess

    board = chess.Board(fen)
    names = {chess.WHITE: "white", chess.BLACK: "black"}
    pieces = {}
    for square, piece in board.piece_map().items():
        attributes = {}
        if piece.piece_type == chess.ROOK and board.castling_rights & chess.BB_SQUARES[square]:
            attributes["castling"] = True
        pieces[chess.square_name(square)] = (names[piece.color], chess.piece_name(piece.piece_type), attributes)
    if board.ep_square is not None:
        behind = board.ep_square + (8 if board.turn == chess.BLACK else -8)
        pieces[chess.square_name(behind)][2]["en_passant"] = True
    return game.make_state(pieces, to_move=names[board.turn], variables={"quiet": board.halfmove_clock})


def _grid_site(column: int, row: int) -> str:
    """The grid site of a 0-based column and row (row 0 is rank 1)."""
    return f"{chr(ord('a') + column)}{row + 1}"


class LinesOfAction(Adapter):
    """Both write `b1-b3`, `c1xa3`; OpenSpiel ends the game when a board recurs."""

    def board_text(self, spiel_state):
        # The board, then the player to move.
        return str(spiel_state).split("\n\n", 1)[0]


class Xiangqi(Adapter):
    """OpenSpiel: `R(9,0)-(8,0)` (the piece, then row and column from Black's back
    rank); regelwerk: `a1a2` (Red's back rank is rank 1)."""

    _MOVE = re.compile(r"\((\d+),(\d+)\)-\((\d+),(\d+)\)")

    def spiel_key(self, tracker, spiel_state, move):
        text = super().spiel_key(tracker, spiel_state, move)
        fr, fc, tr, tc = (int(n) for n in self._MOVE.search(text).groups())
        return _grid_site(fc, 9 - fr) + _grid_site(tc, 9 - tr)


class Go(Adapter):
    """OpenSpiel numbers the points row by row from a1 (`B a1`; its letters skip
    `i`), the pass after them; regelwerk writes the point (`a1`, `j` is `i`) or
    `pass`."""

    def board_text(self, spiel_state):
        # Its first line says whose turn it is and how long the game has been.
        return str(spiel_state).split("\n", 1)[1]

    def spiel_key(self, tracker, spiel_state, move):
        size = self.spiel_params.get("board_size", 19)
        action = move[0]
        if action == size * size:
            return "pass"
        return _grid_site(action % size, action // size)


class Quoridor(Adapter):
    """OpenSpiel names a pawn's square (`e8`) and a wall by its first square and
    h or v (`e3h`); regelwerk plays on OpenSpiel's 17x17 grid of squares and gaps:
    the square's site (`i15`) and the wall's middle point (`j6h`)."""

    _MOVE = re.compile(r"^([a-z])(\d+)([hv]?)$")

    def spiel_key(self, tracker, spiel_state, move):
        text = super().spiel_key(tracker, spiel_state, move)
        letter, number, wall = self._MOVE.match(text).groups()
        column, row = 2 * (ord(letter) - ord("a")), 2 * (int(number) - 1)
        if wall:  # the wall's middle: one gap right of and above its first square
            return _grid_site(column + 1, row + 1) + wall
        return _grid_site(column, row)


# OpenSpiel's backgammon: its chance outcomes (the first roll: outcome 2k is x's
# start with the dice of 2k, 2k + 1 o's).
BACKGAMMON_ROLLS = (
    (1, 2), (2, 1), (1, 3), (3, 1), (1, 4), (4, 1), (1, 5), (5, 1), (1, 6), (6, 1),
    (2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (5, 2), (2, 6), (6, 2), (3, 4), (4, 3),
    (3, 5), (5, 3), (3, 6), (6, 3), (4, 5), (5, 4), (4, 6), (6, 4), (5, 6), (6, 5),
    (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6),
)


class Backgammon(Adapter):
    """OpenSpiel plays a move as one action of two checker moves (a double's four
    as two actions); regelwerk as two actions, one per checker: the key is both
    checkers' moves in order, `p1-p4 p4-p7`, `bar_x-p3 pass`, `p20-off:h p21-off:l`
    (bearing off with the high or the low die), `pass pass`; a move that wins with
    its first checker is `p24-off:h pass`. A bearing-off written with the die's
    value (`p20-off:6`) is keyed by whether it is the high or the low die of the
    roll OpenSpiel's position just keyed shows (the oracle keys OpenSpiel's moves
    first). A roll is keyed as regelwerk's chance notation (`roll:35`, the first
    roll `start:35` for x, `start:135` for o); OpenSpiel's two orders of one roll
    are one outcome."""

    _PASS, _BAR = 25, 24
    _OFF = re.compile(r"-off:(\d+)$")
    _dice: tuple[int, int] = (0, 0)  # (high, low) of the position keyed last

    def spiel_moves(self, spiel_state):
        if not spiel_state.is_chance_node():
            return super().spiel_moves(spiel_state)
        seen: dict[str, tuple[int, ...]] = {}
        for action in spiel_state.legal_actions():
            seen.setdefault(self.spiel_key(None, spiel_state, (action,)), (action,))
        return list(seen.values())

    def spiel_key(self, tracker, spiel_state, move):
        action = move[0]
        if spiel_state.is_chance_node():
            text = spiel_state.action_to_string(spiel_state.current_player(), action)
            low, high = sorted(BACKGAMMON_ROLLS[action])
            if "starts" in text:  # o starts on an odd outcome
                return f"start:{(100 if action % 2 else 0) + 10 * low + high}"
            return f"roll:{low}{high}"
        player = spiel_state.current_player()
        dice = [int(v) for v in spiel_state.observation_tensor(player)[-2:]]
        high, low = max(dice), min(dice)
        self._dice = (high, low)
        high_first = action < 676
        digits = (action % 676 % 26, action % 676 // 26)
        moves = []
        for i, digit in enumerate(digits):
            if digit == self._PASS:
                moves.append("pass")
                continue
            die = high if (i == 0) == high_first else low
            start = ("bar_x", "bar_o")[player] if digit == self._BAR else f"p{digit + 1}"
            if digit == self._BAR:
                end = die - 1 if player == 0 else 24 - die
            else:
                end = digit + die if player == 0 else digit - die
            landing = f"p{end + 1}" if 0 <= end <= 23 else "off:" + ("h" if die == high else "l")
            moves.append(f"{start}-{landing}")
        return " ".join(moves)

    def regel_moves(self, engine, state):
        from interpreter.runtime.pieces import CHANCE

        if engine.to_move(state) == CHANCE:
            return super().regel_moves(engine, state)
        keys: dict[str, tuple] = {}
        for first in engine.legal(state):
            after = engine.copy(state)
            engine.apply_in_place(after, first)
            pairs = [((first, second), f"{self.regel_key(engine.notation(first))} "
                                       f"{self.regel_key(engine.notation(second))}") for second in engine.legal(after)]
            if engine.is_over(after):  # the first checker won: OpenSpiel's second move is a pass
                pairs = [((first,), f"{self.regel_key(engine.notation(first))} pass")]
            for codes, key in pairs:
                if key in keys:
                    raise ValueError(f"two regelwerk moves have the key {key!r}")
                keys[key] = codes
        return keys

    def regel_key(self, notation):
        found = self._OFF.search(notation)
        if found is None:
            return notation
        high, low = self._dice
        die = int(found.group(1))
        return notation[:found.start()] + "-off:" + ("h" if die == high else "l" if die == low else str(die))
