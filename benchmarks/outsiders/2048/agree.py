"""2048 against OpenSpiel's 2048, move by move.

python benchmarks/outsiders/2048/agree.py --games 300 --seed 1
python benchmarks/outsiders/2048/agree.py --games 100 --seed 2 --option max_tile=64
python benchmarks/outsiders/2048/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/2048/agree.py perft --depth 6
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import main, same_score  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROWS = COLUMNS = 4


def write(state, action: int) -> str:
    if state.is_chance_node():
        # OpenSpiel's outcome is (row * 4 + column) * 2 + (1 for a 4); here it is the
        # index of the cell among the empty ones (OpenSpiel's order) * 2 + (1 for a 4),
        # in the event for the number of empty cells.
        cell, four = divmod(action, 2)
        empty = [index for index, value in enumerate(board(state)) if value == 0]
        return f"tile{len(empty)}:{empty.index(cell) * 2 + four}"
    return state.action_to_string(state.current_player(), action).lower()   # up, right, ...


def board(state) -> list[int]:
    """The numbers on OpenSpiel's cells, its rows from the top."""
    return [int(value) for value in str(state).split()]


if __name__ == "__main__":
    sys.exit(main(HERE, "2048", write, check_end=same_score))
