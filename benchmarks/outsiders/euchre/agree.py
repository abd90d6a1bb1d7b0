"""Euchre against OpenSpiel's euchre, move by move.

python benchmarks/outsiders/euchre/agree.py --games 200 --seed 1
python benchmarks/outsiders/euchre/agree.py --games 200 --seed 2 --option stick_the_dealer=false
python benchmarks/outsiders/euchre/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/euchre/agree.py perft --depth 4 --random-plies 22

The cards are the sites C9 D9 H9 S9 CT ... SA (OpenSpiel's order); the dealer is
`cut:north` ... `cut:west`; a deal outcome is the index of the card among those left,
in the event named after their count (`deal24:17`), the upcard `upcard:0` to
`upcard:3` among the last four. The players' actions are OpenSpiel's own strings
(`Pass`, `Clubs`, `Alone`, `Partner`, `CJ`).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SEATS = ["north", "east", "south", "west"]


def write(state, action: int) -> str:
    if state.is_chance_node():
        if not state.history():
            return f"cut:{SEATS[action]}"
        count, index = oracle.outcome_index(state, action)
        return f"upcard:{index}" if count == 4 else f"deal{count}:{index}"
    return state.action_to_string(action)


if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "euchre", write, check_end=oracle.same_returns))
