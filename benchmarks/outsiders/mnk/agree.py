"""Random games of the m,n,k-game on regelwerk and OpenSpiel, compared position by position.

    python benchmarks/outsiders/mnk/agree.py --games 200 --seed 1
    python benchmarks/outsiders/mnk/agree.py --games 300 --seed 2 --option m=4 --option n=3 --option k=3
    python benchmarks/outsiders/mnk/agree.py speed --seconds 3 --rounds 3
    python benchmarks/outsiders/mnk/agree.py perft --depth 3
"""
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from oracle import main  # noqa: E402

FILES = "abcdefghijklmnopqrstuvwxyz"


def to_notation(state: Any, action: int) -> str:
    """OpenSpiel's action r * m + c, the cell "(r,c)", as file c + 1, rank r + 1."""
    columns = state.get_game().get_parameters()["m"]
    row, column = divmod(action, columns)
    return f"@{FILES[column]}{row + 1}"


if __name__ == "__main__":
    sys.exit(main(str(HERE), "mnk", to_notation))
