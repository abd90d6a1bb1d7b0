"""The chess of docs/examples/chess: perft counts and hand-checked positions for
every rule that is easy to get wrong — castling (one action, not through or out of
check, rights lost), en passant (only at once), promotion choices, mate,
stalemate, threefold repetition, the fifty-move rule and its order against mate,
insufficient material. The slow oracle tests (tests/oracles/) compare it with
OpenSpiel and python-chess at length."""
import pytest

from interpreter import load_game
from interpreter.analysis.perft import perft
from tests.helpers import REPO, play, winner

KINDS = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}
CASTLING_ROOKS = {"K": "h1", "Q": "a1", "k": "h8", "q": "a8"}


@pytest.fixture(scope="module")
def game():
    return load_game(str(REPO / "docs" / "examples" / "chess"))


def position(game, fen: str, quiet: int = 0):
    """The position of a FEN: castling rights are rooks' `castling` flags, the
    en-passant square the flag of the pawn that stepped over it."""
    placement, turn, castling, en_passant = fen.split()[:4]
    pieces = {}
    for row, text in zip(range(8, 0, -1), placement.split("/")):
        file = 0
        for char in text:
            if char.isdigit():
                file += int(char)
                continue
            owner = "white" if char.isupper() else "black"
            pieces[f"{'abcdefgh'[file]}{row}"] = (owner, KINDS[char.lower()], {})
            file += 1
    for right in castling.replace("-", ""):
        pieces[CASTLING_ROOKS[right]][2]["castling"] = True
    if en_passant != "-":
        pawn = en_passant[0] + ("4" if en_passant[1] == "3" else "5")
        pieces[pawn][2]["en_passant"] = True
    return game.make_state(pieces, to_move="white" if turn == "w" else "black", variables={"quiet": quiet})


def legal(game, state, start: str) -> list[str]:
    return [n for n in game.legal_notations(state) if n.startswith(start)]


def kind_at(game, state, site):
    found = [p for p in game.pieces(state) if p.site == site]
    return (found[0].owner, found[0].kind) if found else None


def test_perft_from_the_start(game):
    assert perft(game, game.initial_state(), 3) == [20, 400, 8902]


