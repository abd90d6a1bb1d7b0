"""Nine men's morris against OpenSpiel's nine_mens_morris, move by move.

python benchmarks/outsiders/nine_mens_morris/agree.py --games 300 --seed 1
python benchmarks/outsiders/nine_mens_morris/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/nine_mens_morris/agree.py perft --depth 3
python benchmarks/outsiders/nine_mens_morris/agree.py perft --depth 4 --random-plies 40
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from oracle import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# OpenSpiel's points 0..23, row by row from the top, as the definition names them.
POINTS = ["a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4",
          "e4", "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1"]


def write(state, action: int) -> str:
    # "Point 5" places a man, or removes one after a mill (OpenSpiel's state says which);
    # "Move 3 -> 4" (action 24 + 24 * from + to) moves or flies one.
    if action >= 24:
        source, dest = divmod(action - 24, 24)
        return f"{POINTS[source]}-{POINTS[dest]}"
    if str(state).rstrip().endswith("Capture time!"):
        return f"x{POINTS[action]}"
    return f"@{POINTS[action]}"


if __name__ == "__main__":
    sys.exit(main(HERE, "nine_mens_morris", write))
