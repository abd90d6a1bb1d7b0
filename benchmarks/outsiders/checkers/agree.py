"""Checkers against OpenSpiel's checkers (8x8), move by move.

python benchmarks/outsiders/checkers/agree.py --games 300 --seed 1
python benchmarks/outsiders/checkers/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/checkers/agree.py perft --depth 6

The definition writes its actions as OpenSpiel does (`a3b4`, a jump `c3e5`, one
action per jump): the notation is OpenSpiel's action string.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def write(state, action: int) -> str:
    return state.action_to_string(state.current_player(), action)


if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "checkers", write))
