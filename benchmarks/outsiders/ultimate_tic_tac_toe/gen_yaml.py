# Writes ultimate_tic_tac_toe.yaml: 81 cells, 9 board markers, their lines and one-way links.
def cell(b: int, k: int) -> tuple[str, tuple[int, int]]:
    R, C = divmod(b, 3)
    r, c = divmod(k, 3)
    row, col = 3 * R + r, 3 * C + c
    return f"{'abcdefghi'[col]}{9 - row}", (col, 8 - row)
LINES = [(0,1,2),(3,4,5),(6,7,8),(0,3,6),(1,4,7),(2,5,8),(0,4,8),(2,4,6)]
out = ["""# Ultimate tic-tac-toe as OpenSpiel plays it (ultimate_tic_tac_toe). Written by
# gen_yaml.py (in this folder's README): 81 cells named as a 9 x 9 grid read with
# OpenSpiel's top row as rank 9, and nine board markers board0..board8 (OpenSpiel's
# local board numbers). A marker links one way to its nine cells, and each cell links
# one way to the marker of the board its place sends the opponent to: neighbours(m)
# is a small board, first(neighbours(cell)) the next board.
game: ultimate_tic_tac_toe
title: Ultimate tic-tac-toe
description: >-
  Nine tic-tac-toe boards in a 3 x 3 meta-board. The cell played in sends the
  opponent to the board of the same place; a won board counts for the meta-board.
rules: ultimate_tic_tac_toe.rules

players:
  - {name: x, color: "#d62728"}
  - {name: o, color: "#1f77b4"}

board:
  graph:
    sites:"""]
for b in range(9):
    for k in range(9):
        n, (x, y) = cell(b, k)
        out.append(f"      {n}: [{x}, {y}]")
for b in range(9):
    out.append(f"      board{b}: null")
out.append("    one_way:")
for b in range(9):
    for k in range(9):
        out.append(f"      - [board{b}, {cell(b, k)[0]}]")
for b in range(9):
    for k in range(9):
        out.append(f"      - [{cell(b, k)[0]}, board{k}]")
out.append("""
regions:
  boards: [board0, board1, board2, board3, board4, board5, board6, board7, board8]

pieces:
  mark: {symbol: X, description: "A player's mark; on a board marker, a won board."}
  drawn: {symbol: "=", owner: neutral, description: "On a board marker, a board full without a line."}

variables:
  finished: {hidden: true, description: "Boards won or full: all nine draw (unless won)."}
  forced: {type: site, title: board to play in, description: "The board to play in (none: any open one)."}

lines:""")
for b in range(9):
    for line in LINES:
        out.append("  - [" + ", ".join(cell(b, k)[0] for k in line) + "]")
for line in LINES:
    out.append("  - [" + ", ".join(f"board{k}" for k in line) + "]")
open("ultimate_tic_tac_toe.yaml", "w").write("\n".join(out) + "\n")
