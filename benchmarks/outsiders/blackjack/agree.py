"""Blackjack against OpenSpiel's blackjack, move by move.

python benchmarks/outsiders/blackjack/agree.py --games 1000 --seed 1
python benchmarks/outsiders/blackjack/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/blackjack/agree.py perft --depth 4
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import main, same_score  # noqa: E402

CARDS = [suit + rank for suit in "CDHS" for rank in "A23456789TJQK"]
HERE = os.path.dirname(os.path.abspath(__file__))


def write(state, action: int) -> str:
    if state.is_chance_node():
        # OpenSpiel's outcome is the card (suit * 13 + rank, clubs first), the
        # board's sites in that order: the event that comes names it.
        return ("hit:" if len(state.history()) >= 4 else "deal:") + CARDS[action]
    return state.action_to_string(state.current_player(), action)   # Hit, Stand


if __name__ == "__main__":
    sys.exit(main(HERE, "blackjack", write, check_end=same_score))
