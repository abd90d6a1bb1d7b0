"""A `forbid result` check plays its case without the statements that only set
attributes of pieces no `forbid result` line reads (compilation/attribute_writes.py,
actions.ActionCompiler._checked_statements): a flag set on the mover, a procedure
clearing flags over a region. Where a line, another statement of the case, an
`after each action` block or the score reads the attribute, the check plays them.
The game itself still sets them."""
import ast

import pytest

from interpreter import load_game
from interpreter.compilation import attribute_writes
from interpreter.runtime.kept_answers import KeptByMove
from tests.helpers import REPO, legal_codes_seen, stones_and_rocks, write_definition

SETUP = ("attributes:\n  moved: {type: flag}\n"
         "variables:\n  quiet: {type: int, default: 0}\n"
         "regions:\n  homes:\n    per_player:\n      white: [a1, b1]\n      black: [c4, d4]\n"
         "setup:\n  white:\n    stone: [a2, b1]\n  black:\n    stone: [c2]\n")
RULES = """\
phase play:
    turn: move
    if no action: lose
decision move:
    action stone_move by stone:
        step orthogonal
        notation "{from}{to}"
        onto empty:
            move
            piece.moved = true
            settled
            EXTRA
    AFTER
procedure settled:
    for each s in homes[player]:
        s.moved = true
forbid result where FORBID
"""
# (no stone of the mover's west of an enemy: b2 is forbidden, c2 being black)
BESIDE = "exists(pieces of player, neighbour(it, e) is enemy)"
# (no stone of the mover's that has moved: every move)
MOVED = "exists(pieces of player, it.moved)"


def _game(tmp_path, forbid: str, extra: str = "quiet = 0", after: str = ""):
    rules = RULES.replace("FORBID", forbid).replace("EXTRA", extra).replace("AFTER", after)
    return load_game(write_definition(tmp_path, stones_and_rocks(extra=SETUP), rules))


def _check_code(game) -> str:
    """The generated check of the stones' moves."""
    name = game.rules.result_checks[0][0].__name__
    return next(ast.unparse(f) for f in game.rules.module.body if isinstance(f, ast.FunctionDef) and f.name == name)


def _moved(state) -> list:
    return sorted((site, piece[3]) for site, piece in enumerate(state.board) if piece is not None and piece[0] == 0)


def test_the_cases_attribute_writes_no_line_reads_are_left_out_of_its_check(tmp_path):
    game = _game(tmp_path, BESIDE)
    code = _check_code(game)
    # (no piece's attribute set, no loop over the region: the part's loop over the pieces alone)
    assert "x0" not in code and code.count("for ") == 1
    assert sorted(game.legal_notations(game.initial_state())) == ["a2a1", "a2a3", "b1a1", "b1c1"]
    # (played, the move sets the mover's flag and, over white's homes, b1's)
    state = game.apply(game.initial_state(), "a2a3")
    sites = game.layout.sites
    assert [(sites[site], moved) for site, moved in _moved(state)] == [("b1", True), ("a3", True)]


def test_an_attribute_a_line_reads_is_set_by_the_check(tmp_path):
    game = _game(tmp_path, MOVED)
    assert "x0" in _check_code(game)
    # every move leaves a stone that has moved: none is legal, white loses
    state = game.initial_state()
    assert game.legal_notations(state) == []
    assert game.is_terminal(state)


@pytest.mark.parametrize("extra, after", [("if piece.moved:\n                quiet = 1", ""),
                                          ("quiet = 0", "after each action:\n        if piece.moved: quiet = 1")])
def test_an_attribute_the_case_or_its_after_rules_read_is_set_by_the_check(tmp_path, extra, after):
    # (the line reads `quiet`, which the case's next statement or the `after each action` block sets
    # from the flag: left out, every move would be allowed)
    game = _game(tmp_path, "quiet == 1", extra, after)
    assert "x0" in _check_code(game)
    assert game.legal_notations(game.initial_state()) == []


def test_a_case_that_ends_the_game_is_checked_as_it_is(tmp_path):
    # (an ending statement is numbered as it is compiled: such a case is not compiled again)
    game = _game(tmp_path, BESIDE, "if to == a3:\n                win")
    assert "x0" in _check_code(game)
    assert sorted(game.legal_notations(game.initial_state())) == ["a2a1", "a2a3", "b1a1", "b1c1"]
    assert game.is_terminal(game.apply(game.initial_state(), "a2a3"))


