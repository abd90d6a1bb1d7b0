"""Check benchmarks/outsiders/hive against OpenSpiel's Hive (base game).

    python benchmarks/outsiders/hive/agree.py --games N --seed S

Plays random games on both sides at once and compares, at every position, the legal
moves, then the end and the returns. OpenSpiel writes a move in UHP notation relative
to another bug ("wA2 bQ/": white's second ant to the north-east of black's queen) and
recentres its board, so moves are compared by what they do: which kind is placed
where, or from which cell to which cell a bug goes. The harness follows where each of
OpenSpiel's tiles stands on this definition's board (its first tile on the middle
cell, k11) to turn a reference tile and a direction into a cell.

Games are left out (counted, not failed) where OpenSpiel's rules are not the printed
ones or where the boards differ by their size:
- os_unpinned: OpenSpiel finds its pinned bugs (the one-hive rule) by a search that
  starts at white's queen; before white's queen is placed it pins nothing, so black
  may move a bug that splits the hive (black queen placed on turn 2, white's not yet);
- rim: a move would leave this definition's 21 x 21 board (OpenSpiel's recentres);
- os_board_limit: OpenSpiel ended the game as a draw because its hive no longer fits
  its radius-8 board.
"""
from __future__ import annotations

import argparse
import os
import random
import sys

import pyspiel

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..", "..")))

from interpreter import load_game  # noqa: E402

OPENSPIEL = "hive(uses_mosquito=false,uses_ladybug=false,uses_pillbug=false)"
SIZE = 21
MIDDLE = (10, 10)
KINDS = {"Q": "queen", "A": "ant", "G": "grasshopper", "S": "spider", "B": "beetle"}
# OpenSpiel's directions as offsets on this board (x files east, y ranks north): its
# axial (q, r) is (x, -y) here, so that its six neighbours are n, ne, e, s, sw, w.
OFFSET = {"NE": (1, 1), "E": (1, 0), "SE": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (0, 1)}


def site_name(cell):
    x, y = cell
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        return None
    return f"{chr(ord('a') + x)}{y + 1}"


def parse_uhp(text):
    """(tile, reference tile or None, direction) of a UHP move; None for a pass."""
    if text == "pass":
        return None
    parts = text.split(" ")
    if len(parts) == 1:
        return parts[0], None, None
    ref = parts[1]
    direction = "ABOVE"
    if ref[0] in "\\-/":
        direction = {"\\": "NW", "-": "W", "/": "SW"}[ref[0]]
    elif ref[-1] in "\\-/":
        direction = {"\\": "SE", "-": "E", "/": "NE"}[ref[-1]]
    return parts[0], ref.strip("\\-/"), direction


class Tracker:
    """Where OpenSpiel's tiles stand on this definition's board."""

    def __init__(self):
        self.cell = {}      # tile -> (x, y)
        self.stack = {}     # (x, y) -> tiles, bottom first

    def effect(self, text):
        """('pass',), ('place', kind, site) or ('move', from site, to site); a site
        off this board is None."""
        move = parse_uhp(text)
        if move is None:
            return ("pass",)
        tile, ref, direction = move
        if ref is None:
            target = MIDDLE
        elif direction == "ABOVE":
            target = self.cell[ref]
        else:
            rx, ry = self.cell[ref]
            dx, dy = OFFSET[direction]
            target = (rx + dx, ry + dy)
        if tile in self.cell:
            return ("move", site_name(self.cell[tile]), site_name(target))
        return ("place", KINDS[tile[1]], site_name(target))

    def target(self, text):
        tile, ref, direction = parse_uhp(text)
        if ref is None:
            return tile, MIDDLE
        if direction == "ABOVE":
            return tile, self.cell[ref]
        rx, ry = self.cell[ref]
        dx, dy = OFFSET[direction]
        return tile, (rx + dx, ry + dy)

    def apply(self, text):
        if text == "pass":
            return
        tile, target = self.target(text)
        if tile in self.cell:
            old = self.cell[tile]
            self.stack[old].pop()
            if not self.stack[old]:
                del self.stack[old]
        self.cell[tile] = target
        self.stack.setdefault(target, []).append(tile)


