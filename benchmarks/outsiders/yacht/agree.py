"""Yacht against OpenSpiel's yacht, move by move.

python benchmarks/outsiders/yacht/agree.py --games 300 --seed 1
python benchmarks/outsiders/yacht/agree.py --games 100 --seed 2 --option players=3
python benchmarks/outsiders/yacht/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/yacht/agree.py perft --depth 3
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# OpenSpiel's "Score in Four of a Kind" is the category four_of_a_kind here.
CATEGORIES = {name: name.lower().replace(" ", "_") for name in (
    "Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Chance", "Four of a Kind",
    "Full House", "Small Straight", "Large Straight", "Yacht")}


def write(state, action: int) -> str:
    if state.is_chance_node():
        # "Roll: 2,1,1,1,1" (the faces of the dice rolled, first die first) is dice5:21111.
        faces = state.action_to_string(state.current_player(), action).removeprefix("Roll: ").split(",")
        return f"dice{len(faces)}:{''.join(faces)}"
    text = state.action_to_string(state.current_player(), action)
    if text.startswith("Keep all"):
        return "keep"
    if text.startswith("Reroll dice: "):
        return "reroll_" + text.removeprefix("Reroll dice: ").replace(",", "")
    return CATEGORIES[text.removeprefix("Score in ")]


def same_totals(os_state, rw_game, rw_state) -> str | None:
    """Each player's total (OpenSpiel prints "Player 0 (total: 187):") against the score."""
    theirs = [int(total) for total in re.findall(r"\(total: (\d+)\)", str(os_state))]
    scores = rw_game.result(rw_state).scores
    mine = [scores[p] for p in rw_game.players]
    return None if theirs == mine else f"totals: OpenSpiel {theirs}, regelwerk {mine}"


if __name__ == "__main__":
    sys.exit(main(HERE, "yacht", write, check_end=same_totals))