def test_switched_off_the_check_plays_them(tmp_path, monkeypatch):
    monkeypatch.setattr(attribute_writes, "IN_CASES", False)
    game = _game(tmp_path, BESIDE)
    code = _check_code(game)
    assert "x0" in code and code.count("for ") == 2
    assert sorted(game.legal_notations(game.initial_state())) == ["a2a1", "a2a3", "b1a1", "b1c1"]


# ---- the fresh chess (benchmarks/outsiders/chess): its king's steps clear the rooks' castling flags
CHESS = str(REPO / "benchmarks" / "outsiders" / "chess")


def _position(game, mover: str, board: str, ep: str = "-"):
    return game.parse_position(f"rw2; game chess; ply 0; phase play; turn {mover} move 0; board {board}; "
                               f"variables ep={ep} fresh=0 quiet=0")


def test_the_kings_steps_keep_their_answers_by_code():
    game = load_game(CHESS)
    kept = {check.__name__ for row in game.rules.result_checks for check in row if isinstance(check, KeptByMove)}
    assert {game.rules.source_map[name].what.split(":")[0] for name in kept} \
        == {"action 'king_step', onto empty", "action 'king_step', onto enemy",
            # (castling too, a move of two pieces: tests/language/test_two_piece_kept.py)
            "action 'castle_short', onto empty", "action 'castle_long', onto empty"}


@pytest.mark.parametrize("mover, board, ep, legal", [
    # a rook on the d-file: the king's steps onto it are forbidden, castling short is not
    ("white", "e1=white.king h1=white.rook[castling=1] d8=black.rook a8=black.king", "-",
     ["e1e2", "e1f1", "e1f2", "e1g1", "h1f1", "h1g1", "h1h2", "h1h3", "h1h4", "h1h5", "h1h6", "h1h7", "h1h8"]),
    # a bishop on f1's diagonal: no castling through it, no step onto e2 or f1
    ("white", "e1=white.king h1=white.rook[castling=1] c4=black.bishop a8=black.king", "-",
     ["e1d1", "e1d2", "e1f2", "h1f1", "h1g1", "h1h2", "h1h3", "h1h4", "h1h5", "h1h6", "h1h7", "h1h8"]),
    # the checking queen protected by the rook on h2: only its capture by the rook on a2
    ("white", "e1=white.king a2=white.rook e2=black.queen h2=black.rook a8=black.king", "-", ["a2e2"]),
    # en passant empties b5 and c5: the rook on h5 would see the king
    ("white", "a5=white.king b5=white.pawn c5=black.pawn h5=black.rook e8=black.king", "c5",
     ["a5a4", "a5a6", "a5b6", "b5b6"]),
    # the same with the rook a rank higher: en passant is allowed, b6 is not
    ("white", "a5=white.king b5=white.pawn c5=black.pawn h6=black.rook e8=black.king", "c5",
     ["a5a4", "b5b6", "b5c6"]),
])
def test_hand_checked_positions_of_the_fresh_chess(mover, board, ep, legal):
    game = load_game(CHESS)
    assert sorted(game.legal_notations(_position(game, mover, board, ep))) == legal


def test_the_kings_answers_kept_follow_a_blocker_leaving_the_line():
    # (the knight on c2 blocks a2's rook: the king may step along the second rank; once it has
    # left, listed after the first position, the answers kept by code for e1d2, e1e2, e1f2 are not
    # given again)
    game = load_game(CHESS)
    state = _position(game, "white", "e1=white.king c2=white.knight a2=black.rook a8=black.king")
    assert {"e1d2", "e1e2", "e1f2"} <= set(game.legal_notations(state))
    state = game.apply(game.apply(state, "c2b4"), "a8b8")
    assert sorted(n for n in game.legal_notations(state) if n.startswith("e1")) == ["e1d1", "e1f1"]


def test_a_kings_step_still_clears_its_rooks_castling_flags():
    game = load_game(CHESS)
    state = _position(game, "white", "e1=white.king h1=white.rook[castling=1] a8=black.king")
    text = game.position_text(game.apply(state, "e1e2"))
    assert "h1=white.rook " in text or "h1=white.rook;" in text
    assert "castling=1" not in text


def test_the_checks_without_the_flags_give_the_same_games():
    # (random games of the fresh chess and the docs example, listed with the checks leaving the
    # flags out, then playing them: the same legal codes at every ply)
    for path, seeds in ((CHESS, range(3)), (str(REPO / "docs" / "examples" / "chess"), range(2))):
        left_out = legal_codes_seen(load_game(path), seeds)
        saved = attribute_writes.IN_CASES
        try:
            attribute_writes.IN_CASES = False
            played = legal_codes_seen(load_game(path), seeds)
        finally:
            attribute_writes.IN_CASES = saved
        assert left_out == played
