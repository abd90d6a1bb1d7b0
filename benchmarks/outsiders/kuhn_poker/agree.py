"""Kuhn poker against OpenSpiel's kuhn_poker, move by move.

python benchmarks/outsiders/kuhn_poker/agree.py --games 1000 --seed 1
python benchmarks/outsiders/kuhn_poker/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/kuhn_poker/agree.py perft --depth 5
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import main, same_returns  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def write(state, action: int) -> str:
    if state.is_chance_node():
        # OpenSpiel's outcome is the card; the second card's event is named after
        # the first (kuhn_poker.rules).
        dealt = state.history()
        return f"deal:{action}" if not dealt else f"deal_not{dealt[0]}:{action}"
    return state.action_to_string(state.current_player(), action)   # Pass, Bet


if __name__ == "__main__":
    sys.exit(main(HERE, "kuhn_poker", write, check_end=same_returns))
