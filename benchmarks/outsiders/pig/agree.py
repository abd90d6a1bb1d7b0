"""Pig against OpenSpiel's pig, move by move.

python benchmarks/outsiders/pig/agree.py --games 300 --seed 1
python benchmarks/outsiders/pig/agree.py --games 300 --seed 2 --option players=3 --option winscore=30
python benchmarks/outsiders/pig/agree.py --games 300 --seed 3 --option piglet=true --option winscore=20
python benchmarks/outsiders/pig/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/pig/agree.py perft --depth 12
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def write(state, action: int) -> str:
    if state.is_chance_node():
        # OpenSpiel's outcome x is the face x + 1 (piglet: 0 a one, 1 any other face).
        if state.get_game().get_parameters()["piglet"]:
            return f"piglet_roll:{action}"
        return f"roll:{action + 1}"
    return state.action_to_string(state.current_player(), action)   # roll, stop


if __name__ == "__main__":
    sys.exit(main(HERE, "pig", write))
