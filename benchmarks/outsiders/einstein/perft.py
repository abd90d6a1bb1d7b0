"""Perft on both sides from a position given by OpenSpiel actions.

python benchmarks/outsiders/einstein/perft.py --depth 8 --record 0,719
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from agree import HERE, write  # noqa: E402
from oracle import perft_main  # noqa: E402

if __name__ == "__main__":
    perft_main(HERE, "einstein_wurfelt_nicht", write)
