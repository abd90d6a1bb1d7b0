"""Mensch ärgere dich nicht against OpenSpiel's maedn, move by move.

python benchmarks/outsiders/maedn/agree.py [agree] --games 200 --seed 1 [--players 4] [--side-by-side]
python benchmarks/outsiders/maedn/agree.py speed --seconds 3 --rounds 3 [--players 4] [--side-by-side]
python benchmarks/outsiders/maedn/agree.py perft --depth 12 --random-plies 120 --seed 4 [--players 4]
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
COLOURS = ("red", "blue", "green", "yellow")


def seats(players: int, opposite: bool = True) -> list[int]:
    """OpenSpiel's PlayerToPosition: with two players opposite the second sits at 2."""
    return [0, 2] if players == 2 and opposite else list(range(players))


def course(position: int) -> list[str]:
    """The fields by OpenSpiel's relative position (RelPosToAbsPos), as this definition names them."""
    return [f"c{(10 * position + i) % 40}" for i in range(40)] + \
        [f"{COLOURS[position]}{i}" for i in range(1, 5)]


def writer(players: int, opposite: bool = True):
    positions = seats(players, opposite)

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


def setting(argv=None):
    """The shared arguments: (definition, writer, options, OpenSpiel parameters, the rest)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--side-by-side", action="store_true",
                        help="two players side by side (OpenSpiel's twoPlayersOpposite=false)")
    known, rest = parser.parse_known_args(argv)
    definition = os.path.join(HERE, "variants", "side-by-side.yaml") if known.side_by_side else HERE
    return (definition, writer(known.players, not known.side_by_side), {"players": known.players},
            {"players": known.players, "twoPlayersOpposite": not known.side_by_side}, rest)


if __name__ == "__main__":
    definition, write, options, os_params, rest = setting()
    sys.exit(main(definition, "maedn", write, rest, options=options, os_params=os_params))
