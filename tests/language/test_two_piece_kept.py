"""A move that takes a second piece along (the fresh chess's castling: the king
steps two squares, `move X to Y` puts the rook beside it through `h_clear`) keeps
its `forbid result` check's answer by code as a lone piece's own move does
(compilation/lone_pieces.mover_list_kept, runtime/kept_answers.KeptByMove): the
case keeps every site list, the parts' loops go over the mover's site once the
case is played, and where they walk a list instead the noting copy gives -1 and
nothing is kept."""
import ast

import pytest

from interpreter import load_game
from interpreter.compilation import lone_pieces
from interpreter.runtime.kept_answers import KeptByMove
from tests.helpers import REPO, outsider_script

CHESS = str(REPO / "benchmarks" / "outsiders" / "chess")
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def _position(game, mover: str, board: str, ep: str = "-"):
    return game.parse_position(f"rw2; game chess; ply 0; phase play; turn {mover} move 0; board {board}; "
                               f"variables ep={ep} fresh=0 quiet=0")


def _kept(game) -> dict[str, KeptByMove]:
    """The checks kept by code, by what they check (`action 'castle_short', onto empty`)."""
    return {game.rules.source_map[check.__name__].what.split(":")[0]: check
            for row in game.rules.result_checks for check in row if isinstance(check, KeptByMove)}


def _noting_counted(game, what: str, monkeypatch) -> list:
    """The codes the checks kept by code of `what` ask their noting copies of
    from now on (their misses), the answers they kept (in other tests: the
    compiled game is shared) forgotten."""
    asked: list = []
    for row in game.rules.result_checks:
        for check in row:
            if isinstance(check, KeptByMove) and game.rules.source_map[check.__name__].what.startswith(what):
                monkeypatch.setattr(check, "noting", _counting(check.noting, asked))
                check.kept.clear()
    return asked


def _counting(noting, asked: list):
    def counted(s, code, memo=None):
        asked.append(code)
        return noting(s, code, memo)
    return counted


def test_castlings_checks_are_kept_by_code_and_not_when_switched_off(monkeypatch):
    castles = {"action 'castle_short', onto empty", "action 'castle_long', onto empty"}
    assert castles <= set(_kept(load_game(CHESS)))
    monkeypatch.setattr(lone_pieces, "TWO_PIECE_KEPT", False)
    assert not castles & set(_kept(load_game(CHESS)))


WHITE_CASTLES = "e1=white.king a1=white.rook[castling=1] h1=white.rook[castling=1]"


@pytest.mark.parametrize("black, castles", [
    # nothing attacks: both ways
    ("a8=black.king", ["e1c1", "e1g1"]),
    # g1 attacked (the landing, the check's question): long only
    ("g8=black.rook a8=black.king", ["e1c1"]),
    # f1 attacked (the square passed): long only
    ("f8=black.rook a8=black.king", ["e1c1"]),
    # the king in check: neither
    ("e8=black.rook a8=black.king", []),
    # b1 attacked, the rook's path but not the king's: both
    ("b8=black.rook h8=black.king", ["e1c1", "e1g1"]),
    # c1 attacked from a bishop on f4: short only
    ("f4=black.bishop a8=black.king", ["e1g1"]),
])
def test_hand_checked_castlings(black, castles):
    game = load_game(CHESS)
    state = _position(game, "white", f"{WHITE_CASTLES} {black}")
    for _ in range(2):  # (the second listing gives the kept answers)
        assert sorted(n for n in game.legal_notations(state) if n in ("e1c1", "e1g1")) == castles


def test_the_castling_answer_kept_follows_a_blocker_leaving_the_line(monkeypatch):
    # (the knight on g4 shields g1 from the rook on g8: castling short is allowed and its answer kept;
    # once the knight has left, the kept answer (which read g4) is not given again)
    game = load_game(CHESS)
    asked = _noting_counted(game, "action 'castle_short'", monkeypatch)
    first = _position(game, "white", f"{WHITE_CASTLES} g4=white.knight g8=black.rook a8=black.king")
    assert "e1g1" in game.legal_notations(first)
    assert "e1g1" in game.legal_notations(first) and len(asked) == 1  # (kept: asked once)
    state = game.apply(game.apply(first, "g4e5"), "a8b8")
    assert "e1g1" not in game.legal_notations(state) and len(asked) == 2
    # the first board again: its answer given back, nothing asked
    assert "e1g1" in game.legal_notations(first) and len(asked) == 2
    assert "e1g1" not in game.legal_notations(state) and len(asked) == 2


