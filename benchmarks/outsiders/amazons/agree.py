"""Amazons against OpenSpiel's amazons, move by move.

    python benchmarks/outsiders/amazons/agree.py --games 200 --seed 1
    python benchmarks/outsiders/amazons/agree.py --games 200 --seed 2 --option board_size=6
    python benchmarks/outsiders/amazons/agree.py speed --seconds 3 --rounds 3
    python benchmarks/outsiders/amazons/agree.py perft --depth 6

OpenSpiel numbers a site row * size + column, row 0 at the top, and writes each of the
three steps of a turn with its coordinates counted from 1 (`X From (10, 4)`, `X To
(4, 4)`, `X Shoot: (4, 10)`). The definition names the same site by file and rank, its
top row the highest rank (OpenSpiel's (10, 4) is d1), and writes the steps `d1`,
`d1-d7` and `d7/j7`: the step's kind is read from OpenSpiel's text, the site the
amazon starts from (the move's, the shot's) is OpenSpiel's previous action. The
returns (+1 / -1, never a draw) are compared through the winner.
"""
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import oracle  # noqa: E402


def site(size: int, action: int) -> str:
    row, column = divmod(action, size)
    return f"{chr(ord('a') + column)}{size - row}"


def to_notation(state: Any, action: int) -> str:
    size = state.get_game().get_parameters()["board_size"]
    text = state.action_to_string(state.current_player(), action)
    if " From " in text:
        return site(size, action)
    start = site(size, state.history()[-1])
    separator = "-" if " To " in text else "/"
    return f"{start}{separator}{site(size, action)}"


if __name__ == "__main__":
    sys.exit(oracle.main(str(HERE), "amazons", to_notation))
