"""Kuhn poker against OpenSpiel's kuhn_poker, move by move.

python benchmarks/outsiders/kuhn_poker/agree.py --games 1000 --seed 1
python benchmarks/outsiders/kuhn_poker/agree.py --games 1000 --seed 1 \
    --variant benchmarks/outsiders/kuhn_poker/variants/players.yaml --option players=5
python benchmarks/outsiders/kuhn_poker/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/kuhn_poker/agree.py perft --depth 6
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import pyspiel  # noqa: E402
from oracle import main, outcome_index, same_returns  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def write(state, action: int) -> str:
    """The game (two players): the second card's event is named after the first."""
    if state.is_chance_node():
        dealt = state.history()
        return f"deal:{action}" if not dealt else f"deal_not{dealt[0]}:{action}"
    return state.action_to_string(state.current_player(), action)   # Pass, Bet


def write_players(state, action: int) -> str:
    """The variant `players`: a chance outcome is the index of the card among those
    left, in the event of the seat dealt to."""
    if state.is_chance_node():
        return f"deal{len(state.history())}:{outcome_index(state, action)[1]}"
    return state.action_to_string(state.current_player(), action)


def same_end(os_state, rw_game, rw_state) -> str | None:
    """The cards dealt (a wrong decoding of an index shows here) and the chips won
    or lost."""
    cards = [x.action for x in os_state.full_history() if x.player == pyspiel.PlayerId.CHANCE]
    mine = list(rw_game.variables(rw_state)["card"].values())
    if cards != mine:
        return f"cards: OpenSpiel {cards}, regelwerk {mine}"
    return same_returns(os_state, rw_game, rw_state)


if __name__ == "__main__":
    variant = any(arg.startswith("--variant") for arg in sys.argv[1:])
    sys.exit(main(HERE, "kuhn_poker", write_players if variant else write, check_end=same_end))
