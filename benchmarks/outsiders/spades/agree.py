"""Spades against OpenSpiel's spades, move by move.

python benchmarks/outsiders/spades/agree.py --games 200 --seed 1
python benchmarks/outsiders/spades/agree.py --games 200 --seed 2 --option win_threshold=60 \
    --option mercy_threshold=-60 --option win_or_loss_bonus=50
python benchmarks/outsiders/spades/agree.py bids --games 200 --seed 3
python benchmarks/outsiders/spades/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/spades/agree.py perft --depth 4 --random-plies 56
python benchmarks/outsiders/spades/agree.py --games 200 --seed 5 \
    --variant benchmarks/outsiders/spades/variants/dealer-seat.yaml

The cards are the sites C2 C3 ... CA D2 ... SA (OpenSpiel's order: action = 13 * suit +
rank); a card dealt is `deal:` and the card (`deal:H7`), a bid `nil` or `1` to `13`, a
card played the card (`H7`). Every partner gets the partnership's points, so the
returns are compared with the scores, and the winners (`teams:`, the partnership
holding the higher score) with the players holding OpenSpiel's best return.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RANKS = "23456789TJQKA"
SUITS = "CDHS"
FIRST_BID = 52   # OpenSpiel's action of the bid nil; 53 to 65 bid 1 to 13


def card(action: int) -> str:
    return SUITS[action // 13] + RANKS[action % 13]


def write(state, action: int) -> str:
    if state.is_chance_node():
        return "deal:" + card(action)
    if action >= FIRST_BID:
        return "nil" if action == FIRST_BID else str(action - FIRST_BID)
    return card(action)


def low_bids(argv) -> int:
    """Games whose bids are drawn from nil, 1, 2 and 3 (where legal), so that contracts
    are made, bags pile up and nils succeed, which uniform random bids (half of them
    above 6) seldom give. Compares the legal sets at every position and the returns."""
    return oracle.preferring_main(HERE, "spades", write, argv, lambda legal: [a for a in legal if a <= FIRST_BID + 3],
                                  "low bids", check_end=oracle.same_returns)


if __name__ == "__main__":
    argv = sys.argv[1:]
    if argv and argv[0] == "bids":
        sys.exit(low_bids(argv[1:]))
    sys.exit(oracle.main(HERE, "spades", write, argv, check_end=oracle.same_returns))
