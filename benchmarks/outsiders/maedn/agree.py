"""Mensch ärgere dich nicht against OpenSpiel's maedn, move by move.

python benchmarks/outsiders/maedn/agree.py --games 200 --seed 1 [--players 4]
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import agree_main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
COLOURS = ("red", "blue", "green", "yellow")


def seats(players: int) -> list[int]:
    """OpenSpiel's PlayerToPosition: with two players (opposite) the second sits at 2."""
    return [0, 2] if players == 2 else list(range(players))


def course(position: int) -> list[str]:
    """The fields by OpenSpiel's relative position (RelPosToAbsPos), as this definition names them."""
    return [f"c{(10 * position + i) % 40}" for i in range(40)] + \
        [f"{COLOURS[position]}{i}" for i in range(1, 5)]


def writer(players: int):
    positions = seats(players)

    def write(state, action: int) -> str:
        if state.is_chance_node():
            return f"roll:{action + 1}"
        position = positions[state.current_player()]
        if action == 0:
            return "pass"
        if action == 1:
            return f"@c{10 * position}"
        die = int(re.search(r"Dice: (\d)", str(state)).group(1))
        way = course(position)
        return f"{way[action - 2]}-{way[action - 2 + die]}"
    return write


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--players", type=int, default=2)
    known, rest = parser.parse_known_args()
    sys.exit(agree_main(HERE, "maedn", writer(known.players), rest,
                        options={"players": known.players}, os_params={"players": known.players}))
