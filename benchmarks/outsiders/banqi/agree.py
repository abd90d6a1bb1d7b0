"""Banqi against OpenSpiel's banqi, move by move.

python benchmarks/outsiders/banqi/agree.py --games 200 --seed 1
python benchmarks/outsiders/banqi/agree.py speed --seconds 3 --rounds 3
python benchmarks/outsiders/banqi/agree.py perft --depth 3 --random-plies 120 --seed 4

OpenSpiel's flip is a chance node over the kinds still face down (`Reveal:S`, weighted
by how many are left); the definition's events have one equally likely outcome per
face-down piece (`reveal31:12`: weights cannot follow the counts, README.md), the
pieces in OpenSpiel's order of kinds (red general ... red soldiers, black general
...). OpenSpiel's outcome is written as the first of the definition's outcomes that
turn up that kind. For the comparison the definition's outcomes are grouped by the
piece they turn up (each group named by its first outcome, probabilities added),
which must give OpenSpiel's outcomes and probabilities exactly.
"""

import os
import sys
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import oracle  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
COLUMNS, SQUARES, FLIPS = 8, 32, 32
# The piece OpenSpiel's last written outcomes turn up (its letter: upper case red), by
# their notation here: RevealByPiece.apply checks that the definition turns up the same.
OPENSPIEL_PIECE: dict[str, str] = {}


def site(square: int) -> str:
    row, column = divmod(square, COLUMNS)
    return "abcdefgh"[column] + str(row + 1)


def write(state, action: int) -> str:
    text = state.action_to_string(state.current_player(), action)
    if state.is_chance_node():
        # OpenSpiel's outcome is the kind's index (0 red general ... 13 black soldier),
        # its probability the number of that kind face down over all face down.
        face_down = str(state).split("Player")[0].count("?")
        left = {kind: round(p * face_down) for kind, p in state.chance_outcomes()}
        notation = f"reveal{face_down}:{sum(n for kind, n in left.items() if kind < action)}"
        OPENSPIEL_PIECE[notation] = text.split(":")[1]
        return notation
    if action < FLIPS:
        return f"flip:{site(action)}"
    source, dest = divmod(action - FLIPS, SQUARES)
    return f"{site(source)}{'x' if 'x' in text else '-'}{site(dest)}"


@dataclass(frozen=True)
class Grouped:
    notation: str


class RevealByPiece:
    """The definition, its chance outcomes grouped by the piece they turn up."""

    def __init__(self, game):
        self.game = game
        self.players = game.players

    def __getattr__(self, name):
        return getattr(self.game, name)

    def _turned_up(self, state, outcome):
        """The position after the outcome and the letter of the piece it turns up."""
        where = self.game.variables(state)["flipped"]
        after = self.game.apply(state, outcome)
        piece = next(p for p in self.game.pieces(after) if p.site == where)
        symbol = self.game.kinds[piece.kind]["symbol"]
        red = (piece.owner == "p0") == self.game.variables(after)["p0_red"]
        return after, symbol if red else symbol.lower()

    def chance_outcomes(self, state):
        groups: dict[str, list] = {}
        for outcome, probability in self.game.chance_outcomes(state):
            group = groups.setdefault(self._turned_up(state, outcome)[1], [outcome.notation, 0.0])
            group[1] += probability
        return [(Grouped(name), p) for name, p in groups.values()]

    def apply(self, state, notation):
        if self.game.to_move(state) != "chance":
            return self.game.apply(state, notation)
        after, letter = self._turned_up(state, notation)
        if letter != OPENSPIEL_PIECE[notation]:
            raise AssertionError(f"{notation} turns up {letter}, OpenSpiel's {OPENSPIEL_PIECE[notation]}")
        return after


def revealed_by_piece(rw_game, os_game):
    """The games as compared: regelwerk's reveals read as OpenSpiel's (RevealByPiece)."""
    return RevealByPiece(rw_game), os_game


if __name__ == "__main__":
    sys.exit(oracle.main(HERE, "banqi", write, wrap=revealed_by_piece))
