"""Random games of dots_and_boxes on regelwerk and OpenSpiel, compared position by position.

    python benchmarks/outsiders/dots_and_boxes/agree.py --games 200 --seed 1
    python benchmarks/outsiders/dots_and_boxes/agree.py speed --seconds 3 --rounds 3
    python benchmarks/outsiders/dots_and_boxes/agree.py perft --depth 6
    python benchmarks/outsiders/dots_and_boxes/agree.py --games 200 --seed 5 \
        --option num_rows=2 --option num_cols=3 --openspiel num_rows=2 --openspiel num_cols=3
"""
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from oracle import main  # noqa: E402


def to_notation(state: Any, action: int) -> str:
    """OpenSpiel's line (h or v, row, col) as the slot of the lattice, row 0 rank 1."""
    m = re.fullmatch(r"P[12]\(([hv]),(\d+),(\d+)\)", state.action_to_string(action))
    assert m, state.action_to_string(action)
    row, col = int(m[2]), int(m[3])
    file, rank = (2 * col + 1, 2 * row) if m[1] == "h" else (2 * col, 2 * row + 1)
    return f"@{'abcdefghijklmnopqrstuvwxyz'[file]}{rank + 1}"


if __name__ == "__main__":
    sys.exit(main(str(HERE), "dots_and_boxes", to_notation))
