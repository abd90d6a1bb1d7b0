"""Writes havannah.yaml's board and regions for one size and the variants of the others.

    python benchmarks/outsiders/havannah/gen_sizes.py

OpenSpiel's cell (x, y) of a board of side S is the site of file x + 1, rank y + 1 on a
grid of 2S - 1 files and ranks (`d4` on both sides); it is a cell when |x - y| < S.
A region rule cannot follow a size an option gives here (`last - k` is not enough:
the cut corners are triangles of S - 1 = last / 2 cells a side, and `within.steps`
takes no option), so each size is a variant holding its own board and regions.
"""
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = 8
SIZES = range(3, 11)


def name(x: int, y: int) -> str:
    return f"{chr(ord('a') + x)}{y + 1}"


def flow(sites: list[str]) -> str:
    return "[" + ", ".join(sites) + "]"


def board_and_regions(size: int) -> str:
    m, e = size - 1, 2 * (size - 1)
    cells = [(x, y) for y in range(e + 1) for x in range(e + 1) if abs(x - y) < size]
    corners = [(0, 0), (m, 0), (e, m), (e, e), (m, e), (0, m)]
    # OpenSpiel's six sides, corners left out (its Move::Edge), in its order.
    sides = [
        [(x, y) for x, y in cells if y == 0],
        [(x, y) for x, y in cells if x - y == m],
        [(x, y) for x, y in cells if x == e],
        [(x, y) for x, y in cells if y == e],
        [(x, y) for x, y in cells if y - x == m],
        [(x, y) for x, y in cells if x == 0],
    ]
    sides = [[c for c in side if c not in corners] for side in sides]
    rim = {c for side in sides for c in side} | set(corners)
    inner = [c for c in cells if c not in rim]
    lines = [f"board:\n  grid: {{files: {e + 1}, ranks: {e + 1}, neighbours: [n, ne, e, s, sw, w]}}",
             "regions:",
             f"  cells: {flow([name(*c) for c in cells])}",
             f"  inner: {flow([name(*c) for c in inner])}",
             f"  corners: {flow([name(*c) for c in corners])}"]
    lines += [f"  side{k}: {flow([name(*c) for c in side])}" for k, side in enumerate(sides)]
    return "\n".join(lines) + "\n"


HEAD = """\
# Havannah as OpenSpiel plays it (havannah, board_size {size}, swap off).
# Written by gen_sizes.py: the board and regions below are generated, the rest is not.
# OpenSpiel's cell (x, y) is file x + 1, rank y + 1 here, as OpenSpiel writes it
# (`d4`); it touches (x +- 1, y), (x, y +- 1), (x + 1, y + 1) and (x - 1, y - 1):
# the grid's e, w, n, s, ne and sw.
game: havannah
title: Havannah
description: >-
  Place a stone on any empty cell of a hexagonal board. A chain of own stones
  wins that joins two corners (a bridge), touches three sides (a fork; corners
  belong to no side) or closes a ring round one or more cells of any content.
  A full board without a winner is a draw.
rules: havannah.rules

players:
  - {{name: white, color: "#f2efe6"}}
  - {{name: black, color: "#2e2e2e"}}

pieces:
  stone: {{symbol: O}}

"""

VARIANT = """\
# Havannah of side {size} (OpenSpiel's board_size={size}); written by gen_sizes.py.
variant: size{size}
extends: ../havannah.yaml
title: Havannah (side {size})
"""


def main() -> None:
    (HERE / "havannah.yaml").write_text(HEAD.format(size=DEFAULT) + board_and_regions(DEFAULT))
    (HERE / "variants").mkdir(exist_ok=True)
    for size in SIZES:
        if size != DEFAULT:
            (HERE / "variants" / f"size{size}.yaml").write_text(
                VARIANT.format(size=size) + board_and_regions(size))


if __name__ == "__main__":
    main()
