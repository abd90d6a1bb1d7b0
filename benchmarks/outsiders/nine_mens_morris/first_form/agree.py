"""The first form of nine men's morris against OpenSpiel, with the notation of the
game's own agree.py (one folder up): the same modes.

python benchmarks/outsiders/nine_mens_morris/first_form/agree.py --games 400 --seed 2
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from agree import main, write  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(HERE, "nine_mens_morris", write))
