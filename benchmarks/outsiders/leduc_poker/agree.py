"""Leduc poker against OpenSpiel's leduc_poker, move by move.

python benchmarks/outsiders/leduc_poker/agree.py --games 1000 --seed 1
python benchmarks/outsiders/leduc_poker/agree.py --games 1000 --seed 1 \
    --variant benchmarks/outsiders/leduc_poker/variants/players.yaml --option players=4
python benchmarks/outsiders/leduc_poker/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/leduc_poker/agree.py perft --depth 6
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import pyspiel  # noqa: E402
from oracle import main, outcome_index, same_returns  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def write(state, action: int) -> str:
    """The game (two players): an event per number of cards left."""
    if state.is_chance_node():
        # OpenSpiel's outcome is the card; here it is the index of the card among
        # those left, in the event for their number (leduc_poker.rules).
        left, index = outcome_index(state, action)
        return f"deal{left}:{index}"
    return state.action_to_string(state.current_player(), action)   # Fold, Call, Raise


def write_players(state, action: int) -> str:
    """The variant `players`: the index of the card among those left, in the event
    of the seat dealt to, or `deal_public`."""
    if state.is_chance_node():
        dealt = sum(1 for x in state.full_history() if x.player == pyspiel.PlayerId.CHANCE)
        event = f"deal{dealt}" if dealt < state.get_game().num_players() else "deal_public"
        return f"{event}:{outcome_index(state, action)[1]}"
    return state.action_to_string(state.current_player(), action)


def same_end(os_state, rw_game, rw_state) -> str | None:
    """The cards dealt (the outcomes are indices: a wrong decoding shows here) and
    the chips won or lost."""
    cards = [x.action for x in os_state.full_history() if x.player == pyspiel.PlayerId.CHANCE]
    values = rw_game.variables(rw_state)
    mine = list(values["card"].values())
    if len(cards) > len(mine):
        mine.append(values["public"])
    if cards != mine:
        return f"cards: OpenSpiel {cards}, regelwerk {mine}"
    return same_returns(os_state, rw_game, rw_state)


if __name__ == "__main__":
    variant = any(arg.startswith("--variant") for arg in sys.argv[1:])
    sys.exit(main(HERE, "leduc_poker", write_players if variant else write, check_end=same_end))