def test_perft_of_kiwipete(game):
    # Castling both ways, en passant, promotions, pins (chessprogramming.org).
    state = position(game, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert perft(game, state, 2) == [48, 2039]


def test_castling_is_one_action_that_moves_both_pieces(game):
    state = position(game, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert legal(game, state, "e1") == sorted(["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"])
    after = game.apply(state, "e1g1")
    assert kind_at(game, after, "g1") == ("white", "king") and kind_at(game, after, "f1") == ("white", "rook")
    assert kind_at(game, after, "h1") is None and game.to_move(after) == "black"
    after = game.apply(after, "e8c8")
    assert kind_at(game, after, "c8") == ("black", "king") and kind_at(game, after, "d8") == ("black", "rook")
    assert kind_at(game, after, "a8") is None


def test_no_castling_out_of_through_or_into_check(game):
    # A rook on f8 attacks f1 (crossed by the short castling); b1 may be attacked.
    through = position(game, "1r3rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert "e1g1" not in legal(game, through, "e1") and "e1c1" in legal(game, through, "e1")
    into = position(game, "6rk/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert "e1g1" not in legal(game, into, "e1") and "e1c1" in legal(game, into, "e1")
    out_of = position(game, "4r2k/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert "e1g1" not in legal(game, out_of, "e1") and "e1c1" not in legal(game, out_of, "e1")


def test_castling_rights_are_lost_by_moving_king_or_rook(game):
    state = position(game, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    back = play(game, "e1e2", "e8e7", "e2e1", "e7e8", state=state)
    assert "e1g1" not in legal(game, back, "e1") and "e1c1" not in legal(game, back, "e1")
    back = play(game, "h1h2", "a8a7", "h2h1", "a7a8", state=state)
    assert "e1g1" not in legal(game, back, "e1") and "e1c1" in legal(game, back, "e1")
    assert "e8c8" not in legal(game, game.apply(back, "a1b1"), "e8")


def test_en_passant_only_right_after_the_double_step(game):
    state = position(game, "4k3/8/8/8/3p4/8/4P2P/4K3 w - - 0 1")
    after = game.apply(state, "e2e4")
    assert legal(game, after, "d4") == ["d4d3", "d4e3"]
    taken = game.apply(after, "d4e3")
    assert kind_at(game, taken, "e4") is None and kind_at(game, taken, "e3") == ("black", "pawn")
    later = play(game, "h2h3", "e8d8", "e2e4", "d8e8", "h3h4", state=state)
    assert legal(game, later, "d4") == ["d4d3"]


def test_en_passant_that_would_expose_the_king_is_illegal(game):
    state = position(game, "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1")
    assert legal(game, state, "e4") == ["e4e3"]


def test_promotion_is_one_action_per_piece_chosen(game):
    state = position(game, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert legal(game, state, "a7") == ["a7a8b", "a7a8n", "a7a8q", "a7a8r", "a7b8b", "a7b8n", "a7b8q", "a7b8r"]
    assert kind_at(game, game.apply(state, "a7b8n"), "b8") == ("white", "knight")
    assert kind_at(game, game.apply(state, "a7a8r"), "a8") == ("white", "rook")


def test_mate_loses_and_stalemate_draws(game):
    mate = game.apply(position(game, "7k/8/6K1/8/8/8/8/R7 w - - 0 1"), "a1a8")
    assert winner(game, mate) == "white"
    stalemate = game.apply(position(game, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"), "f1f7")
    assert winner(game, stalemate) is None


def test_threefold_repetition_draws_whatever_the_move_clock(game):
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    twice = play(game, *shuffle, *shuffle[:3])
    assert winner(game, twice) == "unfinished"
    # The start position a third time, its move clock now at 8: a draw.
    thrice = game.apply(twice, shuffle[3])
    assert game.variables(thrice)["quiet"] == 8
    assert winner(game, thrice) is None and game.result(thrice).ending.text == "draw"


def test_a_position_with_an_en_passant_chance_differs_from_one_without(game):
    # After e2e4 beside the d4 pawn Black may take en passant; when the kings have
    # shuffled back twice the board is the same, but not the position: no draw.
    # The first position to come a third time is the one after e8d8.
    state = game.apply(position(game, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"), "e2e4")
    shuffle = ["e8d8", "e1d1", "d8e8", "d1e1"]
    after = play(game, *shuffle, *shuffle, state=state)
    assert winner(game, after) == "unfinished"
    assert winner(game, game.apply(after, "e8d8")) is None


def test_the_hundredth_quiet_ply_draws_unless_it_mates(game):
    quiet = position(game, "7k/8/6K1/8/8/8/8/R7 w - - 0 1", quiet=99)
    assert winner(game, game.apply(quiet, "a1b1")) is None
    assert winner(game, game.apply(quiet, "a1a8")) == "white"
    assert winner(game, game.apply(position(game, "7k/8/6K1/8/8/8/P7/R7 w - - 0 1", quiet=99), "a2a3")) \
        == "unfinished"


@pytest.mark.parametrize("fen, move, over", [
    ("4k3/8/8/8/8/8/2r5/1B2K3 w - - 0 1", "b1c2", True),      # king and bishop against king
    ("4k3/8/8/8/8/8/2r5/1B2K3 w - - 0 1", "b1a2", False),     # the rook is still there
    ("4k3/8/8/8/8/8/2r5/N3K3 w - - 0 1", "a1c2", True),       # king and knight against king
    ("2b1k3/8/8/8/8/8/2r5/N3K3 w - - 0 1", "a1c2", False),    # OpenSpiel: a knight and a bishop can mate
    ("4k1b1/8/8/8/8/8/2r5/1B2K3 w - - 0 1", "b1c2", True),    # bishops on squares of one colour
    ("4kb2/8/8/8/8/8/2r5/1B2K3 w - - 0 1", "b1c2", False),    # bishops on both colours
])
def test_insufficient_material_draws(game, fen, move, over):
    after = game.apply(position(game, fen), move)
    assert winner(game, after) == (None if over else "unfinished")
