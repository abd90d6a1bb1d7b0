"""Perft on both sides from a position given by OpenSpiel actions.

python benchmarks/outsiders/maedn/perft.py --depth 12 --random-plies 120 --seed 4 [--players 4] [--side-by-side]
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from agree import setting  # noqa: E402
from oracle import perft_main  # noqa: E402

if __name__ == "__main__":
    definition, write, options, os_params, rest = setting()
    perft_main(definition, "maedn", write, rest, options=options, os_params=os_params)
