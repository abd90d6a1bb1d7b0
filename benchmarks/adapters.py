"""How a regelwerk notation and an OpenSpiel action name the same move.

Each adapter maps both sides to a common *key*: a position's legal moves agree when
the two sets of keys are equal. Everything game-specific about the comparison lives
here, in one place: the notation mappings and the few known differences that the
definition format forces (chess castling is two regelwerk actions; threefold
repetition is not detected).
"""
from __future__ import annotations

import re

_LAST_SITE = re.compile(r"[a-z]\d+(?!.*[a-z]\d)")


class Adapter:
    """Identity mapping: both sides write moves the same way."""

    # OpenSpiel's name for the game (always played with its default parameters).
    spiel_name = ""
    # Whether a regelwerk action may leave the same player a forced single action
    # where OpenSpiel has already passed the turn (chess castling's rook).
    forced_followups = False
    # OpenSpiel's player number of each regelwerk player (index), when they differ.
    spiel_players: tuple[int, ...] = (0, 1)

    def __init__(self, spiel_name: str) -> None:
        self.spiel_name = spiel_name

    def tracker(self):
        """Per-game bookkeeping of a game in progress (python-chess's board)."""
        return None

    def spiel_key(self, tracker, spiel_state, action: int) -> str:
        return spiel_state.action_to_string(spiel_state.current_player(), action)

    def regel_key(self, notation: str) -> str:
        return notation

    def spiel_applied(self, tracker, spiel_state, action: int) -> None:
        """Called before `action` is applied to `spiel_state`."""

    def tolerated_end(self, tracker, spiel_state) -> str | None:
        """Why OpenSpiel ended the game by a rule the regelwerk definition cannot
        state (then the game stops being compared), or None."""
        return None


class ConnectFour(Adapter):
    """OpenSpiel names a column by player symbol and number (`x3`); regelwerk drops
    on the landing site (`@d1`): the key is the file."""

    def spiel_key(self, tracker, spiel_state, action):
        return "abcdefg"[action]

    def regel_key(self, notation):
        return notation[1]


def _site(row: int, column: int, rows: int) -> str:
    """A site from OpenSpiel's 0-based row (0 at the top) and column."""
    return f"{chr(ord('a') + column)}{rows - row}"


class Amazons(Adapter):
    """OpenSpiel: `X From (7, 1)` (1-based row from the top, column); regelwerk:
    `a4`, `a4-a5`, `@a5`: the key is the site chosen, reached or shot at."""

    _COORD = re.compile(r"\((\d+), (\d+)\)")

    def spiel_key(self, tracker, spiel_state, action):
        row, column = self._COORD.search(super().spiel_key(tracker, spiel_state, action)).groups()
        return _site(int(row) - 1, int(column) - 1, 10)

    def regel_key(self, notation):
        return _LAST_SITE.search(notation).group(0)


class Kalah(Adapter):
    """OpenSpiel numbers the pits 1..6 (South, west to east) and 8..13 (North, east
    to west); regelwerk selects the pit's site (a1..f1, f2..a2)."""

    def spiel_key(self, tracker, spiel_state, action):
        if action <= 6:
            return f"{chr(ord('a') + action - 1)}1"
        return f"{chr(ord('a') + 13 - action)}2"


# OpenSpiel's points 0..23, read row by row from the top left, as morris sites.
MORRIS_POINTS = (
    "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1".split()
)


class Morris(Adapter):
    """OpenSpiel: `Point 3` (a placement or a removal), `Move 0 -> 1`; regelwerk:
    `@b6`, `xb6`, `a7-d7`."""

    def spiel_key(self, tracker, spiel_state, action):
        text = super().spiel_key(tracker, spiel_state, action)
        numbers = [MORRIS_POINTS[int(n)] for n in re.findall(r"\d+", text)]
        return "-".join(numbers)

    def regel_key(self, notation):
        return notation.lstrip("@x")


class Chess(Adapter):
    """OpenSpiel writes SAN (`Nf3`, `O-O`); regelwerk writes UCI (`g1f3`, `e1g1`,
    then the rook's `h1f1` as a second action). A python-chess board follows the
    game to translate."""

    forced_followups = True
    # OpenSpiel's chess numbers Black 0 and White 1.
    spiel_players = (1, 0)

    def tracker(self):
        import chess

        return chess.Board()

    def spiel_key(self, tracker, spiel_state, action):
        san = spiel_state.action_to_string(spiel_state.current_player(), action)
        return tracker.parse_san(san).uci()

    def spiel_applied(self, tracker, spiel_state, action):
        tracker.push_san(spiel_state.action_to_string(spiel_state.current_player(), action))

    def tolerated_end(self, tracker, spiel_state):
        if tracker.is_repetition(3):
            return "threefold repetition"
        if tracker.halfmove_clock >= 100 and tracker.is_checkmate():
            return "mate on the 100th quiet ply"
        return None


def chess_state_from_fen(game, fen: str):
    """The regelwerk chess position of a FEN (for perft from the standard test
    positions): castling rights become unmoved kings and rooks, the en-passant
    square a pawn whose double step was the last ply."""
    import chess

    board = chess.Board(fen)
    names = {chess.WHITE: "white", chess.BLACK: "black"}
    pieces = {}
    for square, piece in board.piece_map().items():
        kind = chess.piece_name(piece.piece_type)
        attributes = {}
        if piece.piece_type == chess.KING:
            attributes["moved"] = not board.has_castling_rights(piece.color)
        elif piece.piece_type == chess.ROOK:
            attributes["moved"] = not board.castling_rights & chess.BB_SQUARES[square]
        pieces[chess.square_name(square)] = (names[piece.color], kind, attributes)
    ply = 2
    if board.ep_square is not None:
        # The pawn that just stepped over the en-passant square.
        behind = board.ep_square + (8 if board.turn == chess.BLACK else -8)
        pieces[chess.square_name(behind)][2]["skipped"] = ply - 1
    return game.make_state(pieces, to_move=names[board.turn],
                           variables={"ply": ply, "quiet": board.halfmove_clock})
