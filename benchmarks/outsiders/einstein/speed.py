"""Random playouts per processor second: this definition against OpenSpiel's Python loop.

python benchmarks/outsiders/einstein/speed.py --seconds 3 --rounds 3
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import speed_main  # noqa: E402

if __name__ == "__main__":
    speed_main(os.path.dirname(os.path.abspath(__file__)), "einstein_wurfelt_nicht")
