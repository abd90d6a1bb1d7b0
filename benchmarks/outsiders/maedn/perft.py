"""Perft on both sides from a position given by OpenSpiel actions.

python benchmarks/outsiders/maedn/perft.py --depth 12 --random-plies 120 --seed 4 [--players 4]
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from agree import HERE, writer  # noqa: E402
from oracle import perft_main  # noqa: E402

if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--players", type=int, default=2)
    known, rest = parser.parse_known_args()
    perft_main(HERE, "maedn", writer(known.players), rest,
               options={"players": known.players}, os_params={"players": known.players})
