"""A `forbid result` check plays its case without the statements that only set
variables to values written out where no `forbid result` line reads them
(compilation/attribute_writes.variables_set_only, actions.ActionCompiler.
_checked_statements): a counter stepped, a per-player site variable cleared by a
procedure without parameters (written out first: `calls_written_out`). Where a
line, another statement of the case or an `after each action` block reads the
variable, the check plays them. The game itself still sets them. Then Chess960
(benchmarks/outsiders/chess960: castling a `pass` with statements, the king
found by `first`), whose king's moves clear both castling rooks' variables:
hand-checked positions."""
import ast

import pytest

from interpreter import load_game
from interpreter.compilation import attribute_writes
from interpreter.parsing import ast as rw
from tests.helpers import REPO, legal_codes_seen, stones_and_rocks, write_definition

SETUP = ("variables:\n  quiet: {type: int, default: 0}\n"
         "  mark: {type: site, per_player: true, default: a1}\n"
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
            unmark
            quiet_move
            EXTRA
    AFTER
procedure unmark:
    mark[player] = none
procedure quiet_move:
    quiet += 1
    move
forbid result where FORBID
"""
# (no stone of the mover's west of an enemy: b2 is forbidden, c2 being black)
BESIDE = "exists(pieces of player, neighbour(it, e) is enemy)"


def _game(tmp_path, forbid: str = BESIDE, extra: str = "", after: str = ""):
    rules = RULES.replace("FORBID", forbid).replace("EXTRA", extra).replace("AFTER", after)
    return load_game(write_definition(tmp_path, stones_and_rocks(extra=SETUP), rules))


def _check_code(game) -> str:
    """The generated check of the stones' moves."""
    name = game.rules.result_checks[0][0].__name__
    return next(ast.unparse(f) for f in game.rules.module.body if isinstance(f, ast.FunctionDef) and f.name == name)


def _variables(game, state) -> str:
    return game.position_text(state).split("variables ")[1].split(";")[0]


def test_the_cases_variable_writes_no_line_reads_are_left_out_of_its_check(tmp_path):
    game = _game(tmp_path)
    assert "v[" not in _check_code(game)
    assert sorted(game.legal_notations(game.initial_state())) == ["a2a1", "a2a3", "b1a1", "b1c1"]
    # (played, the move still steps the counter and clears white's mark)
    state = game.apply(game.initial_state(), "a2a3")
    assert _variables(game, state) == "quiet=1 mark=white:-,black:a1"


@pytest.mark.parametrize("forbid, extra, after", [
    # the line reads the counter: every move makes it 1, none is legal
    ("quiet == 1", "", ""),
    # the line reads the mark through a define
    ("unmarked", "", ""),
    # the case's next statement reads the counter, into one the line reads
    ("mark[player] == b1", "if quiet == 1:\n                mark[player] = b1", ""),
    # so does an `after each action` block
    ("mark[player] == b1", "", "after each action:\n        if quiet == 1: mark[player] = b1"),
])
def test_a_variable_a_line_the_case_or_its_after_rules_read_is_set_by_the_check(tmp_path, forbid, extra, after):
    rules_forbid = forbid if forbid != "unmarked" else "mark[player] == none"
    game = _game(tmp_path, rules_forbid, extra, after)
    assert "v[" in _check_code(game)
    state = game.initial_state()
    assert game.legal_notations(state) == []
    assert game.is_terminal(state)


def test_switched_off_the_check_plays_them(tmp_path, monkeypatch):
    monkeypatch.setattr(attribute_writes, "VARIABLES_IN_CASES", False)
    game = _game(tmp_path)
    assert "v[" in _check_code(game)
    assert sorted(game.legal_notations(game.initial_state())) == ["a2a1", "a2a3", "b1a1", "b1c1"]


def test_variables_set_only_refuses_what_may_fail_or_reads_a_define():
    variables = {"quiet": False, "mark": True}
    names = ["far"]

    def found(text_stmts: list) -> object:
        return attribute_writes.variables_set_only(text_stmts, variables, names, {})

    pos = rw.NOWHERE

    def assign(target, op, value):
        return rw.AssignStmt(pos, target, op, value)

    quiet, mark = rw.Name(pos, "quiet"), rw.Index(pos, rw.Name(pos, "mark"), rw.Name(pos, "player"))
    assert found([assign(quiet, "+=", rw.Num(pos, 1)), assign(mark, "=", rw.NoneLit(pos))]) == {"quiet", "mark"}
    # (a step too large is bounds-checked; a value computed may fail; a shared variable given a player's
    # index, an undeclared one, a per-player one without its index: not such statements)
    assert found([assign(quiet, "+=", rw.Num(pos, 10))]) is None
    assert found([assign(quiet, "=", rw.Name(pos, "far"))]) is None
    assert found([assign(rw.Index(pos, quiet, rw.Name(pos, "player")), "=", rw.Num(pos, 0))]) is None
    assert found([assign(rw.Name(pos, "other"), "=", rw.Num(pos, 0))]) is None
    assert found([assign(rw.Name(pos, "mark"), "=", rw.NoneLit(pos))]) is None


# ---- Chess960 (benchmarks/outsiders/chess960)
CHESS960 = str(REPO / "benchmarks" / "outsiders" / "chess960")


def _position(game, board: str, left: str = "-", right: str = "-", ep: str = "-"):
    return game.parse_position(f"rw2; game chess960; ply 1; phase play; turn white move 0; board {board}; "
                               f"variables left_rook=black:-,white:{left} right_rook=black:-,white:{right} "
                               f"ep={ep} ep_next=- halfmoves=0 arrangement=0")


def test_the_kings_checks_leave_the_castling_variables_out():
    game = load_game(CHESS960)
    kings = [name for name, where in game.rules.source_map.items() if where.what.startswith("action 'king_move'")]
    checks = {check.__name__ for row in game.rules.result_checks for check in row if check is not None}
    bodies = [ast.unparse(f) for f in game.rules.module.body
              if isinstance(f, ast.FunctionDef) and f.name in checks and f.name in kings]
    assert bodies and all("v[" not in body for body in bodies)


@pytest.mark.parametrize("board, left, right, ep, legal, illegal", [
    # king b1, rooks a1 and h1: the rook on e8 attacks e1, which O-O's king passes; O-O-O's king goes to c1
    ("b1=white.king a1=white.rook h1=white.rook e8=black.rook h8=black.king", "a1", "h1", "-",
     ["O-O-O"], ["O-O"]),
    # the rook on g8 attacks g1, where O-O's king lands
    ("b1=white.king a1=white.rook h1=white.rook g8=black.rook a8=black.king", "a1", "h1", "-",
     ["O-O-O"], ["O-O"]),
    # the rook on h8 attacks the castling rook alone: both castlings
    ("b1=white.king a1=white.rook h1=white.rook h8=black.rook a8=black.king", "a1", "h1", "-",
     ["O-O", "O-O-O"], []),
    # out of check: neither
    ("b1=white.king a1=white.rook h1=white.rook b8=black.rook h8=black.king", "a1", "h1", "-",
     [], ["O-O", "O-O-O"]),
    # the king already on g1, its rook beside it (in-place castling: the rook alone moves), d8's rook
    # attacks d1, which O-O-O's king passes on its way from g1 to c1
    ("g1=white.king h1=white.rook a1=white.rook d8=black.rook a8=black.king", "a1", "h1", "-",
     ["O-O"], ["O-O-O"]),
])
def test_hand_checked_castlings_of_chess960(board, left, right, ep, legal, illegal):
    game = load_game(CHESS960)
    listed = set(game.legal_notations(_position(game, board, left, right, ep)))
    assert set(legal) <= listed and not set(illegal) & listed


@pytest.mark.parametrize("board, ep, legal", [
    # the knight on e2 pinned by the rook on e8: the king's steps alone (not onto the e-file's e2)
    ("e1=white.king e2=white.knight e8=black.rook a8=black.king", "-",
     ["e1d1", "e1d2", "e1f1", "e1f2"]),
    # the bishop on d2 pinned along a5-e1: along that diagonal alone, a5 taken
    ("e1=white.king d2=white.bishop a5=black.bishop h8=black.king", "-",
     ["d2a5", "d2b4", "d2c3", "e1d1", "e1e2", "e1f1", "e1f2"]),
    # en passant empties b5 and c5: the rook on h5 would see the king
    ("a5=white.king b5=white.pawn c5=black.pawn h5=black.rook e8=black.king", "c6",
     ["a5a4", "a5a6", "a5b6", "b5b6"]),
    # the same with the rook a rank higher: en passant is allowed, b6 and a6 are not
    ("a5=white.king b5=white.pawn c5=black.pawn h6=black.rook e8=black.king", "c6",
     ["a5a4", "b5b6", "b5c6"]),
])
def test_hand_checked_positions_of_chess960(board, ep, legal):
    game = load_game(CHESS960)
    assert sorted(game.legal_notations(_position(game, board, ep=ep))) == legal


def test_a_kings_move_still_clears_its_castling_rooks():
    game = load_game(CHESS960)
    state = game.apply(_position(game, "b1=white.king a1=white.rook h1=white.rook h8=black.king", "a1", "h1"),
                       "b1b2")
    assert "left_rook=black:-,white:- right_rook=black:-,white:-" in game.position_text(state)


def test_the_checks_without_the_variables_give_the_same_games():
    # (random games of Chess960, the docs chess and the fresh chess, listed with the checks leaving
    # the variables out, then playing them: the same legal codes at every ply)
    for path, seeds in ((CHESS960, range(3)), (str(REPO / "docs" / "examples" / "chess"), range(2)),
                        (str(REPO / "benchmarks" / "outsiders" / "chess"), range(2))):
        left_out = legal_codes_seen(load_game(path), seeds)
        saved = attribute_writes.VARIABLES_IN_CASES
        try:
            attribute_writes.VARIABLES_IN_CASES = False
            played = legal_codes_seen(load_game(path), seeds)
        finally:
            attribute_writes.VARIABLES_IN_CASES = saved
        assert left_out == played
