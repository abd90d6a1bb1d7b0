"""Random games of Quoridor on regelwerk and OpenSpiel, compared position by position.

    python benchmarks/outsiders/quoridor/agree.py --games 200 --seed 1
    python benchmarks/outsiders/quoridor/agree.py --games 200 --seed 2 --option board_size=5
    python benchmarks/outsiders/quoridor/agree.py --games 100 --seed 3 --option board_size=7 --option wall_count=4
    python benchmarks/outsiders/quoridor/agree.py speed --seconds 3 --rounds 3 --option board_size=5
    python benchmarks/outsiders/quoridor/agree.py perft --depth 3 --option board_size=5
"""
import string
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from oracle import main  # noqa: E402

LETTERS = string.ascii_lowercase


def to_notation(state: Any, action: int) -> str:
    """OpenSpiel names a square by its column letter and row (`c4`): here the square of
    the odd file and rank 2 × column + 1, 2 × row - 1 (`e7`). It names a wall by the
    square left of and below its middle as this board is drawn (`a1v`): the middle is
    the junction of the next file and rank (`b2v`)."""
    text = state.action_to_string(state.current_player(), action)
    column, row = LETTERS.index(text[0]), int(text[1:].rstrip("hv"))
    if text[-1] in "hv":
        return f"{LETTERS[2 * column + 1]}{2 * row}{text[-1]}"
    return f"{LETTERS[2 * column]}{2 * row - 1}"


if __name__ == "__main__":
    sys.exit(main(str(HERE), "quoridor", to_notation))
