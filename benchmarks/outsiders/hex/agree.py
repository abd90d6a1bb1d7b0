"""Random games of Hex on regelwerk and OpenSpiel, compared position by position.

    python benchmarks/outsiders/hex/agree.py --games 300 --seed 1
    python benchmarks/outsiders/hex/agree.py --games 300 --seed 2 --option board_size=5
    python benchmarks/outsiders/hex/agree.py --games 300 --seed 3 --option num_cols=4 --option num_rows=7
    python benchmarks/outsiders/hex/agree.py --games 300 --seed 4 --option swap=true [--option board_size=3]
    python benchmarks/outsiders/hex/agree.py speed --seconds 3 --rounds 3
    python benchmarks/outsiders/hex/agree.py perft --depth 3 [--random-plies 40]
"""
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from oracle import main  # noqa: E402


def to_notation(state: Any, action: int) -> str:
    """OpenSpiel writes cell (row r, column c) as column letter and r + 1 (`c3`), which is
    the site's name here (hex.yaml keeps OpenSpiel's names); its swap is `swap` on both sides."""
    text = state.action_to_string(state.current_player(), action)
    return text if text == "swap" else "@" + text


if __name__ == "__main__":
    sys.exit(main(str(HERE), "hex", to_notation))
