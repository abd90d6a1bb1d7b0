"""Chess960 against OpenSpiel's chess(chess960=true), move by move.

python benchmarks/outsiders/chess960/agree.py --games 300 --seed 1
python benchmarks/outsiders/chess960/agree.py starts
python benchmarks/outsiders/chess960/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/chess960/agree.py perft --depth 3 --record 518
python benchmarks/outsiders/chess960/agree.py --first-form speed   (any mode: the first form)

The definition writes a move as OpenSpiel's long algebraic notation (`e2e4`, `e7e8q`),
a castling as OpenSpiel's SAN (`O-O`, `O-O-O`: OpenSpiel's actions 4673 and 4672, which
are not the king's step to its square), and the drawn start as `start:N`, N being
OpenSpiel's chance outcome (its index into its list of start positions).
"""

import os
import sys

import pyspiel
from pyspiel import chess

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OS_NAME = "chess"
OS_PARAMS = {"chess960": True}
CASTLING = {4672: "O-O-O", 4673: "O-O"}


def write(state, action: int) -> str:
    if state.is_chance_node():
        return f"start:{action}"
    if action in CASTLING:
        return CASTLING[action]
    return chess.action_to_move(action, state.board()).to_lan()


def compare_starts(definition: str) -> int:
    """Every start position: the board after each chance outcome, as text, and the
    legal moves there."""
    from interpreter import load_game
    rw_game = load_game(definition)
    os_game = pyspiel.load_game(OS_NAME, OS_PARAMS)
    symbols = {"king": "k", "queen": "q", "rook": "r", "bishop": "b", "knight": "n", "pawn": "p"}
    problems = 0
    for outcome in range(960):
        os_state = os_game.new_initial_state()
        os_state.apply_action(outcome)
        rw_state = rw_game.apply(rw_game.initial_state(), f"start:{outcome}")
        fen_rows = str(os_state).split()[0].split("/")
        board = {view.site: view for view in rw_game.pieces(rw_state)}
        mine_rows = []
        for rank in range(8, 0, -1):
            row = ""
            for file in "abcdefgh":
                piece = board.get(f"{file}{rank}")
                if piece is None:
                    row += "."
                else:
                    letter = symbols[piece.kind]
                    row += letter.upper() if piece.owner == "white" else letter
            mine_rows.append(row)
        theirs = ["".join("." * int(c) if c.isdigit() else c for c in row) for row in fen_rows]
        legal_theirs = sorted(write(os_state, a) for a in os_state.legal_actions())
        legal_mine = sorted(rw_game.legal_notations(rw_state))
        if theirs != mine_rows or legal_theirs != legal_mine:
            problems += 1
            print(f"start {outcome}: OpenSpiel {theirs} {legal_theirs}\n  regelwerk {mine_rows} {legal_mine}")
    print(f"960 starts compared: {problems} disagreements")
    return 1 if problems else 0


if __name__ == "__main__":
    argv = sys.argv[1:]
    definition = HERE
    if "--first-form" in argv:
        argv.remove("--first-form")
        definition = os.path.join(HERE, "first_form")
    if argv[:1] == ["starts"]:
        sys.exit(compare_starts(definition))
    sys.exit(oracle.main(definition, OS_NAME, write, argv, os_params=OS_PARAMS))
