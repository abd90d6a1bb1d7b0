"""Pentago against OpenSpiel's pentago, move by move.

python benchmarks/outsiders/pentago/agree.py --games 300 --seed 1
python benchmarks/outsiders/pentago/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/pentago/agree.py perft --depth 2

OpenSpiel writes its actions as the definition does (`a1s`: a marble on a1, then the
turn `s`), with the same site names: the notation is OpenSpiel's action string.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def write(state, action: int) -> str:
    return state.action_to_string(state.current_player(), action)


if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "pentago", write))
