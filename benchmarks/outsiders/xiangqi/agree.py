"""Xiangqi against OpenSpiel's xiangqi, move by move.

python benchmarks/outsiders/xiangqi/agree.py --games 300 --seed 1
python benchmarks/outsiders/xiangqi/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/xiangqi/agree.py perft --depth 3
python benchmarks/outsiders/xiangqi/agree.py perft --depth 3 --random-plies 30

OpenSpiel's action is from * 90 + to, a point being row * 9 + column with row 0 on
Black's side; its string is `S(6,0)-(5,0)`. The definition writes the two points,
column as file a-i and row r as rank 10 - r: `a4a5`.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CELLS = 90
COLUMNS = 9
ROWS = 10


def point(index: int) -> str:
    row, column = divmod(index, COLUMNS)
    return f"{'abcdefghi'[column]}{ROWS - row}"


def write(state, action: int) -> str:
    origin, target = divmod(action, CELLS)
    return point(origin) + point(target)


if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "xiangqi", write))
