"""Random games of Y on regelwerk and OpenSpiel, compared position by position.

    python benchmarks/outsiders/y/agree.py --games 200 --seed 1
    python benchmarks/outsiders/y/agree.py --games 300 --seed 2 --option board_size=5
    python benchmarks/outsiders/y/agree.py speed --seconds 3 --rounds 3
    python benchmarks/outsiders/y/agree.py perft --depth 3
"""
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from oracle import main  # noqa: E402


def to_notation(state: Any, action: int) -> str:
    """OpenSpiel writes cell (x, y) as file x + 1, rank y + 1 (`c3`), as the grid does."""
    return "@" + state.action_to_string(state.current_player(), action)


if __name__ == "__main__":
    sys.exit(main(str(HERE), "y", to_notation))
