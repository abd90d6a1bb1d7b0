"""Hashes of the generated code of every definition in the repository (the bundled
games and their variants, docs/examples, benchmarks/games, benchmarks/older), with
the options that change what is generated, and the processor time of each load.

    python -m benchmarks.generated_hashes            # hash per game, then one over all
    python -m benchmarks.generated_hashes --times 3  # + load_game processor time (best of 3)

A change to the compiler that claims to leave the generated code as it was shows the
same hashes before and after. A hash covers the module's text (`rules.source`), the
origin of each generated name (`rules.source_map`) and the constants' values (repr, without addresses).
"""
from __future__ import annotations

import argparse
import hashlib
import re
import time
from pathlib import Path
from typing import Any, Optional

from interpreter.api import load_game

ROOT = Path(__file__).resolve().parent.parent

# (label, path, variant, options)
EXTRA: list[tuple[str, str, Optional[str], dict[str, Any]]] = [
    ("royalfiz players=2", "games/royalfiz", None, {"players": 2}),
    ("royalfiz players=3", "games/royalfiz", None, {"players": 3}),
    ("regibus capture=whole travel_min=2", "games/regibus", None, {"capture": "whole", "travel_min": 2}),
    ("go komi=0.5", "benchmarks/games/go", None, {"komi": 0.5}),
]


def definitions() -> list[tuple[str, str, Optional[str], dict[str, Any]]]:
    found: list[tuple[str, str, Optional[str], dict[str, Any]]] = []
    for top in ("games", "docs/examples", "benchmarks/games", "benchmarks/older"):
        for folder in sorted((ROOT / top).iterdir()):
            if not folder.is_dir() or not (folder / f"{folder.name}.yaml").exists():
                continue
            path = str(folder.relative_to(ROOT))
            found.append((path, path, None, {}))
            variants = folder / "variants"
            if variants.is_dir():
                for variant in sorted(variants.glob("*.yaml")):
                    found.append((f"{path} + {variant.name}", path, str(variant.relative_to(ROOT)), {}))
    return found + EXTRA


def digest(game: Any) -> str:
    rules = game.rules
    text = rules.source + "\n" + repr(sorted((k, str(v)) for k, v in rules.source_map.items()))
    # a function's repr names its address: kept to its name
    constants = sorted((k, re.sub(r" at 0x[0-9a-f]+", "", repr(v))) for k, v in rules.constants.items())
    text += "\n" + repr(constants)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=0, help="load each this many times, show the best")
    parser.add_argument("only", nargs="*", help="labels containing one of these")
    args = parser.parse_args()
    total = hashlib.sha256()
    for label, path, variant, options in definitions():
        if args.only and not any(word in label for word in args.only):
            continue
        game = load_game(str(ROOT / path), options, str(ROOT / variant) if variant else None)
        line = f"{digest(game)}  {label}"
        total.update(line.encode())
        if args.times:
            best = float("inf")
            for _ in range(args.times):
                start = time.process_time()
                load_game(str(ROOT / path), options, str(ROOT / variant) if variant else None)
                best = min(best, time.process_time() - start)
            line += f"  {best:.3f} s"
        print(line, flush=True)
    print(f"{total.hexdigest()[:16]}  all")


if __name__ == "__main__":
    main()
