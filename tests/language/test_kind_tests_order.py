"""A lister's loop over the player's pieces tests their kinds in an `if`/`elif`
chain (compilation/decisions.py `_board_pieces`): the kinds of the most pieces of
the setup come first, since a piece meets one test per kind tested before its
own; the kinds are apart, so the order changes no candidate."""
from __future__ import annotations

import re

from interpreter import load_game
from tests.helpers import REPO


def test_the_kinds_of_most_pieces_are_tested_first() -> None:
    # (shogi declares the king first and the pawn, eighteen of the setup's forty pieces,
    # eighth; gold and the promoted small pieces move alike: one test of the group)
    game = load_game(str(REPO / "benchmarks" / "outsiders" / "shogi"))
    kinds = {name: kind.index for name, kind in game.model.kinds.items()}
    source = game.engine.rules.source
    lister = source[source.index("kk = pc[1]"):]
    tested = re.findall(r"(?:if|elif) kk (?:== (\d+)|in (\w+))", lister)
    single = [int(number) for number, _ in tested[:8] if number]
    # pawns (18), then the groups of four (gold's first: its kind's index is the lowest),
    # then the king, rook and bishop (two each), the dragon and horse (none) last
    assert single == [kinds[name] for name in
                      ("pawn", "silver", "knight", "lance", "king", "rook", "bishop")]
    assert tested[1][1] and not tested[1][0]  # (gold's group second)
    assert [int(number) for number, _ in tested[8:10]] == [kinds["dragon"], kinds["horse"]]
    assert game.engine.perft(game.engine.initial_state(), 3) == [30, 900, 25470]
