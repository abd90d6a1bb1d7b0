"""Morpion solitaire (4D) against OpenSpiel's morpion_solitaire, move by move.

python benchmarks/outsiders/morpion_solitaire/agree.py --games 300 --seed 1
python benchmarks/outsiders/morpion_solitaire/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/morpion_solitaire/agree.py perft --depth 3
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import main, same_score  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# OpenSpiel's step from a line's first point (row, column) to the next.
DIRECTIONS = {(0, 1): "e", (1, 0): "n", (1, 1): "ne", (1, -1): "nw"}


def write(state, action: int) -> str:
    # OpenSpiel writes the line's four points "[x,y] " sorted (row x, column y); the
    # first is the line's start here, file y + 1 and rank x + 1.
    points = [(int(x), int(y)) for x, y in re.findall(r"\[(\d+),(\d+)\]", state.action_to_string(0, action))]
    (x0, y0), (x1, y1) = points[0], points[1]
    return f"{chr(ord('a') + y0)}{x0 + 1}:{DIRECTIONS[(x1 - x0, y1 - y0)]}"


if __name__ == "__main__":
    sys.exit(main(HERE, "morpion_solitaire", write, check_end=same_score))