def regelwerk_effect(game, state, notation):
    if notation == "pass":
        return ("pass",)
    if "@" in notation:
        symbol, site = notation.split("@")
        return ("place", KINDS[symbol], site)
    origin, target = notation.split("-")
    return ("move", origin, target)


def play(game, os_game, rng, plies_seen):
    """Plays one random game; returns (outcome, detail)."""
    state = game.initial_state()
    os_state = os_game.new_initial_state()
    tracker = Tracker()
    while True:
        over, os_over = game.is_terminal(state), os_state.is_terminal()
        if over or os_over:
            if over and os_over:
                result = game.result(state)
                winner = {None: 0.0, "white": 1.0, "black": -1.0}[result.winner]
                if os_state.returns()[0] != winner:
                    return "returns", f"ply {state.ply}: {result} vs {os_state.returns()}"
                return "agree", None
            if os_over and os_state.returns() == [0.0, 0.0] and len(os_state.history()) < 500:
                return "os_board_limit", None
            return "end", f"ply {state.ply}: regelwerk over {over}, OpenSpiel over {os_over}"
        actions = game.legal_actions(state)
        ours = {}
        for action in actions:
            ours.setdefault(regelwerk_effect(game, state, action.notation), action)
        theirs = {}
        for code in os_state.legal_actions():
            text = os_state.action_to_string(code)
            theirs.setdefault(tracker.effect(text), (code, text))
        plies_seen[0] += 1
        if any(None in key for key in theirs):
            return "rim", None
        if set(ours) != set(theirs):
            only_os = set(theirs) - set(ours)
            only_rw = set(ours) - set(theirs)
            if "wQ" not in tracker.cell and only_os and not only_rw and all(k[0] == "move" for k in only_os):
                return "os_unpinned", None
            return "moves", (f"ply {state.ply}: only OpenSpiel {sorted(only_os)[:8]}, "
                             f"only regelwerk {sorted(only_rw)[:8]}; {os_state.serialize()}")
        key = rng.choice(sorted(ours))
        state = game.apply(state, ours[key])
        code, text = theirs[key]
        os_state.apply_action(code)
        tracker.apply(text)


def effect_perft(os_state, tracker, depth):
    """OpenSpiel's perft counted by effect: actions doing the same thing count once."""
    if depth == 0:
        return 1
    if os_state.is_terminal():
        return 0
    children = {}
    for code in os_state.legal_actions():
        text = os_state.action_to_string(code)
        children.setdefault(tracker.effect(text), (code, text))
    total = 0
    for code, text in children.values():
        child = os_state.clone()
        child.apply_action(code)
        moved = Tracker()
        moved.cell = dict(tracker.cell)
        moved.stack = {cell: list(tiles) for cell, tiles in tracker.stack.items()}
        moved.apply(text)
        total += effect_perft(child, moved, depth - 1)
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--perft", type=int, default=0, help="also compare perft to this depth, by effect")
    args = parser.parse_args()
    game = load_game(HERE)
    os_game = pyspiel.load_game(OPENSPIEL)
    if args.perft:
        ours = game.engine.perft(game.engine.initial_state(), args.perft)[-1]
        theirs = effect_perft(os_game.new_initial_state(), Tracker(), args.perft)
        print(f"perft {args.perft} by effect: regelwerk {ours}, OpenSpiel {theirs}")
        if ours != theirs:
            return 1
    rng = random.Random(args.seed)
    tally = {}
    plies_seen = [0]
    for number in range(args.games):
        outcome, detail = play(game, os_game, rng, plies_seen)
        tally[outcome] = tally.get(outcome, 0) + 1
        if detail is not None or args.verbose:
            print(f"game {number}: {outcome} {detail or ''}", flush=True)
    print(f"{args.games} games, seed {args.seed}, {plies_seen[0]} positions compared: {tally}")
    failures = sum(n for k, n in tally.items() if k in ("moves", "end", "returns"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
