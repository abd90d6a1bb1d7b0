"""Battleship against OpenSpiel's battleship, move by move.

python benchmarks/outsiders/battleship/agree.py --games 300 --seed 1
python benchmarks/outsiders/battleship/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/battleship/agree.py perft --depth 2 --random-plies 10
python benchmarks/outsiders/battleship/agree.py --option board_width=3 --option board_height=3 \
    --option 'ship_sizes=[2;3]' --option 'ship_values=[1.0;1.0]' --option num_shots=4

OpenSpiel numbers its actions: a shot at (row, col) is row * W + col, a ship placed
along a row with its top-left corner there W * H more, along a column 2 * W * H more.
The definition's seas lie one above the other (pl0's on ranks 1..H, pl1's on
H + 1..2H): OpenSpiel's (row, col) of player P's sea is file col + 1, rank
P * H + row + 1. A placement is `h` or `v` and the cell (`hb3`, on the placing
player's sea), a shot the cell of the other's sea (`c14`).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def cell(width: int, height: int, player: int, index: int) -> str:
    row, col = divmod(index, width)
    return f"{chr(ord('a') + col)}{player * height + row + 1}"


def write(state, action: int) -> str:
    params = state.get_game().get_parameters()
    width, height = params["board_width"], params["board_height"]
    player = state.current_player()
    area = width * height
    if action < area:
        return cell(width, height, 1 - player, action)
    if action < 2 * area:
        return "h" + cell(width, height, player, action - area)
    return "v" + cell(width, height, player, action - 2 * area)


if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "battleship", write, check_end=oracle.same_returns))
