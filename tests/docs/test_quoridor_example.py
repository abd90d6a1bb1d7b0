"""The Quoridor defines of docs/format.md 3.12.2, taken from the reference as
written, on a hand-built 4x4 Quoridor lattice (cells a1, c1, ..., g7; gaps between
them; nodes b2, d2, ... where gaps cross)."""
from __future__ import annotations

import re
import textwrap

from interpreter import load_game
from tests.helpers import REPO

YAML = """\
game: lattice
title: Lattice
description: Quoridor's lattice, 4 cells a side.
rules: game.rules
players:
  - {{name: white}}
  - {{name: black}}
board:
  grid: {{files: 7, ranks: 7}}
pieces:
  pawn: {{symbol: P}}
  wall: {{symbol: "#", owner: neutral}}
regions:
  nodes: [b2, d2, f2, b4, d4, f4, b6, d6, f6]
  goal:
    per_player:
      white: {{ranks: [7]}}
      black: {{ranks: [1]}}
setup:
  white: {{pawn: [a1]}}
  black: {{pawn: [g7]}}
  neutral: {{wall: [{walls}]}}
"""

RULES = """\
{defines}
phase play:
    turn: move
decision move:
    action reaches:
        drop pawn on sites
        where to == g1 and reaches_goal(player)
        notation "reaches"
        onto empty: place
    action touches:
        drop pawn on sites
        where to == g1 and touches(neighbour(to, e), d2, d4) == 2
        notation "touches2"
        onto empty: place
"""


def _defines() -> str:
    text = (REPO / "docs" / "format.md").read_text()
    found = re.search(r"# Quoridor on a lattice board.*?\n(define reaches_goal.*?)```", text, re.S)
    assert found, "the Quoridor example of format.md 3.12.2"
    return found.group(1)


def _legal(tmp_path, walls: list[str], defines: str) -> list[str]:
    (tmp_path / "game.yaml").write_text(YAML.format(walls=", ".join(walls)))
    (tmp_path / "game.rules").write_text(RULES.format(defines=textwrap.dedent(defines)))
    game = load_game(str(tmp_path))
    return sorted(game.legal_notations(game.initial_state()))


def test_two_walls_end_to_end_cut_the_path(tmp_path):
    # Walls a2-b2-c2 and e2-f2-g2 close rank 1: the pawn on a1 is cut off; only the
    # free node d2 between them leads north, and a path must not cross it.
    walls = ["a2", "b2", "c2", "e2", "f2", "g2"]
    # touches(edge east of g1, d2, d4): the edge once, d2 once (two walls by it), d4 not
    assert _legal(tmp_path, walls, _defines()) == ["touches2"]
    assert _legal(tmp_path, walls[:3], _defines()) == ["reaches", "touches2"]  # d2 touches c2
    # Through the nodes, as the reference first had it, the pawn escapes by d1, d2, d3.
    through_nodes = ("define reaches_goal(p) = exists(connected(first(pieces of p), orthogonal, "
                     "it is not wall), it in goal[p])\n" + _defines().split("\n", 2)[2])
    assert "reaches" in _legal(tmp_path, walls, through_nodes)
