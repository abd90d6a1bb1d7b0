"""A constant written to a piece's attribute that the piece holds already leaves
the piece as it is (statements._step_attribute): the same object on the board
(the board's key kept the same: tests/runtime/test_board_keys.py, chess's castling
flag cleared after every action); a piece not holding it gets it."""
from interpreter import load_game
from tests.helpers import play, stones_and_rocks, write_definition

RULES = """\
phase play:
    turn: move
decision move:
    action stone_move by stone:
        step orthogonal
        notation "{from}{to}"
        onto empty:
            move
            piece.marked = true
            piece.weight = 2
"""
SETUP = ("attributes:\n  marked: {type: flag}\n  weight: {type: int, default: 1}\n"
         "setup:\n  white:\n    stone: [a1]\n  black:\n    stone: [d4]\n")


def test_a_constant_the_piece_holds_already_is_not_written_again(tmp_path):
    game = load_game(write_definition(tmp_path, stones_and_rocks(extra=SETUP), RULES))
    state = play(game, "a1a2", "d4d3")
    moved = [piece for piece in state.board if piece is not None and piece[0] == 0][0]
    assert moved[3:] == (True, 2)  # (written: the stone held neither)
    state = play(game, "a2a3", state=state)
    again = [piece for piece in state.board if piece is not None and piece[0] == 0][0]
    assert again is moved  # (held both: the same piece, not a copy)
