"""Lines of Action against OpenSpiel's lines_of_action, move by move.

    python benchmarks/outsiders/lines_of_action/agree.py --games 200 --seed 1
    python benchmarks/outsiders/lines_of_action/agree.py --games 200 --seed 2 --option max_game_length=40
    python benchmarks/outsiders/lines_of_action/agree.py speed --seconds 3 --rounds 3
    python benchmarks/outsiders/lines_of_action/agree.py perft --depth 4

OpenSpiel writes a move `b1-h1` and a capture `c1xa3`, as the definition's default
notations do; the sites have the same names on both sides. The returns (+1 / -1, 0 for a
draw) are compared through the winner (none for a draw): the definition scores 1 / 0.
"""
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import oracle  # noqa: E402


def to_notation(state: Any, action: int) -> str:
    return state.action_to_string(state.current_player(), action)


if __name__ == "__main__":
    sys.exit(oracle.main(str(HERE), "lines_of_action", to_notation))
