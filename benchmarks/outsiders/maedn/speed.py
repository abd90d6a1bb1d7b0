"""Random playouts per processor second: this definition against OpenSpiel's Python loop.

python benchmarks/outsiders/maedn/speed.py --seconds 3 --rounds 3 [--players 4]
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import speed_main  # noqa: E402

if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--players", type=int, default=2)
    known, rest = parser.parse_known_args()
    speed_main(os.path.dirname(os.path.abspath(__file__)), "maedn", rest,
               options={"players": known.players}, os_params={"players": known.players})
