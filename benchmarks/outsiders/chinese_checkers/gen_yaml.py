"""Writes chinese_checkers.yaml (run in this folder): the star's 121 cells on a 17 x 17
grid with hexagonal neighbours, and the six corner triangles.

OpenSpiel numbers the cells 0..120 row by row from the top (rows of 1, 2, 3, 4, 13, 12,
11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1 cells) and places them at doubled columns. Its
six directions (row, column) UL (-1, -1), UR (-1, +1), L (0, -2), R (0, +2), DL (+1, -1),
DR (+1, +1) are the grid's n, ne, w, e, s, sw when the cell at row r, column c is file
(c - r) / 2 + 6 and rank 17 - r: the top row is rank 17, as OpenSpiel draws it.
"""

import os

ROWS = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
# OpenSpiel's corner triangles: 0 north, 1 north-east, 2 south-east, 3 south,
# 4 south-west, 5 north-west (each player's home; the goal is the opposite one).
TRIANGLES = {
    "north": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    "northeast": [19, 20, 21, 22, 32, 33, 34, 44, 45, 55],
    "southeast": [74, 84, 85, 95, 96, 97, 107, 108, 109, 110],
    "south": [111, 112, 113, 114, 115, 116, 117, 118, 119, 120],
    "southwest": [65, 75, 76, 86, 87, 88, 98, 99, 100, 101],
    "northwest": [10, 11, 12, 13, 23, 24, 25, 35, 36, 46],
}
OPPOSITE = {"north": "south", "northeast": "southwest", "southeast": "northwest",
            "south": "north", "southwest": "northeast", "northwest": "southeast"}


def cells() -> list[tuple[int, int]]:
    """(row, doubled column) of OpenSpiel's cells 0..120."""
    out = []
    for row, length in enumerate(ROWS):
        out.extend((row, 12 - (length - 1) + 2 * i) for i in range(length))
    return out


def site_of(cell: int) -> str:
    row, col = cells()[cell]
    return f"{chr(ord('a') + (col - row) // 2 + 6)}{17 - row}"


SITES = [site_of(i) for i in range(121)]


def flow(names: list[str]) -> str:
    return "[" + ", ".join(names) + "]"


def sorted_sites(names):
    return sorted(names, key=lambda s: (int(s[1:]), s[0]))


def yaml_text() -> str:
    every = {f"{chr(ord('a') + f)}{r}" for f in range(17) for r in range(1, 18)}
    off_star = sorted_sites(every - set(SITES))
    homes = "\n".join(f"      {p}: {flow(sorted_sites(SITES[c] for c in cs))}"
                      for p, cs in TRIANGLES.items())
    goals = "\n".join(f"      {p}: {flow(sorted_sites(SITES[c] for c in TRIANGLES[OPPOSITE[p]]))}"
                      for p in TRIANGLES)
    return TEMPLATE.format(off_star=flow(off_star), homes=homes, goals=goals)


TEMPLATE = """\
# Chinese checkers as OpenSpiel's `chinese_checkers` plays it (written by gen_yaml.py).
# The star of 121 cells lies on a 17 x 17 grid with hexagonal neighbours; the grid's
# other 168 sites are `off_star`, where no marble may land.
game: chinese_checkers
title: Chinese checkers
description: >-
  Each player moves marbles from their home triangle to the opposite one: a step to
  a neighbouring cell, or hops over single marbles, chained as far as the player likes.
  The first to fill the opposite triangle wins; after max_moves turns, a draw.
rules: chinese_checkers.rules

players:
  - {{name: north, color: "#d62728"}}
  - {{name: northeast, color: "#2ca02c"}}
  - {{name: southeast, color: "#9467bd"}}
  - {{name: south, color: "#1f77b4"}}
  - {{name: southwest, color: "#ff7f0e"}}
  - {{name: northwest, color: "#8c564b"}}

# OpenSpiel's seats: 2 players north and south, 3 every other corner, 4 two pairs.
in_play:
  option: players
  choices:
    "2": [north, south]
    "3": [north, southeast, southwest]
    "4": [north, northeast, south, southwest]
    "6": [north, northeast, southeast, south, southwest, northwest]

board:
  grid: {{files: 17, ranks: 17, neighbours: [n, ne, e, s, sw, w]}}

directions:
  hex: [n, ne, e, s, sw, w]

regions:
  off_star: {off_star}
  home:
    per_player:
{homes}
  goal:
    per_player:
{goals}

pieces:
  marble: {{symbol: O}}
  trail: {{symbol: "+", owner: neutral, description: A cell the hopping marble has left this turn.}}

variables:
  turns: {{type: int, in_position: false, title: turns}}

options:
  players: {{values: [2, 3, 4, 6], default: 2, description: Number of players.}}
  max_moves: {{type: int, default: 1000, min: 1, description: After this many turns the game is a draw.}}

setup:
  north:
    marble: {{region: home}}
  northeast:
    marble: {{region: home}}
  southeast:
    marble: {{region: home}}
  south:
    marble: {{region: home}}
  southwest:
    marble: {{region: home}}
  northwest:
    marble: {{region: home}}

display:
  regions:
    off_star: {{title: off the star, symbol: " ", color: "#ffffff"}}
    goal: {{title: goal}}
"""

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "chinese_checkers.yaml"), "w") as out:
        out.write(yaml_text())
