"""Random games of gomoku on regelwerk and OpenSpiel, compared position by position.

    python benchmarks/outsiders/gomoku/agree.py --games 200 --seed 1
    python benchmarks/outsiders/gomoku/agree.py speed --seconds 3 --rounds 3
    python benchmarks/outsiders/gomoku/agree.py perft --depth 6
"""
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from oracle import main  # noqa: E402


def to_notation(state: Any, action: int) -> str:
    """OpenSpiel's point "r,c" as file c + 1, rank r + 1."""
    row, col = map(int, state.action_to_string(action).split(","))
    return f"@{'abcdefghijklmnopqrstuvwxyz'[col]}{row + 1}"


if __name__ == "__main__":
    sys.exit(main(str(HERE), "gomoku", to_notation))
