"""Random games of Connect Four on regelwerk and OpenSpiel, compared position by position.

    python benchmarks/outsiders/connect_four/agree.py --games 300 --seed 1
    python benchmarks/outsiders/connect_four/agree.py --games 200 --seed 2 --option columns=8 --option rows=7
    python benchmarks/outsiders/connect_four/agree.py --games 200 --seed 3 --option x_in_row=3
    python benchmarks/outsiders/connect_four/agree.py speed --seconds 3 --rounds 3
    python benchmarks/outsiders/connect_four/agree.py perft --depth 7 [--random-plies 12]
"""
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from oracle import main  # noqa: E402


def to_notation(state: Any, action: int) -> str:
    """OpenSpiel's action is the column (0 for file a; written `x3`); the definition
    writes the drop as the cell the disc comes to rest on (`@d1`): one above the
    discs already in that column. OpenSpiel prints the top row first."""
    lines = [line for line in str(state).splitlines() if line]
    below = sum(line[action] != "." for line in lines)
    return f"@{chr(ord('a') + action)}{below + 1}"


if __name__ == "__main__":
    sys.exit(main(str(HERE), "connect_four", to_notation))
