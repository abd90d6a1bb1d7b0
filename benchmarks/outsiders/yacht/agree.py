"""Yacht against OpenSpiel's yacht, move by move.

python benchmarks/outsiders/yacht/agree.py --games 300 --seed 1
python benchmarks/outsiders/yacht/agree.py --games 100 --seed 2 --option players=3
python benchmarks/outsiders/yacht/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/yacht/agree.py perft --depth 4 --random-plies 1
python benchmarks/outsiders/yacht/agree.py scoring    # hand-checked categories, both sides
python benchmarks/outsiders/yacht/agree.py --games 100 --seed 4 \
    --variant benchmarks/outsiders/yacht/variants/dice-index.yaml --option dice_sides=4
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


# The variant dice-index numbers a roll's outcomes as OpenSpiel does (dice5:1100).
DICE_INDEX = any("dice-index" in argument for argument in sys.argv)


def write(state, action: int) -> str:
    if state.is_chance_node():
        # "Roll: 2,1,1,1,1" (the faces of the dice rolled, first die first) is dice5:21111.
        faces = state.action_to_string(state.current_player(), action).removeprefix("Roll: ").split(",")
        return f"dice{len(faces)}:{action if DICE_INDEX else ''.join(faces)}"
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


# Dice, category, points by Knizia's rules as OpenSpiel scores them: the categories
# random games seldom score (straights, yacht) and the edges of the others.
SCORING = [("12345", "small_straight", 30), ("54321", "large_straight", 0),
           ("23456", "large_straight", 30), ("62345", "small_straight", 0),
           ("33322", "full_house", 13), ("44441", "full_house", 0), ("55555", "full_house", 25),
           ("44441", "four_of_a_kind", 17), ("55555", "four_of_a_kind", 25),
           ("44411", "four_of_a_kind", 0), ("55555", "yacht", 50), ("55552", "yacht", 0),
           ("12366", "sixes", 12), ("12366", "chance", 18), ("12366", "ones", 1)]


def scoring() -> int:
    """Roll the dice given, keep them, score the category, on both sides."""
    import pyspiel

    from interpreter import load_game
    rw_game, os_game = load_game(HERE), pyspiel.load_game("yacht")
    wrong = 0
    for dice, category, points in SCORING:
        os_state, rw_state = os_game.new_initial_state(), rw_game.initial_state()
        for notation in (f"dice5:{dice}", "keep", category):
            actions = ([a for a, _ in os_state.chance_outcomes()] if os_state.is_chance_node()
                       else os_state.legal_actions())
            os_state.apply_action(next(a for a in actions if write(os_state, a) == notation))
            rw_state = rw_game.apply(rw_state, notation)
        theirs = int(re.findall(r"\(total: (\d+)\)", str(os_state))[0])
        mine = rw_game.current_scores(rw_state)["p0"]
        if not points == theirs == mine:
            wrong += 1
            print(f"{dice} {category}: expected {points}, OpenSpiel {theirs}, regelwerk {mine}")
    print(f"{len(SCORING)} scorings, {wrong} wrong")
    return 1 if wrong else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["scoring"]:
        sys.exit(scoring())
    sys.exit(main(HERE, "yacht", write, check_end=same_totals))
