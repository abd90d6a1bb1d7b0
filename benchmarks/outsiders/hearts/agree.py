"""Hearts against OpenSpiel's hearts, move by move.

python benchmarks/outsiders/hearts/agree.py --games 200 --seed 1
python benchmarks/outsiders/hearts/agree.py --games 200 --seed 2 --option pass_cards=false \
    --option jd_bonus=true --option avoid_all_tricks_bonus=true
python benchmarks/outsiders/hearts/agree.py keep --games 200 --seed 3 \
    --option can_lead_hearts_instead_of_qs=true
python benchmarks/outsiders/hearts/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/hearts/agree.py --games 200 --seed 7 \
    --variant benchmarks/outsiders/hearts/variants/dealer-seat.yaml
python benchmarks/outsiders/hearts/agree.py perft --depth 4 --random-plies 65

The cards are the sites C2 D2 H2 S2 C3 ... SA (OpenSpiel's order); a card dealt is
`deal:` and the card (`deal:H7`); the pass direction is `pass_dir:0` (none) to
`pass_dir:3` (right).

With pass_cards=false OpenSpiel's first chance node lists four outcomes of 1/4 (its
`ChanceOutcomes` ignores the option) while its legal actions are `0` alone, and it
accepts any of the four: drawn by those outcomes, the pass takes place 3 times in 4.
The definition has the one outcome `pass_dir:0`; the comparison here gives OpenSpiel's
first node the outcomes its legal actions say.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RANKS = "23456789TJQKA"
SUITS = "CDHS"


def card(action: int) -> str:
    return SUITS[action % 4] + RANKS[action // 4]


def write(state, action: int) -> str:
    if state.is_chance_node():
        if not state.history():
            return f"pass_dir:{action}"
        return "deal:" + card(action)
    return card(action)


class _NoPassState:
    """OpenSpiel's state whose first chance node has the outcomes of its legal actions."""

    def __init__(self, state):
        self._state = state

    def __getattr__(self, name):
        return getattr(self._state, name)

    def chance_outcomes(self):
        if not self._state.history():
            actions = self._state.legal_actions()
            return [(action, 1 / len(actions)) for action in actions]
        return self._state.chance_outcomes()


class _NoPassGame:
    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)

    def new_initial_state(self):
        return _NoPassState(self._game.new_initial_state())


def keep_points(argv) -> int:
    """Games in which every player keeps hearts and the queen of spades while they can
    (uniformly among the other legal cards, else among all): hearts stay unbroken long
    and hands end in hearts and the queen, which random games seldom reach (the lead
    of can_lead_hearts_instead_of_qs). Compares the legal sets and the returns."""
    return oracle.preferring_main(HERE, "hearts", write, argv,
                                  lambda legal: [a for a in legal if a % 4 != 2 and a != 43],  # no heart, not SQ
                                  "points kept", check_end=oracle.same_returns)


def without_pass(rw_game, os_game):
    """The games as compared: without `pass_cards`, OpenSpiel's first chance node given the
    one outcome its legal actions allow (_NoPassGame)."""
    return rw_game, os_game if os_game.get_parameters()["pass_cards"] else _NoPassGame(os_game)


if __name__ == "__main__":
    argv = sys.argv[1:]
    if argv and argv[0] == "keep":
        sys.exit(keep_points(argv[1:]))
    sys.exit(oracle.main(HERE, "hearts", write, argv, check_end=oracle.same_returns, wrap=without_pass))
