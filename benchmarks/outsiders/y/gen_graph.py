"""Writes variants/graph19.yaml: Y with 19 cells a side on a graph board of the 190
cells alone (the grid's triangle leaves 171 sites unplayed), to compare the two boards.

    python benchmarks/outsiders/y/gen_graph.py [SIZE]
"""
import sys
from pathlib import Path

FILES = "abcdefghijklmnopqrstuvwxyz"


def name(x: int, y: int) -> str:
    return f"{FILES[x]}{y + 1}"


def variant(size: int) -> str:
    cells = [(x, y) for y in range(size) for x in range(size - y)]
    lines = [f"# Y with {size} cells a side on a graph board (written by gen_graph.py).",
             f"variant: graph{size}", "extends: ../y.yaml", f"title: Y ({size}, graph board)",
             "rules: graph.rules", "board:", "  graph:", "    sites:"]
    lines += [f"      {name(x, y)}: [{x + y / 2:g}, {y * 0.866:.3f}]" for x, y in cells]
    lines.append("    edges:")
    # Chains along the three directions of the triangle: ranks (e-w), files (n-s) and
    # the diagonals x + y = constant (se-nw); a chain of one cell (a corner) joins nothing.
    for y in range(size - 1):
        lines.append("      - [" + ", ".join(name(x, y) for x in range(size - y)) + "]")
    for x in range(size - 1):
        lines.append("      - [" + ", ".join(name(x, y) for y in range(size - x)) + "]")
    for total in range(1, size):
        lines.append("      - [" + ", ".join(name(x, total - x) for x in range(total + 1)) + "]")
    lines += ["regions:",
              "  left: [" + ", ".join(name(0, y) for y in range(size)) + "]",
              "  bottom: [" + ", ".join(name(x, 0) for x in range(size)) + "]",
              "  slant: [" + ", ".join(name(x, size - 1 - x) for x in range(size)) + "]",
              f"options:\n  board_size: {size}"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 19
    here = Path(__file__).resolve().parent
    (here / "variants" / f"graph{size}.yaml").write_text(variant(size))
