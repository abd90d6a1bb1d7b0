"""Einstein würfelt nicht! against OpenSpiel's einstein_wurfelt_nicht, move by move.

python benchmarks/outsiders/einstein/agree.py --games 200 --seed 1
python benchmarks/outsiders/einstein/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/einstein/agree.py perft --depth 11 --record 0,719
"""

import os
import sys
from itertools import permutations

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ARRANGEMENTS = ["".join(map(str, p)) for p in permutations(range(1, 7))]  # OpenSpiel's order
# OpenSpiel's direction offsets (row, column), black's three then white's.
ROW_STEP = (1, 1, 0, -1, -1, 0)
COLUMN_STEP = (1, 0, 1, 0, -1, -1)


def site(row: int, column: int) -> str:
    return "abcde"[column] + str(row + 1)


def write(state, action: int) -> str:
    if state.is_chance_node():
        text = state.action_to_string(action)
        if text.startswith("roll"):
            return f"roll:{action + 1}"
        side = "black" if "black" in text else "white"
        return f"setup_{side}:{ARRANGEMENTS[action]}"
    # UnrankActionMixedBase over (rows, columns, directions, capture): the last varies fastest.
    action, _capture = divmod(action, 2)
    action, direction = divmod(action, 6)
    row, column = divmod(action, 5)
    return f"{site(row, column)}-{site(row + ROW_STEP[direction], column + COLUMN_STEP[direction])}"


if __name__ == "__main__":
    sys.exit(main(HERE, "einstein_wurfelt_nicht", write))
