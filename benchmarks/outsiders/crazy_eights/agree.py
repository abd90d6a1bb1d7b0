"""Crazy eights against OpenSpiel's crazy_eights, move by move.

python benchmarks/outsiders/crazy_eights/agree.py --games 200 --seed 1 --option players=2
python benchmarks/outsiders/crazy_eights/agree.py --games 200 --seed 2 --option players=3 \
    --option reshuffle=true --option max_draw_cards=2
python benchmarks/outsiders/crazy_eights/agree.py speed --seconds 3 --rounds 3 --option players=5
python benchmarks/outsiders/crazy_eights/agree.py perft --depth 4 --random-plies 27

The cards are the sites C2 D2 H2 S2 C3 ... SA (OpenSpiel's order): "Play D8" is
`D8`, "Draw" `draw`, "Pass" `pass`, "Nominate suit H" `nominate:H`. The dealer
drawn by chance is `dealer:2` (OpenSpiel's player 2, `p2`); a card dealt or drawn is `draw:` and
the card (`draw:H7`).

OpenSpiel's returns are minus the points left in hand, never above 0, so the shared
harness, which takes a winner only from a positive return, sees none; the definition's
`end game` makes the single highest score the winner (the seat `pile`, which holds
the draw pile and never plays, scores -1000). The comparison here raises
OpenSpiel's returns by a constant for the winner's sake (the same winner: the single
best return) and compares the returns themselves at the end.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RANKS = "23456789TJQKA"
SUITS = "CDHS"
CARDS, DRAW, PASS, NOMINATE = 52, 52, 53, 54
# Above the most a hand can lose (OpenSpiel's min_utility is -544 for one deck).
RAISE = 1000


def write(state, action: int) -> str:
    if state.is_chance_node():
        if not state.history():
            return f"dealer:{action - CARDS}"
        return "draw:" + SUITS[action % 4] + RANKS[action // 4]
    if action < CARDS:
        return SUITS[action % 4] + RANKS[action // 4]
    if action == DRAW:
        return "draw"
    if action == PASS:
        return "pass"
    return f"nominate:{SUITS[action - NOMINATE]}"


class _RaisedState:
    """OpenSpiel's state whose returns are raised by RAISE (for the harness's winner)."""

    def __init__(self, state):
        self._state = state

    def __getattr__(self, name):
        return getattr(self._state, name)

    def returns(self):
        return [value + RAISE for value in self._state.returns()]


class _RaisedGame:
    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)

    def new_initial_state(self):
        return _RaisedState(self._game.new_initial_state())


def same_returns(os_state, rw_game, rw_state) -> str | None:
    theirs = list(os_state._state.returns())
    scores = rw_game.result(rw_state).scores
    mine = [scores[player] for player in rw_game.players if player != "pile"]
    return None if theirs == mine else f"returns: OpenSpiel {theirs}, regelwerk {mine}"


def raised(rw_game, os_game):
    """The games as compared: OpenSpiel's returns raised by RAISE (for the harness's winner)."""
    return rw_game, _RaisedGame(os_game)


if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "crazy_eights", write, check_end=same_returns, wrap=raised))
