"""Tiny bridge against OpenSpiel's tiny_bridge_4p, move by move.

python benchmarks/outsiders/tiny_bridge/agree.py --games 200 --seed 1
python benchmarks/outsiders/tiny_bridge/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/tiny_bridge/agree.py perft --depth 6

A hand is one chance outcome on both sides: OpenSpiel's outcome is the pair's number
(`HandString`), the definition's the index of the pair among those left, in
OpenSpiel's order of its chance outcomes (`hand_w:0` to `hand_w:27`, then
`hand_n:0` to `hand_n:14`, `hand_e:0` to `hand_e:5`, `hand_s:0`). The calls are
written as OpenSpiel writes them (Pass 1H 1S 1NT 2H 2S 2NT Dbl RDbl).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEALS = ["hand_w", "hand_n", "hand_e", "hand_s"]


def write(state, action: int) -> str:
    if state.is_chance_node():
        _, index = oracle.outcome_index(state, action)
        return f"{DEALS[len(state.history())]}:{index}"
    return state.action_to_string(state.current_player(), action)


if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "tiny_bridge_4p", write, check_end=oracle.same_returns))
