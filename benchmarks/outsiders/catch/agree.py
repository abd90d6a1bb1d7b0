"""Catch against OpenSpiel's catch, move by move.

python benchmarks/outsiders/catch/agree.py --games 1000 --seed 1
python benchmarks/outsiders/catch/agree.py --games 300 --seed 2 --option rows=7 --option columns=8
python benchmarks/outsiders/catch/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/catch/agree.py perft --depth 8
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import main, same_score  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def write(state, action: int) -> str:
    if state.is_chance_node():
        # OpenSpiel's outcome is the ball's column (from 0); here the site of the top
        # row, whose rank is the number of rows.
        rows = state.get_game().get_parameters()["rows"]
        return f"ball:{chr(ord('a') + action)}{rows}"
    return state.action_to_string(state.current_player(), action)   # LEFT, STAY, RIGHT


if __name__ == "__main__":
    sys.exit(main(HERE, "catch", write, check_end=same_score))
