"""Random-playout benchmark of the reference implementations.

    python tests/reference/bench_reference.py GAME --playouts N --seed S [--option k=v]...
    python -m tests.reference.bench_reference GAME ...     (the same, from the repository)

prints the same JSON as ``regelwerk bench GAME --json``:
``{"playouts": N, "seconds": T, "playouts_per_s": X, "actions_per_s": Y}``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from pathlib import Path

if not __package__:  # run as a script: the repository's root makes `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from tests.reference.common import random_playout  # noqa: E402

GAMES = ("lielow", "regibus", "royalfiz")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--playouts", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--option needs NAME=VALUE, got {item!r}")
        options[name.strip()] = value.strip()
    game = importlib.import_module(f"tests.reference.{args.game}_ref").Game(options)
    rng = random.Random(args.seed)
    actions = 0
    start = time.perf_counter()
    for _ in range(args.playouts):
        actions += random_playout(game, rng)
    seconds = time.perf_counter() - start
    print(json.dumps({
        "playouts": args.playouts,
        "seconds": round(seconds, 6),
        "playouts_per_s": round(args.playouts / seconds, 3) if seconds else None,
        "actions_per_s": round(actions / seconds, 3) if seconds else None,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
