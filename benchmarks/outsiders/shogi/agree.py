"""Shogi against OpenSpiel's shogi, move by move.

python benchmarks/outsiders/shogi/agree.py --games 200 --seed 1
python benchmarks/outsiders/shogi/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/shogi/agree.py perft --depth 3 --random-plies 60 --seed 4

OpenSpiel writes USI (`7g7f`, `8h2b+`, `P*5e`): files 9..1 from the left, ranks a..i
from the top, sente (black) moving up. The definition's grid names the same square
by file a..i from the left and rank 1..9 from the bottom: 7g is c3, 1a is i9.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def square(usi: str) -> str:
    return "abcdefghi"[ord("9") - ord(usi[0])] + str(ord("i") - ord(usi[1]) + 1)


def write(state, action: int) -> str:
    text = state.action_to_string(state.current_player(), action)
    if text[1] == "*":
        return text[:2] + square(text[2:4])
    return square(text[0:2]) + square(text[2:4]) + text[4:]


if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "shogi", write))
