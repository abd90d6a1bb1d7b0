"""Oh Hell against OpenSpiel's oh_hell, move by move.

python benchmarks/outsiders/oh_hell/agree.py --games 200 --seed 1
python benchmarks/outsiders/oh_hell/agree.py --games 200 --seed 2 --option off_bid_penalty=true \
    --option points_per_trick=2
python benchmarks/outsiders/oh_hell/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/oh_hell/agree.py perft --depth 4 --record 5,2 --random-plies 16

OpenSpiel's returns name no winner; the shared harness reads one as the single highest
return when it is above 0. The definition's winner is the single highest score
(format.md 3.14), also below 0, which only `off_bid_penalty` reaches: the comparison
reads the definition's result as the harness reads OpenSpiel's (`_PositiveWinner`).
Every player's return is compared with that player's score either way.

OpenSpiel's actions are written as the definition's notations: the number of tricks
`tricks:N`, the dealer `dealer:pK`, a card dealt `deal:CARD` (its site, `deal:C2`), a
bid `N` (OpenSpiel's string), a card played its name (`C2`, OpenSpiel's string).
"""

import dataclasses
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RANKS = "23456789TJQKA"
SUITS = "CDSH"  # OpenSpiel's card: rank * 4 + suit, the sites' order


def write(state, action: int) -> str:
    if state.is_chance_node():
        if not state.history():
            return f"tricks:{action}"
        if len(state.history()) == 1:
            return f"dealer:p{action}"
        return "deal:" + SUITS[action % 4] + RANKS[action // 4]
    return state.action_to_string(state.current_player(), action)


class _PositiveWinner:
    """The regelwerk game, its winner read as the harness reads OpenSpiel's returns."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)

    def result(self, state):
        result = self._game.result(state)
        if result is not None and result.winner is not None and result.scores[result.winner] <= 0:
            return dataclasses.replace(result, winner=None)
        return result


def positive_winner(rw_game, os_game):
    """The games as compared: regelwerk's winner read as the harness reads OpenSpiel's returns."""
    return _PositiveWinner(rw_game), os_game


if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "oh_hell", write, check_end=oracle.same_returns, wrap=positive_winner))
