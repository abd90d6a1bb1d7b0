"""Random games of ultimate_tic_tac_toe on regelwerk and OpenSpiel, compared position by position.

    python benchmarks/outsiders/ultimate_tic_tac_toe/agree.py --games 200 --seed 1
    python benchmarks/outsiders/ultimate_tic_tac_toe/agree.py speed --seconds 3 --rounds 3
    python benchmarks/outsiders/ultimate_tic_tac_toe/agree.py perft --depth 6
"""
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from oracle import main  # noqa: E402


def cell_name(board: int, row: int, col: int) -> str:
    """OpenSpiel's cell (row, col) of local board `board` as named in the YAML."""
    big_row, big_col = divmod(board, 3)
    return f"{'abcdefghi'[3 * big_col + col]}{9 - (3 * big_row + row)}"


def to_notation(state: Any, action: int) -> str:
    text = state.action_to_string(action)
    if text.startswith("Choose local board"):
        return f"board{action}"
    m = re.fullmatch(r"Local board (\d): [xo]\((\d),(\d)\)", text)
    assert m, text
    return "@" + cell_name(int(m[1]), int(m[2]), int(m[3]))


if __name__ == "__main__":
    sys.exit(main(str(HERE), "ultimate_tic_tac_toe", to_notation))
