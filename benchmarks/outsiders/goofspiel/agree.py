"""Goofspiel against OpenSpiel's goofspiel played turn-based, move by move.

python benchmarks/outsiders/goofspiel/agree.py --games 200 --seed 1
python benchmarks/outsiders/goofspiel/agree.py --games 200 --seed 2 --option num_cards=4
python benchmarks/outsiders/goofspiel/agree.py --games 200 --seed 8 --option returns_type=point_difference
python benchmarks/outsiders/goofspiel/agree.py --games 200 --seed 30 --option players=3
python benchmarks/outsiders/goofspiel/agree.py --games 200 --seed 12 \
    --variant benchmarks/outsiders/goofspiel/variants/descending.yaml --openspiel points_order=descending
python benchmarks/outsiders/goofspiel/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/goofspiel/agree.py perft --depth 4

OpenSpiel's game is `load_game_as_turn_based("goofspiel", ...)`: a chance node draws the
prize, then player 0 bids, then player 1 (and so on with `players`). The card of value
k is file k of the board (a is 1): the prize drawn is `deal:` and its site on rank 1
(`deal:c1`), player 0's bid its card on rank 2 (`c2`), player 1's on rank 3 (`c3`), ...
(the last seat, `deck`, holds the prizes and never plays). OpenSpiel's win/loss returns
are compared through the winner, and the points through the scores.
"""

import os
import sys

import pyspiel

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = "abcdefghijklmnopqrstuvwxyz"


def write(state, action: int) -> str:
    """OpenSpiel's action (a card's value − 1, for a prize or a bid) as the site of the card."""
    if state.is_chance_node():
        return f"deal:{FILES[action]}1"
    return f"{FILES[action]}{2 + state.current_player()}"


def same_points(os_state, rw_game, rw_state) -> str | None:
    """The points each player took (OpenSpiel's state text, `Points: 5 3`) against the
    scores; with a `returns_type` other than win_loss, OpenSpiel's returns against them."""
    if rw_game.options["returns_type"] != "win_loss":
        scores = rw_game.result(rw_state).scores
        mine = [scores[player] for player in rw_game.players[:-1]]
        theirs = list(os_state.returns())
        # OpenSpiel's mean is a binary fraction (-1.2000000000000002); the definition's
        # third of the points for 3 bidders is written to 6 decimals.
        close = all(abs(a - b) <= 1e-4 for a, b in zip(theirs, mine))
        return None if close else f"returns: OpenSpiel {theirs}, regelwerk {mine}"
    line = next(text for text in str(os_state).splitlines() if text.startswith("Points:"))
    theirs = [int(word) for word in line.split()[1:]]
    scores = rw_game.result(rw_state).scores
    mine = [scores[player] for player in rw_game.players[:-1]]
    return None if theirs == mine else f"points: OpenSpiel {theirs}, regelwerk {mine}"


def turn_based(rw_game, os_game):
    """OpenSpiel's simultaneous game as the turn-based game compared."""
    return rw_game, pyspiel.load_game_as_turn_based("goofspiel", os_game.get_parameters())


if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "goofspiel", write, check_end=same_points, wrap=turn_based))
