"""Random playouts per processor second: this definition against OpenSpiel's Python loop.

python benchmarks/outsiders/maedn/speed.py --seconds 3 --rounds 3 [--players 4] [--side-by-side]
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from agree import setting  # noqa: E402
from oracle import speed_main  # noqa: E402

if __name__ == "__main__":
    definition, _write, options, os_params, rest = setting()
    speed_main(definition, "maedn", rest, options=options, os_params=os_params)
