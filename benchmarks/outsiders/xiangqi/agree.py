"""Xiangqi against OpenSpiel's xiangqi, move by move.

python benchmarks/outsiders/xiangqi/agree.py --games 300 --seed 1
python benchmarks/outsiders/xiangqi/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/xiangqi/agree.py perft --depth 3
python benchmarks/outsiders/xiangqi/agree.py perft --depth 3 --random-plies 30

OpenSpiel writes an action as the piece and the two points, `S(6,0)-(5,0)` (row 0 on
Black's side, column 0-8). The definition writes the two points, column as file a-i
and row r as rank 10 - r: `a4a5`.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROWS = 10
MOVE = re.compile(r"[A-Za-z]\((\d),(\d)\)-\((\d),(\d)\)")


def point(row: str, column: str) -> str:
    return f"{'abcdefghi'[int(column)]}{ROWS - int(row)}"


def write(state, action: int) -> str:
    text = state.action_to_string(state.current_player(), action)
    found = MOVE.fullmatch(text)
    if found is None:
        raise ValueError(f"not an OpenSpiel xiangqi move: {text!r}")
    return point(found[1], found[2]) + point(found[3], found[4])


if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "xiangqi", write))
