"""Nim against OpenSpiel's nim, move by move.

python benchmarks/outsiders/nim/agree.py --games 300 --seed 1
python benchmarks/outsiders/nim/agree.py --games 300 --seed 2 --option is_misere=false
python benchmarks/outsiders/nim/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/nim/agree.py perft --depth 5
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def write(state, action: int) -> str:
    # OpenSpiel writes "pile:2, take:3;"; a notation is one word (format.md 3.8).
    return state.action_to_string(state.current_player(), action).replace(" ", "")


if __name__ == "__main__":
    sys.exit(main(HERE, "nim", write))
