"""The first form of Battleship (no look-ahead for the ships still to place), against
OpenSpiel's battleship: as ../agree.py, from this folder.

python benchmarks/outsiders/battleship/first_form/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/battleship/first_form/agree.py perft --depth 3 --rounds 1
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
import oracle  # noqa: E402
from agree import write  # noqa: E402

if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "battleship", write, check_end=oracle.same_returns))
