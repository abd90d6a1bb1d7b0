"""Othello against OpenSpiel's othello (8x8), move by move.

python benchmarks/outsiders/othello/agree.py --games 300 --seed 1
python benchmarks/outsiders/othello/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/othello/agree.py perft --depth 5
python benchmarks/outsiders/othello/agree.py perft --depth 5 --random-plies 20

The definition keeps OpenSpiel's site names (`d3`: file d, OpenSpiel's row 3 as rank
3) and its `pass`: the notation is OpenSpiel's action string.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def write(state, action: int) -> str:
    return state.action_to_string(state.current_player(), action)


if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "othello", write))