def test_after_the_castling_rook_was_captured():
    game = load_game(CHESS)
    state = _position(game, "black", f"{WHITE_CASTLES} d5=black.bishop b8=black.king")
    assert {"e1c1", "e1g1"} <= set(game.legal_notations(game.apply(state, "b8c8")))
    # (listed first: the answers of both castlings kept on a board the bishop's capture changes)
    state = game.apply(state, "d5h1")
    legal = game.legal_notations(state)
    assert "e1c1" in legal and "e1g1" not in legal
    state = _position(game, "black", f"{WHITE_CASTLES} e5=black.bishop b8=black.king")
    legal = game.legal_notations(game.apply(state, "e5a1"))
    assert "e1g1" in legal and "e1c1" not in legal


@pytest.mark.parametrize("rook, allowed", [("a5=black.rook", False), ("a6=black.rook", True)])
def test_en_passant_opening_the_kings_rank(rook, allowed):
    # (e5xd6 empties d5 and e5: the rook on a5 would see the king on h5)
    game = load_game(CHESS)
    state = _position(game, "white", f"h5=white.king e5=white.pawn d5=black.pawn {rook} e8=black.king", "d5")
    assert ("e5d6" in game.legal_notations(state)) is allowed


def test_a_noting_copy_walking_a_list_gives_no_sites():
    # (asked of a code whose origin holds no king — the parts' loop then walks the player's list —
    # the noting copy gives -1; KeptByMove asks it only of the king's moves, and keeps nothing for -1)
    game = load_game(CHESS)
    short = _kept(game)["action 'castle_short', onto empty"]
    state = _position(game, "white", f"{WHITE_CASTLES} a8=black.king")
    code = next(code for code in game.engine.legal(state) if game.layout.sites[code[2]] == "g1")
    answer, sites = short.noting(state, code)
    assert not answer and sites > 0
    moved = _position(game, "white", "e1=white.queen g3=white.king h1=white.rook[castling=1] a8=black.king")
    answer, sites = short.noting(moved, code)
    assert sites == -1 and not answer


def test_an_answer_noted_through_a_list_is_not_kept():
    class State:
        board = [(0, 3), None]
        player = 0

    noted: list = []

    def noting(s, code, memo=None):
        noted.append(code)
        return True, -1
    check = KeptByMove(lambda s, code, memo=None: True, 3, noting)
    assert check(State(), (0, 0, 1), {}) and check(State(), (0, 0, 1), {})
    assert len(noted) == 2 and not check.kept


def test_kiwipete_perft_with_and_without(monkeypatch):
    agree = outsider_script("chess")
    counts = []
    for on in (True, False):
        monkeypatch.setattr(lone_pieces, "TWO_PIECE_KEPT", on)
        game = load_game(CHESS)
        state = game.parse_position(agree.position_text(game, KIWIPETE))
        counts.append(list(game.engine.perft(state, 3)))
    assert counts == [[48, 2039, 97862]] * 2


def test_which_two_piece_moves_are_kept():
    def parsed(text: str) -> list:
        return ast.parse(text).body
    part = parsed("for i0 in (at,) if b[at] is not None and b[at][0] == p and b[at][1] == 0 else o[p]:\n"
                  "    if b[i0][1] == 0 and b[k1[i0]] is None: t = True")
    lists = [("p", 0, part[0].iter.orelse)]
    case = ("b[at] = None\no[pc[0]].remove(at)\nb[to] = pc\no[pc[0]].append(to)\nat = to\n"
            "x0 = b[k2[to]]\nh_clear(b, o, k3[to])\nh_clear(b, o, k2[to])\nb[k3[to]] = x0\n"
            "o[x0[0]].append(k3[to])\nv[2] += 1")
    assert lone_pieces.mover_list_kept(parsed(case), part, lists)
    assert lone_pieces.read_through_board(parsed(case), part, clearing=True)
    assert not lone_pieces.read_through_board(parsed(case), part)
    # the site cleared found through a list (its choice unnoted), the board given whole, `s` read,
    # a part reading another list
    assert not lone_pieces.mover_list_kept(parsed(case.replace("h_clear(b, o, k3[to])", "h_clear(b, o, o[q][0])")),
                                           part, lists)
    assert not lone_pieces.read_through_board(parsed(case + "\nh_flip(b, to)"), part, clearing=True)
    assert not lone_pieces.mover_list_kept(parsed(case + "\ns.ply += 1"), part, lists)
    assert not lone_pieces.mover_list_kept(parsed(case), part + parsed("t = len(o[q])"), lists)
