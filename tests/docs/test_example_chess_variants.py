"""The overlays on the chess example (docs/examples/chess/variants).

Antichess (antichess.yaml) removes the named check rule (`remove forbid self_check`), changes one
entry of the phase (`change phase play:` with a new `before each turn`, keeping the
`after each turn` that ends the en-passant chance), makes captures compulsory in
`change decision move:` with a `prefer` line naming a case (`onto enemy`), and drops
castling from the YAML (`remove: attributes: [castling]`, rooks' setup entries
changed). King of the Hill (king-of-the-hill.yaml) adds a region and changes two
entries of the phase. Perft and hand-checked positions; the slow
tests/oracles/test_chess_variants.py compares both with python-chess's variant
boards move by move."""
import pytest

from interpreter import load_game
from interpreter.analysis.perft import perft
from interpreter.loading.show import effective_definition
from tests.helpers import REPO, winner

VARIANTS = REPO / "docs" / "examples" / "chess" / "variants"
VARIANT = VARIANTS / "antichess.yaml"
KINDS = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}


@pytest.fixture(scope="module")
def game():
    return load_game(str(VARIANT))


def position(game, placement: str, to_move: str = "white", en_passant: str = ""):
    """The position of a FEN's placement field; `en_passant`: the site of the pawn
    that has just stepped two squares past an enemy pawn."""
    pieces = {}
    for row, text in zip(range(8, 0, -1), placement.split("/")):
        file = 0
        for char in text:
            if char.isdigit():
                file += int(char)
                continue
            site = f"{'abcdefgh'[file]}{row}"
            pieces[site] = ("white" if char.isupper() else "black", KINDS[char.lower()],
                            {"en_passant": True} if site == en_passant else {})
            file += 1
    return game.make_state(pieces, to_move=to_move)


def test_perft_from_the_start_is_the_known_count(game):
    # The counts of antichess from the start (lichess, Fairy-Stockfish).
    assert perft(game, game.initial_state(), 4) == [20, 400, 8067, 153299]


def test_captures_are_compulsory(game):
    state = game.initial_state()
    for move in ("e2e3", "b7b5"):
        state = game.apply(state, move)
    assert game.legal_notations(state) == ["f1b5"]


def test_there_is_no_check_and_a_king_is_taken_like_any_piece(game):
    # The white king on e1 stands in the rook's line: White may move elsewhere.
    state = position(game, "4r3/8/8/8/8/8/P7/4K3")
    assert "a2a3" in game.legal_notations(state)
    # Black must take the king.
    state = game.apply(state, "a2a3")
    assert game.legal_notations(state) == ["e8e1"]


def test_no_castling(game):
    state = position(game, "4k3/8/8/8/8/8/8/4K2R")
    assert "e1g1" not in game.legal_notations(state)
    assert "castling" not in game.definition.data["attributes"]


def test_a_player_without_pieces_wins(game):
    state = position(game, "8/8/p7/8/8/8/8/R7")
    assert game.legal_notations(state) == ["a1a6"]
    state = game.apply(state, "a1a6")
    assert game.is_terminal(state) and winner(game, state) == "black"


def test_a_stalemated_player_wins(game):
    state = game.apply(position(game, "8/p7/8/P7/8/8/8/8"), "a5a6")
    assert game.is_terminal(state) and winner(game, state) == "black"


def test_a_pawn_may_promote_to_a_king(game):
    state = position(game, "8/4P3/8/8/8/8/8/k7")
    assert sorted(game.legal_notations(state)) == ["e7e8b", "e7e8k", "e7e8n", "e7e8q", "e7e8r"]
    after = game.apply(state, "e7e8k")
    assert [(p.site, p.kind) for p in game.pieces(after) if p.owner == "white"] == [("e8", "king")]


def test_the_phase_keeps_its_after_each_turn_the_en_passant_chance_ends(game):
    state = position(game, "8/p2p4/7p/4P3/8/8/8/7R", to_move="black")
    state = game.apply(state, "d7d5")
    assert sorted(game.legal_notations(state)) == ["e5d6", "h1h6"]  # two captures, one of them en passant
    state = game.apply(game.apply(state, "h1h6"), "a7a5")
    legal = game.legal_notations(state)
    assert "e5d6" not in legal and len(legal) > 1


def test_show_marks_where_each_entry_of_the_phase_comes_from(game):
    shown = effective_definition(game.definition)
    phase = shown[shown.index("phase play:"):shown.index("decision move:")]
    assert "antichess.rules:9:5\n    before each turn:\n        if no legal action:" in phase
    assert "chess.rules:52:5\n    after each turn:" in phase
    assert "forbid self_check" not in shown and "castle_short" not in shown
    assert "# from docs/examples/chess/variants/antichess.yaml:21\n    rook:" in shown


def test_the_variant_validates_without_warnings(game):
    assert [str(w) for w in game.warnings] == []


# ------------------------------------------------------------------ King of the Hill
@pytest.fixture(scope="module")
def hill():
    return load_game(str(VARIANTS / "king-of-the-hill.yaml"))


def test_king_of_the_hill_validates_without_warnings_and_counts_like_chess(hill):
    assert [str(w) for w in hill.warnings] == []
    assert perft(hill, hill.initial_state(), 3) == [20, 400, 8902]


def test_a_king_on_the_hill_wins(hill):
    state = position(hill, "4k3/8/8/8/8/4K3/8/8")
    state = hill.apply(state, "e3e4")
    assert hill.is_terminal(state) and winner(hill, state) == "white"


def test_a_king_may_not_climb_the_hill_into_check(hill):
    # The rook on d8 guards d4: the winning step is illegal (forbid self_check judges it).
    state = position(hill, "3rk3/8/8/8/8/3K4/8/8")
    legal = hill.legal_notations(state)
    assert "d3d4" not in legal and "d3e4" in legal


def test_a_lone_king_is_no_draw_on_the_hill(hill):
    # Chess would draw this at once for insufficient material.
    state = position(hill, "4k3/8/8/8/8/8/8/4K3")
    assert not hill.is_terminal(state) and "e1e2" in hill.legal_notations(state)


def test_the_hill_keeps_the_en_passant_reset(hill):
    state = position(hill, "4k3/3p4/8/4P3/8/8/8/4K2R", to_move="black")
    state = hill.apply(state, "d7d5")
    assert "e5d6" in hill.legal_notations(state)
    state = hill.apply(hill.apply(state, "h1h2"), "e8e7")
    assert "e5d6" not in hill.legal_notations(state)
