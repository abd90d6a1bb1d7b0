"""Leduc poker against OpenSpiel's leduc_poker, move by move.

python benchmarks/outsiders/leduc_poker/agree.py --games 1000 --seed 1
python benchmarks/outsiders/leduc_poker/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/leduc_poker/agree.py perft --depth 6
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import pyspiel  # noqa: E402
from oracle import main, same_returns  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def write(state, action: int) -> str:
    if state.is_chance_node():
        # OpenSpiel's outcome is the card; here it is the index of the card among
        # those left, in the event for their number (leduc_poker.rules).
        deck = [card for card, _ in state.chance_outcomes()]
        return f"deal{len(deck)}:{deck.index(action)}"
    return state.action_to_string(state.current_player(), action)   # Fold, Call, Raise


def same_end(os_state, rw_game, rw_state) -> str | None:
    """The cards dealt (the outcomes are indices: a wrong decoding shows here) and
    the chips won or lost."""
    cards = [x.action for x in os_state.full_history() if x.player == pyspiel.PlayerId.CHANCE]
    values = rw_game.variables(rw_state)
    mine = [values["card"]["p0"], values["card"]["p1"]] + ([values["public"]] if len(cards) > 2 else [])
    if cards != mine:
        return f"cards: OpenSpiel {cards}, regelwerk {mine}"
    return same_returns(os_state, rw_game, rw_state)


if __name__ == "__main__":
    sys.exit(main(HERE, "leduc_poker", write, check_end=same_end))
